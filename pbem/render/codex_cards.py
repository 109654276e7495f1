"""Codex drawn as cards in the page of `pbem serve`.

The game's own picture (`Presentation.svg`) draws plain boxes; a player choosing a
move wants cards: cost, type, ATK/HP, what each does (our own words, from
the card data), damage and runes, exhausted ones turned. This draws a
Codex view (`pbem.games.codex.view.View`) as HTML: one panel per side (the
reader's own last), its base, gold, workers, buildings, hero, patrol zone
and things in play, and for the reader its hand, its codex (what it may
tech) and its discard pile.

Everything a command can name carries ``data-pick``: the names, ``|``
apart, that the game's notation uses for it (a card in hand by its name,
a thing in play by its handle, bare and as ``me:HANDLE`` for its own side,
``opp:HANDLE`` for the other's, a building as ``opp:tech1``), so the page's
script can match a click against the legal commands. Like the picture,
this is a pure function of the view: it shows only what the view's reader
may see.
"""

from __future__ import annotations

from html import escape

from pbem.games.codex import cards
from pbem.games.codex.view import SideView, ThingView, View

SLOTS = ("Squad leader", "Elite", "Scavenger", "Technician", "Lookout")


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _pick(*names: str) -> str:
    return f" data-pick=\"{_e('|'.join(names))}\"" if names else ""


def _kind(name: str) -> str:
    try:
        return cards.kind(name)
    except KeyError:
        return "unit"


def _facts(name: str) -> tuple[str, str, str]:
    """(cost, the card's type line, what it does) from the card data."""
    c = cards.CARDS.get(name)
    if c is None:
        return "", "", ""
    if c.type == "hero":
        band = c.bands[0]
        return str(c.cost), f"{c.spec} hero", f"{band['atk']}/{band['hp']} at level 1"
    kind = c.type
    if kind == "spell":
        kind = "minor spell" if c.minor else ("ultimate spell" if c.ultimate else
                                              "ongoing spell" if c.ongoing else "spell")
    line = f"tech {c.tech} {kind}" if kind in ("unit", "building", "upgrade") and c.tech else kind
    if c.subtypes:
        line += " · " + " ".join(c.subtypes)
    text = c.text
    if c.type in ("unit", "token"):
        text = f"{c.atk}/{c.hp} · {text}"
    return str(c.cost), line, text


def card_in_hand(name: str, *, pick: bool = True) -> str:
    cost, line, text = _facts(name)
    cost_html = f"<span class=\"cost\" title=\"cost\">{_e(cost)}</span>" if cost else ""
    return (f"<li class=\"cx-card {_e(_kind(name))}\"{_pick(name) if pick else ''}>{cost_html}"
            f"<span class=\"name\">{_e(name)}</span><span class=\"kind\">{_e(line)}</span>"
            f"<span class=\"text\">{_e(text)}</span></li>")


def _thing(t: ThingView, own: bool, label: str = "") -> str:
    names = (t.handle, f"me:{t.handle}") if own else (f"opp:{t.handle}",)
    marks = []
    if t.damage:
        marks.append(f"{t.damage} damage")
    if t.runes:
        marks.append(f"{t.runes:+d} runes")
    if t.exhausted:
        marks.append("exhausted")
    if t.new:
        marks.append("new")
    if t.level:
        marks.append(f"level {t.level}")
    state = " exhausted" if t.exhausted else ""
    head = f"<span class=\"kind\">{_e(label)}</span>" if label else ""
    return (f"<li class=\"cx-card {_e(_kind(t.card))}{state}\"{_pick(*names)}>{head}"
            f"<span class=\"name\">{_e(t.card)}</span>"
            f"<span class=\"text\">{_e(', '.join(t.keywords))}</span>"
            f"<span class=\"stats\" title=\"attack / health left\">{t.atk}/{t.hp - t.damage}</span>"
            f"<span class=\"marks\">{_e(' · '.join(marks))}</span></li>")


def _building_key(text: str) -> str | None:
    for key, info in cards.BUILDINGS.items():
        if text.startswith(info["name"] + " "):
            return key
    return None


def _side(v: View, side: SideView) -> str:
    own = side.seat == v.seat
    who = "me" if own else "opp"
    active = side.seat == v.active
    things = {t.handle: t for t in side.things}
    patrol = []
    for slot, handle in zip(SLOTS, side.patrol):
        t = things.get(handle) if handle else None
        patrol.append(_thing(t, own, slot) if t is not None else
                      f"<li class=\"cx-card empty\"><span class=\"kind\">{_e(slot)}</span>"
                      "<span class=\"text\">empty</span></li>")
    on_patrol = {h for h in side.patrol if h}
    others = [_thing(t, own) for t in side.things if t.handle not in on_patrol]
    base = (f"<li class=\"cx-card building\"{_pick(f'{who}:base')}><span class=\"name\">Base</span>"
            f"<span class=\"stats\">{side.base_hp}/20</span></li>")
    blds = [base]
    for b in side.buildings:
        key = _building_key(b)
        blds.append(f"<li class=\"cx-card building\"{_pick(f'{who}:{key}') if key else ''}>"
                    f"<span class=\"name\">{_e(b)}</span></li>")
    badge = "<span class=\"badge yours\">to play</span>" if active else ""
    hero = "in play" if not side.hero_home else "in the command zone"
    if side.hero_home and side.hero_back:
        hero += f" (back from turn {side.hero_back})"
    team = getattr(side, "heroes", [])  # none in a view of rules 3 or before
    heroes = side.heroes_text() if len(team) > 1 else f"hero {side.hero} {hero}"
    rows = [
        f"<div class=\"cx-head\"><strong>{_e(side.seat)}{' (you)' if own else ''}</strong>"
        f"<span>{_e(getattr(side, 'specs', side.spec))} · {_e(heroes)}</span>"
        f"{badge}</div>",
        "<div class=\"cx-stats\">"
        f"<span>base {side.base_hp}/20</span><span>gold {side.gold}</span><span>workers {side.workers}</span>"
        f"<span>hand {side.hand}</span><span>deck {side.deck}</span><span>discard {side.discard}</span>"
        f"<span>codex {side.codex}</span></div>",
        _row("Buildings", blds, small=True),
        _row("Patrol", patrol),
        _row("In play", others or ["<li class=\"hint\">nothing else in play</li>"]),
    ]
    if side.ongoing:
        rows.append(_row("Ongoing spells", [card_in_hand(n, pick=False) for n in side.ongoing], small=True))
    if own and side.my_hand is not None:
        homes = [h.name for h in team if not h.handle and not h.gone] if team else [side.hero] * side.hero_home
        hero_card = [card_in_hand(name) for name in homes]
        rows.append(_row("Your hand", [card_in_hand(n) for n in side.my_hand] + hero_card
                         or ["<li class=\"hint\">empty</li>"]))
    if own and side.my_codex:
        rows.append(_row("Your codex (to tech)", [card_in_hand(n) for n in sorted(set(side.my_codex))], small=True))
    if own and side.my_discard:
        rows.append(f"<p class=\"hint\">discard pile: {_e(', '.join(side.my_discard))}</p>")
    return f"<div class=\"cx-side{' active' if active else ''}\" data-seat=\"{_e(side.seat)}\">{''.join(rows)}</div>"


def _row(title: str, items: list[str], small: bool = False) -> str:
    cls = "cx-row cx-small" if small else "cx-row"
    return f"<div class=\"{cls}\"><h4>{_e(title)}</h4><ul class=\"cx-cards\">{''.join(items)}</ul></div>"


def board(v: View) -> str:
    """The view as HTML: the other sides first, the reader's own last."""
    sides = sorted(v.sides, key=lambda s: s.seat == v.seat)
    log = "".join(f"<li>{_e(line)}</li>" for line in (v.last_log or v.log)[-8:])
    head = (f"<p class=\"prompt\">Codex · turn {v.turn} · {_e(v.active)} to play ({_e(v.phase)})"
            + (f" · {_e(v.outcome.reason)}" if v.outcome is not None else "") + "</p>")
    return (f"<div class=\"cx\" data-game=\"codex\">{head}{''.join(_side(v, s) for s in sides)}"
            + (f"<h4>This turn</h4><ul class=\"cx-log\">{log}</ul>" if log else "") + "</div>")
