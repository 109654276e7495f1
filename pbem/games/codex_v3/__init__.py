"""Codex rules version 3, frozen (README.md). As released: 1-hero mode, rules version 3:
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
README.md ("Rules decisions"). Games begun under rules "1" and "2" use the
frozen `pbem.games.codex_v1` and `pbem.games.codex_v2`.
"""

from __future__ import annotations

from typing import Any

from pbem.games.base import Chance, Dealing, Game, GameInfo, Presentation, lazy, options_from
from pbem.games.codex_v3 import abilities, commands, legal, rules  # noqa: F401 (abilities registers)
from pbem.games.codex_v3.commands import Command
from pbem.games.codex_v3.state import Options, State, deck

SUMMARY = """\
Codex, 1-hero mode: destroy the opponent's base (20 HP).
Each turn: tech 2 codex cards into your discard pile (from your 2nd turn),
ready, gold = workers (cap 20), then the main phase in any order: hire a
worker (1 gold + a hand card, once a turn), build tech I/II/III (6/8/10
workers) or an add-on (surplus, tower), summon and level your hero, play
cards (spells need a hero), use abilities, attack. An attacker must hit
the squad leader first, then other patrollers, then anything.
`end sl=X elite=Y ...` locks your patrol zone; you discard your hand and
draw that many + 2 (at most 5).
Targets: me:NAME, opp:NAME, opp:base, opp:tech1, opp:sl (a patrol slot).
When an effect needs a decision the command did not give (a trigger's
target, "you may"), the game asks and you answer: `choose opp:NAME`.
"""

__all__ = ["GAME", "INFO", "Options", "State", "Command"]

INFO = GameInfo(
    name="codex", title="Codex: Card-Time Strategy", rules_version="3", min_seats=2, max_seats=2,
    Options=Options, State=State, Command=Command,
    scenario_options=frozenset({"scenario"}), file_options=frozenset({"scenario"}),
)


def _options(raw: dict[str, Any]) -> Options:
    raw = dict(raw)
    for key in ("first", "p1", "p2", "p1_starter", "p2_starter"):
        if isinstance(raw.get(key), str):
            raw[key] = raw[key].strip().lower()
    if isinstance(raw.get("scenario"), str):
        raw["scenario"] = raw["scenario"].splitlines()
    return rules.check_options(options_from(Options, "codex", raw))


def _setup(options: Any, seats: list[Any], chance: Chance) -> State:
    options, specs = GAME.prepare(options, seats)
    return rules.setup(options, [s.name for s in specs], chance)


def _dealing(state: State) -> Dealing:
    """Each seat's draw pile: its owner knows what it holds, nobody the
    order. The only chance is which card a draw takes: whether a draw
    empties the deck, and so whether the discard pile is reshuffled, is
    counts alone."""
    return Dealing(private={deck(s): s for s in state.seats}, reshuffle_ahead=True)


def _bots() -> dict[str, Any]:
    from pbem.games.codex_v3.bots import BOTS

    return dict(BOTS)


def _catalogue() -> list[str]:
    """The specs (and their heroes) new games may pick, those still being
    written, and the starter decks: from the card data."""
    from pbem.games.codex_v3 import cards

    playable = cards.playable_specs()
    lines = ["specs new games may pick (p1=, p2=):"]
    lines += [f"  {s.lower():<12} hero {cards.HERO_OF[s]} ({cards.colour_of(s)})" for s in playable]
    later = [s for s in cards.SPECS if s not in playable]
    if later:
        lines.append("specs not written whole yet (not offered): " + ", ".join(s.lower() for s in later))
    ready = [c for c in cards.COLOURS if cards.starter_ready(c)]
    lines.append("starter decks (p1_starter=, p2_starter=; default: the spec's colour): " + ", ".join(ready))
    lines.append("heroes written: " + ", ".join(f"{n} ({c.spec})" for n, c in cards.HEROES.items()))
    return lines


GAME = Game(
    INFO,
    options=_options, setup=_setup, dealing=_dealing, to_act=rules.to_act, legal=legal.legal, apply=rules.apply,
    advance=rules.advance, outcome=rules.outcome, view=lazy("pbem.games.codex_v3.view:view"),
    presentation=Presentation(
        render=lazy("pbem.games.codex_v3.view:render"),
        compact=lazy("pbem.games.codex_v3.view:compact"),
        svg=lazy("pbem.games.codex_v3.svg:render_svg"),
        format=commands.format_command,
        parse=lazy("pbem.games.codex_v3.parse:parse_command"),
        describe=commands.describe_command,
        explain=lazy("pbem.games.codex_v3.explain:explain"),
        bots=_bots,
        demo_bot="greedy",
        summary=SUMMARY,
        catalogue=_catalogue,
        rich_view="pbem.games.codex_v3.rich_view",
    ),
)
