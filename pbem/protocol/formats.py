"""The file formats of a game: genesis, turn and state (DESIGN.md section 4).

These Structs are the single source of truth for the files; `schemas/` is
generated from them (`python -m pbem.schemas`) and a test fails when it is
stale. Schema evolution: a new field gets a default, a type never changes; a
break bumps the format version (`pbem/1`). Bodies are encoded with
`omit_defaults`, so a field added later with a default is simply absent from
older files, which therefore stay byte-for-byte canonical and keep verifying.

A signed file is ``{"format", "kind", "by", "body", "sig"}``. The signature
covers a domain string (``b"pbem/1 turn\\n"``) followed by the exact bytes of
`body` as they stand in the file; readers keep the body as `msgspec.Raw`,
verify, and only then decode it (see `pbem.protocol.codec`).

This module holds the files themselves, the types the codec reads; their
parts live by family: `file_parts` (names, openings, seats, the dealer),
`peer_parts` (a peer game's), `long_parts` (a long game's: pace, timeouts,
handovers), `turn_parts` (undo, ballots, obligations).
"""

# (no postponed annotations: msgspec reads these at once)

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from pbem.crypto.encoding import B64
from pbem.crypto.envelope import Envelope
from pbem.protocol import versions
from pbem.protocol.file_parts import DealerInfo, Delivery, Name, Opening, Ref, SeatEntry, SeedOpening, Seq, Stamp
from pbem.protocol.long_parts import Handover, Pace, Pause, Resign, Timeout
from pbem.protocol.peer_parts import (
    BeaconRenewal, Join, Partial, PeerSecrets, PeerSetup, PokerLayer, RefillLayer, Rekey, ReshuffleLayer, SealedPartials)
from pbem.protocol.turn_parts import Ballot, BallotOpening, Obligation, OutcomeData, PendingUndo, Undo, VoidBallot


class SignedFile(msgspec.Struct, frozen=True):
    """The envelope of every signed file; `body` stays raw until verified."""

    format: str
    kind: str
    by: str
    body: msgspec.Raw
    sig: B64


#: the protocol version pbem writes new games under (`GenesisBody.version`;
#: what each version has: `pbem.protocol.versions`); pbem writes a seat's
#: first file only into games of this version, unless its user accepts an
#: older one knowingly (`pbem.app.opening.check_protocol`)
PROTOCOL_VERSION = versions.NEWEST


class GenesisBody(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The first file of a game. `game_id` = SHA-256 of these exact bytes."""

    game: str
    rules_version: str
    options: msgspec.Raw
    seats: list[SeatEntry]
    dealer: DealerInfo | None = None
    peer: PeerSetup | None = None
    initial: msgspec.Raw
    commitments: dict[Ref, B64]
    reveals: list[Opening] = []
    deliveries: list[Delivery] = []
    state: B64
    created_at: str
    nonce: B64
    #: the seed of the set-up's public chance (dealer modes; see
    #: `pbem.protocol.setup`): derived from the dealer's master seed, which
    #: the audit checks; absent in peer games and in genesis files of pbem 0.1
    setup_seed: B64 | None = None
    #: the protocol's version the game was begun under, so that old games
    #: keep the rules they were begun under: 1 (absent), pbem 0.2 and
    #: before; 2: chance nobody can foresee (issue #14: peer chance paused
    #: for another seat's link, players' entropy in every seed); 3 (peer
    #: games only): the set-up comes after the joins, from every seat's
    #: first beacon link (`initial` is null); 4 (every mode, issue #20):
    #: a ballot that cannot be tallied is voided by its keeper, and in peer
    #: games beacon chains have pbem's length and are renewed, and chance a
    #: file draws waits for a link of every other seat
    #: (`pbem.protocol.versions` holds the table)
    version: Annotated[int, Meta(ge=1, le=versions.NEWEST)] = 1
    #: the pace the players agreed (version 6); None: no clock
    pace: Pace | None = None
    #: from version 6, referee games: the seats agree (by joining) that the
    #: referee may hand a vanished seat over to a replacement
    #: (`pbem.protocol.handover`); a seat may always hand itself over
    referee_handover: bool = False


class TurnBody(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One file of the chain after the genesis, written by one party.

    `commands` are the game's command Structs (explicit wire tags); `reveals`
    make identities public; `deliveries` hand openings to seats; `state` is
    the hash of the public state after this file, which every verifier
    recomputes.
    """

    game_id: B64
    seq: Annotated[int, Meta(ge=1)]
    prev: B64
    by: Name
    commands: list[msgspec.Raw] = []
    reveals: list[Opening] = []
    deliveries: list[Delivery] = []
    commitments: dict[Ref, B64] = {}
    seed: SeedOpening | None = None
    join: Join | None = None
    partials: list[Partial] = []
    sealed: list[SealedPartials] = []
    #: the writer's next beacon link (peer games). From version 3 on, the
    #: last seat's join carries its first one, and each earlier seat's
    #: first file after it (the set-up files) its own: together they seed
    #: the set-up
    beacon: B64 | None = None
    #: a new beacon chain for the writer, before its current one runs out
    #: (peer games, version 4)
    renewal: BeaconRenewal | None = None
    #: a late deck's shuffle layer (see `PeerSetup.late`), under the key of
    #: the writer's join
    layer: PokerLayer | None = None
    #: the newcomer's fresh layers and beacon chain, after a handover
    #: (peer games, version 6)
    rekey: Rekey | None = None
    secrets: PeerSecrets | None = None
    #: an undo request or answer: a file carrying it carries nothing else
    undo: Undo | None = None
    #: the seed of the public chance this dealer's file supplies (a paused
    #: command's dice): derived from the dealer's committed seed, which the
    #: audit checks; a referee's of version 7, its proven VRF output
    chance: B64 | None = None
    #: version 7, referee games: the proof that this file's `chance`, or
    #: its deal's `setup_seed`, is the output of the referee's verifiable
    #: random function for this draw (`pbem.protocol.referee_chance`)
    chance_proof: B64 | None = None
    #: the dealer's openings of the items it commits to in this file (a
    #: reshuffled deck), sealed to its own key so it needs no other storage
    memo: Envelope | None = None
    #: this seat's secret choice in an open vote: a file carrying it
    #: carries nothing else (but a peer seat's beacon link)
    vote: Ballot | None = None
    #: ballots opened: by the dealer, every ballot of the vote in seat
    #: order; in a peer game, the writer's own
    tally: list[BallotOpening] = []
    #: the dealer's file voiding the ballots it cannot tally (version 4):
    #: their voters vote again; a file carrying it carries nothing else
    void: list[VoidBallot] = []
    #: peer games: this seat's layer over a reshuffled part of the shared deck
    reshuffle: ReshuffleLayer | None = None
    #: peer games, version 7: this seat's proven layers over cards the rules
    #: shuffled into its private deck or a hand it reseals, in the order it
    #: owes them (`peer.proven_refills`)
    refills: list[RefillLayer] = []
    #: a seat's fresh random contribution to the seed of a game dealt after
    #: its joins (referee games, version 2): its join file carries only this
    contribution: B64 | None = None
    #: the deal of such a game, by the referee: the seed of its public
    #: set-up chance, derived from the game seed (the audit checks it)
    setup_seed: B64 | None = None
    #: the writer's signed time (version 6): what it claims, no more
    #: (`pbem.protocol.clock`)
    at: Stamp | None = None
    #: version 6, each in a file that carries nothing else: the writer
    #: resigns, announces a pause, or times a seat out
    resign: Resign | None = None
    pause: Pause | None = None
    timeout: Timeout | None = None
    #: a seat handed over to another identity (version 6): a file carrying
    #: it carries nothing else
    handover: Handover | None = None
    #: with a handover (version 7): the newcomer's signature of its
    #: acceptance (`long_parts.Acceptance`), which every verifier rebuilds
    #: from the handover (`pbem.protocol.acceptance`)
    consent: B64 | None = None
    state: B64


class StateFile(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """`state.pbem`: a cache of the chain's head, rebuilt by `pbem verify`.

    Not signed: everything in it is derived from the signed files, and
    `pbem verify` fails when it disagrees with them.
    """

    format: str
    kind: Literal["state"]
    game: str
    game_id: B64
    seq: Seq
    head: B64
    public: msgspec.Raw
    revealed: dict[Ref, str]
    known: dict[Name, list[Ref]]
    obligations: list[Obligation]
    to_act: list[Name]
    outcome: OutcomeData | None
    undo: PendingUndo | None = None
