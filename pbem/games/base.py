"""The game API: what every game implements and what the protocol relies on.

A game is a set of pure functions over immutable-by-convention msgspec
Structs (DESIGN.md section 3). Nothing here does I/O, reads a clock, uses a
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

import contextlib
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import msgspec

from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption, NoPicture, PbemError

if TYPE_CHECKING:
    import random

__all__ = [
    "Known", "Hidden", "Item", "Zone", "GameState", "SeatSpec", "Outcome",
    "NeedsReveal", "Chance", "RandomChance", "Game", "Bot",
    "IllegalCommand", "InvalidCommand", "InvalidOption",
    "identity", "checked_if_visible", "overlay", "project", "refs_in",
    "unrevealed_public", "unknown_to", "copy_struct", "copy_zones", "share_zones", "own_zone", "settle_zones",
    "shuffle_zone", "draw_private",
    "TERMINAL_WIDTH", "COMPACT_ROWS", "fit_lines", "compact_lines",
]


# --- items and zones -------------------------------------------------------


class Known(msgspec.Struct, frozen=True, tag="known", tag_field="t"):
    """An item whose identity the holder of this state knows."""

    ref: str
    card: str

    def __repr__(self) -> str:
        return f"Known({self.ref}={self.card})"


class Hidden(msgspec.Struct, frozen=True, tag="hidden", tag_field="t"):
    """An item whose identity the holder of this state does not know."""

    ref: str

    def __repr__(self) -> str:
        return f"Hidden({self.ref})"


Item = Known | Hidden


class Zone(msgspec.Struct):
    """An ordered pile of items with a visibility.

    `public` zones are seen by everyone (their items must be revealed);
    otherwise `readers` lists the seats allowed to see the items (empty:
    nobody, e.g. the order of a deck). The first item is the top.
    """

    items: list[Item] = []
    readers: list[str] = []
    public: bool = False

    def __repr__(self) -> str:  # never print hidden identities by accident
        shown = ", ".join(
            (it.card if self.public and isinstance(it, Known) else f"<{it.ref}>")
            for it in self.items
        )
        vis = "public" if self.public else ("nobody" if not self.readers else "+".join(self.readers))
        return f"Zone[{vis}]({shown})"

    def may_see(self, seat: str) -> bool:
        return self.public or seat in self.readers


class GameState(msgspec.Struct, kw_only=True):
    """Base of every game's state: the zones plus a counter for fresh refs."""

    zones: dict[str, Zone] = {}
    next_ref: int = 0


class SeatSpec(msgspec.Struct, frozen=True):
    """A seat as given at `pbem new`: the player's name and an optional role."""

    name: str
    role: str | None = None


class Outcome(msgspec.Struct, frozen=True):
    """How a game ended: the winning seats (may be empty) and why, as data."""

    winners: list[str]
    reason: str
    scores: dict[str, int] | None = None


class NeedsReveal(PbemError):
    """The rules must read the identity of a hidden item.

    Not a user error: the protocol catches it and obtains the opening (from
    the writer, or as an obligation of whoever holds it).
    """

    def __init__(self, ref: str) -> None:
        super().__init__(f"the identity of {ref} is needed but not revealed")
        self.ref = ref


def identity(item: Item) -> str:
    """The card of `item`, or `NeedsReveal` if the holder cannot see it."""
    if type(item) is Known or isinstance(item, Known):  # the first test is the quick one
        return item.card
    raise NeedsReveal(item.ref)


class _SkippedIfHidden(contextlib.AbstractContextManager):
    """`checked_if_visible`'s context: a `NeedsReveal` inside ends the check
    quietly. A class, not a generator: the rules enter it on every command."""

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        return kind is not None and issubclass(kind, NeedsReveal)


_SKIPPED_IF_HIDDEN = _SkippedIfHidden()


def checked_if_visible() -> contextlib.AbstractContextManager[None]:
    """Run a legality check only where the identities it reads are known.

    On the public state the check is skipped; the writer, the dealer and the
    end-of-game audit (which hold the identities) still make it, so a cheat
    is caught there with the cheater's signature as evidence.
    """
    return _SKIPPED_IF_HIDDEN


# --- chance ----------------------------------------------------------------


class Chance(Protocol):
    """The only source of randomness the rules may use.

    The dealer decides how each call is realised (a referee's committed
    seed, peer beacons, or a local generator). Calls must be made in the same
    order by every party, so rules call chance only where the outcome is
    needed.

    Plain calls are **secret** chance: at set-up a dealer draws them from
    its own seed, so nobody else can repeat them (the order of a shuffled
    deck). Anything that shapes what everyone sees (who starts, which words
    lie on the table, how many cards are dealt) must come from
    ``chance.public``, which every verifier can replay: each verifier
    rebuilds the public set-up with the rules' own `setup()` and refuses a
    genesis that differs, so a public result drawn from secret chance makes
    the game fail its own first check (loudly, at `pbem new`), never leak.
    """

    @property
    def public(self) -> "Chance":
        """Chance every party can replay (see the class docstring)."""
        ...

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        ...

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        """A uniformly shuffled copy."""
        ...

    def private_draw(self, n: int) -> int:
        """Which of the `n` cards of a private deck is drawn (see
        `Game.private_decks`): where a dealer shuffled the deck, the top (0);
        in peer games, where the owner knows its deck's contents, a position
        picked by the beacons."""
        ...


class RandomChance:
    """A `Chance` over `random.Random`, for bots, tests and playouts."""

    def __init__(self, rng: random.Random | int | None = None) -> None:
        import random  # here: a command's chance is the protocol's, and `random` costs every command 1 ms

        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    @property
    def public(self) -> "RandomChance":
        return self  # one generator: bots and playouts need no split

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def private_draw(self, n: int) -> int:
        return self.rng.randrange(n)


def roll(chance: Chance, n: int, sides: int) -> list[int]:
    """`n` dice of `sides` sides, each 1..sides."""
    return [chance.below(sides) + 1 for _ in range(n)]


def pick(chance: Chance, seq: Sequence[Any]) -> Any:
    """A uniform element of a non-empty sequence."""
    return seq[chance.below(len(seq))]


def draw_private(state: GameState, name: str, chance: Chance) -> Item:
    """Take a card from a private deck (`Game.private_decks`): chance says
    which, so that in peer games its owner, who knows what the deck holds,
    cannot know what comes next. Mutates `state` (call it on a copy)."""
    items = own_zone(state, name).items
    return items.pop(chance.private_draw(len(items)))


def shuffle_zone(state: GameState, name: str, chance: Chance, prefix: str = "r") -> None:
    """Shuffle a zone in place and give its items fresh refs.

    Renaming positionally is what keeps a shuffle secret: anyone who knew
    where an old ref was learns nothing about where the card went. The
    protocol publishes commitments for the new refs. Mutates `state` (call it
    on a copy, as `apply` does).
    """
    zone = own_zone(state, name)
    shuffled = chance.shuffle(zone.items)
    fresh: list[Item] = []
    for item in shuffled:
        ref = f"{prefix}{state.next_ref:03d}"
        state.next_ref += 1
        fresh.append(Known(ref, item.card) if isinstance(item, Known) else Hidden(ref))
    # Which refs went in is public (they were in the zone); a peer game's
    # protocol must know it to deal them again, and cannot tell otherwise
    # from a card that left the game in the same command (a dead hero)
    note = getattr(chance, "note_shuffle", None)
    if note is not None:
        note(name, [it.ref for it in zone.items], [it.ref for it in fresh])
    zone.items = fresh


# --- knowledge: overlay and projection --------------------------------------

S = TypeVar("S", bound=GameState)


def copy_struct(value: S) -> S:
    """A deep copy of a Struct tree (msgpack round trip: fast and exact)."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(value), type=type(value))


def copy_zones(zones: dict[str, Zone]) -> dict[str, Zone]:
    """The zones as `copy_struct` copies them (each zone and its lists its
    own), for a fraction of the cost: items are frozen, so they are shared.
    For a game's own quick copy of its state (states are copied on every
    `apply`, and a searching bot applies thousands of commands a second)."""
    out = {}
    for name, zone in zones.items():
        mine = zone.__copy__()
        mine.items = list(zone.items)
        mine.readers = list(zone.readers)
        out[name] = mine
    return out


class _SharedZones(dict):
    """A state's zones while the rules change it (`share_zones`): the zone
    objects are still those of the state it was copied from, except the
    ones `own_zone` has copied (`owned`)."""

    __slots__ = ("owned",)


def share_zones(zones: dict[str, Zone]) -> dict[str, Zone]:
    """The zones of a copy of a state that share every zone with the
    original until the rules change one: every change to a zone (its
    items or readers) then goes through `own_zone`, and `settle_zones`
    ends the change. Copy on write: a command that changes two zones of a
    state of forty copies two."""
    out = _SharedZones(zones)
    out.owned = set()
    return out


def own_zone(state: GameState, name: str) -> Zone:
    """`state.zones[name]`, ready to be changed in place: under
    `share_zones`, copied the first time it is asked for (its own items
    and readers lists), and the same object after that. On zones that are
    not shared (a state copied whole, as by `copy_struct`), the zone as it is.

    Only the zone's own lists are copied: a list taken from one zone and
    put in another must be copied by the rules (``list(items)``)."""
    zones = state.zones
    zone = zones[name]
    if type(zones) is _SharedZones and name not in zones.owned:
        zone = zone.__copy__()
        zone.items = list(zone.items)
        zone.readers = list(zone.readers)
        zones[name] = zone
        zones.owned.add(name)
    return zone


def settle_zones(state: GameState) -> None:
    """End `share_zones`: a plain dict again, as every state that leaves the rules holds."""
    if type(state.zones) is _SharedZones:
        state.zones = dict(state.zones)


def refs_in(state: GameState) -> dict[str, str]:
    """Every ref in the state, mapped to the name of the zone that holds it."""
    return {it.ref: name for name, zone in state.zones.items() for it in zone.items}


def overlay(state: S, openings: dict[str, str]) -> S:
    """The state as seen by a party holding `openings` (ref -> card)."""
    out = copy_struct(state)
    for zone in out.zones.values():
        zone.items = [
            Known(it.ref, openings[it.ref]) if isinstance(it, Hidden) and it.ref in openings else it
            for it in zone.items
        ]
    return out


def project(state: S, known_refs: set[str] | frozenset[str]) -> S:
    """Hide every item whose ref is not in `known_refs`.

    ``project(full_state, public_refs)`` is the public state.
    """
    out = copy_struct(state)
    for zone in out.zones.values():
        zone.items = [
            Hidden(it.ref) if isinstance(it, Known) and it.ref not in known_refs else it
            for it in zone.items
        ]
    return out


def unrevealed_public(state: GameState) -> list[str]:
    """Refs lying in public zones whose identity is not known in `state`."""
    return [
        it.ref
        for zone in state.zones.values()
        if zone.public
        for it in zone.items
        if isinstance(it, Hidden)
    ]


def unknown_to(state: GameState, seat: str, known_refs: set[str] | frozenset[str]) -> list[str]:
    """Refs in zones `seat` may read (not public ones) that `seat` does not
    know. An item `Known` in `state` is known to whoever holds it: on the
    public state, a card everyone knows (a token the rules made face up,
    a public card moved into a hand) needs no delivery."""
    return [
        it.ref
        for zone in state.zones.values()
        if not zone.public and seat in zone.readers
        for it in zone.items
        if isinstance(it, Hidden) and it.ref not in known_refs
    ]


# --- text pictures -------------------------------------------------------------

#: the widest line a terminal picture may have: a new user's terminal is 80
#: columns, and a line one column wider wraps and breaks every border
TERMINAL_WIDTH = 80
#: the most lines a compact board (`Game.compact`) may take: `pbem play`
#: keeps its heading, menu, last message and prompt below it on a 24-line
#: terminal
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


# --- the game ----------------------------------------------------------------

St = TypeVar("St", bound=GameState)
Cmd = TypeVar("Cmd")


class loaded_on_use:
    """A class attribute whose value `make()` builds the first time it is
    read, then kept: a game's bots live in a module of their own, which
    only playouts, `pbem demo` and tests need, so that reading a game
    does not import them (start-up time, issue #12)."""

    def __init__(self, make: Any) -> None:
        self._make = make
        self._value: Any = None

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if self._value is None:
            self._value = self._make()
        return self._value


class Bot(Protocol):
    def __call__(self, game: "Game", state: Any, seat: str, rng: random.Random) -> Any: ...


class Game(Generic[St, Cmd]):
    """Base class of every game; subclasses set the class attributes and
    implement the methods (see DESIGN.md section 3).

    `state` arguments are never mutated: implementations copy first
    (`copy_struct`, or a quicker copy of their own that shares what it does
    not change: `share_zones` and `own_zone`) and return the new state. A
    state may so share parts with the states before it: a caller that
    wants to change one copies it first (`copy_struct`).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    #: True only when no writer could gain by knowing, before it signs, the
    #: public chance its own file draws: peer games may then draw it at once
    #: from the beacons instead of pausing for another seat's link (#14)
    immediate_chance: ClassVar[bool] = False
    #: True when which cards are hidden at set-up, and in which private
    #: decks, never depends on the set-up's chance (Agent Avenue: the whole
    #: deck, hands by position). A peer game then shuffles its deck at the
    #: joins, one file sooner; otherwise the layers wait for the set-up (a
    #: "late" deck, which cannot hold private decks). The Codenames key
    #: follows the starting team, so it is False there.
    fixed_hidden_cards: ClassVar[bool] = False
    #: a reshuffle into a private deck (which cards go in, under which fresh
    #: refs) never depends on the public chance of the command that makes
    #: it (Codex: a draw empties the deck or not by counts alone): a peer
    #: file whose last command pauses for chance then carries the owner's
    #: commitments to the reshuffle that command will make, so the same
    #: command may draw from the new deck (docs/protocol.md, "Reshuffles
    #: and cross-seat moves")
    reshuffle_ahead: ClassVar[bool] = False
    #: the dealer mode `pbem new` and `pbem demo` use when no --dealer is
    #: given: "hotseat" (one machine), "referee" (where players must not
    #: foresee chance, so `pbem new` then asks for --referee NAME) or "peer"
    default_dealer: ClassVar[str] = "hotseat"
    #: options that fix hidden information (an explicit deck order ...):
    #: allowed only where one process holds everything (the hotseat dealer).
    scenario_options: ClassVar[frozenset[str]] = frozenset()
    #: options whose value names a file the CLI reads (rules never do I/O):
    #: the game receives the file's lines as a list of strings
    file_options: ClassVar[frozenset[str]] = frozenset()

    Options: ClassVar[type[msgspec.Struct]]
    State: ClassVar[type[GameState]]
    Command: ClassVar[Any]  # a tagged union of Structs with explicit tags
    bots: ClassVar[dict[str, Bot]] = {}
    #: seats `pbem demo` plays, as NAME[:ROLE] in turn order
    demo_seats: ClassVar[tuple[str, ...]] = ("alice", "bob")
    #: the bot `pbem demo` uses unless told otherwise
    demo_bot: ClassVar[str] = "random"
    #: the rules in a dozen short lines, in our own words (`?` in `pbem play`)
    summary: ClassVar[str] = ""
    #: the module holding the game's colour terminal picture: a function
    #: ``render(view)`` returning a rich renderable (imported only by the
    #: terminal commands, so that rich is never loaded with the rules);
    #: None: the text picture is shown as it is
    rich_view: ClassVar[str | None] = None

    def demo_seats_for(self, options: Any) -> tuple[str, ...]:
        """The seats `pbem demo` plays with these options (a variant may
        need another table than `demo_seats`)."""
        return self.demo_seats

    # -- set-up ----------------------------------------------------------

    def options(self, raw: dict[str, str]) -> msgspec.Struct:
        """Options from ``--option KEY=VALUE`` pairs; `InvalidOption` if bad."""
        fields = set(self.Options.__struct_fields__)
        for key in raw:
            if key not in fields:
                known = ", ".join(sorted(fields)) or "none"
                raise InvalidOption(f"unknown option {key!r} for {self.name} (options: {known})")
        try:
            return msgspec.convert(raw, self.Options, strict=False)
        except msgspec.ValidationError as exc:
            raise InvalidOption(f"bad option for {self.name}: {exc}") from None

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        """Check and normalise the seats given at `pbem new` (in turn order)."""
        if not self.min_seats <= len(requested) <= self.max_seats:
            raise InvalidOption(
                f"{self.name} needs {self.min_seats}-{self.max_seats} seats, got {len(requested)}"
            )
        names = [s.name for s in requested]
        if len(set(names)) != len(names):
            raise InvalidOption("each seat needs a different name")
        for s in requested:
            if s.role is not None:
                raise InvalidOption(f"{self.name} has no roles (seat {s.name}:{s.role})")
        return requested

    def sides(self, options: Any, seats: list[SeatSpec]) -> list[list[str]]:
        """The sides of the table, each the seats that win or lose together
        (a team, or everyone in a game played against the rules): what a
        resignation ends (`pbem.protocol.long_games`). Default: every seat
        plays for itself."""
        return [[s.name] for s in seats]

    def catalogue(self) -> list[str]:
        """Lines `pbem info GAME` adds after the options: what the options
        may name (a game with many decks, sides or variants lists them
        here, from its data). Default: nothing."""
        return []

    def check_dealer(self, options: Any, seats: list[SeatSpec], dealer: str) -> None:
        """Refuse (`InvalidOption`) a dealer mode these options and seats
        cannot be played under, before any file is written. Default: any."""

    def setup(self, options: Any, seats: list[SeatSpec], chance: Chance) -> St:
        raise NotImplementedError

    def private_decks(self, state: St) -> dict[str, str]:
        """Zones that are a seat's own private deck: zone name -> owner.

        Nobody sees their order; the owner knows what they hold. With a
        dealer they are ordinary hidden decks. In peer games the owner
        commits to each card (in an order it keeps secret) and the beacons
        pick which one is drawn (`draw_private`). Such cards may go to the
        owner's own zones or become public, not to another seat's hand.
        """
        return {}

    def interchangeable_zones(self, state: St, seat: str) -> set[str]:
        """Zones where `seat`'s items of one card are interchangeable: before
        `seat`'s command is written, its refs there are re-chosen uniformly
        among the refs of the same card in the same zone (`pbem.games.refchoice`),
        so which copy a command uses says nothing about the other copies.

        Default: every hidden zone `seat` may read (a hand). Override to
        return fewer where a ref means more than its card: a place (the cells
        of a key card) or a card carrying state of its own.
        """
        return {name for name, zone in state.zones.items() if not zone.public and seat in zone.readers}

    def linked_zones(self, state: St) -> list[tuple[str, ...]]:
        """Groups of hidden zones whose items at the same index belong
        together (the two sides of one Codenames Duet key card): a dealer
        must deal them as one, never shuffle them apart. The referee and
        hotseat dealers keep the rules' deal as it is; the peer dealer
        deals one pair of such zones, each read by one of two seats, with
        a two-faced deck (`pbem.protocol.peer.faces`), when they are the
        game's only hidden cards at set-up, and refuses anything else."""
        return []

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

    # -- seeing -------------------------------------------------------------

    def view(self, state: St, seat: str | None) -> msgspec.Struct:
        """What `seat` may see (None: an observer). Nothing else decides visibility."""
        raise NotImplementedError

    def render(self, view: Any) -> str:
        """A text picture of a view, for a terminal."""
        raise NotImplementedError

    def compact(self, view: Any) -> str:
        """The board in at most `COMPACT_ROWS` lines of 80 columns, for
        `pbem play` on a 24-line terminal (its heading says whose turn it
        is; a key shows the whole `render`). Default: `render` itself, for
        a game whose picture is that small (wrapped to 80 columns)."""
        return compact_lines([(self.render(view).splitlines(), False)])

    def svg(self, view: Any) -> str:
        """A picture of a view as SVG text (`pbem show --svg`, `pbem page`).

        A pure function of the view, like `render`, so it can show only what
        the view's reader may see; self-contained (generic font families,
        no external references; `pbem.games.picture` has helpers). A game
        without a picture says so with `NoPicture`.
        """
        raise NoPicture(
            f"no picture for {self.title} yet",
            hint="pbem show DIR (without --svg) shows the board as text",
        )

    # -- notation ------------------------------------------------------------

    def format(self, command: Cmd, state: St, seat: str) -> str:
        """The one-line notation of `command` as `seat` would type it."""
        raise NotImplementedError

    def parse(self, text: str, state: St, seat: str) -> Cmd:
        """Parse notation against the seat's state (names -> refs);
        `InvalidCommand` if it does not parse."""
        raise NotImplementedError

    def describe(self, command: Cmd, state: St, seat: str | None) -> str:
        """A line for logs, as `seat` (None: anyone) may read it: hidden
        identities are never spelled out. Defaults to the notation."""
        return self.format(command, state, seat or "")

    def explain(self, command: Cmd, state: St, seat: str) -> str:
        """`command` in words for the seat about to send it (what `pbem play`
        asks it to confirm): it may name the seat's own hidden cards.
        Defaults to `describe` as the seat may read it."""
        return self.describe(command, state, seat)
