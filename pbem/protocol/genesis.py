"""Accepting a genesis: the first file of a game, checked before anything
else can be (DESIGN.md section 4).

Its signer must be its dealer (dealt modes) or its creator (peer); every
seat holds its own name's identity; the set-up is the rules' own, derived
from the options and seats, never taken from the file
(`pbem.protocol.setup.derive_setup`); the dealer mode checks the rest and
makes the first head (`Mode.start`: a dealt game's commitments, reveals and
deliveries, a peer game's deck). What it yields, `Begun`, is what stays
the same for the whole game, and the chain's first head and record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from pbem import games
from pbem.errors import FormatError, ProtocolError
from pbem.games.base import unrevealed_public
from pbem.protocol import codec, versions
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import GenesisBody
from pbem.protocol.head import Head, Record
from pbem.protocol.setup import derive_setup

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity
    from pbem.games.base import Game, GameState
    from pbem.protocol.file_parts import DealerInfo, SeatEntry
    from pbem.protocol.modes.base import Mode
    from pbem.protocol.setup import PeerShape


class Begun(msgspec.Struct, frozen=True, kw_only=True):
    """A checked genesis."""

    genesis: GenesisBody
    #: what the protocol version the game was begun under has
    version: versions.Version
    game_id: str
    #: the rules the game was begun under, so old games keep verifying
    game: Game[Any, Any]
    options: Any
    seats: dict[str, SeatEntry]
    seat_order: list[str]
    dealer_name: str | None
    #: every party's identity: each seat's, and the dealer's
    identities: dict[str, PublicIdentity]
    mode: Mode
    #: peer games set up after their joins (version 3): the set-up's shape
    #: (which refs are hidden, in which zones), from a probe seed; and the
    #: cards of its decks the genesis committed to
    shape: GameState | None
    peer_shape: PeerShape | None
    head: Head
    record: Record


def mode_of(genesis: GenesisBody) -> Mode:
    """The dealer mode a genesis names (the peer mode imports PyNaCl: only
    for a peer game)."""
    if genesis.peer is not None:
        from pbem.protocol.modes.peer import MODE

        return MODE
    from pbem.protocol.modes.dealt import MODES

    if genesis.dealer is None:
        raise FormatError("a genesis names either a dealer or a peer set-up")
    return MODES[genesis.dealer.mode]


def accept(data: bytes, name: str) -> Begun:
    """Check a genesis file; the game it begins."""
    outer = codec.read_envelope(data, "genesis")
    genesis = codec.decode_body(outer, GenesisBody)
    if (genesis.dealer is None) == (genesis.peer is None):
        raise FormatError("a genesis names either a dealer or a peer set-up")
    if genesis.dealer is not None:
        signer = genesis.dealer.identity
    else:
        peer = genesis.peer
        assert peer is not None  # one of the two, checked just above
        creator = next((s for s in genesis.seats if s.name == peer.creator), None)
        if creator is None:
            raise FormatError(f"the creator {peer.creator!r} has no seat")
        signer = creator.identity
    if outer.by != signer.name:
        raise FormatError(f"signed as {outer.by!r} but made by {signer.name!r}")
    codec.check_signature(outer, signer)
    codec.check_envelopes(genesis)
    version = versions.of(genesis.version)
    if genesis.pace is not None:
        _check_pace(genesis, version)
    if genesis.referee_handover and not (version.handover and genesis.dealer is not None
                                         and genesis.dealer.mode == "referee"):
        raise FormatError("only a referee game of protocol version "
                          f"{versions.first('handover')} or later lets its referee hand a seat over")
    if genesis.dealer is not None:
        _check_chance_key(genesis.dealer, version)
    game_id = codec.file_hash(outer)
    game = games.get(genesis.game, genesis.rules_version)
    names = [s.name for s in genesis.seats]
    if len(set(names)) != len(names):
        raise FormatError("a seat is listed twice")
    strangers = [s.name for s in genesis.seats if s.identity.name != s.name]
    if strangers:
        raise FormatError(f"the seat {strangers[0]!r} holds the identity of another name")
    # derive, never trust: the set-up is the rules' own, not the file's
    derived = derive_setup(game, genesis)
    seats = {s.name: s for s in genesis.seats}
    dealer_name = genesis.dealer.identity.name if genesis.dealer else None
    if dealer_name in seats:
        raise FormatError(f"the dealer {dealer_name!r} is also a seat")
    identities = {s.name: s.identity for s in genesis.seats}
    if genesis.dealer is not None:
        identities[genesis.dealer.identity.name] = genesis.dealer.identity
    mode = mode_of(genesis)
    head = mode.start(genesis, game, game_id, derived)
    if state_hash(head.public) != genesis.state:
        raise ProtocolError("the initial state does not match its hash")
    if head.dealt and head.public is not None and unrevealed_public(head.public):
        raise ProtocolError("public items are not revealed")
    return Begun(
        genesis=genesis, version=version, game_id=game_id, game=game, options=derived.options, seats=seats,
        seat_order=names, dealer_name=dealer_name, identities=identities, mode=mode,
        shape=derived.hidden if derived.hidden is not None else derived.probe, peer_shape=derived.shape,
        head=head, record=Record(0, signer.name, game_id, outer, genesis, after=head.public, name=name),
    )


def _check_chance_key(dealer: DealerInfo, version: versions.Version) -> None:
    """A referee genesis of version 7 names the key of its public chance
    (`referee_chance`); no other genesis names one."""
    if version.proven_chance and dealer.mode == "referee":
        from pbem.protocol import referee_chance  # PyNaCl: referee games of version 7 only

        referee_chance.check_key(dealer.chance_key)
    elif dealer.chance_key is not None:
        raise FormatError(f"only a referee game of protocol version {versions.first('proven_chance')} or later "
                          "names a chance key")


def _check_pace(genesis: GenesisBody, version: versions.Version) -> None:
    """An agreed pace: from protocol version 6 on, and a referee's
    powers over absent seats only in a referee game."""
    if not version.long_games:
        raise FormatError(f"a pace is agreed only in games of protocol version {versions.first('long_games')} or later")
    pace = genesis.pace
    assert pace is not None  # checked by the caller
    if pace.cap is not None and pace.cap < pace.start:
        raise FormatError("the pace's cap is less than its start")
    if pace.absent != "none" and (genesis.dealer is None or genesis.dealer.mode != "referee"):
        raise FormatError("only a referee game lets its referee act for an absent seat")
