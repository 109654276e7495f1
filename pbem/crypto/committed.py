"""Committed decks: a seat's own private deck, bound before anyone draws.

The owner puts its deck in a secret order (`secret_order`), commits to each
position (`commit_deck`) and publishes the list of commitments; the beacon
then picks which remaining position is drawn, and the owner opens that
position (card and salt) to whoever may see it, who checks it with
`check_card`. The owner knows what the deck holds, but cannot choose what
comes next, nor change a card once committed.

The order must be secret and random: a commitment hides the card at a
position, but if the positions followed a public list (the deck as built,
sorted by name) the position alone would tell everybody the card. Hence
`secret_order` before `commit_deck`.

Each card is committed as ``commit(salt, canonical(card))`` with a fresh
32-byte salt (`pbem.crypto.commit`), so equal cards give unrelated
commitments and nobody can test guesses.
"""

from __future__ import annotations

import secrets

from pbem.crypto.commit import check_opening, commit, new_salt
from pbem.crypto.encoding import canonical

__all__ = ["secret_order", "commit_deck", "check_card"]


def secret_order(cards: list[str]) -> list[str]:
    """A new list of `cards` in a uniformly random order only the caller knows."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def commit_deck(cards: list[str]) -> tuple[list[str], list[bytes]]:
    """Commit to each position of a deck: ``(commitments, salts)``.

    `cards` must already be in a secret order (`secret_order`). Publish the
    commitments; keep the cards and salts secret until each is drawn, and
    publish the rest at the end for the audit.
    """
    salts = [new_salt() for _ in cards]
    commitments = [commit(salt, _item(card)) for salt, card in zip(salts, cards)]
    return commitments, salts


def check_card(commitment: str, salt: bytes, card: str) -> None:
    """CommitmentError unless (`salt`, `card`) opens `commitment`."""
    check_opening(commitment, salt, _item(card))


def _item(card: str) -> bytes:
    if not isinstance(card, str):
        raise TypeError("a card is named by a str")
    return canonical(card)
