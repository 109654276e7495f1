"""Dark Agent (Rudolf Feller, Space Reindeers), 1-6 players: satellites
spot cells of a 7x5 operation area, spies attack sentries, enemy spies,
Kara and AIMs with 4 dice, and a secret UN vote may shift the area.

The modules, one job each: `catalogue` (every card value, as data:
``data/catalogue.json`` or a user's own, see README.md), `state` (options,
state, grid), `commands` (command Structs and notation), `rules`, `odds`
(exact attack chances), `view`, `render` (text), `rich_view`, `svg`,
`bots`, `editions` (what earlier rules versions read otherwise: games
begun under rules 1 are played and verified by `GAME_RULES_1`). Rules notes
and decisions: ``shared/rules/dark-agent.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from pbem.errors import InvalidOption
from pbem.games.base import Bot, Chance, Game, Outcome, SeatSpec, loaded_on_use
from pbem.games.dark_agent import commands, rules
from pbem.games.dark_agent.commands import Command
from pbem.games.dark_agent.editions import CURRENT, RULES_1, Edition
from pbem.games.dark_agent.state import AREA_DECK, Options, State

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

__all__ = ["DarkAgent", "GAME", "GAME_RULES_1", "Options", "State", "Command"]


def _bots() -> dict[str, Bot]:
    from pbem.games.dark_agent.bots import BOTS

    return dict(BOTS)


class DarkAgent(Game[State, Command]):
    name = "dark-agent"
    title = "Dark Agent"
    #: 2: a failed attack on an AIM wounds nobody; Kara protects no AIM (`editions`)
    rules_version = "2"
    #: how this rules version reads the rulebook where versions differ
    edition: ClassVar[Edition] = CURRENT
    fixed_hidden_cards = True  # the set-up's hidden cards are the catalogue's decks, whatever its chance
    aliases = ("da", "darkagent", "dark_agent")
    min_seats = 1
    max_seats = 6
    has_chance = True
    has_hidden_information = True
    #: nobody may know a roll before choosing to attack (issue #9)
    default_dealer = "referee"
    file_options: ClassVar[frozenset[str]] = frozenset({"catalogue"})
    scenario_options: ClassVar[frozenset[str]] = frozenset({"area"})

    Options = Options
    State = State
    Command = Command
    bots: ClassVar[dict[str, Bot]] = loaded_on_use(_bots)
    demo_seats: ClassVar[tuple[str, ...]] = ("alice", "bob", "carol")
    demo_bot: ClassVar[str] = "greedy"
    rich_view: ClassVar[str | None] = "pbem.games.dark_agent.rich_view"
    summary: ClassVar[str] = SUMMARY

    def options(self, raw: dict[str, Any]) -> Options:
        """``--option KEY=VALUE``; ``catalogue`` arrives as the file's lines."""
        fixed = dict(raw)
        value = fixed.get("catalogue")
        if isinstance(value, str):
            raise InvalidOption(
                "catalogue: expected the lines of a catalogue file",
                hint="pbem reads --option catalogue=FILE for you (see pbem/games/dark_agent/README.md)",
            )
        if isinstance(fixed.get("area"), str):
            fixed["area"] = [name.strip() for name in fixed["area"].split(",")]
        fields = set(Options.__struct_fields__)
        for key in fixed:
            if key not in fields:
                raise InvalidOption(f"unknown option {key!r} for {self.name} (options: {', '.join(sorted(fields))})")
        try:
            options = msgspec.convert(fixed, Options, strict=False)
        except msgspec.ValidationError as exc:
            raise InvalidOption(f"bad option for {self.name}: {exc}") from None
        rules.check_options(options)
        return options

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        requested = super().seats(options, requested)
        if isinstance(options, Options):
            rules.check_options(options, len(requested))
        return requested

    def setup(self, options: Any, seats: list[Any], chance: Chance) -> State:
        if options is None:
            options = Options()
        elif isinstance(options, dict):
            options = self.options(options)
        specs = [s if isinstance(s, SeatSpec) else SeatSpec(str(s)) for s in seats]
        specs = self.seats(options, specs)
        return rules.setup(options, [s.name for s in specs], chance)

    def check_dealer(self, options: Any, seats: list[SeatSpec], dealer: str) -> None:
        """A solo game cannot be a peer game: its dice come from another
        seat's beacon link, after the attack is signed, and there is none."""
        if dealer == "peer" and len(seats) < 2:
            raise InvalidOption(
                "a solo game of dark-agent cannot be a peer game: its dice would come from another seat's link",
                hint="use --referee NAME (the default dealer) or --dealer hotseat",
            )

    def private_decks(self, state: State) -> dict[str, str]:
        """The operation-area deck, "owned" by the first seat.

        Its cards are public knowledge (the catalogue) and every one drawn
        lands face up in the area, so an owner knowing which ref is which
        card learns nothing; which card comes next the beacons decide
        (`draw_private`, after the `deal` is signed). This keeps it apart
        from the equipment deck in peer games, whose one poker shuffle would
        otherwise mix the two decks. With a dealer it is an ordinary deck."""
        return {AREA_DECK: state.seats[0]} if AREA_DECK in state.zones else {}

    def interchangeable_zones(self, state: State, seat: str) -> set[str]:
        return {f"hand:{seat}"} if f"hand:{seat}" in state.zones else set()

    def to_act(self, state: State) -> list[str]:
        return rules.to_act(state)

    def simultaneous(self, state: State) -> list[str]:
        return rules.simultaneous(state)

    def legal(self, state: State, seat: str) -> list[Command]:
        return rules.legal(state, seat, self.edition)

    def apply(self, state: State, seat: str, command: Command, chance: Chance) -> State:
        return rules.apply(state, seat, command, chance, self.edition)

    def advance(self, state: State, chance: Chance) -> State:
        return rules.advance(state, chance)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def view(self, state: State, seat: str | None) -> Any:
        from pbem.games.dark_agent.view import view as make_view

        return make_view(state, seat, self.edition)

    def render(self, view: Any) -> str:
        from pbem.games.dark_agent.render import render as render_view

        return render_view(view)

    def compact(self, view: Any) -> str:
        from pbem.games.dark_agent.render import compact

        return compact(view)

    def svg(self, view: Any) -> str:
        from pbem.games.dark_agent.svg import render_svg

        return render_svg(view)

    def format(self, command: Command, state: State, seat: str) -> str:
        return commands.format_command(command, state, seat)

    def parse(self, text: str, state: State, seat: str) -> Command:
        return commands.parse_command(text, state, seat)

    def describe(self, command: Command, state: State, seat: str | None) -> str:
        return commands.describe_command(command, state, seat)

    def explain(self, command: Command, state: State, seat: str) -> str:
        return commands.explain_command(command, state, seat)


class DarkAgentRules1(DarkAgent):
    """Rules 1, kept so that games begun under them keep verifying: a failed
    attack on an AIM also wounds the attackers, and Kara protects an AIM."""

    rules_version = "1"
    edition: ClassVar[Edition] = RULES_1
    summary: ClassVar[str] = SUMMARY_1


GAME = DarkAgent()
GAME_RULES_1 = DarkAgentRules1()
