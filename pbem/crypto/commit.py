"""Hash commitments: promise a value now, prove it later.

A party publishes ``commit(salt, item)`` when it must be bound to something it
may not yet show (a referee's master seed, a card in a committed deck), and
later publishes the salt and the item (the *opening*); anyone can check the
opening with `check_opening`.

``SHA-256("pbem/1 commit" || salt || item)`` is *binding* (one cannot find a
second opening: that would be a SHA-256 collision) and *hiding* because the
32-byte salt is secret and random until the opening: without it nobody can
test guesses, even for an item with few possible values (one of 40 cards).
`item` is bytes; callers commit to ``canonical(value)`` so the same value
always gives the same commitment.
"""

from __future__ import annotations

import hmac
import os

from pbem.crypto.encoding import FORMAT, b64d, b64e, sha256
from pbem.errors import CommitmentError, FormatError

__all__ = ["SALT_LEN", "new_salt", "commit", "check_opening"]

SALT_LEN = 32
_LABEL = FORMAT.encode("ascii") + b" commit"


def new_salt() -> bytes:
    """32 fresh random bytes for one commitment (never reuse a salt)."""
    return os.urandom(SALT_LEN)


def _check_salt(salt: bytes) -> bytes:
    if not isinstance(salt, (bytes, bytearray)) or len(salt) != SALT_LEN:
        raise FormatError(f"a commitment salt must be {SALT_LEN} bytes")
    return bytes(salt)


def commit(salt: bytes, item: bytes) -> str:
    """The commitment to `item` under `salt`, as base64url text."""
    return b64e(sha256(_LABEL + _check_salt(salt) + bytes(item)))


def check_opening(commitment: str, salt: bytes, item: bytes) -> None:
    """Raise CommitmentError unless (`salt`, `item`) opens `commitment`.

    FormatError if the commitment is not 32 bytes of base64url or the salt is
    not 32 bytes.
    """
    expected = b64d(commitment, 32)
    if not hmac.compare_digest(expected, sha256(_LABEL + _check_salt(salt) + bytes(item))):
        raise CommitmentError(
            "the revealed value does not match its commitment",
            hint="the party that committed revealed something else than it promised",
        )
