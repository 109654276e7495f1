"""Seeded bot playouts of Codex to a destroyed base, checking the game's
invariants after every command (PBEM_LONG=1 plays many more)."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codex import GAME, cards, engine
from pbem.games.codex.state import OVER

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
LONG = os.environ.get("PBEM_LONG") == "1"


def owned(state, seat):
    """Every card `seat` owns, wherever it is (tokens are not cards)."""
    out = Counter()
    for name, zone in state.zones.items():
        kind, _, who = name.partition(":")
        for it in zone.items:
            if kind in ("play", "ongoing"):
                t = state.things[it.ref]
                if t.owner == seat and cards.kind(t.card) not in ("token", "hero"):
                    out[it.card] += 1
            elif who == seat:
                out[it.card] += 1
    return out


def check(state):
    for seat in state.seats:
        p = state.players[seat]
        want = Counter(cards.starter(p.colour)) + Counter(cards.codex_cards(p.spec))
        assert owned(state, seat) == want, seat
        assert 0 <= p.gold <= cards.GOLD_CAP
        assert p.base_damage >= 0
        assert engine.worker_count(state, seat) == p.base_workers + len(state.zones[f"workers:{seat}"].items)
        for ref in engine.things_of(state, seat):
            t = state.things[ref]
            assert t.controller == seat and t.damage < engine.hp(state, ref)
            assert engine.atk(state, ref) >= 0
        for ref in state.patrol[seat]:
            assert not ref or state.things[ref].controller == seat
        if seat != state.active and state.phase != OVER:
            assert len(state.zones[f"hand:{seat}"].items) <= cards.HAND_MAX
    assert set(state.things) == {it.ref for s in state.seats for z in ("play", "ongoing")
                                 for it in state.zones[f"{z}:{s}"].items}
    over = any(state.players[s].base_damage >= 20 for s in state.seats)
    assert over == (state.phase == OVER) == (GAME.outcome(state) is not None)


def hidden_never_shown(state):
    for seat in state.seats:
        opp = next(s for s in state.seats if s != seat)
        v = GAME.view(state, opp)
        side = next(x for x in v.sides if x.seat == seat)
        assert side.my_hand is None and side.my_codex is None and side.my_workers is None
        assert side.hand == len(state.zones[f"hand:{seat}"].items)


def play(seed, bot):
    rng = random.Random(seed)
    chance = RandomChance(seed)
    first = ["bashing", "finesse"][seed % 2]
    state = GAME.setup(GAME.options({"first": first}), SEATS, chance)
    state = GAME.advance(state, chance)
    for _ in range(5000):
        check(state)
        if GAME.outcome(state) is not None:
            return state
        seat = GAME.to_act(state)[0]
        cmd = GAME.presentation.bots[bot](GAME, state, seat, rng)
        state = GAME.advance(GAME.apply(state, seat, cmd, chance), chance)
        if rng.random() < 0.1:
            hidden_never_shown(state)
    raise AssertionError(f"seed {seed}: no end")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_playouts_end_with_a_destroyed_base(bot):
    reasons = Counter()
    for seed in range(150 if LONG else 6):
        state = play(seed, bot)
        reasons[len(state.outcome.winners)] += 1
    assert reasons[1] >= 1
