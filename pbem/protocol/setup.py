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
committed master seed. A game that draws something public from secret
chance fails this check at `pbem new`.

Peer games from version 3 on are set up once every seat has joined, from
every seat's first beacon link (`peer_setup_seed`): each link is fixed by
the anchor the seat committed at its join and opened only after the last
join, so no seat, and no coalition short of all of them, can aim the first
player or the Codenames grid. The genesis then carries only the shape of
the set-up that no chance may change, the cards of the shared deck and of
each private deck (`PeerShape`, from a run of the rules with a probe seed),
so that the shuffle layers can go on at the joins; the set-up's own run is
checked against that shape (`derive_peer_setup`). Linked zones (the
Duet key) make a two-faced deck (`peer.faces`), always left to after the
set-up, whose pairs every verifier takes from the set-up's own run
(`PeerShape.faces`). Version 2 peer games took
their public set-up chance from the creator's nonce, which the creator
could try until one suited it; they still verify.
"""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.crypto.encoding import b64d, canonical, sha256
from pbem.crypto.stream import derive
from pbem.errors import PbemError, ProtocolError
from pbem.games.base import Chance, Game, GameState, Known, SeatSpec, project
from pbem.protocol.chance import DealerChance, NoPublicChance, SetupChance, StandInChance
from pbem.protocol import dealing, versions
from pbem.protocol.formats import GenesisBody

#: how many seats may read one zone in a peer game (the deck's two-reader
#: sealing of partials; more needs a referee)
PEER_MAX_READERS = 2


class DerivedSetup(msgspec.Struct):
    """What a verifier knows of the set-up from the rules alone."""

    options: Any
    seats: list[SeatSpec]
    #: the initial state with every item hidden: what the genesis must carry
    #: (None: a game set up or dealt after its joins)
    hidden: GameState | None
    #: the full state the verifier could compute (identities of secret
    #: chance are stand-ins, except in peer games, where set-up chance is
    #: all public and the shuffle layers hide the cards)
    full: GameState | None
    #: peer games set up after their joins: the set-up's shape, from a probe
    #: seed (which refs are hidden, in which zones; not who starts)
    probe: GameState | None = None
    shape: "PeerShape | None" = None


def public_setup_seed(master_seed: bytes) -> bytes:
    """The dealer's public set-up seed, bound to its master seed so the audit
    can tell it was not chosen apart from it."""
    return derive(master_seed, b"public setup")


def nonce_setup_seed(nonce: str) -> bytes:
    """The public set-up seed of a peer game of version 2 (the creator's)."""
    return sha256(b"pbem/1 peer set-up " + nonce.encode())


def peer_setup_seed(links: dict[str, bytes], game_id: str) -> bytes:
    """The public set-up seed of a peer game of version 3: every seat's
    first beacon link (the chance key of seq 0, which no file's chance
    uses: files start at seq 1)."""
    from pbem.crypto import beacon

    return derive(beacon.chance_key(links, game_id, 0), b"peer set-up")


def dealer_setup_chance(master_seed: bytes, setup_seed: bytes | None) -> DealerChance | SetupChance:
    """The dealer's chance at set-up: public from `setup_seed`, secret from
    the master seed (a genesis of pbem 0.1 drew both from the master seed)."""
    secret = DealerChance(master_seed, "setup")
    if setup_seed is None:
        return secret
    return SetupChance(public=DealerChance(setup_seed, "setup public"), secret=secret)


def peer_setup_chance(seed: bytes) -> DealerChance:
    """Set-up chance of a peer game: all of it public (the shuffle layers
    every seat adds decide which card is where)."""
    return DealerChance(seed, "setup")


def peer_sets_up_after_joins(genesis: GenesisBody) -> bool:
    return genesis.dealer is None and versions.of(genesis.version).setup_from_links


def probe_seed(nonce: str, n: int = 0) -> bytes:
    """A seed for a run of the rules that only shows the set-up's shape."""
    return sha256(b"pbem/1 peer probe %d " % n + nonce.encode())


class PeerShape(msgspec.Struct, frozen=True):
    """What of a peer game's set-up the shuffle layers need before the set-up
    itself is known: the shared deck's slots and cards (sorted: the layers
    shuffle them), each private deck's refs and cards."""

    slots: tuple[str, ...]
    deck: tuple[str, ...]
    private_refs: tuple[tuple[str, str], ...]  # (ref, zone)
    private_contents: tuple[tuple[str, tuple[str, ...]], ...]
    #: linked zones (`Dealing.linked`): the two faces of a two-faced
    #: deck, as the set-up dealt them (`peer.faces`); empty otherwise
    faces: tuple[Any, ...] = ()  # `peer.faces.FaceZone`s (not named here: that module imports PyNaCl)

    @property
    def contents(self) -> dict[str, list[str]]:
        return {zone: list(cards) for zone, cards in self.private_contents}


def peer_shape(game: Game[Any, Any], full: GameState, seats: list[str]) -> PeerShape:
    from pbem.protocol.peer import faces as peer_faces  # PyNaCl: peer games only

    cards = {it.ref: it.card for z in full.zones.values() for it in z.items if isinstance(it, Known)}
    private = dealing.private_decks(game, full, seats)
    private_refs = sorted((it.ref, zone) for zone in private for it in full.zones[zone].items)
    slots = sorted(set(cards) - {ref for ref, _ in private_refs})
    return PeerShape(
        slots=tuple(slots),
        deck=tuple(sorted(cards[ref] for ref in slots)),
        private_refs=tuple(private_refs),
        private_contents=tuple(sorted((zone, tuple(sorted(_cards(full, zone)))) for zone in private)),
        faces=peer_faces.face_zones(game, full),
    )


def peer_dealing_problem(game: Game[Any, Any], full: GameState, seats: list[str] | None = None) -> str | None:
    """Why peer dealing cannot deal this set-up, if it cannot (linked zones
    need the two-faced deck's shape: `peer.faces.problem`)."""
    from pbem.protocol.peer import faces as peer_faces  # PyNaCl: peer games only

    return peer_faces.problem(game, full, seats) or _zone_problem(full)


def _zone_problem(full: GameState) -> str | None:
    """A zone peer dealing cannot deal: too many readers, cards shown at set-up."""
    for name, zone in full.zones.items():
        if not zone.public and len(zone.readers) > PEER_MAX_READERS:
            return f"zone {name} is seen by {len(zone.readers)} seats, which peer games do not support"
        if zone.public and zone.items:
            return f"zone {name} shows cards at set-up, which peer games do not support"
    return None


def _peer_full_setup(game: Game[Any, Any], options: Any, seats: list[SeatSpec], seed: bytes) -> GameState:
    """The rules' set-up of a peer game from a public seed, refused when
    peer dealing cannot deal it."""
    try:
        full: GameState = game.setup(options, seats, peer_setup_chance(seed))
    except PbemError as exc:
        raise ProtocolError(f"the rules cannot set this game up: {exc.message}") from None
    problem = peer_dealing_problem(game, full, [s.name for s in seats])
    if problem is not None:
        raise ProtocolError(problem)
    return full


def derive_peer_setup(game: Game[Any, Any], options: Any, seats: list[SeatSpec], shape: PeerShape | None,
                      seed: bytes) -> tuple[GameState, PeerShape]:
    """The hidden initial state of a peer game of version 3, from its
    set-up seed, and its shape: refused unless it is the `shape` its
    genesis dealt (None: a late deck, which takes the shape it gets)."""
    full = _peer_full_setup(game, options, seats, seed)
    got = peer_shape(game, full, [s.name for s in seats])
    if shape is None and got.private_refs:
        raise ProtocolError(f"{game.info.name}: a late peer deck cannot hold private decks")
    if shape is not None and got != shape:
        raise ProtocolError(
            f"{game.info.name}'s hidden cards at set-up are not those its genesis dealt: they depend on the set-up's "
            "chance, so its genesis had to leave the deck to after the set-up (`late`)",
        )
    return project(full, set()), got


def scenario_options_set(game: Game[Any, Any], options: Any) -> list[str]:
    """The scenario options (`GameInfo.scenario_options`) `options` sets to
    anything but their default."""
    out = []
    for f in msgspec.structs.fields(type(options)):
        if f.name not in game.info.scenario_options:
            continue
        default = f.default if f.default is not msgspec.NODEFAULT else (
            f.default_factory() if f.default_factory is not msgspec.NODEFAULT else msgspec.NODEFAULT
        )
        if getattr(options, f.name) != default:
            out.append(f.name)
    return sorted(out)


def derive_setup(game: Game[Any, Any], genesis: GenesisBody) -> DerivedSetup:
    """Rebuild the set-up from the genesis's options and seats, and refuse a
    genesis that claims anything else (naming what differs)."""
    options = _options(game, genesis)
    seats = [SeatSpec(s.name, s.role) for s in genesis.seats]
    try:
        normal = game.seats(options, seats)
    except PbemError as exc:
        raise ProtocolError(f"the seats are not valid for {game.info.name}: {exc.message}") from None
    if list(normal) != seats:
        raise ProtocolError(f"the seats are not as {game.info.name} would seat them: {_seats(normal)}, not {_seats(seats)}")
    mode = "peer" if genesis.dealer is None else genesis.dealer.mode
    if genesis.dealer is not None and mode == "peer":
        raise ProtocolError("a peer game has no dealer")
    scenario = scenario_options_set(game, options)
    if scenario and mode != "hotseat":
        raise ProtocolError(
            f"option {', '.join(scenario)} fixes hidden cards, which only a hotseat game may do (this is a {mode} game)"
        )
    version = versions.of(genesis.version)
    if mode not in version.modes:
        others = [str(n) for n, v in versions.VERSIONS.items() if mode in v.modes]
        raise ProtocolError(f"protocol version {version.number} is a {' or '.join(version.modes)} game's: "
                            f"a {mode} game is of version {', '.join(others[:-1])} or {others[-1]}")
    if deals_after_joins(genesis):
        if bytes(genesis.initial) != b"null" or genesis.setup_seed is not None:
            raise ProtocolError("this game is dealt once every seat has joined: its genesis holds no set-up")
        return DerivedSetup(options=options, seats=seats, hidden=None, full=None)
    if mode == "peer" and genesis.setup_seed is not None:
        raise ProtocolError("a peer game's set-up chance comes from its seats, not a setup seed")
    if genesis.peer is not None and genesis.peer.late and not (peer_sets_up_after_joins(genesis) and version.late_decks):
        raise ProtocolError(f"only a peer game of version {versions.first('late_decks')} may leave its deck to "
                            "after the set-up")
    if peer_sets_up_after_joins(genesis):
        if bytes(genesis.initial) != b"null":
            raise ProtocolError("this game is set up once every seat has joined: its genesis holds no set-up")
        return _derive_peer_shape(game, genesis, options, seats)
    chance: Chance
    if mode == "peer":
        chance = peer_setup_chance(nonce_setup_seed(genesis.nonce))
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


def _derive_peer_shape(game: Game[Any, Any], genesis: GenesisBody, options: Any, seats: list[SeatSpec]) -> DerivedSetup:
    """A peer genesis of version 3 holds the shape of the set-up: the one a
    run of the rules with its probe seed gives."""
    full = _peer_full_setup(game, options, seats, probe_seed(genesis.nonce))
    shape = peer_shape(game, full, [s.name for s in seats])
    setup = genesis.peer
    assert setup is not None  # a peer genesis (`peer_sets_up_after_joins`)
    if shape.faces and not setup.late:
        raise ProtocolError("a peer game's linked zones (a Duet key) are a two-faced deck, shuffled after the "
                            "set-up: its deck must be late")
    if setup.late:
        # the deck waits for the set-up; nothing of it may be claimed now
        if setup.slots or setup.deck or setup.private_contents or setup.private or setup.private_proofs or setup.layer.points:
            raise ProtocolError("a late peer deck holds no cards, slots or layer points before the set-up")
        if shape.private_refs:
            raise ProtocolError(f"{game.info.name}: a late peer deck cannot hold private decks")
        return DerivedSetup(options=options, seats=seats, hidden=None, full=None, probe=project(full, set()))
    if (list(setup.slots), list(setup.deck), dict(setup.private_contents)) != (list(shape.slots), list(shape.deck), shape.contents):
        raise ProtocolError("the peer deck and private decks are not the cards of the rules' set-up")
    return DerivedSetup(options=options, seats=seats, hidden=None, full=None, probe=project(full, set()), shape=shape)


def deals_after_joins(genesis: GenesisBody) -> bool:
    """Referee games from version 2 on are set up once every seat has
    joined, from the referee's committed seed and every seat's contribution
    (`game_seed`), so that neither the referee nor any seat can aim the deal."""
    referee = genesis.dealer is not None and genesis.dealer.mode == "referee"
    return referee and versions.of(genesis.version).contributions


def game_seed(master_seed: bytes, contributions: list[bytes]) -> bytes:
    """The seed of every chance result of a game dealt after its joins: the
    referee's master seed, fixed by its commitment in the genesis before
    any contribution, and every seat's contribution, in seat order."""
    return sha256(b"pbem/1 game seed\n" + master_seed + b"".join(contributions))


def derive_deal(game: Game[Any, Any], options: Any, seats: list[SeatSpec], setup_seed: bytes) -> GameState:
    """The hidden initial state of a game dealt after its joins, as every
    verifier rebuilds it from the deal's public set-up seed."""
    chance = SetupChance(public=DealerChance(setup_seed, "setup public"), secret=StandInChance())
    try:
        full: GameState = game.setup(options, seats, chance)
        return project(full, set())
    except PbemError as exc:
        raise ProtocolError(f"the rules cannot set this game up: {exc.message}") from None


def _options(game: Game[Any, Any], genesis: GenesisBody) -> Any:
    try:
        options = msgspec.json.decode(bytes(genesis.options), type=game.info.Options)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"the options are not {game.info.name} options: {exc}") from None
    if canonical(options) != bytes(genesis.options):
        raise ProtocolError("the options are not in canonical form (every option, sorted, once)")
    return options


def _check_peer(game: Game[Any, Any], genesis: GenesisBody, full: GameState) -> None:
    """The peer deck holds exactly the hidden cards of the set-up, in the
    order of their refs; each private deck exactly its zone's cards."""
    setup = genesis.peer
    assert setup is not None  # a peer game's genesis
    if dealing.linked_zones(game, full):
        raise ProtocolError("a peer game's linked zones (a Duet key) need the two-faced deck of protocol version 3")
    problem = _zone_problem(full)
    if problem is not None:
        raise ProtocolError(problem)
    cards = {it.ref: it.card for z in full.zones.values() for it in z.items if isinstance(it, Known)}
    private = dealing.private_decks(game, full, [s.name for s in genesis.seats])
    private_refs = {it.ref for zone in private for it in full.zones[zone].items}
    slots = sorted(set(cards) - private_refs)
    if list(setup.slots) != slots:
        raise ProtocolError("the peer deck's slots are not the hidden items of the rules' set-up")
    if list(setup.deck) != [cards[ref] for ref in slots]:
        raise ProtocolError("the peer deck does not hold the cards of the rules' set-up")
    contents = {zone: sorted(_cards(full, zone)) for zone in private}
    if dict(setup.private_contents) != contents:
        raise ProtocolError("the private decks do not hold the cards of the rules' set-up")


def _cards(full: GameState, zone: str) -> list[str]:
    """The cards of a zone of a full set-up (every item known)."""
    out = []
    for it in full.zones[zone].items:
        assert isinstance(it, Known)  # the rules' own set-up: nothing is hidden from them
        out.append(it.card)
    return out


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


def _diff(a: Any, b: Any, path: str) -> tuple[str, Any, Any] | None:
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
