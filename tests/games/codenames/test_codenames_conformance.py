"""Codenames through the game-agnostic conformance harness, and the bots.

Two seeds per case and bot by default, eight under ``PBEM_LONG=1``."""

from __future__ import annotations

import os
import random

import pytest

from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codenames import GAME
from pbem.games.codenames.bots import best_clue
from pbem.games.codenames.legal import category_clues
from pbem.games.conformance import check_game

SEEDS = range(8 if os.environ.get("PBEM_LONG") == "1" else 2)
CASES = {
    "standard": ({}, ["ann", "bob", "cat", "dan"]),
    "standard-review": (
        {"clue_review": "opponent"},
        [SeatSpec("a", "red-spymaster"), SeatSpec("b", "red"), SeatSpec("c", "red"),
         SeatSpec("d", "blue-spymaster"), SeatSpec("e", "blue"), SeatSpec("f", "blue")],
    ),
    "standard-sv-hyphen": ({"language": "sv", "hyphen": "true"}, ["ann", "bob", "cat", "dan"]),
    "coop-2": ({"variant": "coop"}, ["sam", "oli"]),
    "coop-3": ({"variant": "coop", "language": "sv"}, ["sam", "oli", "ida"]),
    "three": ({"variant": "three"}, ["rex", "bo", "op"]),
    "three-review": ({"variant": "three", "clue_review": "opponent"}, ["rex", "bo", "op"]),
}


@pytest.mark.parametrize("bot", ["random", "spymaster"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_conformance(case, bot):
    raw, seats = CASES[case]
    options = GAME.options(raw)
    for seed in SEEDS:
        outcome = check_game(GAME, options, seats, seed, bot=bot)
        assert outcome.reason


def test_conformance_with_a_users_word_list():
    words = [f"{w}z" for w in "abcdefghijklmnopqrstuvwxy"] + ["ice-cream", "sea-horse"]
    options = GAME.options({"words": words})
    for seed in range(2):
        check_game(GAME, options, ["a", "b", "c", "d"], seed, bot="spymaster")


def test_spymaster_bot_clues_a_run_of_own_agents():
    grid = (
        "horse tiger lemon piano truck apple bridge castle dragon eagle forest glass hammer "
        "island jacket kettle ladder mirror needle orange pencil queen rocket spider tower"
    ).split()
    options = GAME.options({"grid": grid, "key": "rrrrrrrrr bbbbbbbb nnnnnnn x"})
    st = GAME.setup(options, GAME.seats(options, [SeatSpec(n) for n in "abcd"]), RandomChance(0))
    clue = best_clue(st, random.Random(0))
    assert clue in category_clues(st)
    # horse and tiger (both red) are the animals on the grid: "animal 2" or
    # another category whose leading words are all red, with as many
    assert clue.number >= 2
    assert GAME.presentation.bots["spymaster"](GAME, st, "a", random.Random(0)) == clue

