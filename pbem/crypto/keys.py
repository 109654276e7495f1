"""Identities: a name with an Ed25519 signing key and an X25519 sealing key.

A person (or a referee process) is one `SecretIdentity`; everyone else knows
them by its `PublicIdentity`, which travels as a self-signed *identity file*.
The self-signature proves that whoever made the file held the private key, so
nobody can publish someone else's keys under a name of their choosing; it
does **not** prove who the person is. That is what the fingerprint is for:
players compare it out loud (or over another channel) once, like an ssh host
key.

Two key files:

* identity file (public, mailed around)::

    {"format":"pbem/1","kind":"identity","by":NAME,"body":{...},"sig":...}

  The signature (domain ``pbem/1 identity``) covers the exact bytes of
  ``body`` as they stand in the file. The body must be in canonical form, so
  one identity has exactly one body.

* secret key file (private, 0600, never leaves the machine)::

    {"format":"pbem/1","kind":"secret-key","name":...,"public":{...},
     "protection":"scrypt"|"none","scrypt":{...},"nonce":...,"keys":...}

  ``keys`` is the Ed25519 seed followed by the X25519 private key (64 bytes).
  With a passphrase they are encrypted with ChaCha20-Poly1305 under a key
  that scrypt derives from the passphrase; the associated data names the key,
  so a ciphertext cannot be pasted into another name's file. ``public`` is
  kept in clear so the store can show a key without asking for its
  passphrase; it is checked against the decrypted keys on every unlock.
"""

from __future__ import annotations

import base64
import os
import re
import unicodedata
from collections.abc import Callable
from typing import Annotated, Literal

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

# ChaCha20-Poly1305 and scrypt protect private key files only: they are
# imported where a key file is written or unlocked, so that commands which
# only read a game never load them (start-up time, issue #12).

from pbem.crypto.encoding import (
    B64, FORMAT, Strict, b64d, b64e, canonical, check_domain, decode_file, domain, encode_file, sha256,
)
from pbem.errors import FormatError, KeyStoreError, PassphraseError, SignatureError

__all__ = [
    "Name", "PublicIdentity", "SecretIdentity", "valid_name", "check_name",
    "IdentityCard", "Email", "valid_email", "read_identity_card",
    "IDENTITY_DOMAIN", "IdentityFile", "identity_file", "read_identity_file",
    "ScryptParams", "SecretKeyFile", "secret_key_file", "read_secret_key_file",
    "SECRET_KEY_DOMAIN", "SCRYPT_N", "SCRYPT_R", "SCRYPT_P",
]

# --- names -----------------------------------------------------------------

_NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern="^[a-z0-9][a-z0-9_-]*$")]
"""An identity name: 1-32 of ``a-z 0-9 _ -``, starting with a letter or digit.

Names are file names in the key store and appear in every signed file, so
they are kept to characters that are safe and unambiguous everywhere.
"""

_NAME_HINT = (
    "a name is 1-32 characters: lowercase letters, digits, '-' and '_', "
    "starting with a letter or digit (e.g. alice, bob-2)"
)


def valid_name(name: object) -> bool:
    """True if `name` follows the identity name rule."""
    return isinstance(name, str) and _NAME_RE.fullmatch(name) is not None


def check_name(name: object) -> str:
    """Return `name` if valid, else raise KeyStoreError with a hint."""
    if not valid_name(name):
        raise KeyStoreError(f"invalid identity name {name!r}", hint=_NAME_HINT)
    return name  # type: ignore[return-value]


# --- public identity -------------------------------------------------------

_KEY_LEN = 32
_SIG_LEN = 64


class PublicIdentity(Strict, frozen=True):
    """What everyone may know about an identity: its name and public keys."""

    name: Name
    sign: B64
    """Ed25519 public key (32 bytes): checks this identity's signatures."""
    seal: B64
    """X25519 public key (32 bytes): envelopes for this identity are sealed to it."""

    def __post_init__(self) -> None:
        # ValueError becomes msgspec.ValidationError while decoding (with the
        # path of the field), so a bad identity inside any file is a format error.
        if not valid_name(self.name):
            raise ValueError(f"invalid identity name {self.name!r}")
        for field in ("sign", "seal"):
            try:
                b64d(getattr(self, field), _KEY_LEN)
            except FormatError as exc:
                raise ValueError(f"{field} key: {exc}") from None

    def sign_key_bytes(self) -> bytes:
        """The raw Ed25519 public key."""
        return b64d(self.sign, _KEY_LEN)

    def seal_key_bytes(self) -> bytes:
        """The raw X25519 public key."""
        return b64d(self.seal, _KEY_LEN)

    def fingerprint(self) -> str:
        """SHA-256 of both public keys, for reading aloud.

        The first 20 bytes (160 bits) as uppercase base32 in 8 groups of 4:
        ``"ABCD EFGH ..."``. Base32 (A-Z and 2-7) has no 0, 1 or 8 to mistake
        for O, I or B, and no case to get wrong over the phone.
        """
        digest = sha256(self.sign_key_bytes() + self.seal_key_bytes())
        text = base64.b32encode(digest[:20]).decode("ascii")
        return " ".join(text[i:i + 4] for i in range(0, len(text), 4))

    def verify(self, domain: bytes, data: bytes, sig: str) -> None:
        """Check a signature over `domain + data`.

        Raises FormatError if `sig` is not a well-formed signature, and
        SignatureError (naming this identity) if it was not made by its key.
        """
        check_domain(domain)
        raw = b64d(sig, _SIG_LEN)
        key = _verify_key(self.sign_key_bytes())
        try:
            key.verify(raw, domain + bytes(data))
        except InvalidSignature:
            raise SignatureError(
                f"bad signature: not made by {self.name} ({self.fingerprint()})",
                hint="the file was changed after it was signed, or someone else signed it",
            ) from None


_VERIFY_KEYS: dict[bytes, Ed25519PublicKey] = {}


def _verify_key(raw: bytes) -> Ed25519PublicKey:
    """The verifying key of `raw`, built once per process (a replay checks
    many signatures by the same few keys)."""
    key = _VERIFY_KEYS.get(raw)
    if key is None:
        if len(_VERIFY_KEYS) >= 1024:  # a long-running process meets many keys
            _VERIFY_KEYS.clear()
        key = _VERIFY_KEYS[raw] = Ed25519PublicKey.from_public_bytes(raw)
    return key


# --- secret identity -------------------------------------------------------


def _clamp(raw: bytes) -> bytes:
    """The canonical spelling of an X25519 private key (RFC 7748 clamping)."""
    k = bytearray(raw)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    return bytes(k)


class SecretIdentity:
    """An identity together with its two private keys.

    Deliberately not a Struct: it is never serialised except through
    `secret_key_file`, and its repr never shows key material.
    """

    __slots__ = ("name", "public", "_sign", "_seal")

    def __init__(self, name: str, sign_key: Ed25519PrivateKey, seal_key: X25519PrivateKey) -> None:
        self.name = check_name(name)
        self._sign = sign_key
        self._seal = seal_key
        self.public = PublicIdentity(
            name=name,
            sign=b64e(sign_key.public_key().public_bytes_raw()),
            seal=b64e(seal_key.public_key().public_bytes_raw()),
        )

    @classmethod
    def generate(cls, name: str) -> SecretIdentity:
        """A new identity with fresh random keys."""
        check_name(name)
        seal = _clamp(os.urandom(_KEY_LEN))
        return cls(name, Ed25519PrivateKey.generate(), X25519PrivateKey.from_private_bytes(seal))

    @classmethod
    def from_private_bytes(cls, name: str, sign_seed: bytes, seal_private: bytes) -> SecretIdentity:
        """Rebuild an identity from its Ed25519 seed and X25519 private key (32 bytes each)."""
        if len(sign_seed) != _KEY_LEN or len(seal_private) != _KEY_LEN:
            raise FormatError("private keys must be 32 bytes each")
        if _clamp(seal_private) != bytes(seal_private):
            # X25519 ignores these bits; storing only the clamped spelling
            # keeps one key file meaning one byte string (a flipped ignored
            # bit must not pass unnoticed).
            raise FormatError("the X25519 private key is not in its clamped form")
        return cls(
            name,
            Ed25519PrivateKey.from_private_bytes(bytes(sign_seed)),
            X25519PrivateKey.from_private_bytes(bytes(seal_private)),
        )

    def seated_as(self, name: str) -> SecretIdentity:
        """The same keys under another name: a newcomer plays the seat
        handed over to it under the seat's name (`pbem.protocol.handover`)."""
        return SecretIdentity(name, self._sign, self._seal)

    def private_bytes(self) -> bytes:
        """Ed25519 seed || X25519 private key (64 bytes). Handle with care."""
        return self._sign.private_bytes_raw() + self._seal.private_bytes_raw()

    def sign(self, domain: bytes, data: bytes) -> str:
        """Sign `domain + data`; returns the base64url signature."""
        check_domain(domain)
        return b64e(self._sign.sign(domain + bytes(data)))

    def x25519_private(self) -> X25519PrivateKey:
        """The X25519 private key, for opening envelopes."""
        return self._seal

    def fingerprint(self) -> str:
        """The public identity's fingerprint."""
        return self.public.fingerprint()

    def __repr__(self) -> str:
        return f"SecretIdentity(name={self.name!r}, fingerprint={self.fingerprint()!r})"


# --- identity file ---------------------------------------------------------

IDENTITY_DOMAIN = domain("identity")


#: local@domain; the domain is dot-separated labels, one label allowed
#: (alice@localhost, a mail server on one's own machine or network)
_EMAIL_RE = re.compile(r"[^@\s<>(),;:\"\[\]\\]+@[^@\s<>(),;:\"\[\]\\.]+(?:\.[^@\s<>(),;:\"\[\]\\.]+)*")

Email = Annotated[str, msgspec.Meta(min_length=3, max_length=254)]
"""A plain mail address (``alice@example.org``): no display name, no spaces."""


def valid_email(text: object) -> bool:
    """True for a plain address ``local@domain.tld`` or ``local@host`` (no name, no brackets)."""
    return isinstance(text, str) and len(text) <= 254 and _EMAIL_RE.fullmatch(text) is not None


class IdentityCard(Strict, frozen=True, omit_defaults=True):
    """The signed body of an identity file: the public identity and, when
    its owner gave one, the mail address other players reach them at.

    `email` was added after the first identity files were written: it has a
    default and is left out when absent, so a card without one is byte for
    byte the canonical `PublicIdentity` (old files read as before, and their
    signatures still hold). The address belongs to the file, not to the key:
    games hold `PublicIdentity` only, so changing one's address changes no
    game and no fingerprint.
    """

    name: Name
    sign: B64
    seal: B64
    email: Email | None = None

    def __post_init__(self) -> None:
        PublicIdentity(name=self.name, sign=self.sign, seal=self.seal)  # the same checks of the keys
        if self.email is not None and not valid_email(self.email):
            raise ValueError(f"invalid mail address {self.email!r}")

    @property
    def public(self) -> PublicIdentity:
        return PublicIdentity(name=self.name, sign=self.sign, seal=self.seal)


class IdentityFile(Strict, frozen=True):
    """The self-signed public identity file. `body` is a canonical `IdentityCard`."""

    format: Literal["pbem/1"]
    kind: Literal["identity"]
    by: Name
    body: msgspec.Raw
    sig: B64


def identity_file(secret: SecretIdentity, email: str | None = None) -> bytes:
    """The identity file of `secret`: its public identity (and mail address,
    when given), signed by itself."""
    if email is not None and not valid_email(email):
        raise FormatError(f"invalid mail address {email!r}", hint="give a plain address such as alice@example.org")
    p = secret.public
    body = canonical(IdentityCard(name=p.name, sign=p.sign, seal=p.seal, email=email))
    sig = secret.sign(IDENTITY_DOMAIN, body)
    return encode_file(IdentityFile(FORMAT, "identity", secret.name, msgspec.Raw(body), sig))


def read_identity_file(data: bytes) -> PublicIdentity:
    """Read and check an identity file: its public identity."""
    return read_identity_card(data).public


def read_identity_card(data: bytes) -> IdentityCard:
    """Read and check an identity file: the whole signed card (with the address).

    FormatError for a garbled, truncated or non-identity file; SignatureError
    when the body was not signed by the key it contains. The body has to be
    decoded before checking (the key is inside it: self-signed), but nothing
    from it is trusted until the signature holds.
    """
    f = decode_file(data, IdentityFile, "identity")
    body = bytes(f.body)
    try:
        card = msgspec.json.decode(body, type=IdentityCard)
    except msgspec.DecodeError as exc:
        raise FormatError(f"bad identity file body: {exc}") from None
    card.public.verify(IDENTITY_DOMAIN, body, f.sig)
    if canonical(card) != body:
        raise FormatError("bad identity file: the body is not in canonical form")
    if f.by != card.name:
        raise FormatError(f"bad identity file: says it is by {f.by!r} but holds the identity {card.name!r}")
    return card


# --- secret key file -------------------------------------------------------

SECRET_KEY_DOMAIN = domain("secret-key")
_SALT_LEN = 16
_NONCE_LEN = 12
_TAG_LEN = 16
SCRYPT_N = 2**15
SCRYPT_R = 8
SCRYPT_P = 1


class ScryptParams(Strict, frozen=True):
    """scrypt's salt and cost, stored so a file stays readable if defaults change.

    Bounds keep a damaged or hostile file from asking for gigabytes of memory.
    """

    salt: B64
    n: int
    r: int
    p: int

    def __post_init__(self) -> None:
        try:
            b64d(self.salt, _SALT_LEN)
        except FormatError as exc:
            raise ValueError(f"scrypt salt: {exc}") from None
        n, r, p = self.n, self.r, self.p
        if not (2**10 <= n <= 2**20 and n & (n - 1) == 0):
            raise ValueError("scrypt n must be a power of two between 2**10 and 2**20")
        if not (1 <= r <= 32 and 1 <= p <= 16 and n * r <= 2**23 and n * r * p <= 2**24):
            raise ValueError("scrypt r and p out of range")


class SecretKeyFile(Strict, frozen=True, kw_only=True, omit_defaults=True):
    """The private key file. See the module docstring."""

    format: Literal["pbem/1"]
    kind: Literal["secret-key"]
    name: Name
    public: PublicIdentity
    protection: Literal["scrypt", "none"]
    scrypt: ScryptParams | None = None
    nonce: B64 | None = None
    keys: B64
    """64 key bytes in clear ("none") or their 80-byte ciphertext ("scrypt")."""


def _passphrase_key(passphrase: str, params: ScryptParams) -> bytes:
    # NFC so that the same passphrase typed on systems that compose accents
    # differently (macOS vs Linux) unlocks the same file.
    if not isinstance(passphrase, str):
        raise PassphraseError("the passphrase must be text")
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    secret = unicodedata.normalize("NFC", passphrase).encode("utf-8")
    kdf = Scrypt(salt=b64d(params.salt, _SALT_LEN), length=32, n=params.n, r=params.r, p=params.p)
    return kdf.derive(secret)


def secret_key_file(secret: SecretIdentity, passphrase: str | None, *, scrypt_n: int = SCRYPT_N) -> bytes:
    """The private key file of `secret`, encrypted unless `passphrase` is None.

    `scrypt_n` exists for tests (a cheaper key derivation); leave it alone.
    """
    public = secret.public
    if passphrase is None:
        f = SecretKeyFile(
            format=FORMAT, kind="secret-key", name=secret.name, public=public,
            protection="none", keys=b64e(secret.private_bytes()),
        )
        return encode_file(f)
    if passphrase == "":
        raise PassphraseError(
            "empty passphrase", hint="choose a passphrase, or store the key without one on purpose"
        )
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    params = ScryptParams(salt=b64e(os.urandom(_SALT_LEN)), n=scrypt_n, r=SCRYPT_R, p=SCRYPT_P)
    nonce = os.urandom(_NONCE_LEN)
    ad = SECRET_KEY_DOMAIN + secret.name.encode("ascii")
    ct = ChaCha20Poly1305(_passphrase_key(passphrase, params)).encrypt(nonce, secret.private_bytes(), ad)
    f = SecretKeyFile(
        format=FORMAT, kind="secret-key", name=secret.name, public=public,
        protection="scrypt", scrypt=params, nonce=b64e(nonce), keys=b64e(ct),
    )
    return encode_file(f)


def read_secret_key_file(data: bytes, passphrase: Callable[[], str]) -> SecretIdentity:
    """Unlock a private key file.

    `passphrase` is called (once) only if the file is encrypted, so callers
    can prompt lazily. PassphraseError for a wrong passphrase (or a damaged
    ciphertext: the two cannot be told apart); FormatError for a garbled file
    or keys that do not match the public identity stored beside them.
    """
    f = decode_file(data, SecretKeyFile, "secret-key")
    if f.name != f.public.name:
        raise FormatError(f"bad secret key file: named {f.name!r} but holds the identity {f.public.name!r}")
    if f.protection == "none":
        if f.scrypt is not None or f.nonce is not None:
            raise FormatError("bad secret key file: unprotected but has scrypt parameters")
        keys = b64d(f.keys, 2 * _KEY_LEN)
    else:
        if f.scrypt is None or f.nonce is None:
            raise FormatError("bad secret key file: protected but lacks scrypt parameters or nonce")
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        ct = b64d(f.keys, 2 * _KEY_LEN + _TAG_LEN)
        nonce = b64d(f.nonce, _NONCE_LEN)
        key = _passphrase_key(passphrase(), f.scrypt)
        ad = SECRET_KEY_DOMAIN + f.name.encode("ascii")
        try:
            keys = ChaCha20Poly1305(key).decrypt(nonce, ct, ad)
        except InvalidTag:
            raise PassphraseError(
                f"wrong passphrase for key {f.name}",
                hint="nothing was changed; check the passphrase (capitals and the keyboard layout count) and try again",
            ) from None
    secret = SecretIdentity.from_private_bytes(f.name, keys[:_KEY_LEN], keys[_KEY_LEN:])
    if secret.public != f.public:
        raise FormatError(
            f"bad secret key file for {f.name}: its private keys do not match its public keys"
        )
    return secret
