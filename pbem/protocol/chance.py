"""How the rules' `chance` is realised for each kind of writer.

The dealer's chance comes from its committed master seed, one stream per
event label, so the audit can replay every shuffle and die once the seed is
published. Replaying a file on the public state needs no chance at all in
the dealer modes: any chance the rules consume happens inside the dealer
(at set-up), so `NoChance` makes an unexpected call a clear error instead of
a silent divergence between parties.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pbem.crypto.stream import DeterministicStream
from pbem.errors import ProtocolError

if TYPE_CHECKING:
    from pbem.games.chance import Chance


class DealerChance:
    """Chance drawn from the dealer's master seed for one labelled event."""

    def __init__(self, seed: bytes, label: str) -> None:
        self._stream = DeterministicStream(seed, label.encode())

    def below(self, n: int) -> int:
        return self._stream.below(n)

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return self._stream.shuffle(items)

    def private_draw(self, n: int) -> int:
        return 0  # the dealer shuffled the deck: its top is a uniform draw

    @property
    def public(self) -> "DealerChance":
        return self


class NoChance:
    """For replays: the rules may not consume chance outside the dealer."""

    def below(self, n: int) -> int:
        raise ProtocolError(
            "this command needs chance, which only the dealer can draw in this game mode"
        )

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return self.below(len(items))  # type: ignore[return-value]

    def private_draw(self, n: int) -> int:
        return 0  # with a dealer, private decks were shuffled by it

    @property
    def public(self) -> "NoChance":
        return self


class SetupChance:
    """The chance of a set-up: secret calls from one source, `public` ones
    from another (see `pbem.games.base.Chance`).

    The dealer draws secret chance from its master seed and public chance
    from the genesis's public set-up seed; a verifier, which cannot know the
    secret, stands in for it (`StandInChance`) and still rebuilds the public
    state exactly, because secret chance only decides hidden identities.
    """

    def __init__(self, public: Chance, secret: Chance) -> None:
        self._public = public
        self._secret = secret

    @property
    def public(self) -> Chance:
        return self._public

    def below(self, n: int) -> int:
        return self._secret.below(n)

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return self._secret.shuffle(items)

    def private_draw(self, n: int) -> int:
        return self._secret.private_draw(n)


class StandInChance:
    """Secret chance as a verifier replays it: always the first outcome.

    Whatever a verifier puts here only decides hidden identities, which it
    never sees; a game whose public set-up depended on it would not match
    its own genesis."""

    def below(self, n: int) -> int:
        if n < 1:
            raise ProtocolError("chance below 0 was asked for")
        return 0

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return list(items)

    def private_draw(self, n: int) -> int:
        return 0

    @property
    def public(self) -> "StandInChance":
        return self


class NoPublicChance(StandInChance):
    """The public chance of a genesis written before public set-up seeds
    existed (pbem 0.1): its public set-up came from the secret seed, so a
    verifier cannot rebuild it and must refuse."""

    def below(self, n: int) -> int:
        raise ProtocolError(
            "this genesis has no public set-up seed, and its game draws public chance at set-up:"
            " its set-up cannot be checked",
        )

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return self.below(len(items))  # type: ignore[return-value]


def hotseat_seed(n: int) -> bytes:
    """The master seed of a hotseat game made reproducible with ``--seed N``."""
    from pbem.crypto.encoding import sha256

    return sha256(b"pbem/1 hotseat seed " + str(n).encode())


# --- chance during play (issue #14) ------------------------------------------


class NeedsChance(ProtocolError):
    """The rules drew public chance that this file cannot supply.

    Not a user error: `pbem.protocol.transition` turns it into a pause. The
    file ends before the command that drew it; whoever owes the chance (the
    dealer, or in peer games another seat's next beacon link) answers, and
    the command is run again from the start with the result.
    """

    def __init__(self) -> None:
        super().__init__("this command draws chance that its writer may not know yet")


class Tape:
    """A file's stream of public chance, which a retried call reads again.

    The rules are re-run from the start of a call when they need a card's
    identity (`NeedsReveal`), and a party that sees every card runs them
    once. Both must see the same dice: `mark()` remembers where a call
    began, `rewind()` goes back there, and draws already made are read
    again instead of drawn anew.
    """

    def __init__(self, seed: bytes | None, label: str) -> None:
        self._seed, self._label = seed, label
        self._stream: DeterministicStream | None = None
        self._drawn: list[tuple[int, int]] = []
        self._pos = 0

    @property
    def used(self) -> bool:
        return bool(self._drawn)

    def mark(self) -> int:
        return self._pos

    def rewind(self, mark: int) -> None:
        self._pos = mark

    def below(self, n: int) -> int:
        if self._pos < len(self._drawn):
            asked, value = self._drawn[self._pos]
            if asked != n:
                raise ProtocolError("the rules drew different chance when run again: they are not deterministic")
            self._pos += 1
            return value
        if self._seed is None:
            raise NeedsChance()
        if self._stream is None:
            self._stream = DeterministicStream(self._seed, self._label.encode())
        value = self._stream.below(n)
        self._drawn.append((n, value))
        self._pos += 1
        return value

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):  # Fisher-Yates over our own draws
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def private_draw(self, n: int) -> int:
        return self.below(n)

    @property
    def public(self) -> Tape:
        return self  # already public chance (as every `Chance` has one)


class ShuffleNotes:
    """Remembers which refs each `shuffle_zone` renamed, for a peer game's
    protocol (`peer.changes`): the set that went in is public, the order is
    not. Keyed by the fresh refs, which a run repeated from the start (a
    retry after a reveal) names again the same way."""

    def note_shuffle(self, zone: str, old: list[str], fresh: list[str]) -> None:
        notes = self.__dict__.setdefault("shuffles", {})
        notes[tuple(fresh)] = (zone, list(old))

    def shuffles_noted(self) -> list[tuple[str, list[str], list[str]]] | None:
        """``(zone, fresh refs, old refs)`` of each shuffle, in order (None:
        nothing was noted, as from a chance that does not note)."""
        notes = self.__dict__.get("shuffles")
        if not notes:
            return None
        return [(zone, list(made), old) for made, (zone, old) in notes.items()]


class PlayChance(ShuffleNotes):
    """The `chance` the rules see while a file is replayed.

    `public` is the file's `Tape` (dice, a random target: results everyone
    sees, answered by whoever may know them); plain calls are secret chance
    (a reshuffled deck's order), which only the dealer draws for real: a
    verifier stands in for it, and the protocol hides the items a shuffle
    renamed (`hide_fresh`), so the public state cannot depend on it.
    """

    def __init__(self, tape: Tape, secret: Chance | None = None, draws_public: bool = False) -> None:
        self.tape = tape
        self._secret: Chance = secret if secret is not None else StandInChance()
        #: peer games: which card of a private deck is drawn is public chance
        #: (its owner knows the deck), so it pauses like a die
        self._draws_public = draws_public

    @property
    def public(self) -> Tape:
        return self.tape

    def below(self, n: int) -> int:
        return self._secret.below(n)

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return self._secret.shuffle(items)

    def private_draw(self, n: int) -> int:
        if self._draws_public:
            return self.tape.below(n)
        return self._secret.private_draw(n)


def public_chance_seed(game_seed: bytes, seq: int) -> bytes:
    """The seed of the public chance a dealer's file at `seq` supplies: tied
    to the committed seed, so the audit can tell it was not chosen."""
    from pbem.crypto.stream import derive

    return derive(game_seed, f"public chance {seq}".encode())


def tape_label(seq: int, proven: bool) -> str:
    """The label a dealer's file's public chance is drawn under from its
    seed: its seq, or, where the referee's chance is proven (version 7),
    none: the draw's proof fixes the seed whatever the seq, and so must the
    label (`pbem.protocol.referee_chance`)."""
    return "public" if proven else f"public {seq}"


def secret_chance(game_seed: bytes, seq: int) -> DealerChance:
    """The dealer's secret chance while file `seq` is applied."""
    return DealerChance(game_seed, f"secret chance {seq}")
