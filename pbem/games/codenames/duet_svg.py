"""An SVG picture of a Codenames Duet view (`pbem show --svg`, `pbem page`).

A pure function of the seat's `duet_view.DuetView`: a player's own side of
the key is drawn only where the view holds it, so the partner's side never
shows (except the bystanders a guess revealed, which everyone saw), and an
observer's picture holds no key at all. Colour is never the only mark:

* a found agent is a green card marked ``AGENT FOUND`` with a large ``G``;
* on a player's picture an unfound card shows that player's side of the key
  as a frame with a corner tab: ``G`` agent (green), ``N`` bystander (tan),
  ``X`` assassin (hatched, and the word ``ASSASSIN``);
* a bystander a guess revealed carries a small ``bystander a`` / ``b``
  chip for the side it was revealed on;
* an unfound card with no key is a plain light card.

Each cell is a ``<g class="cell" id="cn-cell-N">`` with ``data-word``,
``data-state`` (found, key, unknown) and, where the view holds it,
``data-mine`` (the viewer's own side).
"""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.games.codenames.duet_view import DuetCell, DuetTurn, DuetView
from pbem.games.codenames.svg import CARD, CELL_H, CELL_W, GAP, GRID_X, GRID_Y, INK, PAPER, WIDTH, _defs, _fit
from pbem.games.picture import document, el, text

GREEN = "#2e7d4f"
FILL = {"agent": GREEN, "bystander": "#cdb98f", "assassin": "url(#cn-hatch-dark)"}
TINT = {"agent": "#d5ecdc", "bystander": "#ece3cc", "assassin": "#d6d6d6"}
LETTER = {"agent": "G", "bystander": "N", "assassin": "X"}
MUTED = "#6b604a"


def _origin(cell: DuetCell) -> tuple[float, float]:
    return GRID_X + cell.col * (CELL_W + GAP), GRID_Y + cell.row * (CELL_H + GAP)


def _word(x: float, y: float, word: str, colour: str = INK, struck: bool = False) -> list[str]:
    """The word on a white strip, like the printed card (struck through once found)."""
    upper = word.upper()
    if struck:
        return [text(x + CELL_W / 2, y + CELL_H - 12, upper, _fit(15, CELL_W - 16, upper), fill=colour,
                     text_anchor="middle", text_decoration="line-through")]
    return [
        el("rect", x=x + 14, y=y + CELL_H / 2 - 4, width=CELL_W - 28, height=28, rx=3, fill="#ffffff", stroke="#c9b99a"),
        text(x + CELL_W / 2, y + CELL_H / 2 + 16, upper, _fit(17, CELL_W - 36, upper), fill=colour,
             text_anchor="middle", font_weight="bold", letter_spacing=0.5),
    ]


def _bystander_chips(x: float, y: float, sides: list[str]) -> list[str]:
    parts = []
    for i, side in enumerate(sides):
        cx = x + CELL_W - 8 - (len(sides) - i) * 70
        parts.append(el("rect", x=cx, y=y + 5, width=66, height=16, rx=8, fill=FILL["bystander"], stroke=INK,
                        stroke_width=0.6))
        parts.append(text(cx + 33, y + 17, f"bystander {side}", 10, fill=INK, text_anchor="middle"))
    return parts


def _cell(cell: DuetCell) -> str:
    x, y = _origin(cell)
    parts: list[str] = []
    if cell.found:
        parts.append(el("rect", x=x, y=y, width=CELL_W, height=CELL_H, rx=8, fill=GREEN, stroke=INK, stroke_width=1.5))
        parts.append(text(x + CELL_W / 2, y + 56, "G", 34, fill="#ffffff", fill_opacity=0.35, text_anchor="middle",
                          font_weight="bold"))
        parts.append(text(x + CELL_W / 2, y + 17, "AGENT FOUND", 10, fill="#ffffff", text_anchor="middle",
                          font_weight="bold", letter_spacing=1))
        parts += _word(x, y, cell.word, "#ffffff", struck=True)
        state = "found"
    else:
        mine = cell.mine
        parts.append(el("rect", x=x, y=y, width=CELL_W, height=CELL_H, rx=8, fill=TINT[mine] if mine else CARD,
                        stroke="#a8977a", stroke_width=1.0))
        if mine:
            parts.append(el("rect", x=x + 3, y=y + 3, width=CELL_W - 6, height=CELL_H - 6, rx=6, fill="none",
                            stroke=FILL[mine], stroke_width=6.0))
            parts.append(el("path", d=f"M{x} {y + 8} Q{x} {y} {x + 8} {y} L{x + 34} {y} L{x} {y + 34} Z",
                            fill=FILL[mine]))
            parts.append(text(x + 9, y + 18, LETTER[mine], 13, fill="#ffffff", font_weight="bold"))
            if mine == "assassin":
                parts.append(text(x + CELL_W / 2, y + 24, "ASSASSIN", 11, fill=INK, text_anchor="middle",
                                  font_weight="bold", letter_spacing=1))
        parts += _bystander_chips(x, y, cell.bystander)
        parts += _word(x, y, cell.word)
        state = "key" if mine else "unknown"
    return el("g", *parts, class_="cell", id=f"cn-cell-{cell.index}", data_word=cell.word, data_state=state,
              data_mine=cell.mine)


def _counters(view: DuetView) -> str:
    parts = []
    x = WIDTH - 20
    for label, fill in ((f"timer {view.timer} left", "#7a6a4a"), (f"agents {view.found} of {view.to_find} found", GREEN)):
        w = 22 + len(label) * 7.5
        x -= w
        parts.append(el("rect", x=x, y=16, width=w, height=26, rx=13, fill=fill))
        parts.append(text(x + w / 2, 34, label, 13, fill="#ffffff", text_anchor="middle", font_weight="bold"))
        x -= 10
    return el("g", *parts, class_="counters")


def _turn_text(t: DuetTurn) -> str:
    head = f"side {t.side} clue: \u201c{t.clue}\u201d {t.number}" if t.clue else f"sudden death, side {t.side}"
    if t.guesses:
        head += " \u2192 " + ", ".join(t.guesses)
    return head + (f" [{t.end}]" if t.end else "")


def _legend(view: DuetView) -> str:
    if view.side:
        return (f"your side ({view.side}) of the key: framed cards with a tab G/N/X are agents, bystanders, "
                "assassins (hatched); green cards are found agents")
    return "green cards are found agents; a chip marks a bystander a guess revealed for that side"


def render_svg(view: DuetView | dict[str, Any]) -> str:
    """The picture of a Duet `view` as SVG text (same view, same bytes)."""
    if not isinstance(view, DuetView):
        view = msgspec.convert(view, DuetView)
    who = view.viewer or "an observer"
    side = f" (side {view.side})" if view.side else ""
    body = [
        _defs(),
        text(GRID_X, 34, "Codenames Duet", 24, fill=INK, font_weight="bold"),
        text(GRID_X + 200, 34, f"{view.language} \u00b7 side a: {view.seats['a']} \u00b7 side b: {view.seats['b']}",
             13, fill=MUTED),
        text(GRID_X, 62, f"seen by {who}{side}: " + ("your side of the key is shown" if view.side else "no key"),
             13, fill=INK),
        _counters(view),
    ]
    body += [_cell(c) for c in view.cells]
    y = GRID_Y + 5 * CELL_H + 4 * GAP + 20
    body.append(text(GRID_X, y, _legend(view), 11, fill=MUTED))
    y += 28
    if view.outcome is not None:
        winners = ", ".join(view.outcome.winners) or "nobody"
        body.append(el(
            "g",
            el("rect", x=GRID_X, y=y, width=WIDTH - 2 * GRID_X, height=34, rx=8, fill="#fff3c4", stroke="#c9a227",
               stroke_width=2.0),
            text(WIDTH / 2, y + 22, f"game over: {view.outcome.reason} \u00b7 winners: {winners}", 14, fill=INK,
                 text_anchor="middle", font_weight="bold"),
            class_="outcome",
        ))
    else:
        body.append(text(GRID_X, y + 20, f"next: {view.prompt}", 14, fill=INK, font_weight="bold", class_="turn"))
    y += 44
    if view.guesses_left is not None or view.pending:
        extra = [f"{view.guesses_left} guess{'es' if view.guesses_left != 1 else ''} left"] \
            if view.guesses_left is not None else []
        if view.pending:
            extra.append("being revealed: " + ", ".join(view.pending))
        body.append(text(GRID_X, y, " \u00b7 ".join(extra), 12, fill=INK))
        y += 22
    shown = view.history[-4:]
    if shown:
        body.append(text(GRID_X, y, f"clues ({len(view.history)}):", 12, fill=MUTED, font_weight="bold"))
        for i, t in enumerate(reversed(shown)):
            body.append(text(GRID_X + 12, y + 20 * (i + 1), _turn_text(t), 12, fill=INK))
        y += 20 * (len(shown) + 1)
    return document(WIDTH, int(y + 10), f"Codenames Duet as {who} sees it", *body, background=PAPER,
                    font_family="sans-serif", data_game="codenames")


__all__ = ["render_svg"]
