"""The Fiat-Shamir transcript of a shuffle proof.

One running BLAKE2b-512 hash absorbs, in order, a domain label, the caller's
context, the whole statement (sizes, base, key, every input and output
point) and each message of the prover as it is made; every challenge is
that hash so far (with the challenge's own label) reduced modulo L, and is
absorbed in turn. Each absorbed item is framed as ``len(label) || label ||
len(data) || data`` with fixed-width lengths, so no two different sequences
of items hash alike. Prover and verifier absorb exactly the same bytes, so a
challenge depends on everything that came before it: a proof made for one
context, statement or message cannot answer the challenges of another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from pbem.crypto.shuffle.group import L, inverse


class Transcript:
    def __init__(self, domain: bytes) -> None:
        self._hash = hashlib.blake2b(digest_size=64)
        self.absorb(b"domain", domain)

    def absorb(self, label: bytes, data: bytes) -> None:
        self._hash.update(len(label).to_bytes(2, "big") + label + len(data).to_bytes(8, "big") + data)

    def absorb_int(self, label: bytes, value: int) -> None:
        self.absorb(label, value.to_bytes(8, "big"))

    def absorb_points(self, label: bytes, points: Sequence[bytes]) -> None:
        self.absorb(label, len(points).to_bytes(8, "big") + b"".join(points))

    def absorb_scalar(self, label: bytes, value: int) -> None:
        self.absorb(label, value.to_bytes(32, "little"))

    def _digest(self, label: bytes) -> bytes:
        h = self._hash.copy()
        h.update(b"challenge" + len(label).to_bytes(2, "big") + label)
        digest = h.digest()
        self.absorb(b"challenge " + label, digest)
        return digest

    def challenge(self, label: bytes) -> int:
        """A challenge scalar, never zero (`inverse` refuses a zero, which a
        hash gives with probability 2**-252)."""
        c = int.from_bytes(self._digest(label), "little") % L
        inverse(c)
        return c

    def challenges(self, label: bytes, n: int) -> list[int]:
        """`n` challenge scalars from one digest (BLAKE2b keyed with it, in counter mode)."""
        seed = self._digest(label)
        return [int.from_bytes(hashlib.blake2b(i.to_bytes(8, "big"), key=seed).digest(), "little") % L
                for i in range(n)]
