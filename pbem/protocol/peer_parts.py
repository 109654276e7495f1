"""The parts of the files of a peer game (DESIGN.md section 5, "peer";
`pbem.protocol.formats` holds the files): the set-up, the joins, the shuffle
layers, partial decryptions, beacon renewals, a handed-over seat's re-keying
and the secrets a seat publishes at the end. Plain Structs: the work on them
is `pbem.protocol.peer`'s.
"""

# (no postponed annotations: msgspec reads these at once)

from typing import Annotated

import msgspec
from msgspec import Meta

from pbem.crypto.encoding import B64
from pbem.crypto.envelope import Envelope
from pbem.protocol.file_parts import Name, Ref


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
    #: version 7: the scalars of the seat's refill layers (`RefillLayer`),
    #: in the order it laid them; each is fresh
    refills: list[B64] = []


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


class RefillLayer(msgspec.Struct, frozen=True):
    """A seat's proven layer over the cards the rules shuffled into its
    private deck, or into a hand it reseals (protocol version 7,
    `pbem.protocol.peer.proven_refills`). With a fresh scalar s: `base` is
    s·G; `points[i]` is the i-th card that went in re-encrypted to s
    (s times its bare card), as `proofs[i]` shows (a Chaum-Pedersen proof
    against the key of the layer it lay under, or the base point for a
    face-up card); `layer` is those points permuted, each times s again,
    in the order of the fresh refs, under `key` = s·`base`, as the shuffle
    `proof` shows; `box` holds s, sealed to the seat itself."""

    base: B64
    points: list[B64]
    proofs: list[B64]
    key: B64
    layer: list[B64]
    proof: B64
    box: Envelope


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
