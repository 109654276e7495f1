"""The chain's records, and what the modules below the chain read of it.

`pbem.protocol.chain.Chain` holds the records of a game and its head, and
dispatches each file to the modules that judge it: the dealer modes, the
peer package, ballots, undo. Those never import the chain (that would make
a circle); they are handed the chain itself and read it through
`ChainView`, the interface defined here, below both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pbem.games.base import GameState
from pbem.protocol.formats import GenesisBody, SignedFile, TurnBody

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity
    from pbem.games.base import Game, SeatSpec
    from pbem.protocol.formats import Obligation, SeatEntry
    from pbem.protocol.peer.deck import PeerDeck
    from pbem.protocol.versions import Version


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
    #: the chain's state before this file (public, known, revealed,
    #: blocked_on, deck, moves): what an accepted undo of it returns to
    prior: tuple | None = None
    chance: bool = False  # the file drew chance (peer games)
    undone: int | None = None  # an accepted undo: the seq it took back
    #: (seat, command): the paused command this file ran with its chance
    resumed: tuple[str, Any] | None = None
    #: an undo request written out of turn: the seats that were to write,
    #: whose file on the same predecessor stands over it (`undo.set_aside`)
    out_of_turn: tuple[str, ...] | None = None


class ChainView(Protocol):
    """A chain as the modules that judge its files read it."""

    genesis: GenesisBody
    version: Version
    game_id: str
    game: Game
    options: Any
    seats: dict[str, SeatEntry]
    seat_order: list[str]
    dealer_name: str | None
    records: list[Any]
    #: peer games set up after their joins: the set-up's shape (which refs
    #: are hidden, in which zones), from a probe seed
    shape: GameState | None

    @property
    def seq(self) -> int: ...
    @property
    def head(self) -> str: ...
    @property
    def public(self) -> GameState | None: ...
    @property
    def revealed(self) -> dict[str, str]: ...
    @property
    def blocked_on(self) -> str | None: ...
    @property
    def deck(self) -> PeerDeck | None: ...
    @property
    def paused(self) -> tuple[str, Any] | None: ...
    @property
    def chance_blocked(self) -> bool: ...
    @property
    def dealt(self) -> bool: ...

    def identity(self, name: str) -> PublicIdentity: ...
    def seat_specs(self) -> list[SeatSpec]: ...
    def outcome(self) -> Any: ...
    def obligations(self) -> list[Obligation]: ...
    def chance_by(self) -> str | None: ...
    def chance_answerer(self) -> str | None: ...
    def resumes_chance(self, writer: str) -> bool: ...
    def decode_command(self, raw: Any) -> Any: ...
    def stage_setup(self, deck: PeerDeck) -> GameState | None: ...
    def set_up_as(self, state: GameState | None) -> Any: ...
    def tally_resume(self, by: str, tally: Any, commands: Any = ()) -> tuple[list, list]: ...
