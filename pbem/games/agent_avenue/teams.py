"""Agent Avenue's team variant (3-4 seats, TEAMS.md): each seat's team
(`team_roles`), and the readers that make a side of two play as one seat
of the two-player game: who plays face up or face down, each player's
discards, and whether a side can play its next turn (`side_short`). Apart
and at the bottom because the set-up, the legal commands and the End step
all read them; in a two-player game they give the plain answers.
"""

from __future__ import annotations

from pbem.errors import InvalidOption
from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.state import CENTRE_UP, State, hand, members, side_of

#: the team variant's options: teams=2v2 or 2v1 and the seats each needs
TEAM_SIZES = {"2v2": 4, "2v1": 3}
#: team names that would clash with a zone's name
RESERVED = frozenset({"deck", "supply", "used", "up", "down"})
#: discards a player may make in a game: 2 each in a pair, 4 for a player alone
PAIR_DISCARDS = 2


def team_roles(names: list[str], roles: list[str | None]) -> list[str]:
    """The team of each of 3-4 seats: the roles given (two team names), or,
    with none given, ``green`` and ``blue`` alternately in seat order (the
    teams alternate round the table). `InvalidOption` names what is wrong."""
    if all(r is None for r in roles):
        return ["green" if i % 2 == 0 else "blue" for i in range(len(names))]
    if any(r is None for r in roles):
        raise InvalidOption("give every seat a team (NAME:TEAM), or none to alternate green and blue")
    teams = [str(r) for r in roles]
    sides = list(dict.fromkeys(teams))
    if len(sides) != 2:
        raise InvalidOption(
            f"the team variant has two teams, got {len(sides)} ({', '.join(sides)}): "
            "e.g. --seat alice:green --seat bob:blue --seat carol:green"
        )
    sizes = sorted(teams.count(side) for side in sides)
    if sizes not in ([1, 2], [2, 2]):
        raise InvalidOption(f"teams of {' and '.join(map(str, sizes))}: the team variant is 2 against 2 or 2 against 1")
    for side in sides:
        if side in names or side in RESERVED or not side.replace("-", "").isalnum():
            raise InvalidOption(f"{side!r} cannot be a team name (a seat's name, a reserved word, or not a word)")
    return teams


def max_discards(state: State, seat: str) -> int:
    """4 with two players and for a player alone against a pair; 2 in a pair."""
    return PAIR_DISCARDS if len(members(state, side_of(state, seat))) > 1 else cards.MAX_DISCARDS


def face_down_player(state: State, side: str) -> str:
    """Who plays the face-down card on `side`'s turn (a pair's second player)."""
    return members(state, side)[-1]


def current_player(state: State) -> str:
    """Who plays now in the play phase: a pair's face-up player, then the other."""
    who = members(state, state.active)
    return who[1] if len(who) > 1 and state.zones[CENTRE_UP].items else who[0]


def needs(state: State, seat: str) -> int:
    """Cards `seat` must hold to play: 1 in a pair, else 2."""
    return 1 if len(members(state, side_of(state, seat))) > 1 else 2


def side_short(state: State, side: str) -> bool:
    """True when `side` could not play a turn with the hands it holds (the
    running-out rule: a player of a pair holding no card, a player alone
    holding fewer than 2)."""
    return any(len(state.zones[hand(p)].items) < needs(state, p) for p in members(state, side))
