"""What a game declares besides its rules functions, in three records.

* `GameInfo`: the declarations the protocol and the app read before any
  state exists (name, title, rules version and the editions kept for old
  games, seat counts, the option, state and command types, which options a
  dealer must refuse or read from a file). Frozen: a game is its rules
  version, and nothing may change it at run time.
* `Dealing`: what a dealer must know of a state's hidden zones beyond their
  readers (`Game.dealing`): private decks, decks drawn by the beacons,
  linked zones, which zones hold interchangeable copies. Most games have
  none of these and never write one.
* `Presentation`: how people and bots see and play the game (pictures,
  notation, bots, the demo's table, the summary). The app and the render
  layer ask for it (`Game.presentation`); the protocol never does, so a
  verifier needs no picture, no notation and no bot.

Like `pbem.games.base`, pure: no I/O, no protocol, no crypto.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from pbem.errors import NoPicture

__all__ = [
    "GameInfo", "Dealing", "NO_DEALING", "Presentation", "load", "lazy",
    "TERMINAL_WIDTH", "COMPACT_ROWS", "fit_lines", "compact_lines",
]


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A game's declarations: everything about it that no state changes.

    A msgspec Struct rather than a dataclass (each dataclass costs a command
    about a millisecond to build at import, issue #26); a copy with some
    fields changed: ``msgspec.structs.replace(info, ...)``."""

    #: the registered name (``pbem new NAME``), recorded in every genesis
    name: str
    title: str
    #: bumped when the rules change; recorded in the genesis
    rules_version: str
    min_seats: int
    max_seats: int
    #: the Struct of ``--option KEY=VALUE`` (its defaults are the game's)
    Options: Any
    State: Any
    #: a tagged union of Structs with explicit tags
    Command: Any
    #: the dealer mode `pbem new` and `pbem demo` use when none is given:
    #: "hotseat", "referee" (players must not foresee chance) or "peer"
    default_dealer: str = "hotseat"
    #: options that fix hidden information (an explicit deck order ...):
    #: allowed only where one process holds everything (the hotseat dealer)
    scenario_options: frozenset[str] = frozenset()
    #: options whose value names a file the CLI reads (rules never do I/O):
    #: the game receives the file's lines as a list of strings
    file_options: frozenset[str] = frozenset()
    #: True only when no writer could gain by knowing, before it signs, the
    #: public chance its own file draws: peer games may then draw it at once
    #: from the beacons instead of pausing for another seat's link (#14)
    immediate_chance: bool = False
    #: earlier rules versions kept so that games begun under them verify:
    #: version -> ``"module:ATTR"`` of the game object playing them
    editions: Mapping[str, str] = msgspec.field(default_factory=dict)


class Dealing(msgspec.Struct, frozen=True, kw_only=True):
    """What a dealer must know of a state's hidden zones beyond who reads them.

    With a dealer (hotseat, referee) every hidden deck is dealt as the rules
    laid it out; only peer games, where no party holds every card, need more.
    """

    #: a seat's own deck, zone -> owner: the owner knows what it holds,
    #: nobody the order; in peer games the owner commits to each card and
    #: the beacons pick which one is drawn (`pbem.games.base.draw_private`).
    #: Its cards may go to the owner's own zones or become public, never to
    #: another seat's hand.
    private: Mapping[str, str] = msgspec.field(default_factory=dict)
    #: decks whose contents everyone knows (every card drawn turns face up:
    #: a market, an area deck): no seat owns them, and in peer games the
    #: beacons pick each draw (`draw_private`), which keeps them out of the
    #: shared deck's one shuffle
    by_beacon: tuple[str, ...] = ()
    #: groups of hidden zones whose items at the same index belong together
    #: (the two faces of one Codenames Duet key card): dealt as one, never
    #: shuffled apart (peer games: a two-faced deck, `pbem.protocol.peer.faces`)
    linked: tuple[tuple[str, ...], ...] = ()
    #: zones where a seat's items of one card are interchangeable: before a
    #: seat's command is written, its refs there are re-chosen among those of
    #: the same card (`pbem.games.refchoice`). None: every hidden zone the
    #: seat reads (a hand); fewer where a ref means more than its card (a
    #: place, a card carrying state of its own)
    interchangeable: frozenset[str] | None = None
    #: a reshuffle into a private deck (which cards go in, under which fresh
    #: refs) never depends on the public chance of the command that makes
    #: it (Codex: a draw empties the deck or not by counts alone): a peer
    #: file whose last command pauses for chance then carries the owner's
    #: commitments to that reshuffle (docs/protocol.md, "Reshuffles and
    #: cross-seat moves")
    reshuffle_ahead: bool = False


NO_DEALING = Dealing()


def load(target: str) -> Any:
    """The object ``"module:ATTR"`` names (imported on first use)."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def lazy(target: str) -> Callable[..., Any]:
    """The function ``"module:NAME"`` names, its module imported on the
    first call: a game's views, pictures and bots are modules that reading
    a game (`pbem status`) never needs (start-up time, issue #12)."""
    found: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(load(target))
        return found[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = target.rpartition(":")[2]
    call.__doc__ = f"`{target}`, imported on first use."
    return call


class Presentation:
    """How people and bots see and play a game; never read by the protocol.

    Given as keyword arguments; only `render`, `format` and `parse` are
    required. Functions take what the `Game` methods of the same names took:
    ``render(view)``, ``format(command, state, seat)``, ``parse(text, state,
    seat)``; `bots` may be a function returning the bots, called on first
    use (a game's bots are a module only playouts and demos need).
    """

    def __init__(
        self,
        *,
        render: Callable[[Any], str],
        format: Callable[[Any, Any, str], str],
        parse: Callable[[str, Any, str], Any],
        compact: Callable[[Any], str] | None = None,
        svg: Callable[[Any], str] | None = None,
        describe: Callable[[Any, Any, str | None], str] | None = None,
        explain: Callable[[Any, Any, str], str] | None = None,
        bots: Mapping[str, Any] | Callable[[], Mapping[str, Any]] | None = None,
        demo_bot: str = "random",
        demo_seats: Sequence[str] | Callable[[Any], Sequence[str]] = ("alice", "bob"),
        summary: str = "",
        catalogue: Callable[[], list[str]] | None = None,
        rich_view: str | None = None,
        title: str = "",
    ) -> None:
        self._given = {name: value for name, value in locals().items() if name not in ("self", "__class__")}
        self.render = render
        #: the one-line notation of a command as a seat would type it
        self.format = format
        #: notation -> command against the seat's state; `InvalidCommand` if it does not parse
        self.parse = parse
        self._compact = compact
        self._svg = svg
        self._describe = describe
        self._explain = explain
        self._bots = bots
        #: the bot `pbem demo` uses unless told otherwise
        self.demo_bot = demo_bot
        self._demo_seats = demo_seats
        #: the rules in a dozen short lines, in our own words (`?` in `pbem play`)
        self.summary = summary
        self._catalogue = catalogue
        #: the module of the colour terminal picture (``render(view)`` returning
        #: a rich renderable; imported only by the terminal commands); None:
        #: the text picture is shown as it is
        self.rich_view = rich_view
        self._title = title

    def replace(self, **changes: Any) -> Presentation:
        """A copy with some of the keyword arguments it was made with
        replaced (a test's bot added, its notation broken)."""
        return Presentation(**{**self._given, **changes})

    @property
    def bots(self) -> Mapping[str, Any]:
        """name -> ``bot(game, state, seat, rng)`` returning a command."""
        if callable(self._bots):
            self._bots = self._bots()
        return self._bots or {}

    def demo_seats(self, options: Any) -> tuple[str, ...]:
        """The seats `pbem demo` plays with these options, as NAME[:ROLE] in turn order."""
        seats = self._demo_seats(options) if callable(self._demo_seats) else self._demo_seats
        return tuple(seats)

    def compact(self, view: Any) -> str:
        """The board in at most `COMPACT_ROWS` lines of 80 columns, for `pbem
        play` on a 24-line terminal. Default: `render`, wrapped."""
        if self._compact is not None:
            return self._compact(view)
        return compact_lines([(self.render(view).splitlines(), False)])

    def svg(self, view: Any) -> str:
        """A self-contained SVG picture of a view (`pbem show --svg`, `pbem
        page`); `NoPicture` for a game without one."""
        if self._svg is None:
            raise NoPicture(f"no picture for {self._title} yet",
                            hint="pbem show DIR (without --svg) shows the board as text")
        return self._svg(view)

    def describe(self, command: Any, state: Any, seat: str | None) -> str:
        """A line for logs as `seat` (None: anyone) may read it: no hidden
        identity spelled out. Default: the notation."""
        if self._describe is not None:
            return self._describe(command, state, seat)
        return self.format(command, state, seat or "")

    def explain(self, command: Any, state: Any, seat: str) -> str:
        """`command` in words for the seat about to send it; it may name the
        seat's own hidden cards. Default: `describe`."""
        if self._explain is not None:
            return self._explain(command, state, seat)
        return self.describe(command, state, seat)

    def catalogue(self) -> list[str]:
        """Lines `pbem info GAME` adds after the options (what they may name)."""
        return self._catalogue() if self._catalogue is not None else []


# --- text pictures -------------------------------------------------------------

#: the widest line a terminal picture may have: a new user's terminal is 80
#: columns, and a line one column wider wraps and breaks every border
TERMINAL_WIDTH = 80
#: the most lines a compact board (`Presentation.compact`) may take: `pbem
#: play` keeps its heading, menu, last message and prompt below it on a
#: 24-line terminal
COMPACT_ROWS = 12


def fit_lines(lines: Sequence[str], width: int = TERMINAL_WIDTH, indent: str = "    ") -> list[str]:
    """`lines` with each line wider than `width` wrapped at spaces (the
    continuation indented by `indent`, a word longer than a line split).

    For the free text of a picture (prompts, lists of names); a grid is laid
    out to fit by construction, so this pass leaves it alone. Lengths are
    counted in characters: the games' words are Latin letters and names
    ASCII, one terminal cell each.
    """
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip(" "))]
        out += textwrap.wrap(
            line, width, initial_indent="", subsequent_indent=lead + indent,
            break_long_words=True, break_on_hyphens=False, drop_whitespace=True,
        ) or [line[:width]]
    return out


def compact_lines(parts: Sequence[tuple[Sequence[str], bool]], rows: int = COMPACT_ROWS) -> str:
    """A compact board from `parts` (lines, and whether the part may be
    left out), each wrapped to 80 columns: optional parts are left out,
    the last first, until at most `rows` lines remain; if the rest is
    still too long its end is cut, saying where the whole board is."""
    kept = [(fit_lines(lines), optional) for lines, optional in parts]
    while sum(len(lines) for lines, _ in kept) > rows and any(opt for _, opt in kept):
        drop = max(i for i, (_, opt) in enumerate(kept) if opt)
        kept.pop(drop)
    out = [line for lines, _ in kept for line in lines]
    if len(out) > rows:
        out = out[: rows - 1] + ["... (b shows the whole board)"]
    return "\n".join(out)
