"""What a look verified after the checkpoint: the digests of those files.

A read-only command (`status`, `show`, `log`, `legal`) continues from the
user's checkpoint (`pbem.home.checkpoint`) and checks the files after it, but
writes the checkpoint again only once it finds three new files or more
(pickling the chain costs more than checking one or two files again). Until
then nothing remembered what it had verified, so a writer could swap its
last file for another valid one after a `show` ("clue animal 1" became
"clue bird 1") and the next `show` said nothing, although every command
promises to refuse a verified file that changed. So a look remembers the
name and SHA-256 of each file it verified past the checkpoint: a few
hundred bytes, authenticated like the checkpoint (HMAC under the user's
key) and bound to the folder, the game and the checkpoint's last file;
`pbem.gamedir.folder.load` compares them with the folder as it compares
the checkpoint's own. Writing a checkpoint removes the record (it covers
those files then).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from pbem.home import checkpoint
from pbem.home.checkpoint_seal import authentic, sealed_write

MAGIC = b"pbem-seen/1\n"


class Seen(msgspec.Struct, forbid_unknown_fields=True):
    folder: str
    game_id: str
    after: tuple[str, str]  # the checkpoint's last file: [name, digest]
    files: list[tuple[str, str]]  # [name, digest] of each file verified after it, by seq


def write(folder: Path, game_id: str, after: tuple[str, str], files: list[tuple[str, str]]) -> bool:
    """Remember `files`, verified after the checkpoint whose last file is `after`."""
    where = os.path.abspath(folder)
    return sealed_write(checkpoint.seen_path(folder),
                                   MAGIC + msgspec.json.encode(Seen(where, game_id, tuple(after), list(files))))


def read(folder: Path, game_id: str, after: tuple[str, str]) -> list[tuple[str, str]]:
    """The files verified after the checkpoint whose last file is `after`
    (none when the record is missing, not authentic, or of another folder,
    game or checkpoint)."""
    signed = authentic(checkpoint.seen_path(folder), MAGIC)
    if signed is None:
        return []
    try:
        seen = msgspec.json.decode(signed[len(MAGIC):], type=Seen)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return []
    if (seen.folder, seen.game_id, tuple(seen.after)) != (os.path.abspath(folder), game_id, tuple(after)):
        return []
    return [tuple(f) for f in seen.files]
