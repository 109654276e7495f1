"""The shuffle argument (Curdleproofs, section 2, with the changes that the
package docstring lists) and the in-place layer's argument.

Statement, for m columns of ℓ points each (m = 1: a deck; m = 2: a deck of
pairs, every pair moved as one): public inputs X_j, outputs Y_j, a base P
and a key K; the prover knows a permutation σ and a scalar k with
``Y_j[i] = k·X_j[σ(i)]`` for every i and j, and ``K = k·P``.

1. The prover commits to σ in M (blinded); the transcript then gives the
   vector a, and A commits to σ(a) (blinded).
2. The same-permutation argument (`permutation`) shows that A and M commit
   to σ(a) and σ(0, ..., ℓ-1) for one permutation σ.
3. With ``R_j = a×X_j`` (computed by the verifier), the prover commits to
   ``k·R_j`` as ``(r_j·G_T_j, k·R_j + r_j·H)`` and proves, in the same-scalar
   argument, that every such commitment and the key K share the scalar k
   (Curdleproofs' same-scalar argument with one more equation, ``E + α·K =
   z_k·P``, which binds k to the published key).
4. The same-multiscalar argument (`multiscalar`) shows that the commitments
   hold ``σ(a)×Y_j``: with the blinders moved into the vector (bases ``g ||
   h_.. || G_T``, points ``Y_j || identities || H in column j's place``), one
   vector x opens ``A + Σ r_j·G_T_j`` and every ``k·R_j + r_j·H``.

So ``σ(a)×Y_j = k·(a×X_j)`` for a random a chosen after σ and Y were fixed:
every ``Y_j[i] - k·X_j[σ(i)]`` is the identity, except with probability
about ℓ/L. The bases g (ℓ of them) and h (the other N - ℓ, at least 4) are
the first N `group.generators`, N the smallest power of two with room for
four blinders, as in Curdleproofs (whose ℓ + 4 is a power of two).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.crypto.encoding import FORMAT
from pbem.crypto.shuffle import inner_product, multiscalar, permutation
from pbem.crypto.shuffle.group import (
    BASE, G_T, H_POINT, IDENTITY, L, POINT_LEN, SCALAR_LEN, Checks, Nonces, add, generators, msm, mul, point_lin,
)
from pbem.crypto.shuffle.transcript import Transcript
from pbem.crypto.shuffle.wire import Reader, Writer
from pbem.errors import CryptoError

SHUFFLE_DOMAIN = FORMAT.encode("ascii") + b" shuffle proof\n"
IN_PLACE_DOMAIN = FORMAT.encode("ascii") + b" in-place layer proof\n"
BLINDERS = 4
IN_PLACE_LENGTH = 2 * POINT_LEN + SCALAR_LEN


def sizes(ell: int) -> tuple[int, int]:
    """(N, number of blinder bases): N is a power of two >= ℓ + 4."""
    n = 1
    while n < ell + BLINDERS:
        n *= 2
    return n, n - ell


def proof_length(ell: int, columns: int = 1) -> int:
    """The exact length in bytes of a shuffle proof of ℓ rows of `columns` points."""
    k, m = inner_product.rounds(sizes(ell)[0]), columns
    points = (2  # M, A
              + 1 + 2 + 4 * k  # the grand product's C; the inner product's B_c, B_d and rounds
              + 2 * m  # the commitments to k·R
              + 2 * m + 1  # the same-scalar argument's commitments and E
              + (1 + m) + 2 * (1 + m) * k)  # the same-multiscalar argument's blinders and rounds
    scalars = 1 + 2 + (1 + m) + 1  # r_p; the inner product's last c, d; z_k and the z_j; the last x
    return points * POINT_LEN + scalars * SCALAR_LEN


def _statement(t: Transcript, context: bytes, base: bytes, key: bytes, X: Sequence[Sequence[bytes]],
               Y: Sequence[Sequence[bytes]]) -> None:
    t.absorb(b"context", context)
    t.absorb_int(b"rows", len(X[0]))
    t.absorb_int(b"columns", len(X))
    t.absorb(b"base", base)
    t.absorb(b"key", key)
    for j, column in enumerate(X):
        t.absorb_points(b"inputs %d" % j, column)
    for j, column in enumerate(Y):
        t.absorb_points(b"outputs %d" % j, column)


def _nonces(k: int, context: bytes, X: Sequence[Sequence[bytes]], Y: Sequence[Sequence[bytes]]) -> Nonces:
    return Nonces(k, context + b"".join(p for column in (*X, *Y) for p in column))


def _msm_bases(g: list[bytes], h: list[bytes], m: int) -> tuple[list[bytes], list[list[bytes]], int]:
    """The same-multiscalar argument's bases (g, the blinder bases that A
    uses, then the G_T in place of the last m), what follows each output
    column (identities, then H in that column's place), and how many
    blinder bases A uses."""
    free = len(h) - m
    tails = [[IDENTITY] * free + [H_POINT if i == j else IDENTITY for i in range(m)] for j in range(m)]
    return g + h[:free] + list(G_T[:m]), tails, free


def prove(context: bytes, X: Sequence[Sequence[bytes]], Y: Sequence[Sequence[bytes]], sigma: Sequence[int], k: int,
          base: bytes = BASE, key: bytes | None = None) -> bytes:
    """The proof, for a statement the caller has checked (see `shuffle.prove`);
    `key` is ``k·base`` (another key only makes a proof that fails: tests
    forge with it)."""
    ell, m = len(X[0]), len(X)
    N, blinders = sizes(ell)
    gens = generators(N)
    g, h = gens[:ell], gens[ell:]
    key = mul(k, base) if key is None else key
    t = Transcript(SHUFFLE_DOMAIN)
    _statement(t, context, base, key, X, Y)
    nonces = _nonces(k, context, X, Y)
    w = Writer()
    r_M = nonces.scalars(blinders)
    M = w.point(add(msm(sigma, g), msm(r_M, h)))
    t.absorb(b"M", M)
    a = t.challenges(b"a", ell)
    a_sigma = _permuted(a, sigma)
    msm_bases, tails, free = _msm_bases(g, h, m)
    r_a = nonces.scalars(free)
    A = w.point(add(msm(a_sigma, g), msm(r_a, h[:free])))
    t.absorb(b"A", A)
    permutation.prove(t, w, nonces, g, h, H_POINT, a, sigma, r_a + [0] * m, r_M)
    R = [msm(a, column) for column in X]
    r_T = nonces.scalars(m)
    committed = [(w.point(mul(r, G_T[j])), w.point(add(mul(k, R[j]), mul(r, H_POINT)))) for j, r in enumerate(r_T)]
    t.absorb_points(b"committed k.R", [p for pair in committed for p in pair])
    _prove_same_scalar(t, w, nonces, R, k, r_T, base)
    multiscalar.prove(t, w, nonces, msm_bases, [list(column) + tail for column, tail in zip(Y, tails)],
                      a_sigma + r_a + r_T)
    return w.bytes()


def _permuted(a: Sequence[int], sigma: Sequence[int]) -> list[int]:
    """σ(a), the vector A commits to (a cheater's prover commits to another)."""
    return [a[s] for s in sigma]


def _prove_same_scalar(t: Transcript, w: Writer, nonces: Nonces, R: Sequence[bytes], k: int, r_T: Sequence[int],
                       base: bytes) -> None:
    r_k = nonces.scalar()
    r_A = nonces.scalars(len(R))
    points = [w.point(p) for j, r in enumerate(r_A) for p in (mul(r, G_T[j]), add(mul(r_k, R[j]), mul(r, H_POINT)))]
    points.append(w.point(mul(r_k, base)))
    t.absorb_points(b"same scalar commitments", points)
    alpha = t.challenge(b"same scalar alpha")
    w.scalar((r_k + alpha * k) % L)
    for r, r_t in zip(r_A, r_T):
        w.scalar((r + alpha * r_t) % L)


def verify(checks: Checks, context: bytes, X: Sequence[Sequence[bytes]], Y: Sequence[Sequence[bytes]], reader: Reader,
           key: bytes, base: bytes) -> None:
    """Read a `prove` proof and add its equations to `checks`."""
    ell, m = len(X[0]), len(X)
    gens = generators(sizes(ell)[0])
    g, h = gens[:ell], gens[ell:]
    t = Transcript(SHUFFLE_DOMAIN)
    _statement(t, context, base, key, X, Y)
    M = reader.point("M")
    t.absorb(b"M", M)
    a = t.challenges(b"a", ell)
    A = reader.point("A")
    t.absorb(b"A", A)
    permutation.verify(t, reader, checks, g, h, H_POINT, A, M, a)
    committed = [(reader.point(f"commitment {j} (G_T part)"), reader.point(f"commitment {j} (H part)"))
                 for j in range(m)]
    t.absorb_points(b"committed k.R", [p for pair in committed for p in pair])
    _verify_same_scalar(t, reader, checks, X, a, committed, key, base)
    msm_bases, tails, _ = _msm_bases(g, h, m)
    A_all = point_lin(A)
    for first, _ in committed:
        A_all.add(first, 1)
    multiscalar.verify(t, reader, checks, msm_bases, [list(column) + tail for column, tail in zip(Y, tails)], A_all,
                       [point_lin(second) for _, second in committed])


def _verify_same_scalar(t: Transcript, r: Reader, checks: Checks, X: Sequence[Sequence[bytes]], a: Sequence[int],
                        committed: Sequence[tuple[bytes, bytes]], key: bytes,
                        base: bytes) -> None:
    blinded = [(r.point(f"same-scalar blinder {j} (G_T part)"), r.point(f"same-scalar blinder {j} (H part)"))
               for j in range(len(X))]
    E = r.point("same-scalar blinder of the key")
    t.absorb_points(b"same scalar commitments", [p for pair in blinded for p in pair] + [E])
    alpha = t.challenge(b"same scalar alpha")
    z_k = r.scalar("same-scalar response k")
    for j, (column, (c1, c2), (b1, b2)) in enumerate(zip(X, committed, blinded)):
        z = r.scalar(f"same-scalar response {j}")
        checks.add(f"the same-scalar argument (column {j}, G_T part)",
                   point_lin(b1).add(c1, alpha).add(G_T[j], -z))
        checks.add(f"the same-scalar argument (column {j})",
                   point_lin(b2).add(c2, alpha).add(H_POINT, -z).add_all(column, [-z_k * x % L for x in a]))
    checks.add("the key's equation (the layer's scalar is not its key's)", point_lin(E).add(key, alpha).add(base, -z_k))


# --- a layer that moves nothing ------------------------------------------------------


def prove_in_place(context: bytes, X: Sequence[bytes], Y: Sequence[bytes], k: int, base: bytes = BASE) -> bytes:
    """Proof that ``Y[i] = k·X[i]`` for every i and ``K = k·base``: one
    Chaum-Pedersen proof on random combinations ``Σρ_i·X_i``, ``Σρ_i·Y_i``,
    the ρ drawn from the transcript after the statement (batch
    verification of DLEQ statements). 96 bytes: E1, E2, z."""
    key = mul(k, base)
    t = Transcript(IN_PLACE_DOMAIN)
    _statement(t, context, base, key, [X], [Y])
    rho = t.challenges(b"rho", len(X))
    r = _nonces(k, context, [X], [Y]).scalar()
    w = Writer()
    t.absorb_points(b"commitments", [w.point(mul(r, base)), w.point(mul(r, msm(rho, X)))])
    c = t.challenge(b"c")
    w.scalar((r + c * k) % L)
    return w.bytes()


def verify_in_place(checks: Checks, context: bytes, X: Sequence[bytes], Y: Sequence[bytes], reader: Reader, key: bytes,
                    base: bytes) -> None:
    t = Transcript(IN_PLACE_DOMAIN)
    _statement(t, context, base, key, [X], [Y])
    rho = t.challenges(b"rho", len(X))
    E1, E2 = reader.point("E1"), reader.point("E2")
    t.absorb_points(b"commitments", [E1, E2])
    c = t.challenge(b"c")
    z = reader.scalar("z")
    checks.add("the key's equation", point_lin(E1).add(key, c).add(base, -z))
    checks.add("the points' equation", point_lin(E2).add_all(Y, [c * x % L for x in rho])
               .add_all(X, [-z * x % L for x in rho]))


def check_witness(X: Sequence[Sequence[bytes]], Y: Sequence[Sequence[bytes]], sigma: Sequence[int], k: int) -> None:
    """CryptoError unless ``Y_j[i] = k·X_j[σ(i)]``: a prover never proves a false statement."""
    if sorted(sigma) != list(range(len(X[0]))):
        raise CryptoError("cannot prove a shuffle: the permutation is not a permutation of the inputs")
    for column_x, column_y in zip(X, Y):
        if any(mul(k, column_x[s]) != y for s, y in zip(sigma, column_y)):
            raise CryptoError("cannot prove a false statement: the outputs are not the permuted inputs times the scalar")

