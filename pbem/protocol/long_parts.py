"""The parts of the files of long games (protocol version 6,
`pbem.protocol.long_games`; `pbem.protocol.formats` holds the files): the
agreed pace, resigning, pauses, timeouts and a seat handed over to another
player.
"""

# (no postponed annotations: msgspec reads these at once)

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from pbem.crypto.encoding import B64
from pbem.crypto.envelope import Envelope
from pbem.crypto.keys import PublicIdentity
from pbem.protocol.file_parts import Name, Opening, Ref, Seconds, Stamp
from pbem.protocol.peer_parts import Partial, PeerSecrets


class Pace(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The pace the players agreed at the start (protocol version 6,
    `pbem.protocol.clock`): each seat's clock starts with `start` seconds,
    gains `increment` when its turn ends, and never holds more than `cap`
    (`--pace 3d` is 3 days to each move: start, increment and cap of 3 days).
    """

    start: Annotated[int, Meta(ge=60, le=10 * 366 * 86400)]
    increment: Seconds = 0
    #: None: no cap
    cap: Seconds | None = None
    #: the pauses each seat may announce, in all, over the whole game
    pause_limit: Seconds = 0
    #: referee games: what the referee may do for a seat whose time is out:
    #: nothing ("none"), play for it with the game's bot, or end the game
    #: as abandoned
    absent: Literal["none", "bot", "abandon"] = "none"


class Resign(msgspec.Struct, frozen=True, omit_defaults=True):
    """The writer resigns (version 6): its side loses, the game ends
    (`pbem.protocol.long_games.resign_outcome`)."""

    note: Annotated[str, Meta(max_length=200)] = ""


class Pause(msgspec.Struct, frozen=True):
    """The writer's announced pause (version 6): every clock stops from
    `start` to `end`, which lie after the file's own time."""

    start: Stamp
    end: Stamp


class Timeout(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat's time is out (version 6, `pbem.protocol.long_games`).

    `claim` and `accept`: peer games, a seat claims that `seat` ran out of
    time, and every other seat but `seat` accepts in seat order (`seat`
    answers with a move, and the claim lapses); `abandon` and `bot`: the
    referee, by the genesis's `Pace.absent`, ends the game as abandoned or
    plays `seat`'s move with the game's bot (the file's commands are then
    `seat`'s). `since` is the referee's signed time of receipt of the file
    that began `seat`'s turn: its clock, not the writers' claims.
    """

    seat: Name
    what: Literal["claim", "accept", "abandon", "bot"]
    since: Stamp | None = None


class Handover(msgspec.Struct, frozen=True):
    """A seat passing its place to another identity (protocol version 6,
    `pbem.protocol.handover`): from this file on, `seat`'s files are signed
    with `to`'s key and its cards sealed to it.

    `refs` are the cards the seat knows that are not public (every verifier
    recomputes them); `box` holds their openings and the seat's own secrets
    (`SeatSecrets`), sealed to `to` alone: the newcomer checks each against
    its commitment or its public key when it opens the box.
    """

    seat: Name
    to: PublicIdentity
    refs: list[Ref]
    box: Envelope
    #: where the newcomer gets mail, as the writer's address book has it:
    #: an address book that takes the newcomer's key on this file's word
    #: takes it too, unless it has one (`pbem.app.mailing`: mail for the seat
    #: goes to the newcomer)
    address: str | None = None


class Acceptance(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A newcomer's consent to take a seat (protocol version 7,
    `pbem.protocol.acceptance`): the body of the signed ``acceptance``
    file it mails to the seat's writer, signed with its own key.

    The handover carries only the signature (`TurnBody.consent`): every
    verifier rebuilds this body from the handover itself (its game, the
    file it follows, its seat, its newcomer, its address), so a handover
    that differs from what the newcomer signed in any of them is refused.
    """

    game_id: B64
    seat: Name
    #: the hash of the file the handover follows: an acceptance serves one
    #: moment of one game (the game moved on: the newcomer accepts again)
    prev: B64
    identity: PublicIdentity
    #: where the newcomer gets mail, in its own words
    address: str | None = None


class SeatSecrets(msgspec.Struct, frozen=True, omit_defaults=True):
    """What a handover seals to the newcomer: everything the seat could
    read with its old key. `openings`: the cards dealt to it (dealer
    modes) or delivered to it from other seats' private decks (peer);
    `peer`: its scalars, beacon seeds and private-deck places; `partials`:
    the partial decryptions fellow readers sealed to it, each with the
    `seat` whose layer it takes off."""

    openings: list[Opening] = []
    peer: PeerSecrets | None = None
    partials: list[Partial] = []
