"""What to send to whom: the parties that need a file and what each still lacks.

Who needs a file (`recipients`): every party of the game except its
writer. In a peer game that is every other seat; with a referee, the
referee and the seats; a hotseat game lives in one folder and sends
nothing.

What a party still lacks (`outbox`) is read from the chain alone: a party
that wrote the file at seq k had seen everything before k, so it lacks
every file after its own last one (a party that has written nothing, the
genesis included, lacks them all). Sending a file twice is harmless:
`pbem.app.delivery.receive` skips what a folder already holds. The files go
out as they are, or armored in a text (`armor_files`, `pbem.transport.armor`).
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from pbem.errors import FormatError, PbemError
from pbem.gamedir import folder as folder_mod, safe_read
from pbem.protocol import codec
from pbem.protocol.chain import Chain
from pbem.protocol.formats import GenesisBody, TurnBody

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


def parties(genesis: GenesisBody) -> list[str]:
    """Every party that keeps its own folder of the game: the referee (when
    there is one) and the seats; nobody apart in hotseat."""
    seats = [s.name for s in genesis.seats]
    if genesis.dealer is None:
        return seats
    if genesis.dealer.mode == "hotseat":
        return []
    return [genesis.dealer.identity.name, *seats]


def recipients(genesis: GenesisBody, writer: str) -> list[str]:
    """Whom a file written by `writer` must reach."""
    return [p for p in parties(genesis) if p != writer]


def folder_genesis(folder: Path) -> GenesisBody:
    """The genesis body of a folder that was just checked (display only)."""
    outer = codec.read_envelope(safe_read.read(folder / folder_mod.GENESIS), "genesis")
    return codec.decode_body(outer, GenesisBody)


def send_line(folder: Path, written: list[Path], writer: str) -> str | None:
    """Whom the files just written must reach, in words; None when nothing
    was written or nothing is to be sent (a hotseat game). In a folder a
    sync tool shares, the tool brings them: the line says what the others
    run instead."""
    from pbem.transport.shared import shared_by

    if not written:
        return None
    names = ", ".join(p.name for p in written)
    who = recipients(folder_genesis(folder), writer)
    if not who:
        return None
    tool = shared_by(folder)
    if tool is not None:
        return f"nothing to send: {tool} brings {names} to {_and(who)} (their pbem watch picks it up)"
    return (f"send {names} to {_and(who)} "
            f"(pbem outbox {folder} --as {writer} --armor prints what each still lacks)")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def last_seen(chain: Chain, party: str) -> int:
    """The seq of `party`'s last file (-1: it has written none)."""
    return max((r.seq for r in chain.records if r.by == party), default=-1)


class Owed(msgspec.Struct):
    """What one party may still lack."""

    party: str
    seen: int
    files: list[Path]


def outbox(folder: Path, chain: Chain, name: str, to: str | None = None) -> list[Owed]:
    """For each other party (or only `to`), the files of `folder` after its
    own last file."""
    everyone = parties(chain.genesis)
    if name not in everyone and name not in chain.seats and name != chain.dealer_name:
        raise PbemError(f"{name} is not a party of this game (parties: {', '.join(everyone)})")
    others = [p for p in everyone if p != name]
    if to is not None:
        if to == name:
            raise PbemError(f"--to {to} is yourself")
        if to not in others:
            what = "a hotseat game sends nothing" if not everyone else f"the others are {', '.join(others)}"
            raise PbemError(f"{to} is not another party of this game ({what})")
        others = [to]
    out = []
    for party in others:
        seen = last_seen(chain, party)
        files = [folder / (r.name or folder_mod.turn_name(r.seq, r.by)) for r in chain.records if r.seq > seen]
        out.append(Owed(party, seen, files))
    return out


def armor_headers(data: bytes, game: str | None = None) -> dict[str, str]:
    """The informational header lines of a block holding `data`."""
    outer = codec.read_envelope(data)
    headers: dict[str, str] = {}
    if outer.kind == "genesis":
        body = codec.decode_body(outer, GenesisBody)
        headers["Game"] = body.game
        headers["Game-Id"] = codec.file_hash(outer)[:16]
        headers["Seq"] = "0"
    elif outer.kind == "turn":
        body = codec.decode_body(outer, TurnBody)
        if game:
            headers["Game"] = game
        headers["Game-Id"] = body.game_id[:16]
        headers["Seq"] = str(body.seq)
    else:
        raise FormatError(f"a {outer.kind} file is not sent to other players")
    if _NAME.match(outer.by):
        headers["Writer"] = outer.by
    return headers


def armor_files(paths: list[Path]) -> str:
    """`pbem armor`: one block per file (each checked to be a pbem file)."""
    from pbem.transport import armor

    blocks = []
    for path in paths:
        data = safe_read.received(path)
        try:
            game = _game_beside(path)
            blocks.append(armor.armor(data, armor_headers(data, game)))
        except PbemError as exc:
            raise type(exc)(f"{path}: {exc.message}", exc.hint) from None
    return "".join(blocks)


def _game_beside(path: Path) -> str | None:
    """The game's name from the genesis next to a turn file, if there is one."""
    try:
        return folder_genesis(path.parent).game
    except PbemError:
        return None


def pbem_name(data: bytes) -> str:
    """The name pbem gives this file in a game folder."""
    outer = codec.read_envelope(data)
    if outer.kind == "genesis":
        return folder_mod.GENESIS
    if outer.kind != "turn" or not _NAME.match(outer.by):
        raise FormatError(f"not a chain file (a {outer.kind} file by {outer.by!r})")
    return folder_mod.turn_name(codec.decode_body(outer, TurnBody).seq, outer.by)
