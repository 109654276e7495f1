"""The text picture of a Dark Agent view, at most 80 columns.

The area is drawn line by line: the line letter, its satellites as seat
numbers (``n`` neutral, ``.`` a free slot), then the 5 cells from the
satellites outwards; a selected cell is marked ``*``, an AIM that cannot be
attacked (a sentry or an enemy spy next to it) ``#``. The seats follow, then
the last events.
"""

from __future__ import annotations

from pbem.games.base import fit_lines
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
    lines = header(view) + grid(view)
    lines.append(f"decks: area {view.area_deck}, equipment {view.eq_deck}, discards {view.eq_discard}"
                 + (f"; in use: {', '.join(view.effects)}" if view.effects else "")
                 + (f"; turned spy: {view.turned}" if view.turned else ""))
    lines += seat_lines(view)
    if view.log:
        lines.append("Last events:")
        lines += [f"  {line}" for line in view.log]
    return "\n".join(fit_lines(lines))
