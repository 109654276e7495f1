"""Signatures with domain separation.

Every signature covers a *domain* followed by the exact bytes being signed:
``b"pbem/1 turn\\n" + body``. The domain says what kind of thing was signed,
so a signature made for one kind of file can never be replayed as another
(a signed identity body is not a signed turn body, even if the bytes
happened to parse as both). Domains are one line that starts with the format
version, which is why they must come from `domain`.

`domain` and `check_domain` live in `encoding` (beside `FORMAT`, so that
the identities can use them without importing this module).
The key-level work lives on the identities (`SecretIdentity.sign`,
`PublicIdentity.verify`); these functions are the spelling the protocol layer
uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.crypto.encoding import check_domain, domain

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity, SecretIdentity

__all__ = ["domain", "check_domain", "sign", "verify"]

def sign(secret: SecretIdentity, domain: bytes, body: bytes) -> str:
    """Sign `domain + body` with `secret`'s Ed25519 key; base64url signature."""
    return secret.sign(domain, body)


def verify(public: PublicIdentity, domain: bytes, body: bytes, sig: str) -> None:
    """Check `sig` over `domain + body`; SignatureError naming `public` if wrong."""
    public.verify(domain, body, sig)
