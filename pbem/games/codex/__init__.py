"""Codex: Card-Time Strategy (Sirlin Games), rules version 4:
an effects engine into which the whole Deluxe set fits; the playable specs
are those whose cards are all written (`pbem info codex` lists them).

Modules, one job each, in the order they depend on each other:
`cards` (the card files of ``data/``, compiled), `state` (options and
state Structs, zones), `board` (reading the board), `registry` (Python
card behaviour by name), `select` (selectors and conditions of the data),
`values` (current values: the continuous-effects pass), `events`
(triggers an event wakes), `engine` (damage, runes, arrival, death, the
state-based checks), `targets` (targeting rules), `effects` (the common
effects of the data; `hidden`: those on hidden zones), `resolve` (the
queue of triggers and steps, and the questions it asks), `activated` (``use``), `combat` (attacks), `turn`
(the turn's phases), `commands` (command Structs and the notation),
`play` (playing cards), `modes` (1-hero and 3-hero mode: the teams, the
hero limit, the tech II spec), `maps` (the map cards), `rules` (options,
set-up, `apply`), `legal`,
`abilities/` (per-colour functions), `scenario` (fixed positions for
tests, hotseat only), `view`, `explain`, `bots`.

Rules notes: ``shared/rules/codex.md`` and ``codex-cards.md``; decisions in
README.md ("Rules decisions"). Games begun under rules "1", "2" and "3" use
the frozen `pbem.games.codex_v1`, `codex_v2` and `codex_v3`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from pbem.errors import InvalidOption
from pbem.games.base import Bot, Chance, Game, Outcome, SeatSpec, loaded_on_use
from pbem.games.codex import abilities, commands, legal, rules  # noqa: F401 (abilities registers)
from pbem.games.codex.commands import Command
from pbem.games.codex.state import Options, State, codex, deck

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
#: words a target's side may be written with (`commands.parse_target`)
RESERVED_SEATS = ("me", "my", "opp", "their", "hand", "codex", "discard", "none")

__all__ = ["Codex", "GAME", "Options", "State", "Command"]


def _bots() -> dict[str, Bot]:
    from pbem.games.codex.bots import BOTS

    return dict(BOTS)


class Codex(Game[State, Command]):
    name = "codex"
    title = "Codex: Card-Time Strategy"
    rules_version = "4"
    fixed_hidden_cards = True  # the set-up's hidden cards never depend on its chance
    aliases = ("cx",)
    min_seats = 2
    max_seats = 5  # two, or 3 to 5 in a free-for-all (mode=ffa)
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
    rich_view: ClassVar[str | None] = "pbem.games.codex.rich_view"

    def options(self, raw: dict[str, Any]) -> Options:
        fields = set(Options.__struct_fields__)
        for key in raw:
            if key not in fields:
                raise InvalidOption(f"unknown option {key!r} for codex (options: {', '.join(sorted(fields))})")
        raw = dict(raw)
        for key in ("mode", "map", "first") + tuple(f"p{i}{end}" for i in range(1, 6) for end in ("", "_starter")):
            if isinstance(raw.get(key), str):
                raw[key] = raw[key].strip().lower()
        if isinstance(raw.get("scenario"), str):
            raw["scenario"] = raw["scenario"].splitlines()
        try:
            options = msgspec.convert(raw, Options, strict=False)
        except msgspec.ValidationError as exc:
            raise InvalidOption(f"bad option for codex: {exc}") from None
        return rules.check_options(options)

    def demo_seats_for(self, options: Any) -> tuple[str, ...]:
        from pbem.games.codex import modes

        if not isinstance(options, Options) or modes.mode_of(options) in modes.TWO_SEATS:
            return self.demo_seats
        if modes.mode_of(options) == modes.TEAMS:
            return ("alice:red", "bob:blue", "carol:red", "dave:blue")
        return DEMO_SEATS[:rules.seat_count(options)]

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        """Two seats, 3 to 5 in a free-for-all (in turn order), or four in
        two teams (``NAME:TEAM``, the Two-Headed Dragon)."""
        if not isinstance(options, Options):
            options = self.options(options or {})
        taken = [s.name for s in requested if s.name.lower() in RESERVED_SEATS]
        if taken:  # commands name sides by these words, and by seat
            raise InvalidOption(f"a Codex seat cannot be called {taken[0]!r} ({', '.join(RESERVED_SEATS)} are words "
                                "of the notation)")
        from pbem.games.codex import modes

        if modes.mode_of(options) != modes.TEAMS:
            requested = super().seats(options, requested)
            rules.seat_count(options, len(requested))
            return requested
        super().seats(options, [SeatSpec(s.name) for s in requested])  # names: distinct
        rules.seat_count(options, len(requested))
        names = [s.name for s in requested]
        return [SeatSpec(n, t) for n, t in zip(names, rules.team_roles(names, [s.role for s in requested]))]

    def catalogue(self) -> list[str]:
        """The specs (and their heroes) new games may pick, those still being
        written, and the starter decks: from the card data."""
        from pbem.games.codex import cards, maps

        playable = cards.playable_specs()
        lines = ["modes (mode=): 1hero (the default: p1=SPEC, p2=SPEC),",
                 "  3hero (three different specs a seat, mixed colours allowed, the main",
                 "  one first: p1=anarchy,blood,fire; the starter deck of the main spec's",
                 "  colour, or another hero's with p1_starter=; default: red against green)",
                 "specs new games may pick (p1=, p2=):"]
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

    def setup(self, options: Any, seats: list[Any], chance: Chance) -> State:
        if options is None:
            options = Options()
        elif isinstance(options, dict):
            options = self.options(options)
        specs = [s if isinstance(s, SeatSpec) else SeatSpec(str(s)) for s in seats]
        specs = self.seats(options, specs)
        return rules.setup(options, [s.name for s in specs], chance, [s.role for s in specs])

    def private_decks(self, state: State) -> dict[str, str]:
        """Each seat's draw pile: its owner knows what it holds, nobody the
        order; and each seat's codex, whose cards are its own spec's: in a
        peer game the shared deck is one shuffle of every other hidden
        card, which would deal each codex cards of both seats."""
        return {z: s for s in state.seats for z in (deck(s), codex(s))}

    def to_act(self, state: State) -> list[str]:
        return rules.to_act(state)

    def legal(self, state: State, seat: str) -> list[Command]:
        return legal.legal(state, seat)

    def apply(self, state: State, seat: str, command: Command, chance: Chance) -> State:
        return rules.apply(state, seat, command, chance)

    def advance(self, state: State, chance: Chance) -> State:
        return rules.advance(state, chance)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def view(self, state: State, seat: str | None) -> Any:
        from pbem.games.codex.view import view

        return view(state, seat)

    def render(self, view: Any) -> str:
        from pbem.games.codex.view import render

        return render(view)

    def compact(self, view: Any) -> str:
        from pbem.games.codex.view import compact

        return compact(view)

    def svg(self, view: Any) -> str:
        from pbem.games.codex.svg import render_svg

        return render_svg(view)

    def format(self, command: Command, state: State, seat: str) -> str:
        return commands.format_command(command, state, seat)

    def parse(self, text: str, state: State, seat: str) -> Command:
        from pbem.games.codex.parse import parse_command

        return parse_command(text, state, seat)

    def describe(self, command: Command, state: State, seat: str | None) -> str:
        return commands.describe_command(command, state, seat)

    def explain(self, command: Command, state: State, seat: str) -> str:
        from pbem.games.codex.explain import explain

        return explain(command, state, seat)


GAME = Codex()
