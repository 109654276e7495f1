"""The deliveries and memos a key has opened, kept for the next command
(issue #26 target 1: a seat's opened deliveries are kept, so nothing is
decrypted twice).

Every command that builds a party opens every delivery sealed to it since
the game began: for a 300-file Codex game, 40-odd X25519 exchanges and
decryptions a command, the same each time. `pbem.protocol.dealer` opens
each sealed delivery (or a dealer's memo to itself) through
`opened_once`, which asks `remembered` for what earlier processes opened
with that key: this module's `for_secret`, installed by `install`.

What is kept is what the key opened: the cards it may see. So the file is
encrypted (ChaCha20-Poly1305, which the command has imported to open the
deliveries anyway; bound to the key's public sealing key)
under a key derived from the private key itself (keyed BLAKE2b of its 64
bytes): only its holder can read it, as only its holder can open the
deliveries; a passphrase set later changes nothing of that. One file per
key under ``$PBEM_HOME/checkpoints/`` (0600), written at the end of a
command that opened something new, atomically; at most `LIMIT` sealed
items, the oldest dropped first. A file that does not open (another key's,
doctored, truncated) is ignored and written afresh: an entry can only ever
be what the same bytes opened to, and its openings are checked against the
chain's commitments like any other (`pbem.protocol.party`).
"""

from __future__ import annotations

import atexit
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.crypto.keys import SecretIdentity
    from pbem.protocol.file_parts import Opening

MAGIC = b"pbem-opened/1\n"
#: a random 96-bit nonce: a key's file is written once per command that opens something new
_NONCE = 12
#: sealed items kept per key (a long Codex game seals about one a turn to each seat)
LIMIT = 20_000

#: public sealing key -> (the key, its file, what it opened, how many entries that file held)
_KEPT: dict[str, tuple[SecretIdentity, Path, dict[bytes, list[Opening]], int]] = {}


def install() -> None:
    """Let `pbem.protocol.dealer` keep what it opens (a command's process)."""
    from pbem.protocol import dealer

    dealer.remembered = for_secret


def for_secret(secret: SecretIdentity) -> dict[bytes, list[Opening]]:
    """digest -> openings: what `secret` opened in earlier commands (read
    once a process), to which this process adds what it opens."""
    seal = secret.public.seal
    if seal not in _KEPT:
        if not _KEPT:
            atexit.register(save)
        path = _path(secret)  # the home of now, not of the process's end
        entries = _read(secret, path)
        _KEPT[seal] = (secret, path, entries, len(entries))
    return _KEPT[seal][2]


def save() -> None:
    """Write each key's file again where this process opened something new
    (best effort: a file not written is only work done again)."""
    for seal, (secret, path, entries, read) in list(_KEPT.items()):
        if len(entries) > read and path.parent.is_dir():  # a home gone since (a test's) gets nothing
            _write(secret, path, entries)
        _KEPT[seal] = (secret, path, entries, len(entries))


def _path(secret: SecretIdentity) -> Path:
    from pbem.home.checkpoint_seal import named

    return named(secret.public.seal, ".opened")


def _key(secret: SecretIdentity) -> bytes:
    from pbem.home.checkpoint_seal import blake2b

    return blake2b(b"opened deliveries", key=secret.private_bytes(), digest_size=32, person=b"pbem-opened").digest()


def _binding(secret: SecretIdentity) -> bytes:
    return MAGIC + secret.public.seal.encode()


def _read(secret: SecretIdentity, path: Path) -> dict[bytes, list[Opening]]:
    import msgspec
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from pbem.home.checkpoint_seal import authentic
    from pbem.protocol.file_parts import Opening

    data = authentic(path, MAGIC, light=True)  # this user's pbem wrote it ...
    if data is None:
        return {}
    body = data[len(MAGIC):]  # ... and only the key's holder can read it
    try:
        plain = ChaCha20Poly1305(_key(secret)).decrypt(body[:_NONCE], body[_NONCE:], _binding(secret))
        return dict(msgspec.msgpack.decode(plain, type=dict[bytes, list[Opening]]))
    except (InvalidTag, ValueError, TypeError, msgspec.DecodeError, msgspec.ValidationError):
        return {}


def _write(secret: SecretIdentity, path: Path, entries: dict[bytes, list[Opening]]) -> None:
    import msgspec
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from pbem.home.checkpoint_seal import sealed_write

    kept = dict(list(entries.items())[-LIMIT:])
    nonce = os.urandom(_NONCE)
    sealed = ChaCha20Poly1305(_key(secret)).encrypt(nonce, msgspec.msgpack.encode(kept), _binding(secret))
    sealed_write(path, MAGIC + nonce + sealed, light=True)
