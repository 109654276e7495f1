"""Bytes as text, canonical JSON, and strict reading of pbem files.

Every pbem file is one JSON object whose first field is ``"format": "pbem/1"``
and whose second is ``"kind"``. Bytes inside files are base64url *without*
padding, stored as `str` fields typed `B64`.

Decoding is strict on purpose (age's rule: one byte string means one thing).
`b64d` rejects padding, foreign characters, non-zero trailing bits and wrong
lengths, so a key or a signature has exactly one spelling in a file. And
`decode_file` refuses anything that does not re-encode to the very same bytes
(duplicate keys, reordered fields, stray spaces), so no two readers can
disagree about what a file says.

`canonical` is the encoding of everything that gets signed, hashed or
committed to: msgspec JSON with keys (and Struct fields) sorted, so the same
content always gives the same bytes. `domain` and `check_domain` spell the
signing domains (`pbem.crypto.sign` says why they exist).
"""

# (no postponed annotations: msgspec reads these at once)

import base64
import binascii
import functools
import hashlib
import re
from typing import Annotated, Any, Final, TypeVar

import msgspec

from pbem.crypto.limits import check_limits
from pbem.errors import FormatError

__all__ = [
    "FORMAT", "B64", "Strict", "b64e", "b64d", "sha256", "canonical",
    "encode_file", "decode_file", "domain", "check_domain",
]

FORMAT: Final = "pbem/1"
"""The version of every file and the prefix of every crypto label."""

B64 = Annotated[str, msgspec.Meta(pattern="^[A-Za-z0-9_-]*$")]
"""Bytes in a file: base64url without padding (decode with `b64d`)."""

_B64_RE = re.compile(r"[A-Za-z0-9_-]*")

_CANONICAL = msgspec.json.Encoder(order="sorted")
_FILE = msgspec.json.Encoder()  # Struct fields in declared order: format, kind, ...

T = TypeVar("T")


class Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of the crypto file Structs: immutable, and unknown fields are errors."""


def b64e(data: bytes) -> str:
    """Encode bytes as base64url without padding."""
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")


def b64d(text: str, length: int | None = None) -> bytes:
    """Decode base64url without padding, strictly.

    Raises FormatError for padding, characters outside ``A-Z a-z 0-9 - _``,
    an impossible length, non-zero unused trailing bits (a second spelling of
    the same bytes), or a decoded length other than `length` when given.
    Keys, hashes and refs are decoded again and again while a chain is
    replayed: the results are remembered (errors are not).
    """
    if not isinstance(text, str):
        raise FormatError(f"expected base64url text, got {type(text).__name__}")
    return _b64d(text, length)


@functools.lru_cache(maxsize=4096)
def _b64d(text: str, length: int | None) -> bytes:
    if not _B64_RE.fullmatch(text):
        raise FormatError("bad base64url: only A-Z a-z 0-9 - _ are allowed, without '=' padding")
    if len(text) % 4 == 1:
        raise FormatError("bad base64url: truncated")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - regex makes this unreachable
        raise FormatError(f"bad base64url: {exc}") from None
    if b64e(data) != text:
        raise FormatError("bad base64url: non-canonical trailing bits")
    if length is not None and len(data) != length:
        raise FormatError(f"bad length: expected {length} bytes, got {len(data)}")
    return data


def sha256(data: bytes) -> bytes:
    """SHA-256 digest (32 bytes)."""
    return hashlib.sha256(data).digest()


def canonical(obj: Any) -> bytes:
    """The canonical JSON bytes of `obj`: sorted keys and fields, no spaces.

    Use it for everything that is signed, hashed or committed to.
    """
    return _CANONICAL.encode(obj)


def encode_file(obj: msgspec.Struct) -> bytes:
    """Encode a file Struct (fields in declared order, so ``format`` comes first).

    A single trailing newline keeps the file friendly to ``cat`` and editors;
    `decode_file` accepts trailing whitespace and nothing else extra.
    """
    return _FILE.encode(obj) + b"\n"


class _Header(msgspec.Struct):
    format: Any = None
    kind: Any = None


def decode_file(data: bytes, type: type[T], kind: str) -> T:
    """Decode a file of `kind` into `type`, strictly; FormatError on any problem.

    The header is read first so that the error says what is really wrong
    ("this is a turn file, not an identity file"; "unknown format pbem/2")
    rather than which field failed to match.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise FormatError(f"expected the bytes of a {kind} file")
    data = bytes(data)
    check_limits(data, f"the {kind} file")
    try:
        header = msgspec.json.decode(data, type=_Header)
    except msgspec.DecodeError as exc:
        raise FormatError(f"not a pbem {kind} file: {_why(exc)}") from None
    if header.format != FORMAT:
        if isinstance(header.format, str):
            raise FormatError(
                f"unknown file format {header.format!r}; this pbem reads {FORMAT}",
                hint="a newer pbem may read it" if header.format.startswith("pbem/") else None,
            )
        raise FormatError(f"not a pbem file (no \"format\": \"{FORMAT}\")")
    if header.kind != kind:
        raise FormatError(f"this is a {header.kind!r} file, not a {kind!r} file")
    try:
        obj = msgspec.json.decode(data, type=type)
    except msgspec.DecodeError as exc:
        raise FormatError(f"bad {kind} file: {_why(exc)}") from None
    if _FILE.encode(obj) != data.strip(b" \t\r\n"):
        raise FormatError(
            f"bad {kind} file: not in the form pbem writes "
            "(duplicate or reordered fields, or extra spaces)"
        )
    return obj


def _why(exc: Exception) -> str:
    return str(exc).replace("\n", " ")


# --- signing domains (`pbem.crypto.sign`) -------------------------------------

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
