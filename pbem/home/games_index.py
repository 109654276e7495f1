"""The game folders pbem has seen, for `pbem status --all`.

``$PBEM_HOME/games.json`` is a sorted JSON list of absolute folder paths.
A command that opens a game folder adds it (`remember`); the file is only
read (a few hundred bytes) and is rewritten only when the folder is new, so
remembering costs a stat and a small read. It is the user's own list, in
their own home: nothing in it is trusted beyond "look here"; each folder is
read and checked afresh when listed. Folders that no longer hold a game are
left out of the listing (and dropped from the list by `forget_missing`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pbem.fsio import atomic_write, make_folder

INDEX = "games.json"


def _index_path() -> Path:
    from pbem.home.where import default_home

    return default_home() / INDEX


def known() -> list[Path]:
    """The remembered folders (an unreadable list is an empty one: it is a
    convenience, never a reason for a command to fail)."""
    try:
        raw = _index_path().read_bytes()
    except OSError:
        return []
    data = _decoded(raw)
    if not isinstance(data, list):
        return []
    return [Path(p) for p in data if isinstance(p, str)]


def _decoded(raw: bytes) -> object:
    """The list as JSON: with msgspec when the command imported it anyway
    (importing json costs 1.5 ms), else with json (importing msgspec costs
    a `pbem status` answered from memory, which needs neither, 8 ms)."""
    if "msgspec" in sys.modules:
        import msgspec

        try:
            return msgspec.json.decode(raw)
        except msgspec.DecodeError:  # or a name that is not UTF-8, escaped by json: read below
            pass
    import json

    try:
        return json.loads(raw.decode("utf-8", "surrogateescape"))
    except ValueError:
        return None


def _listed_as_is(path: str) -> bool:
    """Whether the list holds `path` written as JSON writes a plain path
    (a whole string: JSON strings hold no bare quote), without parsing the
    list: the common case, at every command, costs no JSON decoder."""
    if '"' in path or "\\" in path or not path.isprintable() or not path.isascii():
        return False
    try:
        raw = _index_path().read_bytes()
    except OSError:
        return False
    return f'"{path}"'.encode() in raw


def remember(folder: Path) -> None:
    """Add `folder` when it holds a game and is not listed yet; never fails."""
    from pbem.protocol import GENESIS

    try:
        if not (folder / GENESIS).is_file():
            return
        path = os.path.abspath(folder)
        if _listed_as_is(path):
            return
        listed = [str(p) for p in known()]
        if path in listed:
            return
        index = _index_path()
        make_folder(index.parent)
        import json  # writing only (a name that is not UTF-8 is escaped, not refused)

        atomic_write(index, (json.dumps(sorted([*listed, path]), indent=1) + "\n").encode())
    except OSError:
        return


def forget_missing() -> list[Path]:
    """Drop the folders that hold no game any more; returns them."""
    from pbem.protocol import GENESIS

    listed = known()
    gone = [p for p in listed if not (p / GENESIS).is_file()]
    if gone:
        import json

        try:
            atomic_write(_index_path(), (json.dumps(sorted(str(p) for p in listed if p not in gone), indent=1)
                                         + "\n").encode())
        except OSError:
            pass
    return gone
