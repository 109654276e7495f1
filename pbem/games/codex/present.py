"""How Codex is shown and played by people and bots (`Presentation`).

Its functions that read a state (the notation, the words, the bots) run
under the rules edition of their game (`editions`): `PRESENTATION` the
current rules, `PRESENTATION_RULES_4` those of games begun under rules 4."""

from __future__ import annotations

from typing import Any

from pbem.games.base import Presentation, lazy
from pbem.games.codex import commands, editions
from pbem.games.codex.editions import Edition

SUMMARY = """\
Codex (one hero a side; mode=3hero: three): destroy the opponent's base (20 HP).
Each turn: tech 2 codex cards into your discard pile (from your 2nd turn),
ready, gold = workers (cap 20), then the main phase in any order: hire a
worker (1 gold + a hand card, once a turn), build tech I/II/III (6/8/10
workers) or an add-on (surplus, tower), summon and level your hero, play
cards (spells need a hero), use abilities, attack. An attacker must hit
the squad leader first, then other patrollers, then anything.
`end sl=X elite=Y ...` locks your patrol zone; you discard your hand and
draw that many + 2 (at most 5).
Targets: me:NAME, opp:NAME, opp:base, opp:tech1, opp:sl (a patrol slot);
with several opponents the side is the seat's name (carol:base).
More players: --option mode=ffa (free-for-all of 3 to 5: repair N, gold for
kills, end ... lend=X@SEAT:SLOT; the most base HP wins when a base falls) or
--option mode=2v2 (Two-Headed Dragon, --seat NAME:TEAM: a shared 30-HP base).
When an effect needs a decision the command did not give (a trigger's
target, "you may"), the game asks and you answer: `choose opp:NAME`.
"""

DEMO_SEATS = ("alice", "bob", "carol", "dave", "erin")


def _demo_seats(options: Any) -> tuple[str, ...]:
    from pbem.games.codex import modes, setup
    from pbem.games.codex.state import Options

    if not isinstance(options, Options) or modes.mode_of(options) in modes.TWO_SEATS:
        return DEMO_SEATS[:2]
    if modes.mode_of(options) == modes.TEAMS:
        return ("alice:red", "bob:blue", "carol:red", "dave:blue")
    return DEMO_SEATS[:setup.seat_count(options)]


def _catalogue() -> list[str]:
    """The specs (and their heroes) new games may pick, those still being
    written, and the starter decks: from the card data."""
    from pbem.games.codex import cards, maps

    playable = cards.playable_specs()
    lines = ["modes (mode=): 1hero (the default: p1=SPEC, p2=SPEC),",
             "  3hero (three different specs a seat, mixed colours allowed, the main",
             "  one first: p1=anarchy,blood,fire; the starter deck of the main spec's",
             "  colour, or another hero's with p1_starter=; default: red against green),",
             "  ffa (free-for-all of 3 to 5 seats; players=N where no seats are named,",
             "  as pbem demo needs; a side is named by its seat: carol:base),",
             "  2v2 (Two-Headed Dragon: four seats in two teams, --seat NAME:TEAM or the",
             "  first and third against the second and fourth; a team's one base is its",
             "  first player's, bob:base, and dave:player names its second player by it)",
             "specs new games may pick (p1=, p2=, and p3= ... p5=):"]
    lines += [f"  {s.lower():<12} hero {cards.HERO_OF[s]} ({cards.colour_of(s)})" for s in playable]
    later = [s for s in cards.SPECS if s not in playable]
    if later:
        lines.append("specs not written whole yet (not offered): " + ", ".join(s.lower() for s in later))
    ready = [c for c in cards.COLOURS if cards.starter_ready(c)]
    lines.append("starter decks (p1_starter=, p2_starter=; default: the spec's colour): " + ", ".join(ready))
    lines.append("heroes written: " + ", ".join(f"{n} ({c.spec})" for n, c in cards.HEROES.items()))
    lines.append("map cards (map=NAME; a rule for the whole game):")
    lines += [f"  {key:<23} {text}" for key, (_, text) in maps.MAPS.items()]
    return lines


def _bots() -> dict[str, Any]:
    from pbem.games.codex.bots import BOTS

    return dict(BOTS)


def _presentation(edition: Edition) -> Presentation:
    def wrap(fn: Any) -> Any:
        return editions.under(edition, fn)

    def bots() -> dict[str, Any]:
        return {name: wrap(bot) for name, bot in _bots().items()}

    return Presentation(
        render=lazy("pbem.games.codex.view:render"),
        compact=lazy("pbem.games.codex.view:compact"),
        svg=lazy("pbem.games.codex.svg:render_svg"),
        format=wrap(commands.format_command),
        parse=wrap(lazy("pbem.games.codex.parse:parse_command")),
        describe=wrap(commands.describe_command),
        explain=wrap(lazy("pbem.games.codex.explain:explain")),
        bots=bots,
        demo_bot="greedy",
        demo_seats=_demo_seats,
        summary=SUMMARY,
        catalogue=_catalogue,
        rich_view="pbem.games.codex.rich_view",
    )


PRESENTATION = _presentation(editions.CURRENT)
PRESENTATION_RULES_4 = _presentation(editions.RULES_4)
