"""What happens in a Codenames game without a decision: the pending
guesses revealed and resolved in order (`advance`), a turn's end, a win
or a loss (`finish`) and the `outcome`. Apart because both `apply` (a
pass, a spymaster's cover) and `advance` end turns and games.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand
from pbem.games.base import Outcome, identity
from pbem.games.codenames.legal import guesses_left
from pbem.games.codenames.state import (
    ASSASSIN, CLUE, COVERED, GHOST, GUESS, KEY, OVER, RESOLVE, SPYMASTER_OF, TEAMS, State, agents_total, cell_ref,
    covered_count, human_team, key_items, other, thaw,
)


def advance(state: State) -> State:
    """Resolve the pending guesses in order; each needs its cell's colour
    (`NeedsReveal` until the protocol reveals that cell)."""
    if state.phase != RESOLVE:
        return state
    new = thaw(state)
    team = new.team
    turn = new.history[-1]
    pending = list(new.pending)
    new.pending = []
    for cell in pending:
        item = key_item(new, cell)
        colour = identity(item)
        move_to_covered(new, cell, item)
        turn.guesses.append(new.words[cell])
        if colour == ASSASSIN:
            turn.end = "assassin"
            if new.variant == "coop":
                finish(new, None, f"{team} found the assassin ({new.words[cell]})")
            else:
                finish(new, other(team), f"{team} found the assassin ({new.words[cell]})")
            return new
        if check_wins(new, covered_by=team):
            turn.end = "over"
            return new
        if colour != team:
            end_turn(new, "miss")
            return new
        left = guesses_left(new)
        if left == 0:
            end_turn(new, "cap")
            return new
    if new.then_pass:
        end_turn(new, "pass")
    else:
        new.phase = GUESS
    new.then_pass = False
    return new


def key_item(state: State, cell: int):
    ref = cell_ref(cell)
    for it in key_items(state):
        if it.ref == ref:
            return it
    raise IllegalCommand(f"cell {cell} is not on the key")  # covered: callers check first


def move_to_covered(state: State, cell: int, item) -> None:
    key = state.zones[KEY]
    key.items = [it for it in key.items if it.ref != item.ref]
    state.zones[COVERED].items.append(item)


def check_wins(state: State, covered_by: str | None) -> bool:
    """End the game if a team has all its agents covered; True if it ended.
    `covered_by` is the team whose guess made the last cover (None: a
    spymaster's cover)."""
    for team in TEAMS:
        if covered_count(state, team) >= agents_total(state, team):
            if state.variant == "coop":
                if team == human_team(state):
                    finish(state, team, f"{team} found all its agents")
                else:
                    finish(state, None, f"the ghost team ({team}) has all its agents covered")
            elif covered_by is not None and covered_by != team:
                finish(state, team, f"{covered_by} uncovered the last {team} agent: {team} wins")
            else:
                finish(state, team, f"{team} found all its agents")
            return True
    return False


def end_turn(state: State, why: str) -> None:
    state.history[-1].end = why
    state.pending = []
    state.then_pass = False
    if state.variant == "coop":
        state.phase = GHOST
    else:
        state.team = other(state.team)
        state.phase = CLUE


def finish(state: State, winner: str | None, reason: str) -> None:
    state.phase = OVER
    state.pending = []
    state.then_pass = False
    seats = [m.seat for m in state.roster]
    if state.variant == "coop":
        ghost = other(human_team(state))
        score = agents_total(state, ghost) - covered_count(state, ghost) if winner else 0
        state.outcome = Outcome(
            winners=seats if winner else [],
            reason=reason + (f" (score {score})" if winner else ""),
            scores={s: score for s in seats},
        )
        return
    if winner is None:
        state.outcome = Outcome(winners=[], reason=reason)
        return
    if state.variant == "three":
        winners = [m.seat for m in state.roster if m.role == SPYMASTER_OF[winner]]
    else:
        winners = [m.seat for m in state.roster if m.role in (winner, SPYMASTER_OF[winner])]
    state.outcome = Outcome(winners=winners, reason=reason)


def outcome(state: State) -> Outcome | None:
    return state.outcome
