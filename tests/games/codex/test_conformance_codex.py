"""Codex passes the game conformance harness over seeded bot games, and
every playout keeps the game's invariants (PBEM_LONG=1: many more seeds)."""

from __future__ import annotations

import os

import pytest

from pbem.games.base import SeatSpec
from pbem.games.codex import GAME
from pbem.games.conformance import check_game

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
LONG = os.environ.get("PBEM_LONG") == "1"


@pytest.mark.parametrize("seed", range(40 if LONG else 2))
def test_random_playouts(seed):
    options = GAME.options({"first": ["bashing", "finesse"][seed % 2]})
    outcome = check_game(GAME, options, SEATS, seed, bot="random", max_steps=4000)
    assert outcome.reason.startswith("base destroyed")


@pytest.mark.parametrize("seed", range(20 if LONG else 2))
def test_greedy_playouts(seed):
    options = GAME.options({"first": ["bashing", "finesse"][seed % 2]})
    outcome = check_game(GAME, options, SEATS, seed, bot="greedy", max_steps=4000)
    assert len(outcome.winners) == 1
