"""Agent Avenue (Christian & Laura Kudahl), two players: simple mode and
advanced mode (the black market, `market`); the team variant for 3-4
players (`rules`, TEAMS.md).

The modules, one job each: `cards` (agent data, board constants), `state`
(options and state Structs, zones), `commands` (command Structs and the
notation), `rules` (set-up, turn flow, End step), `game` (options, seats, the
dealing), `view` (what a seat may see), `present` (what people and bots
are shown: `render` the text picture, `svg` the SVG picture, `bots`). Rules notes and decisions:
``shared/rules/agent-avenue.md``.
"""

from __future__ import annotations

from typing import Any

from pbem.games.agent_avenue import game, rules
from pbem.games.agent_avenue.commands import Command
from pbem.games.agent_avenue.state import Options, State
from pbem.games.base import Chance, Game, GameInfo, lazy

__all__ = ["GAME", "INFO", "Options", "State", "Command"]

INFO = GameInfo(
    name=game.NAME, title="Agent Avenue", rules_version="1", min_seats=game.MIN_SEATS, max_seats=game.MAX_SEATS,
    Options=Options, State=State, Command=Command, scenario_options=frozenset({"deck", "market"}),
)


def _setup(options: Any, seats: list[Any], chance: Chance) -> State:
    options, specs = GAME.prepare(options, seats)
    return rules.setup(options, [s.name for s in specs], chance, [s.role for s in specs])


GAME = Game(
    INFO,
    options=game.options, seats=game.seats, sides=game.sides, setup=_setup, dealing=game.dealing,
    to_act=rules.to_act, legal=rules.legal, apply=rules.apply, advance=rules.advance, outcome=rules.outcome,
    view=lazy("pbem.games.agent_avenue.view:view"),
    presentation="pbem.games.agent_avenue.present:PRESENTATION",
)
