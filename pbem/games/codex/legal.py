"""`legal`: the commands a seat may make now, in a fixed order.

Every command listed passes `apply`. Where a choice has many equivalent
answers the list keeps a useful selection (`apply` accepts any): patrol
layouts (none, each ready thing as squad leader alone, and each as squad
leader with the others by HP), a repair target (every damaged building
and one undamaged), damage splits (all of it on one target, or one each).
A pending question (`State.prompt`) is answered with ``choose``: one
command per option (for a card of one's own hand or codex, none or one
copy of each card that may be chosen).
"""

from __future__ import annotations

import itertools

import msgspec

from pbem.errors import IllegalCommand
from pbem.games.base import Known, Zone, copy_struct, identity
from pbem.games.codex import activated, board, cards, combat, events, ffa, hidden, maps, modes, play, resolve, rules, select
from pbem.games.codex import targets as targeting
from pbem.games.codex import turn, values
from pbem.games.codex.commands import (
    Attack,
    Build,
    Choices,
    Choose,
    Command,
    End,
    Hire,
    Level,
    Loan,
    Play,
    Repair,
    Summon,
    Tech,
    Use,
)
from pbem.games.codex.state import TECH, Prompt, State, Thing, codex, hand, ref_key
from pbem.games.codex.state import play as play_zone


def _hand_names(state: State, seat: str) -> dict[str, str]:
    """Name -> lowest ref, for the seat's hand."""
    out: dict[str, str] = {}
    for it in sorted(state.zones[hand(seat)].items, key=lambda i: ref_key(i.ref)):
        out.setdefault(identity(it), it.ref)
    return dict(sorted(out.items()))


def _card_answers(state: State, q: Prompt) -> list[str]:
    """One copy of each card of each zone a ``card`` question names that its
    filter takes (lowest ref first), on the chooser's own knowledge."""
    seen: dict[tuple[str, str], str] = {}
    for zone in q.zones:
        for it in sorted(state.zones[zone].items, key=lambda i: ref_key(i.ref)):
            if isinstance(it, Known) and it.ref not in q.taken and select.card_matches(q.pick, it.card):
                seen.setdefault((zone, it.card), it.ref)
    return list(seen.values())


def _orders(state: State, q: Prompt) -> list[tuple[str, ...]]:
    """Each new order of the cards an ``order`` question puts back, and
    (where the card lets some be discarded) each choice of those discarded
    after a ``""``; copies of one card are one choice (the writer re-chooses
    which copy anyway); on the chooser's own knowledge: none until it knows
    them all."""
    ev = next(it.ev for it in state.queue if it.key == hidden.ARRANGE and it.ctrl == q.seat)
    items = state.zones[q.zones[0]].items[: int(ev["n"])]
    if not all(isinstance(it, Known) for it in items):
        return []
    out: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
    for order in itertools.permutations(items):
        for k in range(len(order), -1 if ev.get("discard") else len(order) - 1, -1):
            kept, gone = order[:k], sorted(order[k:], key=lambda it: ref_key(it.ref))
            key = (tuple(identity(it) for it in kept), tuple(sorted(identity(it) for it in gone)))
            out.setdefault(key, tuple(it.ref for it in kept) + (("", *(it.ref for it in gone)) if gone else ()))
    return [out[k] for k in sorted(out, key=lambda k: (-len(k[0]), k))]


def legal(state: State, seat: str) -> list[Command]:
    if seat not in rules.to_act(state):
        return []
    with values.frozen(state):
        q = state.prompt
        if q is not None and q.kind == "card":
            return [Choose([""])] * q.optional + [Choose([r]) for r in _card_answers(state, q)]
        if q is not None and q.kind == "order":
            return [Choose(list(order)) for order in _orders(state, q)]
        if q is not None:
            return [Choose([o]) for o in q.options]
        if state.phase == TECH:
            return _legal_tech(state, seat)
        return _legal_main(state, seat)


def _legal_main(state: State, seat: str) -> list[Command]:
    out: list[Command] = []
    p = state.players[seat]
    hand_names = _hand_names(state, seat)
    if (p.hired != state.turn or maps.has(state, "flagstone-mines")) and p.gold >= play.hire_cost(state, seat):
        out += [Hire("")] if maps.has(state, "daggerfall-prison-camp") else [Hire(ref) for ref in hand_names.values()]
    out += [Build(k, specs=specs) for k in cards.BUILDINGS if rules.can_build(state, seat, k) is None
            for specs in modes.spec_choices(state, seat, k)]
    for name in p.heroes:
        if rules.summon_problem(state, seat, name) is None:
            out.append(Summon(name))
    for hero in board.heroes_in_play(state, seat):
        t = state.things[hero]
        for n in range(1, min(p.gold, cards.max_level(t.card) - t.level) + 1):
            out.append(Level(hero, n))
    for name, ref in hand_names.items():
        out += _legal_play(state, seat, name, ref)
    top = hidden.top_card(state, seat) if p.flags.get(hidden.PLAY_TOP) == state.turn else None
    top_name = identity(state.zones[top[0]].items[0]) if top is not None else ""
    if top_name and top_name not in hand_names:  # a copy in the hand is played first (`parse`)
        out += _legal_play(state, seat, top_name, top[1])
    for ref in board.things_of(state, seat) + board.spells_of(state, seat):
        out += _legal_use(state, seat, ref)
    for ref in board.fighters_of(state, seat):
        out += _legal_attacks(state, ref)
    if state.mode == ffa.FFA:
        out += [Repair(n) for n in range(1, min(p.base_damage, p.gold // ffa.REPAIR_COST) + 1)]
    out += _legal_end(state, seat)
    return out


def _legal_tech(state: State, seat: str) -> list[Command]:
    least, most = rules.tech_count(state, seat)
    names: dict[str, list[str]] = {}
    for it in sorted(state.zones[codex(seat)].items, key=lambda i: ref_key(i.ref)):
        names.setdefault(identity(it), []).append(it.ref)
    order = sorted(names)
    choices: list[list[str]] = []
    for n in range(least, most + 1):
        for combo in itertools.combinations_with_replacement(order, n):
            refs: list[str] = []
            for name in combo:
                pool = [r for r in names[name] if r not in refs]
                if not pool:
                    break
                refs.append(pool[0])
            else:
                choices.append(refs)
    items = turn.upkeep_items(state, seat)
    firsts: list[list[str]] = [[]]
    if len({(it.key, it.card) for it in items}) > 1:
        default = events.order(state, items)[0].src
        firsts += [[src] for src in dict.fromkeys(it.src for it in items) if src != default]
    # Mystical Forest: no rune, or a rune on everything that may take one
    # (any other set is legal too; these two keep the list short)
    grows = rules.grows(state, seat)
    runes = [[], grows] if grows else [[]]
    return [Tech(refs, Choices(first=first, runes=r)) for refs in choices for first in firsts for r in runes]


def _choice_sets(state: State, seat: str, name: str) -> list[Choices]:
    """The card's own non-target choices worth listing (boost or not, each mode set, each X)."""
    c = cards.CARDS[name]
    boosts = [False, True] if c.boost else [False]
    out = []
    for boost in boosts:
        modes = c.raw.get("modes")
        if modes:
            pick = len(modes) if boost and c.raw.get("boost_all") else int(c.raw.get("pick", 1))
            mode_sets = [list(m) for m in itertools.combinations(range(len(modes)), pick)]
        else:
            mode_sets = [[]]
        xs = range(int(c.raw["x"].get("max", 20)) + 1) if c.raw.get("x") else [0]
        for modes_ in mode_sets:
            for x in xs:
                out.append(Choices(boost=boost, modes=modes_, x=x))
    return out


def _splits(state: State, seat: str, c: cards.Card, chosen: list[str]) -> list[list[int]]:
    split = next((e for e in c.do if "split_damage" in e), None)
    if split is None:
        return [[]]
    among = [int(p[1:]) for p in split["among"]]
    picked = [i for i in among if i < len(chosen) and chosen[i]]
    total = play.split_total(state, seat, c)
    if not picked or len(picked) > total:
        return []
    outs = []
    for heavy in picked:  # all but one each on the others, the rest on `heavy`
        amounts = [0] * len(among)
        for j, i in enumerate(among):
            if i in picked:
                amounts[j] = 1
        amounts[among.index(heavy)] += total - len(picked)
        if amounts not in outs:
            outs.append(amounts)
    return outs


def _legal_play(state: State, seat: str, name: str, ref: str) -> list[Command]:
    c = cards.CARDS[name]
    if play.requirement(state, seat, name) or c.raw.get("discard"):
        return []
    gold = state.players[seat].gold
    out: list[Command] = []
    for ch in _choice_sets(state, seat, name):
        price = play.cost(state, seat, name, ch)
        if price > gold:
            continue
        if c.type != "spell":
            out += [Play(ref, t, False, ch) for t in _arrival_targets(state, seat, name, ref, gold - price, ch.boost)]
            continue
        for chosen in targeting.options(state, seat, ref, play.parts_for(c, list(ch.modes)), gold - price):
            for split in _splits(state, seat, c, chosen):
                choice = Choices(boost=ch.boost, modes=ch.modes, x=ch.x, split=split)
                out.append(Play(ref, chosen, False, choice))
                if c.may_top:
                    out.append(Play(ref, chosen, True, choice))
    return out


def _own_options(state: State, seat: str, src: str, abilities: list, gold: int) -> list[list[str]]:
    """Target lists for a command's own triggers (`targets.check_own`)."""
    abilities = [ab for ab in abilities if ab.targets]
    parts = [part for ab in abilities for part in ab.targets]
    if not parts:
        return [[]]
    declined = [[""] * len(parts)] if len(abilities) == 1 and abilities[0].raw.get("may") else []
    return declined + targeting.options(state, seat, src, parts, gold)


def _arrival_targets(state: State, seat: str, name: str, ref: str, gold: int, boosted: bool) -> list[list[str]]:
    ev = {"boosted": "1"} if boosted else {}
    abilities = [ab for ab in cards.CARDS[name].face.triggers.get("arrives", ())
                 if ab.targets and select.holds(state, seat, ref, ab.cond, ev)]
    if not abilities:
        return [[]]
    # the unit as if it had arrived (it may target itself): a new state
    # sharing everything else with `state`, which nothing here changes
    zone = state.zones[play_zone(seat)]
    trial = msgspec.structs.replace(
        state, things={**state.things, ref: Thing(card=name, owner=seat, controller=seat, since=state.turn,
                                                  arrived=state.turn)},
        zones={**state.zones, play_zone(seat): Zone(items=zone.items + [Known(ref, name)], readers=zone.readers,
                                                     public=zone.public)})
    with values.frozen(trial):
        return _own_options(trial, seat, ref, abilities, gold)


def _discard_sets(state: State, seat: str, n: int) -> list[list[str]]:
    """The hand cards a cost of `n` discards may take: one set of refs for
    each different set of names (lowest refs first)."""
    if not n:
        return [[]]
    items = sorted(state.zones[hand(seat)].items, key=lambda i: ref_key(i.ref))
    out: dict[tuple[str, ...], list[str]] = {}
    for combo in itertools.combinations(items, n):
        out.setdefault(tuple(sorted(identity(it) for it in combo)), [it.ref for it in combo])
    return list(out.values())


def _legal_use(state: State, seat: str, ref: str) -> list[Command]:
    out: list[Command] = []
    for ab in activated.usable(state, ref):
        alts = activated.alt_names(ab) or [""]
        for alt in range(len(alts)):
            cost = ab.cost.get("gold", 0) + (ab.cost["alt"][alt].get("gold", 0) if ab.cost.get("alt") else 0)
            for pay in _discard_sets(state, seat, activated.costs_of(ab, alt).get("discard", 0)):
                if activated.cost_problem(state, seat, ref, ab, alt, pay):
                    continue
                for chosen in targeting.options(state, seat, ref, ab.targets, state.players[seat].gold - cost):
                    out.append(Use(ref, ab.name, chosen, Choices(alt=alt, pay=pay)))
    return out


def _legal_attacks(state: State, a: str) -> list[Command]:
    if combat.can_attack_now(state, a):
        return []
    seat = state.things[a].controller
    gold = state.players[seat].gold
    own = board.face(state, a).triggers.get("attacks", [])
    out: list[Command] = []
    extras_for: dict[tuple[str, ...], list[list[str]]] = {}
    for target in combat.targets_of(state, a):
        sure, tied = combat.lowest_units(state, a, combat.defender_of(state, target))
        need = values.get(state, a).kw.get("obliterate", 0) - len(sure)
        dooms = [list(d) for d in itertools.combinations(tied, need)] if tied else [[]]
        mine = [ab for ab in own if select.holds(state, seat, a, ab.cond, {"subject": a, "attacked": target})]
        key = tuple(ab.key for ab in mine)
        if key not in extras_for:
            extras_for[key] = _own_options(state, seat, a, mine, gold)
        extras = extras_for[key]
        for doomed in dooms:
            gone = sure + doomed
            for extra in extras:
                thens = _thens(state, a, target, extra, doomed) if target in gone else [""]
                for then in thens:
                    # an attack obliterate turned elsewhere asks its spill then
                    later = target in gone
                    sparks = combat.adjacent(state, target) if values.has(state, a, "sparkshot") and not later else []
                    overs = combat.spill_targets(state, a, target) if not later else []
                    for spark in sparks or [""]:
                        for over in overs or [""]:
                            out.append(Attack(a, target, extra, spark, over, then, Choices(doomed=doomed if tied else [])))
    return out


def _thens(state: State, a: str, target: str, extra: list[str], doomed: list[str]) -> list[str]:
    """What `a` may attack once obliterate removed its target: the units
    obliterated are gone, and so is what its attack triggers destroy."""
    trial = copy_struct(state)
    try:
        combat.declare(trial, a, target, list(extra), "", "", "", list(doomed), None, checked=True)
        resolve.run(trial, None, stop_at="combat")
    except IllegalCommand:
        return [""]
    if a not in trial.things or trial.outcome is not None:
        return [""]
    return combat.targets_of(trial, a) or [""]


def _legal_end(state: State, seat: str) -> list[Command]:
    ready = [r for r in board.fighters_of(state, seat)
             if not state.things[r].exhausted and not play.cannot_patrol(state, r)]
    out: list[Command] = [End()]
    by_hp = sorted(ready, key=lambda r: (-values.hp(state, r), ref_key(r)))
    for sl in ready:
        out.append(End([sl, "", "", "", ""]))
        rest = [r for r in by_hp if r != sl][:4]
        if rest and not maps.has(state, "fury-road"):
            out.append(End([sl] + rest + [""] * (4 - len(rest))))
    if state.mode == ffa.FFA:  # lending: each ready thing alone, to each other seat's first open slot
        for to in state.seats:
            open_slots = [i for i, r in enumerate(state.patrol[to]) if not r]
            if to != seat and open_slots:
                out += [End(lend=[Loan(r, to, open_slots[0])]) for r in ready]
    return out

