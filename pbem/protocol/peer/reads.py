"""What `changes` and `refills` read of the chain, the deck and a file's parts.

Those two modules are handed the chain (`pbem.protocol.head.ChainView`),
the `PeerDeck` and a file's `FileParts`, but the classes of all three
import them (the deck keeps a `DeckChanges`; the files run them), so naming
those classes there would close an import circle, even under
``TYPE_CHECKING``. The Protocols here say instead exactly what the two
modules read, field by field; the real classes satisfy them structurally,
and the type checker proves it at each call (as `proofs.ProvenDeck` does
for the proofs). A new read in `changes` or `refills` is added here first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from pbem.protocol.peer.proofs import ProvenDeck

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity, SecretIdentity
    from pbem.games.base import Game, GameState
    from pbem.protocol.file_parts import Opening
    from pbem.protocol.formats import TurnBody
    from pbem.protocol.peer_parts import PeerSecrets
    from pbem.protocol.versions import Version


#: the deck's bookkeeping of its changes, as each module reads it:
#: `changes.DeckChanges` whole, or the part `refills` reads (`RefillBook`)
Book = TypeVar("Book", covariant=True)
#: a refill (`refills.Refill`, which `changes` imports)
Item = TypeVar("Item")


class RefillBook(Protocol[Item]):
    """The part of `changes.DeckChanges` that `refills` reads: the refills."""

    refills: list[Item]


class ChangingDeck(ProvenDeck, Protocol[Book]):
    """What the two modules read and change of the deck (`PeerDeck`)."""

    @property
    def changes(self) -> Book: ...
    keys: dict[str, bytes]  # seat -> the key of its join layer
    points: dict[str, bytes]  # ref -> current point
    remaining: dict[str, set[str]]  # ref -> seats whose layer is on
    private_owner: dict[str, str]
    private_commitments: dict[str, str]
    proven_refills: bool  # version 7: refills are their owner's proven layer

    def knows(self, seat: str) -> set[str]: ...


class ChangingChain(Protocol):
    """What the two modules read of the chain (a `ChainView`)."""

    game_id: str
    game: Game[Any, Any]
    seat_order: list[str]
    version: Version

    @property
    def public(self) -> GameState | None: ...
    @property
    def revealed(self) -> dict[str, str]: ...
    @property
    def paused(self) -> tuple[str, Any] | None: ...
    @property
    def chance_blocked(self) -> bool: ...

    def outcome(self) -> Any: ...
    def resumes_chance(self, writer: str) -> bool: ...
    def identity(self, name: str) -> PublicIdentity: ...


@runtime_checkable
class ReadParts(Protocol):
    """A verifier's parts (`files.FileReader`): the file's body, read."""

    @property
    def body(self) -> TurnBody: ...


class MadeParts(Protocol):
    """A writer's parts (`files.WriterParts`): what it adds to its file."""

    made: dict[str, Any]  # the parts the two modules make (a layer, commitments ...)
    identity: SecretIdentity
    secrets: PeerSecrets | None
    cards_known: Callable[[PeerSecrets], dict[str, str]] | None
    to_deliver: dict[str, list[Opening]]  # reader -> openings of private-deck cards


#: one file's parts, read by a verifier or made by its writer
Parts = ReadParts | MadeParts


def reading(parts: Parts) -> TurnBody | None:
    """The body a verifier reads, or None for a writer's parts."""
    return parts.body if isinstance(parts, ReadParts) else None


def making(parts: Parts) -> MadeParts:
    """A writer's parts, where the caller found no body to read."""
    if isinstance(parts, ReadParts):
        raise AssertionError("a verifier's parts where a writer's are made")
    return parts
