"""Codex rules, 1-hero mode: set-up, the turn, legality and `apply`.

The set-up leaves every hand empty, each whole starter deck in its
owner's draw pile (phase ``opening``); `advance` draws the opening hands
of 5 and begins the first turn (README.md: a hand dealt by the set-up's
chance would be public in a peer game).

A turn of the active seat A:

1. phase ``tech`` (from A's second turn on): ``tech`` puts the cards A
   chose from its codex face down into its discard pile (two, mandatory
   below 10 workers; 0-2 from 10 on) and orders A's upkeep triggers. The
   rulebook lets A choose while the opponent plays; pbem records the choice
   as the first command of A's next file, after A has seen its new hand,
   as the rulebook's timing allows.
2. ``upkeep`` (`advance`, no decision): ready A's cards, gold per worker
   (cap 20), upkeep triggers in A's order; A's patrol zone empties (its
   patrollers count only on the opponent's turns).
3. ``main``: hire (once), build, summon, level, play, use, attack, in any
   order; ``end`` locks the patrol zone and ends the main phase.
4. ``end`` goes on without decision: draw phase (discard the hand, draw
   that many + 2, at most 5), construction finishes, "this turn" effects
   end, and the opponent's turn begins.

The game ends when a base has taken 20 damage (`engine.settle`).
"""

from __future__ import annotations

import itertools

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.base import Chance, Known, copy_struct, identity
from pbem.games.codex_v1 import abilities, cards, combat, engine
from pbem.games.codex_v1.commands import Attack, Build, Command, End, Hire, Level, Play, Summon, Tech, Use
from pbem.games.codex_v1.engine import log
from pbem.games.codex_v1.state import (
    MAIN,
    OPENING,
    OVER,
    TECH,
    UPKEEP,
    Building,
    Options,
    Player,
    State,
    codex,
    deck,
    discard,
    hand,
    ongoing,
    other,
    play,
    ref_key,
    workers,
)
from pbem.games.base import Zone


def check_options(options: Options) -> Options:
    if options.first not in ("bashing", "finesse"):
        raise InvalidOption(f"first={options.first!r}: the first seat plays bashing or finesse")
    if options.scenario is not None:
        from pbem.games.codex_v1 import scenario

        scenario.parse(options.scenario)  # raises InvalidOption
    return options


def specs_for(options: Options) -> tuple[str, str]:
    return ("Bashing", "Finesse") if options.first == "bashing" else ("Finesse", "Bashing")


def _zone(readers: list[str] | None = None, public: bool = False) -> Zone:
    return Zone(items=[], readers=list(readers or []), public=public)


def setup(options: Options, seats: list[str], chance: Chance) -> State:
    options = check_options(options)
    state = State(seats=list(seats), active=seats[0])
    zones: dict[str, Zone] = {}
    for i, (seat, spec) in enumerate(zip(seats, specs_for(options))):
        hero = cards.HERO_OF[spec]
        state.players[seat] = Player(spec=spec, hero=hero, base_workers=4 if i == 0 else 5)
        state.patrol[seat] = [""] * 5
        zones[deck(seat)] = _zone()
        zones[hand(seat)] = _zone([seat])
        zones[discard(seat)] = _zone([seat])
        zones[codex(seat)] = _zone([seat])
        zones[workers(seat)] = _zone([seat])
        zones[play(seat)] = _zone(public=True)
        zones[ongoing(seat)] = _zone(public=True)
    state.zones = zones
    if options.scenario is not None:
        from pbem.games.codex_v1 import scenario

        scenario.apply_scenario(state, scenario.parse(options.scenario), chance)
        if state.phase == UPKEEP:
            start_turn(state, chance)
        return state
    for seat in seats:
        spec = state.players[seat].spec
        # secret shuffles first, refs after: a ref says nothing about its card
        for zone, names in ((deck(seat), cards.STARTER), (codex(seat), cards.codex_cards(spec))):
            for name in chance.shuffle(list(names)):
                zones[zone].items.append(Known(f"c{state.next_ref:03d}", name))
                state.next_ref += 1
    # the whole starter deck is each seat's draw pile: which cards the hand
    # gets is not the set-up's chance but draws of the opening (`advance`),
    # which a peer game picks from a link no writer of the set-up foresaw
    # (set-up chance is public there: a hand dealt here would be known)
    state.phase = OPENING
    return state


def deal_opening(state: State, chance: Chance) -> None:
    """Each seat draws its opening hand, then the first turn begins at
    once: its upkeep needs no decision (mutates)."""
    for seat in state.seats:
        engine.draw(state, seat, cards.HAND_MAX, chance)
    start_turn(state, chance)


# --- the turn --------------------------------------------------------------------------


def to_act(state: State) -> list[str]:
    return [state.active] if state.phase in (TECH, MAIN) else []


def advance(state: State, chance: Chance) -> State:
    if state.phase == OPENING:
        state = copy_struct(state)
        deal_opening(state, chance)
        return state
    if state.phase != UPKEEP:
        return state
    state = copy_struct(state)
    start_turn(state, chance)
    return state


def start_turn(state: State, chance: Chance) -> None:
    """Ready and upkeep of the active seat, then its main phase (mutates)."""
    seat = state.active
    p = state.players[seat]
    p.turns += 1
    state.log.append(f"turn {state.turn}: {seat}")
    for ref in engine.things_of(state, seat):
        state.things[ref].exhausted = False
    state.patrol[seat] = [""] * 5
    state.detected = {}
    workers_now = engine.worker_count(state, seat)
    engine.gain_gold(state, seat, workers_now)
    log(state, f"{seat} gets {workers_now} gold")
    triggers = abilities.upkeep_triggers(state, seat)
    order = [t for f in state.upkeep_first for t in triggers if t[0] == f]
    order += [t for t in triggers if t not in order]
    for ref, kind in order:
        if state.phase == OVER:
            break
        abilities.resolve_upkeep(state, seat, ref, kind, chance)
        engine.settle(state, chance)
    state.upkeep_first = []
    for s in state.seats:
        state.players[s].reshuffled = False
    if state.phase != OVER:
        state.phase = MAIN


def _end_turn(state: State, seat: str, slots: list[str], chance: Chance) -> None:
    state.patrol[seat] = list(slots) if slots else [""] * 5
    log(state, f"{seat} ends the main phase")
    state.phase = "draw"
    n = len(state.zones[hand(seat)].items)
    state.zones[discard(seat)].items.extend(state.zones[hand(seat)].items)
    state.zones[hand(seat)].items = []
    got = engine.draw(state, seat, min(n + 2, cards.HAND_MAX), chance)
    log(state, f"{seat} discards {n} and draws {got}")
    p = state.players[seat]
    for b in p.buildings.values():
        b.done = True
    for t in state.things.values():
        t.temp_atk = t.temp_hp = 0
        t.temp_kw = []
    engine.settle(state, chance)
    if state.phase == OVER:
        return
    p.tech_due = True
    state.last_log, state.log = state.log, []
    state.turn += 1
    state.active = other(state, seat)
    state.phase = TECH if state.players[state.active].tech_due else UPKEEP


# --- checks ------------------------------------------------------------------------------


def _need_main(state: State, seat: str, what: str) -> None:
    if state.phase == OVER:
        raise IllegalCommand("the game is over")
    if seat != state.active:
        raise IllegalCommand(f"it is {state.active}'s turn")
    if state.phase == TECH:
        raise IllegalCommand(f"first tech (your turn starts with: tech NAME NAME) before you {what}")
    if state.phase != MAIN:
        raise IllegalCommand("the turn is being resolved")


def tech_count(state: State, seat: str) -> tuple[int, int]:
    """How many cards `seat` may tech now: (least, most)."""
    left = len(state.zones[codex(seat)].items)
    most = min(2, left)
    return (0 if engine.worker_count(state, seat) >= 10 else most), most


def can_build(state: State, seat: str, kind: str) -> str | None:
    """Why `seat` cannot build `kind` (None: it can)."""
    if kind not in cards.BUILDINGS:
        return f"unknown building {kind!r} (tech1, tech2, tech3, surplus, tower)"
    p = state.players[seat]
    info = cards.BUILDINGS[kind]
    if kind in p.buildings:
        return f"you already have a {info['name']}"
    if engine.worker_count(state, seat) < info["workers"]:
        return f"a {info['name']} needs {info['workers']} workers"
    if info["needs"] and not engine.building_done(state, seat, info["needs"]):
        return f"a {info['name']} needs a finished {cards.BUILDINGS[info['needs']]['name']}"
    if build_cost(state, seat, kind) > p.gold:
        return f"a {info['name']} costs {build_cost(state, seat, kind)} gold"
    return None


def build_cost(state: State, seat: str, kind: str) -> int:
    p = state.players[seat]
    if kind in cards.TECH_BUILDINGS and kind in p.built:
        return 0
    return int(cards.BUILDINGS[kind]["cost"])


def spell_problem(state: State, seat: str, name: str) -> str | None:
    hero = engine.hero_in_play(state, seat)
    if hero is None:
        return "you need a hero in play to cast a spell"
    c = cards.CARDS[name]
    h = state.things[hero]
    if c["spec"] and cards.HEROES[h.card]["spec"] != c["spec"]:
        return f"{name} needs your {c['spec']} hero"
    if c["type"] == "ultimate":
        if not (h.max_since and h.max_since < state.turn and h.since < state.turn):
            return f"{name} needs a hero at max level since the start of your turn"
    return None


def unit_problem(state: State, seat: str, name: str) -> str | None:
    level = cards.tech(name)
    if level and not engine.building_done(state, seat, f"tech{level}"):
        return f"{name} needs a finished Tech {'I' * level} building"
    return None


# --- apply -------------------------------------------------------------------------------


def apply(state: State, seat: str, cmd: Command, chance: Chance) -> State:
    if seat not in state.seats:
        raise IllegalCommand(f"{seat!r} is not a seat of this game")
    if isinstance(cmd, Tech):
        if state.phase != TECH or seat != state.active:
            raise IllegalCommand("tech comes first in your turn, once" if seat == state.active
                                 else f"it is {state.active}'s turn")
    else:
        _need_main(state, seat, "do that")
    state = copy_struct(state)
    p = state.players[seat]
    match cmd:
        case Tech(cards=refs, first=first):
            least, most = tech_count(state, seat)
            if not least <= len(refs) <= most or len(set(refs)) != len(refs):
                raise IllegalCommand(f"tech {least if least == most else f'{least} to {most}'} card(s) from your codex")
            for ref in refs:
                item = engine.take(state, codex(seat), ref)
                if item is None:
                    raise IllegalCommand(f"{ref} is not in your codex")
                state.zones[discard(seat)].items.append(item)
            triggers = [t[0] for t in abilities.upkeep_triggers(state, seat)]
            if len(set(first)) != len(first) or any(f not in triggers for f in first):
                raise IllegalCommand("first= names only your upkeep triggers (healing, Starlet, surplus)")
            state.upkeep_first = list(first)
            p.tech_due = False
            log(state, f"{seat} techs {len(refs)} card(s)")
            state.phase = UPKEEP
        case Hire(ref=ref):
            if p.hired == state.turn:
                raise IllegalCommand("you already hired a worker this turn")
            if p.gold < 1:
                raise IllegalCommand("hiring a worker costs 1 gold")
            item = engine.take(state, hand(seat), ref)
            if item is None:
                raise IllegalCommand("that card is not in your hand")
            state.zones[workers(seat)].items.append(item)
            p.gold -= 1
            p.hired = state.turn
            log(state, f"{seat} hires a worker")
        case Build(building=kind):
            why = can_build(state, seat, kind)
            if why:
                raise IllegalCommand(why)
            p.gold -= build_cost(state, seat, kind)
            if kind in cards.ADDONS:
                for k in cards.ADDONS:
                    if k in p.buildings:
                        del p.buildings[k]
                        p.base_damage += 2
                        log(state, f"{seat} sacrifices its {cards.BUILDINGS[k]['name']} (2 damage to the base)")
            p.buildings[kind] = Building(kind=kind)
            if kind not in p.built:
                p.built.append(kind)
            log(state, f"{seat} starts a {cards.BUILDINGS[kind]['name']}")
        case Summon(hero=ref):
            if engine.hero_in_play(state, seat):
                raise IllegalCommand("you already have a hero in play (1-hero mode)")
            if ref != p.hero or not p.hero_home:
                raise IllegalCommand(f"your hero is {p.hero}" + ("" if p.hero_home else ", in play already"))
            if p.hero_back > state.turn:
                raise IllegalCommand(f"your hero died: it may come back from turn {p.hero_back}")
            name = p.hero
            item = Known(f"h{state.next_ref:03d}", name)
            state.next_ref += 1
            cost = cards.HEROES[name]["cost"]
            if p.gold < cost:
                raise IllegalCommand(f"summoning {name} costs {cost} gold")
            p.gold -= cost
            engine.new_thing(state, seat, item, name)
            p.hero_home = False
            log(state, f"{seat} summons {name}")
        case Level(hero=ref, times=n):
            t = state.things.get(ref)
            if t is None or t.controller != seat or not cards.is_hero(t.card):
                raise IllegalCommand("level up a hero you control")
            if n < 1 or t.level + n > cards.max_level(t.card):
                raise IllegalCommand(f"{t.card} is level {t.level} of {cards.max_level(t.card)}")
            if p.gold < n:
                raise IllegalCommand(f"{n} level(s) cost {n} gold")
            p.gold -= n
            engine.level_up(state, ref, n)
            log(state, f"{t.card} levels up to {t.level}")
        case Play():
            _play(state, seat, cmd, chance)
        case Use():
            _use(state, seat, cmd, chance)
        case Attack(attacker=a, target=t, extra=extra, spark=spark, over=over, then=then):
            combat.attack(state, a, t, list(extra), spark, over, then, chance)
        case End(patrol=slots):
            _check_patrol(state, seat, slots)
            _end_turn(state, seat, slots, chance)
            return state
        case _:
            raise IllegalCommand(f"not a Codex command: {cmd!r}")
    engine.settle(state, chance)
    return state


def _check_patrol(state: State, seat: str, slots: list[str]) -> None:
    if slots and len(slots) != 5:
        raise IllegalCommand("the patrol zone has 5 slots")
    refs = [r for r in slots if r]
    if len(set(refs)) != len(refs):
        raise IllegalCommand("one thing can hold only one patrol slot")
    for r in refs:
        t = state.things.get(r)
        if t is None or t.controller != seat:
            raise IllegalCommand("only your own units and heroes can patrol")
        if t.exhausted:
            raise IllegalCommand(f"{t.card} is exhausted: only ready units and heroes patrol")


def _play(state: State, seat: str, cmd: Play, chance: Chance) -> None:
    p = state.players[seat]
    item = engine.take(state, hand(seat), cmd.ref)
    if item is None:
        raise IllegalCommand("that card is not in your hand")
    name = identity(item)
    if cmd.top and name != "Appel Stomp":
        raise IllegalCommand("only Appel Stomp can go back on top of the draw pile")
    if cards.is_unit_card(name):
        why = unit_problem(state, seat, name)
        cost = engine.play_cost(state, seat, name)
        if why:
            raise IllegalCommand(why)
        if cost > p.gold:
            raise IllegalCommand(f"{name} costs {cost} gold, you have {p.gold}")
        p.gold -= cost
        log(state, f"{seat} plays {name}")
        ref = engine.new_thing(state, seat, item, name)
        if not ref:
            return
        abilities.arrive(state, seat, ref)
        parts = abilities.arrive_parts(name)
        resist = abilities.check_targets(state, seat, parts, list(cmd.targets), p.gold)
        p.gold -= resist
        if parts:
            for t in cmd.targets:
                abilities.use_tower(state, seat, t)
            abilities.resolve_trigger(state, seat, ref, list(cmd.targets), chance)
        return
    why = spell_problem(state, seat, name)
    if why:
        raise IllegalCommand(why)
    cost = int(cards.CARDS[name]["cost"])
    if cost > p.gold:
        raise IllegalCommand(f"{name} costs {cost} gold, you have {p.gold}")
    p.gold -= cost
    parts = abilities.spell_parts(name)
    resist = abilities.check_targets(state, seat, parts, list(cmd.targets), p.gold)
    p.gold -= resist
    for t in cmd.targets:
        abilities.use_tower(state, seat, t)
    state.shown[item.ref] = name
    log(state, f"{seat} plays {name}")
    if cards.kind(name) == "ongoing":
        state.zones[ongoing(seat)].items.append(Known(item.ref, name))
    abilities.resolve_spell(state, seat, item.ref, name, list(cmd.targets), cmd.top, chance)
    if cards.kind(name) == "ongoing":
        state.shown.pop(item.ref, None)
    elif cmd.top:
        state.zones[deck(seat)].items.insert(0, Known(item.ref, name))
        p.on_top += 1
    else:
        engine.to_discard(state, seat, item, name)
    engine.settle(state, chance)
    abilities.after_spell(state, seat, item.ref)


def _use(state: State, seat: str, cmd: Use, chance: Chance) -> None:
    src = cmd.source
    if src in state.spells:
        sp = state.spells[src]
        if sp.owner != seat or sp.card != "Harmony" or cmd.ability != "stop-the-music":
            raise IllegalCommand("only Harmony has an ability among ongoing spells: stop-the-music")
        abilities.activate(state, seat, src, cmd.ability, [], chance)
        return
    t = state.things.get(src)
    if t is None or t.controller != seat:
        raise IllegalCommand("use an ability of something you control")
    if cmd.ability not in abilities.abilities_of(state, src):
        raise IllegalCommand(f"{t.card} has no ability {cmd.ability!r} now")
    parts, exhausts = abilities.ACTIVATED[cmd.ability]
    if exhausts:
        if t.exhausted:
            raise IllegalCommand(f"{t.card} is exhausted")
        if engine.fatigued(state, src):
            raise IllegalCommand(f"{t.card} arrived this turn: no exhaust abilities without haste")
    resist = abilities.check_targets(state, seat, parts, list(cmd.targets), state.players[seat].gold)
    state.players[seat].gold -= resist
    if exhausts:
        t.exhausted = True
    log(state, f"{t.card} uses {cmd.ability}")
    for x in cmd.targets:
        abilities.use_tower(state, seat, x)
    abilities.activate(state, seat, src, cmd.ability, list(cmd.targets), chance)


# --- legal ---------------------------------------------------------------------------------


def _hand_names(state: State, seat: str) -> dict[str, str]:
    """Name -> lowest ref, for the seat's hand (table order of first sight)."""
    out: dict[str, str] = {}
    for it in sorted(state.zones[hand(seat)].items, key=lambda i: ref_key(i.ref)):
        name = identity(it)
        out.setdefault(name, it.ref)
    return dict(sorted(out.items()))


def legal(state: State, seat: str) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.phase == TECH:
        return _legal_tech(state, seat)
    out: list[Command] = []
    p = state.players[seat]
    hand_names = _hand_names(state, seat)
    if p.hired != state.turn and p.gold >= 1:
        out += [Hire(ref) for ref in hand_names.values()]
    out += [Build(k) for k in cards.BUILDINGS if can_build(state, seat, k) is None]
    hero = engine.hero_in_play(state, seat)
    if hero is None and p.hero_back <= state.turn:
        if p.hero_home and p.gold >= cards.HEROES[p.hero]["cost"]:
            out.append(Summon(p.hero))
    if hero is not None:
        t = state.things[hero]
        for n in range(1, min(p.gold, cards.max_level(t.card) - t.level) + 1):
            out.append(Level(hero, n))
    for name, ref in hand_names.items():
        out += _legal_play(state, seat, name, ref)
    for ref in engine.things_of(state, seat):
        for ab in abilities.abilities_of(state, ref):
            t = state.things[ref]
            if t.exhausted or engine.fatigued(state, ref):
                continue
            for targets in abilities.target_options(state, seat, abilities.ACTIVATED[ab][0], p.gold):
                out.append(Use(ref, ab, targets))
    for it in state.zones[ongoing(seat)].items:
        if it.card == "Harmony":
            out.append(Use(it.ref, "stop-the-music"))
    for ref in engine.things_of(state, seat):
        out += _legal_attacks(state, ref, chance_free=True)
    out += _legal_end(state, seat)
    return out


def _legal_tech(state: State, seat: str) -> list[Command]:
    least, most = tech_count(state, seat)
    names: dict[str, list[str]] = {}
    for it in sorted(state.zones[codex(seat)].items, key=lambda i: ref_key(i.ref)):
        names.setdefault(identity(it), []).append(it.ref)
    order = sorted(names)
    choices: list[list[str]] = []
    for n in range(least, most + 1):
        for combo in itertools.combinations_with_replacement(order, n):
            refs, ok = [], True
            for name in combo:
                pool = [r for r in names[name] if r not in refs]
                if not pool:
                    ok = False
                    break
                refs.append(pool[0])
            if ok:
                choices.append(refs)
    firsts: list[list[str]] = [[]]
    triggers = abilities.upkeep_triggers(state, seat)
    if any(k == "healing" for _, k in triggers):
        firsts += [[r] for r, k in triggers if k == "starlet"]
    return [Tech(refs, first) for refs in choices for first in firsts]


def _legal_play(state: State, seat: str, name: str, ref: str) -> list[Command]:
    p = state.players[seat]
    if cards.is_unit_card(name):
        cost = engine.play_cost(state, seat, name)
        if unit_problem(state, seat, name) or cost > p.gold:
            return []
        parts = abilities.arrive_parts(name)
        if not parts:
            return [Play(ref)]
        trial = copy_struct(state)
        engine.take(trial, hand(seat), ref)
        engine.new_thing(trial, seat, Known(ref, name), name)
        return [Play(ref, t) for t in abilities.target_options(trial, seat, parts, p.gold - cost)]
    cost = int(cards.CARDS[name]["cost"])
    if spell_problem(state, seat, name) or cost > p.gold:
        return []
    out = []
    for targets in abilities.target_options(state, seat, abilities.spell_parts(name), p.gold - cost):
        out.append(Play(ref, targets))
        if name == "Appel Stomp":
            out.append(Play(ref, targets, top=True))
    return out


def _legal_attacks(state: State, a: str, chance_free: bool = True) -> list[Command]:
    if combat.can_attack_now(state, a):
        return []
    seat = state.things[a].controller
    gold = state.players[seat].gold
    out: list[Command] = []
    for target in combat.targets(state, a):
        extras = abilities.target_options(state, seat, abilities.attack_parts(state, a), gold) or [[]]
        doomed = combat.obliterated(state, a)
        for extra in extras:
            thens = _thens(state, seat, a, extra, doomed) if target in doomed else [""]
            for then in thens:
                hit = then or target
                sparks = combat.adjacent(state, hit) if engine.has(state, a, "sparkshot") else []
                overs = combat.spill_targets(state, a, hit) if not then else []
                for spark in sparks or [""]:
                    for over in overs or [""]:
                        out.append(Attack(a, target, extra, spark, over, then))
    return out


def _thens(state: State, seat: str, a: str, extra: list[str], doomed: list[str]) -> list[str]:
    """What `a` may attack once obliterate removed its target: the units
    obliterated are gone, and so is a building its attack trigger (Trojan
    Duck's, with `extra`) destroys before the attack goes on."""
    trial = copy_struct(state)
    for r in doomed:
        engine.unpatrol(trial, r)
        trial.things.pop(r)
        engine.take(trial, play(other(state, seat)), r)
    abilities.resolve_trigger(trial, seat, a, list(extra), None)  # damage and repair: no chance
    for p in trial.players.values():
        for kind, b in list(p.buildings.items()):
            if b.done and b.damage >= engine.building_hp(kind):
                del p.buildings[kind]
    return combat.targets(trial, a) or [""]


def _legal_end(state: State, seat: str) -> list[Command]:
    ready = [r for r in engine.things_of(state, seat) if not state.things[r].exhausted]
    out: list[Command] = [End()]
    by_hp = sorted(ready, key=lambda r: (-engine.hp(state, r), ref_key(r)))
    for sl in ready:
        out.append(End([sl, "", "", "", ""]))
        rest = [r for r in by_hp if r != sl][:4]
        if rest:
            slots = [sl] + rest + [""] * (4 - len(rest))
            out.append(End(slots))
    return out


def outcome(state: State):
    return state.outcome
