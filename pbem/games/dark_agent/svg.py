"""An SVG picture of a Dark Agent view (`pbem show --svg`, `pbem page`).

A pure function of the seat's view: it can only draw what the view holds
(other seats' equipment appears as a count). The area is 7 rows (lines
A-G), each with its 3 satellite slots on the left (a disc with the seat's
number, ``n`` neutral, an empty ring a free slot) and its 5 cells. Colour
is never the only mark: each cell carries a letter for its kind (S sentry,
A AIM, K Kara, X special, E equipment, a seat number for a spy), a selected
cell a thick frame and the word "spotted", a protected AIM a hatched
corner and "#". Each cell is a ``<g class="cell" data-cell="A1"
data-kind="...">``.
"""

from __future__ import annotations

from pbem.games.dark_agent.state import CELLS_PER_LINE, LINE_NAMES, SLOTS
from pbem.games.dark_agent.view import CellView, View
from pbem.games.picture import MONO, document, el, text

CELL_W, CELL_H, GAP = 128, 54, 6
LEFT = 150
TOP = 70
WIDTH = LEFT + CELLS_PER_LINE * (CELL_W + GAP) + 20
INK = "#222222"
FILL = {
    "sentry": "#d6d6d6", "aim": "#f3d37a", "kara": "#555555", "special": "#f2a7a0",
    "equipment": "#a9cfe8", "spy": "#b9e3b0", "empty": "#fbfbf7", "hidden": "#cccccc",
}
LETTER = {"sentry": "S", "aim": "A", "kara": "K", "special": "X", "equipment": "E", "empty": "", "hidden": "?"}
SEAT_COLOURS = ("#2e7d32", "#1565c0", "#8e24aa", "#ef6c00", "#00838f", "#c62828")


def _cell(c: CellView, x: float, y: float, numbers: dict[str, int]) -> str:
    fill = FILL.get(c.kind, "#ffffff")
    ink = "#ffffff" if c.kind == "kara" else INK
    parts = [el("rect", x=x, y=y, width=CELL_W, height=CELL_H, rx=6, fill=fill,
                stroke=INK, stroke_width=4 if c.selected else 1)]
    letter = str(numbers.get(c.spy, "")) if c.kind == "spy" else LETTER.get(c.kind, "")
    if letter:
        parts.append(text(x + 8, y + 20, letter, size=16, font_weight="bold", fill=ink))
    if c.label:
        parts.append(text(x + 28, y + 20, c.label, size=13, fill=ink))
    note = []
    if c.selected:
        note.append("spotted")
    if c.protected:
        note.append("# protected")
    if note:
        parts.append(text(x + 8, y + 44, " ".join(note), size=11, fill=ink))
    if c.protected:
        parts.append(el("path", d=f"M{x + CELL_W - 18} {y} L{x + CELL_W} {y} L{x + CELL_W} {y + 18} Z",
                        fill=INK, fill_opacity=0.6))
    return el("g", *parts, class_="cell", data_cell=c.cell, data_kind=c.kind)


def _sats(line: list[int], y: float) -> str:
    parts = []
    for k in range(SLOTS):
        cx, cy = 50 + k * 30, y + CELL_H / 2
        if k < len(line):
            n = line[k]
            colour = "#777777" if n == 0 else SEAT_COLOURS[(n - 1) % len(SEAT_COLOURS)]
            parts.append(el("circle", cx=cx, cy=cy, r=12, fill=colour, stroke=INK))
            parts.append(text(cx, cy + 5, "n" if n == 0 else n, size=13, fill="#ffffff",
                              text_anchor="middle", font_weight="bold"))
        else:
            parts.append(el("circle", cx=cx, cy=cy, r=12, fill="none", stroke=INK, stroke_dasharray="3 3"))
    return "".join(parts)


def render_svg(view: View) -> str:
    numbers = {s.name: s.number for s in view.seats}
    body = [text(20, 30, f"Dark Agent, round {view.round}: {view.phase_words}", size=18, font_weight="bold")]
    if view.prompt:
        body.append(text(20, 54, view.prompt, size=13))
    for p in range(CELLS_PER_LINE):
        body.append(text(LEFT + p * (CELL_W + GAP) + CELL_W / 2, TOP - 4, p + 1, size=12, text_anchor="middle"))
    for ln, letter in enumerate(LINE_NAMES):
        y = TOP + ln * (CELL_H + GAP)
        body.append(text(14, y + CELL_H / 2 + 6, letter, size=18, font_weight="bold"))
        body.append(_sats(view.sats[ln], y))
        for p in range(CELLS_PER_LINE):
            c = view.cells[ln * CELLS_PER_LINE + p]
            body.append(_cell(c, LEFT + p * (CELL_W + GAP), y, numbers))
    y = TOP + 7 * (CELL_H + GAP) + 20
    for s in view.seats:
        colour = SEAT_COLOURS[(s.number - 1) % len(SEAT_COLOURS)]
        body.append(el("circle", cx=26, cy=y - 5, r=9, fill=colour))
        body.append(text(22, y, s.number, size=12, fill="#ffffff", font_weight="bold"))
        hand = ", ".join(s.hand) if s.hand is not None else f"{s.hand_count} hidden"
        marks = [m for m, on in (("double-spy", s.double), ("last AIM", s.last_aim), ("super", s.super_left)) if on]
        line = (f"{s.name[:20]}: {s.score} pts, {s.power}; board {','.join(map(str, s.board)) or '-'}; "
                f"area {' '.join(s.deployed) or '-'}; equipment {hand or '-'}; taken {len(s.taken)}"
                + (f"; {', '.join(marks)}" if marks else ""))
        body.append(text(42, y, line, size=13))
        y += 22
    if view.last_roll:
        body.append(text(20, y + 4, f"last roll: {' '.join(map(str, view.last_roll))}", size=13, font_family=MONO))
        y += 22
    for entry in view.log[-4:]:
        body.append(text(20, y + 4, entry, size=12, fill="#444444"))
        y += 18
    height = int(y + 20)
    return document(WIDTH, height, f"Dark Agent, round {view.round}", *body, background="#f7f5ee")
