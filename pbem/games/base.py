"""The game API: what every game implements and what the protocol relies on.

A game is a set of pure functions over immutable-by-convention msgspec
Structs (DESIGN.md section 3), tied together by `Game` with its
declarations (`GameInfo`), what its dealers must know of its hidden zones
(`Game.dealing`, a `Dealing`) and its presentation (`Presentation`, which
the protocol never reads); those three records live in `pbem.games.api`,
items, zones and knowledge in `pbem.games.zones`, chance in
`pbem.games.chance`, and all are exported here: a game imports from here. Nothing here does I/O, reads a clock, uses a
global random generator or touches cryptography: the same rules run in a
referee, in a player's client, in a replay and in an audit.

Hidden information
------------------
Every item that may ever be hidden lives in a `Zone` inside
``state.zones``. An item is `Known(ref, card)` or `Hidden(ref)`; `ref` is a
stable opaque label (``"a07"``) that the protocol binds to the card with a
commitment. A party holds the state *as it knows it*: the public state with
the openings it holds laid over it (`overlay`). Rules may count, move and
compare refs of hidden items freely, but `identity()` of a `Hidden` item
raises `NeedsReveal(ref)`.

The canonical chain state is the **public** state (everything not publicly
revealed is `Hidden`). The protocol applies every command to it; when the
rules raise `NeedsReveal`, the writer of the file includes the opening if it
holds it, otherwise the party that holds it owes it (an obligation). Checks
that only a party who can see the cards can make (e.g. "the two cards you
play have different names" when one of them is face down) are written inside
``with checked_if_visible():`` so they run wherever the identities are known
(the writer, the dealer, the audit) and are skipped on the public state.

`advance()` performs every step that needs no decision (movement, scoring,
the end of a turn). It is separate from `apply()` because such steps often
need an identity that only becomes public in a *later* file (the face-down
card in Agent Avenue): the protocol calls `advance()` after every file and
simply retries after the next reveal.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import msgspec

from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption
from pbem.games.api import (
    COMPACT_ROWS, NO_DEALING, TERMINAL_WIDTH, Dealing, GameInfo, Presentation, compact_lines, fit_lines, lazy, load,
)
from pbem.games.chance import Chance, RandomChance, draw_private, pick, roll, shuffle_zone
from pbem.games.zones import (
    GameState, Hidden, Item, Known, NeedsReveal, Outcome, SeatSpec, Zone, checked_if_visible, copy_struct, copy_zones,
    identity, overlay, own_zone, project, refs_in, settle_zones, share_zones, unknown_to, unrevealed_public,
)

if TYPE_CHECKING:
    import random

__all__ = [
    "Known", "Hidden", "Item", "Zone", "GameState", "SeatSpec", "Outcome",
    "NeedsReveal", "Chance", "RandomChance", "Game", "GameInfo", "Dealing", "NO_DEALING", "Presentation", "Bot",
    "IllegalCommand", "InvalidCommand", "InvalidOption",
    "identity", "checked_if_visible", "overlay", "project", "refs_in",
    "unrevealed_public", "unknown_to", "copy_struct", "copy_zones", "share_zones", "own_zone", "settle_zones",
    "shuffle_zone", "draw_private", "roll", "pick", "options_from", "plain_seats", "lazy",
    "TERMINAL_WIDTH", "COMPACT_ROWS", "fit_lines", "compact_lines",
]


# --- the game ----------------------------------------------------------------

St = TypeVar("St", bound=GameState)
Cmd = TypeVar("Cmd")


class Bot(Protocol):
    def __call__(self, game: "Game", state: Any, seat: str, rng: random.Random) -> Any: ...


#: the rules functions a game may give `Game` (DESIGN.md section 3)
RULES = ("options", "seats", "sides", "setup", "to_act", "simultaneous", "legal", "apply", "advance", "outcome",
         "view", "dealing")


def options_from(options: type[msgspec.Struct], game: str, raw: dict[str, Any]) -> Any:
    """The `options` Struct from ``--option KEY=VALUE`` pairs (strings,
    converted) or values; `InvalidOption` naming `game` if a key is unknown
    or a value bad. What `Game.options` does unless a game gives its own
    (which may tidy `raw` first, then call this)."""
    fields = set(options.__struct_fields__)
    for key in raw:
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise InvalidOption(f"unknown option {key!r} for {game} (options: {known})")
    try:
        return msgspec.convert(raw, options, strict=False)
    except msgspec.ValidationError as exc:
        raise InvalidOption(f"bad option for {game}: {exc}") from None


def plain_seats(game: str, min_seats: int, max_seats: int, requested: list[SeatSpec]) -> list[SeatSpec]:
    """`requested` if it is `min_seats` to `max_seats` seats without roles,
    each named once; `InvalidOption` naming `game` otherwise. What
    `Game.seats` does unless a game gives its own."""
    if not min_seats <= len(requested) <= max_seats:
        raise InvalidOption(f"{game} needs {min_seats}-{max_seats} seats, got {len(requested)}")
    names = [s.name for s in requested]
    if len(set(names)) != len(names):
        raise InvalidOption("each seat needs a different name")
    for s in requested:
        if s.role is not None:
            raise InvalidOption(f"{game} has no roles (seat {s.name}:{s.role})")
    return requested


class Game(Generic[St, Cmd]):
    """A game: its declarations (`info`), its rules functions, and where its
    presentation lives. A game is built from them::

        GAME = Game(INFO, setup=rules.setup, to_act=rules.to_act, legal=rules.legal,
                    apply=rules.apply, outcome=rules.outcome, view=view.view,
                    presentation="pbem.games.mine.present:PRESENTATION")

    (A subclass whose methods are the rules functions and whose class
    attribute is `info` works as well: the test games are written so.)

    Rules functions not given take the defaults below (`options` from the
    `Options` Struct, `seats` by the seat counts, no `advance`, no
    `simultaneous` vote, every seat its own side, no `dealing`).

    `state` arguments are never mutated: implementations copy first
    (`copy_struct`, or a quicker copy of their own that shares what it does
    not change: `share_zones` and `own_zone`) and return the new state. A
    state may so share parts with the states before it: a caller that
    wants to change one copies it first (`copy_struct`).
    """

    info: GameInfo

    def __init__(self, info: GameInfo | None = None, *, presentation: str | Presentation | None = None,
                 **rules: Any) -> None:
        if info is not None:
            #: the game's declarations (`GameInfo`; a subclass may set it as a class attribute)
            self.info = info
        self._presentation = presentation
        self._set_rules(rules)

    def _set_rules(self, rules: dict[str, Any]) -> None:
        for key, function in rules.items():
            if key not in RULES:
                raise TypeError(f"{key!r} is not a rules function of the game API (those are: {', '.join(RULES)})")
            setattr(self, key, function)

    def replace(self, info: GameInfo | None = None, *, presentation: str | Presentation | None = None,
                **rules: Any) -> Game:
        """A copy of this game with its `info`, its presentation or some of
        its rules functions replaced: an edition kept for old games that
        reads a few rules otherwise, or a test's game broken in one place."""
        out = copy.copy(self)
        if info is not None:
            out.info = info
        if presentation is not None:
            out._presentation = presentation
        out._set_rules(rules)
        return out

    @property
    def presentation(self) -> Presentation:
        """How people and bots see and play this game (`Presentation`):
        for the app and the pictures, never the protocol. Its module is
        imported on first use."""
        shown = self._presentation
        if shown is None:
            raise AttributeError(f"{self.info.name} has no presentation")
        if isinstance(shown, str):
            shown = load(shown)
        if not shown._title:
            shown._title = self.info.title
        self._presentation = shown
        return shown

    # -- set-up ----------------------------------------------------------

    def options(self, raw: dict[str, str]) -> msgspec.Struct:
        """Options from ``--option KEY=VALUE`` pairs; `InvalidOption` if bad."""
        return options_from(self.info.Options, self.info.name, raw)

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        """Check and normalise the seats given at `pbem new` (in turn order)."""
        info = self.info
        return plain_seats(info.name, info.min_seats, info.max_seats, requested)

    def prepare(self, options: Any, seats: Sequence[Any]) -> tuple[Any, list[SeatSpec]]:
        """`options` and `seats` as `setup` wants them, from what a test or a
        script may pass (None or a dict of options, seat names): checked by
        `options` and `seats`."""
        if options is None:
            options = self.info.Options()
        elif isinstance(options, dict):
            options = self.options(options)
        specs = [s if isinstance(s, SeatSpec) else SeatSpec(str(s)) for s in seats]
        return options, self.seats(options, specs)

    def sides(self, options: Any, seats: list[SeatSpec]) -> list[list[str]]:
        """The sides of the table, each the seats that win or lose together
        (a team, or everyone in a game played against the rules): what a
        resignation ends (`pbem.protocol.long_games`). Default: every seat
        plays for itself."""
        return [[s.name] for s in seats]

    def setup(self, options: Any, seats: list[SeatSpec], chance: Chance) -> St:
        raise NotImplementedError

    def dealing(self, state: St) -> Dealing:
        """What a dealer must know of `state`'s hidden zones beyond their
        readers (`Dealing`: private decks, decks drawn by the beacons,
        linked zones, interchangeable copies). Default: nothing."""
        return NO_DEALING

    # -- play --------------------------------------------------------------

    def to_act(self, state: St) -> list[str]:
        """Seats that must make a decision now (empty when the game is over
        or when it waits for a reveal)."""
        raise NotImplementedError

    def simultaneous(self, state: St) -> list[str]:
        """Seats that choose at once now, none seeing the others' choices
        (a secret vote); `to_act` returns the same seats. Each submits one
        ordinary command, which the protocol keeps sealed (dealer modes) or
        committed (peer games) until every one is in; then `apply` runs for
        each in seat order. Default: nobody."""
        return []

    def legal(self, state: St, seat: str) -> list[Cmd]:
        """The seat's legal commands, deterministic order (where enumerable)."""
        raise NotImplementedError

    def apply(self, state: St, seat: str, command: Cmd, chance: Chance) -> St:
        """The state after `seat` makes `command`; `IllegalCommand` if not legal."""
        raise NotImplementedError

    def advance(self, state: St, chance: Chance) -> St:
        """Perform the steps that need no decision; may raise `NeedsReveal`."""
        return state

    def outcome(self, state: St) -> Outcome | None:
        raise NotImplementedError

    def view(self, state: St, seat: str | None) -> msgspec.Struct:
        """What `seat` may see (None: an observer). Nothing else decides visibility."""
        raise NotImplementedError
