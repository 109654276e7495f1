"""Codex: Card-Time Strategy (Sirlin Games), rules version 5:
an effects engine into which the whole Deluxe set fits; the playable specs
are those whose cards are all written (`pbem info codex` lists them).

Modules, one job each, in the order they depend on each other:
`cards` (the card files of ``data/``, compiled), `state` (options and
state Structs, zones), `board` (reading the board), `registry` (Python
card behaviour by name), `select` (selectors and conditions of the data),
`values` (current values: the continuous-effects pass), `events`
(triggers an event wakes), `engine` (damage, runes, arrival, death, the
state-based checks), `targets` (targeting rules), `effects` (the common
effects of the data; `hidden`: those on hidden zones), `resolve` (the
queue of triggers and steps, and the questions it asks), `activated` (``use``), `combat` (attacks), `turn`
(the turn's phases), `commands` (command Structs and the notation),
`play` (playing cards), `modes` (1-hero and 3-hero mode: the teams, the
hero limit, the tech II spec), `maps` (the map cards), `rules` (options,
set-up, `apply`), `legal`,
`abilities/` (per-colour functions), `scenario` (fixed positions for
tests, hotseat only), `view`, `explain`, `bots`; `game` (options, seats,
the dealing) and `present` (pictures, notation, bots) for the game API;
`editions` (where rules 4 read otherwise, and how a call knows its rules).

Rules notes: ``shared/rules/codex.md`` and ``codex-cards.md``; decisions in
README.md ("Rules decisions"). Games begun under rules "1", "2" and "3" use
the frozen `pbem.games.codex_v1`, `codex_v2` and `codex_v3`; games begun
under rules "4" use `GAME_RULES_4`: this package, with the few readings
`editions` lists (rules 5 changed behaviour only, in the Two-Headed
Dragon: the team's shared base and tower).
"""

from __future__ import annotations

import msgspec
from collections.abc import Callable
from typing import Any

from pbem.games.base import Chance, Game, GameInfo, lazy
from pbem.games.codex import abilities, game, legal, rules, setup  # noqa: F401 (abilities registers)
from pbem.games.codex.commands import Command
from pbem.games.codex.editions import CURRENT, RULES_4, Edition, under
from pbem.games.codex.state import Options, State

__all__ = ["GAME", "GAME_RULES_4", "INFO", "Options", "State", "Command"]

INFO = GameInfo(
    name="codex", title="Codex: Card-Time Strategy", rules_version="5", min_seats=game.MIN_SEATS,
    max_seats=game.MAX_SEATS, Options=Options, State=State, Command=Command,
    scenario_options=frozenset({"scenario"}), file_options=frozenset({"scenario"}),
    editions={"1": "pbem.games.codex_v1:GAME", "2": "pbem.games.codex_v2:GAME", "3": "pbem.games.codex_v3:GAME",
              "4": "pbem.games.codex:GAME_RULES_4"},
)


def _setup(options: Any, seats: list[Any], chance: Chance) -> State:
    options, specs = GAME.prepare(options, seats)
    return setup.setup(options, [s.name for s in specs], chance, [s.role for s in specs])


def _rules(edition: Edition) -> dict[str, Any]:
    """The rules functions of the game API, each run under `edition` (`editions.under`)."""
    given: dict[str, Callable[..., Any]] = dict(
        options=game.read_options, seats=game.seats, setup=_setup, dealing=game.dealing, to_act=rules.to_act,
        legal=legal.legal, apply=rules.apply, advance=rules.advance, outcome=rules.outcome,
        view=lazy("pbem.games.codex.view:view"),
    )
    return {key: under(edition, fn) for key, fn in given.items()}


GAME: Game[State, Command] = Game(INFO, presentation="pbem.games.codex.present:PRESENTATION", **_rules(CURRENT))
#: rules 4, kept so that games begun under them keep verifying: in the
#: Two-Headed Dragon the team base is only its first player's and a tower
#: guards only its owner's things (`editions`)
GAME_RULES_4 = GAME.replace(
    msgspec.structs.replace(INFO, rules_version="4", editions={}),
    presentation="pbem.games.codex.present:PRESENTATION_RULES_4", **_rules(RULES_4),
)
