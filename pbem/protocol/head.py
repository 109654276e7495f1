"""The head of a chain, its records, and what the modules below the chain read of it.

`pbem.protocol.chain.Chain` holds the records of a game and its `Head`: a
frozen value with everything that judges the next file (the public state,
what each seat knows, the commitments, the peer deck, the open vote, the
pending undo ...). Accepting a file makes a new Head (`msgspec.structs.replace`)
and a `Record` that keeps the Head before it; an accepted undo returns to
the Head recorded before the file it takes back. Nothing is changed in
place, so a file that is refused halfway leaves the chain as it was.

The chain dispatches each file to the modules that judge it (the dealer
modes, the peer package, ballots, undo). Those never import the chain
(that would make a circle): they are handed the chain itself and read it
through `ChainView`, the interface defined here, below both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from pbem.games.base import GameState
from pbem.protocol.formats import GenesisBody, SignedFile, TurnBody

from pbem.crypto.keys import PublicIdentity

if TYPE_CHECKING:
    from pbem.games.base import Game, SeatSpec
    from pbem.protocol.file_parts import SeatEntry
    from pbem.protocol.turn_parts import Obligation
    from pbem.protocol.peer.deck import PeerDeck
    from pbem.protocol.setup import PeerShape
    from pbem.protocol.versions import Version


class UndoPending(msgspec.Struct, frozen=True):
    """An undo request waiting for answers (`pbem.protocol.undo`)."""

    by: str
    target: int
    accepted: tuple[str, ...] = ()


class TimeClaim(msgspec.Struct, frozen=True):
    """A peer seat's claim that `seat`'s time is out (`long_games`)."""

    by: str
    seat: str
    at: str
    accepted: tuple[str, ...] = ()


class Head(msgspec.Struct, frozen=True, kw_only=True):
    """The chain at one file: everything that judges the next one.

    Frozen, and so are its containers by rule: a dict or a set in a Head is
    never changed once the Head exists (a new Head gets new containers).
    The peer deck is the one mutable value: it is changed only on a copy
    (`PeerDeck.copy`), staged while a file is checked, and the copy becomes
    the next Head's deck only if the file is accepted.
    """

    seq: int
    #: the hash of the last file (the genesis's: the game id)
    hash: str
    #: the public state (None before a game dealt after its joins is dealt,
    #: or a peer game set up after its joins is set up)
    public: GameState | None
    #: cards made public: ref -> card
    revealed: dict[str, str] = {}
    #: dealer modes: the refs each seat was dealt (peer games: `deck.knows`)
    known: dict[str, frozenset[str]] = {}
    #: a ref the rules' automatic steps wait for
    blocked_on: str | None = None
    #: peer games: the deck and the beacons (`pbem.protocol.peer.deck`)
    deck: PeerDeck | None = None
    #: the seqs of the decision files (with commands) that stand: an
    #: accepted undo drops the last one
    moves: tuple[int, ...] = ()
    #: (seat, command): a seat's last command, which drew chance that its
    #: file could not have; not applied until the chance is supplied
    paused: tuple[str, Any] | None = None
    #: the rules' automatic steps wait for chance, drawn by `chance_writer`'s file
    chance_blocked: bool = False
    chance_writer: str | None = None
    #: peer games of version 4: the seats that answered the drawn chance so
    #: far (`Chain.chance_answerers`)
    chance_answered: tuple[str, ...] = ()
    #: dealer modes: ref -> commitment, of every item (`deal_commitments`: the deal's)
    commitments: dict[str, str] = {}
    deal_commitments: dict[str, str] = {}
    #: the ballots of the open vote: seat -> (commitment, seq of its file)
    ballots: dict[str, tuple[str, int]] = {}
    #: peer games: the ballots opened so far, in seat order: (seat, command)
    opened: tuple[tuple[str, Any], ...] = ()
    #: the ballots of the open vote its dealer voided: seat -> (seq of the
    #: ballot, seq of the void file, why); the seat votes again
    voided: dict[str, tuple[int, int, str]] = {}
    #: referee games dealt after the joins (version 2): each seat's
    #: contribution to the game seed
    contributions: dict[str, bytes] = {}
    #: the deal (or a peer game's set-up) is in
    dealt: bool = False
    #: dealer modes: the master seed, once published at the end
    seed: bytes | None = None
    #: dealer modes: the public set-up seed (the genesis's or the deal's)
    setup_seed: bytes | None = None
    #: referee games of version 7: how many of the referee's answers drew
    #: public chance so far (the next one's draw is ``play N+1``,
    #: `pbem.protocol.referee_chance`)
    chance_draws: int = 0
    undo_pending: UndoPending | None = None
    #: version 6 (`pbem.protocol.long_games`): how the game ended outside
    #: its rules (a resignation, an abandonment), the seats the referee
    #: plays for with the game's bot, and a peer claim that a seat's time
    #: is out, waiting for the other seats to accept it
    ended: Any = None
    absent: frozenset[str] = frozenset()
    claim: TimeClaim | None = None
    #: seats handed over (version 6): seat -> (seq of the handover, the
    #: newcomer's identity, whose keys the seat's files carry from then on)
    handed: dict[str, tuple[int, PublicIdentity]] = {}


@dataclass
class Record:
    """One accepted file, with what a log needs to describe it."""

    seq: int
    by: str
    hash: str
    outer: SignedFile
    body: GenesisBody | TurnBody
    commands: list[Any] = field(default_factory=list)
    before: GameState | None = None
    after: GameState | None = None
    name: str = ""
    revealed: dict[str, str] = field(default_factory=dict)  # cards this file made public
    #: the head before this file: what an accepted undo of it returns to
    prior: Head | None = None
    chance: bool = False  # the file drew chance (peer games)
    undone: int | None = None  # an accepted undo: the seq it took back
    #: (seat, command): the paused command this file ran with its chance
    resumed: tuple[str, Any] | None = None
    #: the file ended the game outside the rules: a resignation, a timeout
    #: (`pbem.protocol.long_games`)
    ends: bool = False


class ChainView(Protocol):
    """A chain as the modules that judge its files read it
    (`pbem.protocol.chain.Chain` is the one there is)."""

    genesis: GenesisBody
    version: Version
    game_id: str
    game: Game[Any, Any]
    options: Any
    seats: dict[str, SeatEntry]
    seat_order: list[str]
    dealer_name: str | None
    @property
    def dealer_mode(self) -> str: ...
    #: peer games set up after their joins: the set-up's shape (which refs
    #: are hidden, in which zones), from a probe seed; and the cards of the
    #: decks the genesis committed to
    shape: GameState | None
    peer_shape: PeerShape | None
    records: list[Record]
    now: Head

    # the head's fields, read as the chain's own (`Head` says what each is)
    @property
    def seq(self) -> int: ...
    @property
    def head(self) -> str: ...
    @property
    def public(self) -> GameState | None: ...
    @property
    def revealed(self) -> dict[str, str]: ...
    @property
    def known(self) -> dict[str, frozenset[str]]: ...
    @property
    def blocked_on(self) -> str | None: ...
    @property
    def deck(self) -> PeerDeck | None: ...
    @property
    def moves(self) -> tuple[int, ...]: ...
    @property
    def paused(self) -> tuple[str, Any] | None: ...
    @property
    def chance_blocked(self) -> bool: ...
    @property
    def chance_answered(self) -> tuple[str, ...]: ...
    @property
    def commitments(self) -> dict[str, str]: ...
    @property
    def ballots(self) -> dict[str, tuple[str, int]]: ...
    @property
    def opened(self) -> tuple[tuple[str, Any], ...]: ...
    @property
    def voided(self) -> dict[str, tuple[int, int, str]]: ...
    @property
    def contributions(self) -> dict[str, bytes]: ...
    @property
    def dealt(self) -> bool: ...
    @property
    def seed(self) -> bytes | None: ...
    @property
    def undo_pending(self) -> UndoPending | None: ...
    @property
    def handed(self) -> dict[str, tuple[int, PublicIdentity]]: ...

    def identity(self, name: str) -> PublicIdentity: ...
    def holder(self, name: str) -> PublicIdentity: ...
    def seat_specs(self) -> list[SeatSpec]: ...
    def knows(self, seat: str) -> set[str]: ...
    def outcome(self) -> Any: ...
    def obligations(self) -> list[Obligation]: ...
    def writers(self) -> list[str]: ...
    def voters(self) -> list[str]: ...
    def tally_due(self) -> bool: ...
    def uncommitted(self) -> list[str]: ...
    def chance_by(self) -> str | None: ...
    def chance_answerer(self) -> str | None: ...
    def resumes_chance(self, writer: str) -> bool: ...
    def decode_command(self, raw: Any) -> Any: ...
    def set_up_as(self, state: GameState | None) -> ChainView: ...
    def accepted(self, outer: SignedFile, body: TurnBody, where: str, head: Head,
                 **record: Any) -> tuple[Head, Record]: ...


def peer_deck(chain: ChainView) -> PeerDeck:
    """The deck of a chain known to be a peer game's (which has its deck
    from its genesis on: `pbem.protocol.modes.peer`)."""
    assert chain.deck is not None, "a peer game's chain"
    return chain.deck
