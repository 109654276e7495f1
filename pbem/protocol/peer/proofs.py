"""Every shuffle layer of a peer game proven as it arrives (protocol version 5).

A seat's layer over a peer deck claims that its points are the points it
received, permuted, each times the one secret scalar of its key. Before
version 5 nothing checked that claim until the end of the game, when every
seat publishes its scalars and the audit replays each layer: a layer that
put in a card of its seat's choosing was seen only when that card was dealt
or at the audit, and a Codenames Duet layer that re-paired faces across
classes not at all during play. From version 5 on every layer carries a
zero-knowledge proof of exactly that claim (`pbem.crypto.shuffle`:
Curdleproofs over edwards25519; the two-faced deck's layers with
`prove_pairs`), and every verifier checks it in the code that takes the
layer (`PeerDeck.add_layer`, `add_late_layer`, a reshuffle's layer in
`changes`), which is the code `apply`, `verify`, `join` and the watchers
replay: a false layer is refused in its own file, naming its seat.

What a proof is bound to (its Fiat-Shamir context): ``["pbem/1 shuffle
layer", game, seq, deck]``, the game and the file's seq, and which deck
(`SHARED`, `TWO_FACED`, or the reshuffle it belongs to); the prover's
transcript then absorbs both point vectors, the key and its base. The
creator's layer sits in the genesis, whose hash is the game id and so
cannot be in its own context: a genesis's proof binds the genesis's nonce
(which also derives the card points it shuffles) instead.

A layer's key must not be the base point (the scalar 1 would lay the cards
bare, in an order anyone can read off): refused, with the proofs, from
version 5 on. Games begun before version 5 verify as before; a proof in
one of their layers is not read (as a pbem of their day would not).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

from pbem.crypto import poker, shuffle
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.errors import FormatError, ProtocolError, ShuffleProofError
from pbem.protocol.peer_parts import PokerLayer, ReshuffleLayer

DOMAIN = "pbem/1 shuffle layer"
#: the shared deck's layers (the joins', a late deck's)
SHARED = "shared"
#: the two-faced deck's pair layers (`faces`)
TWO_FACED = "two-faced"



class ProvenDeck(Protocol):
    """What checking a layer reads of its deck (`PeerDeck` is the one there
    is; named by its fields, as `deck` imports this module)."""

    nonce: str
    game_id: str
    proven: bool


_CHECKED: set[bytes] = set()  # digests of layers whose proofs verified in this process
_CHECKED_MAX = 1 << 12


def reshuffle_deck(index: int) -> str:
    """The deck name of the `index`th reshuffle of the game (`changes`)."""
    return f"reshuffle {index}"


def context(deck: ProvenDeck, seq: int, name: str) -> bytes:
    """The context of a layer of deck `name` in the file of `seq`."""
    return context_of(deck.nonce if seq == 0 else deck.game_id, seq, name)


def context_of(game: str, seq: int, name: str) -> bytes:
    """The context from the game's id (its genesis's nonce at seq 0)."""
    return canonical([DOMAIN, game, seq, name])


def prove(ctx: bytes, before: Sequence[bytes], scalar: bytes) -> tuple[list[bytes], str]:
    """A layer of `before` under `scalar` and its proof."""
    after, order = poker.shuffle_layer_witness(scalar, list(before))
    return after, b64e(shuffle.prove(ctx, before, after, order, scalar))


def _remembered(fields: Sequence[bytes]) -> tuple[bytes, bool]:
    """A statement that verified once is not checked again in this process
    (every load of a folder replays every file)."""
    digest = hashlib.sha256(b"".join(len(f).to_bytes(4, "big") + f for f in fields)).digest()
    return digest, digest in _CHECKED


def _remember(digest: bytes) -> None:
    if len(_CHECKED) >= _CHECKED_MAX:
        _CHECKED.clear()
    _CHECKED.add(digest)


def required(deck: ProvenDeck, layer: PokerLayer | ReshuffleLayer, what: str) -> bytes | None:
    """The layer's proof if its game's version proves layers (None if not),
    after refusing a missing proof and a key that is the base point."""
    if not deck.proven:
        return None
    if b64d(layer.key, 32) == poker.BASE:
        raise ProtocolError(f"{what} is under the base point as its key (the scalar 1): it hides nothing")
    if layer.proof is None:
        raise ProtocolError(f"{what} carries no shuffle proof (every layer has one from protocol version 5 on)")
    return b64d(layer.proof)


def check(deck: ProvenDeck, seq: int, name: str, layer: PokerLayer | ReshuffleLayer, before: Sequence[bytes], after: Sequence[bytes], what: str,
          *, base: bytes = poker.BASE) -> None:
    """Refuse `layer` (of `after` over `before`) unless its proof holds. A
    deck of no cards (a game whose hidden cards are all in private decks)
    has nothing to prove, and so carries no proof."""
    if not before:
        if deck.proven and layer.proof is not None:
            raise ProtocolError(f"{what} is of no cards and carries a shuffle proof")
        return
    proof = required(deck, layer, what)
    if proof is None:
        return
    ctx, key = context(deck, seq, name), b64d(layer.key, 32)
    digest, seen = _remembered([ctx, proof, key, base, *before, *after])
    if seen:
        return
    try:
        shuffle.verify(ctx, before, after, proof, key=key, base=base)
    except (ShuffleProofError, FormatError) as exc:
        raise ProtocolError(f"{what} is not a shuffle of the deck it received: {exc.message}") from None
    _remember(digest)


def check_pairs(deck: ProvenDeck, seq: int, layer: PokerLayer, before: Sequence[tuple[bytes, bytes]],
                after: Sequence[tuple[bytes, bytes]], what: str, *, base: bytes, repair: int | None,
                classes: Sequence[str] | None, shuffled: bool) -> None:
    """Refuse a two-faced deck's pair `layer` unless its proof holds."""
    proof = required(deck, layer, what)
    if proof is None:
        return
    ctx, key = context(deck, seq, TWO_FACED), b64d(layer.key, 32)
    flat = [p for pair in [*before, *after] for p in pair]
    digest, seen = _remembered([ctx, proof, key, base, repr((repair, classes, shuffled)).encode(), *flat])
    if seen:
        return
    try:
        shuffle.verify_pairs(ctx, before, after, proof, key=key, base=base, repair=repair, classes=classes,
                             shuffle=shuffled)
    except (ShuffleProofError, FormatError) as exc:
        raise ProtocolError(f"{what} is not a pair layer of the deck it received: {exc.message}") from None
    _remember(digest)
