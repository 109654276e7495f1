"""Peer games: dealing with no third party (DESIGN.md section 5, "peer").

The shared deck is a mental-poker deck (`pbem.crypto.poker`): every seat
encrypts every card with a secret scalar and shuffles, so the final order is
known to nobody. Item `slots[i]` of the game is slot i of the last layer. A
card reaches a seat when every *other* seat has removed its layer from that
slot (a `Partial`, proven against the seat's published key); the seat then
removes its own layer in private. A card becomes public when the last layer
comes off in a file. Chance comes from hash-chain beacons
(`pbem.crypto.beacon`): one link per file from each seat.

`PeerDeck` is the public bookkeeping of all that, kept by every verifier:
the current point of each slot, which seats' layers remain on it, each
seat's key and latest beacon link.

It lives in the chain's frozen head (`pbem.protocol.head.Head.deck`) but is
itself mutable, for speed (a file changes a few of its hundreds of
entries): copy on write. The deck of a head is never changed; whoever
stages a file (a verifier, a writer, a ballot's link) changes a `copy()`,
which becomes the next head's deck only if the file is accepted, so a
rejected file changes nothing and an undo returns to a deck as it was.
`tests/protocol/test_head.py` checks that no head's deck changes once made.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.crypto import beacon, poker
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.stream import DeterministicStream
from pbem.errors import CryptoError, FormatError, ProtocolError
from pbem.protocol import versions
from pbem.protocol.chance import ShuffleNotes
from pbem.protocol.commitments import check_openings
from pbem.protocol.peer_parts import Partial, PeerSecrets, PokerLayer
from pbem.protocol.peer import changes as peer_changes, faces as peer_faces, own_decks, proofs, refills as peer_refills
from pbem.protocol.peer import proven_refills as peer_proven_refills
from pbem.protocol.peer import renewal as peer_renewal
from pbem.protocol.peer.secrets import commit_private

if TYPE_CHECKING:
    from pbem.protocol.file_parts import Opening
    from pbem.protocol.formats import GenesisBody

BEACON_LENGTH = 1000


def proof_context(game_id: str, ref: str, seat: str) -> bytes:
    """What a partial decryption's proof is bound to: game, slot and seat."""
    return canonical(["pbem/1 partial", game_id, ref, seat])


def new_layer(seat: str, points: list[bytes], scalar: bytes | None = None,
              context: bytes | None = None) -> tuple[bytes, PokerLayer]:
    """A fresh scalar (or the seat's own, for a late layer under the key of
    its join) and this seat's encrypted, shuffled layer of `points`, with
    its proof for `context` when the game proves layers (`proofs`)."""
    k = scalar or poker.new_scalar()
    if context is not None and points:
        layered, proof = proofs.prove(context, points, k)
    else:
        layered, proof = poker.shuffle_layer(k, points), None
    return k, PokerLayer(seat=seat, key=b64e(poker.public_key(k)), points=[b64e(p) for p in layered], proof=proof)


class BeaconChance(ShuffleNotes):
    """Chance for one file of a peer game, from every seat's latest link."""

    def __init__(self, links: dict[str, bytes], game_id: str, seq: int) -> None:
        self._stream = DeterministicStream(beacon.chance_key(links, game_id, seq), b"rules")
        self.used = 0  # draws made: a file that drew chance cannot be undone

    def below(self, n: int) -> int:
        self.used += 1
        return self._stream.below(n)

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        self.used += 1
        return self._stream.shuffle(items)

    def private_draw(self, n: int) -> int:
        self.used += 1
        return self._stream.below(n)  # the owner knows the deck, not the draw

    @property
    def public(self) -> "BeaconChance":
        return self


@dataclass
class PeerDeck:
    """The public state of a peer game's deck and beacons."""

    game_id: str
    nonce: str
    slots: list[str]
    table: dict[bytes, tuple[str, int]]
    join_order: list[str]  # the creator, then the other seats in turn order
    beacon_length: int
    layers: list[PokerLayer] = field(default_factory=list)
    keys: dict[str, bytes] = field(default_factory=dict)
    anchors: dict[str, bytes] = field(default_factory=dict)
    latest: dict[str, bytes] = field(default_factory=dict)  # anchor or last link revealed
    links_used: dict[str, int] = field(default_factory=dict)
    points: dict[str, bytes] = field(default_factory=dict)  # ref -> current point
    #: ref -> seats whose layer is on. Its sets (and `private_from`'s, and
    #: `changes.keys`'s dicts) are never changed in place, only replaced,
    #: so that `copy` shares them: a verifier holds a deck per file of the
    #: game (each record keeps the head before it), and copying them was
    #: most of a 1,000-file peer game's memory.
    remaining: dict[str, set[str]] = field(default_factory=dict)
    secrets: dict[str, PeerSecrets] = field(default_factory=dict)
    #: reader -> ref -> seats that sealed their partial of ref to that reader
    private_from: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    #: private decks (`Dealing.private`): ref -> owner, ref -> commitment
    private_owner: dict[str, str] = field(default_factory=dict)
    private_commitments: dict[str, str] = field(default_factory=dict)
    private_contents: dict[str, list[str]] = field(default_factory=dict)
    private_zone: dict[str, str] = field(default_factory=dict)  # ref -> zone
    #: reshuffles and private decks refilled during play (`peer_changes`)
    changes: peer_changes.DeckChanges = field(default_factory=peer_changes.DeckChanges)
    #: version 3, a game whose hidden cards depend on its set-up chance:
    #: the joins bring keys only, and the layers go on once the set-up is
    #: known (`install`, `add_late_layer`), in `layer_order`
    late: bool = False
    shaped: bool = False  # a late deck has its cards (`install`)
    #: a late deck of linked zones (the Duet key): its pairs of faces
    #: (`peer_faces`), derived from the set-up
    faces: "peer_faces.Faces | None" = None
    #: version 4: beacon chains are renewed (`peer_renewal`): each seat's
    #: committed renewal anchors in order, and how many it has started
    renewable: bool = False
    renewals: dict[str, list[bytes]] = field(default_factory=dict)
    chain_in_use: dict[str, int] = field(default_factory=dict)
    #: version 5: every layer carries its shuffle proof (`proofs`)
    proven: bool = False
    #: version 6: private decks are their owner's proven layer (`own_decks`):
    #: ref -> (zone, owner), and the starting points of their cards
    proven_private: bool = False
    own: dict[str, tuple[str, str]] = field(default_factory=dict)
    own_table: dict[bytes, tuple[str, int]] = field(default_factory=dict)
    #: version 7: refills are their owner's proven layer (`proven_refills`)
    proven_refills: bool = False
    #: version 6: seats handed over whose newcomer re-keyed their layers
    #: (`rekey`): seat -> (the refs re-keyed, old key -> new key, r·G)
    rekeys: dict[str, tuple[frozenset[str], dict[bytes, bytes], bytes]] = field(default_factory=dict)

    def copy(self) -> "PeerDeck":
        """A copy to stage a file on. Points, keys, links and layers are
        immutable values, so only the containers are copied (a deep copy
        was most of the time of verifying a peer game); the sets of
        `remaining` and `private_from` are shared, as they are replaced,
        never changed."""
        return dataclasses.replace(
            self,
            slots=list(self.slots),
            join_order=list(self.join_order),
            layers=list(self.layers),
            keys=dict(self.keys),
            anchors=dict(self.anchors),
            latest=dict(self.latest),
            links_used=dict(self.links_used),
            points=dict(self.points),
            remaining=dict(self.remaining),
            secrets=dict(self.secrets),
            private_from=dict(self.private_from),
            private_owner=dict(self.private_owner),
            private_commitments=dict(self.private_commitments),
            private_contents={zone: list(cards) for zone, cards in self.private_contents.items()},
            private_zone=dict(self.private_zone),
            changes=self.changes.copy(),
            renewals={seat: list(anchors) for seat, anchors in self.renewals.items()},
            chain_in_use=dict(self.chain_in_use),
            own=dict(self.own),  # a proven refill adds to it (`proven_refills`)
            own_table=dict(self.own_table),
            rekeys=dict(self.rekeys),  # each entry is never changed once made
        )

    # -- joining -----------------------------------------------------------

    @property
    def joined(self) -> list[str]:
        return [layer.seat for layer in self.layers]

    @property
    def next_to_join(self) -> str | None:
        for seat in self.join_order:
            if seat not in self.keys:
                return seat
        return None

    @property
    def layer_order(self) -> list[str]:
        """Late layers: the seat whose link set the game up first (its file
        can carry its layer at once), then the others in join order; a
        two-faced deck's fixed [A, B, A] (`peer_faces`)."""
        if self.faces is not None:
            return self.faces.order
        first = self.join_order[-2] if len(self.join_order) > 1 else self.join_order[0]
        return [first] + [s for s in self.join_order if s != first]

    @property
    def next_to_layer(self) -> str | None:
        if not self.late:
            return None
        if self.faces is not None:  # one seat lays two layers
            order = self.faces.order
            return order[len(self.layers)] if len(self.layers) < len(order) else None
        done = set(self.joined)
        return next((s for s in self.layer_order if s not in done), None)

    def install(self, slots: list[str], cards: list[str], faces: tuple[peer_faces.FaceZone, ...] = ()) -> None:
        """A late deck learns its cards from the set-up (sorted, as in a
        genesis): the first late layer encrypts their starting points. With
        `faces` (the linked zones of the set-up) it is a two-faced deck."""
        if faces:
            peer_faces.install(self, faces)
        else:
            self.slots = list(slots)
            self.table = poker.card_table(self.nonce, list(cards))
        self.shaped = True

    def proof_context(self, seq: int) -> bytes | None:
        """What a layer of the shared deck in the file of `seq` proves for
        (None: the game's version proves no layers)."""
        return proofs.context(self, seq, proofs.SHARED) if self.proven else None

    def late_layer(self, seat: str, scalar: bytes, seq: int) -> PokerLayer:
        """`seat`'s late layer, under the key of its join (`scalar`), in the
        file of `seq`."""
        if self.faces is not None:
            return peer_faces.make_layer(self, seat, scalar, seq)
        return new_layer(seat, self.received(), scalar, self.proof_context(seq))[1]

    def add_late_layer(self, layer: PokerLayer, seq: int) -> None:
        seat = layer.seat
        if seat != self.next_to_layer:
            raise ProtocolError(f"{seat} cannot add its shuffle layer now (next: {self.next_to_layer or 'nobody'})")
        if self.faces is not None:
            peer_faces.check_now(self, layer)
        elif b64d(layer.key, 32) != self.keys[seat]:
            raise ProtocolError(f"{seat}'s shuffle layer is not under the key of its join")
        self._lay(layer, seq)

    def starting_points(self) -> list[bytes]:
        return list(self.table)

    def received(self) -> list[bytes]:
        """The points the next layer goes over: the last layer's (nothing
        is dealt before every layer is on), or the cards' starting points."""
        return [b64d(p, 32) for p in self.layers[-1].points] if self.layers else self.starting_points()

    def add_layer(self, layer: PokerLayer, anchor: str, private: dict[str, str] | None = None, seq: int = 0,
                  private_proofs: dict[str, str] | None = None) -> None:
        """A seat's join (in the file of `seq`): its key, anchor, (unless
        the deck is late) layer, and its commitments to its private decks."""
        if layer.seat != self.next_to_join:
            raise ProtocolError(f"{layer.seat} cannot join now (next to join: {self.next_to_join or 'nobody'})")
        if self.late and (layer.points or (self.proven and layer.proof is not None)):
            raise ProtocolError(f"{layer.seat} joins with a shuffle layer before the set-up: it comes after it")
        key = poker.check_point(b64d(layer.key, 32), f"{layer.seat}'s key")
        if not self.late:
            self._lay(layer, seq)
        self.keys[layer.seat] = key
        self.anchors[layer.seat] = self.latest[layer.seat] = b64d(anchor, 32)
        self.links_used[layer.seat] = 0
        if self.proven_private:
            own_decks.commit(self, layer.seat, layer.key, dict(private or {}), dict(private_proofs or {}), seq)
        elif private_proofs:
            raise ProtocolError(f"{layer.seat} proves its private decks as a layer, which games begun before "
                                f"protocol version {versions.first('proven_private_decks')} do not do")
        else:
            self._commit_private(layer.seat, private)

    def _lay(self, layer: PokerLayer, seq: int) -> None:
        if len(layer.points) != len(self.slots):
            raise ProtocolError(f"{layer.seat}'s shuffle layer has {len(layer.points)} cards, not {len(self.slots)}")
        points = [poker.check_point(b64d(p, 32), f"{layer.seat}'s layer point {i}") for i, p in enumerate(layer.points)]
        if len(set(points)) != len(points):
            # every card has its own encoding, and a layer maps distinct
            # points to distinct points: a repeat is a duplicated card
            raise ProtocolError(f"{layer.seat}'s shuffle layer repeats a card (a duplicated card)")
        if self.faces is not None:
            peer_faces.check_proof(self, layer, seq, points)
        else:
            proofs.check(self, seq, proofs.SHARED, layer, self.received(), points, f"{layer.seat}'s shuffle layer")
        self.layers.append(layer)
        for ref, point in zip(self.slots, points):
            self.points[ref] = point
            self.remaining[ref] = set(self.joined)

    def _commit_private(self, seat: str, private: dict[str, str] | None) -> None:
        mine = {ref for ref, owner in self.private_owner.items() if owner == seat}
        private = dict(private or {})
        if set(private) != mine:
            raise ProtocolError(f"{seat} must commit to exactly the cards of its private decks")
        for ref, commitment in private.items():
            b64d(commitment, 32)
            self.private_commitments[ref] = commitment

    @property
    def all_joined(self) -> bool:
        return self.next_to_join is None

    @property
    def complete(self) -> bool:
        """Every seat's layer is on: cards can be dealt."""
        return self.next_to_join is None and (not self.late or (self.shaped and self.next_to_layer is None))

    # -- knowledge -----------------------------------------------------------

    def knows(self, seat: str) -> set[str]:
        """Slots `seat` can read: every other seat's layer is off."""
        if not self.complete:
            return set()
        private = self.private_from.get(seat, {})
        alone = {seat}  # asked for every obligation of every load: no set built per card
        known = {ref for ref, rem in self.remaining.items()
                 if rem <= alone or (ref in private and rem <= alone | private[ref])}
        known |= {ref for ref in private if ref in self.private_owner}  # delivered by their owner
        return known | {ref for ref, owner in self.private_owner.items() if owner == seat}

    def key_of(self, seat: str, ref: str) -> bytes:
        """The key of `seat`'s layer on `ref`: its join key, or the fresh
        key of its layer of the reshuffle that made `ref`; re-keyed by the
        newcomer of a seat handed over (`rekey`)."""
        key = self.changes.keys.get(ref, {}).get(seat) or self.keys[seat]
        rekeyed = self.rekeys.get(seat)
        return rekeyed[1][key] if rekeyed is not None and ref in rekeyed[0] else key

    def may_open(self, seat: str, ref: str) -> bool:
        """`seat` holds the opening of private-deck card `ref`: its owner,
        or the seat it went to (sealed to it by the owner)."""
        return self.private_owner.get(ref) == seat or ref in self.private_from.get(seat, {})

    def open_private(self, seat: str, opening: Opening) -> str:
        """Check the owner's opening of a private-deck card; its card."""
        if opening.ref not in self.private_owner or not self.may_open(seat, opening.ref):
            raise ProtocolError(f"{seat} opens {opening.ref}, which is not a card of its private decks")
        check_openings([opening], self.private_commitments, f"{seat}'s private deck")
        peer_refills.check_opening(self, opening.ref, opening.card)
        return opening.card

    def card_of(self, ref: str, scalar: bytes | None = None) -> str:
        """The card in `ref`, once only the holder of `scalar` (or nobody)
        still has a layer on it."""
        point = self.points[ref]
        if scalar is not None:
            point = poker.decrypt(scalar, point)
        try:
            return self.identify(point)[0]
        except CryptoError:
            raise ProtocolError(
                f"{ref} decrypts to no card: a shuffle layer is wrong",
                hint="finish or abandon the game; pbem audit names the seat once every secret is out",
            ) from None

    def identify(self, point: bytes) -> tuple[str, int]:
        """The (card, copy) a bare point stands for: a card of the shared
        deck or (version 6) of a private deck (`own_decks`)."""
        return poker.identify(point, self.own_table if point in self.own_table else self.table)

    # -- partial decryptions ---------------------------------------------------

    def make_partial(self, seat: str, scalar: bytes, ref: str) -> Partial:
        result, proof = poker.partial_decrypt(scalar, self.key_of(seat, ref), self.points[ref], proof_context(self.game_id, ref, seat))
        return Partial(ref=ref, point=b64e(result), proof=b64e(proof))

    def check_private(self, seat: str, partial: Partial) -> bytes:
        """Check a partial sealed to us against the slot's public point; the
        point it leads to."""
        result = poker.check_point(b64d(partial.point, 32), f"{seat}'s sealed partial of {partial.ref}")
        poker.check_partial(self.key_of(seat, partial.ref), self.points[partial.ref], result, b64d(partial.proof, 64),
                            proof_context(self.game_id, partial.ref, seat))
        return result

    def apply_partial(self, seat: str, partial: Partial) -> str | None:
        """Check and apply `seat`'s partial; the card if it was the last layer."""
        ref = partial.ref
        if seat not in self.keys:
            raise ProtocolError(f"a partial decryption by {seat!r}, who has no layer")
        if ref not in self.remaining:
            raise ProtocolError(f"{seat} decrypts {ref}, which is not a card of the shared deck")
        if seat not in self.remaining[ref]:
            raise ProtocolError(f"{seat} already took its layer off {ref}")
        result = poker.check_point(b64d(partial.point, 32), f"{seat}'s partial decryption of {ref}")
        poker.check_partial(self.key_of(seat, ref), self.points[ref], result, b64d(partial.proof, 64), proof_context(self.game_id, ref, seat))
        self.points[ref] = result
        self.remaining[ref] = self.remaining[ref] - {seat}  # replaced, never changed: `copy` shares it
        return self.card_of(ref) if not self.remaining[ref] else None

    # -- beacons ---------------------------------------------------------------

    def next_link(self, seat: str, seed: bytes, renewed: Sequence[bytes] = ()) -> bytes:
        """The link `seat` reveals next, from its first chain's `seed` and
        the seeds of the chains it `renewed` (`peer_renewal`)."""
        return peer_renewal.next_link(self, seat, seed, list(renewed))

    def apply_link(self, seat: str, link: str | None) -> None:
        if link is None:
            raise ProtocolError(f"{seat}'s file reveals no beacon link")
        value = b64d(link, 32)
        if self.links_used[seat] >= self.beacon_length:
            peer_renewal.link_of_renewed(self, seat, value)
            return
        beacon.check_link(self.latest[seat], value)
        self.latest[seat] = value
        self.links_used[seat] += 1

    def chance(self, seq: int) -> BeaconChance:
        return BeaconChance(dict(self.latest), self.game_id, seq)

    # -- the end ---------------------------------------------------------------

    def publish(self, seat: str, secrets: PeerSecrets) -> None:
        scalar = b64d(secrets.scalar, 32)
        seed = b64d(secrets.beacon_seed, 32)
        try:
            poker.check_key(scalar, self.keys[seat])
        except (CryptoError, FormatError):
            raise ProtocolError(f"{seat}'s published scalar is not the one of its shuffle key") from None
        if beacon.anchor(seed, self.beacon_length) != self.anchors[seat]:
            raise ProtocolError(f"{seat}'s published beacon seed does not lead to its anchor")
        self._check_published_private(seat, secrets)
        rekeyed = self.rekeys.get(seat)
        if (secrets.rekey is None) != (rekeyed is None):
            raise ProtocolError(f"{seat} publishes {'no' if rekeyed else 'a'} factor of a re-keying, "
                                f"{'though' if rekeyed else 'and'} its layers were {'' if rekeyed else 'never '}re-keyed")
        if rekeyed is not None:
            assert secrets.rekey is not None  # both or neither, checked just above
            try:
                poker.check_key(b64d(secrets.rekey, 32), rekeyed[2])
            except (CryptoError, FormatError):
                raise ProtocolError(f"{seat}'s published factor is not the one its layers were re-keyed with") from None
        peer_changes.check_published(self, seat, secrets)
        peer_proven_refills.check_published(self, seat, secrets)
        peer_renewal.check_published(self, seat, secrets)
        self.secrets[seat] = secrets

    def _check_published_private(self, seat: str, secrets: PeerSecrets) -> None:
        """The published places of a seat's private-deck cards must open its
        commitments and hold exactly the declared cards of each deck."""
        mine = {ref for ref, owner in self.private_owner.items() if owner == seat}
        if set(secrets.private) != mine:
            raise ProtocolError(f"{seat} publishes the places of other cards than its private decks'")
        expected = commit_private(b64d(secrets.beacon_seed, 32), secrets.private)
        wrong = sorted(ref for ref in mine if expected[ref] != self.private_commitments.get(ref))
        if wrong:
            raise ProtocolError(f"{seat}'s private deck: {', '.join(wrong)} do not open their commitments")
        for zone, cards in self.private_contents.items():
            refs = [r for r, z in self.private_zone.items() if z == zone and self.private_owner[r] == seat]
            if refs and sorted(secrets.private[r] for r in refs) != sorted(cards):
                raise ProtocolError(f"{seat}'s private deck {zone} does not hold the cards it was dealt")


def start_deck(genesis: GenesisBody, game_id: str, private_refs: dict[str, tuple[str, str]] | None = None) -> PeerDeck:
    """The deck as the genesis leaves it: the creator's layer only.

    `private_refs` maps each card of a private deck to (zone, owner)."""
    setup = genesis.peer
    assert setup is not None  # the genesis of a peer game
    deck = PeerDeck(
        game_id=game_id,
        nonce=genesis.nonce,
        slots=list(setup.slots),
        table=poker.card_table(genesis.nonce, setup.deck),
        join_order=[setup.creator] + [s.name for s in genesis.seats if s.name != setup.creator],
        beacon_length=setup.beacon_length,
    )
    if len(setup.slots) != len(setup.deck) or len(set(setup.slots)) != len(setup.slots):
        raise FormatError("the peer deck and its slots do not match")
    if setup.creator not in {s.name for s in genesis.seats} or setup.layer.seat != setup.creator:
        raise ProtocolError("the creator of a peer game must be one of its seats, and its layer is the first")
    version = versions.of(genesis.version)
    deck.renewable = version.renewed_beacons
    if deck.renewable and setup.beacon_length != BEACON_LENGTH:
        raise ProtocolError(f"the beacon chains have {setup.beacon_length} links: from protocol version "
                            f"{versions.first('renewed_beacons')} on they have pbem's {BEACON_LENGTH}, renewed as "
                            "they run out")
    deck.proven_private = version.proven_private_decks
    deck.proven_refills = version.proven_refills
    for ref, (zone, owner) in (private_refs or {}).items():
        if deck.proven_private:
            deck.own[ref] = (zone, owner)
        else:
            deck.private_owner[ref] = owner
            deck.private_zone[ref] = zone
    deck.private_contents = {z: list(c) for z, c in setup.private_contents.items()}
    deck.changes = peer_changes.DeckChanges(enabled=version.deck_changes)
    deck.late = setup.late
    deck.proven = version.shuffle_proofs
    deck.add_layer(setup.layer, setup.anchor, setup.private, 0, setup.private_proofs)
    return deck


