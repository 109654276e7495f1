"""The game object of a frozen Codex edition (`pbem.games.codex_v1` ...).

Each released Codex rules version is kept as a frozen copy of its package,
so that games begun under it keep verifying (`GameInfo.editions`). Their
rules modules are released and never change; what a package needs around
them to be a `Game` (its `GameInfo`, reading the options, the set-up call,
the dealing, the bots, the `Presentation`) was the same in each but for a
few things, and is built here once from the edition's package and rules
version. The few things are the keywords of `edition`.

Only the frozen editions use this: the current rules (`pbem.games.codex`)
have their own `game` and `present` modules, which may change.
"""

from __future__ import annotations

import importlib
from typing import Any

from pbem.games.base import Chance, Dealing, Game, GameInfo, Presentation, lazy, options_from

#: the one-screen summary of rules 1 (`pbem info codex`)
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
#: what rules 2 on add: the game asks for what a command did not say
ASKS = """\
When an effect needs a decision the command did not give (a trigger's
target, "you may"), the game asks and you answer: `choose opp:NAME`.
"""
#: options whose value is a name, lower-cased before they are read (those
#: the edition's `Options` has)
NAMED = ("first", "p1", "p2", "p1_starter", "p2_starter")


def edition(package: str, rules_version: str, *, legal: str = "legal", parse: str = "commands",
            asks: bool = True, catalogue: bool = True, compact: bool = False) -> Game[Any, Any]:
    """The `Game` of the frozen edition in `package` (``"pbem.games.codex_vN"``)
    playing rules `rules_version`. Where the editions differ: the module
    whose `legal` lists the commands (`legal`; rules 1: ``"rules"``), the
    one whose `parse_command` reads the notation (`parse`; rules 3 on:
    ``"parse"``, imported on first use), whether the game asks questions
    (`asks`: the summary says so), whether `pbem info` lists the specs from
    the card data (`catalogue`) and whether the view has a compact board
    (`compact`)."""
    # in the order the editions' own modules imported them (the package
    # imports its `abilities` first where they register the cards' functions)
    commands = importlib.import_module(f"{package}.commands")
    lister = importlib.import_module(f"{package}.{legal}")
    rules = importlib.import_module(f"{package}.rules")
    state = importlib.import_module(f"{package}.state")
    Options = state.Options
    named = tuple(k for k in NAMED if k in Options.__struct_fields__)
    info = GameInfo(
        name="codex", title="Codex: Card-Time Strategy", rules_version=rules_version, min_seats=2, max_seats=2,
        Options=Options, State=state.State, Command=commands.Command,
        scenario_options=frozenset({"scenario"}), file_options=frozenset({"scenario"}),
    )

    def read_options(raw: dict[str, Any]) -> Any:
        raw = dict(raw)
        for key in named:
            if isinstance(raw.get(key), str):
                raw[key] = raw[key].strip().lower()
        if isinstance(raw.get("scenario"), str):
            raw["scenario"] = raw["scenario"].splitlines()
        return rules.check_options(options_from(Options, "codex", raw))

    def setup(options: Any, seats: list[Any], chance: Chance) -> Any:
        options, specs = game.prepare(options, seats)
        return rules.setup(options, [s.name for s in specs], chance)

    def dealing(st: Any) -> Dealing:
        """Each seat's draw pile: its owner knows what it holds, nobody the
        order. The only chance is which card a draw takes: whether a draw
        empties the deck, and so whether the discard pile is reshuffled, is
        counts alone."""
        return Dealing(private={state.deck(s): s for s in st.seats}, reshuffle_ahead=True)

    def bots() -> dict[str, Any]:
        return dict(importlib.import_module(f"{package}.bots").BOTS)

    game: Game[Any, Any] = Game(
        info,
        options=read_options, setup=setup, dealing=dealing, to_act=rules.to_act, legal=lister.legal,
        apply=rules.apply, advance=rules.advance, outcome=rules.outcome, view=lazy(f"{package}.view:view"),
        presentation=Presentation(
            render=lazy(f"{package}.view:render"),
            **({"compact": lazy(f"{package}.view:compact")} if compact else {}),
            svg=lazy(f"{package}.svg:render_svg"),
            format=commands.format_command,
            parse=commands.parse_command if parse == "commands" else lazy(f"{package}.{parse}:parse_command"),
            describe=commands.describe_command,
            explain=lazy(f"{package}.explain:explain"),
            bots=bots,
            demo_bot="greedy",
            summary=SUMMARY + (ASKS if asks else ""),
            **({"catalogue": lambda: specs_catalogue(package)} if catalogue else {}),
            rich_view=f"{package}.rich_view",
        ),
    )
    return game


def specs_catalogue(package: str) -> list[str]:
    """The specs (and their heroes) new games may pick, those still being
    written, and the starter decks: from the edition's card data."""
    cards = importlib.import_module(f"{package}.cards")
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
