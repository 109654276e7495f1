"""Crazy Eights for pbem: a game in a package of its own, and the template
to copy when writing one (see ../README.md).

The modules, one job each: `cards` (the deck and card names), `rules`
(options, state, commands, and the rules as pure functions), `view` (what a
seat may see, its text picture), `notation` (what players type, what logs
say), `bots`, `present` (how people and bots see and play it: pictures,
notation, bots, the rules in short). This module declares the game
(`INFO`) and builds it from the rules functions (`GAME`); pbem finds it by
the entry point in ``pyproject.toml``.
"""

from __future__ import annotations

from typing import Any

from pbem.games.base import Game, GameInfo, SeatSpec, plain_seats

from pbem_crazy_eights import rules, view
from pbem_crazy_eights.rules import Command, Options, State

INFO = GameInfo(
    name="crazy-eights",
    title="Crazy Eights",
    rules_version="1",
    min_seats=2,
    max_seats=5,
    Options=Options,
    State=State,
    Command=Command,
)


def seats(options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
    """The default checks (seat counts, names, no roles), then the deal:
    `hand=N` must fit the deck for this many seats."""
    requested = plain_seats(INFO.name, INFO.min_seats, INFO.max_seats, requested)
    rules.check_table(options, len(requested))
    return requested


GAME = Game(
    INFO,
    seats=seats, setup=rules.setup, advance=rules.advance, to_act=rules.to_act, legal=rules.legal,
    apply=rules.apply, outcome=rules.outcome, view=view.view,
    presentation="pbem_crazy_eights.present:PRESENTATION",
)

__all__ = ["GAME", "INFO"]
