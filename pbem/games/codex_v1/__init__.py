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

from typing import Any, ClassVar

import msgspec

from pbem.errors import InvalidOption
from pbem.games.base import Bot, Chance, Game, Outcome, SeatSpec, loaded_on_use
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

__all__ = ["Codex", "GAME", "Options", "State", "Command"]


def _bots() -> dict[str, Bot]:
    from pbem.games.codex_v1.bots import BOTS

    return dict(BOTS)


class Codex(Game[State, Command]):
    name = "codex"
    title = "Codex: Card-Time Strategy"
    rules_version = "1"
    fixed_hidden_cards = True  # the set-up's hidden cards never depend on its chance
    aliases = ("cx",)
    min_seats = 2
    max_seats = 2
    has_chance = True
    has_hidden_information = True
    scenario_options = frozenset({"scenario"})
    file_options = frozenset({"scenario"})
    #: the only chance is which card a draw takes: whether a draw empties the
    #: deck, and so whether the discard pile is reshuffled, is counts alone
    reshuffle_ahead = True

    Options = Options
    State = State
    Command = Command
    bots: ClassVar[dict[str, Bot]] = loaded_on_use(_bots)
    demo_bot: ClassVar[str] = "greedy"
    summary: ClassVar[str] = SUMMARY
    rich_view: ClassVar[str | None] = "pbem.games.codex_v1.rich_view"

    def options(self, raw: dict[str, Any]) -> Options:
        fields = set(Options.__struct_fields__)
        for key in raw:
            if key not in fields:
                raise InvalidOption(f"unknown option {key!r} for codex (options: {', '.join(sorted(fields))})")
        raw = dict(raw)
        if isinstance(raw.get("first"), str):
            raw["first"] = raw["first"].strip().lower()
        if isinstance(raw.get("scenario"), str):
            raw["scenario"] = raw["scenario"].splitlines()
        try:
            options = msgspec.convert(raw, Options, strict=False)
        except msgspec.ValidationError as exc:
            raise InvalidOption(f"bad option for codex: {exc}") from None
        return rules.check_options(options)

    def setup(self, options: Any, seats: list[Any], chance: Chance) -> State:
        if options is None:
            options = Options()
        elif isinstance(options, dict):
            options = self.options(options)
        specs = [s if isinstance(s, SeatSpec) else SeatSpec(str(s)) for s in seats]
        specs = self.seats(options, specs)
        return rules.setup(options, [s.name for s in specs], chance)

    def private_decks(self, state: State) -> dict[str, str]:
        """Each seat's draw pile: its owner knows what it holds, nobody the order."""
        return {deck(s): s for s in state.seats}

    def to_act(self, state: State) -> list[str]:
        return rules.to_act(state)

    def legal(self, state: State, seat: str) -> list[Command]:
        return rules.legal(state, seat)

    def apply(self, state: State, seat: str, command: Command, chance: Chance) -> State:
        return rules.apply(state, seat, command, chance)

    def advance(self, state: State, chance: Chance) -> State:
        return rules.advance(state, chance)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def view(self, state: State, seat: str | None) -> Any:
        from pbem.games.codex_v1.view import view

        return view(state, seat)

    def render(self, view: Any) -> str:
        from pbem.games.codex_v1.view import render

        return render(view)

    def svg(self, view: Any) -> str:
        from pbem.games.codex_v1.svg import render_svg

        return render_svg(view)

    def format(self, command: Command, state: State, seat: str) -> str:
        return commands.format_command(command, state, seat)

    def parse(self, text: str, state: State, seat: str) -> Command:
        return commands.parse_command(text, state, seat)

    def describe(self, command: Command, state: State, seat: str | None) -> str:
        return commands.describe_command(command, state, seat)

    def explain(self, command: Command, state: State, seat: str) -> str:
        from pbem.games.codex_v1.explain import explain

        return explain(command, state, seat)


GAME = Codex()
