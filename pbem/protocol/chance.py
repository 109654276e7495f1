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
from typing import Any

from pbem.crypto.stream import DeterministicStream
from pbem.errors import ProtocolError


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

    def __init__(self, public, secret) -> None:
        self._public = public
        self._secret = secret

    @property
    def public(self):
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
