"""Codex rules version 2, frozen (README.md). As released: 1-hero mode, rules version 2:
an effects engine into which the whole Deluxe set fits; the playable specs
are those whose cards are all written (`pbem info codex` lists them).

Modules, one job each, in the order they depend on each other:
`cards` (the card files of ``data/``, compiled), `state` (options and
state Structs, zones), `board` (reading the board), `registry` (Python
card behaviour by name), `select` (selectors and conditions of the data),
`values` (current values: the continuous-effects pass), `events`
(triggers an event wakes), `engine` (damage, runes, arrival, death, the
state-based checks), `targets` (targeting rules), `effects` (the common
effects of the data), `resolve` (the queue of triggers and steps, and the
questions it asks), `activated` (``use``), `combat` (attacks), `turn`
(the turn's phases), `commands` (command Structs and the notation),
`play` (playing cards), `rules` (options, set-up, `apply`), `legal`,
`abilities/` (per-colour functions), `scenario` (fixed positions for
tests, hotseat only), `view`, `explain`, `bots`.

Rules notes: ``shared/rules/codex.md`` and ``codex-cards.md``; decisions in
README.md ("Rules decisions"). Games begun under rules "1" use the frozen
`pbem.games.codex_v1`.
"""

from __future__ import annotations

from pbem.games.codex_v2 import abilities  # noqa: F401 (registers the cards' functions)
from pbem.games.codex_editions import edition
__all__ = ["GAME", "INFO", "Options", "State", "Command"]

GAME = edition("pbem.games.codex_v2", "2")
INFO = GAME.info
Options, State, Command = INFO.Options, INFO.State, INFO.Command
