"""The zero-knowledge discrete-log inner product argument (Curdleproofs,
section 5.3, "Discrete Logarithm Inner Product Argument"; after Bootle,
Cerulli, Chaidos, Groth and Petit, EUROCRYPT 2016).

Relation: for public bases G, G' = u∘G (each G'_i = u_i·G_i), H and public
C, D, z, the prover knows vectors c, d with ``C = c×G``, ``D = d×G'`` and
``<c, d> = z``.

Step 1 blinds the witness: random r_c, r_d with ``<r_c, d> + <r_d, c> = 0``
and ``<r_c, r_d> = 0`` (two entries of r_d solve a 2x2 linear system),
``B_c = r_c×G``, ``B_d = r_d×G'``; after challenges α, β the witness is
``r_c + α·c``, ``r_d + α·d``, whose inner product is ``α²·z``, embedded in
C through ``β·H``. Step 2 halves the vectors log2(n) times: in each round
the prover sends ``L_C, L_D, R_C, R_D`` and folds with a challenge γ; at the
end it sends the two remaining scalars. The verifier never folds bases: the
final base is ``s×G`` with ``s_i`` the product of the γ of the rounds whose
bit is set in i (Curdleproofs' "IPA verification scalars"), so the two
final equations go into the batch (`group.Checks`) as sums over G.

As in Curdleproofs, z and D are not absorbed in the transcript: the caller
derives them from what the transcript already holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.crypto.shuffle.group import L, Checks, Lin, Nonces, add, inner, inverse, msm, mul
from pbem.crypto.shuffle.transcript import Transcript
from pbem.crypto.shuffle.wire import Reader, Writer


def rounds(n: int) -> int:
    return n.bit_length() - 1


def _blinders(nonces: Nonces, c: Sequence[int], d: Sequence[int]) -> tuple[list[int], list[int]]:
    """r_c, r_d with <r_c, d> + <r_d, c> = 0 and <r_c, r_d> = 0: all random
    but the last two of r_d, which solve the two equations (Cramer's rule)."""
    n = len(c)
    while True:
        r_c = nonces.scalars(n)
        r_d = nonces.scalars(n - 2)
        omega = (inner(r_c, d) + inner(r_d, c[:n - 2])) % L
        delta = inner(r_c[:n - 2], r_d)
        det = (c[n - 2] * r_c[n - 1] - c[n - 1] * r_c[n - 2]) % L
        if det:
            inv = pow(det, -1, L)
            r_d.append((-omega * r_c[n - 1] + delta * c[n - 1]) * inv % L)
            r_d.append((-delta * c[n - 2] + omega * r_c[n - 2]) * inv % L)
            return r_c, r_d


def prove(t: Transcript, w: Writer, nonces: Nonces, G: Sequence[bytes], G2: Sequence[bytes], H: bytes,
          c: Sequence[int], d: Sequence[int]) -> None:
    """Append the argument for ``C = c×G, D = d×G2, z = <c, d>`` to `w`."""
    r_c, r_d = _blinders(nonces, c, d)
    blinders = [w.point(msm(r_c, G)), w.point(msm(r_d, G2))]
    t.absorb_points(b"ipa blinders", blinders)
    alpha, beta = t.challenge(b"ipa alpha"), t.challenge(b"ipa beta")
    c = [(x + alpha * y) % L for x, y in zip(r_c, c)]
    d = [(x + alpha * y) % L for x, y in zip(r_d, d)]
    h = mul(beta, H)
    G, G2 = list(G), list(G2)
    n = len(c)
    while n > 1:
        n //= 2
        c_lo, c_hi, d_lo, d_hi = c[:n], c[n:], d[:n], d[n:]
        round_points = [
            add(msm(c_lo, G[n:]), mul(inner(c_lo, d_hi), h)),  # L_C
            msm(d_hi, G2[:n]),  # L_D
            add(msm(c_hi, G[:n]), mul(inner(c_hi, d_lo), h)),  # R_C
            msm(d_lo, G2[n:]),  # R_D
        ]
        for p in round_points:
            w.point(p)
        t.absorb_points(b"ipa round", round_points)
        gamma = t.challenge(b"ipa gamma")
        gamma_inv = inverse(gamma)
        c = [(x + gamma_inv * y) % L for x, y in zip(c_lo, c_hi)]
        d = [(x + gamma * y) % L for x, y in zip(d_lo, d_hi)]
        if n > 1:
            G = [add(x, mul(gamma, y)) for x, y in zip(G[:n], G[n:])]
            G2 = [add(x, mul(gamma_inv, y)) for x, y in zip(G2[:n], G2[n:])]
    w.scalar(c[0])
    w.scalar(d[0])


def fold_coefficients(gammas: Sequence[int]) -> list[int]:
    """s with ``s_i`` = the product of ``gammas[j]`` for each round j whose
    bit is set in i (round 0 halves on the highest bit): the final base of
    a folded vector of bases is ``s×G``."""
    s = [1]
    for gamma in reversed(gammas):
        s = s + [x * gamma % L for x in s]
    return s


def verify(t: Transcript, r: Reader, checks: Checks, name: str, G: Sequence[bytes], u: Sequence[int], H: bytes,
           C: Lin, D: Lin, z: int) -> None:
    """Read the argument from `r` and add its two equations to `checks`."""
    b_c, b_d = r.point(f"{name} B_c"), r.point(f"{name} B_d")
    t.absorb_points(b"ipa blinders", [b_c, b_d])
    alpha, beta = t.challenge(b"ipa alpha"), t.challenge(b"ipa beta")
    lhs_c = Lin().add(b_c, 1).plus(C, alpha).add(H, alpha * alpha % L * z * beta)
    lhs_d = Lin().add(b_d, 1).plus(D, alpha)
    gammas = []
    for j in range(rounds(len(G))):
        l_c, l_d, r_c, r_d = round_points = [r.point(f"{name} round {j} {p}") for p in ("L_C", "L_D", "R_C", "R_D")]
        t.absorb_points(b"ipa round", round_points)
        gamma = t.challenge(b"ipa gamma")
        gamma_inv = inverse(gamma)
        gammas.append(gamma)
        lhs_c.add(l_c, gamma).add(r_c, gamma_inv)
        lhs_d.add(l_d, gamma).add(r_d, gamma_inv)
    c_final, d_final = r.scalar(f"{name} final c"), r.scalar(f"{name} final d")
    s = fold_coefficients(gammas)
    s_inv = fold_coefficients([inverse(g) for g in gammas])
    lhs_c.add_all(G, [-c_final * x % L for x in s]).add(H, -c_final * d_final % L * beta)
    lhs_d.add_all(G, [-d_final * x * y % L for x, y in zip(s_inv, u)])
    checks.add(f"{name} (first equation)", lhs_c)
    checks.add(f"{name} (second equation)", lhs_d)
