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
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from pbem.crypto.encoding import B64
from pbem.crypto.keys import PublicIdentity
from pbem.crypto.envelope import Envelope
from pbem.protocol import versions

Name = Annotated[str, Meta(pattern="^[a-z0-9][a-z0-9_-]{0,31}$", description="a player's or dealer's name")]
Ref = Annotated[str, Meta(pattern="^[A-Za-z0-9_.:-]{1,40}$", description="an opaque label of a hidden item")]
Seq = Annotated[int, Meta(ge=0, description="position in the chain; the genesis is 0")]
DealerMode = Literal["hotseat", "referee", "peer"]


class SignedFile(msgspec.Struct, frozen=True):
    """The envelope of every signed file; `body` stays raw until verified."""

    format: str
    kind: str
    by: str
    body: msgspec.Raw
    sig: B64


class Opening(msgspec.Struct, frozen=True):
    """The opening of a commitment: which card a ref is, and the salt."""

    ref: Ref
    card: str
    salt: B64


class Delivery(msgspec.Struct, frozen=True):
    """Openings sealed to one reader: how a seat learns the cards it may see.

    `refs` is public (everyone learns *that* the seat now knows these items);
    the cards are inside the envelope.
    """

    to: Name
    refs: list[Ref]
    envelope: Envelope


class SeatEntry(msgspec.Struct, frozen=True):
    """A seat of the game: the player's identity and optional role."""

    name: Name
    role: str | None
    identity: PublicIdentity


class DealerInfo(msgspec.Struct, frozen=True):
    """Who owns what nobody may see, and its commitment to the master seed.

    `seed_commitment` commits to the master seed that drives every chance
    event and every salt; `seed_box` is that seed sealed to the dealer's own
    key, so the dealer needs no other storage. The seed is published in the
    dealer's last file when the game ends, for `pbem audit`.
    """

    mode: DealerMode
    identity: PublicIdentity
    seed_commitment: B64
    seed_box: Envelope


class PokerLayer(msgspec.Struct, frozen=True, omit_defaults=True):
    """One seat's shuffle layer of the shared deck (peer games).

    `points` is the deck after this seat encrypted every card with its
    secret scalar for this shuffle and permuted them; `key` is that scalar
    times the base point, against which every partial decryption is proven.
    """

    seat: Name
    key: B64
    points: list[B64]
    #: from protocol version 5: the proof that `points` are the points the
    #: layer received, permuted, times the scalar of `key`
    #: (`pbem.protocol.peer.proofs`); a layer of no points has none
    proof: B64 | None = None


class PeerSetup(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How a peer game deals with no third party (DESIGN.md section 5).

    `deck` lists the cards of the shared deck in the order of their starting
    encodings (one distinct point per copy, derived from the genesis nonce;
    sorted from version 3 on, when the set-up comes after the joins);
    slot i of the last layer is the item `slots[i]`. Every seat commits to a
    beacon chain (`anchor`) and adds a layer: the creator here, the others in
    their join files. `secret_box` holds the seat's scalar and beacon seed,
    sealed to its own key, so the seat needs no other storage.
    """

    creator: Name
    deck: list[str]
    slots: list[Ref]
    beacon_length: Annotated[int, Meta(ge=1, le=100000)]
    layer: PokerLayer
    anchor: B64
    secret_box: Envelope
    #: the cards of each seat's private deck (zone -> cards, sorted): public
    private_contents: dict[str, list[str]] = {}
    #: the creator's commitments to the cards of its own private decks
    #: (from version 6 its layer's points, with their proofs, as `Join`'s)
    private: dict[Ref, B64] = {}
    private_proofs: dict[str, B64] = {}
    #: version 3, for a game whose hidden cards depend on its set-up chance:
    #: `deck` and `slots` are empty, every `layer` (here and in the joins)
    #: carries only its key, and the layers go on after the set-up
    late: bool = False


Seconds = Annotated[int, Meta(ge=0, le=10 * 366 * 86400, description="a duration in seconds")]
Stamp = Annotated[str, Meta(pattern="^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
                            description="a UTC time, to the second")]


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


class SeedOpening(msgspec.Struct, frozen=True):
    """The dealer's master seed and the salt of its commitment."""

    seed: B64
    salt: B64


class Join(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat entering a peer game: its beacon anchor, shuffle layer, and
    commitments to the cards of its own private decks: hash commitments,
    or from protocol version 6 the points of its own layer over them, with
    one shuffle proof per deck (`private_proofs`, deck -> proof;
    `pbem.protocol.peer.own_decks`)."""

    anchor: B64
    layer: PokerLayer
    secret_box: Envelope
    private: dict[Ref, B64] = {}
    private_proofs: dict[str, B64] = {}


class Partial(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat removing its layer from one card, with a Chaum-Pedersen proof
    that it used the scalar of its published key (checked at once).

    `seat` is the seat whose layer comes off when it is not the writer: a
    spymaster revealing a cell relays the other spymaster's partial that it
    received sealed, then adds its own.
    """

    ref: Ref
    point: B64
    proof: B64
    seat: Name | None = None


class SealedPartials(msgspec.Struct, frozen=True):
    """Partial decryptions sealed to a fellow reader of a zone that several
    seats may see (both Codenames spymasters see the key): they let `to`
    read the cards without making them public. The refs are in clear."""

    to: Name
    refs: list[Ref]
    envelope: Envelope


class PeerSecrets(msgspec.Struct, frozen=True, omit_defaults=True):
    """What a seat publishes when a peer game ends, for the audit. `private`
    is where each card of its private decks was (the salts come from the
    beacon seed)."""

    scalar: B64
    beacon_seed: B64
    private: dict[Ref, str] = {}
    #: the scalars of the seat's layers of reshuffled decks, in the order
    #: of the reshuffles (`ReshuffleLayer`): each is fresh
    layers: list[B64] = []
    #: the seeds of the seat's renewed beacon chains (`BeaconRenewal`), in
    #: the order it committed to them
    renewals: list[B64] = []
    #: a seat handed over (version 6): the factor its newcomer re-keyed the
    #: seat's layers with (`Rekey`); those layers are under it times the
    #: scalar above (or of the reshuffle layer)
    rekey: B64 | None = None


class BeaconRenewal(msgspec.Struct, frozen=True):
    """A fresh beacon chain for the writer of a peer game (version 4,
    `pbem.protocol.peer.renewal`): its anchor, committed now, whose links
    the writer reveals once its current chain is used up, so never in the
    file that commits it; and its seed, sealed to the writer itself."""

    anchor: B64
    box: Envelope


class ReshuffleLayer(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat's layer over cards the rules reshuffled into the shared deck
    of a peer game (docs/protocol.md, "Reshuffles"): the points of those
    cards encrypted with a fresh scalar and permuted, its key, and the
    scalar sealed to the seat itself, so it needs no other storage."""

    key: B64
    points: list[B64]
    box: Envelope
    #: from protocol version 5: its shuffle proof, as `PokerLayer.proof`
    proof: B64 | None = None


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


class RekeyedKey(msgspec.Struct, frozen=True):
    """One of a seat's keys re-keyed at a handover: `new` is the factor of
    the `Rekey` times `old`, as its Chaum-Pedersen `proof` shows."""

    old: B64
    new: B64
    proof: B64


class Rekey(msgspec.Struct, frozen=True):
    """What the newcomer of a peer seat contributes in its first file after
    the handover (version 6, `pbem.protocol.peer.rekey`), in place of what
    the old player held: every point of the seat's layers on cards it could
    not read, re-keyed by a fresh factor r (`factor` is r·G; `points[i]` is
    r times the point of the i-th such card, which every verifier
    recomputes, as `proofs[i]` shows), the seat's keys re-keyed alike
    (`keys`), a fresh beacon chain (`anchor`), and r with the chain's seed
    sealed to the newcomer itself (`box`). `decks`: the seat's private
    decks (version 6's own layer, `own_decks`), each shuffled again under
    r, the cards still in it in ref order, with its shuffle proof, so that
    the old player no longer knows which card lies where."""

    factor: B64
    keys: list[RekeyedKey]
    points: list[B64]
    proofs: list[B64]
    anchor: B64
    box: Envelope
    decks: dict[str, PokerLayer] = {}


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
    #: audit checks
    chance: B64 | None = None
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
    state: B64


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
