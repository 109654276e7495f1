"""What a seat may see of a Codenames game (`view`), as plain JSON data.

The one rule: a cell's colour is shown when the cell is covered (the
``covered`` zone is public) or when the viewer may read the ``key`` zone
(the spymasters) *and* the state at hand knows the item. So a view is the
same whether it is computed from the full state or from the seat's own
partial state, and an operative's or observer's view never holds the key.
Colours are the words ``red``, ``blue``, ``bystander`` and ``assassin``.
"""

from __future__ import annotations

import msgspec

from pbem.games.codenames.legal import guesses_left, to_act
from pbem.games.codenames.state import (
    CLUE,
    GHOST,
    GUESS,
    KEY,
    OVER,
    PENALTY,
    RESOLVE,
    REVIEW,
    TEAMS,
    State,
    Turn,
    agents_total,
    captain,
    covered_cells,
    covered_count,
    current_turn,
    key_items,
    known_colour,
    operatives,
    other,
    ref_cell,
    role_of,
    spymaster,
)


class Cell(msgspec.Struct, kw_only=True):
    """One grid cell: `colour` is None unless covered or seen on the key."""

    index: int
    row: int
    col: int
    word: str
    covered: bool
    colour: str | None


class TeamView(msgspec.Struct, kw_only=True):
    team: str
    spymaster: str | None
    operatives: list[str]
    captain: str | None
    agents: int  # on the key (9 for the starting team, 8 for the other)
    left: int  # not yet covered


class GuessView(msgspec.Struct, kw_only=True):
    word: str
    colour: str | None


class TurnView(msgspec.Struct, kw_only=True):
    team: str
    clue: str
    number: int | str
    status: str  # pending (awaiting review) | accepted | objected
    guesses: list[GuessView]
    end: str
    cover: str | None
    concern: str | None = None  # why the checks find the clue objectionable


class OutcomeView(msgspec.Struct, kw_only=True):
    winners: list[str]
    reason: str
    scores: dict[str, int] | None = None


class View(msgspec.Struct, kw_only=True):
    """A Codenames view (an observer's when `viewer` is None)."""

    game: str = "codenames"
    viewer: str | None
    role: str | None
    sees_key: bool
    variant: str
    language: str
    clue_review: str
    hyphen: bool
    starting: str
    team: str  # whose turn it is
    phase: str
    to_act: list[str]
    prompt: str
    cells: list[Cell]
    teams: list[TeamView]
    turn: TurnView | None  # the current (or last) turn
    guesses_left: int | None  # None: no cap (clue 0 or unlimited) or no clue yet
    pending: list[str]  # guesses waiting to be revealed
    history: list[TurnView]
    outcome: OutcomeView | None


def _turn_view(state: State, turn: Turn, colours: dict[str, str | None]) -> TurnView:
    return TurnView(
        team=turn.team,
        clue=turn.word,
        number=turn.number,
        status=turn.status,
        guesses=[GuessView(word=w, colour=colours.get(w)) for w in turn.guesses],
        end=turn.end,
        cover=turn.cover,
        concern=turn.concern,
    )


def _prompt(state: State) -> str:
    waiting = to_act(state)
    who = waiting[0] if waiting else ""
    team = state.team
    turn = current_turn(state)
    if state.phase == CLUE:
        return f"{who} ({team} spymaster) gives a clue"
    if state.phase == REVIEW:
        if turn is None:
            return ""
        why = f" ({turn.concern})" if turn.concern else ""
        return f"{who} ({other(team)} spymaster) accepts or objects to the clue {turn.word!r}{why}"
    if state.phase == PENALTY:
        return f"{who} ({team} spymaster) may cover one of their own agents after the objection"
    if state.phase == GUESS:
        return f"{who} ({team} captain) guesses for the clue {turn.word!r} {turn.number}" if turn else ""
    if state.phase == RESOLVE:
        return "the guesses are being revealed (a spymaster's or the dealer's next file)"
    if state.phase == GHOST:
        return f"{who} (spymaster) covers an agent of the ghost team"
    if state.phase == OVER and state.outcome is not None:
        return f"game over: {state.outcome.reason}"
    return ""


def build_view(state: State, seat: str | None) -> View:
    key_zone = state.zones[KEY]
    sees_key = seat is not None and key_zone.may_see(seat)
    colour_of: dict[int, str | None] = {}
    if sees_key:
        for it in key_items(state):
            colour_of[ref_cell(it.ref)] = known_colour(it)
    covered = covered_cells(state)
    for cell, it in covered.items():
        colour_of[cell] = known_colour(it)
    cells = [
        Cell(index=i, row=i // 5, col=i % 5, word=w, covered=i in covered, colour=colour_of.get(i))
        for i, w in enumerate(state.words)
    ]
    by_word = {c.word: (c.colour if c.covered else None) for c in cells}
    teams = []
    for team in TEAMS:
        total = agents_total(state, team)
        teams.append(
            TeamView(
                team=team,
                spymaster=spymaster(state, team),
                operatives=operatives(state, team),
                captain=captain(state, team),
                agents=total,
                left=total - covered_count(state, team),
            )
        )
    turn = current_turn(state)
    out = state.outcome
    return View(
        viewer=seat,
        role=role_of(state, seat),
        sees_key=sees_key,
        variant=state.variant,
        language=state.language,
        clue_review=state.clue_review,
        hyphen=state.hyphen,
        starting=state.starting,
        team=state.team,
        phase=state.phase,
        to_act=to_act(state),
        prompt=_prompt(state),
        cells=cells,
        teams=teams,
        turn=_turn_view(state, turn, by_word) if turn else None,
        guesses_left=guesses_left(state) if state.phase in (GUESS, RESOLVE) else None,
        pending=[state.words[c] for c in state.pending],
        history=[_turn_view(state, t, by_word) for t in state.history],
        outcome=OutcomeView(winners=list(out.winners), reason=out.reason, scores=out.scores) if out else None,
    )


__all__ = ["View", "Cell", "TeamView", "TurnView", "GuessView", "OutcomeView", "build_view"]
