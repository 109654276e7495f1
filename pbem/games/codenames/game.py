"""The rules functions of the game API over the modules beside it: the
standard game (`rules`) or Duet (`duet`), as the state's variant says."""

from __future__ import annotations

from typing import Any

from pbem.errors import InvalidOption
from pbem.games.base import Chance, Dealing, SeatSpec, options_from
from pbem.games.codenames import duet, rules
from pbem.games.codenames.commands import Command
from pbem.games.codenames.state import Options, State

MIN_SEATS, MAX_SEATS = 2, 16
#: a key-card ref is its cell (``k07`` is cell 7, a public place), so two
#: red cells are never interchangeable; commands name cells by their word
_DEALING = Dealing(interchangeable=frozenset())
#: Duet: cell NN of side a and of side b are one key card's two faces
_DUET_DEALING = Dealing(linked=(("key-a", "key-b"),), interchangeable=frozenset())


def options(raw: dict[str, Any]) -> Options:
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
    return rules.check_options(options_from(Options, "codenames", fixed))


def seats(options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
    if not MIN_SEATS <= len(requested) <= MAX_SEATS:
        raise InvalidOption(f"codenames needs {MIN_SEATS}-{MAX_SEATS} seats, got {len(requested)}")
    return rules.check_seats(rules.check_options(options), requested)


def sides(options: Any, seats: list[SeatSpec]) -> list[list[str]]:
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


def dealing(state: State) -> Dealing:
    return _DUET_DEALING if state.variant == "duet" else _DEALING


def to_act(state: State) -> list[str]:
    return duet.to_act(state) if state.variant == "duet" else rules.to_act(state)


def legal(state: State, seat: str) -> list[Command]:
    if state.variant == "duet":
        return duet.legal(state, seat, rules.clue_commands)
    return rules.legal(state, seat)


def apply(state: State, seat: str, command: Command, chance: Chance) -> State:
    return duet.apply(state, seat, command) if state.variant == "duet" else rules.apply(state, seat, command)


def advance(state: State, chance: Chance) -> State:
    return duet.advance(state) if state.variant == "duet" else rules.advance(state)


def view(state: State, seat: str | None) -> Any:
    # views are imported where they are used: reading a game (`pbem
    # status`) needs only the rules (start-up time, issue #12)
    from pbem.games.codenames import duet_view
    from pbem.games.codenames import view as views

    if state.variant == "duet":
        return duet_view.build_view(state, seat)
    return views.build_view(state, seat)
