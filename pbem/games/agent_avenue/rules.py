"""Agent Avenue rules (simple mode, two players): set-up, turn flow, End step.

A turn (active seat A, opponent B):

1. phase ``play``: A may ``discard`` (deck not empty, fewer than 4 discards
   used this game), any number of times, then ``play`` two hand cards, one
   face up and one face down, with different names unless every card in A's
   hand has the same name; A then draws up to 4 (fewer if the deck runs out).
2. phase ``recruit``: B recruits one of them; A gets the other.
3. phase ``resolve`` (`advance`, no decision): A's meeple moves, then B's,
   by the icon of the agent each just recruited; then the End step checks
   every condition together (catch, 3+ Codebreakers, 3+ Daredevils,
   running out), ties going to A. Otherwise B becomes the active seat.

Catching is judged on net progress (rules notes, Decision): A catches B when
progress(A) - progress(B) >= 7, B catches A when it is <= -7.

The team variant (3-4 seats, TEAMS.md): A and B are sides; a side of two
plays its turn in two files (``PlayOne``: the face-up player, then the
face-down one, each refilling at once), any player of B recruits, and a
pair swaps who plays face up after each of its turns.

The rules are split by job, each module importing only those listed
before it: `teams` (the team variant's readers), `setup` (options,
set-up, drawing), `legal` (who acts, the legal commands), `apply`,
`resolve` (movement, the End step, `advance`, `outcome`); the black
market is `market`. This module is the game's rules API: the names the
game calls.
"""

from __future__ import annotations

from pbem.games.agent_avenue.apply import apply
from pbem.games.agent_avenue.legal import legal, to_act
from pbem.games.agent_avenue.resolve import advance, outcome
from pbem.games.agent_avenue.setup import check_first, check_options, setup
from pbem.games.agent_avenue.teams import TEAM_SIZES, team_roles

__all__ = [
    "check_options", "check_first", "TEAM_SIZES", "team_roles", "setup", "to_act", "legal", "apply", "advance",
    "outcome",
]
