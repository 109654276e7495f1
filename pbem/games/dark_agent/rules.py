"""Dark Agent rules: set-up, the two phases of a turn, attacks, equipment,
the UN peace phase and scoring (rules notes: ``shared/rules/dark-agent.md``).

Every card value comes from the catalogue in the state (`catalogue`); the
rules know only effect *kinds*. Public chance (dice) is drawn once per
command, where the rules roll: an attack rolls its 4 dice (and the
defender's die against a spy or Kara) when it is applied, so it is the
natural end of a file; the UN tie die and the solo vote die are rolled by
`advance` once every vote is in. Secret chance only orders the hidden
decks (set-up, and `shuffle_zone` when the equipment deck runs out).

The set-up shows no card: the area is laid out by the game's first command,
`deal` (written by the first seat to place a satellite), from the shuffled
operation-area deck, and each card is revealed as it lands face up. So the
same rules serve every dealer: a referee reveals the cards it dealt, and in
a peer game the area comes from the shared poker deck, whose order nobody
knows, every other seat taking its layer off in its next file before the
first satellite is placed.

The rules are split by job, each module importing only those listed
before it: `readers` (small readers of a state, who acts), `setup`
(options, set-up, the area's layout), `satellites` (the move phase),
`problems` (why a command is not legal), `legal`, `turn_end` (the end of
a turn and round, `advance`, `outcome`), `attacks`, `apply`. This module
is the game's rules API: the names the game calls.
"""

from __future__ import annotations

from pbem.games.dark_agent.apply import apply
from pbem.games.dark_agent.legal import legal
from pbem.games.dark_agent.readers import simultaneous, to_act
from pbem.games.dark_agent.setup import check_options, setup
from pbem.games.dark_agent.turn_end import advance, outcome

__all__ = ["check_options", "setup", "to_act", "simultaneous", "legal", "apply", "advance", "outcome"]
