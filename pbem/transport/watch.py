"""Following folders that a sync tool keeps in step: what to ignore, what a
conflict copy is, and how to wait for the next change.

A sync tool (Syncthing, Dropbox, a network drive) moves bytes on its own
schedule. It writes a file under a temporary name and renames it when it is
complete (Syncthing: ``.syncthing.NAME.tmp``; Dropbox keeps ``~``/``.~``
names and its ``.dropbox*`` files), or, on a network drive, writes it in
place while its size still changes. When two machines change one name
before they meet, it keeps both: Syncthing as
``NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.ext``, Dropbox as ``NAME (X's
conflicted copy YYYY-MM-DD).ext``; a browser saving a file twice makes
``NAME (1).ext``. This module only names these things and waits; what a
conflict copy means for the game (the same file, or a fork) is judged by
reading the chain (`pbem.gamedir.folder`).

Waiting uses the `watchfiles` library (inotify and its kin) when it is
installed and works on the folder, else a poll of the folder's listing
(``--poll``: network file systems, where inotify never hears of the other
machine's writes). Both are woken by a stop flag, so Ctrl-C ends the watch
between two steps, never in the middle of writing a file.
"""

from __future__ import annotations

import os
import queue
import re
import threading
from collections.abc import Callable
from pathlib import Path

#: names of files still on their way (sync tools' and pbem's own temp files)
_TEMP = re.compile(
    r"^(?:\.syncthing\..+\.tmp"      # Syncthing
    r"|~syncthing~.+\.tmp"           # Syncthing on Windows
    r"|\.dropbox.*|.+\.dropbox"      # Dropbox's own files
    r"|~.*|\.~.*"                    # Dropbox and office temp files
    r"|.+\.(?:part|partial|crdownload|download)"  # browsers, rsync --partial
    r"|\..+\.[a-z0-9_]{8}\.tmp"      # pbem's own atomic writes (pbem.fsio)
    r")$"
)
_SYNCTHING = re.compile(r"^(?P<base>.+?)\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}(?P<ext>\.[^.]+)?$")
_DROPBOX = re.compile(r"^(?P<base>.+?) \((?P<who>[^()]*?)(?:'s)? conflicted copy[^()]*(?:\(\d+\))?\)(?P<ext>\.[^.]+)?$")
_BROWSER = re.compile(r"^(?P<base>.+?) \(\d+\)(?P<ext>\.[^.]+)?$")
#: folders a tree walk never enters (sync tools' own, pbem's pending area)
_SKIP_DIRS = {"pending", ".stversions", ".stfolder", ".dropbox.cache", ".git", "__pycache__"}


def is_temporary(name: str) -> bool:
    """A file still being written by a sync tool, a browser or pbem itself."""
    return bool(_TEMP.match(name))


def conflict_copy(name: str) -> tuple[str, str] | None:
    """(the name it is a copy of, which tool made it), for a conflict copy's name."""
    for pattern, tool in ((_SYNCTHING, "Syncthing"), (_DROPBOX, "Dropbox"), (_BROWSER, "a browser")):
        m = pattern.match(name)
        if m:
            return m.group("base") + (m.group("ext") or ""), tool
    return None


Signature = tuple[tuple[str, int, int], ...]


def signature(folder: Path, wanted: Callable[[str], bool]) -> Signature:
    """(name, size, mtime) of the files in `folder` that `wanted` keeps, and
    of the temporary files beside them: equal twice in a row means nothing
    is arriving any more."""
    out = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return ()
    for entry in entries:
        name = entry.name
        if not (wanted(name) or is_temporary(name)):
            continue
        try:
            st = entry.stat()
        except OSError:  # gone between the listing and the look
            continue
        out.append((name, st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


def game_folders(tree: Path, marker: str) -> list[Path]:
    """Every folder under `tree` (itself included) holding `marker` (a genesis)."""
    found = []
    for root, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        if marker in files:
            found.append(Path(root))
    return found


# --- waiting ------------------------------------------------------------------------------


class Poller:
    """Wakes when the listing of the folders under `roots` changes (every
    `interval` seconds a look at names, sizes and times)."""

    kind = "polling"

    def __init__(self, roots: list[Path], interval: float = 1.0) -> None:
        self.roots, self.interval = roots, interval
        self._last = self._look()

    def _look(self):
        seen = []
        for root in self.roots:
            for path, dirs, files in os.walk(root):
                dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
                for name in files:
                    try:
                        st = os.stat(os.path.join(path, name))
                    except OSError:
                        continue
                    seen.append((path, name, st.st_size, st.st_mtime_ns))
        return sorted(seen)

    def wait(self, timeout: float, stop: threading.Event) -> bool:
        """True when something changed within `timeout` seconds (False: the
        time ran out, or `stop` was set)."""
        left = timeout
        while left > 0 and not stop.is_set():
            step = min(self.interval, left)
            stop.wait(step)
            left -= step
            now = self._look()
            if now != self._last:
                self._last = now
                return True
        return False

    def take(self) -> set[Path] | None:
        """The paths changed since the last call: unknown when polling (None)."""
        return None

    def close(self) -> None:
        pass


class Notified:
    """Wakes on the operating system's file events (`watchfiles`), heard by
    a thread that hands them over through a queue."""

    kind = "file events"

    def __init__(self, roots: list[Path]) -> None:
        import watchfiles  # ImportError: the caller polls instead

        self._events: queue.Queue = queue.Queue()
        self._changed: set[Path] = set()
        self._stop = threading.Event()
        started = threading.Event()

        def listen() -> None:
            try:
                for changes in watchfiles.watch(
                    *roots, stop_event=self._stop, debounce=50, step=20, rust_timeout=500,
                    yield_on_timeout=False, raise_interrupt=False, watch_filter=None, ignore_permission_denied=True,
                ):
                    started.set()
                    self._events.put(changes)
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                self._events.put(exc)
            finally:
                started.set()

        self._thread = threading.Thread(target=listen, name="pbem-watch", daemon=True)
        self._thread.start()
        started.wait(0.2)  # the watcher is up (or has failed) before the first look
        self._check()

    def _check(self) -> None:
        try:
            item = self._events.get_nowait()
        except queue.Empty:
            return
        if isinstance(item, BaseException):
            raise OSError(f"file events unavailable: {item}")
        self._events.put(item)

    def wait(self, timeout: float, stop: threading.Event) -> bool:
        left = timeout
        while left > 0 and not stop.is_set():
            step = min(0.1, left)
            try:
                item = self._events.get(timeout=step)
            except queue.Empty:
                left -= step
                continue
            if isinstance(item, BaseException):
                raise OSError(f"file events stopped: {item}")
            self._note(item)
            self._drain()  # one wake for a burst of events: the rest noted too
            return True
        return False

    def _note(self, changes) -> None:
        self._changed.update(Path(path) for _, path in changes)

    def take(self) -> set[Path] | None:
        """The paths of the events heard since the last call (without
        waiting), so that a caller looks only where something changed."""
        self._drain()
        changed, self._changed = self._changed, set()
        return changed

    def _drain(self) -> None:
        while True:
            try:
                item = self._events.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, BaseException):
                self._events.put(item)  # said by the next `wait`
                break
            self._note(item)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


def waiter(roots: list[Path], poll: bool, interval: float, notes: list[str]):
    """File events when they can be had (and `poll` is not asked), else polling."""
    if not poll:
        try:
            return Notified(roots)
        except ImportError:
            notes.append("watchfiles is not installed: polling the folder instead")
        except OSError as exc:
            notes.append(f"{exc}: polling the folder instead")
    return Poller(roots, interval)
