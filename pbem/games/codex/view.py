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
from pbem.games.codex import board, cards, maps, values
from pbem.games.codex.commands import answer_text, handle
from pbem.games.codex.state import State, codex, deck, discard, future, hand, ongoing, top, workers


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
    spec: str = ""  # what a tech II or III building or a tech lab makes (3-hero mode)


class HeroView(msgspec.Struct, frozen=True):
    """A hero of the seat's team: in play (`handle`) or in the command
    zone, where it may be summoned again from turn `back` (or never:
    `gone`)."""

    name: str
    spec: str
    handle: str = ""
    back: int = 0
    gone: bool = False


class SideView(msgspec.Struct, frozen=True):
    seat: str
    spec: str
    hero: str  # the main hero (heroes[0]); 1-hero pictures read these three
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
    #: the top of its own draw pile as far as it looked, in order
    my_top: list[str] | None = None
    future: list[str] = []
    building_cards: list[BuildingView] = []
    #: another seat's hand and discard pile while a look or a reveal shows
    #: them to the viewer (`hidden`): None otherwise
    seen_hand: list[str] | None = None
    seen_discard: list[str] | None = None
    heroes: list[HeroView] = []

    @property
    def specs(self) -> str:
        return "/".join(h.spec for h in self.heroes) or self.spec

    def heroes_text(self) -> str:
        """Where the heroes are, in a line (3-hero mode: grouped)."""
        if len(self.heroes) <= 1:
            hero = f"{self.hero} in command zone" if self.hero_home else f"{self.hero} in play"
            if self.hero_home and self.hero_back:
                hero += f" (back from turn {self.hero_back})"
            return f"hero: {hero}"
        in_play = [h.name for h in self.heroes if h.handle]
        groups = (("heroes in play", in_play),
                  ("command zone" if in_play else "heroes in the command zone", [h.name + (f" (back from turn {h.back})" if h.back else "")
                                    for h in self.heroes if not h.handle and not h.gone]),
                  ("out of the game", [h.name for h in self.heroes if h.gone]))
        return "; ".join(f"{what}: {', '.join(names)}" for what, names in groups if names)
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
    #: the map card's name ("" for none) and its rule
    map: str = ""
    map_rule: str = ""


#: a card of the seat's own zone it cannot read yet: drawn, and the dealer's
#: file that shows it has not arrived (a referee or peer game)
ON_ITS_WAY = "(a card on its way)"


def _names(state: State, zone: str) -> list[str]:
    return sorted(it.card if isinstance(it, Known) else ON_ITS_WAY for it in state.zones[zone].items)


def _seen(state: State, zone: str, seat: str | None) -> list[str] | None:
    """The names of another seat's zone the viewer may read for now (a look, a reveal)."""
    z = state.zones[zone]
    return _names(state, zone) if z.public or (seat is not None and seat in z.readers) else None


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
            specs = [b.spec] if b.spec else p.tech_specs if kind in ("tech2", "tech3") else []
            blds.append(f"{info['name']} {info['hp'] - b.damage}/{info['hp']}" + ("" if b.done else " (building)")
                        + (f" ({'+'.join(specs)})" if specs else ""))
            cards_of.append(BuildingView(kind, info["name"], info["hp"] - b.damage, info["hp"], b.done, "+".join(specs)))
        own = seat == s
        sides.append(SideView(
            seat=s, spec=p.spec, hero=hero_name, hero_home=hero.home,
            hero_back=hero.back, base_hp=max(0, board.base_max(state) - p.base_damage), gold=p.gold,
            workers=board.worker_count(state, s), hand=len(state.zones[hand(s)].items),
            deck=len(state.zones[deck(s)].items) + len(state.zones[top(s)].items), discard=len(state.zones[discard(s)].items),
            codex=len(state.zones[codex(s)].items), buildings=blds, things=things,
            patrol=[handle(state, r) if r in state.things else "" for r in state.patrol.get(s, [""] * 5)],
            ongoing=[it.card for it in state.zones[ongoing(s)].items],
            my_hand=_names(state, hand(s)) if own else None,
            my_discard=_names(state, discard(s)) if own else None,
            my_workers=_names(state, workers(s)) if own else None,
            my_codex=_names(state, codex(s)) if own else None,
            my_top=[it.card if isinstance(it, Known) else ON_ITS_WAY for it in state.zones[top(s)].items] if own else None,
            future=[f"{it.card} ({state.future[it.ref].time})" for it in state.zones[future(s)].items],
            building_cards=cards_of,
            seen_hand=None if own else _seen(state, hand(s), seat),
            seen_discard=None if own else _seen(state, discard(s), seat),
            heroes=[HeroView(n, cards.CARDS[n].spec, handle(state, h.ref) if h.ref in state.things else "",
                             h.back, h.gone) for n, h in p.heroes.items()],
            base_max=board.base_max(state), team=state.teams.get(s, ""),
        ))
    return View(seat=seat, turn=state.turn, active=state.active, phase=state.phase, sides=sides,
                log=list(state.log), last_log=list(state.last_log), outcome=state.outcome,
                prompt=_prompt(state, seat), map=maps.MAPS[state.map][0] if state.map else "",
                map_rule=maps.MAPS[state.map][1] if state.map else "")


def _prompt(state: State, seat: str | None) -> str:
    if state.outcome is not None:
        return "the game is over"
    if state.prompt is not None:
        q = state.prompt
        who = "you" if seat == q.seat else q.seat
        if q.kind == "card":  # the options would show the zones' cards
            where = " or ".join(z.split(":")[0] if z.endswith(f":{q.seat}") else "opp-" + z.split(":")[0]
                                for z in q.zones)
            return f"{who} to choose: {q.what} (from {where}: {where.split()[0]}:NAME, or none)"
        if q.kind == "order":  # so would the options here
            return f"{who} to choose: {q.what} (top:NAME;top:NAME;...{';none;top:NAME...' if q.optional else ''})"
        shown = ", ".join(answer_text(state, seat or "", o) for o in q.options)
        return f"{who} to choose: {q.what} ({shown})"
    who = "your" if seat == state.active else f"{state.active}'s"
    what = {"tech": "turn: tech first", "main": "main phase"}.get(state.phase, "turn")
    return f"{who} {what}"


def _counted(names: list[str]) -> str:
    c = Counter(names)
    return ", ".join(f"{n} x{k}" if k > 1 else n for n, k in sorted(c.items())) or "-"


def render(v: View) -> str:
    heroes = max((len(side.heroes) for side in v.sides), default=1)
    hero_words = f"{heroes} hero{'es' if heroes > 1 else ''}"
    teams = " against ".join(dict.fromkeys(s.team for s in v.sides if s.team))
    mode = f"{hero_words}, {teams}" if teams else hero_words if len(v.sides) == 2 else \
        f"{hero_words}, free-for-all of {len(v.sides)}"
    lines = [f"Codex ({mode}) - turn {v.turn}, {v.active} to play ({v.phase})"]
    if v.map:
        lines.append(f"map: {v.map} ({v.map_rule})")
    if v.outcome is not None:
        lines.append(f"Game over: {v.outcome.reason}; winner: {', '.join(v.outcome.winners) or 'nobody'}")
    for side in v.sides:
        me = " (you)" if side.seat == v.seat else ""
        lines.append("-" * 78)
        team = f" ({side.team})" if side.team else ""
        lines.append(f"{side.seat}{me}{team} - {side.specs}: base {side.base_hp}/{side.base_max}  gold {side.gold}  "
                     f"workers {side.workers}")
        lines.append(f"  hand {side.hand}  deck {side.deck}  discard {side.discard}  codex {side.codex}")
        lines.append(f"  {side.heroes_text()}")
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
            if side.my_top:
                lines.append(f"  top of your draw pile (seen): {', '.join(side.my_top)}")
        if side.seen_hand is not None:
            lines.append(f"  {side.seat}'s hand (seen): {_counted(side.seen_hand)}")
        if side.seen_discard is not None:
            lines.append(f"  {side.seat}'s discard (seen): {_counted(side.seen_discard)}")
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
        slots = [f"{w}={h}" for w, h in zip(("SL", "elite", "scav", "tech", "look"), side.patrol) if h]
        if len(side.heroes) > 1:
            parts.append(([f"  {side.heroes_text()}"], side.seat != v.seat))
            parts.append(([f"  buildings: {', '.join(side.buildings) or '-'}; patrol: {' '.join(slots) or '-'}"],
                          side.seat != v.seat))
        else:
            hero = side.hero + (" (command zone)" if side.hero_home else "")
            parts.append(([f"  hero {hero}; buildings: {', '.join(side.buildings) or '-'}; "
                           f"patrol: {' '.join(slots) or '-'}"], side.seat != v.seat))
        if side.things:
            parts.append((["  in play: " + "; ".join(_thing_text(t) for t in side.things)], False))
        if side.my_hand is not None:
            parts.append(([f"  your hand: {_counted(side.my_hand)}"], False))
        if side.seen_hand is not None:
            parts.append(([f"  {side.seat}'s hand (seen): {_counted(side.seen_hand)}"], False))
    if v.log or v.last_log:
        parts.append((["last: " + (v.log or v.last_log)[-1]], True))
    return compact_lines(parts)
