"""Dark Agent (Rudolf Feller, Space Reindeers), 1-6 players: satellites
spot cells of a 7x5 operation area, spies attack sentries, enemy spies,
Kara and AIMs with 4 dice, and a secret UN vote may shift the area.

The modules, one job each: `catalogue` (every card value, as data:
``data/catalogue.json`` or a user's own, see README.md), `state` (options,
state, grid), `commands` (command Structs and notation), `rules`, `odds`
(exact attack chances), `view`, `render` (text), `rich_view`, `svg`,
`bots`, `editions` (what earlier rules versions read otherwise: games
begun under rules 1 are played and verified by `GAME_RULES_1`); `game`
(options, seats, the dealing) and `present` (pictures, notation, bots)
for the game API. Rules notes
and decisions: ``shared/rules/dark-agent.md``.
"""

from __future__ import annotations

import msgspec
from functools import partial
from typing import Any

from pbem.games.base import Chance, Game, GameInfo, lazy
from pbem.games.dark_agent import game, rules
from pbem.games.dark_agent.commands import Command
from pbem.games.dark_agent.editions import RULES_1
from pbem.games.dark_agent.state import Options, State

__all__ = ["GAME", "GAME_RULES_1", "INFO", "Options", "State", "Command"]

INFO = GameInfo(
    name=game.NAME, title="Dark Agent", min_seats=game.MIN_SEATS, max_seats=game.MAX_SEATS,
    rules_version="2",  # 2: a failed attack on an AIM wounds nobody; Kara protects no AIM (`editions`)
    Options=Options, State=State, Command=Command,
    default_dealer="referee",  # nobody may know a roll before choosing to attack (issue #9)
    file_options=frozenset({"catalogue"}), scenario_options=frozenset({"area"}),
    editions={"1": "pbem.games.dark_agent:GAME_RULES_1"},
)


def _setup(options: Any, seats: list[Any], chance: Chance) -> State:
    options, specs = GAME.prepare(options, seats)
    return rules.setup(options, [s.name for s in specs], chance)


GAME = Game(
    INFO,
    options=game.options, seats=game.seats, setup=_setup, dealing=game.dealing,
    to_act=rules.to_act, simultaneous=rules.simultaneous, legal=rules.legal, apply=rules.apply,
    advance=rules.advance, outcome=rules.outcome, view=lazy("pbem.games.dark_agent.view:view"),
    presentation="pbem.games.dark_agent.present:PRESENTATION",
)
#: rules 1, kept so that games begun under them keep verifying: a failed
#: attack on an AIM also wounds the attackers, and Kara protects an AIM
GAME_RULES_1 = GAME.replace(
    msgspec.structs.replace(INFO, rules_version="1", editions={}),
    legal=partial(rules.legal, edition=RULES_1), apply=partial(rules.apply, edition=RULES_1),
    view=partial(GAME.view, edition=RULES_1), presentation="pbem.games.dark_agent.present:PRESENTATION_RULES_1",
)
