"""Armored text: a pbem file as plain text that survives being mailed.

A block looks like this (lines of at most 64 characters)::

    -----BEGIN PBEM FILE-----
    Game: agent-avenue
    Game-Id: 3f2a9c01d4e5b6a7
    Seq: 3
    Writer: alice

    eyJmb3JtYXQiOiJwYmVtLzEiLCJraW5kIjoidHVybiIsImJ5IjoiYWxpY2UiLC...
    ...
    =Ab3x
    -----END PBEM FILE-----

The body is the file's exact bytes in standard base64 cut into lines of 64
characters; the line starting with ``=`` is a CRC-24 of those bytes (the
checksum of OpenPGP's ASCII armor: initial value 0xB704CE, generator
0x1864CFB), itself in base64. The checksum only catches damage done on the
way, so that a mangled block is named at once; it is no security: a file
is trusted only once its signature verifies, which `pbem apply` checks. The
header lines are for the people reading the mail and are never trusted;
their values are single words of at most 40 characters, so that no mail
client needs to break them.

Reading (`find_blocks`) is deliberately lenient about everything that is
not the data: the markers are found anywhere in a text, after quote marks
(``>``, ``> >``, ``>>`` at any depth, with or without the space) are taken
off every line. Inside a block the text is read as words, not lines: the
header words (``Key: value``) come first, every other word is base64, and
the word ``=XXXX`` is the checksum. So a mail client may rewrap the block to
any width (even breaking base64 lines), turn line endings into CRLF, strip
trailing spaces or indent it, and the same bytes come out. Mail files
(`.eml`, `.mbox`) are read with the standard library's `email` and
`mailbox` packages: quoted-printable and base64 bodies are decoded, text and
HTML parts are searched for blocks, and an attachment holding a raw pbem
file is taken as it is.

This module moves bytes: it knows no game rules and no crypto beyond the
checksum.
"""

from __future__ import annotations

import base64
import binascii
import email
import email.message
import email.policy
import html
import mailbox
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import FormatError

BEGIN = "-----BEGIN PBEM FILE-----"
END = "-----END PBEM FILE-----"
WIDTH = 64

_BEGIN = re.compile(r"-----BEGIN\s+PBEM\s+FILE-----")
_END = re.compile(r"-----END\s+PBEM\s+FILE-----")
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]*)+", re.MULTILINE)
_HEADER_KEY = re.compile(r"^[A-Za-z][A-Za-z-]*:$")
_CHECKSUM = re.compile(r"^=([A-Za-z0-9+/]{4})$")
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]+=*|=+)$")
_HEADER_VALUE = re.compile(r"^[^\s]{1,40}$")

_CRC24_INIT = 0xB704CE
_CRC24_POLY = 0x1864CFB


def _crc24_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= _CRC24_POLY
        table.append(crc & 0xFFFFFF)
    return table


_TABLE = _crc24_table()


def crc24(data: bytes) -> int:
    """The CRC-24 of OpenPGP (RFC 4880, section 6.1)."""
    crc = _CRC24_INIT
    for byte in data:
        crc = ((crc << 8) & 0xFFFFFF) ^ _TABLE[(crc >> 16) ^ byte]
    return crc


def checksum_word(data: bytes) -> str:
    return "=" + base64.b64encode(crc24(data).to_bytes(3, "big")).decode()


class BadBlock(FormatError):
    """An armored block whose text is damaged or fails its checksum."""


@dataclass
class Found:
    """One pbem file found in a text or a mail; `where` says where, for
    messages ("mail.eml, block 2 (seq 3 by alice)")."""

    data: bytes
    where: str
    headers: dict[str, str] = field(default_factory=dict)


# --- writing -----------------------------------------------------------------------


def armor(data: bytes, headers: dict[str, str] | Iterable[tuple[str, str]] = ()) -> str:
    """One block holding `data`, with informational `headers` (single words)."""
    items = headers.items() if isinstance(headers, dict) else headers
    lines = [BEGIN]
    for key, value in items:
        value = str(value)
        if not _HEADER_KEY.match(key + ":") or not _HEADER_VALUE.match(value):
            raise ValueError(f"armor header {key}: {value!r} must be one word of at most 40 characters")
        lines.append(f"{key}: {value}")
    lines.append("")
    text = base64.b64encode(bytes(data)).decode()
    lines += [text[i:i + WIDTH] for i in range(0, len(text), WIDTH)]
    lines += [checksum_word(bytes(data)), END]
    return "\n".join(lines) + "\n"


# --- reading text ----------------------------------------------------------------------


def unquote(text: str) -> str:
    """`text` with every line's quote marks taken off (any depth)."""
    return _QUOTE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def find_blocks(text: str, source: str) -> tuple[list[Found], list[BadBlock]]:
    """Every armored block in `text`: the files read, and the blocks that
    are damaged (each error names `source` and the block's number)."""
    plain = unquote(text)
    found: list[Found] = []
    bad: list[BadBlock] = []
    pos, number = 0, 0
    while True:
        begin = _BEGIN.search(plain, pos)
        if begin is None:
            return found, bad
        number += 1
        end = _END.search(plain, begin.end())
        nxt = _BEGIN.search(plain, begin.end())
        if end is None or (nxt is not None and nxt.start() < end.start()):
            bad.append(BadBlock(f"{source}, block {number}: no {END} line (the block is cut short)"))
            if nxt is None:
                return found, bad
            pos = nxt.start()
            continue
        pos = end.end()
        try:
            found.append(_read_block(plain[begin.end():end.start()], f"{source}, block {number}"))
        except BadBlock as exc:
            bad.append(exc)


def _read_block(inner: str, where: str) -> Found:
    headers, words = _split_headers(inner)
    label = where + _describe(headers)
    checks = [w for w in words if _CHECKSUM.match(w)]
    if not checks:
        raise BadBlock(f"{label}: the checksum line (=XXXX) is missing", hint="ask for the file again")
    *body, last = words
    if last != checks[-1] or len(checks) > 1:
        raise BadBlock(f"{label}: the text after its checksum line is damaged", hint="ask for the file again")
    for word in body:
        if not _BASE64.match(word):
            shown = word if len(word) <= 20 else word[:20] + "..."
            raise BadBlock(f"{label}: {shown!r} is not base64 (the block is damaged)", hint="ask for the file again")
    try:
        data = base64.b64decode("".join(body), validate=True)
    except (binascii.Error, ValueError):
        raise BadBlock(f"{label}: the base64 text is damaged (cut short or changed)", hint="ask for the file again") from None
    if checksum_word(data) != last:
        raise BadBlock(f"{label} failed its checksum: the text was changed on the way", hint="ask for the file again")
    return Found(data=data, where=label, headers=headers)


def _split_headers(inner: str) -> tuple[dict[str, str], list[str]]:
    """The header lines (as far as they can be read) and the words after them.

    The headers end at the first blank line (a rewrapping mail client keeps
    paragraphs apart, so even a value it broke at a hyphen stays among the
    headers). Without a blank line, headers are read as `Key: word` pairs.
    """
    lines = inner.split("\n")
    words = inner.split()
    if not words or not _HEADER_KEY.match(words[0]):
        return {}, words
    first = next(i for i, line in enumerate(lines) if line.strip())
    blank = next((i for i in range(first, len(lines)) if not lines[i].strip()), None)
    headers: dict[str, str] = {}
    if blank is not None:
        key = None
        for word in " ".join(lines[first:blank]).split():
            if _HEADER_KEY.match(word):
                key = word[:-1]
                headers[key] = ""
            elif key is not None:
                headers[key] += word
        words = " ".join(lines[blank:]).split()
    i = 0
    while i + 1 < len(words) and _HEADER_KEY.match(words[i]):
        headers[words[i][:-1]] = words[i + 1]
        i += 2
    return headers, words[i:]


def _describe(headers: dict[str, str]) -> str:
    seq, writer = headers.get("Seq"), headers.get("Writer")
    if seq is None and writer is None:
        return ""
    return f" (seq {seq or '?'} by {writer or '?'})"


# --- reading mail ----------------------------------------------------------------------


def looks_like_mail(data: bytes) -> bool:
    """An RFC 5322 message: header lines first, and at least one that mail has."""
    head = data.lstrip()[:4096].replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    lines = [l for l in head.split(b"\n") if l and not l[:1].isspace()]
    if not lines or not all(re.match(rb"^[!-9;-~]+:", l) for l in lines):
        return False
    names = {l.split(b":", 1)[0].lower() for l in lines}
    return bool(names & {b"from", b"subject", b"content-type", b"mime-version", b"message-id"})


def find_in_message(message: email.message.Message, source: str) -> tuple[list[Found], list[BadBlock]]:
    """Every pbem file in a message: blocks in its text and HTML parts (with
    their transfer encoding undone) and raw pbem files attached."""
    found: list[Found] = []
    bad: list[BadBlock] = []
    for part in message.walk():
        if part.is_multipart() or part.get_content_maintype() == "message":
            continue
        payload = part.get_payload(decode=True)
        if not payload:
            continue
        filename = part.get_filename()
        label = f"{source}, attachment {filename}" if filename else source
        if payload.lstrip()[:1] == b"{":  # a raw file, attached as it is
            found.append(Found(data=payload, where=label))
            continue
        text = payload.decode(part.get_content_charset() or "utf-8", errors="replace")
        if part.get_content_subtype() == "html":
            text = html.unescape(re.sub(r"(?:<br\s*/?>|</p>|</div>)[ \t]*\r?\n?", "\n", text, flags=re.I))
            text = re.sub(r"<[^>]*>", "", text)
        more, wrong = find_blocks(text, label)
        found += more
        bad += wrong
    return found, bad


def find_in_bytes(data: bytes, source: str) -> tuple[list[Found], list[BadBlock]]:
    """Every pbem file in what was saved from a mail client: an mbox (many
    messages), one message, or plain pasted text."""
    if data.startswith(b"From "):
        return _find_in_mbox_bytes(data, source)
    if looks_like_mail(data):
        return find_in_message(email.message_from_bytes(data, policy=email.policy.compat32), source)
    return find_blocks(data.decode("utf-8", errors="replace"), source)


def find_in_file(path: Path, data: bytes) -> tuple[list[Found], list[BadBlock]]:
    """`find_in_bytes` for a file; an `.mbox` is read with `mailbox`."""
    if path.suffix.lower() == ".mbox" or data.startswith(b"From "):
        found: list[Found] = []
        bad: list[BadBlock] = []
        box = mailbox.mbox(str(path), create=False)
        try:
            for i, message in enumerate(box, 1):
                more, wrong = find_in_message(message, f"{path.name}, message {i}")
                found += more
                bad += wrong
        finally:
            box.close()
        return found, bad
    return find_in_bytes(data, path.name)


def _find_in_mbox_bytes(data: bytes, source: str) -> tuple[list[Found], list[BadBlock]]:
    """An mbox read from a pipe: split at its ``From `` lines."""
    found: list[Found] = []
    bad: list[BadBlock] = []
    chunks = re.split(rb"(?:^|\r?\n)From [^\n]*\n", data)
    for i, chunk in enumerate((c for c in chunks if c.strip()), 1):
        message = email.message_from_bytes(chunk, policy=email.policy.compat32)
        more, wrong = find_in_message(message, f"{source}, message {i}")
        found += more
        bad += wrong
    return found, bad
