"""The SVG picture of a Codex view (`pbem show --svg`, `pbem page`): the
table as cards. One panel per side (the reader's own side at the bottom):
its buildings (the base, tech buildings, add-ons) and, while it waits in the
command zone, its hero; the five patrol slots; the other things in play;
and, for the reader only, its hand.

Every card is drawn alike: its name, cost and kind at the top, ATK at the
bottom left and HP at the bottom right, its damage and +1/+1 or -1/-1
runes as counters on it. An exhausted card is turned a little aside (as a
player turns it) and says ``EXHAUSTED``; a card that arrived
this turn says ``new``; a building still being built says so. Colour adds
to the words, never replaces them.

A pure function of the view; the printed facts of a hand card (cost, ATK,
HP) come from the card data, which is public.
"""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.games.codex import cards
from pbem.games.codex.view import SideView, ThingView, View
from pbem.games.picture import document, el, text

W = 960
CARD_W, CARD_H, GAP = 112, 92, 10
SLOT_NAMES = ("Squad leader", "Elite", "Scavenger", "Technician", "Lookout")
INK, MUTED = "#222222", "#666666"
FILL = {"hero": "#f3e2b3", "unit": "#fffbe8", "token": "#eef6e8", "spell": "#e8eefb", "building": "#e6e6e6"}
ATK_FILL, HP_FILL, DAMAGE_FILL = "#c0392b", "#2e7d4f", "#7a1f1f"


def _short(name: str, n: int = 17) -> str:
    return name if len(name) <= n else name[: n - 1] + "."


def _stat(x: float, y: float, value: object, fill: str, label: str) -> str:
    """A stat in a corner: a coloured badge and the word it stands for."""
    return (el("rect", x=x, y=y, width=30, height=20, rx=5, fill=fill)
            + text(x + 15, y + 15, value, 13, fill="#ffffff", text_anchor="middle", font_weight="bold")
            + text(x + 15, y - 3, label, 8, fill=MUTED, text_anchor="middle"))


def _kind(name: str) -> str:
    if cards.is_hero(name):
        return "hero"
    c = cards.CARDS.get(name)
    return c.type if c is not None else "unit"


def _card(x: float, y: float, name: str, *, kind: str, cost: int | None, atk: int | None, hp: int | None,
          damage: int = 0, runes: int = 0, level: int = 0, exhausted: bool = False, new: bool = False,
          note: str = "", handle: str = "") -> str:
    """One card at (x, y); exhausted ones turned a quarter aside around their centre."""
    parts = [el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=7, fill=FILL.get(kind, FILL["unit"]),
                stroke="#555555", stroke_width=1.2)]
    if cost is not None:
        parts.append(el("circle", cx=x + 12, cy=y + 12, r=9, fill="#444444"))
        parts.append(text(x + 12, y + 16, cost, 11, fill="#ffffff", text_anchor="middle", font_weight="bold"))
    parts.append(text(x + 25, y + 16, _short(name, 14), 11, fill=INK, font_weight="bold"))
    sub = kind + (f", level {level}" if level else "") + (" (new)" if new else "")
    parts.append(text(x + 8, y + 32, sub, 9, fill=MUTED))
    if note:
        parts.append(text(x + 8, y + 45, _short(note, 20), 9, fill=INK))
    if atk is not None:
        parts.append(_stat(x + 6, y + CARD_H - 26, atk, ATK_FILL, "ATK"))
    if hp is not None:
        parts.append(_stat(x + CARD_W - 36, y + CARD_H - 26, hp - damage, HP_FILL, f"HP of {hp}" if damage else "HP"))
    for i in range(min(damage, 6)):  # damage counters along the right edge
        parts.append(el("circle", cx=x + CARD_W - 9, cy=y + 30 + i * 9, r=4, fill=DAMAGE_FILL))
    if damage:
        parts.append(text(x + CARD_W - 16, y + 48, f"{damage} dmg", 9, fill=DAMAGE_FILL, text_anchor="end"))
    if runes:
        parts.append(el("rect", x=x + 40, y=y + CARD_H - 25, width=32, height=16, rx=8,
                        fill="#ffffff", stroke=INK, stroke_width=0.8))
        parts.append(text(x + 56, y + CARD_H - 13, f"{runes:+d}/{runes:+d}", 9, fill=INK, text_anchor="middle"))
    if exhausted:
        parts.append(el("rect", x=x, y=y + CARD_H / 2 - 9, width=CARD_W, height=16, fill="#555555", fill_opacity=0.8))
        parts.append(text(x + CARD_W / 2, y + CARD_H / 2 + 3, "EXHAUSTED", 10, fill="#ffffff", text_anchor="middle",
                          font_weight="bold", letter_spacing=1))
        turn = f"rotate(8 {x + CARD_W / 2:.0f} {y + CARD_H / 2:.0f})"
        return el("g", *parts, class_="card", data_card=name, data_handle=handle or None, data_exhausted="1",
                  transform=turn)
    return el("g", *parts, class_="card", data_card=name, data_handle=handle or None)


def _thing(x: float, y: float, t: ThingView) -> str:
    c = cards.CARDS.get(t.card)
    cost = c.cost if c is not None else None
    return _card(x, y, t.card, kind=_kind(t.card), cost=cost, atk=t.atk, hp=t.hp, damage=t.damage, runes=t.runes,
                 level=t.level, exhausted=t.exhausted, new=t.new, note=", ".join(t.keywords), handle=t.handle)


def _hand_card(x: float, y: float, name: str) -> str:
    if name not in cards.CARDS:  # a card on its way, or one the data does not know
        return _card(x, y, name, kind="card", cost=None, atk=None, hp=None)
    c = cards.CARDS[name]
    fighter = c.type in ("unit", "hero", "token")
    return _card(x, y, name, kind=_kind(name), cost=c.cost, atk=c.atk if fighter else None,
                 hp=c.hp if fighter or c.type == "building" else None, note=", ".join(c.subtypes))


def _empty(x: float, y: float, label: str) -> str:
    return (el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=7, fill="none", stroke="#aaaaaa",
               stroke_dasharray="5 4")
            + text(x + CARD_W / 2, y + CARD_H / 2 + 4, "(empty)", 10, fill="#999999", text_anchor="middle"))


def _row_label(y: float, label: str) -> str:
    return text(12, y - 4, label, 10, fill=MUTED, font_weight="bold")


PER_ROW = 7


def _home_heroes(side: SideView) -> list[tuple[str, str]]:
    """(name, note) of each hero waiting in the command zone."""
    if not side.heroes:  # a view of before 3-hero mode
        return [(side.hero, f"back from turn {side.hero_back}" if side.hero_back else "in the command zone")] \
            if side.hero_home else []
    return [(h.name, "out of the game" if h.gone else f"back from turn {h.back}" if h.back else "in the command zone")
            for h in side.heroes if not h.handle]


def _buildings(side: SideView, x0: float, y: float) -> tuple[list[str], int]:
    """The base, each other building (its HP left, or "being built"), and
    the heroes waiting in the command zone, `PER_ROW` to a row; and how
    many rows they take."""
    out = [_card(x0, y, "Base", kind="building", cost=None, atk=None, hp=side.base_max,
                 damage=side.base_max - side.base_hp)]

    def at(i: int) -> tuple[float, float]:
        return x0 + (i % PER_ROW) * (CARD_W + GAP), y + (i // PER_ROW) * (CARD_H + GAP)

    for i, b in enumerate(side.building_cards, 1):
        note = "being built" if not b.done else ""
        if b.spec:
            note = f"{b.spec}, {note}" if note else b.spec
        out.append(_card(*at(i), b.name, kind="building", cost=None, atk=None, hp=b.max_hp,
                         damage=b.max_hp - b.hp, note=note))
    for i, (name, note) in enumerate(_home_heroes(side), 1 + len(side.building_cards)):
        hero = cards.HEROES[name]
        out.append(_card(*at(i), name, kind="hero", cost=hero.cost, atk=hero.atk, hp=hero.hp, note=note))
    return out, (len(out) + PER_ROW - 1) // PER_ROW


def _panel(side: SideView, y: float, own: bool, active: bool) -> tuple[str, float]:
    parts = []
    head = (f"{side.seat} - {side.specs}{' (to play)' if active else ''}: base {side.base_hp}/{side.base_max}, "
            f"gold {side.gold}, workers {side.workers}")
    parts.append(text(12, y + 18, head, 15, fill=INK, font_weight="bold"))
    piles = f"hand {side.hand}  deck {side.deck}  discard {side.discard}  codex {side.codex}"
    if side.ongoing:
        piles += "   ongoing: " + ", ".join(side.ongoing)
    parts.append(text(12, y + 35, piles, 12, fill=INK))
    row = y + 56
    homes = len(_home_heroes(side))
    parts.append(_row_label(row, "buildings" + (" and hero" + "es" * (homes > 1) if homes else "")))
    cards_of, rows = _buildings(side, 12, row)
    parts += cards_of
    row += rows * (CARD_H + GAP) - GAP + 22
    parts.append(_row_label(row, "patrol zone"))
    by_handle = {t.handle: t for t in side.things}
    for i, (label, h) in enumerate(zip(SLOT_NAMES, side.patrol)):
        x = 12 + i * (CARD_W + GAP)
        parts.append(text(x + CARD_W / 2, row + CARD_H + 11, label, 9, fill=MUTED, text_anchor="middle"))
        parts.append(_thing(x, row, by_handle[h]) if h in by_handle else _empty(x, row, label))
    row += CARD_H + 34  # room for a card turned aside above
    rest = [t for t in side.things if t.handle not in side.patrol]
    per_row = PER_ROW
    if rest:
        parts.append(_row_label(row, "in play"))
        row += 8  # a card turned aside rises above its place
        for i, t in enumerate(rest):
            parts.append(_thing(12 + (i % per_row) * (CARD_W + GAP), row + (i // per_row) * (CARD_H + GAP), t))
        row += ((len(rest) + per_row - 1) // per_row) * (CARD_H + GAP) + 14
    if own and side.my_hand is not None:
        parts.append(_row_label(row, f"your hand ({len(side.my_hand)})"))
        for i, name in enumerate(side.my_hand):
            parts.append(_hand_card(12 + (i % per_row) * (CARD_W + GAP), row + (i // per_row) * (CARD_H + GAP), name))
        row += max(1, (len(side.my_hand) + per_row - 1) // per_row) * (CARD_H + GAP) + 4
        parts.append(text(12, row, "your hand: " + (", ".join(side.my_hand) or "-"), 11, fill=INK))
        row += 8
    return "".join(parts), row + 10 - y


def render_svg(view: Any) -> str:
    if not isinstance(view, View):
        view = msgspec.convert(view, View)
    order = sorted(view.sides, key=lambda s: s.seat == view.seat)
    body = []
    y = 8.0
    if view.outcome is not None:
        body.append(text(12, y + 16, f"Game over: {view.outcome.reason}", 15, fill=INK, font_weight="bold"))
        y += 24
    for side in order:
        panel, height = _panel(side, y, side.seat == view.seat, side.seat == view.active)
        body.append(el("rect", x=4, y=y, width=W - 8, height=height - 4, rx=8, fill="none", stroke="#999999"))
        body.append(panel)
        y += height
    lines = (view.log or view.last_log)[-6:]
    for i, line in enumerate(lines):
        body.append(text(12, y + 14 + i * 15, line, 11, fill="#333333"))
    y += 15 * len(lines) + 12
    return document(W, int(y), f"Codex, turn {view.turn}", *body, background="#fbf8f0", font_family="sans-serif",
                    data_game="codex")
