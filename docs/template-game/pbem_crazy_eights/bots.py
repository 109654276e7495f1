"""Bots: each `bot(game, state, seat, rng)` picks one of the seat's legal
commands from the seat's own state (what it sees) and its own `rng`.

`random` is what the conformance harness and `pbem demo` play; `careful`
plays like a cautious person: it keeps its eights for when nothing else
fits, follows with the suit it holds most, and names that suit.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from pbem.games.base import Known

from pbem_crazy_eights import cards
from pbem_crazy_eights.rules import Play, hand


def random_bot(game: Any, state: Any, seat: str, rng: random.Random) -> Any:
    return rng.choice(game.legal(state, seat))


def careful_bot(game: Any, state: Any, seat: str, rng: random.Random) -> Any:
    legal = game.legal(state, seat)
    mine = {it.ref: it.card for it in state.zones[hand(seat)].items if isinstance(it, Known)}
    held = Counter(cards.suit(card) for card in mine.values() if cards.rank(card) != cards.WILD)
    plays = [c for c in legal if isinstance(c, Play)]
    if not plays:
        return legal[0]
    plain = [c for c in plays if c.suit is None]
    if plain:
        return max(plain, key=lambda c: (held[cards.suit(mine[c.ref])], c.ref))
    best = max(cards.SUITS, key=lambda s: (held[s], s))
    return next(c for c in plays if c.suit == best)


BOTS = {"random": random_bot, "careful": careful_bot}
