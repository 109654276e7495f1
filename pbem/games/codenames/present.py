"""How Codenames is shown and played by people and bots (`Presentation`):
pictures of both variants, the notation, the bots, the demo's tables."""

from __future__ import annotations

from typing import Any

from pbem.games.base import Presentation
from pbem.games.codenames import commands

SUMMARY = """\
Codenames: two teams, red and blue, race to find their own agents among 25
codenames laid out 5 by 5. Only the two spymasters see the key that says
which words are red agents, blue agents, bystanders and the one assassin.
The starting team has 9 agents, the other 8.
On your team's turn the spymaster gives a clue: one word (not a form of a
word on the grid) and a number, e.g. clue animal 2; 0 and unlimited lift
the cap. The team's captain then guesses words in order, up to number + 1.
Your own agent: covered, you may go on. A bystander or an agent of the
other team: covered, the turn ends. The assassin: your team loses at once.
After the first guess you may pass. A team wins when all its agents are
covered, even on the other team's turn.
Coop (2-3 players): one spymaster and its operatives against a ghost team;
after each turn the spymaster covers one ghost agent. Three players: two
spymasters share one operative.
Notation: clue WORD N, guess W1 W2 ..., pass, cover WORD, accept, object.
"""

_TABLES = {
    "duet": ("alice:a", "bob:b"),
    "coop": ("alice:red-spymaster", "bob:red"),
    "three": ("alice:red-spymaster", "carol:blue-spymaster", "bob:shared"),
}


def _demo_seats(options: Any) -> tuple[str, ...]:
    variant = getattr(options, "variant", "standard")
    return _TABLES.get(variant, ("alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"))


def _bots() -> dict[str, Any]:
    from pbem.games.codenames import bots

    return {"random": bots.random_bot, "spymaster": bots.spymaster_bot}


def _picture(name: str, duet_name: str, module: str, duet_module: str):
    """`name` of `module` for a standard view, `duet_name` of `duet_module` for a Duet one."""
    import importlib

    def draw(v: Any) -> str:
        from pbem.games.codenames.duet_view import DuetView

        if isinstance(v, DuetView):
            return getattr(importlib.import_module(duet_module), duet_name)(v)
        return getattr(importlib.import_module(module), name)(v)

    return draw


PRESENTATION = Presentation(
    render=_picture("render", "render", "pbem.games.codenames.render", "pbem.games.codenames.duet_view"),
    compact=_picture("compact", "compact", "pbem.games.codenames.render", "pbem.games.codenames.duet_view"),
    svg=_picture("render_svg", "render_svg", "pbem.games.codenames.svg", "pbem.games.codenames.duet_svg"),
    format=lambda command, state, seat: commands.format_command(command),
    parse=lambda text, state, seat: commands.parse_command(text),
    explain=lambda command, state, seat: commands.explain_command(command),
    bots=_bots,
    demo_bot="spymaster",
    demo_seats=_demo_seats,
    summary=SUMMARY,
    rich_view="pbem.games.codenames.rich_view",
)
