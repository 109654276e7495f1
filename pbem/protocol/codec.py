"""Reading and writing signed files: verify the exact bytes, then decode.

The order matters (age, STYLE.md): a signature is checked over the bytes of
`body` exactly as they stand in the file, before any of it is interpreted,
so one byte string means one thing and nothing unauthenticated is ever
acted on.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

from pbem.crypto.encoding import FORMAT, b64e, canonical, sha256
from pbem.crypto.envelope import check_envelope
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.crypto.limits import check_limits
from pbem.crypto.sign import domain, sign, verify
from pbem.errors import FormatError
from pbem.protocol.formats import GenesisBody, SignedFile, TurnBody

T = TypeVar("T")

_signed_decoder = msgspec.json.Decoder(SignedFile)


def encode_signed(kind: str, body: msgspec.Struct, signer: SecretIdentity) -> bytes:
    """A signed file: canonical body bytes, signed with the kind's domain."""
    body_bytes = canonical(body)
    sig = sign(signer, domain(kind), body_bytes)
    outer = SignedFile(format=FORMAT, kind=kind, by=signer.name, body=msgspec.Raw(body_bytes), sig=sig)
    return msgspec.json.encode(outer) + b"\n"


def read_envelope(data: bytes, kind: str | None = None) -> SignedFile:
    """Parse the outer object only; FormatError for anything malformed.

    The limits of the format (size, depth, list and string lengths, integer
    range: `pbem.crypto.limits`) are checked on the raw bytes first, so no
    decoder ever sees a file outside them.
    """
    check_limits(data, f"this {kind or 'pbem'} file")
    try:
        outer = _signed_decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise FormatError(f"not a pbem file (garbled or truncated): {exc}") from None
    if outer.format != FORMAT:
        raise FormatError(f"unsupported format {outer.format!r} (this pbem reads {FORMAT})")
    if kind is not None and outer.kind != kind:
        raise FormatError(f"expected a {kind} file, got a {outer.kind} file")
    if data != msgspec.json.encode(outer) + b"\n":
        # Strict: one file, one byte string (no reformatting, no extra fields).
        raise FormatError("file is not in canonical form (edited or damaged)")
    return outer


_BOM = b"\xef\xbb\xbf"
_SPACE = b" \t\r\n"


def normalise(data: bytes) -> tuple[bytes, str | None]:
    """The bytes pbem would have written, when `data` differs from them only
    outside the JSON object: CRLF line endings, a missing or extra final
    newline, blank lines or spaces around it, a byte-order mark. Returns the
    canonical bytes and what was wrong (None when nothing was).

    Such damage (a mail client, an editor, a sync tool) touches no signed
    byte, so the repaired file means exactly what its writer signed. Any
    other difference is left alone, for `read_envelope` to refuse.
    """
    data = bytes(data)
    stripped = data.removeprefix(_BOM).strip(_SPACE)
    fixed = stripped + b"\n"
    if fixed == data or not stripped.startswith(b"{"):
        return data, None
    try:
        check_limits(fixed)
        outer = _signed_decoder.decode(fixed)
    except (FormatError, msgspec.DecodeError, msgspec.ValidationError):
        return data, None
    if msgspec.json.encode(outer) + b"\n" != fixed:
        return data, None
    return fixed, _damage(data)


def _damage(data: bytes) -> str:
    """Say what `normalise` repaired, in words a user recognises."""
    found = []
    if data.startswith(_BOM):
        found.append("a byte-order mark")
        data = data[len(_BOM):]
    if b"\r" in data:
        found.append("CRLF line endings" if b"\r\n" in data else "carriage returns")
    if data[:1] in (b" ", b"\t", b"\r", b"\n"):
        found.append("blank lines or spaces before the file")
    tail = data[len(data.rstrip(_SPACE)):].replace(b"\r", b"")
    if not tail:
        found.append("no final newline")
    elif tail != b"\n":
        found.append("extra blank lines or spaces at the end")
    return ", ".join(found) or "spaces around the file"


def body_bytes(outer: SignedFile) -> bytes:
    return bytes(outer.body)


def file_hash(outer: SignedFile) -> str:
    """The hash that names a file in the chain: SHA-256 of its exact body."""
    return b64e(sha256(body_bytes(outer)))


def check_signature(outer: SignedFile, signer: PublicIdentity) -> None:
    verify(signer, domain(outer.kind), body_bytes(outer), outer.sig)


def decode_body(outer: SignedFile, body_type: type[T]) -> T:
    """Decode a body (only after its signature was checked)."""
    raw = body_bytes(outer)
    try:
        body = msgspec.json.decode(raw, type=body_type)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise FormatError(f"malformed {outer.kind} body: {exc}") from None
    if canonical(body) != raw:
        raise FormatError(f"{outer.kind} body is not in canonical form")
    return body


def check_envelopes(body: GenesisBody | TurnBody) -> None:
    """Every sealed envelope a file carries must at least be well formed:
    what only its readers can check (that it opens) they check on reading."""
    boxes = [d.envelope for d in body.deliveries]
    if isinstance(body, GenesisBody):
        boxes += [body.dealer.seed_box] if body.dealer else []  # a genesis has one of the two
        boxes += [body.peer.secret_box] if body.peer else []
    else:
        boxes += [s.envelope for s in body.sealed]
        boxes += [body.join.secret_box] if body.join else []
        boxes += [body.memo] if body.memo else []
        boxes += [body.renewal.box] if body.renewal else []
        boxes += [body.handover.box] if body.handover else []
        boxes += [body.rekey.box] if body.rekey else []
    for box in boxes:
        check_envelope(box, readers=1)  # pbem seals every envelope to one reader
