"""A note, in the user's own ``$PBEM_HOME``, that a `pbem submit` is under way.

A submit killed after its files were written cannot be told, from the
chain alone, from one that finished: both leave the seat's last file
holding the commands. Where the turn is over after that file (the seat is
no longer to act, or others owe answers), the same commands again can only
be that run repeated, and are reported as done. Where the seat is still to
act (a turn of several files: Codex, Dark Agent, a recruit before one's own
play in Agent Avenue), the same commands again are either the killed run
repeated (report it, exit 0) or a new command (the rules decide, and an
illegal one exits 1). This note tells the two apart: `begin` writes it
before the first file is written, `end` removes it once the command has
reported what it wrote, so a note still there when the same commands come
again says the earlier run never finished.

The note is per user (never in a shared game folder) and names the folder
(its resolved path) and the seat only through a hash.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec

from pbem.fsio import make_folder

__all__ = ["begin", "interrupted", "end"]

FOLDER = "submitting"


def _path(home: Path, folder: Path, seat: str) -> Path:
    key = hashlib.sha256(f"{Path(folder).resolve()}\0{seat}".encode()).hexdigest()[:32]
    return home / FOLDER / key


def begin(home: Path, folder: Path, seat: str, texts: list[str]) -> None:
    """Note that `seat`'s submit of `texts` in `folder` is about to write.

    A plain write, not synced to disk: a note lost in a crash of the whole
    machine only makes that rerun a new command (refused with a hint that
    names the file already in), never a wrong game."""
    make_folder(home / FOLDER)
    _path(home, folder, seat).write_bytes(msgspec.json.encode(texts))


def interrupted(home: Path, folder: Path, seat: str, texts: list[str]) -> bool:
    """True if a submit of these very `texts` began and never reported."""
    try:
        return msgspec.json.decode(_path(home, folder, seat).read_bytes()) == texts
    except (OSError, ValueError):
        return False


def end(home: Path, folder: Path, seat: str) -> None:
    """The submit has reported what it wrote: forget the note."""
    _path(home, folder, seat).unlink(missing_ok=True)
