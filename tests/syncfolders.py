"""Two (or more) real folders kept in step the way a sync tool does it.

`SyncLoop` is a thread that copies each new or changed file from one folder
to the others, as Syncthing or Dropbox would: through a temporary name
(``.syncthing.NAME.tmp`` / ``.~NAME``) renamed into place once complete,
never over a file the other side made meanwhile. When a chain file's name
holds different bytes on two sides and neither is the version last agreed
on, it keeps the newer one under the name and the other as a conflict
copy, named as the tool names it (``NAME.sync-conflict-YYYYMMDD-HHMMSS-
DEVICE.pbem`` or ``NAME (DEVICE's conflicted copy YYYY-MM-DD).pbem``), on
every side. Other files (``state.pbem``) go newest-wins. The lock file and
the pending area are local, as a user's ignore list would make them.
Deletions are not carried over.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from pathlib import Path

_CHAIN = re.compile(r"^\d{6}-.*\.pbem$")
_LOCAL = re.compile(r"^(\.pbem\.lock|\..*\.tmp|\.~.*|~.*|\.syncthing\..*)$")


class SyncLoop(threading.Thread):
    def __init__(self, dirs: list[Path], style: str = "syncthing", period: float = 0.03) -> None:
        super().__init__(daemon=True, name="sync-loop")
        self.dirs, self.style, self.period = dirs, style, period
        for d in dirs:
            d.mkdir(parents=True, exist_ok=True)
        self.base: dict[str, bytes] = {}  # the last version every side agreed on
        self.conflicts: list[str] = []
        self._halt = threading.Event()
        self._run = threading.Event()
        self._run.set()
        self._idle = threading.Event()
        self.error: BaseException | None = None

    def stop(self) -> None:
        self._halt.set()
        self.join(5)
        if self.error is not None:
            raise self.error

    @contextlib.contextmanager
    def paused(self):
        """No copying inside the block (two machines offline)."""
        self._run.clear()
        self._idle.clear()
        self._idle.wait(2)
        try:
            yield
        finally:
            self._run.set()

    def settle(self, rounds: int = 3) -> None:
        """Wait until a few rounds have passed (everything copied)."""
        for _ in range(rounds):
            self._idle.clear()
            self._idle.wait(2)

    def run(self) -> None:
        try:
            while not self._halt.is_set():
                if self._run.is_set():
                    self.once()
                self._idle.set()
                time.sleep(self.period)
        except BaseException as exc:  # noqa: BLE001 - re-raised by stop()
            self.error = exc

    def _versions(self, name: str) -> dict[Path, bytes]:
        out = {}
        for d in self.dirs:
            try:
                out[d] = (d / name).read_bytes()
            except (FileNotFoundError, IsADirectoryError):
                pass
        return out

    def once(self) -> None:
        names = {p.name for d in self.dirs for p in d.iterdir() if p.is_file() and not _LOCAL.match(p.name)}
        for name in sorted(names):
            got = self._versions(name)
            distinct = set(got.values())
            if len(distinct) == 1 and len(got) == len(self.dirs):
                self.base[name] = next(iter(distinct))
                continue
            changed = {d: b for d, b in got.items() if b != self.base.get(name)}
            if len({*changed.values()}) > 1 and _CHAIN.match(name):
                self._conflict(name, changed)
                continue
            newest = max(got, key=lambda d: (d in changed, _mtime(d / name)))
            data = got[newest]
            for d in self.dirs:
                if got.get(d) != data:
                    self._put(d, name, data, replace=d in got)
            self.base[name] = data

    def _conflict(self, name: str, changed: dict[Path, bytes]) -> None:
        keep = max(changed, key=lambda d: _mtime(d / name))
        stem, ext = name[: -len(".pbem")], ".pbem"
        for d, data in changed.items():
            if d is keep:
                continue
            device = d.name.upper()[:7].ljust(7, "X")
            if self.style == "syncthing":
                copy = f"{stem}.sync-conflict-{time.strftime('%Y%m%d-%H%M%S')}-{device}{ext}"
            else:
                copy = f"{stem} ({d.name}'s conflicted copy {time.strftime('%Y-%m-%d')}){ext}"
            self.conflicts.append(copy)
            for other in self.dirs:
                self._put(other, copy, data)
        for other in self.dirs:
            self._put(other, name, changed[keep], replace=True)
        self.base[name] = changed[keep]

    def _put(self, d: Path, name: str, data: bytes, replace: bool = False) -> None:
        tmp = d / (f".syncthing.{name}.tmp" if self.style == "syncthing" else f".~{name}")
        with open(tmp, "wb") as fh:  # in two halves: a temp file that grows
            fh.write(data[: len(data) // 2])
            fh.flush()
            time.sleep(0.002)
            fh.write(data[len(data) // 2:])
        if replace:
            os.replace(tmp, d / name)
            return
        try:
            os.link(tmp, d / name)  # never over a file the other side made meanwhile
        except FileExistsError:
            pass
        os.unlink(tmp)


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return 0
