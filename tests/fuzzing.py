"""Every parser of pbem as a function of bytes, for the property tests
(tests/system/test_fuzz_parsers.py) and the coverage-guided fuzzer (fuzz/run.py).

A target either returns or raises a `PbemError`: anything else is a crash.
The targets read what a user can be handed: an identity file, a key file, a
genesis, a turn appended to a real game, a folder's `state.pbem`, and the
command notation of every game in positions of a real game.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from pathlib import Path

import tamper
from pbem import games
from pbem.app import creating, opening
from pbem.crypto.keys import identity_file, read_identity_file, read_secret_key_file, secret_key_file
from pbem.home.store import KeyStore
from pbem.errors import PbemError
from pbem.games.base import overlay
from pbem.gamedir import folder, folder_write
from pbem.protocol.chain import Chain
from pbem.protocol.party import Party

#: figures for the end of the test session (conftest prints them)
SUMMARY: list[str] = []


def protocol_games() -> list[str]:
    """The games a bot game can play to the end through the file protocol
    in every mode the fuzzing seeds use (hotseat and peer)."""
    return list(games.shipped())


#: options that keep a seed's whole game short (CI time): Dark Agent's
#: 3-seat games end at the scoring after two rounds
TABLE_OPTIONS: dict[str, tuple[str, ...]] = {"dark-agent": ("rounds=2",)}


@functools.cache
def table(game: str = "agent-avenue", mode: str = "hotseat", options: tuple[str, ...] = ()) -> tamper.Table:
    g = games.get(game)
    seats = list(g.presentation.demo_seats(g.options(creating.parse_options(list(options)))))
    return tamper.play(game, mode, seats, seed=7, options=options or TABLE_OPTIONS.get(game, ()))


def whole_games() -> list[tuple[str, str, tuple[str, ...]]]:
    """(game, mode, options) of the whole games whose files seed the
    genesis targets: every protocol game under the hotseat and peer
    dealers, and the variants with seats and zones of their own: Agent
    Avenue's team variant under peer (four seats, a pair's face-up /
    face-down split, the first seat deciding once the others' decryptions
    are in), and Codenames Duet (two one-reader key zones, hotseat and
    referee: the peer deck cannot deal a two-sided key, see
    pbem/games/codenames/DUET.md)."""
    out = [(g, m, ()) for g in protocol_games() for m in ("hotseat", "peer")]
    return out + [
        ("agent-avenue", "peer", ("teams=2v2",)),
        ("codenames", "hotseat", ("variant=duet",)),
        ("codenames", "referee", ("variant=duet",)),
    ]


@functools.cache
def positions(game: str, mode: str = "hotseat", options: tuple[str, ...] = ()) -> list[tuple[object, str]]:
    """(state as a seat knows it, seat) at a few points of a real game."""
    t = table(game, mode, options)
    chain = Chain(t.files[0])
    out = []
    step = max(7, len(t.files) // 10)  # a long game (Codex) gives about ten, as a short one
    for n, data in enumerate(t.files[1:], 1):
        chain.append(data)
        if n % step == 1:
            for seat in chain.seat_order:
                out.append((Party(chain, t.secrets[seat]).state(), seat))
    out.append((overlay(chain.public, {}), chain.seat_order[0]))
    return out


@functools.cache
def _scratch() -> Path:
    return Path(tempfile.mkdtemp(prefix="pbem-fuzz-"))


def identity(data: bytes) -> None:
    read_identity_file(data)
    KeyStore(_scratch() / "home").import_identity(data)


def key(data: bytes) -> None:
    read_secret_key_file(data, lambda: "a passphrase")


def genesis(data: bytes) -> None:
    Chain(data)


def turn(data: bytes) -> None:
    """Appended at seq 1 (after the genesis) and at seq 2 (a dealer's place)."""
    t = table()
    chain = Chain(t.files[0])
    errors = []
    for honest in t.files[1:3]:
        try:
            chain.append(data)
            return
        except PbemError as exc:
            errors.append(exc)
        chain.append(honest)
    raise errors[0]


@functools.cache
def _game_folder() -> Path:
    t = table()
    g = _scratch() / "game"
    g.mkdir()
    for j, data in enumerate(t.files[:5]):
        name = folder.GENESIS if j == 0 else folder.turn_name(j, tamper.decode(data)[0].by)
        (g / name).write_bytes(data)
    return g


def state(data: bytes) -> None:
    g = _game_folder()
    (g / folder.STATE).write_bytes(data)
    opening.verify(g)


def notation(data: bytes) -> None:
    text = data.decode("utf-8", errors="replace")
    for name, mode, options in [(g, "hotseat", ()) for g in protocol_games()] + VARIANT_POSITIONS:
        game = games.get(name)
        for st, seat in positions(name, mode, options):
            game.presentation.parse(text, st, seat)


#: the notation is parsed in positions of the variants too (a team's pair,
#: the Duet clue giver and guesser), from their whole games above
VARIANT_POSITIONS = [("agent-avenue", "peer", ("teams=2v2",)), ("codenames", "hotseat", ("variant=duet",))]


TARGETS: dict[str, Callable[[bytes], None]] = {
    "identity": identity, "key": key, "genesis": genesis, "turn": turn, "state": state, "notation": notation,
}


COUNTS: dict[str, int] = {}


def run(target: str, data: bytes) -> None:
    """Call a target; a PbemError is a clean refusal."""
    COUNTS[target] = COUNTS.get(target, 0) + 1
    try:
        TARGETS[target](data)
    except PbemError:
        pass


def seeds() -> dict[str, list[bytes]]:
    """Valid inputs of every target, to start mutating from."""
    t = table()
    ids = [identity_file(s) for s in t.secrets.values()]
    secret = next(iter(t.secrets.values()))
    return {
        "identity": ids,
        "key": [secret_key_file(secret, None), secret_key_file(secret, "a passphrase", scrypt_n=2**10)],
        "genesis": [table(g, m, o).files[0] for g, m, o in whole_games()],
        "turn": t.files[1:3],
        "state": [folder_write.state_file(tamper.replay(t.files[:5]))],
        "notation": [b"play Enforcer / Saboteur", b"discard Mole", b"recruit face-up", b"clue insect 2", b"guess wasp", b"pass",
                     b"hire spark", b"attack troq-bashar opp:sl", b"end sl=older-brother", b"play Enforcer", b"done",
                     b"deal", b"move A>C B>D", b"attack C3 with C1 C2", b"use Jet-pack C1 D3", b"jacket none",
                     b"media A1 B2 C3 > B2 C3 A1"],
    }


def signed_seeds() -> list[tuple[str, bytes, dict]]:
    """(target, signed file, its game's keys by name): a mutant of the body
    re-signed with the writer's real key gets past the signature check."""
    t = table()
    out = [("turn", data, t.secrets) for data in t.files[1:3]]
    out += [("genesis", table(g, m, o).files[0], table(g, m, o).secrets) for g, m, o in whole_games()]
    out += [("identity", identity_file(s), {s.name: s}) for s in t.secrets.values()]
    return out
