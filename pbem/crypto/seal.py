"""Sealed envelopes: a payload only its readers can open (DESIGN.md section 4).

The construction follows age's X25519 recipients:

1. A fresh random 32-byte *file key* encrypts the payload with
   ChaCha20-Poly1305 under the associated data `ad`.
2. For each reader, a fresh ephemeral X25519 key pair is made; the shared
   secret with the reader's public key goes through HKDF-SHA256
   (salt = ephemeral public || reader public, info = ``pbem/1 seal``) to a
   32-byte *wrap key*, which encrypts the file key (again with `ad`). A
   stanza is the ephemeral public key and the wrapped file key.

Both encryptions use an all-zero nonce. That is safe because each key
encrypts exactly one message: the file key is drawn fresh for every envelope
and every wrap key comes from a fresh ephemeral key pair. A ChaCha20-Poly1305
nonce only has to be unique per key, and with one message per key it is.

Stanzas do not name their readers (the ephemeral keys are random), so an
envelope does not say who can read it; a reader finds its stanza by trying
each. `ad` (see `seal_ad`) binds the envelope to a game, a turn and a zone:
an envelope copied into another place does not open there. Because the
stanzas are bound to `ad` too, a moved envelope looks to its reader exactly
like one that is not for it; hence NotForMe says "or moved".

Unlike age there is no header MAC over all stanzas: an envelope always
travels inside a signed file, so a change by anyone but the writer breaks
that signature, and no MAC could stop the writer itself from sealing garbage
to one reader. Damage to another reader's stanza does not concern us.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Sequence

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.envelope import _KEY_LEN, _TAG_LEN, SEAL_INFO, Envelope, Stanza, check_envelope, seal_ad
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.errors import NotForMe, SealError

__all__ = ["Stanza", "Envelope", "seal", "open_envelope", "seal_ad", "check_envelope", "SEAL_INFO"]

_ZERO_NONCE = bytes(12)


def _wrap_key(shared: bytes, ephemeral_pub: bytes, reader_pub: bytes) -> bytes:
    return HKDF(
        algorithm=hashes.SHA256(), length=_KEY_LEN, salt=ephemeral_pub + reader_pub, info=SEAL_INFO,
    ).derive(shared)


def seal(payload: bytes, readers: Sequence[PublicIdentity], ad: bytes) -> Envelope:
    """Seal `payload` so that each of `readers` (and nobody else) can open it."""
    if not readers:
        raise ValueError("an envelope needs at least one reader")
    file_key = os.urandom(_KEY_LEN)
    body = ChaCha20Poly1305(file_key).encrypt(_ZERO_NONCE, bytes(payload), ad)
    stanzas = []
    for reader in readers:
        reader_pub = reader.seal_key_bytes()
        eph = X25519PrivateKey.generate()
        eph_pub = eph.public_key().public_bytes_raw()
        try:
            shared = eph.exchange(X25519PublicKey.from_public_bytes(reader_pub))
        except ValueError:  # OpenSSL refuses an all-zero result
            shared = bytes(_KEY_LEN)
        if not any(shared):
            raise SealError(f"cannot seal to {reader.name}: its sealing key is a low-order point")
        wrapped = ChaCha20Poly1305(_wrap_key(shared, eph_pub, reader_pub)).encrypt(_ZERO_NONCE, file_key, ad)
        stanzas.append(Stanza(ephemeral=b64e(eph_pub), wrapped=b64e(wrapped)))
    return Envelope(stanzas=stanzas, payload=b64e(body))


def open_envelope(env: Envelope, secret: SecretIdentity, ad: bytes) -> bytes:
    """Open `env` with `secret`'s key; returns the payload.

    NotForMe if no stanza is for `secret` (or the envelope was moved: see the
    module docstring); SealError if a stanza opens but the payload does not,
    or if the envelope carries a stanza with a low-order key; FormatError if
    a field is not the right number of bytes.
    """
    payload = b64d(env.payload)
    if len(payload) < _TAG_LEN:
        raise SealError("envelope damaged: payload too short")
    parsed = [(b64d(s.ephemeral, _KEY_LEN), b64d(s.wrapped, _KEY_LEN + _TAG_LEN)) for s in env.stanzas]
    me = secret.x25519_private()
    my_pub = secret.public.seal_key_bytes()
    refused = 0
    for eph_pub, wrapped in parsed:
        try:
            shared = me.exchange(X25519PublicKey.from_public_bytes(eph_pub))
        except ValueError:
            shared = bytes(_KEY_LEN)
        if hmac.compare_digest(shared, bytes(_KEY_LEN)):
            refused += 1  # a low-order ephemeral key: the result is public, never use it
            continue
        try:
            file_key = ChaCha20Poly1305(_wrap_key(shared, eph_pub, my_pub)).decrypt(_ZERO_NONCE, wrapped, ad)
        except InvalidTag:
            continue
        try:
            return ChaCha20Poly1305(file_key).decrypt(_ZERO_NONCE, payload, ad)
        except InvalidTag:
            raise SealError("envelope damaged or moved to another game, turn or zone") from None
    if refused:
        raise SealError(f"envelope damaged: {refused} stanza(s) with an invalid (low-order) key")
    raise NotForMe(
        f"not sealed to {secret.name} (or moved to another game, turn or zone)",
        hint=f"if {secret.name} should be a reader, the envelope was copied from another place",
    )
