"""The same-permutation argument and its grand-product argument
(Curdleproofs, sections 5.1 and 5.2).

Same permutation: for public A, M and a vector a, the prover knows σ with
``A = σ(a)×g + r_A×h`` and ``M = σ(0, ..., ℓ-1)×g + r_M×h`` (σ(v)_i =
v_σ(i)). With challenges α, β, Neff's trick turns this into one grand
product: the multisets {(a_i, i)} and {(σ(a)_i, σ(i))} are equal exactly
when ``prod(a_i + α·i + β) = prod(σ(a)_i + α·σ(i) + β)`` for random α, β
(Schwartz-Zippel), and ``B = A + α·M + β·Σg`` commits to the right-hand
factors b.

Grand product: for public B and p the prover knows b with ``B = b×g +
r_B×h`` and ``prod(b) = p``. It commits to the running products ``c = (1,
b_0, b_0·b_1, ...)`` in C (with fresh blinders r_C) and sends ``r_p =
<r_B + α', r_C>``; after a challenge β', ``<c || r_C, d || r_D> = p·β'^ℓ +
r_p·β'^(ℓ+1) - 1`` where ``d_i = β'^(i+1)·b_i - β'^i`` and ``r_D =
β'^(ℓ+1)·(r_B + α')``, and D, the commitment to that second vector under
the rescaled bases ``u∘(g || h)``, is ``B - β'^-1·Σg + α'·Σh``: the inner
product argument (`inner_product`) finishes. Neither B nor D is sent: the
verifier keeps them as linear combinations of A, M and the bases, which go
straight into the batch.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.crypto.shuffle import inner_product
from pbem.crypto.shuffle.group import L, Checks, Lin, Nonces, add, inner, inverse, msm, mul, point_lin
from pbem.crypto.shuffle.transcript import Transcript
from pbem.crypto.shuffle.wire import Reader, Writer


def _rescaling(beta: int, ell: int, blinders: int) -> list[int]:
    """u = (β^-1, ..., β^-ℓ, β^-(ℓ+1) for each blinder base)."""
    beta_inv = inverse(beta)
    u, x = [], 1
    for _ in range(ell):
        x = x * beta_inv % L
        u.append(x)
    return u + [x * beta_inv % L] * blinders


def prove(t: Transcript, w: Writer, nonces: Nonces, g: Sequence[bytes], h: Sequence[bytes], H: bytes,
          a: Sequence[int], sigma: Sequence[int], r_A: Sequence[int], r_M: Sequence[int]) -> None:
    """Append the same-permutation argument for A and M (already in the transcript)."""
    alpha, beta = t.challenge(b"same permutation alpha"), t.challenge(b"same permutation beta")
    b = [(a[s] + alpha * s + beta) % L for s in sigma]
    r_B = [(x + alpha * y) % L for x, y in zip(r_A, r_M)]
    _prove_grand_product(t, w, nonces, g, h, H, b, r_B)


def _prove_grand_product(t: Transcript, w: Writer, nonces: Nonces, g: Sequence[bytes], h: Sequence[bytes],
                         H: bytes, b: Sequence[int], r_B: Sequence[int]) -> None:
    ell = len(b)
    alpha = t.challenge(b"grand product alpha")
    c = [1]
    for x in b[:-1]:
        c.append(c[-1] * x % L)
    r_C = nonces.scalars(len(h))
    C = w.point(add(msm(c, g), msm(r_C, h)))
    shifted = [(x + alpha) % L for x in r_B]
    r_p = w.scalar(inner(shifted, r_C))
    t.absorb(b"grand product C", C)
    t.absorb_scalar(b"grand product r_p", r_p)
    beta = t.challenge(b"grand product beta")
    d, power = [], 1
    for x in b:  # d_i = β^(i+1)·b_i - β^i
        d.append((power * beta % L * x - power) % L)
        power = power * beta % L
    power = power * beta % L  # β^(ℓ+1)
    d += [power * x % L for x in shifted]
    u = _rescaling(beta, ell, len(h))
    G = list(g) + list(h)
    inner_product.prove(t, w, nonces, G, [mul(x, p) for x, p in zip(u, G)], H, c + r_C, d)


def verify(t: Transcript, r: Reader, checks: Checks, g: Sequence[bytes], h: Sequence[bytes], H: bytes,
           A: bytes, M: bytes, a: Sequence[int]) -> None:
    """Read the same-permutation argument and add its equations to `checks`."""
    alpha, beta = t.challenge(b"same permutation alpha"), t.challenge(b"same permutation beta")
    p = 1
    for i, x in enumerate(a):
        p = p * (x + alpha * i + beta) % L
    B = point_lin(A).add(M, alpha).add_all(g, [beta] * len(g))
    _verify_grand_product(t, r, checks, g, h, H, B, p)


def _verify_grand_product(t: Transcript, r: Reader, checks: Checks, g: Sequence[bytes], h: Sequence[bytes],
                          H: bytes, B: Lin, p: int) -> None:
    ell = len(g)
    alpha = t.challenge(b"grand product alpha")
    C = r.point("grand product C")
    r_p = r.scalar("grand product r_p")
    t.absorb(b"grand product C", C)
    t.absorb_scalar(b"grand product r_p", r_p)
    beta = t.challenge(b"grand product beta")
    D = B.plus(Lin().add_all(g, [-inverse(beta)] * ell).add_all(h, [alpha] * len(h)))
    z = (p * pow(beta, ell, L) + r_p * pow(beta, ell + 1, L) - 1) % L
    inner_product.verify(t, r, checks, "the grand-product argument", list(g) + list(h),
                         _rescaling(beta, ell, len(h)), H, point_lin(C), D, z)
