"""The two-faced peer deck: a peer game whose hidden cards come in pairs.

A game declares zones whose items at one index are the two faces of one
card (`Dealing.linked`: the two sides of the Codenames Duet key), each
zone read by one seat. The peer dealer deals them with the pair layers of
`pbem.crypto.twofaced` (its docstring says why each step is needed).

Where it fits: the deck is always *late* (`PeerSetup.late`): the joins bring
keys only; once the set-up is known every verifier derives, from the rules'
own set-up and never from a signed claim, the two linked zones, who reads
each, each cell's two refs, and the standard pairs of faces in a public
order (sorted; the layers shuffle them, so which order does not matter).
Then the layers go on in a fixed order, [A, B, A] (A reads the first zone):

* the deck's slots are the cells' refs, two by two (cell 0's face 0, cell
  0's face 1, cell 1's ...), so a layer's points are its pairs, flattened,
  and after the last layer pair i is cell i;
* A's first layer is under a fresh key K1 (its scalar derived from A's
  join scalar, `twofaced.first_scalar`); B's is under B's join key; A's
  second layer is published under A's join key, which is the key of A's
  two layers *together*: A removes both at once in every partial, so no
  point with only one of A's layers on is ever published;
* at once, every verifier checks the keys, the count, that no point
  repeats (a duplicated card) and that a layer shares no point with the
  deck it received (a layer under the scalar 1 would show it unshuffled);
* from protocol version 5 each layer carries a proof of all of that
  (`pbem.crypto.shuffle.prove_pairs`), checked at once (`check_proof`);
* the audit (`audit`) checks each layer with the published scalars: the
  re-pairings within classes, the fixed faces, the pair shuffles.

Dealing, delivering and revealing are the ordinary peer deck's: each face
is a slot read by one seat, so the other seat's partial comes off in public
and the reader strips its own layer (A's combined one) in private.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pbem.crypto import poker, twofaced
from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.shuffle import prove_pairs
from pbem.errors import CryptoError, FormatError, ProtocolError
from pbem.games.base import Game, GameState, Known
from pbem.protocol import dealing
from pbem.protocol.peer_parts import PokerLayer
from pbem.protocol.peer import proofs

#: what each layer of the fixed order does: (which face it re-pairs, whether it shuffles the pairs)
PLAN = ((1, False), (0, True), (None, True))


@dataclass(frozen=True)
class FaceZone:
    """One linked zone of the set-up: its name, its one reader, its items."""

    zone: str
    reader: str
    items: tuple[tuple[str, str], ...]  # (ref, card) in the zone's order


def face_zones(game: Game[Any, Any], full: GameState) -> tuple[FaceZone, ...]:
    """The linked zones of a set-up, as the rules dealt them (empty when
    the game links none). Call `problem` first."""
    linked = dealing.linked_zones(game, full)
    if not linked:
        return ()
    return tuple(FaceZone(name, full.zones[name].readers[0], _dealt(full, name)) for name in linked[0])


def _dealt(full: GameState, name: str) -> tuple[tuple[str, str], ...]:
    out = []
    for it in full.zones[name].items:
        assert isinstance(it, Known)  # every card of a linked zone is dealt at set-up (`problem`)
        out.append((it.ref, it.card))
    return tuple(out)


def problem(game: Game[Any, Any], full: GameState, seats: list[str] | None = None) -> str | None:
    """Why a two-faced deck cannot deal this set-up, if it cannot."""
    linked = dealing.linked_zones(game, full)
    if not linked:
        return None
    if len(linked) != 1 or len(linked[0]) != 2:
        return "peer dealing deals one pair of linked zones (a two-faced deck), no more"
    named = [full.zones.get(name) for name in linked[0]]
    if any(z is None or z.public or len(z.readers) != 1 for z in named):
        return "each linked zone of a two-faced peer deck must be hidden and read by one seat"
    zones = [z for z in named if z is not None]  # all of them, as just checked
    readers = [z.readers[0] for z in zones]
    if readers[0] == readers[1] or (seats is not None and sorted(seats) != sorted(readers)):
        return "a two-faced peer deck is for two seats, each reading one of its linked zones"
    if len(zones[0].items) != len(zones[1].items) or not all(isinstance(it, Known) for z in zones for it in z.items):
        return "the linked zones of a two-faced peer deck must hold as many cards each, all dealt at set-up"
    linked_refs = {it.ref for z in zones for it in z.items}
    others = [it.ref for z in full.zones.values() for it in z.items if isinstance(it, Known) and it.ref not in linked_refs]
    if others or dealing.has_private_decks(game, full):
        return "a game with a two-faced peer deck can have no other hidden cards at set-up"
    return None


@dataclass(frozen=True)
class Faces:
    """What every verifier derives of a two-faced deck from the set-up."""

    zones: tuple[FaceZone, FaceZone]
    #: the standard pairs' cards (face 0, face 1), in their public order
    pairs: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, zones: tuple[FaceZone, ...]) -> "Faces":
        cards = [(zones[0].items[i][1], zones[1].items[i][1]) for i in range(len(zones[0].items))]
        return cls(zones=(zones[0], zones[1]), pairs=tuple(sorted(cards)))

    @property
    def readers(self) -> tuple[str, str]:
        return self.zones[0].reader, self.zones[1].reader

    @property
    def order(self) -> list[str]:
        a, b = self.readers
        return [a, b, a]

    @property
    def slots(self) -> list[str]:
        """Cell i's two refs at flat positions 2i and 2i+1."""
        return [z.items[i][0] for i in range(len(self.pairs)) for z in self.zones]

    def classes(self, face: int) -> list[str]:
        """The class (the card of face `face`) of each pair in public order:
        still each position's class when layers 1 and 2 re-pair, since the
        pairs are not shuffled before B's layer has re-paired."""
        return [pair[face] for pair in self.pairs]


class TwoFacedDeck(proofs.ProvenDeck, Protocol):
    """What the two-faced deck's code reads and sets of `PeerDeck` (see
    there; named by its fields, as `deck` imports this module)."""

    join_order: list[str]
    faces: Faces | None
    slots: list[str]
    table: dict[bytes, tuple[str, int]]
    points: dict[str, bytes]
    layers: list[PokerLayer]
    keys: dict[str, bytes]

    def starting_points(self) -> list[bytes]: ...


def _faces(deck: TwoFacedDeck) -> Faces:
    assert deck.faces is not None  # a two-faced deck, `install`ed
    return deck.faces


def install(deck: TwoFacedDeck, zones: tuple[FaceZone, ...]) -> None:
    """A late deck learns it is two-faced: its slots, its card points (one
    per face of each standard pair) and its layer order."""
    faces = Faces.of(zones)
    if set(deck.join_order) != set(faces.readers):
        raise ProtocolError("a two-faced peer deck is for two seats, each reading one of its linked zones")
    deck.faces = faces
    deck.slots = faces.slots
    deck.table = twofaced.face_table(deck.nonce, faces.pairs, (zones[0].zone, zones[1].zone))


def _pairs(deck: TwoFacedDeck) -> list[twofaced.Pair]:
    return twofaced.unflatten([deck.points[ref] for ref in deck.slots] if deck.layers else deck.starting_points())


def _scalar(step: int, join_scalar: bytes) -> bytes:
    """The scalar of layer `step` from its seat's join scalar."""
    if step == 0:
        return twofaced.first_scalar(join_scalar)
    if step == 2:
        return twofaced.second_scalar(join_scalar, twofaced.first_scalar(join_scalar))
    return join_scalar


def _statement(deck: TwoFacedDeck, step: int) -> dict[str, Any]:
    """What pair layer `step` does (`PLAN`), as `twofaced` and the proofs
    take it, and the base of its key: A's second layer's key is its join
    key, ``k2·K1`` (K1 the first layer's key)."""
    repair, shuffled = PLAN[step]
    return dict(repair=repair, shuffle=shuffled, classes=_faces(deck).classes(repair) if repair is not None else None,
                base=b64d(deck.layers[0].key, 32) if step == 2 else poker.BASE)


def make_layer(deck: TwoFacedDeck, seat: str, join_scalar: bytes, seq: int) -> PokerLayer:
    """`seat`'s next layer (it is `deck.next_to_layer`), in the file of
    `seq`, with its proof when the game proves layers (`proofs`)."""
    step = len(deck.layers)
    statement = _statement(deck, step)
    base = statement.pop("base")
    k = _scalar(step, join_scalar)
    before = _pairs(deck)
    out = twofaced.pair_layer(k, before, **statement)
    key = poker.public_key(k) if step == 0 else poker.public_key(join_scalar)
    proof = None
    if deck.proven:
        proof = b64e(prove_pairs(proofs.context(deck, seq, proofs.TWO_FACED), before, out, k, base=base, **statement))
    return PokerLayer(seat=seat, key=b64e(key), points=[b64e(p) for p in twofaced.flatten(out)], proof=proof)


def check_proof(deck: TwoFacedDeck, layer: PokerLayer, seq: int, points: list[bytes]) -> None:
    """From version 5: refuse a pair layer whose proof does not show that
    it re-pairs faces only within their classes, keeps what its step keeps,
    and is under its key's one scalar (`PLAN`): nothing is left to the
    audit. `check_now` has checked its key, `_lay` its points."""
    statement = _statement(deck, len(deck.layers))
    proofs.check_pairs(deck, seq, layer, _pairs(deck), twofaced.unflatten(points),
                       f"{layer.seat}'s layer {len(deck.layers) + 1} of the two-faced deck",
                       base=statement["base"], repair=statement["repair"], classes=statement["classes"],
                       shuffled=statement["shuffle"])


def check_now(deck: TwoFacedDeck, layer: PokerLayer) -> None:
    """What a verifier can check of a pair layer before the audit: its key,
    and that it shares no point with the deck it received (`_lay` then
    checks the count and repeats)."""
    step, seat = len(deck.layers), layer.seat
    key = poker.check_point(b64d(layer.key, 32), f"the key of {seat}'s shuffle layer")
    if step == 0:
        if key in deck.keys.values() or key == poker.BASE:
            raise ProtocolError(f"{seat}'s first layer of the two-faced deck is not under a fresh key")
    elif key != deck.keys[seat]:
        which = "its join (the combined key of its two layers)" if step == 2 else "its join"
        raise ProtocolError(f"{seat}'s shuffle layer is not under the key of {which}")
    received = set(twofaced.flatten(_pairs(deck)))
    if any(b64d(p, 32) in received for p in layer.points):
        raise ProtocolError(f"{seat}'s shuffle layer repeats a point of the deck it received: it encrypts nothing")


def audit(deck: TwoFacedDeck, scalars: dict[str, bytes], files: list[str]) -> tuple[int, list[str]]:
    """Check the three pair layers with the published join scalars (A's
    first-layer scalar is derived from its join scalar, as A made it);
    (checks made, failures). The first layer that breaks its rule is
    blamed on its signer, in its file; later layers are not judged (they
    received a wrong deck)."""
    faces = _faces(deck)
    k_a = scalars[faces.readers[0]]
    checks = 1
    first = deck.layers[0]
    if poker.public_key(twofaced.first_scalar(k_a)) != b64d(first.key, 32):
        return checks, [f"{files[0]} (signed by {first.seat}): its first layer's key is not the one its "
                        "published scalar gives"]
    before = twofaced.unflatten(deck.starting_points())
    for step, (layer, where) in enumerate(zip(deck.layers, files)):
        checks += 1
        repair, shuffle = PLAN[step]
        after = twofaced.unflatten([b64d(p, 32) for p in layer.points])
        try:
            twofaced.check_pair_layer(_scalar(step, scalars[layer.seat]), before, after, repair=repair, shuffle=shuffle,
                                      classes=faces.classes(repair) if repair is not None else None)
        except (CryptoError, FormatError) as exc:
            return checks, [f"{where} (signed by {layer.seat}): two-faced shuffle layer {step + 1}: {exc.message}"]
        before = after
    return checks, []
