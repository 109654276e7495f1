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
file is taken as it is. A web page saved from a browser (a forum post,
`pbem outbox --forum`) is read as the browser shows its text
(`html_text`). A mail is parsed only when it is within the size
and nesting limits the parser can take (`read_message`); every reader
here is one pass over its text, so its work grows with the text's length
and no faster.

This module moves bytes: it knows no game rules and no crypto beyond the
checksum.
"""

from __future__ import annotations

import base64
import binascii
import email
import email.message
import email.parser
import email.policy
import html
import mailbox
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import FormatError
from pbem.transport import MAX_TEXT_BYTES

BEGIN = "-----BEGIN PBEM FILE-----"
END = "-----END PBEM FILE-----"
WIDTH = 64

_MARKER = re.compile(r"-----(BEGIN|END)\s+PBEM\s+FILE-----")
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]*)+", re.MULTILINE)
_HEADER_KEY = re.compile(r"^[A-Za-z][A-Za-z-]*:$")
_CHECKSUM = re.compile(r"^=([A-Za-z0-9+/]{4})$")
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]+=*|=+)$")
_HEADER_VALUE = re.compile(r"^[^\s]{1,40}$")
#: an HTML tag: it ends at the first ``>`` and never spans another ``<``,
#: so a text of many ``<`` and no ``>`` is read in one pass
_TAG = re.compile(r"<[^<>]*>")

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
    are damaged (each error names `source` and the block's number).

    One pass over the markers, in order: a BEGIN pairs with the marker
    after it when that is an END; when it is another BEGIN (or nothing),
    the block is cut short. So the work is linear in the text, however
    many markers it holds and however they are (mis)matched."""
    plain = unquote(text)
    found: list[Found] = []
    bad: list[BadBlock] = []
    markers = [(m.group(1) == "BEGIN", m) for m in _MARKER.finditer(plain)]
    number = 0
    for i, (is_begin, begin) in enumerate(markers):
        if not is_begin:
            continue  # an END with no BEGIN before it: not a block
        number += 1
        after = markers[i + 1] if i + 1 < len(markers) else None
        if after is None or after[0]:
            bad.append(BadBlock(f"{source}, block {number}: no {END} line (the block is cut short)"))
            continue
        try:
            found.append(_read_block(plain[begin.end():after[1].start()], f"{source}, block {number}"))
        except BadBlock as exc:
            bad.append(exc)
    return found, bad


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

#: the most MIME containers (multipart and message parts) a mail may hold:
#: the standard library's parser and `Message.walk` recurse once per level
#: of nesting, so a mail nested 2,000 deep would exhaust Python's stack. A
#: mail pbem sends holds one; mail clients add a few.
MAX_MIME_CONTAINERS = 100
#: what opens a MIME container (a part holding parts), in any case
_CONTAINERS = (b"multipart/", b"message/")


def read_message(data: bytes, source: str) -> email.message.Message:
    """A mail, parsed by the standard library once it is known to be
    within `MAX_MIME_CONTAINERS` and `MAX_TEXT_BYTES` (`BadBlock`
    otherwise, naming `source`).

    Every container is declared by a content type ``multipart/...`` or
    ``message/...``, so counting those words in the mail's bytes (in any
    case, wherever they stand) bounds the nesting of any structure the
    parser could build, in one pass and before it runs."""
    if len(data) > MAX_TEXT_BYTES:
        raise BadBlock(f"{source} is larger than {MAX_TEXT_BYTES >> 20} MiB: not read")
    lowered = data.lower()
    if sum(lowered.count(word) for word in _CONTAINERS) > MAX_MIME_CONTAINERS:
        raise BadBlock(f"{source} holds more than {MAX_MIME_CONTAINERS} nested MIME parts: not read")
    return email.message_from_bytes(data, policy=email.policy.compat32)


#: a mail address inside a From header (the first one)
_ADDRESS = re.compile(r"[^\s<>()\[\],;:\"@]+@[^\s<>()\[\],;:\"@]+")
#: headers are read from the first 256 KiB of a mail (they come first)
_HEAD_BYTES = 256 << 10


def sender_and_subject(data: bytes) -> tuple[str, str]:
    """Who a mail says it is from and its subject (the first 80
    characters), read from its headers alone, so that even a mail that
    cannot be read is reported with them. The standard library's address
    parser recurses on nested comments and groups (a From of many ``(``
    exhausts the stack), so the address is found with a plain pattern."""
    head = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(data[:_HEAD_BYTES])
    raw = " ".join(str(head.get("From", "")).split())[:1000]
    found = _ADDRESS.search(raw)
    sender = found.group() if found else raw[:80] or "an unknown sender"
    return sender, " ".join(str(head.get("Subject", "")).split())[:80]


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
            text = html_text(text)
        more, wrong = find_blocks(text, label)
        found += more
        bad += wrong
    return found, bad


def find_in_bytes(data: bytes, source: str) -> tuple[list[Found], list[BadBlock]]:
    """Every pbem file in what was saved from a mail client or a browser:
    an mbox (many messages), one message, a web page (a forum post saved
    as HTML), or plain pasted text."""
    if data.startswith(b"From "):
        return _find_in_mbox_bytes(data, source)
    if looks_like_mail(data):
        return _find_in_mail(data, source)
    text = data.decode("utf-8", errors="replace")
    if looks_like_html(data):
        text = html_text(text)
    return find_blocks(text, source)


def looks_like_html(data: bytes) -> bool:
    """A web page as a browser saves it: it starts with its doctype or its
    ``<html>`` tag (after a byte-order mark, blanks or a comment)."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:512].lower()
    if head.startswith(b"<!--"):
        head = head.partition(b"-->")[2].lstrip()
    return head.startswith((b"<!doctype html", b"<html"))


#: a line break in HTML's source: a <br>, or the end of a paragraph or a div
_BREAK = re.compile(r"(?:<br\s*/?>|</p>|</div>)[ \t]*\r?\n?", re.I)
#: an element whose content is no text of the page (a script's data may
#: hold an escaped copy of a block, which would read as a damaged one)
_NOT_TEXT = re.compile(r"<(script|style|template)\b[^<>]*>", re.I)


def html_text(text: str) -> str:
    """The text of an HTML page or mail part, as a browser shows it for
    copying: scripts and styles left out, line breaks kept, tags taken
    out, entities undone. One pass over the text: each element left out
    is searched for its end once, from where it starts."""
    kept = []
    lowered = text.lower()
    at = 0
    for m in _NOT_TEXT.finditer(text):
        if m.start() < at:
            continue  # inside an element already left out
        kept.append(text[at:m.start()])
        end = lowered.find(f"</{m.group(1).lower()}", m.end())
        at = len(text) if end < 0 else end
    kept.append(text[at:])
    return html.unescape(_TAG.sub("", _BREAK.sub("\n", "".join(kept))))


def find_in_file(path: Path, data: bytes) -> tuple[list[Found], list[BadBlock]]:
    """`find_in_bytes` for a file; an `.mbox` is read with `mailbox`."""
    if path.suffix.lower() == ".mbox" or data.startswith(b"From "):
        found: list[Found] = []
        bad: list[BadBlock] = []
        box = mailbox.mbox(str(path), create=False)
        try:
            for i, key in enumerate(box.keys(), 1):
                more, wrong = _find_in_mail(box.get_bytes(key), f"{path.name}, message {i}")
                found += more
                bad += wrong
        finally:
            box.close()
        return found, bad
    return find_in_bytes(data, path.name)


def _find_in_mail(data: bytes, source: str) -> tuple[list[Found], list[BadBlock]]:
    """`find_in_message` of one mail's bytes; a mail that cannot be read is
    one bad block, and the mails beside it are still read."""
    try:
        message = read_message(data, source)
    except BadBlock as exc:
        return [], [exc]
    return find_in_message(message, source)


def _find_in_mbox_bytes(data: bytes, source: str) -> tuple[list[Found], list[BadBlock]]:
    """An mbox read from a pipe: split at its ``From `` lines."""
    found: list[Found] = []
    bad: list[BadBlock] = []
    chunks = re.split(rb"(?:^|\r?\n)From [^\n]*\n", data)
    for i, chunk in enumerate((c for c in chunks if c.strip()), 1):
        more, wrong = _find_in_mail(chunk, f"{source}, message {i}")
        found += more
        bad += wrong
    return found, bad
