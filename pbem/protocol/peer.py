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
seat's key and latest beacon link. It is a value (`copy()` before staging a
file) so a rejected file changes nothing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import msgspec

from pbem.crypto import beacon, poker
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.keys import SecretIdentity
from pbem.crypto.limits import check_limits
from pbem.crypto.seal import open_envelope, seal
from pbem.crypto.commit import commit
from pbem.protocol.chance import ShuffleNotes
from pbem.protocol.commitments import check_openings, item_bytes
from pbem.crypto.stream import DeterministicStream, derive
from pbem.errors import CryptoError, FormatError, ProtocolError
from pbem.protocol.formats import Partial, PeerSecrets, PokerLayer
from pbem.protocol import peer_changes, peer_faces, peer_renewal

SECRET_BOX_AD = b"pbem/1 peer secrets\n"
BEACON_LENGTH = 1000


def proof_context(game_id: str, ref: str, seat: str) -> bytes:
    """What a partial decryption's proof is bound to: game, slot and seat."""
    return canonical(["pbem/1 partial", game_id, ref, seat])


def private_salt(beacon_seed: bytes, ref: str) -> bytes:
    """The salt of a private-deck card's commitment, derived from the
    owner's beacon seed so that publishing the seed lets the audit redo it."""
    return derive(beacon_seed, b"private " + ref.encode())


def commit_private(beacon_seed: bytes, mapping: dict[str, str]) -> dict[str, str]:
    return {ref: commit(private_salt(beacon_seed, ref), item_bytes(ref, card)) for ref, card in mapping.items()}


def secret_box(owner: SecretIdentity, scalar: bytes, beacon_seed: bytes, nonce: str, private: dict[str, str] | None = None):
    payload = canonical(PeerSecrets(scalar=b64e(scalar), beacon_seed=b64e(beacon_seed), private=private or {}))
    return seal(payload, [owner.public], SECRET_BOX_AD + nonce.encode())


def open_secret_box(envelope, owner: SecretIdentity, nonce: str) -> PeerSecrets:
    payload = open_envelope(envelope, owner, SECRET_BOX_AD + nonce.encode())
    check_limits(payload, "a secret box")
    return msgspec.json.decode(payload, type=PeerSecrets)


def new_layer(seat: str, points: list[bytes], scalar: bytes | None = None) -> tuple[bytes, PokerLayer]:
    """A fresh scalar (or the seat's own, for a late layer under the key of
    its join) and this seat's encrypted, shuffled layer of `points`."""
    k = scalar or poker.new_scalar()
    layered = poker.shuffle_layer(k, points)
    return k, PokerLayer(seat=seat, key=b64e(poker.public_key(k)), points=[b64e(p) for p in layered])


class BeaconChance(ShuffleNotes):
    """Chance for one file of a peer game, from every seat's latest link."""

    def __init__(self, links: dict[str, bytes], game_id: str, seq: int) -> None:
        self._stream = DeterministicStream(beacon.chance_key(links, game_id, seq), b"rules")
        self.used = 0  # draws made: a file that drew chance cannot be undone

    def below(self, n: int) -> int:
        self.used += 1
        return self._stream.below(n)

    def shuffle(self, items):
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
    remaining: dict[str, set[str]] = field(default_factory=dict)  # ref -> seats whose layer is on
    secrets: dict[str, PeerSecrets] = field(default_factory=dict)
    #: reader -> ref -> seats that sealed their partial of ref to that reader
    private_from: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    #: private decks (`Game.private_decks`): ref -> owner, ref -> commitment
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

    def copy(self) -> "PeerDeck":
        """A copy to stage a file on. Points, keys, links and layers are
        immutable values, so only the containers are copied (a deep copy
        was most of the time of verifying a peer game)."""
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
            remaining={ref: set(seats) for ref, seats in self.remaining.items()},
            secrets=dict(self.secrets),
            private_from={seat: {ref: set(v) for ref, v in refs.items()} for seat, refs in self.private_from.items()},
            private_owner=dict(self.private_owner),
            private_commitments=dict(self.private_commitments),
            private_contents={zone: list(cards) for zone, cards in self.private_contents.items()},
            private_zone=dict(self.private_zone),
            changes=self.changes.copy(),
            renewals={seat: list(anchors) for seat, anchors in self.renewals.items()},
            chain_in_use=dict(self.chain_in_use),
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

    def install(self, slots: list[str], cards: list[str], faces: tuple = ()) -> None:
        """A late deck learns its cards from the set-up (sorted, as in a
        genesis): the first late layer encrypts their starting points. With
        `faces` (the linked zones of the set-up) it is a two-faced deck."""
        if faces:
            peer_faces.install(self, faces)
        else:
            self.slots = list(slots)
            self.table = poker.card_table(self.nonce, list(cards))
        self.shaped = True

    def late_layer(self, seat: str, scalar: bytes) -> PokerLayer:
        """`seat`'s late layer, under the key of its join (`scalar`)."""
        if self.faces is not None:
            return peer_faces.make_layer(self, seat, scalar)
        points = [self.points[ref] for ref in self.slots] if self.layers else self.starting_points()
        return new_layer(seat, points, scalar)[1]

    def add_late_layer(self, layer: PokerLayer) -> None:
        seat = layer.seat
        if seat != self.next_to_layer:
            raise ProtocolError(f"{seat} cannot add its shuffle layer now (next: {self.next_to_layer or 'nobody'})")
        if self.faces is not None:
            peer_faces.check_now(self, layer)
        elif b64d(layer.key, 32) != self.keys[seat]:
            raise ProtocolError(f"{seat}'s shuffle layer is not under the key of its join")
        self._lay(layer)

    def starting_points(self) -> list[bytes]:
        return list(self.table)

    def add_layer(self, layer: PokerLayer, anchor: str, private: dict[str, str] | None = None) -> None:
        """A seat's join: its key, anchor and (unless the deck is late) layer."""
        if layer.seat != self.next_to_join:
            raise ProtocolError(f"{layer.seat} cannot join now (next to join: {self.next_to_join or 'nobody'})")
        if self.late and layer.points:
            raise ProtocolError(f"{layer.seat} joins with a shuffle layer before the set-up: it comes after it")
        key = poker.check_point(b64d(layer.key, 32), f"{layer.seat}'s key")
        if not self.late:
            self._lay(layer)
        self.keys[layer.seat] = key
        self.anchors[layer.seat] = self.latest[layer.seat] = b64d(anchor, 32)
        self.links_used[layer.seat] = 0
        self._commit_private(layer.seat, private)

    def _lay(self, layer: PokerLayer) -> None:
        if len(layer.points) != len(self.slots):
            raise ProtocolError(f"{layer.seat}'s shuffle layer has {len(layer.points)} cards, not {len(self.slots)}")
        points = [poker.check_point(b64d(p, 32), f"{layer.seat}'s layer point {i}") for i, p in enumerate(layer.points)]
        if len(set(points)) != len(points):
            # every card has its own encoding, and a layer maps distinct
            # points to distinct points: a repeat is a duplicated card
            raise ProtocolError(f"{layer.seat}'s shuffle layer repeats a card (a duplicated card)")
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
        known = {ref for ref, rem in self.remaining.items() if rem <= {seat} | private.get(ref, set())}
        known |= {ref for ref in private if ref in self.private_owner}  # delivered by their owner
        return known | {ref for ref, owner in self.private_owner.items() if owner == seat}

    def key_of(self, seat: str, ref: str) -> bytes:
        """The key of `seat`'s layer on `ref`: its join key, or the fresh
        key of its layer of the reshuffle that made `ref`."""
        return self.changes.keys.get(ref, {}).get(seat) or self.keys[seat]

    def may_open(self, seat: str, ref: str) -> bool:
        """`seat` holds the opening of private-deck card `ref`: its owner,
        or the seat it went to (sealed to it by the owner)."""
        return self.private_owner.get(ref) == seat or ref in self.private_from.get(seat, {})

    def open_private(self, seat: str, opening) -> str:
        """Check the owner's opening of a private-deck card; its card."""
        if opening.ref not in self.private_owner or not self.may_open(seat, opening.ref):
            raise ProtocolError(f"{seat} opens {opening.ref}, which is not a card of its private decks")
        check_openings([opening], self.private_commitments, f"{seat}'s private deck")
        peer_changes.check_opening(self, opening.ref, opening.card)
        return opening.card

    def card_of(self, ref: str, scalar: bytes | None = None) -> str:
        """The card in `ref`, once only the holder of `scalar` (or nobody)
        still has a layer on it."""
        point = self.points[ref]
        if scalar is not None:
            point = poker.decrypt(scalar, point)
        try:
            return poker.identify(point, self.table)[0]
        except CryptoError:
            raise ProtocolError(
                f"{ref} decrypts to no card: a shuffle layer is wrong",
                hint="finish or abandon the game; pbem audit names the seat once every secret is out",
            ) from None

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
        self.remaining[ref].discard(seat)
        return self.card_of(ref) if not self.remaining[ref] else None

    # -- beacons ---------------------------------------------------------------

    def next_link(self, seat: str, seed: bytes, renewed: list[bytes] = ()) -> bytes:
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
        peer_changes.check_published(self, seat, secrets)
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


def start_deck(genesis, game_id: str, private_refs: dict[str, tuple[str, str]] | None = None) -> PeerDeck:
    """The deck as the genesis leaves it: the creator's layer only.

    `private_refs` maps each card of a private deck to (zone, owner)."""
    setup = genesis.peer
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
    deck.renewable = genesis.version >= peer_renewal.VERSION
    if deck.renewable and setup.beacon_length != BEACON_LENGTH:
        raise ProtocolError(f"the beacon chains have {setup.beacon_length} links: from protocol version "
                            f"{peer_renewal.VERSION} on they have pbem's {BEACON_LENGTH}, renewed as they run out")
    for ref, (zone, owner) in (private_refs or {}).items():
        deck.private_owner[ref] = owner
        deck.private_zone[ref] = zone
    deck.private_contents = {z: list(c) for z, c in setup.private_contents.items()}
    deck.changes = peer_changes.DeckChanges(enabled=genesis.version >= 2)
    deck.late = setup.late
    deck.add_layer(setup.layer, setup.anchor, setup.private)
    return deck


# --- one file of a peer game, for writers and verifiers alike ----------------


def owed(deck: PeerDeck, state, seat: str, revealed: dict[str, str], blocked: str | None, seat_order: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """What `seat` must decrypt now: slots whose layer it removes in public
    (cards that must become public, cards another seat alone may see), and
    (slot, reader) pairs for which it seals its partial to a fellow reader
    of a zone several seats see. Stable order."""
    from pbem.games.base import unknown_to, unrevealed_public

    if not deck.complete:
        return [], []
    zone_of = {it.ref: zone for zone in state.zones.values() for it in zone.items}
    public: list[str] = []
    sealed: list[tuple[str, str]] = []
    for ref in unrevealed_public(state) + ([blocked] if blocked else []):
        owes = seat in deck.remaining.get(ref, ()) or deck.private_owner.get(ref) == seat
        if owes and ref not in public:
            public.append(ref)
    for other in seat_order:
        if other == seat:
            continue
        for ref in unknown_to(state, other, deck.knows(other) | set(revealed)):
            if ref in deck.private_owner:
                if not deck.changes.enabled:
                    raise ProtocolError(
                        f"a card of {deck.private_owner[ref]}'s private deck would go to {other}: "
                        "peer games begun before version 2 do not support that"
                    )
                if deck.private_owner[ref] == seat:  # its owner seals the opening to the new holder
                    sealed.append((ref, other))
                continue
            if seat not in deck.remaining.get(ref, ()):
                continue
            readers = zone_of[ref].readers
            if seat in readers and len(readers) > 1:
                # seal to the fellow reader once every other seat is done
                if deck.remaining[ref] <= set(readers) and seat not in deck.private_from.get(other, {}).get(ref, set()):
                    sealed.append((ref, other))
            elif deck.changes.enabled and deck.remaining[ref] == {seat}:
                # a card moving from seat's hidden hand to other's: the last
                # layer coming off in public would show it to everyone
                sealed.append((ref, other))
            elif ref not in public:
                public.append(ref)
    return public, sealed


def owed_refs(deck: PeerDeck, state, seat: str, revealed: dict[str, str], blocked: str | None, seat_order: list[str]) -> list[str]:
    """Every slot `seat` owes a decryption of, public or sealed."""
    public, sealed = owed(deck, state, seat, revealed, blocked, seat_order)
    return public + [ref for ref, _ in sealed if ref not in public]


class FileParts:
    """Where one file's decryptions come from: made by its writer, or read
    from the file by a verifier (see `WriterParts`, `FileReader`)."""

    def next_partial(self, ref: str) -> Partial | None:  # pragma: no cover - interface
        raise NotImplementedError

    def seal(self, ref: str, to: str) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def opening(self, ref: str):  # pragma: no cover - interface
        raise NotImplementedError

    def deliver(self, ref: str, to: str) -> bool:  # pragma: no cover - interface
        """The opening of a private-deck card sealed to the seat it goes to."""
        raise NotImplementedError


@dataclass
class PeerEffect:
    effect: object  # transition.Effect
    partials: list[Partial]
    openings: list = field(default_factory=list)  # private-deck cards revealed
    chance_used: bool = False  # the file drew from the beacons


def file_chance(chain, deck: PeerDeck, seq: int, answering: bool):
    """The chance of one peer file.

    Games begun before version 2, and games that declare their chance
    harmless to foresee (`Game.immediate_chance`), draw it from every seat's
    latest link at once, the writer's own included: the writer could compute
    it before signing. Otherwise public chance (and which card of a private
    deck is drawn) pauses the file; the other seats' next files, whose links
    the writer could not know, answer it, and the last of them draws it
    (`answering`; `Chain.chance_answerers`)."""
    beacons = deck.chance(seq)
    if chain.genesis.version < 2 or chain.game.immediate_chance:
        return beacons
    from pbem.crypto import beacon
    from pbem.protocol.chance import PlayChance, Tape

    seed = beacon.chance_key(dict(deck.latest), deck.game_id, seq) if answering else None
    return PlayChance(Tape(seed, f"public {seq}"), secret=beacons, draws_public=True)


def run_file(chain, deck: PeerDeck, writer: str, commands, parts: FileParts, seq: int, private_check=None,
             resume=()) -> PeerEffect:
    """Apply one peer file to a staged `deck` and the chain's public state.

    The writer's owed decryptions come first (public partials, then partials
    sealed to fellow readers), then those the commands need. `parts` makes
    them (writer) or takes them from the file (verifier): one code path.
    """
    from pbem.protocol import transition

    used: list[Partial] = []
    openings: list = []  # of private-deck cards
    completed: dict[str, str] = {}

    def peel(ref: str, must: bool) -> str | None:
        """Take the file's partials for `ref` (the writer's own, and those it
        relays to finish a reveal) while they come; a private-deck card is
        opened by its owner instead."""
        if ref in deck.private_owner:
            if not deck.may_open(writer, ref):
                return None
            opening = parts.opening(ref)
            if opening is None:
                if must:
                    raise ProtocolError(f"{writer} must reveal {ref} of its private deck and does not")
                return None
            completed[ref] = deck.open_private(writer, opening)
            openings.append(opening)
            return completed[ref]
        while deck.remaining.get(ref):
            partial = parts.next_partial(ref)
            if partial is None:
                break
            if partial.seat == writer:
                # one content, one byte string: the writer's own partial
                # names no seat (only a relayed one does)
                raise FormatError(f"{writer}'s own partial of {ref} names its seat; the field is only for a relayed partial")
            card = deck.apply_partial(partial.seat or writer, partial)
            used.append(partial)
            if card is not None:
                completed[ref] = card
        if must and writer in deck.remaining.get(ref, ()):
            raise ProtocolError(f"{writer} owes its partial decryption of {ref} and does not give it")
        return completed.get(ref)

    peer_changes.take_due(chain, deck, writer, parts, seq)
    public, sealed = owed(deck, chain.public, writer, chain.revealed, chain.blocked_on, chain.seat_order)
    for ref in public:
        peel(ref, must=True)
    for ref, to in sealed:
        if not (parts.deliver(ref, to) if ref in deck.private_owner else parts.seal(ref, to)):
            raise ProtocolError(f"{writer} owes {to} its sealed partial decryption of {ref} and does not give it")
        deck.private_from.setdefault(to, {}).setdefault(ref, set()).add(writer)

    def source(ref: str) -> str | None:
        if ref in completed:
            return completed[ref]
        if ref in chain.revealed:  # public already (a paused command's own reveals, run again by its answer)
            return chain.revealed[ref]
        return peel(ref, must=False)

    if chain.chance_answerer() == writer and commands:
        raise ProtocolError(f"{writer}'s file answers the chance of {chain.chance_by()}'s file: it carries no commands")
    answering = chain.resumes_chance(writer)  # the last answer: every link the chance waits for is in
    chance = file_chance(chain, deck, seq, answering)
    resume = list(resume) + ([chain.paused] if answering and chain.paused else [])
    effect = transition.run(
        chain.game,
        chain.public,
        writer,
        commands,
        source=source,
        writer_knows=lambda st: deck.knows(writer) | set(chain.revealed) | set(completed),
        private_check=private_check,
        chance=chance,
        resume=resume,
    )
    used_chance = chance.used > 0 if isinstance(chance, BeaconChance) else effect.drew_chance
    peer_changes.after_run(chain, deck, writer, effect, parts, seq, chance)
    return PeerEffect(effect=effect, partials=used, openings=openings, chance_used=used_chance)


class FileReader(FileParts):
    """A verifier's `FileParts`: the decryptions a received file carries."""

    def __init__(self, body) -> None:
        self.body = body
        self.delivered = {(d.to, ref) for d in body.deliveries for ref in d.refs}
        self.deliveries: list[tuple[str, str]] = []
        self.openings = {o.ref: o for o in body.reveals}
        if len(self.openings) != len(body.reveals):
            raise ProtocolError("reveals a card twice")
        self.partials: dict[str, list[Partial]] = {}
        for partial in body.partials:
            self.partials.setdefault(partial.ref, []).append(partial)
        self.sealed: set[tuple[str, str]] = set()
        self.calls: list[tuple[str, str]] = []
        for box in body.sealed:
            for ref in box.refs:
                if (box.to, ref) in self.sealed:
                    raise ProtocolError(f"seals its partial of {ref} to {box.to} twice")
                self.sealed.add((box.to, ref))

    def next_partial(self, ref: str) -> Partial | None:
        waiting = self.partials.get(ref)
        return waiting.pop(0) if waiting else None

    def seal(self, ref: str, to: str) -> bool:
        if (to, ref) in self.sealed:
            self.sealed.discard((to, ref))
            self.calls.append((ref, to))
            return True
        return False

    def sealed_in_order(self) -> list[tuple[str, list[str]]]:
        """The sealed boxes a writer makes for the seals asked: one per
        reader, in order of first use, refs in order."""
        boxes: dict[str, list[str]] = {}
        for ref, to in self.calls:
            boxes.setdefault(to, []).append(ref)
        return list(boxes.items())

    def opening(self, ref: str):
        return self.openings.pop(ref, None)

    def deliver(self, ref: str, to: str) -> bool:
        if (to, ref) in self.delivered:
            self.delivered.discard((to, ref))
            self.deliveries.append((ref, to))
            return True
        return False

    def delivered_in_order(self) -> list[tuple[str, list[str]]]:
        boxes: dict[str, list[str]] = {}
        for ref, to in self.deliveries:
            boxes.setdefault(to, []).append(ref)
        return list(boxes.items())

    def leftovers(self) -> list[str]:
        return sorted({ref for ref, rest in self.partials.items() if rest} | {ref for _, ref in self.sealed}
                      | set(self.openings) | {ref for _, ref in self.delivered})


class WriterParts(FileParts):
    """A writer's `FileParts`: its own partials, made on demand, and the
    partials sealed to it by fellow readers, relayed to finish a reveal."""

    def __init__(self, deck: PeerDeck, me: str, scalar: bytes, held: dict[str, dict[str, Partial]],
                 secrets: PeerSecrets | None = None) -> None:
        self.deck, self.me, self.scalar, self.held = deck, me, scalar, held
        self.secrets = secrets
        self.to_seal: dict[str, list[Partial]] = {}
        self.to_deliver: dict[str, list] = {}  # reader -> openings of private-deck cards
        self.delivered: dict = {}  # ref -> opening sealed to this seat by the card's owner
        self.made: dict = {}  # what `peer_changes` adds to the file (a reshuffle layer ...)

    def scalar_for(self, ref: str) -> bytes:
        return peer_changes.scalar_for(self.deck, self.me, ref, self.secrets, self.made) or self.scalar

    def deliver(self, ref: str, to: str) -> bool:
        opening = self.opening(ref)
        if opening is None:
            return False
        self.to_deliver.setdefault(to, []).append(opening)
        return True

    def opening(self, ref: str):
        from pbem.protocol.formats import Opening

        if ref in self.delivered:
            return self.delivered[ref]
        if self.secrets is None or ref not in self.secrets.private:
            return None
        salt = private_salt(b64d(self.secrets.beacon_seed, 32), ref)
        return Opening(ref=ref, card=self.secrets.private[ref], salt=b64e(salt))

    def next_partial(self, ref: str) -> Partial | None:
        others = self.deck.remaining.get(ref, set()) - {self.me}
        mine = self.held.get(ref, {})
        if others and others <= set(mine):
            seat = sorted(others)[0]
            return msgspec.structs.replace(mine[seat], seat=seat)
        if self.me in self.deck.remaining.get(ref, ()):
            return self.deck.make_partial(self.me, self.scalar_for(ref), ref)
        return None

    def seal(self, ref: str, to: str) -> bool:
        self.to_seal.setdefault(to, []).append(self.deck.make_partial(self.me, self.scalar_for(ref), ref))
        return True
