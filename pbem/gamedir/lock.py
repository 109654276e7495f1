"""One writer at a time in a game folder: an advisory lock file.

Every command that writes to a game folder (submit, sync, apply, join, new,
the rebuild of the state cache) holds the folder's lock from the moment it
reads the chain until its last file is written. So its checks are made
against the head it writes after, two writers can never both add a file
after one `prev`, and a stray temporary file seen while holding the lock
cannot belong to a live writer.

The lock is the file `.pbem.lock` in the game folder. It carries no data: it
is never read, and is not a chain file (chain files start with six digits),
so a sync tool that copies it, or keeps a conflict copy of it, changes
nothing. Where `fcntl` exists the lock is `flock` on that file, released by
the kernel when the holder exits or is killed. Elsewhere (Windows) the lock
is the file's exclusive creation (`O_EXCL`), holding the holder's pid, host
and time, and removed on release; one left by a killed process is broken
once it is older than `STALE_AFTER` seconds (no command holds it that long).

The lock only orders writers on one machine (or one network file system
that honours locks). Writers on two machines behind a sync tool still meet
the exclusive creation of each chain file and fork reporting.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from pbem.errors import FolderBusy

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK = ".pbem.lock"
#: seconds a command waits for another writer before it gives up
TIMEOUT = 15.0
#: an O_EXCL lock older than this is left by a process that died
STALE_AFTER = 120.0

_held: dict[tuple[str, int], int] = {}  # (folder, thread) -> depth: re-entrant
_POLL = 0.02
#: per thread, the event that ends its waits for a lock (`abandoned_when`)
_abandon = threading.local()


def timeout() -> float:
    """`PBEM_LOCK_TIMEOUT` (seconds) or the default."""
    try:
        return max(0.0, float(os.environ.get("PBEM_LOCK_TIMEOUT", TIMEOUT)))
    except ValueError:
        return TIMEOUT


@contextlib.contextmanager
def folder_lock(folder: Path | str, wait: float | None = None) -> Iterator[None]:
    """Hold `folder`'s write lock; wait up to `wait` seconds for it.

    Re-entrant within one thread, so a command may call another writing
    function. Raises `FolderBusy` when another writer keeps it too long, and
    `OSError` when the lock file cannot be made (a read-only folder).
    """
    folder = Path(folder)
    key = (os.path.realpath(folder), threading.get_ident())
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    wait = timeout() if wait is None else wait
    release = _acquire_flock(folder, wait) if fcntl is not None else _acquire_exclusive(folder, wait)
    _held[key] = 1
    try:
        yield
    finally:
        del _held[key]
        release()


@contextlib.contextmanager
def abandoned_when(stop: threading.Event) -> Iterator[None]:
    """Within this block (in this thread), a wait for a folder's lock gives
    up (`FolderBusy`) as soon as `stop` is set: a watcher asked to stop
    does not first wait out another writer (or whoever holds the lock on
    purpose)."""
    before = getattr(_abandon, "stop", None)
    _abandon.stop = stop
    try:
        yield
    finally:
        _abandon.stop = before


def _give_up(deadline: float) -> bool:
    stop = getattr(_abandon, "stop", None)
    return time.monotonic() >= deadline or (stop is not None and stop.is_set())


def _busy(folder: Path, wait: float) -> FolderBusy:
    return FolderBusy(
        f"another pbem command is writing to {folder} (waited {wait:g} s)",
        hint="retry when it has finished (PBEM_LOCK_TIMEOUT sets how long to wait)",
    )


def _acquire_flock(folder: Path, wait: float):
    # never through a symbolic link, never blocking on a named pipe; a
    # lock file that is not a regular file is refused like a chain file
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "it is not a regular file", str(folder / LOCK))
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if _give_up(deadline):
                os.close(fd)
                raise _busy(folder, wait) from None
            time.sleep(_POLL)
        except BaseException:
            os.close(fd)
            raise

    def release() -> None:
        os.close(fd)  # closing drops the flock

    return release


def _acquire_exclusive(folder: Path, wait: float):
    """The fallback: the lock is the file's existence."""
    path = folder / LOCK
    import socket  # only a writer that takes the lock needs it

    record = f"pid {os.getpid()} host {socket.gethostname()} time {int(time.time())}\n".encode()
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if _stale(path):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
                continue
            if _give_up(deadline):
                raise _busy(folder, wait) from None
            time.sleep(_POLL)
            continue
        with os.fdopen(fd, "wb") as fh:
            fh.write(record)
        break

    def release() -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)

    return release


def _stale(path: Path) -> bool:
    try:
        return time.time() - path.stat().st_mtime > STALE_AFTER
    except FileNotFoundError:
        return False
