"""The SVG picture of a Codex view: one panel per side (the reader's own
side at the bottom), with the base, gold, workers, buildings, the five
patrol slots, the other things in play and, for the reader only, its hand.

A pure function of the view. Exhausted things are marked with a letter
(``exhausted``) as well as a grey fill, new arrivals with ``new``, so nothing relies
on colour alone.
"""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.games.picture import document, el, text
from pbem.games.codex_v2.view import SideView, ThingView, View

W = 960
CARD_W, CARD_H = 118, 64
SLOT_NAMES = ("Squad leader", "Elite", "Scavenger", "Technician", "Lookout")


def _card(x: float, y: float, t: ThingView | None, label: str = "") -> str:
    parts = []
    fill = "#f4f4f4" if t is None else ("#d0d0d0" if t.exhausted else "#fffbe8")
    parts.append(el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=6, fill=fill, stroke="#555555"))
    if label:
        parts.append(text(x + 4, y + 12, label, 10, fill="#444444"))
    if t is None:
        parts.append(text(x + 4, y + 38, "(empty)", 11, fill="#777777"))
        return "".join(parts)
    name = t.card if len(t.card) <= 18 else t.card[:17] + "."
    parts.append(text(x + 4, y + 27, name, 11, font_weight="bold"))
    stats = f"{t.atk}/{t.hp - t.damage}" + (f"  L{t.level}" if t.level else "")
    parts.append(text(x + 4, y + 43, stats, 12))
    marks = []
    if t.damage:
        marks.append(f"{t.damage} dmg")
    if t.runes:
        marks.append(f"{t.runes:+d}")
    if t.exhausted:
        marks.append("exhausted")
    if t.new:
        marks.append("new")
    if marks:
        parts.append(text(x + 4, y + 58, " ".join(marks), 10, fill="#333333"))
    return "".join(parts)


def _panel(side: SideView, y: float, own: bool, active: bool) -> tuple[str, float]:
    parts = []
    head = (f"{side.seat} - {side.spec}{' (to play)' if active else ''}: base {side.base_hp}/20, "
            f"gold {side.gold}, workers {side.workers}")
    parts.append(text(12, y + 18, head, 15, font_weight="bold"))
    piles = f"hand {side.hand}  deck {side.deck}  discard {side.discard}  codex {side.codex}"
    hero = f"{side.hero}: " + ("command zone" if side.hero_home else "in play")
    parts.append(text(12, y + 36, f"{piles}   {hero}", 12))
    blds = "buildings: base" + ("".join(f", {b}" for b in side.buildings))
    if side.ongoing:
        blds += "   ongoing: " + ", ".join(side.ongoing)
    parts.append(text(12, y + 52, blds, 12))
    by_handle = {t.handle: t for t in side.things}
    top = y + 62
    for i, (label, h) in enumerate(zip(SLOT_NAMES, side.patrol)):
        parts.append(_card(12 + i * (CARD_W + 8), top, by_handle.get(h) if h else None, label))
    rest = [t for t in side.things if t.handle not in side.patrol]
    row = top + CARD_H + 10
    for i, t in enumerate(rest):
        col, line = i % 7, i // 7
        parts.append(_card(12 + col * (CARD_W + 8), row + line * (CARD_H + 8), t))
    lines = (len(rest) + 6) // 7
    bottom = row + lines * (CARD_H + 8)
    if own and side.my_hand is not None:
        parts.append(text(12, bottom + 14, "your hand: " + (", ".join(side.my_hand) or "-"), 12))
        bottom += 20
    return "".join(parts), bottom + 10 - y


def render_svg(view: Any) -> str:
    if not isinstance(view, View):
        view = msgspec.convert(view, View)
    order = sorted(view.sides, key=lambda s: s.seat == view.seat)
    body = []
    y = 8.0
    title = f"Codex, turn {view.turn}"
    if view.outcome is not None:
        body.append(text(12, y + 16, f"Game over: {view.outcome.reason}", 15, font_weight="bold"))
        y += 24
    for side in order:
        panel, height = _panel(side, y, side.seat == view.seat, side.seat == view.active)
        body.append(el("rect", x=4, y=y, width=W - 8, height=height - 4, rx=8, fill="none", stroke="#999999"))
        body.append(panel)
        y += height
    for i, line in enumerate((view.log or view.last_log)[-6:]):
        body.append(text(12, y + 14 + i * 15, line, 11, fill="#333333"))
    y += 15 * min(6, len(view.log or view.last_log)) + 12
    return document(W, int(y), title, *body)
