"""What happens in Agent Avenue without a decision (`advance`): the
meeples' movement by the agents just recruited, the black market in
advanced mode, and the End step (`end_step`: catch, Codebreakers,
Daredevils, running out, the market's extra wins, ties to the active
seat), then the next turn or the `outcome`. Apart because it is the
game's arithmetic of winning, which the bots (`end_step`) and the
conformance tests also call on their own.
"""

from __future__ import annotations

from collections import Counter

from pbem.games.agent_avenue import cards, market
from pbem.games.agent_avenue.legal import to_act
from pbem.games.agent_avenue.state import (
    CENTRE_DOWN, DECK, MARKET, OVER, PLAY, RESOLVE, State, hand, is_team, other, play_area, players_of, thaw,
)
from pbem.games.agent_avenue.teams import face_down_player, side_short
from pbem.games.base import Chance, Outcome, identity, own_zone, settle_zones

CATCH_DISTANCE = cards.BOARD_SIZE // 2  # the homes are 7 apart
TIE = " (tie: the active player wins)"


def in_play_counts(state: State, seat: str) -> Counter[str]:
    """Agents of each name in the seat's play area (reads identities)."""
    return Counter(map(identity, state.zones[play_area(seat)].items))


def advance(state: State, chance: Chance) -> State:
    """Resolve movement and the End step; a no-op while a decision is awaited.

    Raises `NeedsReveal` while the face-down card just recruited is hidden.
    """
    out = _advance(state, chance)
    settle_zones(out)
    return out


def _advance(state: State, chance: Chance) -> State:
    if market.is_advanced(state):
        return _advance_advanced(state, chance)
    if state.phase == PLAY and not to_act(state):
        return _stalled(state)
    if state.phase != RESOLVE:
        return state
    a = state.active
    b = other(state, a)
    # read every identity first: NeedsReveal leaves the state untouched
    counts = {s: in_play_counts(state, s) for s in (a, b)}
    just = {}
    for s in (a, b):
        zone = state.zones[play_area(s)].items
        just[s] = identity(next(it for it in zone if it.ref == state.recruited[s]))
    state = thaw(state)
    moves = {}
    for s in (a, b):  # A moves first, then B (effectively simultaneous)
        moves[s] = cards.steps(just[s], counts[s][just[s]])
        state.progress[s] += moves[s]
        state.position[s] = (state.home[s] + state.progress[s]) % cards.BOARD_SIZE
    state.moves = moves
    result = end_step(
        active=a,
        opponent=b,
        progress=state.progress,
        counts=counts,
        deck_empty=not state.zones[DECK].items,
        opponent_hand=len(state.zones[hand(b)].items) if not is_team(state) else 0,
        opponent_short=side_short(state, b),
    )
    return _end_turn(state, result, b)


def _end_turn(state: State, result: Outcome | None, b: str) -> State:
    """The End step's last part, in both modes: the game is won, or `b`
    (the other seat) starts its turn with the centre's face-down card its own."""
    if result is not None:
        return _finish(state, result)
    if isinstance(state.teams, dict):  # a pair swaps who plays face up
        mine = state.teams[state.active]
        state.teams[state.active] = mine[1:] + mine[:1]
    state.active = b
    state.phase = PLAY
    state.turn += 1
    state.choice = None
    state.recruited = {}
    own_zone(state, CENTRE_DOWN).readers = [face_down_player(state, b)]
    return state


def _finish(state: State, result: Outcome) -> State:
    """End the game; in the team variant the winners are the winning side's players."""
    if isinstance(state.teams, dict):
        won = {p for side in result.winners for p in state.teams.get(side, [side])}
        result = Outcome(winners=[p for p in players_of(state) if p in won], reason=result.reason)
    state.outcome = result
    state.phase = OVER
    return state


def _advance_advanced(state: State, chance: Chance) -> State:
    """Advanced mode: turn up the supply, move both meeples, run the black
    market (a no-op while a seat must decide), then the End step."""
    if state.phase == OVER:
        return state
    if market.supply_short(state) and state.phase == PLAY:
        state = thaw(state)
        market.refill(state, chance)  # the supply is first turned face up here
    if state.phase == PLAY and not to_act(state):
        return _stalled(state)
    if state.phase not in (RESOLVE, MARKET):
        return state
    state = thaw(state)
    a = state.active
    b = other(state, a)
    if state.phase == RESOLVE:
        just = {}
        for s in (a, b):
            zone = state.zones[play_area(s)].items
            just[s] = identity(next(it for it in zone if it.ref == state.recruited[s]))
        counts = {s: in_play_counts(state, s) for s in (a, b)}
        state.moves = {a: 0, b: 0}
        state.market.log = []
        state.market.shown = []
        landed = []
        for s in (a, b):  # A moves first, then B (effectively simultaneous)
            n = cards.move_steps(just[s], counts[s][just[s]], market.ongoing_names(state, s))
            if market.move(state, s, n):
                landed.append(s)
        market.start(state, landed)
    if not market.run(state):
        return state  # a seat must take a card or answer one
    counts = {s: in_play_counts(state, s) for s in (a, b)}
    result = end_step(
        active=a,
        opponent=b,
        progress=state.progress,
        counts=counts,
        deck_empty=not state.zones[DECK].items,
        opponent_hand=len(state.zones[hand(b)].items) if not is_team(state) else 0,
        opponent_short=side_short(state, b),
        ongoing={s: market.ongoing_names(state, s) for s in (a, b)},
        position=state.position,
        home=state.home,
    )
    return _end_turn(state, result, b)


def _stalled(state: State) -> State:
    """Defensive: the active seat cannot play (fewer than 2 cards). The End
    step prevents this; if it ever happens, end by the running-out rule."""
    state = thaw(state)
    a = state.active
    lead = state.progress[a] - state.progress[other(state, a)]
    why = f"{a} cannot play (too few cards)" if is_team(state) else f"{a} cannot play (fewer than 2 cards)"
    return _finish(state, _running_out(a, other(state, a), lead, why))


def end_step(
    *,
    active: str,
    opponent: str,
    progress: dict[str, int],
    counts: dict[str, Counter[str]],
    deck_empty: bool,
    opponent_hand: int,
    opponent_short: bool | None = None,
    ongoing: dict[str, set[str]] | None = None,
    position: dict[str, int] | None = None,
    home: dict[str, int] | None = None,
) -> Outcome | None:
    """Check every End condition together; None if the game goes on.

    `opponent_short` (the team variant) says the opponent side cannot play
    its next turn; without it, an `opponent_hand` below 2 says so.

    A seat has a claim when it meets a win condition or its opponent meets a
    lose condition. One claimant wins; two (both win, both lose, one seat
    both wins and loses) is a tie, which goes to the active seat.

    Advanced mode passes each seat's `ongoing` black-market cards (and the
    meeples' `position` and `home`) for the extra conditions: Leader of the
    Pack turns 3+ Daredevils into a win, Masterplan wins with 7 different
    names in play, Security System wins with the opponent on your home.
    """
    extra = ongoing or {}
    a, b = active, opponent
    lead = progress[a] - progress[b]
    wins: dict[str, list[str]] = {a: [], b: []}
    loses: dict[str, list[str]] = {a: [], b: []}
    if lead >= CATCH_DISTANCE:
        wins[a].append(f"{a} caught {b}")
    if lead <= -CATCH_DISTANCE:
        wins[b].append(f"{b} caught {a}")
    for s in (a, b):
        n = counts[s][cards.CODEBREAKER]
        if n >= cards.THRESHOLD:
            wins[s].append(f"{s} has {n} {cards.CODEBREAKER}s in play")
        n = counts[s][cards.DAREDEVIL]
        mine = extra.get(s, set())
        if n >= cards.THRESHOLD and cards.LEADER in mine:
            wins[s].append(f"{s} has {n} {cards.DAREDEVIL}s in play and the {cards.LEADER}")
        elif n >= cards.THRESHOLD:
            loses[s].append(f"{s} has {n} {cards.DAREDEVIL}s in play")
        if cards.MASTERPLAN in mine:
            names = sum(1 for c in counts[s].values() if c > 0)
            if names >= len(cards.NAMES) - 1:
                wins[s].append(f"{s} has {names} different agents in play ({cards.MASTERPLAN})")
        if cards.SECURITY in mine and position is not None and home is not None:
            o = other_of(s, a, b)
            if position[o] == home[s]:
                wins[s].append(f"{o} stands on {s}'s home ({cards.SECURITY})")
    claims = [s for s in (a, b) if wins[s] or loses[other_of(s, a, b)]]
    if len(claims) == 1:
        s = claims[0]
        o = other_of(s, a, b)
        reasons = wins[s] + [f"{r}: {s} wins" for r in loses[o]]
        return Outcome(winners=[s], reason="; ".join(reasons))
    if len(claims) == 2:
        reasons = wins[a] + wins[b] + loses[a] + loses[b]
        return Outcome(winners=[a], reason="; ".join(reasons) + TIE)
    short = opponent_hand < 2 if opponent_short is None else opponent_short
    if short and deck_empty:
        return _running_out(a, b, lead, "the deck ran out")
    if short:
        return _running_out(a, b, lead, f"{b} cannot play (fewer than 2 cards)")
    return None


def other_of(seat: str, a: str, b: str) -> str:
    return b if seat == a else a


def _running_out(a: str, b: str, lead: int, why: str) -> Outcome:
    """The seat closer to catching (larger net-progress lead) wins; ties: `a`."""
    if lead > 0:
        return Outcome(winners=[a], reason=f"{why}: {a} was closer")
    if lead < 0:
        return Outcome(winners=[b], reason=f"{why}: {b} was closer")
    return Outcome(winners=[a], reason=f"{why}: equal distance{TIE}")


def outcome(state: State) -> Outcome | None:
    return state.outcome
