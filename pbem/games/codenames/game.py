"""The `Codenames` game object: the `Game` API over the modules beside it."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from pbem.errors import InvalidOption
from pbem.games.base import Bot, Chance, Game, Outcome, SeatSpec, loaded_on_use
from pbem.games.codenames import commands, duet, rules
from pbem.games.codenames.commands import Command
from pbem.games.codenames.state import Options, State


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


def _bots() -> dict[str, Bot]:
    from pbem.games.codenames import bots

    return {"random": bots.random_bot, "spymaster": bots.spymaster_bot}


class Codenames(Game[State, Command]):
    """Codenames: two teams of spies, one word clues, a key only the
    spymasters see (rules: `pbem.games.codenames.rules`)."""

    name: ClassVar[str] = "codenames"
    title: ClassVar[str] = "Codenames"
    #: 2: clue verdicts (invalid / objectionable, compounds, look-alikes), Duet
    rules_version: ClassVar[str] = "2"
    aliases: ClassVar[tuple[str, ...]] = ("cn",)
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 16
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    scenario_options: ClassVar[frozenset[str]] = frozenset({"key"})
    file_options: ClassVar[frozenset[str]] = frozenset({"words"})

    Options: ClassVar[type[msgspec.Struct]] = Options
    State: ClassVar[type[State]] = State
    Command: ClassVar[Any] = Command
    #: seats `pbem demo` plays (NAME:ROLE), and the bot it should use
    demo_seats: ClassVar[tuple[str, ...]] = (
        "alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue",
    )
    demo_bot: ClassVar[str] = "spymaster"
    rich_view: ClassVar[str | None] = "pbem.games.codenames.rich_view"
    summary: ClassVar[str] = SUMMARY


    def demo_seats_for(self, options: Any) -> tuple[str, ...]:
        variant = getattr(options, "variant", "standard")
        if variant == "duet":
            return ("alice:a", "bob:b")
        if variant == "coop":
            return ("alice:red-spymaster", "bob:red")
        if variant == "three":
            return ("alice:red-spymaster", "carol:blue-spymaster", "bob:shared")
        return self.demo_seats
    bots: ClassVar[dict[str, Bot]] = loaded_on_use(_bots)

    # -- set-up ----------------------------------------------------------------

    def options(self, raw: dict[str, Any]) -> Options:
        """Options from ``--option KEY=VALUE`` pairs (strings) or values.

        `words` and `grid` are lists of words; given as one string they are
        split at newlines, commas and spaces (``grid=tiger,lemon,...``). The
        rules never read files: for ``--option words=FILE`` the CLI reads
        the file and passes its lines (a bare name that is not a list is
        refused with a hint).
        """
        fixed = dict(raw)
        for name in ("words", "grid"):
            value = fixed.get(name)
            if isinstance(value, str):
                parts = value.replace(",", " ").split()
                if len(parts) < 2:
                    raise InvalidOption(
                        f"{name}: expected a list of words, got {value!r}",
                        hint="the CLI reads --option words=FILE into a list; one word per line",
                    )
                fixed[name] = parts
        return rules.check_options(super().options(fixed))  # type: ignore[arg-type]

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        if not self.min_seats <= len(requested) <= self.max_seats:
            raise InvalidOption(
                f"codenames needs {self.min_seats}-{self.max_seats} seats, got {len(requested)}"
            )
        return rules.check_seats(rules.check_options(options), requested)

    def sides(self, options: Any, seats: list[SeatSpec]) -> list[list[str]]:
        """Co-operative variants (coop, Duet): one side, the whole table.
        Otherwise a team's spymaster and operatives; the three-player
        variant's shared operative is a side of its own (it wins with
        neither spymaster)."""
        if getattr(options, "variant", "standard") in ("coop", "duet"):
            return [[s.name for s in seats]]
        teams: dict[str, list[str]] = {}
        for s in seats:
            role = s.role or s.name
            teams.setdefault(role if role == "shared" else role.split("-")[0], []).append(s.name)
        return list(teams.values())

    def setup(self, options: Any, seats: list[SeatSpec], chance: Chance) -> State:
        return rules.setup(options, seats, chance)

    def interchangeable_zones(self, state: State, seat: str) -> set[str]:
        """None: a key-card ref is its cell (``k07`` is cell 7, a public
        place), so two red cells are never interchangeable; commands name
        cells by their public word anyway."""
        return set()

    def linked_zones(self, state: State) -> list[tuple[str, ...]]:
        """Duet: cell NN of side a and of side b are one key card's two faces."""
        return [("key-a", "key-b")] if state.variant == "duet" else []

    # -- play --------------------------------------------------------------------

    # Duet (``variant=duet``) has rules of its own: `duet`, `duet_view`

    def to_act(self, state: State) -> list[str]:
        return duet.to_act(state) if state.variant == "duet" else rules.to_act(state)

    def legal(self, state: State, seat: str) -> list[Command]:
        if state.variant == "duet":
            return duet.legal(state, seat, rules.clue_commands)
        return rules.legal(state, seat)

    def apply(self, state: State, seat: str, command: Command, chance: Chance) -> State:
        return duet.apply(state, seat, command) if state.variant == "duet" else rules.apply(state, seat, command)

    def advance(self, state: State, chance: Chance) -> State:
        return duet.advance(state) if state.variant == "duet" else rules.advance(state)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    # -- seeing ------------------------------------------------------------------

    # views, pictures and bots are imported where they are used: reading a
    # game (`pbem status`) needs only the rules (start-up time, issue #12)

    def view(self, state: State, seat: str | None) -> Any:
        from pbem.games.codenames import duet_view
        from pbem.games.codenames import view as views

        if state.variant == "duet":
            return duet_view.build_view(state, seat)
        return views.build_view(state, seat)

    def render(self, v: Any) -> str:
        from pbem.games.codenames import duet_view
        from pbem.games.codenames import render as rendering

        if isinstance(v, duet_view.DuetView):
            return duet_view.render(v)
        return rendering.render(v)

    def compact(self, v: Any) -> str:
        from pbem.games.codenames import duet_view
        from pbem.games.codenames import render as rendering

        if isinstance(v, duet_view.DuetView):
            return duet_view.compact(v)
        return rendering.compact(v)

    def svg(self, v: Any) -> str:
        from pbem.games.codenames import duet_view

        if isinstance(v, duet_view.DuetView):
            from pbem.games.codenames.duet_svg import render_svg as render_duet

            return render_duet(v)
        from pbem.games.codenames.svg import render_svg

        return render_svg(v)

    # -- notation ------------------------------------------------------------------

    def format(self, command: Command, state: State, seat: str) -> str:
        return commands.format_command(command)

    def parse(self, text: str, state: State, seat: str) -> Command:
        return commands.parse_command(text)

    def describe(self, command: Command, state: State, seat: str | None) -> str:
        return commands.format_command(command)

    def explain(self, command: Command, state: State, seat: str) -> str:
        return commands.explain_command(command)
