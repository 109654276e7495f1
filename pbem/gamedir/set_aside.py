"""Files a game folder holds that the rules of `pbem.protocol.forks` set
aside: the seat that was to write stands over a file written out of turn
on the same predecessor (an undo request, a resignation, a pause, a
timeout claim), a seat's resignation over its own other file, a referee's
timeout over the late seat's move.

`pbem.gamedir.folder.load` reads over such a request and every file that
follows it (`Aside`), naming each in a note; the next writer, holding the
folder's lock, moves them to ``DIR/set-aside/`` (`move_aside`), kept and
never lost, so that a file of the standing branch can take their names.
"""

from __future__ import annotations

import os
from pathlib import Path

from pbem.home import checkpoint
from pbem.errors import PbemError
from pbem.protocol import codec, forks
from pbem.protocol.chain import Chain
from pbem.protocol.formats import TurnBody


class Aside:
    """Files the rules of `forks` set aside,
    and every file that follows one: read over, named in a note, moved to
    ``DIR/set-aside/`` by the next writer (`tidy`)."""

    def __init__(self) -> None:
        self.hashes: set[str] = set()
        self.digests: set[str] = set()
        self.paths: list[Path] = []

    def _add(self, path: Path, outer, data: bytes) -> None:
        self.hashes.add(codec.file_hash(outer))
        self.digests.add(checkpoint.digest(data))
        self.paths.append(path)

    def drop_followers(self, candidates: list[tuple[Path, bytes]], notes: list[str]) -> list[tuple[Path, bytes]]:
        if not self.hashes:
            return candidates
        out = []
        for path, data in candidates:
            try:
                outer = codec.read_envelope(data, "turn")
                prev = codec.decode_body(outer, TurnBody).prev
            except PbemError:
                prev = None  # read (and refused) as any file
            if prev in self.hashes:
                self._add(path, outer, data)
                notes.append(f"{path.name} follows a file set aside: set aside too")
            else:
                out.append((path, data))
        return out

    def settle(self, chain: Chain, candidates: list[tuple[Path, bytes]], notes: list[str]) -> list[tuple[Path, bytes]] | None:
        """The one file that stands when a rule settles the fork (None: it is a fork)."""
        try:
            decoded = []
            for _, data in candidates:
                outer = codec.read_envelope(data, "turn")
                codec.check_signature(outer, chain.identity(outer.by))
                decoded.append((outer, codec.decode_body(outer, TurnBody)))
        except PbemError:
            decoded = None
        losers = forks.settle(chain, decoded) if decoded else None
        if losers is None:
            return None
        (path, data), = [c for i, c in enumerate(candidates) if i not in losers]
        (_, stands), = [d for i, d in enumerate(decoded) if i not in losers]
        for i in losers:
            lost, (outer, body) = candidates[i][0], decoded[i]
            self._add(lost, outer, candidates[i][1])
            notes.append(forks.note(chain, body, lost.name, stands, path.name))
        return [(path, data)]


SET_ASIDE = "set-aside"


def move_aside(folder: Path, chain: Chain) -> list[str]:
    """Move the files the fork rules set aside out of the chain's names
    (kept, never lost: a file of the standing branch may need the name)."""
    from pbem.fsio import make_folder

    notes = []
    for path in chain.set_aside:
        if path.parent != folder or not path.is_file():
            continue
        make_folder(folder / SET_ASIDE)
        target = folder / SET_ASIDE / path.name
        if target.exists():
            target = target.with_name(f"{path.stem}.{os.urandom(4).hex()}.pbem")
        os.replace(path, target)
        notes.append(f"moved {path.name} to {SET_ASIDE}/ (set aside by the rule that settled its fork)")
    chain.set_aside = []
    return notes
