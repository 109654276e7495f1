"""`pbem play`: the board, a compact menu of the legal commands, a prompt.

The loop knows nothing of click: it draws on and reads from a `Screen`
(`pbem.render.terminal`), so it is tested with a fake one as well as in a
real pseudo-terminal. What it promises a player:

* **The last message stays in sight.** After every redraw of the board the
  last error (or note: what was written, what was not) is printed again
  right above the menu, so a long board never scrolls it away.
* **A compact menu.** Commands are numbered once, in the rules' order, and
  grouped by their first word (``play``, ``discard``, ``clue``, ``guess``
  ...), laid out in columns; a long group shows its first rows and ``m``
  shows them all, with the same numbers.
* **Numbers mean numbers.** An answer of digits only is a menu number; one
  out of range says so and is never read as notation.
* **Nothing is written unconfirmed.** The chosen command is checked, shown
  in words (`Game.explain`) and written only after a ``y`` (``--yes``
  skips the question).
* ``?`` shows the rules in brief (`Game.summary`); ``q``, end of input or
  Ctrl-C quits without writing anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pbem import actions
from pbem.errors import PbemError
from pbem.games.base import TERMINAL_WIDTH, fit_lines

#: rows of a group shown before the rest is folded behind ``m``
FOLD_ROWS = 2
KEYS = "a number or a command; m: more; ?: rules; q: quit"
QUIT = {"q", "quit", "exit"}
MORE = {"m", "more"}
HELP = {"?", "h", "help"}
YES = {"y", "yes"}


class Screen(Protocol):
    def ask(self, prompt: str) -> str: ...
    def board(self, game: Any, view: Any) -> None: ...
    def line(self, text: str, kind: str = "") -> None: ...


@dataclass
class Menu:
    """The legal commands (notation), numbered from 1, grouped by first word."""

    commands: list[str]
    groups: list[tuple[str, list[int]]] = field(init=False)

    def __post_init__(self) -> None:
        by_kind: dict[str, list[int]] = {}
        for i, text in enumerate(self.commands, 1):
            kind = text.split(maxsplit=1)[0] if text.strip() else "?"
            by_kind.setdefault(kind, []).append(i)
        self.groups = list(by_kind.items())

    def pick(self, answer: str) -> str:
        """The command numbered `answer` (digits only); `MenuError` when out of range."""
        n = int(answer)
        if not 1 <= n <= len(self.commands):
            size = len(self.commands)
            raise MenuError(
                f"there is no command {n}: the menu has {'1' if size == 1 else f'1-{size}'}",
                hint="type a number from the menu, or a command in the game's notation",
            )
        return self.commands[n - 1]

    def lines(self, folded: bool = True, width: int = TERMINAL_WIDTH) -> tuple[list[str], bool]:
        """The menu as lines, and whether some were folded away."""
        num = len(str(len(self.commands)))
        out: list[str] = []
        hidden = False
        for kind, numbers in self.groups:
            items = [f"{i:>{num}}. {self.commands[i - 1]}" for i in numbers]
            cell = max(len(t) for t in items) + 2
            cols = max(1, min(len(items), (width - 2) // cell))
            rows = [items[r : r + cols] for r in range(0, len(items), cols)]
            shown = rows[:FOLD_ROWS] if folded else rows
            out.append(f"{kind} ({len(items)}):" if len(items) > 1 else f"{kind}:")
            for row in shown:
                out.append("  " + "".join(t.ljust(cell) for t in row).rstrip())
            if len(shown) < len(rows):
                rest = sum(len(r) for r in rows[FOLD_ROWS:])
                out.append(f"  ... {rest} more (m shows them)")
                hidden = True
        return fit_lines(out, width), hidden


class MenuError(PbemError):
    """An answer at the prompt that is not a command (e.g. a number out of range)."""


@dataclass
class Message:
    text: str
    kind: str = "note"  # note | error
    hint: str | None = None


def _show_message(screen: Screen, msg: Message | None) -> None:
    if msg is None:
        return
    if msg.kind == "error":
        lines = [(f"pbem: error: {msg.text}", "error")]
        if msg.hint:
            lines.append((f"pbem: hint: {msg.hint}", "hint"))
    else:
        lines = [(msg.text, "note")]
    for text, kind in lines:
        for line in fit_lines([text]):
            screen.line(line, kind)


def _names(paths: list[Path]) -> str:
    return ", ".join(p.name for p in paths)


def _summary(game: Any) -> list[str]:
    text = game.summary.strip() or f"{game.title}: no summary of the rules yet."
    return fit_lines(text.splitlines())


def run(folder: Path, name: str, keys: "actions.Keys", screen: Screen, *, yes: bool = False) -> None:
    """Play `name`'s seat in `folder` until it waits for someone else, the
    game ends or the player quits."""
    message: Message | None = None
    while True:
        chain = actions.open_game(folder, keys, write=True)
        me = actions.party(chain, name, keys)
        if chain.writers() == [name] and chain.needs(name) == "auto":
            said: list[str] = []
            written = actions.sync(folder, name, keys, said)  # owed, and needs no decision
            message = Message(f"wrote {_names(written)} (automatic answers)" if written else "nothing to answer",
                              hint="; ".join(said) or None)
            if not written:
                _show_message(screen, message)
                return
            continue
        screen.line("")
        screen.board(chain.game, actions.view(chain, me))
        if chain.outcome() is not None:
            _show_message(screen, message)
            screen.line("the game is over", "heading")
            return
        commands = actions.legal(chain, me)
        if not commands:
            _show_message(screen, message)
            screen.line(f"waiting for {', '.join(chain.writers()) or 'nobody'}", "heading")
            return
        menu = Menu(commands)
        _show_message(screen, message)
        message = _prompt(folder, name, keys, chain, me, menu, screen, yes)
        if message is None:  # quit
            return


def _prompt(folder, name, keys, chain, me, menu: Menu, screen: Screen, yes: bool) -> Message | None:
    """Ask until something changes the board (a file written, or an error
    to show above the menu). None: the player quits."""
    lines, _ = menu.lines()
    for line in lines:
        screen.line(line, "menu")
    while True:
        screen.line(KEYS, "dim")
        try:
            answer = screen.ask(f"{name}>").strip()
        except (EOFError, KeyboardInterrupt):
            screen.line("quit", "dim")
            return None
        low = answer.lower()
        if not answer:
            continue
        if low in QUIT:
            screen.line("quit", "dim")
            return None
        if low in HELP:
            for line in _summary(chain.game):
                screen.line(line)
            continue
        if low in MORE:
            for line in menu.lines(folded=False)[0]:
                screen.line(line, "menu")
            continue
        try:
            text = menu.pick(answer) if answer.isascii() and answer.isdigit() else answer
            command = actions.parse_commands(chain, me, [text])[0]
        except PbemError as exc:
            return Message(exc.message, "error", exc.hint)
        words = chain.game.explain(command, me.state(), name)
        if not yes:
            screen.line(f"{name} will {words}", "heading")
            try:
                sure = screen.ask("write it? [y/n]").strip().lower()
            except (EOFError, KeyboardInterrupt):
                screen.line("quit", "dim")
                return None
            if sure not in YES:
                return Message(f"not written: {text}")
        said: list[str] = []
        try:
            written = actions.submit(folder, name, [text], keys, said)
        except PbemError as exc:
            return Message(exc.message, "error", exc.hint)
        actions.reported(folder, name, keys)
        return Message(f"wrote {_names(written)}: {name} chose to {words}", hint="; ".join(said) or None)

