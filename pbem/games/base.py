"""The game API: what every game implements and what the protocol relies on.

A game is a set of pure functions over immutable-by-convention msgspec
Structs (DESIGN.md section 3), tied together by `Game` with its
declarations (`GameInfo`), what its dealers must know of its hidden zones
(`Game.dealing`, a `Dealing`) and its presentation (`Presentation`, which
the protocol never reads); those three records live in `pbem.games.api`
and are exported here. Nothing here does I/O, reads a clock, uses a
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
import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import msgspec

from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption, PbemError
from pbem.games.api import (
    COMPACT_ROWS, NO_DEALING, TERMINAL_WIDTH, Dealing, GameInfo, Presentation, compact_lines, fit_lines, lazy, load,
)

if TYPE_CHECKING:
    import random

__all__ = [
    "Known", "Hidden", "Item", "Zone", "GameState", "SeatSpec", "Outcome",
    "NeedsReveal", "Chance", "RandomChance", "Game", "GameInfo", "Dealing", "NO_DEALING", "Presentation", "Bot",
    "IllegalCommand", "InvalidCommand", "InvalidOption",
    "identity", "checked_if_visible", "overlay", "project", "refs_in",
    "unrevealed_public", "unknown_to", "copy_struct", "copy_zones", "share_zones", "own_zone", "settle_zones",
    "shuffle_zone", "draw_private", "options_from", "plain_seats", "lazy",
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
        `Dealing.private`): where a dealer shuffled the deck, the top (0);
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
    """Take a card from a private deck (`Dealing.private`): chance says
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
