"""Texts that cannot take over a terminal: the characters pbem refuses in
what games and files carry, and strips from whatever it prints.

A terminal obeys control characters in what it shows: ESC starts sequences
that clear the screen, move the cursor, retitle the window, write the
clipboard (OSC 52) or hide a link behind a word (OSC 8); a carriage return
or a backspace overwrites what was shown, and the C1 characters
(U+0080..U+009F) are the same commands in one character on some
terminals. Format characters do it quietly: the bidirectional controls
(U+202A..U+202E, U+2066..U+2069) reorder a line, zero-width ones hide or
join letters, and the line and paragraph separators break a line where
none shows. Their Unicode categories are Cc, Cf, Zl and Zp: `UNSAFE`
names every such character (the tab and the newline of pbem's own output
apart).

Two layers, so that one missed check is not a hole:

* every text a game file or an option carries is refused when it holds
  one (`text_problem`): the bytes of every pbem file (`pbem.crypto.limits`),
  every ``--option`` at `pbem new`, and the games' own texts (a Dark Agent
  catalogue's names), as Codenames words already are;
* everything pbem prints, whatever its source (a file name in a shared
  folder, a mail's sender, an error quoting bad input), has them taken out
  (`clean`): the CLI's standard output and error pass through `SafeText`,
  the colour pictures through `pbem.render.terminal`, and a page or picture
  file through `clean` before it is written.

Pure and small: games import it (it knows nothing else of pbem).
"""

from __future__ import annotations

import io
import re
from typing import IO

#: control characters but the tab and the newline (C0, DEL, C1), and the
#: format characters and separators of Unicode 15 (categories Cf, Zl, Zp);
#: a test compares it with the `unicodedata` of the running Python
_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)


def _pattern(name: str) -> re.Pattern[str]:
    """``STRIP`` (what is stripped from output) or ``UNSAFE`` (what a text
    may not hold: the tab and the newline too), compiled on first use (`re`
    keeps it): most texts are printable (`str.isprintable`, which is False
    for every character of `_CLASS`), and compiling the class costs every
    command about a millisecond (issue #26)."""
    return re.compile(f"[{_CLASS}]" if name == "STRIP" else f"[\t\n{_CLASS}]")


def __getattr__(name: str) -> re.Pattern[str]:
    if name == "UNSAFE":
        return _pattern(name)
    raise AttributeError(name)


def text_problem(text: str, allow: str = "") -> str | None:
    """Why `text` may not be shown as it is (the first control or format
    character in it, named by its code point), or None. Characters in
    `allow` (a tab in the lines of an option file) pass."""
    if text.isprintable():
        return None
    for m in _pattern("UNSAFE").finditer(text):
        if m.group() not in allow:
            return f"a control or format character (U+{ord(m.group()):04X})"
    return None


def clean(text: str) -> str:
    """`text` without the characters a terminal would obey (newlines and
    tabs stay): what pbem prints, whatever it came from."""
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return _pattern("STRIP").sub("", text)


class SafeText(io.TextIOBase):
    """A text stream that `clean`s everything written to it, over another
    (`unfiltered`: for rich, whose own colour codes must pass and whose
    texts `pbem.render.terminal` cleans itself)."""

    def __init__(self, stream: IO[str]) -> None:
        self.unfiltered = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.unfiltered.write(clean(text))
        return len(text)

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        """Nothing: the stream beneath is not this one's to close."""

    def flush(self) -> None:
        self.unfiltered.flush()

    def isatty(self) -> bool:
        return self.unfiltered.isatty()

    def fileno(self) -> int:
        return self.unfiltered.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.unfiltered.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.unfiltered.errors

    @property
    def buffer(self) -> "SafeBytes":
        """The binary side, cleaned too (click writes bytes there)."""
        return SafeBytes(self.unfiltered.buffer)


class SafeBytes(io.RawIOBase):
    """The binary side of a `SafeText`: bytes are cleaned as UTF-8 text
    (bytes that are not UTF-8 pass as they are)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.unfiltered = stream

    def write(self, data: bytes) -> int:  # type: ignore[override]
        text = bytes(data).decode("utf-8", "surrogateescape")
        self.unfiltered.write(clean(text).encode("utf-8", "surrogateescape"))
        return len(data)

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        """Nothing: the stream beneath is not this one's to close."""

    def flush(self) -> None:
        self.unfiltered.flush()


def unfiltered(stream: IO[str]) -> IO[str]:
    """The stream beneath a `SafeText` (any other stream as it is)."""
    return stream.unfiltered if isinstance(stream, SafeText) else stream
