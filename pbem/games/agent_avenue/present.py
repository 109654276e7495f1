"""How Agent Avenue is shown and played by people and bots (`Presentation`)."""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.games.agent_avenue import commands
from pbem.games.base import Presentation, lazy

SUMMARY = """\
Agent Avenue: two spies chase each other round a loop of 14 spaces,
starting on their own homes, 7 apart. Your turn: you may first discard
cards face down and draw new ones (4 discards a game). Then play two cards
with different names, one face up, one face down, and refill to 4. Your
opponent recruits one of the two (seeing only the face-up one); you get
the other. Each meeple moves by the icon of the agent it just recruited:
1st, 2nd or 3rd+ copy its owner has in play (Sidekick +4, Mole -3 always).
You win by catching the other meeple (a lead of 7 spaces) or with 3
Codebreakers in play; 3 Daredevils lose. Ties go to the player whose turn
it is. If the deck runs out, the one closer to catching wins.
Notation: play FACEUP / FACEDOWN, discard NAME, recruit face-up|face-down.
Black market (mode=advanced): a meeple ending its move exactly on space
2, 5, 9 or 12 takes one of the 3 face-up black-market cards (take NAME);
an instant may ask (choose NAME, or pass if it cannot be carried out).
Teams (3-4 seats, --seat NAME:TEAM): a team shares a meeple and agents; in
a pair one plays face up, then the other face down (play NAME), 2 discards
each (4 alone); any player of the other team recruits.
"""


def _demo_seats(options: Any) -> tuple[str, ...]:
    teams = getattr(options, "teams", msgspec.UNSET)
    if teams == "2v2":
        return ("alice:green", "bob:blue", "carol:green", "dave:blue")
    if teams == "2v1":
        return ("alice:green", "bob:blue", "carol:green")
    return ("alice", "bob")


def _bots() -> dict[str, Any]:
    from pbem.games.agent_avenue.bots import BOTS

    return dict(BOTS)


PRESENTATION = Presentation(
    render=lazy("pbem.games.agent_avenue.render:render"),
    compact=lazy("pbem.games.agent_avenue.render:compact"),
    svg=lazy("pbem.games.agent_avenue.svg:render_svg"),
    format=commands.format_command,
    parse=commands.parse_command,
    describe=commands.describe_command,
    explain=commands.explain_command,
    bots=_bots,
    demo_bot="greedy",
    demo_seats=_demo_seats,
    summary=SUMMARY,
    rich_view="pbem.games.agent_avenue.rich_view",
)
