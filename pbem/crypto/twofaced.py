"""A two-faced mental-poker deck: cards whose two faces go to two readers.

Why it exists
-------------
The Codenames Duet key is one card per cell with two faces, one seen by each
player, and the faces are correlated (a fixed number of cells is agent on
both sides, agent on one and assassin on the other ...). The ordinary deck
of `pbem.crypto.poker` cannot deal that: it shuffles every point on its own,
so a cell's two faces would be unrelated, and a decrypted point names its
card *and its copy*, so any fixed pairing of copies would tell each reader
its partner's face.

How it works
------------
The deck is a list of *pairs* of points (face 0, face 1), always moved
together. Each face of each standard pair has its own card point (`face_table`:
the card's name is qualified by its face, the copy numbers follow a public
order of the pairs), so no two of the points are equal. A *pair layer*
(`pair_layer`) multiplies every point by a scalar, may *re-pair* one face
(permute that face's points among the pairs of one class: the pairs whose
face shows the same card) and may shuffle the pairs. Seat A (the reader of
face 0) and seat B (face 1) lay three layers, in this order:

1. A, scalar k1: re-pairs the face-1 points within their classes; face 0
   stays in place and the pairs are not shuffled (B must still know which
   public pair each position is, to re-pair in step 2). Without it the copy
   number B decrypts would name its pair, and so A's face.
2. B, scalar kb: re-pairs the face-0 points within their classes (the
   classes of step 1's output are still the public ones) and shuffles the
   pairs. Without the re-pairing A's copy numbers would name B's faces;
   without the shuffle A would know the class of B's face at each position.
3. A, scalar k2: shuffles the pairs. Without it B would know where every
   pair it laid went, and so A's whole side.

A's two layers come off only together, with the combined scalar
``k_a = k1·k2`` (its published key ``K_a = k_a·G``): a point with k2 alone
removed would be ``kb·k1·P``, which B could strip to ``k1·P``, a point it
saw in step 1's output, which names the pair. So k1 is derived from k_a
(`first_scalar`, a pseudo-random function: nobody without k_a can tell it
from a fresh scalar, and publishing k_a at the end lets the audit redo it),
and ``k2 = k_a·k1⁻¹`` (`second_scalar`). Every partial decryption by A then
uses k_a and A's published key unchanged (`poker.partial_decrypt`).

Honest limits
-------------
Like the ordinary shuffle layers, a pair layer is not proven when it is
made: a re-pairing across classes, a moved fixed face or a layer under
another scalar is found by `check_pair_layer` only at the audit, once the
scalars are published. During play a duplicated point is visible at once,
and a wrong scalar shows when a card decrypts to nothing.
`pbem.crypto.shuffle.prove_pairs` proves each of the three layers when it
is made; the protocol does not attach those proofs yet.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from nacl import bindings as _na

from pbem.crypto import poker
from pbem.crypto.encoding import canonical
from pbem.crypto.stream import derive
from pbem.errors import CryptoError

__all__ = [
    "Pair", "face_table", "flatten", "unflatten",
    "first_scalar", "second_scalar", "pair_layer", "check_pair_layer",
]

Pair = tuple[bytes, bytes]

_FIRST_LABEL = b"two-faced deck: first layer scalar"


def face_table(game_id: str, pairs: Sequence[tuple[str, str]], faces: tuple[str, str]) -> dict[bytes, tuple[str, int]]:
    """Point -> (card, copy) of every face of `pairs` (the standard pairs'
    cards, face 0 and face 1, in their public order). A face's point is the
    one of the card named by the JSON list ``[FACE, CARD]`` (`faces` names
    the two faces), so the two faces of one card name never share a point;
    copies are numbered per face and card in the order of `pairs`. The
    table's order is the deck's starting order, flattened: pair 0's face 0,
    pair 0's face 1, pair 1's face 0 ..."""
    table: dict[bytes, tuple[str, int]] = {}
    seen: Counter[tuple[int, str]] = Counter()
    for pair in pairs:
        for f in (0, 1):
            copy = seen[(f, pair[f])]
            seen[(f, pair[f])] += 1
            table[poker.card_point(game_id, canonical([faces[f], pair[f]]).decode(), copy)] = (pair[f], copy)
    return table


def flatten(pairs: Sequence[Pair]) -> list[bytes]:
    return [p for pair in pairs for p in pair]


def unflatten(points: Sequence[bytes]) -> list[Pair]:
    if len(points) % 2:
        raise CryptoError(f"a two-faced deck has an even number of points, not {len(points)}")
    return [(points[i], points[i + 1]) for i in range(0, len(points), 2)]


def first_scalar(k_a: bytes) -> bytes:
    """Seat A's scalar of its first layer, derived from its combined scalar."""
    k1 = _na.crypto_core_ed25519_scalar_reduce(derive(poker.check_scalar(k_a), _FIRST_LABEL, 64))
    return poker.check_scalar(k1, "the first layer's scalar")  # zero: probability 2**-252


def second_scalar(k_a: bytes, k1: bytes) -> bytes:
    """Seat A's scalar of its second layer: ``k_a·k1⁻¹``, so the two come off together as k_a."""
    inverse = _na.crypto_core_ed25519_scalar_invert(poker.check_scalar(k1))
    return poker.check_scalar(_na.crypto_core_ed25519_scalar_mul(poker.check_scalar(k_a), inverse))


def _permute(items: list[Any], draw: Callable[[int], int]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = draw(i + 1)
        if not isinstance(j, int) or not 0 <= j <= i:
            raise ValueError(f"rng({i + 1}) returned {j!r}, not an int in range({i + 1})")
        items[i], items[j] = items[j], items[i]


def pair_layer(k: bytes, pairs: Sequence[Pair], *, repair: int | None = None, classes: Sequence[str] | None = None,
               shuffle: bool = False, rng: poker.Rng | None = None) -> list[Pair]:
    """One pair layer: every point times `k`; then face `repair` (0 or 1,
    or None) permuted uniformly among the pairs of one class (`classes[i]`:
    the class of pair i's face `repair`); then, with `shuffle`, the pairs
    permuted uniformly. `rng` replaces `secrets.randbelow` in tests."""
    draw = rng or secrets.randbelow
    out = [[poker.encrypt(k, pair[0]), poker.encrypt(k, pair[1])] for pair in pairs]
    if repair is not None:
        if classes is None or len(classes) != len(out):
            raise ValueError("re-pairing needs the class of every pair")
        for cls in sorted(set(classes)):
            where = [i for i, c in enumerate(classes) if c == cls]
            faces = [out[i][repair] for i in where]
            _permute(faces, draw)
            for i, point in zip(where, faces):
                out[i][repair] = point
    result = [(a, b) for a, b in out]
    if shuffle:
        _permute(result, draw)
    return result


def check_pair_layer(k: bytes, before: Sequence[Pair], after: Sequence[Pair], *, repair: int | None = None,
                     classes: Sequence[str] | None = None, shuffle: bool = False) -> None:
    """Audit a pair layer made by `pair_layer` with the same arguments:
    every point of `after` is `k` times a point of the same face of
    `before`, each used once; the fixed face (the other one, or both when
    `repair` is None) keeps its pair, and stays in place unless `shuffle`;
    a re-paired face comes from a pair of the class of the pair its fixed
    face came from. CryptoError naming the first positions that break it."""
    k = poker.check_scalar(k)
    if len(after) != len(before):
        raise CryptoError(f"the pair layer has {len(after)} pairs, it received {len(before)}")
    if repair is not None and (classes is None or len(classes) != len(before)):
        raise ValueError("checking a re-pairing needs the class of every pair")
    source = [{poker.encrypt(k, pair[f]): i for i, pair in enumerate(before)} for f in (0, 1)]
    used: list[set[int]] = [set(), set()]
    fixed = 0 if repair == 1 else 1
    problems: list[str] = []
    for j, pair in enumerate(after):
        came = []
        for f in (0, 1):
            i = source[f].get(bytes(pair[f]))
            if i is None:
                problems.append(f"pair {j}'s face {f} is not the encryption of any face {f} it received (a substituted card)")
            elif i in used[f]:
                problems.append(f"pair {j}'s face {f} repeats another pair's (a duplicated card)")
            else:
                used[f].add(i)
            came.append(i)
        if came[0] is None or came[1] is None:
            continue
        placed = (came[0], came[1])
        anchor = placed[fixed]
        if not shuffle and anchor != j:
            problems.append(f"pair {j} moved (from {anchor}), in a layer that keeps the pairs in place")
        if repair is None and placed[0] != placed[1]:
            problems.append(f"pair {j} joins faces of pairs {placed[0]} and {placed[1]}, in a layer that re-pairs nothing")
        elif repair is not None and classes is not None and classes[placed[repair]] != classes[anchor]:
            problems.append(f"pair {j}'s face {repair} comes from a pair of class {classes[placed[repair]]}, "
                            f"not {classes[anchor]} (re-paired across classes)")
        if len(problems) >= 3:
            break
    if problems:
        raise CryptoError("bad pair layer: " + "; ".join(problems[:3]))
