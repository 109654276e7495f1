"""Scalars, points, generators and batched checks for the shuffle proofs.

Points are 32-byte encodings of elements of the prime-order subgroup of
edwards25519, and every operation on them (addition, scalar multiplication,
the map from bytes to the group) is libsodium's, through PyNaCl's bindings,
as in `pbem.crypto.poker` (every function needed is wrapped by
`nacl.bindings`, so nothing reaches into `nacl._sodium`). Scalars are
Python ints modulo the group order L: arithmetic modulo a prime is not a
group implementation, and libsodium's own scalar functions would cost a C
call for each of the thousands of products a prover makes. The prover's secrets pass through that integer
arithmetic: it is not constant-time, which matters only to an attacker who
times the prover's own machine while it proves.

libsodium has no multi-scalar multiplication, so a sum ``s1·P1 + ... +
sn·Pn`` costs n scalar multiplications (each also checks that its point is
in the subgroup) and n additions. The verifiers therefore gather every
equation of a proof as a linear combination of points (`Lin`) that must be
the identity, weight each with a fresh 128-bit random scalar and add them up
(`Checks`): one sum over the distinct points instead of one per equation, the
standard batching of Bulletproofs and Curdleproofs (a false equation passes
with probability 2**-128).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence

from nacl import bindings as _na
from nacl import exceptions as _nacl_exc

from pbem.crypto.encoding import FORMAT
from pbem.errors import CryptoError, ShuffleProofError

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup of edwards25519."""

POINT_LEN = SCALAR_LEN = 32
IDENTITY = b"\x01" + bytes(31)
BASE: bytes = _na.crypto_scalarmult_ed25519_base_noclamp(b"\x01" + bytes(31))

_GENERATOR_LABEL = FORMAT.encode("ascii") + b" shuffle proof generator\n"


def mul(s: int, point: bytes) -> bytes:
    """``s·point`` for a point already known to be in the subgroup."""
    s %= L
    if s == 0 or point == IDENTITY:
        return IDENTITY
    try:
        if point == BASE:
            return _na.crypto_scalarmult_ed25519_base_noclamp(s.to_bytes(32, "little"))
        return _na.crypto_scalarmult_ed25519_noclamp(s.to_bytes(32, "little"), point)
    except _nacl_exc.RuntimeError:  # pragma: no cover - a non-zero multiple of a subgroup point
        raise CryptoError("scalar multiplication failed") from None


def add(p: bytes, q: bytes) -> bytes:
    if p == IDENTITY:
        return q
    if q == IDENTITY:
        return p
    return _na.crypto_core_ed25519_add(p, q)


def msm(scalars: Iterable[int], points: Iterable[bytes]) -> bytes:
    """``sum(s·P)``, one libsodium multiplication per term."""
    total = IDENTITY
    for s, p in zip(scalars, points, strict=True):
        total = add(total, mul(s, p))
    return total


def inner(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(a * b for a, b in zip(u, v, strict=True)) % L


def inverse(x: int) -> int:
    x %= L
    if x == 0:  # a challenge of zero: probability 2**-252
        raise ShuffleProofError("a shuffle proof hit a zero challenge")
    return pow(x, -1, L)


def is_valid_point(point: bytes) -> bool:
    """In the prime-order subgroup, canonically encoded: libsodium's check
    (which refuses points of small or mixed order, the identity included),
    or exactly the identity's canonical encoding."""
    return point == IDENTITY or bool(_na.crypto_core_ed25519_is_valid_point(point))


def statement_points(points: Sequence[bytes], what: str, error: type[Exception] = ShuffleProofError) -> list[bytes]:
    """The points of a statement, each checked to be a point of the
    prime-order subgroup other than the identity (a layer of the identity
    would be a layer under the scalar 0, which no key allows); `error`
    names the first that is not."""
    out = []
    for i, p in enumerate(points):
        if not isinstance(p, (bytes, bytearray)) or len(p) != POINT_LEN or bytes(p) == IDENTITY \
                or not is_valid_point(bytes(p)):
            raise error(f"{what} {i} is not a valid point")
        out.append(bytes(p))
    return out


# --- generators -----------------------------------------------------------------

_GENERATORS: list[bytes] = []


def _generator(label: bytes, index: int) -> bytes:
    seed = hashlib.blake2b(_GENERATOR_LABEL + label + b"\n" + index.to_bytes(4, "big"), digest_size=32).digest()
    point = _na.crypto_core_ed25519_from_uniform(seed)
    if not _na.crypto_core_ed25519_is_valid_point(point):  # pragma: no cover - probability 2**-250
        raise CryptoError(f"shuffle proof generator {label!r} {index} is not usable")
    return point


def generators(count: int) -> list[bytes]:
    """The first `count` vector generators (the Pedersen bases g and h).

    Transparent: libsodium's hash to the group (``from_uniform``, Elligator 2
    then the cofactor cleared) of a BLAKE2b hash of a public label and the
    index, so anyone recomputes them and nobody knows a discrete-log relation
    between them, or between them and the card points (hashed under another
    label). Computed once per process.
    """
    while len(_GENERATORS) < count:
        _GENERATORS.append(_generator(b"vector", len(_GENERATORS)))
    return _GENERATORS[:count]


H_POINT = _generator(b"H", 0)
"""The base that carries a committed group element and an inner product."""
G_T = (_generator(b"G_T", 0), _generator(b"G_T", 1))
"""The bases of the commitments to ``k·R``, one per column (Curdleproofs' G_T, G_U)."""


# --- prover randomness ----------------------------------------------------------


class Nonces:
    """The prover's random scalars: BLAKE2b keyed with fresh random bytes,
    the secret scalar and the statement, in counter mode. Like the nonces of
    `pbem.crypto.poker`, they stay secret and distinct even if the system's
    random generator fails (repeats or is predictable), as long as the
    scalar is secret."""

    def __init__(self, secret: int, statement: bytes) -> None:
        key = hashlib.blake2b(os.urandom(32) + secret.to_bytes(32, "little") + statement).digest()
        self._key, self._count = key, 0

    def scalar(self) -> int:
        self._count += 1
        return int.from_bytes(hashlib.blake2b(self._count.to_bytes(8, "big"), key=self._key).digest(), "little") % L

    def scalars(self, n: int) -> list[int]:
        return [self.scalar() for _ in range(n)]


# --- batched verification -------------------------------------------------------


class Lin:
    """A linear combination of points, kept symbolic: point -> coefficient."""

    __slots__ = ("terms",)

    def __init__(self, terms: dict[bytes, int] | None = None) -> None:
        self.terms: dict[bytes, int] = dict(terms or {})

    def add(self, point: bytes, coefficient: int) -> "Lin":
        if point != IDENTITY:
            self.terms[point] = (self.terms.get(point, 0) + coefficient) % L
        return self

    def add_all(self, points: Sequence[bytes], coefficients: Sequence[int]) -> "Lin":
        for p, c in zip(points, coefficients, strict=True):
            self.add(p, c)
        return self

    def plus(self, other: "Lin", factor: int = 1) -> "Lin":
        """A new combination: self + factor·other."""
        out = Lin(self.terms)
        for p, c in other.terms.items():
            out.add(p, c * factor)
        return out

    def value(self) -> bytes:
        return msm(self.terms.values(), self.terms.keys())


def point_lin(point: bytes, coefficient: int = 1) -> Lin:
    return Lin().add(point, coefficient)


class Checks:
    """Equations ``combination == identity`` gathered from a proof's parts,
    verified together (`verify`); each is named, so that a failure names
    the first part that does not hold. `scoped` gives a view that adds to
    the same list under a prefix (one proof among several)."""

    def __init__(self, prefix: str = "", shared: list[tuple[str, Lin]] | None = None) -> None:
        self._prefix = prefix
        self._checks: list[tuple[str, Lin]] = [] if shared is None else shared

    def scoped(self, prefix: str) -> "Checks":
        return Checks(self._prefix + prefix, self._checks)

    def add(self, name: str, combination: Lin) -> None:
        self._checks.append((self._prefix + name, combination))

    def verify(self, what: str) -> None:
        total = Lin()
        for _, combination in self._checks:
            weight = int.from_bytes(os.urandom(16), "little") | 1
            for p, c in combination.terms.items():
                total.add(p, c * weight)
        if total.value() == IDENTITY:
            return
        failed = next((name for name, combination in self._checks if combination.value() != IDENTITY), "a check")
        raise ShuffleProofError(f"{what} does not verify: it proves no shuffle of these points under this key, "
                                f"in this context (first failing equation: {failed})")
