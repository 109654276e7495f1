"""`pbem play`: a compact board, whose turn it is, a menu, a prompt.

The loop knows nothing of click: it draws on and reads from a `Screen`
(`pbem.render.terminal`), so it is tested with a fake one as well as in a
real pseudo-terminal of 80x24. What it promises a player:

* **It fits a 24-line terminal.** Each redraw is the game's compact board
  (`Presentation.compact`, at most `COMPACT_ROWS` lines), then, right above the
  prompt, a heading (the game, the seq, whose turn it is and what to do),
  the menu (one line per kind of command) and the last message: so whose
  turn it is and the last error never scroll out of sight. ``b`` shows the
  whole board (the picture of `pbem show`).
* **A compact menu.** Commands are numbered once, in the rules' order, and
  grouped by their first word (``play``, ``clue``, ``guess`` ...), one line
  per group; ``m`` shows every command, with the same numbers.
* **Big choices in two steps.** A group of more than `STEP_AT` commands of
  three words or more (Codex's ``tech A B``: 126 pairs; Dark Agent's
  ``move A>B C>D``) is offered by its first two words: pick the first
  card, then the second from a short list. Typing such a first step
  (``tech eggship``) opens it too.
* **Numbers mean numbers.** An answer of digits only is a menu number; one
  out of range says so and is never read as notation.
* **Nothing is written unconfirmed.** The chosen command is checked, shown
  in words (`Presentation.explain`) and written only after a ``y`` (``--yes``
  skips the question).
* ``?`` shows the rules in brief (`Presentation.summary`); ``q``, end of input or
  Ctrl-C quits without writing anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pbem import actions
from pbem.errors import PbemError
from pbem.games.base import TERMINAL_WIDTH, fit_lines

#: a group with more commands than this, all of 3 words or more, is chosen in two steps
STEP_AT = 24
#: the lines the folded menu takes on a 24-line terminal with a full-size compact board
MENU_ROWS = 6
#: the folded menu never takes more (a taller terminal), nor fewer
MENU_MOST, MENU_LEAST = 12, 3
#: lines kept under the menu for the last message (an error and its hint)
MESSAGE_ROWS = 2
KEYS = "a number or a command; b: board; m: more; ?: rules; q: quit"
QUIT = {"q", "quit", "exit"}
MORE = {"m", "more"}
BOARD = {"b", "board"}
HELP = {"?", "h", "help"}
YES = {"y", "yes"}
BACK = {"", "back"}


class Screen(Protocol):
    rows: int  # the terminal's height (24 when it cannot be told)

    def ask(self, prompt: str) -> str: ...
    def board(self, game: Any, view: Any, full: bool = False) -> None: ...
    def line(self, text: str, kind: str = "") -> None: ...


@dataclass
class Menu:
    """The legal commands (notation), grouped by first word; each group's
    entries numbered from 1 in the rules' order. An entry is a command, or
    the first step of a big group (`steps`: the commands it opens)."""

    commands: list[str]
    entries: list[str] = field(init=False)
    groups: list[tuple[str, list[int]]] = field(init=False)
    steps: dict[str, list[str]] = field(init=False)

    def __post_init__(self) -> None:
        by_kind: dict[str, list[str]] = {}
        for text in self.commands:
            kind = text.split(maxsplit=1)[0] if text.strip() else "?"
            by_kind.setdefault(kind, []).append(text)
        self.entries, self.groups, self.steps = [], [], {}
        for kind, texts in by_kind.items():
            firsts: dict[str, list[str]] = {}
            if len(texts) > STEP_AT and all(len(t.split()) >= 3 for t in texts):
                for t in texts:
                    firsts.setdefault(" ".join(t.split()[:2]), []).append(t)
            if len(firsts) > 1:
                self.steps.update(firsts)
                shown = list(firsts)
            else:
                shown = texts
            start = len(self.entries) + 1
            self.entries += shown
            self.groups.append((kind, list(range(start, start + len(shown)))))

    def pick(self, answer: str) -> str:
        """The entry numbered `answer` (digits only); `MenuError` when out of range."""
        n = int(answer)
        if not 1 <= n <= len(self.entries):
            size = len(self.entries)
            raise MenuError(
                f"there is no command {n}: the menu has {'1' if size == 1 else f'1-{size}'}",
                hint="type a number from the menu, or a command in the game's notation",
            )
        return self.entries[n - 1]

    def step(self, answer: str) -> str | None:
        """The first step `answer` names (as an entry, or typed), if it is one."""
        key = " ".join(answer.split()).lower()
        return next((s for s in self.steps if s.lower() == key), None)

    def _label(self, entry: str, folded: bool) -> str:
        """An entry as the menu shows it: a first step folded to its second
        word (the group's head names the first), unfolded with a count."""
        if entry not in self.steps:
            return entry
        return entry.split()[1] if folded else f"{entry} ... ({len(self.steps[entry])})"

    def lines(self, folded: bool = True, width: int = TERMINAL_WIDTH, rows: int = MENU_ROWS) -> tuple[list[str], bool]:
        """The menu as lines, and whether some entries were folded away.

        Folded: at most `rows` lines, each group on one line at least,
        the lines left over shared out in order among the groups that need
        more; a cut group ends with how many more ``m`` shows. Unfolded:
        every entry, in columns."""
        num = len(str(len(self.entries)))
        laid: list[list[tuple[str, int]]] = []  # per group: (line, entries on it)
        for kind, numbers in self.groups:
            items = [f"{i:>{num}}. {self._label(self.entries[i - 1], folded)}" for i in numbers]
            head = f"{kind} ({len(items)})" if len(items) > 1 else kind
            if folded and self.entries[numbers[0] - 1] in self.steps:
                head = f"{kind} in two steps, first"
            laid.append(_flow(head + ":", items, width, columns=not folded))
        if not folded:
            return [line for group in laid for line, _ in group], False
        out: list[str] = []
        hidden = False
        shown_groups = laid if len(laid) <= rows else laid[: rows - 1]
        spare = rows - len(shown_groups)
        for group in shown_groups:
            take = min(len(group), 1 + spare)
            spare -= take - 1
            out += [line for line, _ in group[:take]]
            if take < len(group):
                hidden = True
                rest = sum(n for _, n in group[take:])
                tail = f" ... +{rest} (m)"
                last, shown = group[take - 1]
                while len(last) + len(tail) > width and "  " in last.strip():
                    last = last.rstrip().rsplit("  ", 1)[0]  # make room: one entry fewer on the line
                    rest += 1
                    tail = f" ... +{rest} (m)"
                out[-1] = last.rstrip() + tail
        if len(shown_groups) < len(laid):
            hidden = True
            rest = sum(len(n) for _, n in self.groups[len(shown_groups):])
            out.append(f"... {rest} more in {len(laid) - len(shown_groups)} more groups (m shows them)")
        return out, hidden


def _flow(head: str, items: list[str], width: int, columns: bool) -> list[tuple[str, int]]:
    """`head` and `items` laid out in lines of at most `width`: flowing after
    the head (folded menu), or in aligned columns under it (the whole menu);
    each line with the number of entries on it."""
    if columns:
        cell = max(len(t) for t in items) + 2
        cols = max(1, min(len(items), (width - 2) // cell))
        rows = [items[r : r + cols] for r in range(0, len(items), cols)]
        return [(head, 0)] + [("  " + "".join(t.ljust(cell) for t in row).rstrip(), len(row)) for row in rows]
    lines: list[tuple[str, int]] = []
    line, count = head, 0
    for item in items:
        if count and len(line) + 2 + len(item) > width:
            lines.append((line, count))
            line, count = "   ", 0
        line += "  " + item
        count += 1
    lines.append((line, count))
    return lines


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
    text = game.presentation.summary.strip() or f"{game.info.title}: no summary of the rules yet."
    return fit_lines(text.splitlines())


def heading(chain: Any, view: Any, name: str) -> list[str]:
    """Whose turn it is and what to do (a line or two): kept right above the menu."""
    prompt = getattr(view, "prompt", "") or f"{name} to play"
    you = "" if re.search(rf"\b{re.escape(name)}\b", prompt) else f" (you are {name})"
    return fit_lines([f"{chain.game.info.title}, seq {chain.seq}: {prompt}{you}"])[:2]


def _heading(screen: Screen, chain: Any, view: Any, name: str) -> None:
    for line in heading(chain, view, name):
        screen.line(line, "heading")


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
        if chain.public is None:  # joins still to come: nothing to show or play yet
            _show_message(screen, message)
            screen.line(f"waiting for {', '.join(chain.writers()) or 'nobody'}: {chain.game.info.title} is set up "
                        "once every seat has joined", "heading")
            return
        view = actions.view(chain, me)
        screen.line("")
        screen.board(chain.game, view)
        if chain.outcome() is not None:
            _show_message(screen, message)
            screen.line("the game is over", "heading")
            return
        commands = actions.legal(chain, me)
        if not commands:
            _show_message(screen, message)
            screen.line(f"waiting for {', '.join(chain.writers()) or 'nobody'}", "heading")
            return
        message = _prompt(folder, name, keys, chain, me, view, Menu(commands), screen, yes, message)
        if message is None:  # quit
            return


def _prompt(folder, name, keys, chain, me, view, menu: Menu, screen: Screen, yes: bool,
            message: Message | None) -> Message | None:
    """Ask until something changes the board (a file written, or an error
    to show above the prompt). None: the player quits."""
    _heading(screen, chain, view, name)
    # what is left of the screen under the board and heading, above the last message, keys and prompt
    board = len(chain.game.presentation.compact(view).splitlines())
    spare = getattr(screen, "rows", 24) - 1 - board - len(heading(chain, view, name)) - MESSAGE_ROWS - 2
    for line in menu.lines(rows=max(MENU_LEAST, min(MENU_MOST, spare)))[0]:
        screen.line(line, "menu")
    _show_message(screen, message)
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
        if low in BOARD:
            screen.board(chain.game, view, full=True)
            _heading(screen, chain, view, name)
            continue
        try:
            text = menu.pick(answer) if answer.isascii() and answer.isdigit() else answer
            first = menu.step(text) if text not in menu.commands else None
            if first is not None:
                text = _second_step(screen, name, first, menu.steps[first])
                if text is None:
                    _heading(screen, chain, view, name)
                    continue
            command = actions.parse_commands(chain, me, [text])[0]
        except PbemError as exc:
            return Message(exc.message, "error", exc.hint)
        words = chain.game.presentation.explain(command, me.state(), name)
        if not yes:
            # "alice: ..." reads right whatever the game's words (a verb, or a unit that attacks)
            screen.line(f"{name}: {words}", "heading")
            try:
                sure = screen.ask("write it? [y/n]").strip().lower()
            except (EOFError, KeyboardInterrupt):
                screen.line("quit", "dim")
                return None
            if sure not in YES:
                return Message(f"not written: {text}")
        said: list[str] = []
        try:
            written = actions.submit(folder, name, [text], keys, said, until_reported=True)
        except PbemError as exc:
            return Message(exc.message, "error", exc.hint)
        actions.reported(folder, name, keys)
        return Message(f"wrote {_names(written)}: {words}", hint="; ".join(said) or None)


def _second_step(screen: Screen, name: str, first: str, commands: list[str]) -> str | None:
    """The second choice of a two-step group: the commands `first` opens,
    numbered from 1 by what follows `first`. None: back to the menu."""
    rest = [c[len(first):].strip() for c in commands]
    num = len(str(len(rest)))
    items = [f"{i:>{num}}. {r}" for i, r in enumerate(rest, 1)]
    cell = max(len(t) for t in items) + 2
    cols = max(1, (TERMINAL_WIDTH - 2) // cell)
    screen.line(f"{first} ... then one of:", "heading")
    for r in range(0, len(items), cols):
        screen.line("  " + "".join(t.ljust(cell) for t in items[r : r + cols]).rstrip(), "menu")
    screen.line("a number or the rest of the command; Enter: back to the menu", "dim")
    try:
        answer = screen.ask(f"{name}> {first}").strip()
    except (EOFError, KeyboardInterrupt):
        return None
    if answer.lower() in BACK:
        return None
    if answer.isascii() and answer.isdigit():
        n = int(answer)
        if not 1 <= n <= len(commands):
            raise MenuError(f"there is no choice {n} after {first!r}: 1-{len(commands)}")
        return commands[n - 1]
    return f"{first} {answer}"
