"""The turn's phases as queue steps: the start of a turn (ready, gold,
upkeep), the end (draw phase, end-of-turn effects, ephemeral deaths,
construction, "this turn" effects end) and the passing of the turn.

Upkeep: modifiers "until your next upkeep" end; cards ready (a disabled
one skips this ready step); gold per worker (cap 20); then the upkeep
effects, which the active player orders (``first=`` of the ``tech``
command): healing X, fading (a time rune off), forecast (a time rune off
each card in the future; the last one makes it arrive), the surplus draw,
and every ``upkeep`` trigger. Then the main phase begins.

End (the ``end`` command): the patrol zone is locked (a ``discard_hand``
flag on the player discards its hand first, at the end of the main phase),
the hand discarded and that many + 2 cards drawn (at most 5), then the ``end_of_turn``
triggers of the active seat's cards and the ``end_of_each_turn`` ones of
every card in play (after the draw, rulings on Bloodrage Ogre and
Chameleon Lizzo), ephemeral things die
(at the end of every turn, ruling), construction finishes, "this turn"
effects end, and the next turn begins: an extra turn first if one is due.
"""

from __future__ import annotations

from pbem.games.base import Chance, Known
from pbem.games.codex import board, cards, engine, events, ffa, maps, registry, resolve, values
from pbem.games.codex.board import log
from pbem.games.codex.state import ENDING, MAIN, OVER, TECH, UPKEEP, Pending, State, future, hand, next_seat


def upkeep_items(state: State, seat: str) -> list[Pending]:
    """Everything that happens in `seat`'s upkeep, default order."""
    out: list[Pending] = []
    for r in board.things_of(state, seat) + board.spells_of(state, seat):  # an ongoing spell may heal
        kw = values.keywords(state, r)
        if kw.get("healing"):
            out.append(Pending(kind="step", key="healing", src=r, ctrl=seat))
        if kw.get("fading") and state.things[r].counters.get("time"):
            out.append(Pending(kind="step", key="fading", src=r, ctrl=seat))
    for it in state.zones[future(seat)].items:
        out.append(Pending(kind="step", key="forecast", src=it.ref, ctrl=seat))
    if board.building_done(state, seat, "surplus"):
        out.append(Pending(kind="step", key="surplus", src=f"{seat}:surplus", ctrl=seat))
    out += events.seat_turn(state, "upkeep", seat)
    return out


def start_turn(state: State, chance: Chance) -> None:
    """Ready and upkeep of the active seat, then its main phase (mutates)."""
    seat = state.active
    p = state.players[seat]
    p.turns += 1
    log(state, f"turn {state.turn}: {seat}")
    engine.expire(state, f"upkeep:{seat}")
    for ref in board.things_of(state, seat) + board.spells_of(state, seat):
        t = state.things[ref]
        if t.disabled:
            t.disabled = False
        else:
            t.exhausted = False
    state.patrol[seat] = [""] * 5
    state.detected = {}
    state.kill_gold = 0
    gold = board.worker_count(state, seat) + maps.UPKEEP_GOLD * maps.has(state, "big-game-hunters")
    engine.gain_gold(state, seat, gold)
    log(state, f"{seat} gets {gold} gold")
    hired = ffa.mercenaries(state, seat)
    for _ in range(hired):
        engine.make_token(state, seat, ffa.MERCENARY)
    if hired:
        log(state, f"{seat} gets {hired} Mercenar{'y' if hired == 1 else 'ies'}")
    with values.frozen(state):
        items = upkeep_items(state, seat)
    state.queue = events.order(state, items) + [Pending(kind="step", key="main")]
    resolve.run(state, chance)


@registry.register("step", "main")
def _main(state: State, item: Pending, chance: Chance | None) -> None:
    state.first, state.ordered = [], []
    for s in state.seats:
        state.players[s].reshuffled = False
    state.phase = MAIN


@registry.register("step", "healing")
def _healing(state: State, item: Pending, chance: Chance | None) -> None:
    if item.src not in state.things:
        return
    n = values.keywords(state, item.src).get("healing", 0)
    for r in board.fighters_of(state, item.ctrl):
        engine.heal(state, r, n)


@registry.register("step", "fading")
def _fading(state: State, item: Pending, chance: Chance | None) -> None:
    if item.src in state.things:
        engine.remove_counter(state, item.src, "time", 1, chance)


@registry.register("step", "forecast")
def _forecast(state: State, item: Pending, chance: Chance | None) -> None:
    f = state.future.get(item.src)
    if f is None:
        return
    f.time -= 1
    if f.time > 0:
        return
    del state.future[item.src]
    got = engine.take_item(state, future(f.owner), item.src)
    assert got is not None
    log(state, f"{f.card} arrives from the future")
    engine.new_thing(state, f.owner, Known(item.src, f.card), f.card)


@registry.register("step", "surplus")
def _surplus(state: State, item: Pending, chance: Chance | None) -> None:
    if chance is not None and board.building_done(state, item.ctrl, "surplus"):
        engine.draw(state, item.ctrl, 1, chance)


def end_turn(state: State, seat: str, slots: list[str], chance: Chance,
             lent: list[tuple[str, str, int]] = ()) -> None:
    """Lock the patrol zone, lend patrollers (free-for-all: each (thing, to
    seat, slot) until that seat's upkeep), the draw phase, then the
    end-of-turn steps (mutates)."""
    state.patrol[seat] = list(slots) if slots else [""] * 5
    for ref, to, slot in lent:
        engine.change_control(state, ref, to, until=f"upkeep:{to}")
        state.patrol[to][slot] = ref
        log(state, f"{seat} lends {state.things[ref].card} to {to} ({cards.SLOTS[slot]})")
    log(state, f"{seat} ends the main phase")
    state.phase = ENDING
    if board.flag(state, seat, "discard_hand"):  # at the end of the main phase, before the draw phase
        engine.discard_from_hand(state, seat, [it.ref for it in state.zones[hand(seat)].items])
        log(state, f"{seat} discards its hand at the end of the main phase")
    n = len(state.zones[hand(seat)].items)
    engine.discard_from_hand(state, seat, [it.ref for it in state.zones[hand(seat)].items])
    got = engine.draw(state, seat, min(n + 2, cards.HAND_MAX), chance)
    log(state, f"{seat} discards {n} and draws {got}")
    ends = events.seat_turn(state, "end_of_turn", seat)
    for s in state.seats:
        ends += events.seat_turn(state, "end_of_each_turn", s)
    events.emit(state, ends)
    state.fresh += [Pending(kind="step", key="ephemeral"), Pending(kind="step", key="cleanup")]
    resolve.run(state, chance)


@registry.register("step", "ephemeral")
def _ephemeral(state: State, item: Pending, chance: Chance | None) -> None:
    doomed = [r for r in board.all_in_play(state) if values.has(state, r, "ephemeral")]
    if doomed:
        log(state, "ephemeral: " + ", ".join(state.things[r].card for r in doomed))
        engine.destroy(state, doomed, chance)


@registry.register("step", "cleanup")
def _cleanup(state: State, item: Pending, chance: Chance | None) -> None:
    seat = state.active
    p = state.players[seat]
    for b in p.buildings.values():
        b.done = True
    engine.expire(state, "turn")
    engine.settle(state, chance)
    if state.phase == OVER:
        return
    p.tech_due = True
    state.last_log, state.log = state.log, []
    state.turn += 1
    final = ffa.next_turn(state, seat)
    if state.phase == OVER:
        return
    state.active = final or (state.extra_turns.pop(0) if state.extra_turns else next_seat(state, seat))
    state.phase = TECH if state.players[state.active].tech_due else UPKEEP
