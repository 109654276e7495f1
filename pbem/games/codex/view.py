"""What a seat may see (`view`) and its text picture (`render`).

A view holds the public board (bases, gold, workers, buildings, things in
play with their current values, patrol zones, ongoing spells, pile counts,
this turn's log) plus, for its own seat only, the names in its hand, its
discard pile, its workers and what is left in its codex.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from pbem.games.base import Known, Outcome, compact_lines, fit_lines
from pbem.games.codex import board, cards, values
from pbem.games.codex.commands import answer_text, handle
from pbem.games.codex.state import State, codex, deck, discard, future, hand, ongoing, workers


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
    kind: str = "unit"
    counters: dict[str, int] = {}
    #: what it is transformed into ("": itself)
    shows: str = ""


class BuildingView(msgspec.Struct, frozen=True):
    """A building other than the base, for the card picture."""

    kind: str  # tech1, tech2, tech3, surplus, tower
    name: str
    hp: int  # left
    max_hp: int
    done: bool  # False while it is being built this turn


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
    future: list[str] = []
    building_cards: list[BuildingView] = []
    #: the base's full HP (a Two-Headed Dragon team's shared base: 30)
    base_max: int = cards.BASE_HP
    #: Two-Headed Dragon: the seat's team
    team: str = ""


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


#: a card of the seat's own zone it cannot read yet: drawn, and the dealer's
#: file that shows it has not arrived (a referee or peer game)
ON_ITS_WAY = "(a card on its way)"


def _names(state: State, zone: str) -> list[str]:
    return sorted(it.card if isinstance(it, Known) else ON_ITS_WAY for it in state.zones[zone].items)


def view(state: State, seat: str | None) -> View:
    with values.frozen(state):
        return _view(state, seat)


def _view(state: State, seat: str | None) -> View:
    sides = []
    for s in state.seats:
        p = state.players[s]
        things = []
        for r in board.things_of(state, s):
            t = state.things[r]
            v = values.get(state, r)
            kw = sorted(k for k, n in v.kw.items() if n)
            kind = board.kind_of(state, r)
            shows = board.face(state, r).name
            things.append(ThingView(handle(state, r), t.card, v.atk if kind != "building" else 0, v.hp,
                                    t.damage, t.runes, t.exhausted, t.since >= state.turn, t.level, kw,
                                    kind=kind, counters=dict(t.counters), shows="" if shows == t.card else shows))
        hero_name = next(iter(p.heroes))
        hero = p.heroes[hero_name]
        blds, cards_of = [], []
        for kind, b in p.buildings.items():
            info = cards.BUILDINGS[kind]
            blds.append(f"{info['name']} {info['hp'] - b.damage}/{info['hp']}" + ("" if b.done else " (building)"))
            cards_of.append(BuildingView(kind, info["name"], info["hp"] - b.damage, info["hp"], b.done))
        own = seat == s
        sides.append(SideView(
            seat=s, spec=p.spec, hero=hero_name, hero_home=hero.home,
            hero_back=hero.back, base_hp=max(0, board.base_max(state) - p.base_damage), gold=p.gold,
            workers=board.worker_count(state, s), hand=len(state.zones[hand(s)].items),
            deck=len(state.zones[deck(s)].items), discard=len(state.zones[discard(s)].items),
            codex=len(state.zones[codex(s)].items), buildings=blds, things=things,
            patrol=[handle(state, r) if r in state.things else "" for r in state.patrol.get(s, [""] * 5)],
            ongoing=[it.card for it in state.zones[ongoing(s)].items],
            my_hand=_names(state, hand(s)) if own else None,
            my_discard=_names(state, discard(s)) if own else None,
            my_workers=_names(state, workers(s)) if own else None,
            my_codex=_names(state, codex(s)) if own else None,
            future=[f"{it.card} ({state.future[it.ref].time})" for it in state.zones[future(s)].items],
            building_cards=cards_of, base_max=board.base_max(state), team=state.teams.get(s, ""),
        ))
    return View(seat=seat, turn=state.turn, active=state.active, phase=state.phase, sides=sides,
                log=list(state.log), last_log=list(state.last_log), outcome=state.outcome,
                prompt=_prompt(state, seat))


def _prompt(state: State, seat: str | None) -> str:
    if state.outcome is not None:
        return "the game is over"
    if state.prompt is not None:
        q = state.prompt
        who = "you" if seat == q.seat else q.seat
        if q.kind == "card":  # the options would show the zones' cards
            where = " or ".join(z.split(":")[0] for z in q.zones)
            return f"{who} to choose: {q.what} (from {where}: {where.split()[0]}:NAME, or none)"
        shown = ", ".join(answer_text(state, seat or "", o) for o in q.options)
        return f"{who} to choose: {q.what} ({shown})"
    who = "your" if seat == state.active else f"{state.active}'s"
    what = {"tech": "turn: tech first", "main": "main phase"}.get(state.phase, "turn")
    return f"{who} {what}"


def _counted(names: list[str]) -> str:
    c = Counter(names)
    return ", ".join(f"{n} x{k}" if k > 1 else n for n, k in sorted(c.items())) or "-"


def render(v: View) -> str:
    teams = " against ".join(dict.fromkeys(s.team for s in v.sides if s.team))
    mode = f"1 hero, {teams}" if teams else "1 hero" if len(v.sides) == 2 else \
        f"1 hero, free-for-all of {len(v.sides)}"
    lines = [f"Codex ({mode}) - turn {v.turn}, {v.active} to play ({v.phase})"]
    if v.outcome is not None:
        lines.append(f"Game over: {v.outcome.reason}; winner: {', '.join(v.outcome.winners) or 'nobody'}")
    for side in v.sides:
        me = " (you)" if side.seat == v.seat else ""
        lines.append("-" * 78)
        team = f" ({side.team})" if side.team else ""
        lines.append(f"{side.seat}{me}{team} - {side.spec}: base {side.base_hp}/{side.base_max}  gold {side.gold}  "
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
        if side.future:
            lines.append(f"  future: {', '.join(side.future)}")
        for t in side.things:
            if t.kind in ("upgrade", "building"):
                extra = f" {t.hp - t.damage}/{t.hp} HP" if t.kind == "building" else ""
                marks = [f"{k} {n}" for k, n in sorted(t.counters.items())] + (["exhausted"] if t.exhausted else [])
                lines.append(f"  - {t.handle}: {t.kind}{extra}" + (f" ({', '.join(marks)})" if marks else ""))
                continue
            marks = [f"a {t.shows} now"] if t.shows else []
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
            marks += [f"{k} {n}" for k, n in sorted(t.counters.items())]
            marks += t.keywords
            lines.append(f"  - {t.handle}: {t.atk}/{t.hp - t.damage}" + (f" ({', '.join(marks)})" if marks else ""))
        if side.my_hand is not None:
            lines.append(f"  your hand: {_counted(side.my_hand)}")
            lines.append(f"  your discard: {_counted(side.my_discard or [])}")
            lines.append(f"  your workers: {_counted(side.my_workers or [])}")
            lines.append(f"  your codex: {_counted(side.my_codex or [])}")
    if v.prompt.startswith(("you to choose", f"{v.active} to choose")):
        lines.append(f"  {v.prompt}")
    if v.log or v.last_log:
        lines.append("-" * 78)
        for text in (v.log or v.last_log)[-8:]:
            lines.append(f"  {text}")
    return "\n".join(fit_lines(lines))


def _thing_text(t: ThingView) -> str:
    marks = [m for m in (f"L{t.level}" if t.level else "", f"{t.damage} dmg" if t.damage else "",
                         f"{t.runes:+d} runes" if t.runes else "", "exhausted" if t.exhausted else "") if m]
    return f"{t.handle} {t.atk}/{t.hp - t.damage}" + (f" ({', '.join(marks)})" if marks else "")


def _opponent_line(side: SideView, active: bool) -> str:
    """One line for an opponent among several: base, gold, workers, hand,
    hero, what patrols and how much is in play."""
    hero = side.hero + (" home" if side.hero_home else "")
    patrol = ",".join(h for h in side.patrol if h) or "-"
    team = f" ({side.team})" if side.team else ""
    return (f"{'>' if active else ' '}{side.seat}{team} {side.spec}: base {side.base_hp} gold {side.gold} "
            f"w{side.workers} h{side.hand}; {hero}; patrol {patrol}; {len(side.things)} in play")


def compact(v: View) -> str:
    """Each side in three lines or so (base, gold, workers, piles; hero,
    buildings, patrol; what is in play), the viewer's hand, the last event:
    at most a dozen lines for `pbem play` (the full picture: `render`).
    Among more than two seats each opponent gets one line (`_opponent_line`)
    and only the viewer's side the rest."""
    parts: list[tuple[list[str], bool]] = []
    if v.outcome is not None:
        parts.append(([f"Game over: {v.outcome.reason}; winner: {', '.join(v.outcome.winners) or 'nobody'}"], False))
    for side in v.sides:
        if len(v.sides) > 2 and side.seat != v.seat:
            parts.append(([_opponent_line(side, side.seat == v.active)], False))
            continue
        me = " (you)" if side.seat == v.seat else ""
        parts.append(([f"{side.seat}{me} {side.spec}: base {side.base_hp}/{side.base_max}, gold {side.gold}, workers "
                       f"{side.workers}; hand {side.hand}, deck {side.deck}, discard {side.discard}"], False))
        hero = side.hero + (" (command zone)" if side.hero_home else "")
        slots = [f"{w}={h}" for w, h in zip(("SL", "elite", "scav", "tech", "look"), side.patrol) if h]
        parts.append(([f"  hero {hero}; buildings: {', '.join(side.buildings) or '-'}; "
                       f"patrol: {' '.join(slots) or '-'}"], side.seat != v.seat))
        if side.things:
            parts.append((["  in play: " + "; ".join(_thing_text(t) for t in side.things)], False))
        if side.my_hand is not None:
            parts.append(([f"  your hand: {_counted(side.my_hand)}"], False))
    if v.log or v.last_log:
        parts.append((["last: " + (v.log or v.last_log)[-1]], True))
    return compact_lines(parts)
