"""The end of a Dark Agent turn and round: the refill and the next seat
(`finish_turn`), the UN peace phase, the end of the game and its scores
(`outcome`), and `advance`, which does what nobody decides (the
equipment reshuffle, a move phase nobody can play, the vote's tally and
the area's shift). Apart because both `apply` and the attack end turns.
"""

from __future__ import annotations

from pbem.games.base import Chance, Outcome, identity, own_zone, roll, settle_zones, shuffle_zone
from pbem.games.dark_agent.readers import aims_taken, empty_cells, kara_taker, log, score
from pbem.games.dark_agent.satellites import can_move
from pbem.games.dark_agent.state import (
    ACT, CELLS, CELLS_PER_LINE, EQ_DECK, EQ_DISCARD, KARA_SPY, LINES, MOVE, OVER, TALLY, VOTE, State, active, cell_zone,
    line_of, pos_of, spy_owner, thaw,
)

SOLO_ROUNDS = 10


def _reshuffle_if_out(s: State, chance: Chance) -> None:
    if not s.zones[EQ_DECK].items and s.zones[EQ_DISCARD].items:
        own_zone(s, EQ_DECK).items = list(s.zones[EQ_DISCARD].items)
        own_zone(s, EQ_DISCARD).items = []
        shuffle_zone(s, EQ_DECK, chance, prefix="e")
        log(s, "the equipment discards are shuffled into a new deck")


def finish_turn(s: State, chance: Chance) -> None:
    """End of turn: the double-spy token moves, empty cells are refilled
    with equipment (while the deck lasts: cells it cannot fill wait for the
    next refill, from the deck `advance` shuffles of the discards), the next
    seat plays or the UN peace phase begins."""
    if s.turned:
        s.double_holder = "" if s.turned == KARA_SPY else spy_owner(s.turned)
    for cell in empty_cells(s):  # a refill leaves the other cells as they are
        if s.zones[EQ_DECK].items:
            own_zone(s, cell_zone(cell)).items = [own_zone(s, EQ_DECK).items.pop(0)]
    s.selected, s.used_sats, s.effects, s.adrenaline = [], [0] * LINES, [], []
    s.star_used, s.powers_used, s.turned, s.media, s.deploy_from = False, [], "", False, ""
    s.turn += 1
    if s.turn < len(s.order):
        s.phase = MOVE
        return
    _peace_phase(s)


def _peace_phase(s: State) -> None:
    if _game_over(s):
        s.phase = OVER
        s.outcome = _outcome(s)
        return
    s.phase = VOTE
    s.votes = {}


def _game_over(s: State) -> bool:
    aims = aims_taken(s)
    kara = kara_taker(s)
    if s.solo:
        if aims + (1 if kara else 0) >= s.target or s.round >= SOLO_ROUNDS + s.target:
            return True
    elif aims >= s.target and (not s.kara_needed or kara is not None):
        return True
    return bool(s.max_rounds) and s.round >= s.max_rounds


def _outcome(s: State) -> Outcome:
    scores = {seat: score(s, seat) for seat in s.seats}
    if s.solo:
        seat = s.seats[0]
        goal = 30 + 5 * s.target
        got = aims_taken(s) + (1 if kara_taker(s) else 0)
        won = kara_taker(s) == seat and scores[seat] >= goal and got >= s.target
        return Outcome([seat] if won else [], "solo: won" if won else
                       f"solo: lost (needs Kara, {goal} points and {s.target} targets)", scores)
    best = max(scores.values())
    return Outcome([x for x in s.seats if scores[x] == best], f"highest score {best}", scores)


def advance(state: State, chance: Chance) -> State:
    if state.phase != OVER and not state.zones[EQ_DECK].items and state.zones[EQ_DISCARD].items:
        for it in state.zones[EQ_DISCARD].items:
            identity(it)  # face up before it is shuffled (a jacket's reveal travels first)
        state = thaw(state)
        _reshuffle_if_out(state, chance)
    out = _advance(state, chance)
    settle_zones(out)
    return out


def _advance(state: State, chance: Chance) -> State:
    if state.phase == MOVE and not can_move(state, active(state)):
        s = thaw(state)  # no satellite can move: phase 1 is skipped
        s.phase = ACT
        log(s, f"{active(s)} cannot move a satellite")
        return s
    if state.phase == TALLY:
        s = thaw(state)
        yes = sum(1 for v in s.votes.values() if v)
        no = len(s.votes) - yes
        if s.solo:
            if yes:
                shift = True
            else:
                die = roll(chance.public, 1, 6)[0]
                s.last_roll = [die]
                shift = die <= 3
        elif yes != no:
            shift = yes > no
        else:
            die = roll(chance.public, 1, 6)[0]
            s.last_roll = [die]
            shift = die <= 3
        log(s, f"UN vote: {yes} yes, {no} no" + (f", die {s.last_roll[0]}" if (s.solo and not yes) or (not s.solo and yes == no) else "")
            + (": the area shifts" if shift else ": no shift"))
        if shift:
            shift_area(s)
        s.votes = {}
        s.order = [s.order[-1]] + s.order[:-1]  # the last player becomes the first
        s.turn = 0
        s.round += 1
        s.phase = MOVE
        return s
    return state


def shift_area(s: State) -> None:
    """Each line's first cell moves to the far end, the others one closer."""
    old = {c: s.zones[cell_zone(c)].items for c in range(CELLS)}
    for line in range(LINES):
        base = line * CELLS_PER_LINE
        for p in range(CELLS_PER_LINE):
            own_zone(s, cell_zone(base + p)).items = list(old[base + (p + 1) % CELLS_PER_LINE])
    for spy, cell in s.spy_cell.items():
        if cell >= 0:
            base, p = line_of(cell) * CELLS_PER_LINE, pos_of(cell)
            s.spy_cell[spy] = base + (p - 1) % CELLS_PER_LINE


def outcome(state: State) -> Outcome | None:
    return state.outcome
