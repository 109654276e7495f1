"""The rules functions of the game API that Codex's `rules` does not give
as they are: reading options and seats, the dealing."""

from __future__ import annotations

from typing import Any

from pbem.errors import InvalidOption
from pbem.games.base import Dealing, SeatSpec, options_from, plain_seats
from pbem.games.codex import modes, setup
from pbem.games.codex.state import Options, State, codex, deck

MIN_SEATS, MAX_SEATS = 2, 5  # two, or 3 to 5 in a free-for-all (mode=ffa)
#: words a target's side may be written with (`commands.parse_target`)
RESERVED_SEATS = ("me", "my", "opp", "their", "hand", "codex", "discard", "none")
#: lower-cased before they are read
_NAMED = ("mode", "map", "first") + tuple(f"p{i}{end}" for i in range(1, 6) for end in ("", "_starter"))


def read_options(raw: dict[str, Any]) -> Options:
    """``--option KEY=VALUE``: names lower-cased, a scenario as its lines."""
    raw = dict(raw)
    for key in _NAMED:
        if isinstance(raw.get(key), str):
            raw[key] = raw[key].strip().lower()
    if isinstance(raw.get("scenario"), str):
        raw["scenario"] = raw["scenario"].splitlines()
    return setup.check_options(options_from(Options, "codex", raw))


def seats(options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
    """Two seats, 3 to 5 in a free-for-all (in turn order), or four in
    two teams (``NAME:TEAM``, the Two-Headed Dragon)."""
    if not isinstance(options, Options):
        options = read_options(options or {})
    taken = [s.name for s in requested if s.name.lower() in RESERVED_SEATS]
    if taken:  # commands name sides by these words, and by seat
        raise InvalidOption(f"a Codex seat cannot be called {taken[0]!r} ({', '.join(RESERVED_SEATS)} are words "
                            "of the notation)")
    if modes.mode_of(options) != modes.TEAMS:
        requested = plain_seats("codex", MIN_SEATS, MAX_SEATS, requested)
        setup.seat_count(options, len(requested))
        return requested
    plain_seats("codex", MIN_SEATS, MAX_SEATS, [SeatSpec(s.name) for s in requested])  # names: distinct
    setup.seat_count(options, len(requested))
    names = [s.name for s in requested]
    return [SeatSpec(n, t) for n, t in zip(names, setup.team_roles(names, [s.role for s in requested]))]


def dealing(state: State) -> Dealing:
    """Each seat's draw pile: its owner knows what it holds, nobody the
    order; and each seat's codex, whose cards are its own spec's: in a
    peer game the shared deck is one shuffle of every other hidden card,
    which would deal each codex cards of both seats. The only chance is
    which card a draw takes: whether a draw empties the deck, and so
    whether the discard pile is reshuffled, is counts alone."""
    return Dealing(private={z: s for s in state.seats for z in (deck(s), codex(s))}, reshuffle_ahead=True)
