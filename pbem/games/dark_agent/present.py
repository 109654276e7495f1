"""How Dark Agent is shown and played by people and bots (`Presentation`):
the same for every rules version but for the summary."""

from __future__ import annotations

from typing import Any

from pbem.games.base import Presentation, lazy
from pbem.games.dark_agent import commands

_SUMMARY = """\
Dark Agent: 7 lines (A-G) of 5 cells; satellites sit over each line.
Your turn: phase 1, move two of your satellites to free slots, or swap
one with another satellite (at most 3 per line). Phase 2: each satellite
spots one cell of its line: 1, 2 or 3 satellites reach 1, 2 or 3 cells,
3 of your own the whole line (super: once a game). Spotted cells: take
equipment (3 at most), Supply/Support/Media/Espionage act at once; attack
with your spies in spotted cells: levels + bonuses + nuclear + 4 dice
against the defence (an enemy spy or Kara adds a die; four of a kind
always wins).
{failure}
After every turn the UN votes in secret whether the area shifts.
Scores: 6 per AIM, 3 for the last one, sentries' and Kara's levels,
your spies in the area.
Notation: spot C2 [super|far], attack C3 with C1 C2, use NAME [CELLS],
move A>C B>D, swap A C bob, deploy C2, double C2, power NAME, end, vote yes.
"""
SUMMARY = _SUMMARY.format(failure="""\
A failed attack ends your turn: on a sentry, a spy or Kara it wounds
your spies (back to your board); on an AIM it only puts an
investigation token on the AIM. An AIM next to a sentry or an enemy spy
cannot be attacked (Kara protects no AIM).""")
#: the summary of rules 1, for games begun under them (`editions`)
SUMMARY_1 = _SUMMARY.format(failure="""\
A failed attack wounds your spies and ends your turn (on an AIM it also
puts an investigation token on it). An AIM next to a sentry, an enemy
spy or Kara cannot be attacked.""")



def _bots() -> dict[str, Any]:
    from pbem.games.dark_agent.bots import BOTS

    return dict(BOTS)


PRESENTATION = Presentation(
    render=lazy("pbem.games.dark_agent.render:render"),
    compact=lazy("pbem.games.dark_agent.render:compact"),
    svg=lazy("pbem.games.dark_agent.svg:render_svg"),
    format=commands.format_command,
    parse=commands.parse_command,
    describe=commands.describe_command,
    explain=commands.explain_command,
    bots=_bots,
    demo_bot="greedy",
    demo_seats=("alice", "bob", "carol"),
    summary=SUMMARY,
    rich_view="pbem.games.dark_agent.rich_view",
)
PRESENTATION_RULES_1 = PRESENTATION.replace(summary=SUMMARY_1)
