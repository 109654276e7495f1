"""What this process has read of game folders' files, so that a folder
loaded again (the demo's players, a watcher, the referee) reads only the
files that are new or changed since (issue #26).

Without it every load read and hashed every file of the folder: a step of
a game cost time in proportion to the game's length, a whole game the
square of it (783,850 file reads in a Dark Agent peer demo of 578 files).

A file is read again unless its `lstat` is the very one taken when it was
read: device, inode, size, modification time and change time, all to the
nanosecond. Editing a file in place changes its change time (which no
program can set back: `utime` sets the change time to now), replacing it
(a rename, a sync tool's new copy) changes its inode, removing it makes
`lstat` fail. So a changed file is always read again, and checked as a
fresh load checks it. One caution, as git takes with its index: a file
changed within the clock's tick of when it was read could keep the same
times, so a file is remembered only once its times are `SETTLED_NS`
older than the moment it was read; a younger one is read again each time
(a few files at most: the ones the last second wrote).

Only the bytes are remembered, never a verdict: a file read from memory is
checked by the chain exactly as one read from disk.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

#: a file is remembered only when both its times are at least this much
#: older than the moment it was read (coarse file-system clocks)
SETTLED_NS = 1_000_000_000
#: the most bytes remembered; the files remembered first are forgotten
#: first (a referee watching a thousand games keeps the latest ones)
MAX_BYTES = 64 << 20


class _Read(NamedTuple):
    key: tuple[int, int, int, int, int]  # inode, size, mtime_ns, ctime_ns, device
    data: bytes  # as pbem writes it (`codec.normalise`)
    damage: str | None  # what `normalise` repaired
    digest: str  # SHA-256 of `data`, hex


_FILES: dict[str, _Read] = {}


def _key(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_dev


def remembered_read(path: Path, read: Callable[[Path], tuple[bytes, str | None]]) -> tuple[bytes, str | None]:
    """`read(path)` (bytes as pbem writes them, and the damage repaired),
    or what it gave before when the file has not changed since."""
    where = os.path.abspath(path)
    try:
        st = os.lstat(where)
    except OSError:
        _drop(where)
        return read(path)  # says what is wrong with it, as it always did
    key = _key(st)
    hit = _FILES.get(where)
    if hit is not None and hit.key == key:
        return hit.data, hit.damage
    started = time.time_ns()
    data, damage = read(path)
    _drop(where)
    if max(st.st_mtime_ns, st.st_ctime_ns) < started - SETTLED_NS:
        digest = hashlib.sha256(data).hexdigest()
        _FILES[where] = _Read(key, data, damage, digest)
        _DIGESTS[id(data)] = (data, digest)
        _held[0] += len(data)
        while _held[0] > MAX_BYTES:
            _drop(next(iter(_FILES)))
    return data, damage


def _drop(where: str) -> None:
    old = _FILES.pop(where, None)
    if old is not None:
        _DIGESTS.pop(id(old.data), None)
        _held[0] -= len(old.data)


def unchanged(where: str, digest: str) -> tuple[bool, str | None]:
    """Whether the file at the absolute path `where` is remembered with
    that digest and has not changed since (and the damage its read
    repaired): what `remembered_read` would give, without building it."""
    hit = _FILES.get(where)
    if hit is None or hit.digest != digest:
        return False, None
    try:
        st = os.lstat(where)
    except OSError:
        return False, None
    same = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_dev) == hit.key
    return same, hit.damage


def unchanged_run(where: str, names: dict[int, list[str]], files: list[tuple[str, str]], start: int,
                  notes: list[str]) -> int:
    """How far from `start` the files remembered as `files` (name and digest
    by seq) are each alone at their seq in `names` (the folder's listing)
    and `unchanged` since read: the first seq that is not (or the end).
    `unchanged` for each, in one loop: a load runs it over every file of
    the game, so its cost per file is the cost of a long game's every
    command. Adds the note of each file's repaired damage, as a read does."""
    lstat, remembered, sep = os.lstat, _FILES.get, os.sep
    for seq in range(start, len(files)):
        name, digest = files[seq]
        listed = names.get(seq)
        if listed is None or len(listed) != 1 or listed[0] != name:
            return seq
        path = where + sep + name
        hit = remembered(path)
        if hit is None or hit.digest != digest:
            return seq
        try:
            st = lstat(path)
        except OSError:
            return seq
        if (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_dev) != hit.key:
            return seq
        if hit.damage:
            notes.append(f"{name} has {hit.damage} (outside the signed body): read as pbem wrote it")
    return len(files)


def digest_of(data: bytes) -> str:
    """SHA-256 of `data` (hex): remembered for the bytes of a remembered file."""
    hit = _DIGESTS.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    return hashlib.sha256(data).hexdigest()


#: id(bytes) -> (those bytes, their digest), for the files remembered: the
#: bytes are held here, so no other object can have their id meanwhile
_DIGESTS: dict[int, tuple[bytes, str]] = {}
_held = [0]  # the bytes remembered


def forget() -> None:
    """Forget every file read (the tests compare a load from memory with a fresh one)."""
    _FILES.clear()
    _DIGESTS.clear()
    _held[0] = 0
