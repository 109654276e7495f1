"""What a seat may see (`view`) and its text picture (`render`).

A view holds the public board (bases, gold, workers, buildings, things in
play with their current values, patrol zones, ongoing spells, pile counts,
this turn's log) plus, for its own seat only, the names in its hand, its
discard pile, its workers and what is left in its codex.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from pbem.games.base import Outcome, fit_lines, identity
from pbem.games.codex_v1 import cards, engine
from pbem.games.codex_v1.commands import handle
from pbem.games.codex_v1.state import State, codex, deck, discard, hand, ongoing, workers


class ThingView(msgspec.Struct, frozen=True):
    handle: str
    card: str
    atk: int
    hp: int
    damage: int
    runes: int
    exhausted: bool
    new: bool
    level: int
    keywords: list[str]


class SideView(msgspec.Struct, frozen=True):
    seat: str
    spec: str
    hero: str
    hero_home: bool
    hero_back: int
    base_hp: int
    gold: int
    workers: int
    hand: int
    deck: int
    discard: int
    codex: int
    buildings: list[str]
    things: list[ThingView]
    patrol: list[str]
    ongoing: list[str]
    my_hand: list[str] | None = None
    my_discard: list[str] | None = None
    my_workers: list[str] | None = None
    my_codex: list[str] | None = None


class View(msgspec.Struct, frozen=True):
    seat: str | None
    turn: int
    active: str
    phase: str
    sides: list[SideView]
    log: list[str]
    last_log: list[str]
    outcome: Outcome | None
    prompt: str = ""


def _names(state: State, zone: str) -> list[str]:
    return sorted(identity(it) for it in state.zones[zone].items)


def view(state: State, seat: str | None) -> View:
    sides = []
    for s in state.seats:
        p = state.players[s]
        things = []
        for r in engine.things_of(state, s):
            t = state.things[r]
            kw = sorted(k for k, v in engine.keywords(state, r).items() if v)
            things.append(ThingView(handle(state, r), t.card, engine.atk(state, r), engine.hp(state, r),
                                    t.damage, t.runes, t.exhausted, t.since >= state.turn, t.level, kw))
        blds = []
        for kind, b in p.buildings.items():
            info = cards.BUILDINGS[kind]
            blds.append(f"{info['name']} {info['hp'] - b.damage}/{info['hp']}" + ("" if b.done else " (building)"))
        own = seat == s
        sides.append(SideView(
            seat=s, spec=p.spec, hero=p.hero, hero_home=p.hero_home,
            hero_back=p.hero_back, base_hp=max(0, cards.BASE_HP - p.base_damage), gold=p.gold,
            workers=engine.worker_count(state, s), hand=len(state.zones[hand(s)].items),
            deck=len(state.zones[deck(s)].items), discard=len(state.zones[discard(s)].items),
            codex=len(state.zones[codex(s)].items), buildings=blds, things=things,
            patrol=[handle(state, r) if r in state.things else "" for r in state.patrol.get(s, [""] * 5)],
            ongoing=[it.card for it in state.zones[ongoing(s)].items],
            my_hand=_names(state, hand(s)) if own else None,
            my_discard=_names(state, discard(s)) if own else None,
            my_workers=_names(state, workers(s)) if own else None,
            my_codex=_names(state, codex(s)) if own else None,
        ))
    return View(seat=seat, turn=state.turn, active=state.active, phase=state.phase, sides=sides,
                log=list(state.log), last_log=list(state.last_log), outcome=state.outcome,
                prompt=_prompt(state, seat))


def _prompt(state: State, seat: str | None) -> str:
    if state.outcome is not None:
        return "the game is over"
    who = "your" if seat == state.active else f"{state.active}'s"
    what = {"tech": "turn: tech first", "main": "main phase"}.get(state.phase, "turn")
    return f"{who} {what}"


def _counted(names: list[str]) -> str:
    c = Counter(names)
    return ", ".join(f"{n} x{k}" if k > 1 else n for n, k in sorted(c.items())) or "-"


def render(v: View) -> str:
    lines = [f"Codex (1 hero) - turn {v.turn}, {v.active} to play ({v.phase})"]
    if v.outcome is not None:
        lines.append(f"Game over: {v.outcome.reason}; winner: {', '.join(v.outcome.winners) or 'nobody'}")
    for side in v.sides:
        me = " (you)" if side.seat == v.seat else ""
        lines.append("-" * 78)
        lines.append(f"{side.seat}{me} - {side.spec}: base {side.base_hp}/20  gold {side.gold}  "
                     f"workers {side.workers}")
        lines.append(f"  hand {side.hand}  deck {side.deck}  discard {side.discard}  codex {side.codex}")
        hero = f"{side.hero} in command zone" if side.hero_home else f"{side.hero} in play"
        if side.hero_home and side.hero_back:
            hero += f" (back from turn {side.hero_back})"
        lines.append(f"  hero: {hero}")
        lines.append(f"  buildings: base, {', '.join(side.buildings) or 'no others'}")
        if side.ongoing:
            lines.append(f"  ongoing: {', '.join(side.ongoing)}")
        slots = [f"{w}={h}" for w, h in zip(("SL", "elite", "scav", "tech", "look"), side.patrol) if h]
        lines.append(f"  patrol: {' '.join(slots) or 'empty'}")
        for t in side.things:
            marks = []
            if t.level:
                marks.append(f"L{t.level}")
            if t.damage:
                marks.append(f"{t.damage} dmg")
            if t.runes:
                marks.append(f"{t.runes:+d} rune" + ("s" if abs(t.runes) > 1 else ""))
            if t.exhausted:
                marks.append("exhausted")
            if t.new:
                marks.append("new")
            marks += t.keywords
            lines.append(f"  - {t.handle}: {t.atk}/{t.hp - t.damage}" + (f" ({', '.join(marks)})" if marks else ""))
        if side.my_hand is not None:
            lines.append(f"  your hand: {_counted(side.my_hand)}")
            lines.append(f"  your discard: {_counted(side.my_discard or [])}")
            lines.append(f"  your workers: {_counted(side.my_workers or [])}")
            lines.append(f"  your codex: {_counted(side.my_codex or [])}")
    if v.log or v.last_log:
        lines.append("-" * 78)
        for text in (v.log or v.last_log)[-8:]:
            lines.append(f"  {text}")
    return "\n".join(fit_lines(lines))
