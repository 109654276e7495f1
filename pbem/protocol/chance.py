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


def hotseat_seed(n: int) -> bytes:
    """The master seed of a hotseat game made reproducible with ``--seed N``."""
    from pbem.crypto.encoding import sha256

    return sha256(b"pbem/1 hotseat seed " + str(n).encode())
