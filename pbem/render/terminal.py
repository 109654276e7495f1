"""Terminal pictures of a view: in colour (rich) on a terminal, plain text
otherwise, never wider than 80 columns.

Each game keeps its pictures beside its rules: the text picture
(`Presentation.render`) and, named by `Presentation.rich_view`, a module whose
``render(view)`` returns a rich renderable. This module picks one and
prints it. rich is imported here only inside functions, and only the
commands that draw (`show`, `play`) call them, so no other command (and no
game) ever loads it. rich honours ``NO_COLOR`` (no colours, the words and
layout unchanged) and ``TERM=dumb``.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from typing import IO, Any, Callable

from pbem.games.base import TERMINAL_WIDTH, Game
from pbem.render import wants_rich
from pbem.safetext import clean, unfiltered


def console(stream: IO[str] | None = None, width: int | None = None) -> Any:
    """A rich Console on `stream` at most 80 columns wide. No markup, no
    automatic highlighting: words from the game are printed as they are.
    It writes beneath the CLI's filter (`pbem.safetext.SafeText`), which
    would take rich's own colour codes out: what it prints is cleaned
    instead (`renderable`, `Screen.line`)."""
    from rich.console import Console

    con = Console(file=unfiltered(sys.stdout if stream is None else stream), markup=False, highlight=False, emoji=False)
    con.width = min(width or con.width, TERMINAL_WIDTH)
    return con


def renderable(game: Game, view: Any) -> Any:
    """The game's rich picture of `view` (its text picture when it has none),
    held to 80 columns even on a wider terminal (free text wraps there),
    its text cleaned of control characters."""
    from rich.constrain import Constrain

    if game.presentation.rich_view is None:
        from rich.text import Text

        return _Cleaned(Constrain(Text(game.presentation.render(view)), TERMINAL_WIDTH))
    return _Cleaned(Constrain(importlib.import_module(game.presentation.rich_view).render(view), TERMINAL_WIDTH))


class _Cleaned:
    """A rich renderable whose text is `clean`ed segment by segment, after
    layout: rich keeps a segment's text apart from its style, so the colour
    codes it writes for the style stay while the text loses whatever
    control characters a game's data put in it (they take no columns, so
    the layout holds)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.segment import Segment

        for seg in console.render(self.inner, options):
            yield seg if seg.control else Segment(clean(seg.text), seg.style)


def compact_renderable(game: Game, view: Any) -> Any:
    """The game's compact board in colour where its colour module draws one
    (a ``compact(view)`` beside its ``render``), else its compact text."""
    module = importlib.import_module(game.presentation.rich_view) if game.presentation.rich_view else None
    if module is not None and hasattr(module, "compact"):
        return module.compact(view)
    from rich.text import Text

    return Text(game.presentation.compact(view))


def show(game: Game, view: Any, *, plain: bool, stream: IO[str] | None = None) -> None:
    """Print `view` on `stream` (stdout) as colour or as text."""
    stream = sys.stdout if stream is None else stream
    if wants_rich(plain, stream):
        console(stream).print(renderable(game, view))
    else:
        stream.write(plain_words(game, view))
        stream.flush()


def plain_words(game: Game, view: Any) -> str:
    """`view` as plain text, ending with a newline (what `show` prints
    without colour, and what `pbem show` remembers)."""
    text = game.presentation.render(view)
    return text if text.endswith("\n") else text + "\n"


class Screen:
    """What `pbem play` draws on and reads from: the board, lines of a given
    kind (``error`` and ``hint`` on stderr, the others on stdout), and
    answers to a prompt (`ask` raises EOFError when the input ends)."""

    STYLES = {
        "error": "bold red",
        "hint": "yellow",
        "heading": "bold",
        "note": "green",
        "menu": "",
        "dim": "dim",
    }

    def __init__(
        self,
        ask: Callable[[str], str],
        *,
        plain: bool = False,
        out: IO[str] | None = None,
        err: IO[str] | None = None,
    ) -> None:
        self.ask = ask
        self.out = sys.stdout if out is None else out
        self.err = sys.stderr if err is None else err
        self.rich = wants_rich(plain, self.out)
        self._consoles: dict[str, Any] = {}
        #: the terminal's height, which `pbem play` fits its screen to
        self.rows = shutil.get_terminal_size((TERMINAL_WIDTH, 24)).lines if self.rich else 24

    def _console(self, which: str) -> Any:
        if which not in self._consoles:
            self._consoles[which] = console(self.err if which == "err" else self.out)
        return self._consoles[which]

    def board(self, game: Game, view: Any, full: bool = False) -> None:
        """The compact board of `pbem play` (`Presentation.compact`), or the whole picture."""
        if full:
            if self.rich:
                self._console("out").print(renderable(game, view))
            else:
                show(game, view, plain=True, stream=self.out)
        elif self.rich:
            self._console("out").print(compact_renderable(game, view))
        else:
            self.out.write(game.presentation.compact(view).rstrip("\n") + "\n")
            self.out.flush()

    def line(self, text: str, kind: str = "") -> None:
        to_err = kind in ("error", "hint")
        if self.rich:
            from rich.text import Text

            self._console("err" if to_err else "out").print(Text(clean(text), style=self.STYLES.get(kind, "")))
        else:
            stream = self.err if to_err else self.out
            stream.write(text + "\n")
            stream.flush()
