"""An SVG picture of a Codenames view (`pbem show --svg`, `pbem page`).

A pure function of the seat's view (`view.View`): a cell's colour is drawn
only where the view holds it, that is when the cell is covered (everyone
sees it) or when the viewer is a spymaster (the key). So an operative's or
an observer's picture cannot hold the key.

The 5x5 grid, then whose turn it is, the clue, this turn's guesses, the
teams and the last clues. Colour is never the only mark:

* a covered card is filled with its colour and carries a large letter
  (R red agent, B blue agent, N bystander, X assassin); the assassin is also
  cross-hatched;
* on a spymaster's picture an uncovered card shows the key as a coloured
  frame with a corner tab holding the same letter (the assassin's tab and
  frame are hatched), the word staying on a light card so it reads as not
  yet covered;
* an uncovered card the viewer has no key for is a plain light card.

Each cell is a ``<g class="cell" id="cn-cell-N">`` with ``data-word`` and,
only where the view holds it, ``data-colour``: tests and scripts can read
the picture without parsing shapes.
"""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.games.codenames.view import Cell, TeamView, TurnView, View
from pbem.games.picture import document, el, text

CELL_W, CELL_H, GAP = 150, 84, 8
GRID_X, GRID_Y = 20, 80
WIDTH = GRID_X * 2 + 5 * CELL_W + 4 * GAP
INK = "#222222"
PAPER = "#f4ecd9"
CARD = "#efe3c6"

FILL = {"red": "#c0392b", "blue": "#1f5fa8", "bystander": "#cdb98f", "assassin": "#1c1c1c"}
TINT = {"red": "#f6d4cf", "blue": "#d2e0f3", "bystander": "#ece3cc", "assassin": "#d6d6d6"}
LETTER = {"red": "R", "blue": "B", "bystander": "N", "assassin": "X"}
NAME = {"red": "red agent", "blue": "blue agent", "bystander": "bystander", "assassin": "assassin"}
TEXT_ON = {"red": "#ffffff", "blue": "#ffffff", "bystander": INK, "assassin": "#ffffff"}


def _fit(size: float, width: float, label: str) -> float:
    return min(size, width / (0.62 * max(1, len(label))))


def _defs() -> str:
    hatch = el(
        "pattern",
        el("path", d="M0 8 L8 0 M-2 2 L2 -2 M6 10 L10 6", stroke="#8a8a8a", stroke_width=2.0),
        id="cn-hatch", width=8, height=8, patternUnits="userSpaceOnUse",
    )
    hatch_dark = el(
        "pattern",
        el("rect", x=0, y=0, width=8, height=8, fill=FILL["assassin"]),
        el("path", d="M0 8 L8 0 M-2 2 L2 -2 M6 10 L10 6", stroke="#5a5a5a", stroke_width=2.0),
        id="cn-hatch-dark", width=8, height=8, patternUnits="userSpaceOnUse",
    )
    return el("defs", hatch, hatch_dark)


def _cell(cell: Cell, sees_key: bool) -> str:
    x = GRID_X + cell.col * (CELL_W + GAP)
    y = GRID_Y + cell.row * (CELL_H + GAP)
    colour = cell.colour
    parts: list[str] = []
    if cell.covered and colour is not None:
        fill = "url(#cn-hatch-dark)" if colour == "assassin" else FILL[colour]
        parts.append(el("rect", x=x, y=y, width=CELL_W, height=CELL_H, rx=8, fill=fill, stroke=INK, stroke_width=1.5))
        parts.append(text(x + CELL_W / 2, y + 56, LETTER[colour], 34, fill=TEXT_ON[colour], fill_opacity=0.35,
                          text_anchor="middle", font_weight="bold"))
        parts.append(text(x + CELL_W / 2, y + 17, NAME[colour].upper(), 10, fill=TEXT_ON[colour],
                          text_anchor="middle", font_weight="bold", letter_spacing=1))
        word = cell.word.upper()
        parts.append(text(x + CELL_W / 2, y + CELL_H - 12, word, _fit(15, CELL_W - 16, word), fill=TEXT_ON[colour],
                          text_anchor="middle", text_decoration="line-through"))
        state = "covered"
    else:
        keyed = colour is not None
        fill = TINT[colour] if keyed else CARD
        parts.append(el("rect", x=x, y=y, width=CELL_W, height=CELL_H, rx=8, fill=fill, stroke="#a8977a", stroke_width=1.0))
        if keyed:
            frame = "url(#cn-hatch-dark)" if colour == "assassin" else FILL[colour]
            parts.append(el("rect", x=x + 3, y=y + 3, width=CELL_W - 6, height=CELL_H - 6, rx=6, fill="none",
                            stroke=frame, stroke_width=6.0))
            parts.append(el("path", d=f"M{x} {y + 8} Q{x} {y} {x + 8} {y} L{x + 34} {y} L{x} {y + 34} Z",
                            fill="url(#cn-hatch-dark)" if colour == "assassin" else FILL[colour]))
            parts.append(text(x + 9, y + 18, LETTER[colour], 13, fill="#ffffff", font_weight="bold"))
            if colour == "assassin":
                parts.append(text(x + CELL_W / 2, y + 24, "ASSASSIN", 11, fill=INK, text_anchor="middle",
                                  font_weight="bold", letter_spacing=1))
        # the word on a white strip, like the printed card
        parts.append(el("rect", x=x + 14, y=y + CELL_H / 2 - 4, width=CELL_W - 28, height=28, rx=3,
                        fill="#ffffff", stroke="#c9b99a"))
        word = cell.word.upper()
        parts.append(text(x + CELL_W / 2, y + CELL_H / 2 + 16, word, _fit(17, CELL_W - 36, word), fill=INK,
                          text_anchor="middle", font_weight="bold", letter_spacing=0.5))
        state = "key" if keyed else "unknown"
    return el("g", *parts, class_="cell", id=f"cn-cell-{cell.index}", data_word=cell.word,
              data_state=state, data_colour=colour)


def _team_name(team: str) -> str:
    return team.capitalize()


def _scores(view: View) -> str:
    parts = []
    x = WIDTH - 20
    for t in reversed(view.teams):
        label = f"{_team_name(t.team)} {t.left} of {t.agents} left"
        w = 22 + len(label) * 7.5
        x -= w
        parts.append(el("rect", x=x, y=16, width=w, height=26, rx=13, fill=FILL[t.team]))
        parts.append(text(x + w / 2, 34, label, 13, fill="#ffffff", text_anchor="middle", font_weight="bold"))
        x -= 10
    return el("g", *parts, class_="scores")


def _guess_chips(x: float, y: float, turn: TurnView) -> str:
    parts = []
    for g in turn.guesses:
        label = g.word + (f" ({LETTER[g.colour]})" if g.colour else "")
        w = 16 + len(label) * 7.2
        fill = FILL.get(g.colour or "", "#ffffff")
        parts.append(el("rect", x=x, y=y - 15, width=w, height=21, rx=10, fill=fill, stroke=INK, stroke_width=0.8))
        parts.append(text(x + w / 2, y, label, 12, fill=TEXT_ON.get(g.colour or "", INK), text_anchor="middle"))
        x += w + 6
    return "".join(parts)


def _clue_text(turn: TurnView) -> str:
    status = {"pending": " (awaiting review)", "objected": " (objected)"}.get(turn.status, "")
    return f"\u201c{turn.clue}\u201d {turn.number}{status}"


def _turn_panel(view: View, y: float) -> str:
    parts = []
    team = view.team
    over = view.outcome is not None
    banner = "game over" if over else f"{_team_name(team)} team's turn"
    fill = "#7a6a4a" if over else FILL[team]
    parts.append(el("rect", x=GRID_X, y=y, width=200, height=34, rx=8, fill=fill))
    parts.append(text(GRID_X + 100, y + 23, banner, 16, fill="#ffffff", text_anchor="middle", font_weight="bold"))
    if not over:
        parts.append(text(GRID_X + 214, y + 22, view.prompt, 13, fill=INK))
    line = y + 58
    if view.turn is not None:
        t = view.turn
        clue = f"{_team_name(t.team)} clue: {_clue_text(t)}"
        parts.append(text(GRID_X, line, clue, 16, fill=FILL[t.team], font_weight="bold"))
        extra = []
        if view.guesses_left is not None:
            extra.append(f"{view.guesses_left} guess{'es' if view.guesses_left != 1 else ''} left")
        if t.end:
            extra.append(f"turn ended: {t.end}")
        if t.cover:
            extra.append(f"then covered {t.cover}")
        if view.pending:
            extra.append("being revealed: " + ", ".join(view.pending))
        if extra:
            parts.append(text(WIDTH - 20, line, " \u00b7 ".join(extra), 12, fill=INK, text_anchor="end"))
        if t.guesses:
            parts.append(text(GRID_X, line + 28, "guesses:", 12, fill=INK))
            parts.append(_guess_chips(GRID_X + 62, line + 28, t))
    else:
        parts.append(text(GRID_X, line, "no clue yet", 14, fill="#6b604a"))
    return el("g", *parts, class_="turn")


def _team_lines(teams: list[TeamView], y: float) -> str:
    parts = []
    for i, t in enumerate(teams):
        if not (t.spymaster or t.operatives):
            continue
        ops = ", ".join(o + (" (captain)" if o == t.captain and len(t.operatives) > 1 else "") for o in t.operatives) or "-"
        line = f"{_team_name(t.team)}: spymaster {t.spymaster or '-'}; operatives {ops}"
        parts.append(el("rect", x=GRID_X, y=y + i * 22 - 11, width=12, height=12, rx=2, fill=FILL[t.team]))
        parts.append(text(GRID_X + 18, y + i * 22, line, 12, fill=INK))
    return el("g", *parts, class_="teams")


def _history(view: View, y: float) -> tuple[str, int]:
    done = view.history[:-1] if view.turn is not None and view.history else view.history
    shown = done[-3:]
    if not shown:
        return "", 0
    parts = [text(GRID_X, y, f"earlier clues ({len(done)}):", 12, fill="#6b604a", font_weight="bold")]
    for i, t in enumerate(reversed(shown)):
        guessed = ", ".join(f"{g.word} ({LETTER[g.colour]})" if g.colour else g.word for g in t.guesses) or "no guess"
        end = f" [{t.end}]" if t.end else ""
        parts.append(text(GRID_X + 12, y + 20 * (i + 1), f"{_team_name(t.team)} {_clue_text(t)}: {guessed}{end}", 12, fill=INK))
    return el("g", *parts, class_="history"), 20 * (len(shown) + 1)


def _legend(view: View, y: float) -> str:
    if view.sees_key:
        words = "key (you are a spymaster): framed cards with a tab R/B/N/X are uncovered red/blue agents, bystanders, the assassin (hatched); filled cards are covered"
    else:
        # names only what the view holds: no word here hints at the key
        words = "filled cards are covered, each with the letter of what it hid; light cards are still hidden"
    return text(GRID_X, y, words, 11, fill="#6b604a")


def render_svg(view: View | dict[str, Any]) -> str:
    """The picture of `view` as SVG text (same view, same bytes)."""
    if not isinstance(view, View):
        view = msgspec.convert(view, View)
    who = view.viewer or "an observer"
    role = f" ({view.role} operative)" if view.role in ("red", "blue") else f" ({view.role})" if view.role else ""
    key = "the key is shown" if view.sees_key else "no key"
    title = f"Codenames as {who} sees it"
    grid_bottom = GRID_Y + 5 * CELL_H + 4 * GAP
    body = [
        _defs(),
        text(GRID_X, 34, "Codenames", 24, fill=INK, font_weight="bold"),
        text(GRID_X + 150, 34, f"{view.variant} \u00b7 {view.language} \u00b7 {view.starting} started", 13, fill="#6b604a"),
        text(GRID_X, 62, f"seen by {who}{role}: {key}", 13, fill=INK),
        _scores(view),
    ]
    body += [_cell(c, view.sees_key) for c in view.cells]
    y = grid_bottom + 20
    body.append(_legend(view, y))
    body.append(_turn_panel(view, y + 14))
    y += 14 + 34 + 24 + (28 if view.turn is not None and view.turn.guesses else 0) + 22
    body.append(_team_lines(view.teams, y + 12))
    y += 12 + 22 * sum(1 for t in view.teams if t.spymaster or t.operatives) + 6
    hist, dh = _history(view, y + 12)
    body.append(hist)
    y += dh + 12
    if view.outcome is not None:
        winners = ", ".join(view.outcome.winners) or "nobody"
        scores = ""
        if view.outcome.scores:
            scores = " \u00b7 score " + ", ".join(f"{k} {v}" for k, v in view.outcome.scores.items())
        body.append(el(
            "g",
            el("rect", x=GRID_X, y=y, width=WIDTH - 2 * GRID_X, height=34, rx=8, fill="#fff3c4", stroke="#c9a227", stroke_width=2.0),
            text(WIDTH / 2, y + 22, f"game over: {view.outcome.reason} \u00b7 winners: {winners}{scores}", 14,
                 fill=INK, text_anchor="middle", font_weight="bold"),
            class_="outcome",
        ))
        y += 44
    height = int(y + 10)
    return document(WIDTH, height, title, *body, background=PAPER, font_family="sans-serif", data_game="codenames")


__all__ = ["render_svg"]
