"""Items, zones and what a party knows of them (`pbem.games.base` offers
these to games; its docstring tells the model of hidden information).

A card that may ever be hidden lives in a `Zone` as `Known` or `Hidden`
under an opaque ref; a party holds the public state with its openings laid
over it (`overlay`), and `project` takes back what a reader may not see.
The copy helpers let rules change a state without touching the one they
were given, copying only the zones they change.
"""

from __future__ import annotations

import contextlib
from typing import Any, TypeVar

import msgspec

from pbem.errors import PbemError


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
