"""Dark Agent through the conformance harness and many bot playouts.

The harness (knowledge, legal determinism, notation and JSON round trips,
views that never leak, replay) runs over short games for 1, 2, 3, 4 and 6
seats; plain playouts then play whole games for every seat count and
option, checking the invariants after every step: every card is somewhere
exactly once, at most one card or spy per cell, at most 3 satellites per
line, each seat's satellites and spies all present, hands within their
limit, and the outcome's scores. ``PBEM_LONG=1`` plays many more.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import msgspec
import pytest

from pbem.games.base import RandomChance, SeatSpec
from pbem.games.conformance import check_game
from pbem.games.dark_agent import GAME, catalogue, readers
from pbem.games.dark_agent.state import CELLS, NEUTRAL, SLOTS, cell_zone, hand

LONG = os.environ.get("PBEM_LONG") == "1"
SEATS = {n: [SeatSpec(name) for name in ("ann", "bob", "cat", "dan", "eve", "fay")[:n]] for n in (1, 2, 3, 4, 5, 6)}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("seed", range(6 if LONG else 1))
def test_harness_random_short_games(n, seed):
    options = GAME.options({"rounds": "2" if n > 2 else "3"})
    check_game(GAME, options, SEATS[n], seed * 10 + n, bot="random", max_steps=5000)


@pytest.mark.parametrize("seed", range(4 if LONG else 1))
def test_harness_greedy_game_to_its_natural_end(seed):
    outcome = check_game(GAME, GAME.options({"aims": "2"}), SEATS[2], 100 + seed, bot="greedy", max_steps=5000)
    assert outcome.scores and outcome.winners


def _user_catalogue() -> list[str]:
    raw = msgspec.to_builtins(catalogue.reference())
    raw["name"] = "a user's copy"
    raw["sentries"] = [{"id": "guard", "name": "Guard", "level": 2, "defence": 15, "count": 10}]
    return msgspec.json.encode(raw).decode().splitlines()


OPTION_SETS = [
    {},
    {"aims": "2", "kara": "true"},
    {"aims": "5", "nuclear": "0", "rounds": "8"},
    {"satellites": "2", "neutral": "0", "powers": "random", "rounds": "12"},
    {"neutral": "3", "nuclear": "2"},
    {"catalogue": _user_catalogue()},
]


def check_invariants(st, start_cards: Counter, sat_counts: dict[str, int], views: bool = True) -> None:
    cards = Counter(it.card for z in st.zones.values() for it in z.items)
    assert cards == start_cards, "a card appeared or vanished"
    refs = [it.ref for z in st.zones.values() for it in z.items]
    assert len(refs) == len(set(refs)), "a ref is in two places"
    for c in range(CELLS):
        assert len(st.zones[cell_zone(c)].items) <= 1
    cells = [c for c in st.spy_cell.values() if c >= 0]
    assert len(cells) == len(set(cells)), "two spies in one cell"
    assert all(not st.zones[cell_zone(c)].items for c in cells), "a spy on a card"
    assert all(len(line) <= SLOTS for line in st.sats)
    assert Counter(o for line in st.sats for o in line) == Counter(sat_counts) or st.phase in ("deal", "place")
    for s in st.seats:
        assert len(st.zones[hand(s)].items) <= readers.hand_limit(st, s)
    for viewer in st.seats if views else []:
        for sv in GAME.view(st, viewer).seats:
            assert (sv.hand is None) == (sv.name != viewer), "a view shows another seat's hand"


def playout(n: int, raw: dict, seed: int, bot: str, max_steps: int = 6000):
    rng = random.Random(seed)
    options = GAME.options(raw)
    st = GAME.advance(GAME.setup(options, SEATS[n], RandomChance(seed)), RandomChance(seed))
    start = Counter(it.card for z in st.zones.values() for it in z.items)
    sats = Counter({s.name: options.satellites for s in SEATS[n]})
    if options.neutral:
        sats[NEUTRAL] = options.neutral
    for step in range(max_steps):
        check_invariants(st, start, dict(sats), views=step % 8 == 0)
        if GAME.outcome(st) is not None:
            return st
        seat = GAME.to_act(st)[0]
        command = GAME.presentation.bots[bot](GAME, st, seat, rng)
        st = GAME.advance(GAME.apply(st, seat, command, RandomChance(rng.random())), RandomChance(rng.random()))
    raise AssertionError(f"no end after {max_steps} steps")


def check_outcome(st) -> None:
    out = GAME.outcome(st)
    assert out.scores == {s: readers.score(st, s) for s in st.seats}
    if st.solo:
        return
    best = max(out.scores.values())
    assert out.winners == [s for s in st.seats if out.scores[s] == best]
    if not st.max_rounds or st.round < st.max_rounds:
        assert readers.aims_taken(st) >= st.target
        if st.kara_needed:
            assert readers.kara_taker(st) is not None


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(8 if LONG else 1))
def test_greedy_games_play_to_the_end(n, seed):
    st = playout(n, {}, seed, "greedy")
    check_outcome(st)


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
@pytest.mark.parametrize("n", [1, 3, 6] if LONG else [1, 3])
def test_every_option_plays_to_the_end(k, n):
    raw = dict(OPTION_SETS[k])
    if n == 1:
        raw.pop("kara", None)
    if n == 6 and raw.get("satellites") is None and raw.get("neutral") == "3":
        raw["neutral"] = "2"
    st = playout(n, raw, 7 * k + n, "greedy")
    check_outcome(st)


@pytest.mark.parametrize("n", [1, 2, 4, 6])
@pytest.mark.parametrize("seed", range(6 if LONG else 1))
def test_random_games_with_a_round_limit(n, seed):
    st = playout(n, {"rounds": "6"}, seed, "random")
    check_outcome(st)


def test_solo_game_to_the_end_can_be_won():
    """Over a few seeds the greedy bot plays solo to the end: 10 + target
    rounds at most, and the outcome says why it won or lost."""
    for seed in range(3):
        st = playout(1, {"aims": "2"}, seed, "greedy")
        assert st.round <= 10 + 2
        assert GAME.outcome(st).reason.startswith("solo: ")
