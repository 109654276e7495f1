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

from typing import Any

from pbem.games.base import Chance, Dealing, Game, GameInfo, Presentation, lazy, options_from
from pbem.games.codex_v1 import commands, rules
from pbem.games.codex_v1.commands import Command
from pbem.games.codex_v1.state import Options, State, deck

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
"""

__all__ = ["GAME", "INFO", "Options", "State", "Command"]

INFO = GameInfo(
    name="codex", title="Codex: Card-Time Strategy", rules_version="1", min_seats=2, max_seats=2,
    Options=Options, State=State, Command=Command,
    scenario_options=frozenset({"scenario"}), file_options=frozenset({"scenario"}),
)


def _options(raw: dict[str, Any]) -> Options:
    raw = dict(raw)
    for key in ("first",):
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
    from pbem.games.codex_v1.bots import BOTS

    return dict(BOTS)


GAME = Game(
    INFO,
    options=_options, setup=_setup, dealing=_dealing, to_act=rules.to_act, legal=rules.legal, apply=rules.apply,
    advance=rules.advance, outcome=rules.outcome, view=lazy("pbem.games.codex_v1.view:view"),
    presentation=Presentation(
        render=lazy("pbem.games.codex_v1.view:render"),
        svg=lazy("pbem.games.codex_v1.svg:render_svg"),
        format=commands.format_command,
        parse=commands.parse_command,
        describe=commands.describe_command,
        explain=lazy("pbem.games.codex_v1.explain:explain"),
        bots=_bots,
        demo_bot="greedy",
        summary=SUMMARY,
        rich_view="pbem.games.codex_v1.rich_view",
    ),
)
