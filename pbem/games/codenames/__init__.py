"""Codenames (Vlaada Chvátil, Czech Games Edition) as a pure pbem game.

Modules, one job each:

* `words`     normalisation, tokens, Snowball stems, the word decks (data/)
* `clues`     the automatic clue checks
* `state`     options, the state Struct, zones and helpers
* `commands`  the command Structs (``cn.*`` tags) and their notation
* `rules`     seats and roles, set-up, turn flow, guess resolution, the end
* `view`      what a seat may see; `render`: the grid in a terminal
* `bots`      a random bot and a simple spymaster bot
* `game`      the `Codenames` object tying them to the `Game` API

Rules notes and decisions: ``shared/rules/codenames.md``; the decisions this
package adds are in the docstrings of `rules`, `clues` and `words`.
"""

from __future__ import annotations

from pbem.games.codenames.game import Codenames

GAME = Codenames()

__all__ = ["Codenames", "GAME"]
