"""The colour terminal picture of a Codenames view (rich), 76 columns wide.

A pure function of the view, like the text picture beside it, whose cell
layout and labels it reuses (`pbem.games.codenames.render`): colour only
adds to what the words already say, so the picture reads the same with
``NO_COLOR`` or on a monochrome screen. Covered cells are filled with their
colour; cells known from the key are written in it; the assassin is
reversed. rich is imported inside `render`, never with the rules.
"""

from __future__ import annotations

from typing import Any

from pbem.games.codenames import render as text
from pbem.games.codenames.view import Cell, View

#: team colours (shared with the lines under the grid)
TEAM_STYLE = {"red": "bold red1", "blue": "bold dodger_blue1"}
#: a covered cell: filled with its colour
COVERED_STYLE = {
    "red": "bold bright_white on red3",
    "blue": "bold bright_white on blue3",
    "bystander": "black on wheat1",
    "assassin": "bold bright_white on grey15",
}
#: an uncovered cell as the key shows it (spymasters only)
KEY_STYLE = {
    "red": "bold red1",
    "blue": "bold dodger_blue1",
    "bystander": "dark_khaki",
    "assassin": "bold reverse",
}


def _style(cell: Cell) -> str:
    if cell.colour is None:
        return ""
    return (COVERED_STYLE if cell.covered else KEY_STYLE).get(cell.colour, "")


def _cell(cell: Cell, height: int) -> Any:
    from rich.text import Text

    out = Text(style=_style(cell), end="")
    lines = text.cell_lines(cell, height)
    for i, line in enumerate(lines):
        # a margin and the text padded to the cell's width, so that a fill
        # colours the whole cell; the label in italics
        part = " " + line.ljust(text.CELL_TEXT)
        out.append(part, style="italic" if i == len(lines) - 1 and line else "")
        if i < len(lines) - 1:
            out.append("\n")
    return out


def grid(view: View) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SQUARE, show_header=False, show_lines=True, padding=0, expand=False)
    for _ in range(5):
        table.add_column(width=text.CELL_TEXT + 1, no_wrap=True, overflow="crop")
    for row in range(5):
        cells = view.cells[row * 5 : row * 5 + 5]
        height = text.row_height(cells)
        table.add_row(*[_cell(c, height) for c in cells])
    return table


def _team(team: str) -> Any:
    from rich.text import Text

    return Text(team, style=TEAM_STYLE.get(team, ""))


def teams(view: View) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, expand=False, pad_edge=False)
    table.add_column("team")
    table.add_column("agents left", justify="right")
    table.add_column("spymaster", overflow="fold")
    table.add_column("operatives", overflow="fold")
    for t in view.teams:
        ops = ", ".join(f"{o} (captain)" if o == t.captain else o for o in t.operatives) or "-"
        table.add_row(_team(t.team), f"{t.left} of {t.agents}", t.spymaster or "-", ops)
    return table


def render(view: View) -> Any:
    """A rich renderable of `view` (a group of lines and tables)."""
    from rich.console import Group
    from rich.text import Text

    from pbem.games.codenames.duet_view import DuetView

    if isinstance(view, DuetView):
        return _duet(view)
    who = view.viewer or "observer"
    role = f" ({view.role})" if view.role else ""
    title = Text.assemble(
        ("Codenames", "bold"), f", {view.variant} game, {view.language}: ", (f"{who}{role}", "bold"),
    )
    started = Text.assemble(_team(view.starting), " started")
    parts: list[Any] = [title, started, grid(view), Text(text.legend(view), style="dim"), teams(view)]
    if view.turn is not None:
        line = Text.assemble(_team(view.turn.team), " " + text.turn_line(view.turn)[len(view.turn.team) + 1 :])
        parts.append(line)
    if view.guesses_left is not None:
        parts.append(Text(f"guesses left: {view.guesses_left}"))
    if view.pending:
        parts.append(Text("waiting to be revealed: " + " ".join(view.pending)))
    if view.outcome is not None:
        winners = ", ".join(view.outcome.winners) or "nobody"
        parts.append(Text(f"game over: {view.outcome.reason}; winners: {winners}", style="bold"))
    else:
        parts.append(Text.assemble(("next: ", "bold"), view.prompt))
    return Group(*parts)


def _duet(view) -> Any:
    """Duet: the text grid (already spelled out in words), with the found
    agents and the viewer's own key coloured."""
    from rich.text import Text

    from pbem.games.codenames import duet_view

    text = Text(duet_view.render(view))
    text.highlight_words([duet_view.FOUND_LABEL], style="bold white on green")
    text.highlight_words([duet_view.KEY_LABEL["assassin"]], style="bold white on black")
    text.highlight_regex(r"(?<=\| )agent(?= )", style="bold green")
    return text


def compact(view: Any) -> Any:
    """The compact board of `pbem play` (`render.compact`), each cell in
    the colour of what it shows (covered, or the viewer's key)."""
    from rich.text import Text

    from pbem.games.codenames import duet_view
    from pbem.games.codenames import render as text_view

    duet = isinstance(view, duet_view.DuetView)
    lines = (duet_view.compact(view) if duet else text_view.compact(view)).splitlines()
    mark, style = (duet_view.compact_mark, _duet_style) if duet else (text_view.compact_mark, _style)
    rows = [view.cells[r * 5 : r * 5 + 5] for r in range(5)]
    plain = [" ".join(text_view.compact_word(c.word, mark(c)) for c in row).rstrip() for row in rows]
    out = Text()
    for k, line in enumerate(lines):
        if line in plain:  # a row of the grid: each cell coloured as in the full picture
            for i, cell in enumerate(rows[plain.index(line)]):
                out.append(text_view.compact_word(cell.word, mark(cell)), style=style(cell))
                out.append(" " if i < 4 else "")
        else:
            out.append(line, style="bold" if k == 0 else "")
        out.append("\n" if k < len(lines) - 1 else "")
    return out


def _duet_style(cell: Any) -> str:
    if cell.found:
        return "bold bright_white on green4"
    return {"agent": "bold green3", "assassin": "bold reverse"}.get(cell.mine or "", "")
