"""`pbem legal` and `pbem show` answered from memory when nothing they
depend on changed (issue #26: a command at a turn costs about what starting
Python does).

As `pbem status` does (`pbem.gamedir.status_memo`, whose snapshot and
checks this uses: the folder's chain files, the address book and pbem's
code, each unchanged and settled), a full `legal` or `show` that ends
cleanly keeps the words it printed, and the next one prints them when
nothing changed. One file per folder and seat (``--as NAME``, or none for
an observer's `show`) holds the words of each form asked for (``legal``,
``legal --json``, ``show``, ``show --json``) under one snapshot; a form
computed under another snapshot starts the file afresh.

A seat's words are its secret, so its memo is encrypted under a key only
the holder of the seat's private key can derive (`pbem.home.seat_key`),
bound to the folder and the seat: XChaCha20-Poly1305 from libsodium,
through PyNaCl, which imports in a third of the time `cryptography` takes.
When that key needs a passphrase and no agent holds it, nothing is
remembered. An observer's
words are public, and sealed like the status memo (keyed BLAKE2b under the
user's checkpoint key). Either way the file is the user's own, 0600, under
``$PBEM_HOME/checkpoints/``. Nothing is remembered from a command that
warned, in a game with a clock, or for colour pictures (they depend on the
terminal).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pbem.gamedir import status_memo
from pbem.home.checkpoint_seal import authentic, named, pbem_code, sealed_write

MAGIC = b"pbem-seat/1\n"  # then the nonce and the encrypted memo (a seat), or the memo (an observer)
_NONCE = 24  # XChaCha20-Poly1305: a random nonce is safe


def _where(folder: Path, seat: str | None) -> str:
    return f"{os.path.abspath(folder)}\n{seat or ''}"


def path_for(folder: Path, seat: str | None) -> Path:
    return named(_where(folder, seat), ".seat")


def _binding(folder: Path, seat: str | None) -> bytes:
    return MAGIC + _where(folder, seat).encode()


def _key(seat: str | None) -> bytes | None:
    from pbem.home.seat_key import memo_key

    return memo_key(seat) if seat else b""


def _read(folder: Path, seat: str | None, key: bytes) -> dict[str, Any] | None:
    signed = authentic(path_for(folder, seat), MAGIC, light=True)
    if signed is None:
        return None
    body = signed[len(MAGIC):]
    if seat:
        from nacl.bindings import crypto_aead_xchacha20poly1305_ietf_decrypt as decrypt
        from nacl.exceptions import CryptoError

        try:
            body = decrypt(body[_NONCE:], _binding(folder, seat), body[:_NONCE], key)
        except (CryptoError, ValueError, TypeError):
            return None
    import marshal

    try:
        memo = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(memo, dict) or memo.get("seat") != (seat or "") or not isinstance(memo.get("words"), dict):
        return None
    return memo


def recall(folder: Path, seat: str | None, form: str) -> str | None:
    """What `form` (``legal``, ``show --json``...) printed for `seat` in
    `folder` last time, if nothing it depends on changed since (else None:
    compute it in full)."""
    if not status_memo.WHERE_TRUSTED:
        return None
    key = _key(seat)
    if key is None:
        return None
    memo = _read(folder, seat, key)
    if memo is None or not status_memo.still_true(memo, folder):
        return None
    words = memo["words"].get(form)
    return words if isinstance(words, str) else None


def remember(folder: Path, seat: str | None, form: str, before: dict[str, Any], words: str) -> None:
    """Keep `words`, what `form` printed for `seat`, when `folder` and the
    address book are now exactly as `before` (`status_memo.snapshot`) was
    taken before they were read; beside the other forms kept under the same
    snapshot."""
    if not status_memo.unchanged(folder, before):
        return
    key = _key(seat)
    if key is None:
        return
    import marshal

    old = _read(folder, seat, key)
    memo = {**before, "seat": seat or "", "code": pbem_code(), "words": {form: words}}
    if old is not None and status_memo.still_true(old, folder):
        # the older words hold now (their snapshot is now's, which is `before`'s), as of their
        # own look: keep them, and that earlier time (the files were settled then, so they are
        # for these words too)
        memo["words"] = {**old["words"], form: words}
        memo["at"] = min(old["at"], before["at"])
    body = marshal.dumps(memo)
    if seat:
        from nacl.bindings import crypto_aead_xchacha20poly1305_ietf_encrypt as encrypt

        nonce = os.urandom(_NONCE)
        body = nonce + encrypt(body, _binding(folder, seat), nonce, key)
    sealed_write(path_for(folder, seat), MAGIC + body, light=True)

