"""The key a seat's remembered words are sealed under
(`pbem.gamedir.seat_memo`), found without asking anyone for anything.

What `pbem legal --as NAME` and `pbem show --as NAME` print is NAME's
secret (its hand, its cards to come), so it is kept only under a key that
only the holder of NAME's private key can derive: keyed BLAKE2b (a PRF,
RFC 7693) of NAME's 64 private key bytes. Those come from the key file
when it has no passphrase, or from `pbem agent` when it holds the key
unlocked; never from a prompt: a passphrase typed for words that then
turn out stale would be asked again by the full command. A key with a
passphrase and no agent running: None, and the command is computed in
full, as before.

Changing the key file (a passphrase set or changed, the key replaced)
changes its `lstat`, which the memo depends on besides
(`pbem.gamedir.status_memo.snapshot`); an old memo then stays unreadable
to whoever cannot derive the old key.
"""

from __future__ import annotations

from pbem.errors import PbemError

_PERSON = b"pbem-seat-memo"


def memo_key(name: str) -> bytes | None:
    """32 bytes only NAME's private key gives, or None when that key is not
    at hand without a passphrase.

    The key file is read as plain JSON here, not through
    `pbem.crypto.keys` (whose imports cost a tenth of the floor): a file
    that is not a valid key file for NAME gives a key that opens nothing,
    or None."""
    import base64
    import json

    from pbem.home.where import default_home

    try:
        f = json.loads((default_home() / "keys" / f"{name}.key").read_bytes())
        if f.get("kind") != "secret-key" or f.get("name") != name:
            return None
        if f.get("protection") == "none":
            keys = f["keys"]
            raw: bytes | None = base64.urlsafe_b64decode(keys + "=" * (-len(keys) % 4))
        else:
            from pbem.home.agent import Client

            raw = Client(default_home()).get(name, f["public"]["sign"])
    except (OSError, PbemError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if raw is None or len(raw) != 64:
        return None
    from pbem.home.checkpoint_seal import blake2b

    return blake2b(name.encode(), key=raw, digest_size=32, person=_PERSON).digest()
