"""Limits every pbem file obeys, checked on the raw bytes before parsing.

A parser is only as safe as its worst input. msgspec decodes a file nested a
thousand brackets deep by recursion (RecursionError), accepts integers of any
size that it then cannot encode again (OverflowError when the state is
hashed), and would happily build a list of a million points that the peer
deck then spends minutes on. So before any file (signed or not, received or
our own) is handed to a decoder, `check_limits` scans its bytes once and
refuses, with a `FormatError` naming the limit, anything outside the bounds
below. The bounds are part of the format `pbem/1` (docs/protocol.md,
"Limits"): far above what any game writes, far below what hurts.

It also refuses a control or format character in any string (`check_texts`):
a text that reaches a terminal must not be able to command it.

The scan is cheap (regular expressions over the bytes, a loop over the
brackets and commas that remain outside strings) and deliberately shallow: it knows JSON's lexical structure only,
never a file's meaning, so it holds for every file kind and every game,
including games that do not exist yet. Whatever it lets through still goes
to the strict decoders; what it refuses never reaches them.
"""

from __future__ import annotations

import re

from pbem.errors import FormatError
from pbem.safetext import text_problem

__all__ = ["MAX_FILE_BYTES", "MAX_DEPTH", "MAX_ITEMS", "MAX_STRING", "MAX_INT", "check_limits", "check_size",
           "check_texts"]

MAX_FILE_BYTES = 1 << 20
"""A pbem file is at most 1 MiB (the largest real files are tens of KiB)."""

MAX_DEPTH = 32
"""Lists and objects nest at most 32 deep (real files: under 10)."""

MAX_ITEMS = 10_000
"""A list holds at most 10,000 values; an object at most 10,000 entries."""

MAX_STRING = 256 * 1024
"""A string is at most 262,144 characters as written (escapes counted as written)."""

MAX_INT = 2**53 - 1
"""Integers lie in -(2**53 - 1) .. 2**53 - 1 (exact in every JSON reader);
no fractions or exponents: pbem files carry no floats."""

# a string: runs of plain bytes between escapes (the unrolled form is many
# times faster than one alternation per byte); an unterminated one runs to the end
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NUMBER = re.compile(rb"-?[0-9][0-9.eE+-]*")
_INT = re.compile(rb"-?[0-9]+")
_INT_DIGITS = len(str(MAX_INT))
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b"[]{},")


def check_size(size: int, what: str = "file") -> None:
    """Refuse a file larger than MAX_FILE_BYTES (call before reading it all)."""
    if size > MAX_FILE_BYTES:
        raise FormatError(
            f"{what} is too large for a pbem file (the limit is {MAX_FILE_BYTES} bytes)",
            hint="pbem files are small; this is not one, or it is damaged",
        )


def check_limits(data: bytes, what: str = "file") -> None:
    """Refuse `data` (FormatError) unless it is within every limit above.

    Strings are found first (so brackets and digits inside them do not
    count), then what is left is reduced to its brackets and commas, which
    give the depth and the size of every container.
    """
    data = bytes(data)
    check_size(len(data), what)
    check_texts(data, what)
    if _within_at_a_glance(data):
        return
    for m in _STRING.finditer(data):
        if m.end() - m.start() - 2 > MAX_STRING:
            raise FormatError(f"{what} has a string longer than {MAX_STRING} characters")
    rest = _STRING.sub(b'""', data)
    for tok in _NUMBER.findall(rest):
        if not _INT.fullmatch(tok):
            raise FormatError(f"{what} has a number that is not an integer ({_short(tok)}): pbem files carry no floats")
        digits = tok.lstrip(b"-")
        if len(digits) > _INT_DIGITS or int(digits) > MAX_INT:
            raise FormatError(f"{what} has an integer out of range ({_short(tok)}; the limit is +-{MAX_INT})")
    commas: list[int] = []  # per open container, the commas seen in it
    for byte in rest.translate(None, _NOT_STRUCTURE):
        if byte == 44:  # ","
            if commas:
                commas[-1] += 1
                if commas[-1] >= MAX_ITEMS:
                    raise FormatError(f"{what} has a list or object of more than {MAX_ITEMS} items")
        elif byte in (91, 123):  # "[", "{"
            commas.append(0)
            if len(commas) > MAX_DEPTH:
                raise FormatError(f"{what} is nested more than {MAX_DEPTH} levels deep")
        elif commas:
            commas.pop()


#: where a control or format character can hide in JSON text: an escape,
#: or a run of bytes past ASCII (whole UTF-8 sequences; raw C0 bytes are
#: no JSON inside a string, and whitespace outside one)
_SUSPECT_TEXT = re.compile(rb"\\u[0-9a-fA-F]{4}|\\[^u]|[\x7f-\xff]+")
_ESCAPED = {b"b": "\b", b"f": "\f", b"n": "\n", b"r": "\r", b"t": "\t"}


def check_texts(data: bytes, what: str = "file") -> None:
    """Refuse a file whose strings hold a character a terminal would obey
    (`pbem.safetext`: controls, format characters, line separators; a tab
    passes), written as it is or as an escape: no text a game file
    carries may clear a screen, write a clipboard or reorder a line when
    it is shown (issue #20). One pass over the bytes; escapes of a
    backslash are read as such, never as the start of another escape. A
    byte-order mark before the object is damage that `codec.normalise`
    repairs, not a text."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    if data.isascii() and b"\\" not in data and b"\x7f" not in data:
        return  # the common case (base64 and plain words), at the speed of memchr
    for m in _SUSPECT_TEXT.finditer(data):
        token = m.group()
        if token[:1] == b"\\":
            kind = token[1:2]
            text = chr(int(token[2:], 16)) if kind == b"u" else _ESCAPED.get(kind, "")
        else:
            text = token.decode("utf-8", "replace")
        problem = text_problem(text, allow="\t")
        if problem is not None:
            raise FormatError(f"{what} has {problem} in a text",
                              hint="pbem never writes one: the file was made by other means")


_SUSPECT_NUMBER = re.compile(rb"[0-9][.eE+-]|[0-9]{%d}" % _INT_DIGITS)
_OPENERS_AND_CLOSERS = (b"[]", b"{}", b"[}", b"{]")
_GLANCE_PASSES = MAX_DEPTH // len(_OPENERS_AND_CLOSERS)


def _within_at_a_glance(data: bytes) -> bool:
    """True when `data` is plainly within every limit, found without a
    Python loop over its bytes (the common case, and most of the cost of
    reading a file otherwise); False means "look closely", never "refused".

    No string can be too long in a file shorter than MAX_STRING; no number
    is a fraction, an exponent or out of range when no digit is followed by
    ``. e E + -`` and none runs to as many digits as MAX_INT; no container
    holds MAX_ITEMS values when the whole file has fewer commas; and the
    depth is at most MAX_DEPTH when the brackets vanish within
    MAX_DEPTH / 4 passes that each delete adjacent open-close pairs (each
    of a pass's four deletions takes away at most one level).
    """
    if len(data) > MAX_STRING:
        return False
    rest = _STRING.sub(b'""', data)
    if _SUSPECT_NUMBER.search(rest):
        return False
    structure = rest.translate(None, _NOT_STRUCTURE)
    if structure.count(b",") >= MAX_ITEMS:
        return False
    brackets = structure.replace(b",", b"")
    for _ in range(_GLANCE_PASSES):
        if not brackets:
            return True
        for pair in _OPENERS_AND_CLOSERS:
            brackets = brackets.replace(pair, b"")
    return not brackets


def _short(tok: bytes) -> str:
    text = tok.decode("ascii", "replace")
    return text if len(text) <= 24 else text[:20] + "..."
