"""The text picture of a Dark Agent view, at most 80 columns.

The area is drawn line by line: the line letter, its satellites as seat
numbers (``n`` neutral, ``.`` a free slot), then the 5 cells from the
satellites outwards; a selected cell is marked ``*``, an AIM that cannot be
attacked (a sentry or an enemy spy next to it) ``#``. A legend under the
area says what each mark and label means. The seats follow, then the last
events. `compact` is the dozen lines `pbem play` shows.
"""

from __future__ import annotations

from pbem.games.base import compact_lines, fit_lines
from pbem.games.dark_agent.state import CELLS_PER_LINE, LINE_NAMES, SLOTS
from pbem.games.dark_agent.view import CellView, View

CELL_WIDTH = 13


def sat_marks(line: list[int]) -> str:
    marks = ["n" if n == 0 else str(n) for n in line]
    return "[" + "".join(marks + ["."] * (SLOTS - len(marks))) + "]"


def cell_text(c: CellView) -> str:
    mark = "*" if c.selected else ("#" if c.protected else " ")
    label = c.label or "."
    return (mark + label).ljust(CELL_WIDTH)[:CELL_WIDTH]


def header(view: View) -> list[str]:
    goal = f"ends after {view.target} AIMs" + (" and Kara" if view.kara_needed else "")
    if view.solo:
        goal = f"solo: {view.target} targets (Kara counts), 10+{view.target} rounds"
    lines = [f"Dark Agent, round {view.round}: {view.phase_words}; {goal}; nuclear +{view.nuclear}"]
    if view.outcome is not None:
        who = ", ".join(view.outcome.winners) or "nobody"
        lines.append(f"Game over: {who} won ({view.outcome.reason})")
    elif view.to_act:
        lines.append(f"To act: {', '.join(view.to_act)}   (turn order this round: {' '.join(view.order)})")
    return lines


def grid(view: View) -> list[str]:
    out = ["        " + "".join(f" {p + 1}".ljust(CELL_WIDTH) for p in range(CELLS_PER_LINE))]
    for ln, letter in enumerate(LINE_NAMES):
        cells = view.cells[ln * CELLS_PER_LINE:(ln + 1) * CELLS_PER_LINE]
        out.append(f"{letter} {sat_marks(view.sats[ln])} " + "".join(cell_text(c) for c in cells).rstrip())
    return out


#: what the marks and labels of the area mean (under the area)
LEGEND = [
    "[12n.] the line's satellites: seat numbers, n neutral, . a free slot; * spotted;"
    " # an AIM protected from attack (a sentry or an enemy spy next to it)",
    "Sen 16 L1: sentry, defence 16, level 1; AIM 20 +1: defence 20, 1 investigation token;"
    " KARA 18: Kara, defence 18; bob:3: bob's spy of level 3; . empty",
]
#: the same in one line, for the compact board
SHORT_LEGEND = "* spotted  # protected AIM  [sats: seat no., n neutral]  Sen/AIM/KARA: defence"


def seat_lines(view: View) -> list[str]:
    out = []
    for s in view.seats:
        marks = []
        if s.double:
            marks.append("double-spy token")
        if s.last_aim:
            marks.append("last-AIM chip")
        if s.super_left:
            marks.append("super-satellite")
        if view.phase == "vote" and s.voted:
            marks.append("voted")
        hand = (", ".join(s.hand) or "none") if s.hand is not None else f"{s.hand_count} card(s), hidden"
        out.append(
            f"{s.number} {s.name}: {s.score} points; power {s.power}; spies on board "
            f"{','.join(map(str, s.board)) or '-'}, in area {' '.join(s.deployed) or '-'}"
        )
        out.append(f"    equipment: {hand}; taken: {', '.join(s.taken) or '-'}"
                   + (f"; {', '.join(marks)}" if marks else ""))
    return out


def render(view: View) -> str:
    lines = header(view) + grid(view) + LEGEND
    lines.append(f"decks: area {view.area_deck}, equipment {view.eq_deck}, discards {view.eq_discard}"
                 + (f"; in use: {', '.join(view.effects)}" if view.effects else "")
                 + (f"; turned spy: {view.turned}" if view.turned else ""))
    lines += seat_lines(view)
    if view.log:
        lines.append("Last events:")
        lines += [f"  {line}" for line in view.log]
    return "\n".join(fit_lines(lines))


def compact(view: View) -> str:
    """The area, a one-line legend, the viewer's seat, the others' scores
    and the last event: at most a dozen lines for `pbem play` (with many
    seats the last event and the column numbers are left out)."""
    grid_lines = grid(view)
    mine, others = [], []
    for s in view.seats:
        spies = f"spies {','.join(map(str, s.board)) or '-'} | {' '.join(s.deployed) or '-'}"
        if s.hand is not None:
            mine.append(f"{s.number} {s.name} (you) {s.score} pts, {spies}; equipment: {', '.join(s.hand) or 'none'}")
        else:
            others.append(f"{s.number} {s.name} {s.score} pts, {spies}")
    return compact_lines([
        (grid_lines[:1], True), (grid_lines[1:], False), ([SHORT_LEGEND], False), (mine, False),
        (["; ".join(others)] if others else [], False), ([f"last: {view.log[-1]}"] if view.log else [], True),
    ])
