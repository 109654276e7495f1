"""Codex rules: the turn and `apply` (options and set-up: `setup`; the
modes' own rules: `modes`; the map cards': `maps`).

The set-up leaves every hand empty, each whole starter deck in its
owner's draw pile (phase ``opening``); `advance` draws the opening hands
of 5 and begins the first turn (README.md: a hand dealt by the set-up's
chance would be public in a peer game).

A turn of the active seat A:

1. phase ``tech`` (from A's second turn on): ``tech`` puts the cards A
   chose from its codex face down into its discard pile (two, mandatory
   below 10 workers; 0-2 from 10 on) and orders A's upkeep effects. The
   rulebook lets A choose while the opponent plays; pbem records the choice
   as the first command of A's next file, after A has seen its new hand.
2. ``upkeep`` (`advance`, no decision): `turn.start_turn`.
3. ``main``: hire (once), build, summon, level, play, use, attack, in any
   order; ``end`` locks the patrol zone and ends the main phase.
4. ``end`` goes on without decision (`turn.end_turn`) to the opponent's turn.

Every command runs the queue after its own action (`resolve.run`); when a
trigger needs a decision the command did not give, the state keeps a
`Prompt` and the active player's next command is ``choose``.

The game ends when a base has taken 20 damage (`engine.settle`).
"""

from __future__ import annotations


from pbem.errors import IllegalCommand
from pbem.games.base import Chance, Known, copy_struct
from pbem.games.codex import activated, board, cards, combat, engine, ffa, hidden, maps, modes, play, resolve, turn
from pbem.games.codex.board import log
from pbem.games.codex.commands import (
    Attack,
    Build,
    Choose,
    Command,
    End,
    Hire,
    Level,
    Play,
    Repair,
    Summon,
    Tech,
    Use,
)
from pbem.games.codex.state import (
    MAIN,
    OPENING,
    OVER,
    TECH,
    UPKEEP,
    Building,
    State,
    codex,
    discard,
    hand,
    team_of,
    workers,
)


# --- the turn --------------------------------------------------------------------------


def to_act(state: State) -> list[str]:
    if state.phase == OVER:
        return []
    if state.prompt is not None:
        return [state.prompt.seat]
    return [state.active] if state.phase in (TECH, MAIN) else []


def advance(state: State, chance: Chance) -> State:
    if state.phase == OPENING:
        state = copy_struct(state)
        for seat in state.seats:
            engine.draw(state, seat, cards.HAND_MAX, chance)
        turn.start_turn(state, chance)
        hidden.refresh(state, chance)
        return state
    if state.phase != UPKEEP or state.prompt is not None or state.queue:
        return state
    state = copy_struct(state)
    turn.start_turn(state, chance)
    hidden.refresh(state, chance)
    return state


def outcome(state: State):
    return state.outcome


# --- checks ------------------------------------------------------------------------------


def _need_main(state: State, seat: str, what: str) -> None:
    if state.phase == OVER:
        raise IllegalCommand("the game is over")
    if seat != state.active:
        raise IllegalCommand(f"it is {state.active}'s turn")
    if state.prompt is not None:
        raise IllegalCommand(f"first answer: {state.prompt.what} (choose ...)")
    if state.phase == TECH:
        raise IllegalCommand(f"first tech (your turn starts with: tech NAME NAME) before you {what}")
    if state.phase != MAIN:
        raise IllegalCommand("the turn is being resolved")


def tech_count(state: State, seat: str) -> tuple[int, int]:
    """How many cards `seat` may tech now: (least, most)."""
    left = len(state.zones[codex(seat)].items)
    most = min(2, left)
    return (0 if board.worker_count(state, seat) >= 10 else most), most


def can_build(state: State, seat: str, kind: str) -> str | None:
    """Why `seat` cannot build `kind` (None: it can)."""
    if kind not in cards.BUILDINGS:
        return f"unknown building {kind!r} ({', '.join(cards.BUILDINGS)})"
    p = state.players[seat]
    info = cards.BUILDINGS[kind]
    if info.get("mode", state.mode) != state.mode:
        return f"a {info['name']} is built in {info['mode']} mode only"
    if kind in ("techlab", "hall") and maps.has(state, "vortoss-ruins"):
        return f"no {info['name']} is built on the Vortoss Ruins map (every player has its effect)"
    if kind in p.buildings:
        return f"you already have a {info['name']}"
    mate = next((s for s in team_of(state, seat) if s != seat and kind in cards.ADDONS
                 and kind in state.players[s].buildings), None)
    if mate:
        return f"{mate} has a {info['name']}: a team has no two of the same add-on"
    if board.worker_count(state, seat) < info["workers"]:
        return f"a {info['name']} needs {info['workers']} workers"
    if info["needs"] and not board.building_done(state, seat, info["needs"]):
        return f"a {info['name']} needs a finished {cards.BUILDINGS[info['needs']]['name']}"
    if build_cost(state, seat, kind) > p.gold:
        return f"a {info['name']} costs {build_cost(state, seat, kind)} gold"
    return None


def build_cost(state: State, seat: str, kind: str) -> int:
    p = state.players[seat]
    if kind in cards.TECH_BUILDINGS and kind in p.built:
        return 0
    return int(cards.BUILDINGS[kind]["cost"]) + modes.build_extra(state, seat)


def summon_problem(state: State, seat: str, name: str) -> str | None:
    p = state.players[seat]
    h = p.heroes.get(name)
    if h is None:
        return f"{name} is not your hero (yours: {', '.join(p.heroes)})"
    if h.gone:
        return f"{name} died on the Burial Grounds: it is out of the game"
    if not h.home:
        return f"{name} is in play already"
    limit = modes.hero_limit(state, seat)
    if len(board.heroes_in_play(state, seat)) >= limit:
        if state.mode == modes.ONE:
            return "you already have a hero in play (1-hero mode)"
        return (f"your hero limit is {limit} (2 with a finished tech II building or a heroes' hall, "
                "3 with a tech III building or both)")
    if h.back > state.turn:
        return f"{name} died: it may come back from turn {h.back}"
    cost = cards.CARDS[name].cost
    if p.gold < cost:
        return f"summoning {name} costs {cost} gold"
    return None


# --- apply -------------------------------------------------------------------------------


#: the choices each command may carry (beyond `first` and `answers`, which all take but ``tech``)
_TAKES = {Play: {"boost", "x", "modes", "split", "pay"}, Use: {"alt", "pay"}, Attack: {"doomed"}}
_WORDS = {"boost": "boost", "x": "x=", "modes": "mode=", "split": "split=", "pay": "pay=", "alt": "by=",
          "doomed": "doomed=", "first": "first=", "answers": "choose=", "runes": "rune="}


def _check_choices(cmd: Command) -> None:
    """Refuse a choice the command has no place for."""
    if isinstance(cmd, Choose):
        return
    takes = _TAKES.get(type(cmd), set()) | ({"first", "runes"} if isinstance(cmd, Tech) else {"first", "answers"})
    for name in cmd.choices.__struct_fields__:
        if name not in takes and getattr(cmd.choices, name):
            verb = type(cmd).__name__.lower()
            raise IllegalCommand(f"{_WORDS[name]}: {verb} takes no such choice")


def apply(state: State, seat: str, cmd: Command, chance: Chance) -> State:
    token = resolve.COMMAND_SEAT.set(seat)  # whose answers the command's are (a part ``by: owner``)
    try:
        return _apply(state, seat, cmd, chance)
    finally:
        resolve.COMMAND_SEAT.reset(token)


def _apply(state: State, seat: str, cmd: Command, chance: Chance) -> State:
    if seat not in state.seats:
        raise IllegalCommand(f"{seat!r} is not a seat of this game")
    _check_choices(cmd)
    if isinstance(cmd, Choose):
        if state.prompt is None or seat != state.prompt.seat:
            raise IllegalCommand("nothing waits for your choice (choose answers a question the game asked)")
    elif isinstance(cmd, Tech):
        if state.phase != TECH or seat != state.active or state.prompt is not None:
            raise IllegalCommand("tech comes first in your turn, once" if seat == state.active
                                 else f"it is {state.active}'s turn")
    else:
        _need_main(state, seat, "do that")
    state = copy_struct(state)
    # a look ends at the next command (its cards were delivered before it),
    # or at the end of the answer to the question it asked (Carrion Curse)
    answered_peeks = list(state.peeks) if isinstance(cmd, Choose) else None
    if answered_peeks is None:
        hidden.end_peeks(state, chance)
    if isinstance(cmd, Choose):
        resolve.answer_prompt(state, list(cmd.answers))
    else:
        state.first, state.ordered = list(cmd.choices.first), []
        state.answers = list(cmd.choices.answers)
    p = state.players[seat]
    # Vir Garbarean's level 5 lets the command after it play the top card
    from_top = not isinstance(cmd, Choose) and p.flags.pop(hidden.PLAY_TOP, 0) == state.turn
    match cmd:
        case Choose():
            pass
        case Tech(cards=refs, choices=ch):
            _tech(state, seat, refs, ch.first)
            _grow(state, seat, list(ch.runes))
            hidden.refresh(state, chance)
            return state
        case Hire(ref=ref):
            if p.hired == state.turn and not maps.has(state, "flagstone-mines"):
                raise IllegalCommand("you already hired a worker this turn")
            cost = play.hire_cost(state, seat)
            if p.gold < cost:
                raise IllegalCommand(f"hiring a worker costs {cost} gold")
            if maps.has(state, "daggerfall-prison-camp"):
                if ref:
                    raise IllegalCommand("hiring takes no card on the Daggerfall Prison Camp map (hire)")
                p.base_workers += 1
            else:
                item = engine.take_item(state, hand(seat), ref) if ref else None
                if item is None:
                    raise IllegalCommand("that card is not in your hand")
                state.zones[workers(seat)].items.append(item)
            p.gold -= cost
            p.hired = state.turn
            log(state, f"{seat} hires a worker")
        case Build(building=kind, specs=specs):
            _build(state, seat, kind, list(specs))
        case Summon(hero=name):
            why = summon_problem(state, seat, name)
            if why:
                raise IllegalCommand(why)
            p.gold -= cards.CARDS[name].cost
            ref = f"h{state.next_ref:03d}"
            state.next_ref += 1
            h = p.heroes[name]
            h.home, h.ref = False, ref
            log(state, f"{seat} summons {name}")
            engine.new_thing(state, seat, Known(ref, name), name)
        case Level(hero=ref, times=n):
            t = state.things.get(ref)
            if t is None or t.controller != seat or not board.is_hero(state, ref):
                raise IllegalCommand("level up a hero you control")
            if n < 1 or t.level + n > cards.max_level(t.card):
                raise IllegalCommand(f"{t.card} is level {t.level} of {cards.max_level(t.card)}")
            if p.gold < n:
                raise IllegalCommand(f"{n} level(s) cost {n} gold")
            p.gold -= n
            engine.level_up(state, ref, n)
            log(state, f"{t.card} levels up to {t.level}")
        case Play():
            play.play(state, seat, cmd, chance, from_top)
        case Use(source=src, ability=name, targets=chosen, choices=ch):
            activated.use(state, seat, src, name, list(chosen), ch.alt, list(ch.pay), chance)
        case Attack(attacker=a, target=t, extra=extra, spark=spark, over=over, then=then, choices=ch):
            combat.declare(state, a, t, list(extra), spark, over, then, list(ch.doomed), chance)
        case End(patrol=slots, lend=loans):
            lent = [(x.ref, x.to, x.slot) for x in loans]
            _check_patrol(state, seat, slots)
            ffa.check_lend(state, seat, lent, [r for r in slots if r])
            _check_patrol(state, seat, [ref for ref, _, _ in lent], zone=False)
            turn.end_turn(state, seat, slots, chance, lent)
        case Repair(n=n):
            ffa.repair(state, seat, n)
        case _:
            raise IllegalCommand(f"not a Codex command: {cmd!r}")
    resolve.run(state, chance)
    if state.answers:
        raise IllegalCommand(f"choose={state.answers[0] or 'none'}: no question was left for this answer")
    if state.prompt is None:
        idle = [f for f in state.first if f not in state.ordered]
        if idle:
            raise IllegalCommand(f"first={board.name_of(state, idle[0])}: it has no trigger waiting to be ordered "
                                 "in this command")
        state.first, state.ordered = [], []
    if answered_peeks:
        hidden.end_peeks(state, chance, answered_peeks)
    hidden.refresh(state, chance)
    return state


def _tech(state: State, seat: str, refs: list[str], first: list[str]) -> None:
    least, most = tech_count(state, seat)
    if not least <= len(refs) <= most or len(set(refs)) != len(refs):
        raise IllegalCommand(f"tech {least if least == most else f'{least} to {most}'} card(s) from your codex")
    for ref in refs:
        item = engine.take_item(state, codex(seat), ref)
        if item is None:
            raise IllegalCommand(f"{ref} is not in your codex")
        state.zones[discard(seat)].items.append(item)
    sources = [it.src for it in turn.upkeep_items(state, seat)]
    if len(set(first)) != len(first) or any(f not in sources for f in first):
        raise IllegalCommand("first= names only what acts in your upkeep (healing, upkeep abilities, surplus ...)")
    state.first, state.ordered = list(first), []
    state.players[seat].tech_due = False
    log(state, f"{seat} techs {len(refs)} card(s)")
    state.phase = UPKEEP


def grows(state: State, seat: str) -> list[str]:
    """What may take a +1/+1 rune instead of readying on the Mystical
    Forest map: `seat`'s exhausted units and heroes that would ready."""
    if not maps.has(state, "mystical-forest"):
        return []
    return [r for r in board.fighters_of(state, seat) if state.things[r].exhausted and not state.things[r].disabled]


def _grow(state: State, seat: str, refs: list[str]) -> None:
    """Mystical Forest: each of `refs` takes its rune now and skips the
    ready step that follows (as a disabled thing does)."""
    if not refs:
        return
    if len(set(refs)) != len(refs) or any(r not in grows(state, seat) for r in refs):
        raise IllegalCommand("rune= names your exhausted units and heroes that would ready "
                             "(the Mystical Forest map only)")
    for ref in refs:
        engine.add_runes(state, ref, 1)
        state.things[ref].disabled = True
        log(state, f"{state.things[ref].card} takes a +1/+1 rune instead of readying")


def _build(state: State, seat: str, kind: str, specs: list[str]) -> None:
    why = can_build(state, seat, kind) or modes.build_spec_problem(state, seat, kind, specs)
    if why:
        raise IllegalCommand(why)
    p = state.players[seat]
    p.gold -= build_cost(state, seat, kind)
    if kind in cards.ADDONS:
        for k in cards.ADDONS:
            if k in p.buildings:
                del p.buildings[k]
                board.damage_base(state, seat, 2)
                log(state, f"{seat} sacrifices its {cards.BUILDINGS[k]['name']} (2 damage to the base)")
    p.buildings[kind] = Building(kind=kind, spec=specs[0] if kind == "techlab" else "")
    if kind == "tech2" and specs:
        p.tech_specs = list(specs)
    if kind not in p.built:
        p.built.append(kind)
    named = f" ({' and '.join(specs)})" if specs else ""
    log(state, f"{seat} starts a {cards.BUILDINGS[kind]['name']}{named}")


def _check_patrol(state: State, seat: str, slots: list[str], zone: bool = True) -> None:
    """Refuse a patrol zone (`zone`: its five slots; else patrollers to
    lend) that breaks a rule."""
    if zone and slots and len(slots) != 5:
        raise IllegalCommand("the patrol zone has 5 slots")
    refs = [r for r in slots if r]
    if len(set(refs)) != len(refs):
        raise IllegalCommand("one thing can hold only one patrol slot")
    if len(refs) > 1 and maps.has(state, "fury-road"):
        raise IllegalCommand("one patroller at most on the Fury Road map")
    for r in refs:
        t = state.things.get(r)
        if t is None or t.controller != seat or not board.is_fighter(state, r):
            raise IllegalCommand("only your own units and heroes can patrol")
        if t.exhausted:
            raise IllegalCommand(f"{t.card} is exhausted: only ready units and heroes patrol")
        if play.cannot_patrol(state, r):
            raise IllegalCommand(f"{t.card} cannot patrol")
