"""An SVG picture of an Agent Avenue view (`pbem show --svg`, `pbem page`).

A pure function of the seat's view (`view.View`), so it shows exactly what
that seat may see: its own hand by name, the opponent's hand as card backs
with a count, face-down cards as backs (named only for a seat allowed to
see them), the deck as a back with its size.

The picture, left to right:

* the loop of 14 spaces, numbered, forward clockwise (small chevrons), each
  home in its seat's colour, the two meeples on their spaces; inside the
  loop the centre (this turn's face-up and face-down cards) and the deck;
  under it a bar of the lead, from one seat's catch (7 spaces behind) to the
  other's;
* one panel per seat: progress, spaces still needed to catch, hand, play
  area (agents grouped by name with their count; the icon the next copy of
  that agent would use is ringed), discards.

In advanced mode the black-market spaces are ringed in dashes and a strip
under the picture shows the supply (names, ongoing or instant), the size
of the black-market deck (never its order) and each seat's ongoing cards.

Each card shows its three movement icons (the 1st, 2nd and 3rd+ copy in
play), so the picture doubles as the reference card.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.view import UNSEEN, MarketView, SeatView, View
from pbem.games.agent_avenue.resolve import CATCH_DISTANCE
from pbem.games.picture import document, el, num, polar, text

WIDTH, HEIGHT = 980, 660
MARKET_H = 170  # the black-market strip under the picture (advanced mode)
MARKET_INK = "#7b1f1f"
SEAT_COLOURS = ("#2e8b57", "#2e6fb5")  # the rulebook's green and blue homes
SEAT_LIGHT = ("#cfe9d9", "#d2e2f4")
AGENT_COLOURS = {
    "Double Agent": "#6c3483",
    "Enforcer": "#b03a2e",
    "Codebreaker": "#1e7a46",
    "Daredevil": "#ca6f1e",
    "Saboteur": "#515a5a",
    "Sentinel": "#1f618d",
    "Sidekick": "#9a7d0a",
    "Mole": "#6e2c00",
}
INK = "#2b2b2b"
PAPER = "#fbf7ee"
BACK = "#27364a"


def icon_text(value: cards.Icon) -> str:
    if isinstance(value, str):
        return value
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"\u2212{-value}")


def _letters(seats: list[SeatView]) -> list[str]:
    first = [s.seat[:1].upper() or "?" for s in seats]
    return first if len(set(first)) == len(first) else [str(i + 1) for i in range(len(seats))]


# --- cards ---------------------------------------------------------------------


def _fit(size: float, width: float, label: str) -> float:
    """A font size at which `label` fits in `width` (sans-serif runs about
    0.6 em per character)."""
    return min(size, width / (0.6 * max(1, len(label))))


def card_face(x: float, y: float, w: float, h: float, name: str, ring: int | None = None, count: int = 0) -> str:
    """A face-up agent: its name, its three icons (`ring`: the index of the
    icon to ring), and its count under the card when `count` > 1."""
    colour = AGENT_COLOURS.get(name, "#555555")
    words = name.split() if len(name) > 9 else [name]
    size = min(_fit(w / 5.5, w - 8, word) for word in words)
    parts = [
        el("rect", x=float(x), y=float(y), width=float(w), height=float(h), rx=6.0, fill=colour, stroke=INK, stroke_width=1.0),
        el("rect", x=x + 3.0, y=y + 3.0, width=w - 6.0, height=h - 6.0, rx=4.0, fill="none", stroke="#ffffff", stroke_opacity=0.5),
    ]
    for i, word in enumerate(words):
        parts.append(text(x + w / 2, y + 6 + size * (i + 1.1), word, size, fill="#ffffff", text_anchor="middle", font_weight="bold"))
    icons = cards.AGENTS.get(name, (0, ("?", "?", "?")))[1]
    step = w / 3
    base = max(8.0, w / 7)
    for i, value in enumerate(icons):
        label = icon_text(value)
        isize = _fit(base, step - 1, label)
        cx, cy = x + step * (i + 0.5), y + h - base * 0.9
        if ring == i:
            parts.append(el("circle", cx=cx, cy=cy - base * 0.35, r=base * 0.95, fill="#ffffff", fill_opacity=0.9))
        parts.append(text(cx, cy, label, isize, fill=INK if ring == i else "#ffffff", text_anchor="middle", font_weight="bold"))
    if count > 1:
        parts.append(text(x + w / 2, y + h + 13, f"\u00d7{count}", 12, fill=INK, text_anchor="middle", font_weight="bold"))
    return el("g", *parts, class_="card face", data_card=name)


def card_back(x: float, y: float, w: float, h: float, label: str = "") -> str:
    """A face-down card; `label` (``?``, a count) is printed on it."""
    parts = [
        el("rect", x=float(x), y=float(y), width=float(w), height=float(h), rx=6.0, fill=BACK, stroke=INK),
        el("rect", x=x + 4.0, y=y + 4.0, width=w - 8.0, height=h - 8.0, rx=3.0, fill="url(#aa-hatch)", stroke="#c9b37e", stroke_width=1.5),
        el("circle", cx=x + w / 2, cy=y + h / 2, r=min(w, h) / 4, fill=BACK, stroke="#c9b37e", stroke_width=1.5),
    ]
    if label:
        parts.append(text(x + w / 2, y + h / 2 + 5, label, 14, fill="#f4e3b5", text_anchor="middle", font_weight="bold"))
    return el("g", *parts, class_="card back")


def _defs() -> str:
    hatch = el(
        "pattern",
        el("path", d="M0 6 L6 0", stroke="#3f5470", stroke_width=2.0),
        id="aa-hatch", width=6, height=6, patternUnits="userSpaceOnUse",
    )
    return el("defs", hatch)


# --- the loop ------------------------------------------------------------------

CX, CY, RING = 250, 318, 190
SPACE_R = 24


def _angle(i: int, size: int) -> float:
    return -90 + i * 360 / size


def _pawn(x: float, y: float, colour: str, letter: str) -> str:
    body = (
        f"M{num(x - 13)} {num(y + 14)} L{num(x + 13)} {num(y + 14)} "
        f"L{num(x + 6)} {num(y - 2)} L{num(x - 6)} {num(y - 2)} Z"
    )
    return "".join(
        [
            el("path", d=body, fill=colour, stroke="#ffffff", stroke_width=2.0),
            el("circle", cx=float(x), cy=y - 8.0, r=8.0, fill=colour, stroke="#ffffff", stroke_width=2.0),
            text(x, y + 12, letter, 10, fill="#ffffff", text_anchor="middle", font_weight="bold"),
        ]
    )


def _loop(view: View, letters: list[str]) -> str:
    size = view.board_size
    homes = {s.home: k for k, s in enumerate(view.seats)}
    parts = [el("circle", cx=CX, cy=CY, r=RING, fill="none", stroke="#d8cfb8", stroke_width=18.0)]
    for i in range(size):
        # a chevron half-way to the next space: forward is clockwise
        mx, my = polar(CX, CY, RING, _angle(i, size) + 180 / size)
        parts.append(
            el("path", d="M-4 -6 L4 0 L-4 6", fill="none", stroke="#9c8f70", stroke_width=2.0,
               transform=f"translate({num(mx)} {num(my)}) rotate({num(_angle(i, size) + 180 / size + 90)})")
        )
    for i in range(size):
        x, y = polar(CX, CY, RING, _angle(i, size))
        k = homes.get(i)
        fill = SEAT_LIGHT[k % 2] if k is not None else PAPER
        stroke = SEAT_COLOURS[k % 2] if k is not None else "#9c8f70"
        parts.append(el("circle", cx=x, cy=y, r=float(SPACE_R), fill=fill, stroke=stroke, stroke_width=3.0 if k is not None else 1.5))
        if isinstance(view.market, MarketView) and i in view.market.spaces:
            parts.append(el("circle", cx=x, cy=y, r=float(SPACE_R) - 4, fill="none", stroke=MARKET_INK,
                            stroke_width=2.5, stroke_dasharray="3 2", class_="market-space"))
        nx, ny = polar(CX, CY, RING + SPACE_R + 14, _angle(i, size))
        parts.append(text(nx, ny + 5, i, 13, fill="#6b604a", text_anchor="middle", font_weight="bold"))
        if k is not None:
            hx, hy = polar(CX, CY, RING - SPACE_R - 12, _angle(i, size))
            parts.append(text(hx, hy + 4, f"home {letters[k]}", 10, fill=stroke, text_anchor="middle"))
    by_space: dict[int, list[int]] = {}
    for k, s in enumerate(view.seats):
        by_space.setdefault(s.position % size, []).append(k)
    for space, ks in sorted(by_space.items()):
        x, y = polar(CX, CY, RING, _angle(space, size))
        for j, k in enumerate(ks):
            dx = (j - (len(ks) - 1) / 2) * 16
            parts.append(
                el("g", _pawn(x + dx, y - 2, SEAT_COLOURS[k % 2], letters[k]),
                   class_="meeple", data_seat=view.seats[k].seat, data_space=space)
            )
    return el("g", *parts, class_="loop")


def _centre(view: View) -> str:
    parts = [text(CX, CY - 92, "centre", 13, fill="#6b604a", text_anchor="middle", font_weight="bold")]
    w, h = 66, 92
    ux, dx, y = CX - w - 8, CX + 8, CY - 80
    if view.centre_up is not None:
        parts.append(card_face(ux, y, w, h, view.centre_up))
    else:
        parts.append(el("rect", x=ux, y=y, width=w, height=h, rx=6, fill="none", stroke="#c9bd9f", stroke_dasharray="4 3"))
    if view.centre_down_played:
        if view.centre_down is not None and view.centre_down != UNSEEN:
            parts.append(card_face(dx, y, w, h, view.centre_down))
            parts.append(text(dx + w / 2, y + h + 28, "(only you see it)", 10, fill="#6b604a", text_anchor="middle"))
        else:
            parts.append(card_back(dx, y, w, h, "?"))
    else:
        parts.append(el("rect", x=dx, y=y, width=w, height=h, rx=6, fill="none", stroke="#c9bd9f", stroke_dasharray="4 3"))
    parts.append(text(ux + w / 2, y + h + 15, "face up", 11, fill=INK, text_anchor="middle"))
    parts.append(text(dx + w / 2, y + h + 15, "face down", 11, fill=INK, text_anchor="middle"))
    if view.recruit_choice:
        parts.append(text(CX, y + h + 42, f"recruited: {view.recruit_choice}", 11, fill=INK, text_anchor="middle"))
    # the deck
    bw, bh = 44, 60
    bx, by = CX - bw / 2, CY + 62
    for j in range(min(3, (view.deck_size + 9) // 10)):
        parts.append(el("rect", x=bx + 3.0 * (2 - j), y=by - 3.0 * (2 - j), width=bw, height=bh, rx=5, fill=BACK, stroke="#c9b37e"))
    parts.append(card_back(bx, by, bw, bh, str(view.deck_size)) if view.deck_size else
                 el("rect", x=bx, y=by, width=bw, height=bh, rx=5, fill="none", stroke="#c9bd9f", stroke_dasharray="4 3"))
    parts.append(text(CX, by + bh + 15, f"deck: {view.deck_size} card{'s' if view.deck_size != 1 else ''}", 11, fill=INK, text_anchor="middle"))
    return el("g", *parts, class_="centre")


def _lead_bar(view: View, letters: list[str]) -> str:
    """The lead of the first seat over the second, from -7 to +7."""
    a, b = view.seats
    lead = a.progress - b.progress
    limit = CATCH_DISTANCE
    x0, x1, y = 50, 450, 600
    span = x1 - x0
    pos = x0 + span * (max(-limit, min(limit, lead)) + limit) / (2 * limit)
    parts = [
        el("rect", x=x0, y=y - 6, width=span / 2, height=12, rx=6, fill=SEAT_LIGHT[1]),
        el("rect", x=x0 + span / 2, y=y - 6, width=span / 2, height=12, rx=6, fill=SEAT_LIGHT[0]),
        el("line", x1=x0 + span / 2, y1=y - 10, x2=x0 + span / 2, y2=y + 10, stroke="#9c8f70"),
    ]
    for i in range(-limit, limit + 1):
        tx = x0 + span * (i + limit) / (2 * limit)
        parts.append(el("line", x1=tx, y1=y + 7, x2=tx, y2=y + 11, stroke="#9c8f70"))
    parts.append(el("circle", cx=pos, cy=float(y), r=9.0, fill=SEAT_COLOURS[0] if lead > 0 else SEAT_COLOURS[1] if lead < 0 else "#9c8f70", stroke="#ffffff", stroke_width=2.0))
    parts.append(text(x0, y - 14, f"\u25c0 {b.seat} catches", 11, fill=SEAT_COLOURS[1]))
    parts.append(text(x1, y - 14, f"{a.seat} catches \u25b6", 11, fill=SEAT_COLOURS[0], text_anchor="end"))
    who = a.seat if lead > 0 else b.seat
    words = "level" if lead == 0 else f"{who} leads by {abs(lead)} of {limit}"
    parts.append(text((x0 + x1) / 2, y + 28, words, 12, fill=INK, text_anchor="middle"))
    return el("g", *parts, class_="lead")


# --- the seats -------------------------------------------------------------------

PANEL_X, PANEL_W = 510, 450


def _in_play(s: SeatView) -> list[tuple[str, int]]:
    counts = Counter(n for n in s.in_play if n != UNSEEN)
    order = [n for n in cards.NAMES if n in counts] + sorted(set(counts) - set(cards.NAMES))
    return [(n, counts[n]) for n in order]


def _panel(view: View, k: int, letter: str, y: float) -> str:
    s = view.seats[k]
    colour = SEAT_COLOURS[k % 2]
    x = PANEL_X
    parts = [el("rect", x=x, y=y, width=PANEL_W, height=270, rx=10, fill="#ffffff", stroke=colour, stroke_width=2.0)]
    parts.append(el("rect", x=x + 1.0, y=y + 1.0, width=PANEL_W - 2.0, height=36, rx=9, fill=SEAT_LIGHT[k % 2]))
    parts.append(_pawn(x + 20, y + 20, colour, letter))
    team = [m.seat for m in s.members] if isinstance(s.members, list) else [s.seat]
    tags = []
    if view.viewer in team:
        tags.append("you" if len(team) == 1 else f"you: {view.viewer}")
    if s.seat == view.active and view.phase != "over":
        tags.append("active")
    if any(p in view.to_act for p in team):
        tags.append("to act")
    name = (s.seat if len(team) == 1 and team[0] == s.seat else f"{s.seat}: {', '.join(team)}")
    name += f" ({', '.join(tags)})" if tags else ""
    parts.append(text(x + 40, y + 23, name, 16, fill=INK, font_weight="bold"))
    stats = f"home {s.home} \u00b7 on {s.position} \u00b7 progress {s.progress:+d} \u00b7 {s.to_catch} to catch"
    parts.append(text(x + PANEL_W - 10, y + 22, stats, 11, fill=INK, text_anchor="end"))

    # hand
    hy = y + 46
    label = "hand" if not isinstance(s.members, list) else ("your hand" if s.hand is not None else "hands")
    parts.append(text(x + 12, hy + 14, label, 12, fill="#6b604a", font_weight="bold"))
    w, h, gap = 58, 80, 6
    if s.hand is not None:
        if not s.hand:
            parts.append(text(x + 70, hy + 44, "empty", 12, fill="#6b604a"))
        for j, n in enumerate(s.hand):
            cx = x + 70 + j * (w + gap)
            parts.append(card_back(cx, hy, w, h, "?") if n == UNSEEN else card_face(cx, hy, w, h, n))
    else:
        for j in range(min(s.hand_size, 6)):
            parts.append(card_back(x + 70 + j * 22, hy, w, h))
        if s.hand_size:
            parts.append(text(x + 70 + min(s.hand_size, 6) * 22 + w + 10, hy + 46, f"{s.hand_size} card{'s' if s.hand_size != 1 else ''}", 13, fill=INK))
        else:
            parts.append(text(x + 70, hy + 44, "empty", 12, fill="#6b604a"))

    # play area
    py = hy + h + 14
    parts.append(text(x + 12, py + 14, "in play", 12, fill="#6b604a", font_weight="bold"))
    groups = _in_play(s)
    unseen = sum(1 for n in s.in_play if n == UNSEEN)
    w2, h2, gap2 = 44, 64, 4
    j = 0
    for n, count in groups:
        ring = min(count + 1, 3) - 1
        parts.append(card_face(x + 70 + j * (w2 + gap2), py, w2, h2, n, ring=ring, count=count))
        j += 1
    for _ in range(unseen):
        parts.append(card_back(x + 70 + j * (w2 + gap2), py, w2, h2, "?"))
        j += 1
    if not j:
        parts.append(text(x + 70, py + 36, "no agents yet", 12, fill="#6b604a"))
    total = len(s.in_play)
    if total:
        parts.append(text(x + PANEL_W - 10, py + h2 + 26, f"{total} agent{'s' if total != 1 else ''} in play; ringed: the icon of the next copy", 10, fill="#6b604a", text_anchor="end"))

    # discards
    dy = py + h2 + 40
    used = f"discards used {s.discards_used} of {cards.MAX_DISCARDS}"
    if s.discarded:
        used += ": " + ", ".join(s.discarded)
    if isinstance(s.members, list):  # a team: each player's hand size and discards
        used = "; ".join(
            f"{m.seat}: {m.hand_size} in hand, discards {m.discards_used} of {m.discards_used + m.discards_left}"
            + (f" ({', '.join(m.discarded)})" if m.discarded else "")
            for m in s.members
        )
    parts.append(text(x + 12, dy, used, 11 if isinstance(s.members, list) else 12, fill=INK))
    return el("g", *parts, class_="seat", data_seat=s.seat)


def _outcome(view: View) -> str:
    if view.outcome is None:
        return ""
    winners = " and ".join(view.outcome.winners) or "nobody"
    return el(
        "g",
        el("rect", x=20, y=70, width=460, height=40, rx=8, fill="#fff3c4", stroke="#c9a227", stroke_width=2.0),
        text(250, 96, f"game over: {winners} won ({view.outcome.reason})", 15, fill=INK, text_anchor="middle", font_weight="bold"),
        class_="outcome",
    )


def _market_card(x: float, y: float, w: float, h: float, name: str) -> str:
    """A black-market card: its name and whether it is ongoing or instant.

    The effect's words are left to the rules summary: they name agents, and
    a picture spells out only the names of cards its reader has seen."""
    kind = cards.MARKET_KIND.get(name, "")
    parts = [
        el("rect", x=x, y=y, width=w, height=h, rx=6, fill="#1c1c1c", stroke="#c9a227", stroke_width=1.5),
        text(x + w / 2, y + h / 2 - 4, name, _fit(12, w - 8, name), fill="#f5d76e", text_anchor="middle", font_weight="bold"),
        text(x + w / 2, y + h / 2 + 14, kind, 10, fill="#bbbbbb", text_anchor="middle"),
    ]
    return el("g", *parts, class_="market-card", data_card=name)


def _market(view: View, letters: list[str], y: float) -> str:
    """The black-market strip (advanced mode): the supply, the deck's size,
    each seat's ongoing cards and this turn's black-market events."""
    m = view.market
    assert isinstance(m, MarketView)
    parts = [el("rect", x=20, y=y, width=WIDTH - 40, height=MARKET_H - 10, rx=10, fill="#f1ece0", stroke=MARKET_INK, stroke_width=2.0)]
    parts.append(text(34, y + 22, "black market", 15, fill=MARKET_INK, font_weight="bold"))
    parts.append(text(34, y + 40, f"deck: {m.deck_size} card{'s' if m.deck_size != 1 else ''}", 11, fill=INK))
    w, h = 130, 92
    for j, name in enumerate(m.supply):
        cx = 34 + j * (w + 8)
        parts.append(card_back(cx, y + 50, w, h, "?") if name == UNSEEN else _market_card(cx, y + 50, w, h, name))
    if not m.supply:
        parts.append(text(34, y + 90, "the supply is empty", 12, fill="#6b604a"))
    tx = 34 + 3 * (w + 8) + 16
    ty = y + 22
    for k, s in enumerate(view.seats):
        mine = ", ".join(m.ongoing.get(s.seat, [])) or "none"
        for who in [p.seat for p in s.members] if isinstance(s.members, list) else [s.seat]:
            if m.known_in_hand.get(who):
                where = "hand" if who == s.seat else f"{who}'s hand"
                mine += f"; known in {where}: " + ", ".join(m.known_in_hand[who])
        parts.append(text(tx, ty, f"{letters[k]} {s.seat}: {mine}", 12, fill=SEAT_COLOURS[k % 2], font_weight="bold"))
        ty += 18
    if m.used:
        parts.append(text(tx, ty, "used: " + ", ".join(m.used), 10, fill="#6b604a"))
        ty += 16
    for line in m.log[-5:]:
        parts.append(text(tx, ty, line, 11, fill=INK))
        ty += 15
    return el("g", *parts, class_="black-market")


def render_svg(view: View | dict[str, Any]) -> str:
    """The picture of `view` as SVG text (same view, same bytes)."""
    if not isinstance(view, View):
        view = msgspec.convert(view, View)
    letters = _letters(view.seats)
    who = view.viewer or "an observer"
    title = f"Agent Avenue, turn {view.turn}, as {who} sees it"
    header = [
        text(20, 32, f"Agent Avenue \u00b7 turn {view.turn} \u00b7 {view.phase}", 22, fill=INK, font_weight="bold"),
        text(20, 54, view.prompt, 13, fill="#4a4a4a"),
        text(WIDTH - 20, 32, f"seen by {who}", 13, fill="#6b604a", text_anchor="end"),
    ]
    if view.last_moves:
        moved = ", ".join(f"{seat} {n:+d}" for seat, n in view.last_moves.items())
        header.append(text(WIDTH - 20, 54, f"last moves: {moved}", 12, fill="#6b604a", text_anchor="end"))
    body = [_defs(), *header, _loop(view, letters), _centre(view)]
    if len(view.seats) == 2:
        body.append(_lead_bar(view, letters))
    for k in range(len(view.seats)):
        body.append(_panel(view, k, letters[k], 70 + k * 290))
    height = HEIGHT
    if isinstance(view.market, MarketView):
        body.append(_market(view, letters, HEIGHT))
        height += MARKET_H
    body.append(_outcome(view))
    return document(WIDTH, height, title, *body, background=PAPER, font_family="sans-serif", data_game="agent-avenue")


__all__ = ["render_svg", "card_face", "card_back", "icon_text"]
