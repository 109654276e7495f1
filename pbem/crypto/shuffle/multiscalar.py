"""The same-multiscalar argument (Curdleproofs, section 4).

Relation: for public bases G, public vectors of points T_1 .. T_m and
public A, Z_1 .. Z_m, the prover knows one vector x with ``A = x×G`` and
``Z_j = x×T_j`` for every j. Curdleproofs proves it for m = 2 (the two
halves of a Whisk tracker); the argument is the same for any m, and pbem
uses m = 1 (a deck of single cards) and m = 2 (the pairs of the two-faced
deck).

Step 1 blinds x with a random r (``B_A = r×G``, ``B_j = r×T_j``); after a
challenge α the witness is ``r + α·x``. Step 2 halves x, G and every T_j
log2(n) times, like an inner product argument without the inner product:
each round sends ``L_A, L_1 .. L_m, R_A, R_1 .. R_m`` and folds with a
challenge γ (``x' = x_lo + γ^-1·x_hi``, bases ``lo + γ·hi``); the last
scalar is sent, and the verifier checks each relation against ``s×G`` and
``s×T_j`` (`inner_product.fold_coefficients`). The identity stands for the
empty entries of a T_j (the blinders' places).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.crypto.shuffle.group import L, Checks, Lin, Nonces, add, inverse, msm, mul
from pbem.crypto.shuffle.inner_product import fold_coefficients, rounds
from pbem.crypto.shuffle.transcript import Transcript
from pbem.crypto.shuffle.wire import Reader, Writer


def prove(t: Transcript, w: Writer, nonces: Nonces, G: Sequence[bytes], T: Sequence[Sequence[bytes]],
          x: Sequence[int]) -> None:
    """Append the argument for ``A = x×G`` and every ``Z_j = x×T[j]``."""
    r = nonces.scalars(len(x))
    blinders = [w.point(msm(r, G))] + [w.point(msm(r, column)) for column in T]
    t.absorb_points(b"same msm blinders", blinders)
    alpha = t.challenge(b"same msm alpha")
    x = [(a + alpha * b) % L for a, b in zip(r, x)]
    G, T = list(G), [list(column) for column in T]
    n = len(x)
    while n > 1:
        n //= 2
        x_lo, x_hi = x[:n], x[n:]
        lefts = [msm(x_lo, G[n:])] + [msm(x_lo, column[n:]) for column in T]
        rights = [msm(x_hi, G[:n])] + [msm(x_hi, column[:n]) for column in T]
        for p in lefts + rights:
            w.point(p)
        t.absorb_points(b"same msm round", lefts + rights)
        gamma = t.challenge(b"same msm gamma")
        gamma_inv = inverse(gamma)
        x = [(a + gamma_inv * b) % L for a, b in zip(x_lo, x_hi)]
        if n > 1:
            G = [add(a, mul(gamma, b)) for a, b in zip(G[:n], G[n:])]
            T = [[add(a, mul(gamma, b)) for a, b in zip(column[:n], column[n:])] for column in T]
    w.scalar(x[0])


def verify(t: Transcript, r: Reader, checks: Checks, G: Sequence[bytes], T: Sequence[Sequence[bytes]],
           A: Lin, Z: Sequence[Lin]) -> None:
    """Read the argument from `r` and add its 1 + m equations to `checks`."""
    m = len(T)
    names = ["A"] + [f"column {j}" for j in range(m)]
    blinders = [r.point(f"same-multiscalar blinder {name}") for name in names]
    t.absorb_points(b"same msm blinders", blinders)
    alpha = t.challenge(b"same msm alpha")
    sides = [Lin().add(b, 1).plus(target, alpha) for b, target in zip(blinders, [A, *Z])]
    gammas = []
    for i in range(rounds(len(G))):
        lefts = [r.point(f"same-multiscalar round {i} L {name}") for name in names]
        rights = [r.point(f"same-multiscalar round {i} R {name}") for name in names]
        t.absorb_points(b"same msm round", lefts + rights)
        gamma = t.challenge(b"same msm gamma")
        gamma_inv = inverse(gamma)
        gammas.append(gamma)
        for side, left, right in zip(sides, lefts, rights):
            side.add(left, gamma).add(right, gamma_inv)
    x_final = r.scalar("same-multiscalar final x")
    coefficients = [-x_final * s % L for s in fold_coefficients(gammas)]
    for side, bases, name in zip(sides, [G, *T], names):
        side.add_all(bases, coefficients)
        checks.add(f"the same-multiscalar argument ({name})", side)
