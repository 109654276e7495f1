"""Deterministic randomness: one secret seed, every chance event, replayable.

A dealer never calls a global random generator. In *referee* games the
referee commits to a master seed at genesis (`pbem.crypto.commit`); each
chance event then draws from a `DeterministicStream` keyed by
``derive(seed, label)`` with a label that names the event (game, turn,
counter). When the game ends the referee opens the commitment, and anyone can
re-derive every stream and check every shuffle and roll in the audit: the
same key and label always give the same sequence. In *peer* games the key is
derived from the revealed beacon links instead; the stream is the same.

The stream is HMAC-SHA256(key, label || counter) for counter = 0, 1, ...
(a pseudo-random function, so the output is unpredictable without the key),
cut into 8-byte blocks. `below` turns blocks into uniform integers by
rejection sampling, so no outcome is even slightly more likely than another
(plain ``x % n`` would favour small values).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import TypeVar

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto.encoding import FORMAT

__all__ = ["derive", "DeterministicStream"]

T = TypeVar("T")

_PREFIX = FORMAT.encode("ascii") + b" "
_MIN_KEY = 16
_BLOCK = 8
_SPACE = 1 << (8 * _BLOCK)


def derive(key: bytes, label: bytes, length: int = 32) -> bytes:
    """A sub-key for `label`: HKDF-SHA256(key, info = ``b"pbem/1 " + label``).

    Different labels give independent keys, so one seed serves every event.
    """
    if len(key) < _MIN_KEY:
        raise ValueError(f"key must be at least {_MIN_KEY} bytes")
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=_PREFIX + bytes(label)).derive(bytes(key))


class DeterministicStream:
    """Uniform choices drawn from HMAC-SHA256(key, label || counter)."""

    __slots__ = ("_key", "_label", "_counter", "_buffer")

    def __init__(self, key: bytes, label: bytes) -> None:
        if len(key) < _MIN_KEY:
            raise ValueError(f"key must be at least {_MIN_KEY} bytes")
        self._key = bytes(key)
        self._label = bytes(label)
        self._counter = 0
        self._buffer = b""

    def _block(self) -> int:
        """The next 8 bytes of the stream, as an unsigned big-endian integer."""
        if not self._buffer:
            msg = self._label + self._counter.to_bytes(8, "big")
            self._buffer = hmac.new(self._key, msg, hashlib.sha256).digest()
            self._counter += 1
        block, self._buffer = self._buffer[:_BLOCK], self._buffer[_BLOCK:]
        return int.from_bytes(block, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, for 1 <= n <= 2**64.

        Blocks at or above the largest multiple of n are thrown away and
        another is drawn, so each result is exactly equally likely.
        """
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= _SPACE:
            raise ValueError("below(n) needs an int 1 <= n <= 2**64")
        limit = _SPACE - _SPACE % n
        while True:
            x = self._block()
            if x < limit:
                return x % n

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list with `items` in uniformly random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
