"""The set-up of a game, rebuilt by every verifier from the genesis.

A genesis carries its options, its seats and the initial public state, but
its signature only says who wrote it: a peer game's creator could otherwise
make itself a reader of the other seat's hand, or a referee could deal from a
deck of its own making. So nothing of the set-up is taken from the file.
Every verifier (the joiner before it writes, `apply`, `verify`, `audit`, each
party's client) runs the rules' own `setup()` on the genesis's options and
seats and compares, byte for byte, what it gets with what the file says:
zones, readers, refs, counters, public fields; for peer games also the cards
of the shared deck and of each private deck.

What stays free is only what is hidden by design. Secret chance (the order
of a shuffled deck) is replaced by a stand-in: it decides hidden identities
only, and those are `Hidden` on both sides. Public chance (who starts, the
Codenames words) is replayed from a public seed: the genesis's
`setup_seed` in the dealer modes, which the audit ties to the dealer's
committed master seed; the genesis nonce in peer games. A game that draws
something public from secret chance fails this check at `pbem new`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from pbem.crypto.encoding import b64d, canonical, sha256
from pbem.crypto.stream import derive
from pbem.errors import PbemError, ProtocolError
from pbem.games.base import Game, GameState, Known, SeatSpec, project
from pbem.protocol.chance import DealerChance, NoPublicChance, SetupChance, StandInChance
from pbem.protocol.formats import GenesisBody

#: how many seats may read one zone in a peer game (the deck's two-reader
#: sealing of partials; more needs a referee)
PEER_MAX_READERS = 2


@dataclass
class DerivedSetup:
    """What a verifier knows of the set-up from the rules alone."""

    options: Any
    seats: list[SeatSpec]
    #: the initial state with every item hidden: what the genesis must carry
    hidden: GameState
    #: the full state the verifier could compute (identities of secret
    #: chance are stand-ins, except in peer games, where set-up chance is
    #: all public and the shuffle layers hide the cards)
    full: GameState


def public_setup_seed(master_seed: bytes) -> bytes:
    """The dealer's public set-up seed, bound to its master seed so the audit
    can tell it was not chosen apart from it."""
    return derive(master_seed, b"public setup")


def peer_setup_seed(nonce: str) -> bytes:
    return sha256(b"pbem/1 peer set-up " + nonce.encode())


def dealer_setup_chance(master_seed: bytes, setup_seed: bytes | None):
    """The dealer's chance at set-up: public from `setup_seed`, secret from
    the master seed (a genesis of pbem 0.1 drew both from the master seed)."""
    secret = DealerChance(master_seed, "setup")
    if setup_seed is None:
        return secret
    return SetupChance(public=DealerChance(setup_seed, "setup public"), secret=secret)


def peer_setup_chance(nonce: str) -> DealerChance:
    """Set-up chance of a peer game: all of it public (the shuffle layers
    every seat adds decide which card is where)."""
    return DealerChance(peer_setup_seed(nonce), "setup")


def scenario_options_set(game: Game, options: Any) -> list[str]:
    """The scenario options (`Game.scenario_options`) `options` sets to
    anything but their default."""
    out = []
    for f in msgspec.structs.fields(type(options)):
        if f.name not in game.scenario_options:
            continue
        default = f.default if f.default is not msgspec.NODEFAULT else (
            f.default_factory() if f.default_factory is not msgspec.NODEFAULT else msgspec.NODEFAULT
        )
        if getattr(options, f.name) != default:
            out.append(f.name)
    return sorted(out)


def derive_setup(game: Game, genesis: GenesisBody) -> DerivedSetup:
    """Rebuild the set-up from the genesis's options and seats, and refuse a
    genesis that claims anything else (naming what differs)."""
    options = _options(game, genesis)
    seats = [SeatSpec(s.name, s.role) for s in genesis.seats]
    try:
        normal = game.seats(options, seats)
    except PbemError as exc:
        raise ProtocolError(f"the seats are not valid for {game.name}: {exc.message}") from None
    if list(normal) != seats:
        raise ProtocolError(f"the seats are not as {game.name} would seat them: {_seats(normal)}, not {_seats(seats)}")
    mode = "peer" if genesis.dealer is None else genesis.dealer.mode
    if genesis.dealer is not None and mode == "peer":
        raise ProtocolError("a peer game has no dealer")
    scenario = scenario_options_set(game, options)
    if scenario and mode != "hotseat":
        raise ProtocolError(
            f"option {', '.join(scenario)} fixes hidden cards, which only a hotseat game may do (this is a {mode} game)"
        )
    if deals_after_joins(genesis):
        if bytes(genesis.initial) != b"null" or genesis.setup_seed is not None:
            raise ProtocolError("this game is dealt once every seat has joined: its genesis holds no set-up")
        return DerivedSetup(options=options, seats=seats, hidden=None, full=None)
    if mode == "peer":
        if genesis.setup_seed is not None:
            raise ProtocolError("a peer game's set-up chance comes from its nonce, not a setup seed")
        chance = peer_setup_chance(genesis.nonce)
    elif genesis.setup_seed is not None:
        chance = SetupChance(public=DealerChance(b64d(genesis.setup_seed, 32), "setup public"), secret=StandInChance())
    else:
        chance = SetupChance(public=NoPublicChance(), secret=StandInChance())
    try:
        full = game.setup(options, seats, chance)
    except PbemError as exc:
        raise ProtocolError(f"the rules cannot set this game up: {exc.message}") from None
    hidden = project(full, set())
    expected = canonical(hidden)
    if expected != bytes(genesis.initial):
        raise ProtocolError(f"the initial state is not the rules' set-up: {_first_difference(genesis.initial, expected)}")
    if mode == "peer":
        _check_peer(game, genesis, full)
    return DerivedSetup(options=options, seats=seats, hidden=hidden, full=full)


def deals_after_joins(genesis: GenesisBody) -> bool:
    """Referee games from version 2 on are set up once every seat has
    joined, from the referee's committed seed and every seat's contribution
    (`game_seed`), so that neither the referee nor any seat can aim the deal."""
    return genesis.version >= 2 and genesis.dealer is not None and genesis.dealer.mode == "referee"


def game_seed(master_seed: bytes, contributions: list[bytes]) -> bytes:
    """The seed of every chance result of a game dealt after its joins: the
    referee's master seed, fixed by its commitment in the genesis before
    any contribution, and every seat's contribution, in seat order."""
    return sha256(b"pbem/1 game seed\n" + master_seed + b"".join(contributions))


def derive_deal(game: Game, options: Any, seats: list[SeatSpec], setup_seed: bytes) -> GameState:
    """The hidden initial state of a game dealt after its joins, as every
    verifier rebuilds it from the deal's public set-up seed."""
    chance = SetupChance(public=DealerChance(setup_seed, "setup public"), secret=StandInChance())
    try:
        return project(game.setup(options, seats, chance), set())
    except PbemError as exc:
        raise ProtocolError(f"the rules cannot set this game up: {exc.message}") from None


def _options(game: Game, genesis: GenesisBody) -> Any:
    try:
        options = msgspec.json.decode(bytes(genesis.options), type=game.Options)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"the options are not {game.name} options: {exc}") from None
    if canonical(options) != bytes(genesis.options):
        raise ProtocolError("the options are not in canonical form (every option, sorted, once)")
    return options


def _check_peer(game: Game, genesis: GenesisBody, full: GameState) -> None:
    """The peer deck holds exactly the hidden cards of the set-up, in the
    order of their refs; each private deck exactly its zone's cards."""
    setup = genesis.peer
    for name, zone in full.zones.items():
        if not zone.public and len(zone.readers) > PEER_MAX_READERS:
            raise ProtocolError(f"zone {name} is seen by {len(zone.readers)} seats, which peer games do not support")
        if zone.public and zone.items:
            raise ProtocolError(f"zone {name} shows cards at set-up, which peer games do not support")
    cards = {it.ref: it.card for z in full.zones.values() for it in z.items if isinstance(it, Known)}
    private = game.private_decks(full)
    private_refs = {it.ref for zone in private for it in full.zones[zone].items}
    slots = sorted(set(cards) - private_refs)
    if list(setup.slots) != slots:
        raise ProtocolError("the peer deck's slots are not the hidden items of the rules' set-up")
    if list(setup.deck) != [cards[ref] for ref in slots]:
        raise ProtocolError("the peer deck does not hold the cards of the rules' set-up")
    contents = {zone: sorted(it.card for it in full.zones[zone].items) for zone in private}
    if dict(setup.private_contents) != contents:
        raise ProtocolError("the private decks do not hold the cards of the rules' set-up")


def _seats(seats: list[SeatSpec]) -> str:
    return ", ".join(s.name + (f":{s.role}" if s.role else "") for s in seats)


def _first_difference(claimed: bytes, expected: bytes) -> str:
    """Where two encodings of a state first differ, as a field path."""
    try:
        a = msgspec.json.decode(bytes(claimed))
    except msgspec.DecodeError:
        return "it is not JSON"
    b = msgspec.json.decode(expected)
    found = _diff(a, b, "")
    if found is None:
        return "it is not in canonical form"
    path, got, want = found
    return f"{path or 'the whole state'}: the genesis has {_short(got)}, the rules give {_short(want)}"


_MISSING = object()


def _diff(a: Any, b: Any, path: str):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in a:
                return sub, _MISSING, b[key]
            if key not in b:
                return sub, a[key], _MISSING
            found = _diff(a[key], b[key], sub)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _diff(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    if type(a) is not type(b) or a != b:
        return path, a, b
    return None


def _short(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 60 else text[:57] + "..."
