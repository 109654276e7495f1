"""Proofs of the two-faced deck's pair layers (`pbem.crypto.twofaced`).

A pair layer (`twofaced.pair_layer`) multiplies every point of a deck of
pairs by one scalar k (key ``K = k·P``), may re-pair one face f among the
pairs of one class (a permutation of face f's points within each class,
the other face staying in its pair), and may shuffle the pairs. Each
statement is proven by composing the shuffle argument (`argument`), all
under the same key, so that they share the one scalar k:

* **nothing moves** (no re-pairing, no shuffle): one in-place proof over
  every point (`argument.prove_in_place`).
* **re-pair face f, in place** (the first layer of the deck): an in-place
  proof for the other face, plus the points of face f whose class has one
  pair; and for each class of two or more pairs, a shuffle proof of face
  f's points at that class's places (the pairs do not move, so the places
  of a class are public).
* **shuffle the pairs, re-pairing nothing** (the last layer): one shuffle
  proof of two columns, both faces under one permutation (Curdleproofs'
  own statement).
* **re-pair face f, then shuffle the pairs** (the middle layer): the
  places are hidden once the pairs move, so the proof publishes the deck
  between the two steps: V, the re-paired deck under a fresh scalar s
  (key ``K' = s·P``), proven like the first layer, then the pair shuffle
  of V into the layer under ``k/s`` with K' as its base, so that its key is
  ``(k/s)·K' = K``. V shows nothing more than any other layer: linking its
  points to the layer's or to the deck before it is a DDH problem.

Every part's context is the caller's with the part's name appended, so no
part can stand in for another. The verifier adds every part's equations to
one batch.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.crypto import poker, twofaced
from pbem.crypto.shuffle import argument
from pbem.crypto.shuffle.group import BASE, L, POINT_LEN, Checks, mul, statement_points
from pbem.crypto.shuffle.wire import Reader
from pbem.errors import CryptoError, ShuffleProofError

Pair = tuple[bytes, bytes]
WHAT = "the two-faced layer's proof"


def _part(context: bytes, name: str) -> bytes:
    return len(context).to_bytes(8, "big") + bytes(context) + name.encode("utf-8")


def _classes(n: int, repair: int | None, classes: Sequence[str] | None) -> tuple[list[int], list[tuple[str, list[int]]]]:
    """Face `repair`'s places that must stay (a class of one pair), and the
    places of each class of two or more pairs, by class name."""
    if repair is None:
        return [], []
    if repair not in (0, 1):
        raise ValueError("repair is 0, 1 or None")
    if classes is None or len(classes) != n:
        raise ValueError("re-pairing needs the class of every pair")
    places: dict[str, list[int]] = {}
    for i, cls in enumerate(classes):
        places.setdefault(str(cls), []).append(i)
    return ([i for cls in sorted(places) if len(places[cls]) == 1 for i in places[cls]],
            [(cls, places[cls]) for cls in sorted(places) if len(places[cls]) > 1])


def _repair_length(n: int, repair: int | None, classes: Sequence[str] | None) -> int:
    _, groups = _classes(n, repair, classes)
    return argument.IN_PLACE_LENGTH + sum(argument.proof_length(len(places)) for _, places in groups)


def pairs_proof_length(n: int, *, repair: int | None = None, classes: Sequence[str] | None = None,
                       shuffle: bool = False) -> int:
    """The exact length in bytes of the proof of a pair layer of `n` pairs."""
    if not shuffle:
        return _repair_length(n, repair, classes)
    if repair is None:
        return argument.proof_length(n, 2)
    return POINT_LEN * (1 + 2 * n) + _repair_length(n, repair, classes) + argument.proof_length(n, 2)


def _columns(pairs: Sequence[Pair]) -> list[list[bytes]]:
    return [[pair[0] for pair in pairs], [pair[1] for pair in pairs]]


def _fixed(pairs: Sequence[Pair], repair: int | None, singles: Sequence[int]) -> list[bytes]:
    """The points a re-pairing of face `repair` leaves in place."""
    if repair is None:
        return [p for pair in pairs for p in pair]
    return [pair[1 - repair] for pair in pairs] + [pairs[i][repair] for i in singles]


def _origin(k: int, points: Sequence[bytes], outputs: Sequence[bytes]) -> list[int]:
    """Where each output came from: ``outputs[i] = k·points[origin[i]]``."""
    where = {mul(k, p): i for i, p in enumerate(points)}
    origin = [where.get(p) for p in outputs]
    found = [i for i in origin if i is not None]
    if len(found) != len(origin):
        raise CryptoError("cannot prove a false statement: a point of the layer is no point it received times the scalar")
    return found


def _prove_repair(context: bytes, before: Sequence[Pair], after: Sequence[Pair], k: int, base: bytes,
                  repair: int | None, classes: Sequence[str] | None) -> bytes:
    singles, groups = _classes(len(before), repair, classes)
    fixed_in, fixed_out = _fixed(before, repair, singles), _fixed(after, repair, singles)
    argument.check_witness([fixed_in], [fixed_out], list(range(len(fixed_in))), k)
    proof = argument.prove_in_place(_part(context, "fixed faces"), fixed_in, fixed_out, k, base)
    if repair is None:  # nothing re-paired: no classes to prove
        return proof
    for cls, places in groups:
        X, Y = [before[i][repair] for i in places], [after[i][repair] for i in places]
        sigma = _origin(k, X, Y)
        argument.check_witness([X], [Y], sigma, k)
        proof += argument.prove(_part(context, f"class {repair} {cls}"), [X], [Y], sigma, k, base)
    return proof


def _verify_repair(checks: Checks, reader: Reader, context: bytes, before: Sequence[Pair], after: Sequence[Pair],
                   key: bytes, base: bytes, repair: int | None, classes: Sequence[str] | None) -> None:
    singles, groups = _classes(len(before), repair, classes)
    reader.prefix = "the faces that stay: "
    argument.verify_in_place(checks.scoped(reader.prefix), _part(context, "fixed faces"), _fixed(before, repair, singles),
                             _fixed(after, repair, singles), reader, key, base)
    if repair is None:  # nothing re-paired: no classes to check
        return
    for cls, places in groups:
        reader.prefix = f"class {cls!r} of face {repair}: "
        argument.verify(checks.scoped(reader.prefix), _part(context, f"class {repair} {cls}"),
                        [[before[i][repair] for i in places]], [[after[i][repair] for i in places]], reader, key, base)


def prove_pairs(context: bytes, before: Sequence[Pair], after: Sequence[Pair], scalar: bytes, *, base: bytes = BASE,
                repair: int | None = None, classes: Sequence[str] | None = None, shuffle: bool = False) -> bytes:
    """Prove the pair layer `after` of `before` made by
    ``twofaced.pair_layer(scalar, before, repair=..., classes=...,
    shuffle=...)``, under the key ``scalar·base``. The re-pairing and the
    shuffle are read off the points (the prover knows the scalar).
    CryptoError if `after` is not such a layer."""
    k = int.from_bytes(poker.check_scalar(scalar), "little")
    before, after = _pairs(before, "before", CryptoError), _pairs(after, "after", CryptoError)
    base = statement_points([base], "the base", CryptoError)[0]
    if len(before) != len(after) or not before:
        raise CryptoError(f"cannot prove a pair layer of {len(before)} pairs into {len(after)}")
    if not shuffle:
        return _prove_repair(context, before, after, k, base, repair, classes)
    if repair is None:
        X, Y = _columns(before), _columns(after)
        sigma = _origin(k, X[0], Y[0])
        argument.check_witness(X, Y, sigma, k)
        return argument.prove(_part(context, "pairs"), X, Y, sigma, k, base)
    # re-pair face `repair` then shuffle the pairs: the shuffle's order is
    # the other face's, and the re-pairing is then where face `repair` came from
    order = _origin(k, [pair[1 - repair] for pair in before], [pair[1 - repair] for pair in after])
    came = _origin(k, [pair[repair] for pair in before], [pair[repair] for pair in after])
    tau = [0] * len(before)
    for j, i in enumerate(order):
        tau[i] = came[j]
    s = int.from_bytes(poker.new_scalar(), "little")
    between: list[Pair] = []
    for i, pair in enumerate(before):
        faces = [mul(s, pair[0]), mul(s, pair[1])]
        faces[repair] = mul(s, before[tau[i]][repair])
        between.append((faces[0], faces[1]))
    middle_key = mul(s, base)
    second = k * pow(s, -1, L) % L
    X, Y = _columns(between), _columns(after)
    argument.check_witness(X, Y, order, second)
    return (middle_key + b"".join(p for pair in between for p in pair)
            + _prove_repair(_part(context, "re-pairing"), before, between, s, base, repair, classes)
            + argument.prove(_part(context, "pairs"), X, Y, order, second, middle_key))


def verify_pairs(context: bytes, before: Sequence[Pair], after: Sequence[Pair], proof: bytes, *, key: bytes,
                 base: bytes = BASE, repair: int | None = None, classes: Sequence[str] | None = None,
                 shuffle: bool = False) -> None:
    """Check a `prove_pairs` proof: ShuffleProofError, naming what failed,
    unless `after` is a pair layer of `before` as described by `repair`,
    `classes` and `shuffle`, under the one scalar of `key` (``key =
    k·base``), proven for this `context`."""
    before, after = _pairs(before, "input"), _pairs(after, "output")
    key = statement_points([key], "the key")[0]
    base = statement_points([base], "the base")[0]
    if not before or len(after) != len(before):
        raise ShuffleProofError(f"{WHAT}: the layer has {len(after)} pairs, it received {len(before)}")
    n = len(before)
    try:
        expected = pairs_proof_length(n, repair=repair, classes=classes, shuffle=shuffle)
    except ValueError as exc:
        raise ShuffleProofError(f"{WHAT}: {exc}") from None
    reader = Reader(proof, expected, WHAT)
    checks = Checks()
    if not shuffle:
        _verify_repair(checks, reader, context, before, after, key, base, repair, classes)
    elif repair is None:
        argument.verify(checks, _part(context, "pairs"), _columns(before), _columns(after), reader, key, base)
    else:
        reader.prefix = "the deck between its two steps: "
        middle_key = statement_points([reader.point("its key")], "the middle key")[0]
        between = _pairs(twofaced.unflatten(reader.points("point", 2 * n)), "the middle deck's pair")
        _verify_repair(checks, reader, _part(context, "re-pairing"), before, between, middle_key, base, repair, classes)
        reader.prefix = "the pair shuffle: "
        argument.verify(checks.scoped(reader.prefix), _part(context, "pairs"), _columns(between), _columns(after), reader,
                        key, middle_key)
    reader.end()
    checks.verify(WHAT)


def _pairs(pairs: Sequence[Pair], what: str, error: type[Exception] = ShuffleProofError) -> list[Pair]:
    out = []
    for i, pair in enumerate(pairs):
        if len(pair) != 2:
            raise error(f"{what} {i} is not a pair")
        a, b = statement_points(pair, f"{what} {i}, face", error)
        out.append((a, b))
    return out
