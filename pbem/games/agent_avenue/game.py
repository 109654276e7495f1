"""The rules functions of the game API that Agent Avenue's `rules` does not
give as they are: reading options, seats and teams, sides, the dealing."""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.errors import InvalidOption
from pbem.games.agent_avenue import rules
from pbem.games.agent_avenue.state import Options, State
from pbem.games.base import Dealing, SeatSpec, options_from, plain_seats

NAME = "agent-avenue"
MIN_SEATS, MAX_SEATS = 2, 4
#: advanced mode's black-market deck: 15 cards everyone knows, each drawn
#: turning face up: what must stay unknown is which comes next, which in
#: peer games the beacons decide (`draw_private`); this keeps it apart from
#: the agent deck, whose one shuffle would otherwise mix the two decks
_MARKET = Dealing(by_beacon=("market:deck",))
_SIMPLE = Dealing()


def options(raw: dict[str, Any]) -> Options:
    """Options from ``KEY=VALUE`` strings; ``deck`` and ``market`` are comma-separated."""
    raw = dict(raw)
    for key in ("deck", "market"):
        value = raw.get(key)
        if isinstance(value, str):
            raw[key] = [name.strip() for name in value.split(",")]
    return rules.check_options(options_from(Options, NAME, raw))


def seats(options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
    """Two seats, or 3-4 for the team variant: ``NAME:TEAM`` for each seat
    (two team names), or no roles at all for green and blue alternately."""
    names = [s.name for s in requested]
    teams = getattr(options, "teams", msgspec.UNSET)
    if teams is not msgspec.UNSET and len(requested) != rules.TEAM_SIZES[teams]:
        raise InvalidOption(f"teams={teams} needs {rules.TEAM_SIZES[teams]} seats, got {len(requested)}")
    if len(requested) <= 2:
        if len(requested) == 2 and any(s.role is not None for s in requested):
            raise InvalidOption(
                "teams (--seat NAME:TEAM) are for 3-4 players; two players give no roles"
            )
        requested = plain_seats(NAME, MIN_SEATS, MAX_SEATS, requested)
    else:
        if len(requested) > MAX_SEATS or len(set(names)) != len(names):
            requested = plain_seats(NAME, MIN_SEATS, MAX_SEATS, requested)  # says what is wrong
        roles = rules.team_roles(names, [s.role for s in requested])
        requested = [SeatSpec(s.name, r) for s, r in zip(requested, roles)]
    if isinstance(options, Options):
        rules.check_first(options, names)
    return requested


def sides(options: Any, seats: list[SeatSpec]) -> list[list[str]]:
    """The team variant: a team wins or loses together."""
    teams: dict[str, list[str]] = {}
    for s in seats:
        teams.setdefault(s.role or s.name, []).append(s.name)
    return list(teams.values())


def dealing(state: State) -> Dealing:
    return _MARKET if state.mode == "advanced" else _SIMPLE
