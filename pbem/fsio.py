"""Atomic file writes: a reader (or a sync tool) never sees half a file.

Every file the CLI writes goes through `atomic_write`: the bytes go to a
temporary file in the same folder, are flushed and fsynced, then renamed over
the target, and the folder is fsynced so the rename survives a crash.

A process killed before the rename leaves its temporary file behind
(``.NAME.XXXXXXXX.tmp``); `stray_temp_files` finds them so that the next
writer, holding the folder's lock (`pbem.gamedir.lock`), removes them.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from pathlib import Path

from pbem.errors import PbemError


def make_folder(path: Path) -> None:
    """Create `path` (and its parents) if missing; PbemError, not OSError,
    when it cannot be (a file stands where a folder should, no permission)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PbemError(f"cannot create the folder {path}: {exc.strerror}") from None

#: the names `tempfile.mkstemp` gives in `atomic_write`: "." + target + "." + 8 random characters + ".tmp"
_TEMP = re.compile(r"^\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp$")


def atomic_write(path: Path | str, data: bytes, mode: int = 0o644, *, exclusive: bool = False,
                 durable: bool = True) -> None:
    """Write `data` to `path` atomically with permissions `mode`.

    Without `durable`, the file and its folder are not flushed to the disk
    (no `fsync`): for a cache rebuilt from the chain when it is stale or
    damaged (`state.pbem`), whose loss in a crash costs nothing. Readers
    still see the old bytes or the new, never a mix.

    With `exclusive`, refuse (FileExistsError) when `path` already exists, so
    two writers racing for the same turn number cannot overwrite each other.
    Any other failure (a folder where the file should be, a full disk) is a
    one-line PbemError that names the file.
    """
    try:
        _atomic_write(Path(path), data, mode, exclusive, durable)
    except FileExistsError:
        if exclusive:
            raise
        raise PbemError(f"cannot write {path}: it exists and cannot be replaced") from None
    except IsADirectoryError:
        raise PbemError(f"cannot write {path}: a folder of that name is in the way") from None
    except OSError as exc:
        raise PbemError(f"cannot write {path}: {exc.strerror}") from None


def _atomic_write(path: Path, data: bytes, mode: int, exclusive: bool, durable: bool = True) -> None:
    folder = path.parent
    import tempfile  # only writers need it (and its shutil, compression modules)

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)  # see _TEMP
    try:
        if hasattr(os, "fchmod"):  # POSIX; Windows keeps its own ACLs
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if exclusive:
            try:
                os.link(tmp, path)  # fails if path exists; atomic on POSIX
            except FileExistsError:
                raise
            except OSError:  # no hard links here (some network or FAT drives)
                _create_exclusive(path, data, mode)
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_dir(folder)


def _create_exclusive(path: Path, data: bytes, mode: int) -> None:
    """Exclusive creation without hard links: O_EXCL still refuses a file
    that exists; a reader might glimpse it half written, never a mix."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a folder
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def stray_temp_files(folder: Path, ours: Callable[[str], bool]) -> list[Path]:
    """Temporary files `atomic_write` left in `folder` for targets that `ours`
    accepts. Only call this while no writer can be running (holding the
    folder's lock): a live writer's temporary file looks the same."""
    out = []
    for name in os.listdir(folder):  # names, not paths: a long game's folder holds a thousand chain files
        if name[:1] != "." or not name.endswith(".tmp"):
            continue
        m = _TEMP.match(name)
        if m and ours(m.group("target")):
            path = Path(folder, name)
            if path.is_file():
                out.append(path)
    return sorted(out)
