"""Exact chances of an attack, from the 6^4 (or 6^5) equally likely rolls.

The greedy bot attacks when its chance is good; the tests compare the
rules' resolution with these numbers over every possible roll.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product


@lru_cache(maxsize=4096)
def success_chance(bonus: int, defence: int, defence_die: bool, fix_die: bool = False) -> float:
    """P(success): attack = bonus + 4 dice (lowest turned to 6 with
    `fix_die`) >= defence (+ 1 die with `defence_die`), or four of a kind."""
    wins = 0
    total = 0
    for dice in product(range(1, 7), repeat=4):
        att = list(dice)
        if fix_die:
            att[att.index(min(att))] = 6
        four = len(set(att)) == 1
        s = bonus + sum(att)
        for d in (range(1, 7) if defence_die else (0,)):
            total += 1
            if four or s >= defence + d:
                wins += 1
    return wins / total
