"""A refill of a seat's private deck, or a hand it reseals, as its owner's
proven layer (protocol version 7; docs/security.md, "What stays late").

When the rules shuffle cards into a seat's private deck during play (Codex:
the discard pile, the owner's own face-down cards among it, reshuffled into
the deck) or rename a hand it holds (`refills`, `changes._holder`), the
owner alone knows the cards. Before version 7 it committed to each fresh ref
with a hash salted from its beacon seed: a refill with hidden cards among
them could be committed to other cards (three copies of its best card) and
was caught only by the audit, and after a handover the old player could
still open those commitments.

From version 7 the owner lays a layer, in the file that owes it, that every
verifier checks there:

* a fresh scalar s, and every card that went in re-encrypted to it: the
  card lay under one layer of the owner (its join key, a reshuffle's key,
  an earlier refill's, re-keyed at a handover or not), point P = k·M for
  the bare card M, or was face up (then M is a point of the refill's own
  table of the cards, and k = 1); the owner publishes Q = s·M with a
  Chaum-Pedersen proof (D. Chaum and T. P. Pedersen, "Wallet Databases
  with Observers", CRYPTO '92; `poker.prove_dleq`) that log_K(s·G) =
  log_P(Q) for the key K = k·G of that layer, i.e. Q = (s/k)·P: the card
  that went in, under s;
* those points permuted, each times s again, in the order of the fresh
  refs, with the same shuffle proof as every layer (`proofs`, Curdleproofs,
  cited in `pbem.crypto.shuffle`), in the base s·G and under the key s·s·G.

So the cards of a refill are, as a multiset, exactly the cards that went in,
checked when the file arrives; they then lie under the owner's one layer of
key s·s·G, and the shared deck's machinery does the rest (partials proven
against that key, sealed to a seat a card goes to; `rekey` shuffles what is
left of them in a private deck again at a handover). s is sealed to the
owner itself and published at the end (`PeerSecrets.refills`).

The places of a refill the owner draws from in its own answer still follow
from its beacon seed (`refills.derived_order`) and are checked by the audit:
see docs/security.md for why that cannot move to the file.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from secrets import randbelow
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from pbem.crypto import poker, shuffle
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.envelope import check_envelope, seal_ad
from pbem.errors import CryptoError, FormatError, ProofError, ProtocolError
from pbem.protocol.peer import proofs
from pbem.protocol.peer_parts import PeerSecrets, PokerLayer, RefillLayer

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity


class Refill(Protocol):
    """What a layer reads and fills of a refill (`refills.Refill`; named by
    its fields, as `refills` imports this module)."""

    zone: str
    owner: str
    refs: list[str]
    gone: list[str]
    seq: int
    committed: int | None
    derived: bool
    cards: list[str] | None
    base: bytes | None
    key: bytes | None
    number: int
    after_rekey: bool


class RefillDeck(proofs.ProvenDeck, Protocol):
    """What a refill layer reads and fills of the deck (`PeerDeck`'s fields,
    as `deck` imports this module)."""

    points: dict[str, bytes]
    remaining: dict[str, set[str]]
    keys: dict[str, bytes]
    own: dict[str, tuple[str, str]]
    own_table: dict[bytes, tuple[str, int]]
    private_contents: dict[str, list[str]]
    rekeys: dict[str, Any]
    #: `changes.DeckChanges`: its `refills`, `reshuffles`, `keys`, `refilled`
    changes: Any

    def key_of(self, seat: str, ref: str) -> bytes: ...


#: `refills.derived_order`: the places its owner's beacon seed gives a refill
DerivedOrder = Callable[[bytes, str, Any, list[str]], dict[str, str]]

DOMAIN = "pbem/1 refill"


class _Chain(Protocol):
    """What a refill reads of the chain."""

    @property
    def game_id(self) -> str: ...
    @property
    def revealed(self) -> dict[str, str]: ...


def box_ad(game_id: str, seq: int) -> bytes:
    """What binds a refill layer's scalar, sealed by its owner to itself."""
    return seal_ad(game_id, seq, "refill scalar")


def deck_name(refill: Refill) -> str:
    """What a refill's shuffle proof is bound to, besides game and seq."""
    return f"refill {refill.zone} {refill.refs[0] if refill.refs else ''}"


def _dleq_context(game_id: str, seq: int, refill: Refill, ref: str) -> bytes:
    return canonical([DOMAIN, game_id, seq, refill.zone, ref])


def table(deck: RefillDeck, refill: Refill, seq: int, cards: list[str]) -> dict[bytes, tuple[str, int]]:
    """The bare points of the refill's face-up cards (sorted), apart from
    every other table of the game."""
    return poker.card_table(f"{deck.nonce} refill {seq} {deck_name(refill)}", sorted(cards))


def inputs(deck: RefillDeck, refill: Refill, seq: int,
           revealed: dict[str, str]) -> tuple[list[tuple[bytes, bytes]], dict[bytes, tuple[str, int]]]:
    """For each card that went in, in order: its point, and the key of the
    owner's layer on it (the base point for a card face up, whose point is
    then its bare point in the refill's `table`, returned too)."""
    up = {g: revealed[g] for g in refill.gone if g in revealed}
    bare = table(deck, refill, seq, list(up.values()))
    by_copy = {value: point for point, value in bare.items()}
    copies: Counter[str] = Counter()
    out = []
    for g in refill.gone:
        if g in up:
            out.append((by_copy[(up[g], copies[up[g]])], poker.BASE))
            copies[up[g]] += 1
        elif g in deck.points and deck.remaining.get(g) == {refill.owner}:
            out.append((deck.points[g], deck.key_of(refill.owner, g)))
        else:
            raise ProtocolError(f"{refill.zone}: from protocol version 7 peer games can shuffle into "
                                f"{refill.owner}'s own zone only cards face up or under {refill.owner}'s layer "
                                f"alone ({g} is not)")
    return out, bare


def commit(chain: _Chain, deck: RefillDeck, refill: Refill, parts: Any, seq: int, revealed: dict[str, str],
           derived_order: DerivedOrder) -> None:
    """The owner's layer over `refill` in the file of `seq`: made by the
    writer, read from the file by a verifier; either way checked and taken
    onto the staged `deck`. (`derived_order`: `refills.derived_order`.)"""
    went, bare = inputs(deck, refill, seq, {**chain.revealed, **revealed})
    owed = sum(1 for f in deck.changes.refills if f.committed == seq and f.key is not None)
    body = getattr(parts, "body", None)  # a verifier's; None for a writer's parts
    if body is None:
        layer = _make(chain, deck, refill, parts, seq, went, revealed, derived_order)
    elif len(body.refills) > owed:
        layer = body.refills[owed]
    else:
        raise ProtocolError(f"{refill.owner} must lay its proven layer over the cards shuffled into {refill.zone}")
    take(chain.game_id, deck, refill, layer, seq, went)
    deck.own_table.update(bare)  # its face-up cards' bare points, for the cards they open as


def take(game_id: str, deck: RefillDeck, refill: Refill, layer: RefillLayer, seq: int,
         went: list[tuple[bytes, bytes]]) -> None:
    """Refuse `layer` unless it is the cards that went in (`went`: their
    points and keys, `inputs`), re-encrypted to one fresh key and shuffled
    under it; then its points are the fresh refs', under the owner's layer
    alone."""
    owner = refill.owner
    what = f"{owner}'s layer over the cards shuffled into {refill.zone}"
    n = len(refill.refs)
    if len(layer.points) != n or len(layer.proofs) != n or len(layer.layer) != n or len(went) != n:
        raise ProtocolError(f"{what} has {len(layer.layer)} cards, not the {n} that went in")
    try:
        base = poker.check_point(b64d(layer.base, 32), f"the base of {what}")
        key = poker.check_point(b64d(layer.key, 32), f"the key of {what}")
        if poker.BASE in (base, key):
            raise ProtocolError(f"{what} is under the scalar 1 (or -1): it hides nothing")
        if {base, key} & _used_keys(deck):
            raise ProtocolError(f"{what} reuses the scalar of an earlier layer: its key is not fresh")
        check_envelope(layer.box, readers=1)
        points = [poker.check_point(b64d(p, 32), f"{what}, card {i}") for i, p in enumerate(layer.points)]
        for i, ((point, old), new, proof) in enumerate(zip(went, points, layer.proofs)):
            try:
                poker.verify_dleq(b64d(proof, 64), old, base, point, new, _dleq_context(game_id, seq, refill,
                                                                                        refill.gone[i]))
            except ProofError:
                raise ProtocolError(f"{what}: card {i} ({refill.gone[i]}) is not the card that went in, "
                                    "re-encrypted to its key") from None
        after = [poker.check_point(b64d(p, 32), f"{what}, card {i}") for i, p in enumerate(layer.layer)]
    except (CryptoError, FormatError) as exc:
        raise ProtocolError(f"{what} does not verify: {exc.message}") from None
    if len(set(after)) != n or len(set(points)) != n:
        raise ProtocolError(f"{what} repeats a card (a duplicated card)")
    proofs.check(deck, seq, deck_name(refill), PokerLayer(seat=owner, key=layer.key, points=[], proof=layer.proof),
                 points, after, what, base=base)
    index = deck.changes.refills.index(refill)
    refill.base, refill.key = base, key
    refill.after_rekey = owner in deck.rekeys
    refill.number = sum(1 for f in deck.changes.refills if f.owner == owner and f.key is not None) - 1
    private = refill.zone in deck.private_contents
    for ref, point in zip(refill.refs, after):
        deck.points[ref] = point
        deck.remaining[ref] = {owner}
        deck.changes.keys[ref] = {owner: key}
        deck.changes.refilled[ref] = index
        if private:  # a private deck's: shuffled again at a handover (`rekey.in_decks`)
            deck.own[ref] = (refill.zone, owner)
    refill.committed = seq


def _used_keys(deck: RefillDeck) -> set[bytes]:
    keys = set(deck.keys.values())
    for r in deck.changes.reshuffles:
        keys |= {b64d(layer.key, 32) for layer in r.layers}
    for f in deck.changes.refills:
        keys |= {k for k in (f.base, f.key) if k is not None}
    return keys


def _make(chain: _Chain, deck: RefillDeck, refill: Refill, parts: Any, seq: int,
          went: list[tuple[bytes, bytes]], revealed: dict[str, str], derived_order: DerivedOrder) -> RefillLayer:
    """The writer's layer: a fresh scalar, each card re-encrypted to it with
    its proof, then shuffled (in the order its beacon seed gives, for a
    refill drawn from in the same file: `refills.derived_order`)."""
    scalars = [_ONE if old == poker.BASE else parts.scalar_for(g) for g, (_, old) in zip(refill.gone, went)]
    order = None
    if refill.derived:
        order = _derived(chain, deck, refill, parts, revealed, derived_order)
    layer, s = lay(chain.game_id, deck, refill, seq, went, scalars, parts.identity.public, order)
    parts.made.setdefault("refill_layers", []).append(layer)
    parts.made.setdefault("refill_scalars", {})[deck.changes.refills.index(refill)] = s
    parts.secrets = msgspec.structs.replace(parts.secrets, refills=[*parts.secrets.refills, b64e(s)])
    return layer


def lay(game_id: str, deck: proofs.ProvenDeck, refill: Refill, seq: int, went: list[tuple[bytes, bytes]],
        scalars: list[bytes], owner: PublicIdentity, order: list[int] | None = None) -> tuple[RefillLayer, bytes]:
    """A layer over the cards that went in (`went`, `inputs`), under a fresh
    scalar s, given the owner's scalar on each (`scalars`; 1 for a card
    face up) and its public key (`owner`, which the box of s is sealed to);
    `order`: the permutation (a uniform one if None). Returns it and s."""
    from pbem.crypto.seal import seal

    s = poker.new_scalar()
    base = poker.public_key(s)
    points, dleqs = [], []
    for g, (point, old), k in zip(refill.gone, went, scalars):
        t = poker.quotient(s, k)
        new = poker.encrypt(t, point)
        points.append(new)
        dleqs.append(b64e(poker.prove_dleq(t, old, base, point, new, _dleq_context(game_id, seq, refill, g))))
    order = order if order is not None else _uniform(len(points))
    after = [poker.encrypt(s, points[j]) for j in order]
    proof = shuffle.prove(proofs.context(deck, seq, deck_name(refill)), points, after, order, s, base=base)
    return RefillLayer(base=b64e(base), points=[b64e(p) for p in points], proofs=dleqs,
                       key=b64e(poker.encrypt(s, base)), layer=[b64e(p) for p in after], proof=b64e(proof),
                       box=seal(s, [owner], box_ad(game_id, seq))), s


#: the scalar 1 (little-endian), the "layer" of a face-up card
_ONE = (1).to_bytes(32, "little")


def order_seed(refill: Refill, secrets: PeerSecrets) -> bytes:
    """What keys the places of a refill its owner draws from in the same
    file (`refills.derived_order`): its beacon seed, and for a refill laid
    after its seat was handed over, the newcomer's re-keying factor too,
    which the old player, who knows that seed, does not know."""
    seed = b64d(secrets.beacon_seed, 32)
    if not refill.after_rekey or secrets.rekey is None:
        return seed
    return hashlib.sha256(b"pbem/1 refill order after a handover" + seed + b64d(secrets.rekey, 32)).digest()


def _uniform(n: int) -> list[int]:
    """A secret, uniform permutation (Fisher-Yates, as `poker.shuffle_layer_witness`)."""
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def _derived(chain: _Chain, deck: RefillDeck, refill: Refill, parts: Any, revealed: dict[str, str],
             derived_order: DerivedOrder) -> list[int]:
    """The permutation of a refill its owner draws from in the same file:
    the places its beacon seed gives (`refills.derived_order`), ``after[i]``
    card ``order[i]`` that went in."""
    known = {**parts.cards_known(parts.secrets), **chain.revealed, **revealed}
    cards = [known[g] for g in refill.gone]
    refill.after_rekey = refill.owner in deck.rekeys
    mapping = derived_order(order_seed(refill, parts.secrets), chain.game_id, refill, cards)
    free = list(range(len(cards)))
    order = []
    for ref in refill.refs:
        j = next(j for j in free if cards[j] == mapping[ref])
        free.remove(j)
        order.append(j)
    return order


def scalar_for(deck: RefillDeck, ref: str, secrets: PeerSecrets | None, made: dict[str, Any]) -> bytes:
    """The owner's scalar of its layer on refilled `ref`: s·s for the
    refill's s (before a re-keying, `rekey.scalar_of`)."""
    index = deck.changes.refilled[ref]
    s = made.get("refill_scalars", {}).get(index)
    if s is None:
        assert secrets is not None  # the owner's secrets hold every refill scalar it laid
        s = b64d(secrets.refills[deck.changes.refills[index].number], 32)
    return poker.times(s, s)


def check_published(deck: RefillDeck, seat: str, secrets: PeerSecrets) -> None:
    """A seat's published refill scalars: one per refill layer it laid, in
    order, each the scalar of that layer's base."""
    bases = [f.base for f in sorted((f for f in deck.changes.refills if f.owner == seat and f.base is not None),
                                    key=lambda f: f.number)]
    if len(secrets.refills) != len(bases):
        raise ProtocolError(f"{seat} publishes {len(secrets.refills)} refill scalars, not the {len(bases)} of its "
                            "refill layers")
    for i, (scalar, base) in enumerate(zip(secrets.refills, bases)):
        assert base is not None  # filtered above
        try:
            poker.check_key(b64d(scalar, 32), base)
        except (CryptoError, FormatError):
            raise ProtocolError(f"{seat}'s published scalar of its refill layer {i + 1} is not the one of its key") from None
