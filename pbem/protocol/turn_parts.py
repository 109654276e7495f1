"""The parts of turn files and of `state.pbem` that are neither a peer
game's nor a long game's (`pbem.protocol.formats` holds the files): undo by
agreement, the ballots of a simultaneous vote, what a party owes, and the
outcome.
"""

# (no postponed annotations: msgspec reads these at once)

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from pbem.crypto.encoding import B64
from pbem.crypto.envelope import Envelope
from pbem.protocol.file_parts import Name, Ref, Seq


class Undo(msgspec.Struct, frozen=True):
    """A step of an undo by agreement (docs/protocol.md, "Undo by agreement").

    `request`: the writer asks to take back its last decision file, seq
    `target`; `accept` / `refuse`: another seat answers that request. When
    every other seat has accepted, the head state returns to the state before
    `target`; the files all stay in the chain.
    """

    what: Literal["request", "accept", "refuse"]
    target: Annotated[int, Meta(ge=1, description="the seq of the file to take back")]


class Ballot(msgspec.Struct, frozen=True):
    """A seat's secret choice in a simultaneous vote (`Game.simultaneous`).

    `commitment` binds the choice (the command's canonical bytes, salted);
    `envelope` holds the command and salt sealed to its keeper: the dealer,
    which opens every ballot once all are in, or in a peer game the voter
    itself, which opens its own once every commitment is in. No other seat
    can read a choice before all are made."""

    commitment: B64
    envelope: Envelope


class BallotOpening(msgspec.Struct, frozen=True):
    """A ballot opened: the seat, its command exactly as committed, the salt."""

    seat: Name
    command: msgspec.Raw
    salt: B64


class VoidBallot(msgspec.Struct, frozen=True, omit_defaults=True):
    """A ballot its keeper (the dealer) cannot tally, from protocol version
    4 on: sealed to another party, holding garbage, or committing to a
    command that is not a vote. Its voter votes again; nothing else of the
    vote is opened. With `opening` (the ballot opens to what its voter
    committed to, which is no vote) every verifier checks the claim; without
    it (the ballot does not open) only the keeper can tell, and the audit
    names the voter on its word."""

    seat: Name
    opening: BallotOpening | None = None


class Obligation(msgspec.Struct, frozen=True, omit_defaults=True):
    """Something a party owes that needs no decision (`pbem sync` writes it)."""

    by: Name
    what: Literal["reveal", "deliver", "publish-seed", "join", "publish-secrets", "chance", "commit", "tally", "deal",
                  "reshuffle", "set-up", "layer", "rekey"]
    refs: list[Ref] = []
    to: Name | None = None


class OutcomeData(msgspec.Struct, frozen=True):
    winners: list[str]
    reason: str
    scores: dict[str, int] | None = None


class PendingUndo(msgspec.Struct, frozen=True):
    """An undo request waiting for answers: who asked, which file, and the
    seats that have accepted so far (the others answer in seat order)."""

    by: Name
    target: Seq
    accepted: list[Name]
    waiting: list[Name]
