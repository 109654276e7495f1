"""Chance for the rules (`pbem.games.base` offers these to games): the one
source of randomness rules may use, a `random`-backed one for bots and
tests, and the helpers that draw, roll and shuffle a zone with it. Which
chance stands behind it in a real game is the protocol's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pbem.games.zones import GameState, Hidden, Item, Known, own_zone

if TYPE_CHECKING:
    import random


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
