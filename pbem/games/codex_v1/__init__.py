"""Codex rules version 1, frozen (README.md): 1-hero mode with the neutral
starter set, Bashing (Troq Bashar) against Finesse (River Montoya). Kept
only so that games begun under rules "1" keep verifying; new games use
`pbem.games.codex` (rules "2").

Modules, one job each: `cards` (the card data of ``data/neutral.json``),
`state` (options, state Structs, zones), `engine` (current values, damage,
deaths, draws, the state-based checks), `abilities` (what each card's hook
targets and does), `combat` (attack targets and combat damage), `rules`
(set-up, the turn, `legal`, `apply`), `commands` (command Structs and the
notation), `scenario` (fixed positions for tests, hotseat only), `view`
(what a seat sees, the text picture), `bots`.

Rules notes: ``shared/rules/codex.md`` and ``codex-cards.md``. Decisions:

* The tech choice is the first command of the player's next file
  (``tech A B``), after the draw phase its own previous file ended with:
  the rulebook lets the opponent start meanwhile, and drawing is the end
  of a file. The same command orders the upkeep triggers (``first=``).
* ``end`` carries the patrol layout (locking it is what ends the main
  phase); `legal` lists a selection of layouts (none, each ready thing as
  squad leader alone, and each as squad leader with the others by HP),
  `apply` accepts any.
* Simultaneous triggers: only upkeep triggers are ordered by the player
  (the one place in this set where the order changes the result); attack
  triggers resolve in a fixed order (obliterate, the card's own, Troq's
  band), which gives the same result whatever the order.
* A hero that dies may be summoned again from the player's second turn
  after its death ("not until after your next turn").
* Obliterate takes the defender's lowest-tech units, lowest refs on ties.
* The tower's detection: the first stealthy or invisible attacker on its
  owner's things each turn; on its owner's turn the first invisible thing
  the owner attacks or targets.
* Both bases destroyed at once: a draw (no winner).
"""

from __future__ import annotations

from pbem.games.codex_editions import edition
__all__ = ["GAME", "INFO", "Options", "State", "Command"]

GAME = edition("pbem.games.codex_v1", "1", legal="rules", asks=False, catalogue=False)
INFO = GAME.info
Options, State, Command = INFO.Options, INFO.State, INFO.Command
