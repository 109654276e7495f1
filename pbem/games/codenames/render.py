"""A terminal picture of a Codenames view: the 5x5 grid and the turn.

The grid is 76 columns wide whatever the words (a new user's terminal has
80): each cell has 13 columns of text after a one-column margin; a longer
word is wrapped inside its cell (after its hyphen when it has one), never
cut and never widening the grid. Under the word(s) each cell has a label
line, spelled out so that nothing depends on colour or on telling one
letter from another:

* ``[RED AGENT]`` ``[BLUE AGENT]`` ``[BYSTANDER]`` ``[ASSASSIN]``: covered
  (guessed), upper case in brackets; everyone sees these;
* ``red agent`` ``blue agent`` ``bystander`` ``!!ASSASSIN!!``: not yet
  covered, as the key shows it (only the spymasters see these);
* no label: not yet covered, and the viewer does not know what it is.

`cell_lines` and `LABEL` are shared with the colour picture
(`pbem.games.codenames.rich_view`), so both say the same thing.
"""

from __future__ import annotations

from pbem.games.base import fit_lines
from pbem.games.codenames.view import Cell, TeamView, TurnView, View

#: columns of text in a cell (after a one-column margin): 5 cells of 14
#: plus 6 borders make 76 columns
CELL_TEXT = 13

#: covered cells: what everyone sees
COVERED_LABEL = {
    "red": "[RED AGENT]",
    "blue": "[BLUE AGENT]",
    "bystander": "[BYSTANDER]",
    "assassin": "[ASSASSIN]",
}
#: uncovered cells as the key shows them (spymasters only)
KEY_LABEL = {
    "red": "red agent",
    "blue": "blue agent",
    "bystander": "bystander",
    "assassin": "!!ASSASSIN!!",
}


def wrap_word(word: str, width: int = CELL_TEXT) -> list[str]:
    """`word` in lines of at most `width` characters: split after its
    hyphen when both parts fit, otherwise in chunks."""
    if len(word) <= width:
        return [word]
    head, sep, tail = word.partition("-")
    if sep and len(head) + 1 <= width:
        return [head + sep] + wrap_word(tail, width)
    return [word[i : i + width] for i in range(0, len(word), width)]


def label(cell: Cell) -> str:
    """The label line of a cell ("" when the viewer does not know it)."""
    if cell.colour is None:
        return ""
    return (COVERED_LABEL if cell.covered else KEY_LABEL).get(cell.colour, "?")


def cell_lines(cell: Cell, height: int) -> list[str]:
    """The cell as `height` lines of text (word lines, blank, label last)."""
    words = wrap_word(cell.word)
    return words + [""] * (height - 1 - len(words)) + [label(cell)]


def row_height(cells: list[Cell]) -> int:
    return max(len(wrap_word(c.word)) for c in cells) + 1


def legend(view: View) -> str:
    if view.sees_key:
        return "[RED AGENT] ... covered; red agent, bystander, !!ASSASSIN!! ...: your key"
    return "[RED AGENT] [BLUE AGENT] [BYSTANDER] [ASSASSIN]: covered; no label: unknown"


def grid_lines(view: View) -> list[str]:
    return boxed_grid([[cell_lines(c, row_height(view.cells[r * 5 : r * 5 + 5])) for c in view.cells[r * 5 : r * 5 + 5]]
                       for r in range(5)])


def boxed_grid(rows: list[list[list[str]]]) -> list[str]:
    """Rows of cells, each cell a list of text lines (all cells of a row
    equally tall, each line at most `CELL_TEXT`), boxed: 76 columns for 5."""
    rule = "+" + "+".join("-" * (CELL_TEXT + 1) for _ in rows[0]) + "+"
    lines = [rule]
    for columns in rows:
        for i in range(len(columns[0])):
            lines.append("|" + "|".join(" " + col[i].ljust(CELL_TEXT) for col in columns) + "|")
        lines.append(rule)
    return lines


def team_line(t: TeamView) -> str:
    ops = ", ".join(f"{o} (captain)" if o == t.captain else o for o in t.operatives) or "-"
    return f"{t.team}: spymaster {t.spymaster or '-'}; operatives {ops}"


def turn_line(turn: TurnView) -> str:
    text = f"{turn.team} clue: {turn.clue} {turn.number}"
    if turn.status == "pending":
        text += " (awaiting review)"
    if turn.concern:
        text += f"\n  checks: {turn.concern}"
    elif turn.status == "objected":
        text += " (objected)"
    if turn.guesses:
        shown = ", ".join(f"{g.word} ({g.colour or '?'})" for g in turn.guesses)
        text += f"; guessed {shown}"
    if turn.end:
        text += f"; ended: {turn.end}"
    if turn.cover:
        text += f"; then covered {turn.cover}"
    return text


def render(view: View) -> str:
    who = view.viewer or "observer"
    role = f" ({view.role})" if view.role else ""
    lines = [f"Codenames, {view.variant} game, {view.language}: {who}{role}"]
    score = "; ".join(f"{t.team} {t.left} of {t.agents} agents left" for t in view.teams)
    lines.append(f"{view.starting} started; {score}")
    lines += grid_lines(view)
    lines.append(legend(view))
    for t in view.teams:
        if t.spymaster or t.operatives:
            lines.append(team_line(t))
    if view.turn is not None:
        lines.append(turn_line(view.turn))
    lines += footer_lines(view)
    return "\n".join(fit_lines(lines))


def footer_lines(view) -> list[str]:
    """Guesses left, what waits to be revealed, and the outcome or who is
    next: the same in every variant's view."""
    lines = []
    if view.guesses_left is not None:
        lines.append(f"guesses left: {view.guesses_left}")
    if view.pending:
        lines.append("waiting to be revealed: " + " ".join(view.pending))
    if view.outcome is not None:
        winners = ", ".join(view.outcome.winners) or "nobody"
        lines.append(f"game over: {view.outcome.reason}; winners: {winners}")
    else:
        lines.append(f"next: {view.prompt}")
    return lines


# --- the compact board (`pbem play`) ----------------------------------------------------

#: columns of a compact cell: the word (cut with "." beyond 12) and a mark
COMPACT_CELL = 15
#: a compact cell's mark: covered (everyone) / uncovered as the key shows it
COMPACT_COVERED = {"red": "[R]", "blue": "[B]", "bystander": "[N]", "assassin": "[X]"}
COMPACT_KEY = {"red": "r", "blue": "b", "bystander": "n", "assassin": "X!"}


def compact_word(word: str, mark: str) -> str:
    """A cell of the compact grid: the word, cut to leave room for its mark."""
    room = COMPACT_CELL - 1 - len(mark) if mark else COMPACT_CELL
    shown = word if len(word) <= room else word[: room - 1] + "."
    return (shown + (" " + mark if mark else "")).ljust(COMPACT_CELL)[:COMPACT_CELL]


def compact_mark(cell: Cell) -> str:
    if cell.colour is None:
        return ""
    return (COMPACT_COVERED if cell.covered else COMPACT_KEY).get(cell.colour, "?")


def compact_legend(view: View) -> str:
    covered = "[R] [B] [N] [X]: covered red, blue, bystander, assassin"
    return covered + ("; r b n X!: your key" if view.sees_key else "")


def compact(view: View) -> str:
    """The grid in five lines (a word and its mark per cell), the score,
    the clue: about nine lines for `pbem play` (the full picture: `render`)."""
    score = "; ".join(f"{t.team} {t.left} of {t.agents} left" for t in view.teams)
    lines = [f"{score}; {view.starting} started"]
    for r in range(5):
        lines.append(" ".join(compact_word(c.word, compact_mark(c)) for c in view.cells[r * 5 : r * 5 + 5]).rstrip())
    lines.append(compact_legend(view))
    if view.turn is not None:
        lines += turn_line(view.turn).splitlines()
    lines += footer_lines(view)[:-1]  # the heading above the menu says who is next
    return "\n".join(fit_lines(lines))
