"""What a sealed envelope looks like, without the means to make or open one.

`pbem.crypto.seal` seals and opens envelopes (X25519, HKDF, ChaCha20-Poly1305);
this module holds only the wire Structs, the associated data and the checks
anyone can make of an envelope without a key. A verifier that reads a game
needs no more than this, so reading never loads the AEAD (start-up time,
issue #12).
"""

# (no postponed annotations: msgspec reads these at once)

from typing import Literal

from pbem.crypto.encoding import B64, FORMAT, Strict, b64d, canonical
from pbem.errors import FormatError

__all__ = ["Stanza", "Envelope", "seal_ad", "check_envelope", "SEAL_INFO"]

SEAL_INFO = FORMAT.encode("ascii") + b" seal"
_KEY_LEN = 32
_TAG_LEN = 16


class Stanza(Strict, frozen=True):
    """The file key, wrapped for one (unnamed) reader."""

    ephemeral: B64
    """Ephemeral X25519 public key (32 bytes)."""
    wrapped: B64
    """The file key encrypted under the wrap key (32 + 16 bytes)."""


class Envelope(Strict, frozen=True):
    """A sealed payload and one stanza per reader, in the order the readers were given."""

    stanzas: list[Stanza]
    payload: B64
    """The payload encrypted under the file key (its length + 16 bytes)."""


class _SealAD(Strict, frozen=True):
    format: Literal["pbem/1"]
    kind: Literal["seal-ad"]
    game: str
    seq: int
    zone: str


def seal_ad(game_id: str, seq: int, label: str) -> bytes:
    """Associated data that pins an envelope to a game, a turn and a zone.

    Canonical JSON, so every party builds the same bytes from the same three
    values, and no choice of values can collide with another.
    """
    if not isinstance(game_id, str) or not isinstance(label, str):
        raise TypeError("game_id and label must be str")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise ValueError("seq must be a non-negative int")
    return canonical(_SealAD(FORMAT, "seal-ad", game_id, seq, label))


def check_envelope(env: Envelope, readers: int | None = None) -> None:
    """Check what anyone can check of an envelope without opening it: the
    base64 of every part, the sizes of keys, wrapped keys and tag, and (when
    given) the number of readers. FormatError otherwise. (Whether it opens,
    only its readers can tell.)"""
    if not env.stanzas:
        raise FormatError("an envelope with no recipient")
    if readers is not None and len(env.stanzas) != readers:
        raise FormatError(f"an envelope for {len(env.stanzas)} readers where {readers} were expected")
    if len(b64d(env.payload)) < _TAG_LEN:
        raise FormatError("an envelope's payload is truncated")
    for s in env.stanzas:
        b64d(s.ephemeral, _KEY_LEN)
        b64d(s.wrapped, _KEY_LEN + _TAG_LEN)
