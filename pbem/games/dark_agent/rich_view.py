"""The colour terminal picture of a Dark Agent view (rich), within 80 columns.

A pure function of the view: the same lines as the text picture, the area
as a table whose cells are tinted by kind (a spy in its seat's colour);
the ``*`` (spotted) and ``#`` (protected AIM) marks stay, so it reads the
same without colour, and the legend under the area says what they mean. rich is imported inside the function, never with the
rules.
"""

from __future__ import annotations

from typing import Any

from pbem.games.base import fit_lines

from pbem.games.dark_agent.render import LEGEND, cell_text, header, sat_marks, seat_lines
from pbem.games.dark_agent.state import CELLS_PER_LINE, LINE_NAMES
from pbem.games.dark_agent.view import View

KIND_STYLES = {
    "sentry": "white", "aim": "bold yellow", "kara": "bold reverse", "special": "red",
    "equipment": "cyan", "empty": "dim", "hidden": "dim",
}
SEAT_STYLES = ("bold green", "bold dodger_blue1", "bold magenta", "bold yellow", "bold cyan", "bold red")


def render(view: View) -> Any:
    from rich.console import Group
    from rich.text import Text

    numbers = {s.name: s.number for s in view.seats}
    parts: list[Any] = [Text(line, style="bold") for line in header(view)]
    if view.prompt:
        parts.append(Text(view.prompt, style="italic"))
    rows = [Text("        " + "".join(f" {p + 1}".ljust(13) for p in range(CELLS_PER_LINE)), style="dim")]
    for ln, letter in enumerate(LINE_NAMES):
        row = Text(f"{letter} ", style="bold")
        row.append(sat_marks(view.sats[ln]) + " ", style="dim")
        for c in view.cells[ln * CELLS_PER_LINE:(ln + 1) * CELLS_PER_LINE]:
            style = KIND_STYLES.get(c.kind, "")
            if c.kind == "spy":
                style = SEAT_STYLES[(numbers.get(c.spy, 1) - 1) % len(SEAT_STYLES)]
            if c.selected:
                style += " underline"
            row.append(cell_text(c), style=style)
        row.rstrip()
        rows.append(row)
    parts += rows
    parts += [Text(line, style="dim") for line in fit_lines(LEGEND)]
    extra = f"decks: area {view.area_deck}, equipment {view.eq_deck}, discards {view.eq_discard}"
    if view.effects:
        extra += f"; in use: {', '.join(view.effects)}"
    parts.append(Text(extra, style="dim"))
    for k, line in enumerate(seat_lines(view)):
        seat = view.seats[k // 2]
        parts.append(Text(line, style=SEAT_STYLES[(seat.number - 1) % len(SEAT_STYLES)] if k % 2 == 0 else ""))
    for line in view.log:
        parts.append(Text(f"  {line}", style="dim"))
    return Group(*parts)
