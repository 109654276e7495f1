"""Agent Avenue (Christian & Laura Kudahl), two players: simple mode and
advanced mode (the black market, `market`); the team variant for 3-4
players (`rules`, TEAMS.md).

The modules, one job each: `cards` (agent data, board constants), `state`
(options and state Structs, zones), `commands` (command Structs and the
notation), `rules` (set-up, turn flow, End step), `view` (what a seat may
see), `render` (text picture), `svg` (the
SVG picture), `bots`. Rules notes and decisions:
``shared/rules/agent-avenue.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from pbem.errors import InvalidOption
from pbem.games.agent_avenue import commands, rules
from pbem.games.agent_avenue.commands import Choose, Command, Discard, Pass, Play, PlayOne, Recruit, Take
from pbem.games.agent_avenue.state import Options, State, players_of
from pbem.games.base import Bot, Chance, Game, Outcome, SeatSpec, loaded_on_use

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

__all__ = [
    "AgentAvenue", "GAME", "Options", "State", "Command", "Discard", "Play", "PlayOne", "Recruit",
    "Take", "Choose", "Pass", "View",
]


def _bots() -> dict[str, Bot]:
    from pbem.games.agent_avenue.bots import BOTS

    return dict(BOTS)


def __getattr__(name: str) -> Any:
    """`View` is imported with the view module, on first use."""
    if name == "View":
        from pbem.games.agent_avenue.view import View

        return View
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class AgentAvenue(Game[State, Command]):
    name = "agent-avenue"
    title = "Agent Avenue"
    rules_version = "1"
    fixed_hidden_cards = True  # the set-up's hidden cards never depend on its chance
    aliases = ("aa", "agentavenue", "agent_avenue")
    min_seats = 2
    max_seats = 4
    has_chance = True
    has_hidden_information = True
    scenario_options = frozenset({"deck", "market"})

    Options = Options
    State = State
    Command = Command
    bots: ClassVar[dict[str, Bot]] = loaded_on_use(_bots)
    demo_bot: ClassVar[str] = "greedy"
    rich_view: ClassVar[str | None] = "pbem.games.agent_avenue.rich_view"
    summary: ClassVar[str] = SUMMARY

    # -- set-up ------------------------------------------------------------------

    def options(self, raw: dict[str, Any]) -> Options:
        """Options from ``KEY=VALUE`` strings; ``deck`` and ``market`` are comma-separated."""
        raw = dict(raw)
        for key in ("deck", "market"):
            value = raw.get(key)
            if isinstance(value, str):
                raw[key] = [name.strip() for name in value.split(",")]
        fields = set(Options.__struct_fields__)
        for key in raw:
            if key not in fields:
                known = ", ".join(sorted(fields))
                raise InvalidOption(f"unknown option {key!r} for {self.name} (options: {known})")
        try:
            options = msgspec.convert(raw, Options, strict=False)
        except msgspec.ValidationError as exc:
            raise InvalidOption(f"bad option for {self.name}: {exc}") from None
        return rules.check_options(options)

    def demo_seats_for(self, options: Any) -> tuple[str, ...]:
        teams = getattr(options, "teams", msgspec.UNSET)
        if teams == "2v2":
            return ("alice:green", "bob:blue", "carol:green", "dave:blue")
        if teams == "2v1":
            return ("alice:green", "bob:blue", "carol:green")
        return self.demo_seats

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        """Two seats, or 3-4 for the team variant: ``NAME:TEAM`` for each seat
        (two team names), or no roles at all for green and blue alternately."""
        names = [s.name for s in requested]
        teams = getattr(options, "teams", msgspec.UNSET)
        if teams is not msgspec.UNSET and len(requested) != rules.TEAM_SIZES[teams]:
            raise InvalidOption(f"teams={teams} needs {rules.TEAM_SIZES[teams]} seats, got {len(requested)}")
        if len(requested) <= 2:
            if len(requested) == 2 and any(s.role is not None for s in requested):
                raise InvalidOption(
                    "teams (--seat NAME:TEAM) are for 3-4 players; two players give no roles"
                )
            requested = super().seats(options, requested)
        else:
            if len(requested) > self.max_seats or len(set(names)) != len(names):
                requested = super().seats(options, requested)  # says what is wrong
            roles = rules.team_roles(names, [s.role for s in requested])
            requested = [SeatSpec(s.name, r) for s, r in zip(requested, roles)]
        if isinstance(options, Options):
            rules.check_first(options, names)
        return requested

    def sides(self, options: Any, seats: list[SeatSpec]) -> list[list[str]]:
        """The team variant: a team wins or loses together."""
        teams: dict[str, list[str]] = {}
        for s in seats:
            teams.setdefault(s.role or s.name, []).append(s.name)
        return list(teams.values())

    def setup(self, options: Any, seats: list[Any], chance: Chance) -> State:
        if options is None:
            options = Options()
        elif isinstance(options, dict):
            options = self.options(options)
        specs = [s if isinstance(s, SeatSpec) else SeatSpec(str(s)) for s in seats]
        specs = self.seats(options, specs)
        return rules.setup(options, [s.name for s in specs], chance, [s.role for s in specs])

    # -- play ----------------------------------------------------------------------

    def private_decks(self, state: State) -> dict[str, str]:
        """Advanced mode: the black-market deck, "owned" by the first seat.

        Its 15 cards are public knowledge and each one drawn turns face up,
        so an owner knowing which ref is which card learns nothing; what
        must stay unknown is which card comes next, and the beacons decide
        that (`draw_private`). This keeps it apart from the agent deck in
        peer games, whose one shuffle would otherwise mix the two decks."""
        if state.mode != "advanced":
            return {}
        return {"market:deck": players_of(state)[0]}

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

    # -- seeing --------------------------------------------------------------------

    def view(self, state: State, seat: str | None) -> Any:
        from pbem.games.agent_avenue.view import view as make_view

        return make_view(state, seat)

    def render(self, view: Any) -> str:
        from pbem.games.agent_avenue.render import render as render_view

        return render_view(view)

    def compact(self, view: Any) -> str:
        from pbem.games.agent_avenue.render import compact

        return compact(view)

    def svg(self, view: Any) -> str:
        from pbem.games.agent_avenue.svg import render_svg

        return render_svg(view)

    # -- notation ------------------------------------------------------------------

    def format(self, command: Command, state: State, seat: str) -> str:
        return commands.format_command(command, state, seat)

    def parse(self, text: str, state: State, seat: str) -> Command:
        return commands.parse_command(text, state, seat)

    def describe(self, command: Command, state: State, seat: str | None) -> str:
        return commands.describe_command(command, state, seat)

    def explain(self, command: Command, state: State, seat: str) -> str:
        return commands.explain_command(command, state, seat)


GAME = AgentAvenue()
