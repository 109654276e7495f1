"""The rules functions of the game API that Dark Agent's `rules` does not
give as they are: reading options and seats, the dealing."""

from __future__ import annotations

from typing import Any

from pbem.errors import InvalidOption
from pbem.games.base import Dealing, SeatSpec, options_from, plain_seats
from pbem.games.dark_agent import rules
from pbem.games.dark_agent.state import AREA_DECK, Options, State, hand

NAME = "dark-agent"
MIN_SEATS, MAX_SEATS = 1, 6


def options(raw: dict[str, Any]) -> Options:
    """``--option KEY=VALUE``; ``catalogue`` arrives as the file's lines."""
    fixed = dict(raw)
    value = fixed.get("catalogue")
    if isinstance(value, str):
        raise InvalidOption(
            "catalogue: expected the lines of a catalogue file",
            hint="pbem reads --option catalogue=FILE for you (see pbem/games/dark_agent/README.md)",
        )
    if isinstance(fixed.get("area"), str):
        fixed["area"] = [name.strip() for name in fixed["area"].split(",")]
    options = options_from(Options, NAME, fixed)
    rules.check_options(options)
    return options


def seats(options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
    requested = plain_seats(NAME, MIN_SEATS, MAX_SEATS, requested)
    if isinstance(options, Options):
        rules.check_options(options, len(requested))
    return requested


def dealing(state: State) -> Dealing:
    """The operation-area deck is drawn by the beacons: its cards are public
    knowledge (the catalogue) and every one drawn lands face up in the
    area; which comes next the beacons decide (`draw_private`, after the
    `deal` is signed), which keeps it apart from the equipment deck's one
    poker shuffle. A seat's equipment of one card is interchangeable."""
    return Dealing(by_beacon=(AREA_DECK,), interchangeable=frozenset(hand(s) for s in state.seats))
