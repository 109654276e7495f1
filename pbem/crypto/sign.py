"""Signatures with domain separation.

Every signature covers a *domain* followed by the exact bytes being signed:
``b"pbem/1 turn\\n" + body``. The domain says what kind of thing was signed,
so a signature made for one kind of file can never be replayed as another
(a signed identity body is not a signed turn body, even if the bytes
happened to parse as both). Domains are one line that starts with the format
version, which is why they must come from `domain`.

The key-level work lives on the identities (`SecretIdentity.sign`,
`PublicIdentity.verify`); these functions are the spelling the protocol layer
uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.crypto.encoding import FORMAT

if TYPE_CHECKING:
    from pbem.crypto.keys import PublicIdentity, SecretIdentity

__all__ = ["domain", "check_domain", "sign", "verify"]

_PREFIX = FORMAT.encode("ascii") + b" "


def domain(kind: str) -> bytes:
    """The signing domain for `kind`: ``b"pbem/1 " + kind + b"\\n"``."""
    return check_domain(_PREFIX + kind.encode("ascii") + b"\n")


def check_domain(d: bytes) -> bytes:
    """Return `d` if it is a well-formed domain, else raise ValueError.

    A domain is ``pbem/1 <kind>\\n`` with a non-empty printable ASCII kind and
    exactly one newline, at the end. A malformed domain is a bug in the
    caller, not bad input, hence ValueError.
    """
    if not isinstance(d, bytes):
        raise ValueError("a signing domain must be bytes")
    kind = d[len(_PREFIX):-1]
    if (
        not d.startswith(_PREFIX)
        or not d.endswith(b"\n")
        or not kind
        or any(c < 0x20 or c > 0x7E for c in kind)
    ):
        raise ValueError(f"malformed signing domain {d!r}; build it with domain(kind)")
    return d


def sign(secret: SecretIdentity, domain: bytes, body: bytes) -> str:
    """Sign `domain + body` with `secret`'s Ed25519 key; base64url signature."""
    return secret.sign(domain, body)


def verify(public: PublicIdentity, domain: bytes, body: bytes, sig: str) -> None:
    """Check `sig` over `domain + body`; SignatureError naming `public` if wrong."""
    public.verify(domain, body, sig)
