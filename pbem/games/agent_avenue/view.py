"""What a seat may see of an Agent Avenue game (`view`), as plain JSON data.

The one rule: a card is named only when the viewer may read the zone it lies
in (public zones, or zones listing the viewer as a reader) *and* the state
at hand knows it. So a seat's view is the same whether it is computed from
the full state or from the seat's own partial state.
"""

from __future__ import annotations

import msgspec

from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.state import (
    AGAIN,
    MARKET,
    MARKET_DECK,
    MARKET_SUPPLY,
    MARKET_USED,
    TAKE,
    find,
    ongoing,
    CENTRE_DOWN,
    CENTRE_UP,
    DECK,
    OVER,
    PLAY,
    RECRUIT,
    RESOLVE,
    State,
    discards,
    hand,
    known_name,
    members,
    other,
    play_area,
    players_of,
    side_of,
)
from pbem.games.agent_avenue.legal import to_act
from pbem.games.agent_avenue.resolve import CATCH_DISTANCE
from pbem.games.agent_avenue.teams import current_player, max_discards
from pbem.games.base import Zone

UNSEEN = "?"  # a card in a zone the viewer may read that is not revealed yet


class MemberView(msgspec.Struct, kw_only=True):
    """Team variant: one player of a side. `hand` and `discarded` are None
    unless the viewer is this player (a teammate sees neither)."""

    seat: str
    hand_size: int
    hand: list[str] | None
    discards_used: int
    discards_left: int
    discarded: list[str] | None


class SeatView(msgspec.Struct, kw_only=True):
    """One seat (in the team variant, one side) as the viewer sees it.
    `hand` and `discarded` are None unless the viewer is this seat; for a
    side, `hand` is the viewer's own hand when it plays for the side, the
    counts add up its players', and `members` lists them one by one."""

    seat: str
    home: int
    position: int
    progress: int
    to_catch: int  # spaces of lead still needed to catch the opponent
    in_play: list[str]
    hand_size: int
    hand: list[str] | None
    discards_used: int
    discards_left: int
    discarded: list[str] | None
    #: team variant only (absent from the encoding with two players)
    members: list[MemberView] | msgspec.UnsetType = msgspec.UNSET


class MarketView(msgspec.Struct, kw_only=True):
    """The black market (advanced mode): all of it is public except the
    deck's order, of which a view shows only the size."""

    spaces: list[int]
    supply: list[str]
    deck_size: int
    used: list[str]  # instants already resolved
    ongoing: dict[str, list[str]]  # seat -> its ongoing cards
    queue: list[str]  # seats still to take a card this turn
    task: str  # what `who` is doing: take, a card's question, again, or ""
    who: str | None
    spy: str | None  # Spycation: the agent that may be recruited again
    log: list[str]  # what the black market did this turn
    shown: list[str]  # the agents `log` names (all public)
    known_in_hand: dict[str, list[str]]  # seat -> hand cards everyone has seen


class OutcomeView(msgspec.Struct, kw_only=True):
    winners: list[str]
    reason: str


class View(msgspec.Struct, kw_only=True):
    """An Agent Avenue view (observer when `viewer` is None)."""

    game: str = "agent-avenue"
    viewer: str | None
    mode: str
    board_size: int
    turn: int
    phase: str
    active: str
    to_act: list[str]
    prompt: str
    seats: list[SeatView]
    deck_size: int
    centre_up: str | None  # the face-up card this turn
    centre_down: str | None  # the face-down card, only for a seat allowed to see it
    centre_down_played: bool  # whether a face-down card lies in the centre
    recruit_choice: str | None
    last_moves: dict[str, int]
    outcome: OutcomeView | None
    #: advanced mode only (absent from the encoding in simple mode)
    market: MarketView | msgspec.UnsetType = msgspec.UNSET


def _names(zone: Zone, viewer: str | None) -> list[str] | None:
    if not (zone.public or (viewer is not None and viewer in zone.readers)):
        return None
    return [n if (n := known_name(it)) is not None else UNSEEN for it in zone.items]


def _prompt(state: State, acting: list[str]) -> str:
    a = state.active
    if state.phase == OVER and state.outcome is not None:
        winners = " and ".join(state.outcome.winners) or "nobody"
        return f"game over: {winners} won ({state.outcome.reason})"
    if state.phase == PLAY and acting:
        p = current_player(state)
        left = max_discards(state, p) - state.discards_used[p]
        extra = (
            f", after optional discards ({left} left)"
            if left and state.zones[DECK].items
            else ""
        )
        if len(members(state, a)) > 1:
            face = "down, a name other than the face-up card's" if state.zones[CENTRE_UP].items else "up"
            return f"{p} ({a}) to play one card face {face}{extra}"
        if p != a:
            return f"{p} ({a}) to play two cards, one face up and one face down{extra}"
        return f"{a} to play two cards, one face up and one face down{extra}"
    if state.phase == RECRUIT:
        if len(acting) > 1:
            return f"{' or '.join(acting)} ({side_of(state, acting[0])}) to recruit the face-up or the face-down card"
        return f"{acting[0]} to recruit the face-up or the face-down card"
    if state.phase == RESOLVE:
        return "waiting for the face-down card to be revealed"
    if state.phase == MARKET:
        return _market_prompt(state, acting)
    return "nothing to do"


_QUESTIONS = {
    cards.OUTPOST: "recruit a Sentinel from the hand ('choose Sentinel', or 'pass' without one)",
    cards.SECRET: "recruit from the hand an agent not yet in play ('choose NAME', or 'pass')",
    cards.TROUBLE: "reveal two identical agents, recruit one ('choose NAME', or 'pass')",
    cards.SPYCATION: "return one of their agents in play to the hand ('choose NAME')",
    cards.MIND: "take one of the opponent's agents in play ('choose NAME')",
}


def _market_prompt(state: State, acting: list[str]) -> str:
    m = state.market
    if not acting or isinstance(m, msgspec.UnsetType):
        return "the black market is being resolved"
    who = acting[0]
    if m.task == TAKE:
        return f"{who} landed on the black market: take a supply card ('take NAME')"
    if m.task == AGAIN:
        return f"{who} may recruit the agent again at once ('choose NAME' or 'pass')"
    return f"{who} resolves {m.task}: {_QUESTIONS.get(m.task, 'choose')}"


def _market_view(state: State) -> MarketView | msgspec.UnsetType:
    m = state.market
    if isinstance(m, msgspec.UnsetType):
        return msgspec.UNSET
    public = lambda zone: [n if (n := known_name(it)) is not None else UNSEEN for it in state.zones[zone].items]
    spy = None
    if m.spy is not None:
        found = find(state, m.spy)
        spy = known_name(found[1]) if found else None
    return MarketView(
        spaces=sorted(cards.MARKET_SPACES),
        supply=public(MARKET_SUPPLY),
        deck_size=len(state.zones[MARKET_DECK].items),
        used=public(MARKET_USED),
        ongoing={s: public(ongoing(s)) for s in state.seats},
        queue=list(m.queue),
        task=m.task,
        who=m.who,
        spy=spy,
        log=list(m.log),
        shown=list(m.shown),
        known_in_hand={
            s: [n for it in state.zones[hand(s)].items if it.ref in m.revealed and (n := known_name(it)) is not None]
            for s in players_of(state)
        },
    )


def _side_view(state: State, side: str, viewer: str | None, lead: int) -> SeatView:
    """A side of the team variant: its meeple and agents, and each player."""
    who = [p for p in players_of(state) if p in members(state, side)]
    team = [
        MemberView(
            seat=p,
            hand_size=len(state.zones[hand(p)].items),
            hand=_names(state.zones[hand(p)], viewer),
            discards_used=state.discards_used[p],
            discards_left=max_discards(state, p) - state.discards_used[p],
            discarded=_names(state.zones[discards(p)], viewer),
        )
        for p in who
    ]
    mine = next((m for m in team if m.seat == viewer), None)
    return SeatView(
        seat=side,
        home=state.home[side],
        position=state.position[side],
        progress=state.progress[side],
        to_catch=max(0, CATCH_DISTANCE - lead),
        in_play=_names(state.zones[play_area(side)], viewer) or [],
        hand_size=sum(m.hand_size for m in team),
        hand=mine.hand if mine else None,
        discards_used=sum(m.discards_used for m in team),
        discards_left=sum(m.discards_left for m in team),
        discarded=mine.discarded if mine else None,
        members=team,
    )


def view(state: State, viewer: str | None) -> View:
    acting = to_act(state)
    seats = []
    for s in state.seats:
        lead = state.progress[s] - state.progress[other(state, s)]
        if isinstance(state.teams, dict):
            seats.append(_side_view(state, s, viewer, lead))
            continue
        held = state.zones[hand(s)]
        gone = state.zones[discards(s)]
        seats.append(
            SeatView(
                seat=s,
                home=state.home[s],
                position=state.position[s],
                progress=state.progress[s],
                to_catch=max(0, CATCH_DISTANCE - lead),
                in_play=_names(state.zones[play_area(s)], viewer) or [],
                hand_size=len(held.items),
                hand=_names(held, viewer),
                discards_used=state.discards_used[s],
                discards_left=cards.MAX_DISCARDS - state.discards_used[s],
                discarded=_names(gone, viewer),
            )
        )
    up = _names(state.zones[CENTRE_UP], viewer) or []
    down_zone = state.zones[CENTRE_DOWN]
    down = _names(down_zone, viewer) or []
    out = state.outcome
    return View(
        viewer=viewer,
        mode=state.mode,
        board_size=cards.BOARD_SIZE,
        turn=state.turn,
        phase=state.phase,
        active=state.active,
        to_act=acting,
        prompt=_prompt(state, acting),
        seats=seats,
        deck_size=len(state.zones[DECK].items),
        centre_up=up[0] if up else None,
        centre_down=down[0] if down else None,
        centre_down_played=bool(down_zone.items),
        recruit_choice=state.choice,
        last_moves=dict(state.moves),
        outcome=OutcomeView(winners=list(out.winners), reason=out.reason) if out else None,
        market=_market_view(state),
    )
