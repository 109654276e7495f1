"""The byte layout of a shuffle proof: 32-byte fields, nothing else.

A proof is the concatenation of its points and scalars in the order the
prover makes them (the order of the transcript); its length is fixed by the
statement's size, so the verifier knows it before reading a byte (`Reader`
refuses a proof a byte short or long). Every point must be the canonical
encoding of an element of the prime-order subgroup (libsodium's check, or
the identity, which an honest proof can contain in degenerate positions and
which makes no equation easier to satisfy); every scalar must be below L
(a non-canonical scalar would give one proof two encodings). Each field is
named, so that an error says which one is wrong.
"""

from __future__ import annotations

from pbem.crypto.shuffle.group import L, POINT_LEN, SCALAR_LEN, is_valid_point
from pbem.errors import ShuffleProofError


class Writer:
    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def point(self, point: bytes) -> bytes:
        self._parts.append(point)
        return point

    def scalar(self, value: int) -> int:
        self._parts.append(value.to_bytes(SCALAR_LEN, "little"))
        return value

    def bytes(self) -> bytes:
        return b"".join(self._parts)


class Reader:
    def __init__(self, proof: bytes, expected: int, what: str) -> None:
        if not isinstance(proof, (bytes, bytearray)):
            raise ShuffleProofError(f"{what}: a proof is bytes")
        if len(proof) != expected:
            raise ShuffleProofError(f"{what}: the proof is {len(proof)} bytes, not {expected}")
        self._data, self._at, self._what = bytes(proof), 0, what
        self.prefix = ""  # the part being read, for a proof of several parts

    def _field(self, n: int) -> bytes:
        field = self._data[self._at:self._at + n]
        self._at += n
        return field

    def point(self, name: str) -> bytes:
        at = self._at
        point = self._field(POINT_LEN)
        if not is_valid_point(point):
            raise ShuffleProofError(f"{self._what}: {self.prefix}{name} (byte {at}) is not a point of the prime-order subgroup")
        return point

    def points(self, name: str, n: int) -> list[bytes]:
        return [self.point(f"{name} {i}") for i in range(n)]

    def scalar(self, name: str) -> int:
        at = self._at
        value = int.from_bytes(self._field(SCALAR_LEN), "little")
        if value >= L:
            raise ShuffleProofError(f"{self._what}: {self.prefix}{name} (byte {at}) is not a reduced scalar")
        return value

    def end(self) -> None:
        if self._at != len(self._data):  # pragma: no cover - the length was checked up front
            raise ShuffleProofError(f"{self._what}: {len(self._data) - self._at} bytes left over")
