"""The standard 52-card deck, as short names: rank then suit (``7h``,
``Ts`` for the ten of spades, ``Qd``, ``8c``).

Plain data and small helpers: the rules, the views and the notation all
read cards through these, so a name's spelling lives in one place.
"""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
#: the wild rank: an eight may be played on anything, and names the suit to follow
WILD = "8"


def full_deck() -> list[str]:
    """Every card once, in a fixed order (the set-up shuffles it)."""
    return [rank + suit for suit in SUITS for rank in RANKS]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def in_hand_order(card: str) -> tuple[str, int]:
    """How a hand is shown: by suit, then by rank."""
    return suit(card), RANKS.index(rank(card))


def spoken(card: str) -> str:
    """The card in words, for `explain` and the log: ``eight of hearts``."""
    words = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "2": "two", "3": "three",
             "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine"}
    return f"{words[rank(card)]} of {SUITS[suit(card)]}"


def read_card(word: str) -> str | None:
    """A card from what a player types (``7h``, ``7H``, ``10h``, ``th``),
    or None if it is not one."""
    word = word.strip()
    if len(word) < 2:
        return None
    r, s = word[:-1].upper(), word[-1].lower()
    r = "T" if r == "10" else r
    return r + s if r in RANKS and s in SUITS else None


def read_suit(word: str) -> str | None:
    """A suit from what a player types (``hearts``, ``heart``, ``h``), or None."""
    word = word.strip().lower()
    for letter, name in SUITS.items():
        if word in (letter, name, name[:-1]):
            return letter
    return None
