"""Reading a file pbem is given or finds in a game folder, safely: only a
regular file is ever opened, never more than a pbem file may hold.

A shared game folder is written by others: a named pipe or a symbolic link
put there under a chain file's name must not hang a command or make it read
elsewhere, and a huge file must be refused before it is read into memory.
`pbem.gamedir.folder` reads every chain file through `read`; what the user
hands over (`pbem apply`, `pbem join`) comes in through `received`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pbem.crypto.limits import MAX_FILE_BYTES, check_limits, check_size
from pbem.errors import PbemError
from pbem.protocol import codec


def read(path: Path, follow: bool = False) -> bytes:
    """The bytes of a file we are given, never more than a pbem file may
    hold (a huge file is refused before it is read into memory).

    Only a regular file is ever opened (`regular`): a named pipe that
    someone put into a shared game folder under a chain file's name would
    otherwise hang every command that reads the folder. A symbolic link in
    a game folder is refused too; `follow` (a path the user typed) follows
    it to the file it names."""
    try:
        data = read_at_most(path, MAX_FILE_BYTES + 1, follow)
    except OSError as exc:
        raise PbemError(f"cannot read {path}: {exc.strerror}") from None
    check_size(len(data), path.name)
    return data


def regular(path: Path, st: os.stat_result) -> None:
    """Refuse (`PbemError`) anything but a regular file, by the `lstat` (or
    `stat`) taken before opening it: a folder, a named pipe, a socket, a
    device or a symbolic link is named and never opened."""
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise PbemError(f"{path} is a folder, not a file")
    kind = next((what for test, what in _KINDS if test(st.st_mode)), "not a regular file")
    raise PbemError(f"{path} is {kind}, not a regular file: pbem does not open it",
                    hint="remove it (pbem only ever writes regular files)")


_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
#: open flags that keep a swapped file from blocking (a pipe) or being followed (a link)
_OPEN = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def read_at_most(path: Path, limit: int, follow: bool) -> bytes:
    """Up to `limit` bytes of a regular file, asking for its size first: a
    buffered ``read(limit)`` allocates `limit` bytes for every small file
    (and every command reads every chain file). The file's kind is checked
    before it is opened and again on what was opened (it may have been
    swapped meanwhile, which the flags keep from blocking)."""
    regular(path, os.stat(path) if follow else os.lstat(path))
    fd = os.open(path, _OPEN | (0 if follow else _NOFOLLOW))
    try:
        st = os.fstat(fd)
        regular(path, st)
        chunks, got = [], 0
        want = min(limit, st.st_size + 1)
        while got < limit:
            chunk = os.read(fd, max(1, min(want, limit - got)))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            want = min(limit - got, 1 << 16)
        return b"".join(chunks)
    finally:
        os.close(fd)


def received(path: Path) -> bytes:
    """A file given to us (`pbem apply`, `pbem join`): read, and checked
    against the limits of the format, so any error names the file."""
    data = read(path, follow=True)
    check_limits(data, path.name)
    return codec.normalise(data)[0]  # stored as pbem writes it
