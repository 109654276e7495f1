"""Codex Two-Headed Dragon (2 against 2), rule by rule from the rulebook's
"Two-Headed Dragon (2v2)": the teams and their turns, workers, the shared
30-HP base, both patrol zones guarding both players, "you means you" and
"friendly", one add-on of a kind a team; and seeded bot games to the end
(PBEM_LONG=1: more)."""

from __future__ import annotations

import os
import random

import pytest

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codex import GAME, engine
from pbem.games.codex.state import OVER
from tests.codex_helpers import CH, do, legal_texts
from tests.codex_helpers import next_turn as end_turn

LONG = os.environ.get("PBEM_LONG") == "1"
SEATS = [SeatSpec("alice", "red"), SeatSpec("bob", "blue"), SeatSpec("carol", "red"), SeatSpec("dave", "blue")]


def dragon(*lines: str, **options: str):
    """A fixed 2v2 position: alice and carol (red) against bob and dave
    (blue), neutral starters; the turn order is alice, carol, bob, dave."""
    raw = {"mode": "2v2", "scenario": "\n".join(lines), **{f"p{i}_starter": "neutral" for i in range(1, 5)}}
    raw.update(options)
    state = GAME.setup(GAME.options(raw), SEATS, CH)
    return GAME.advance(state, CH)


def test_teams_take_their_turns_together_with_4_and_5_workers():
    """The first team's players start with 4 workers, the second's with 5;
    a team's two players play its turn (one after the other here)."""
    chance = RandomChance(1)
    state = GAME.advance(GAME.setup(GAME.options({"mode": "2v2"}), SEATS, chance), chance)
    assert state.teams == {"alice": "red", "bob": "blue", "carol": "red", "dave": "blue"}
    assert [state.players[s].base_workers for s in ("alice", "carol", "bob", "dave")] == [4, 4, 5, 5]
    order = []
    for _ in range(6):
        order.append(state.active)
        state = end_turn(state)
    assert order == ["alice", "carol", "bob", "dave", "alice", "carol"]


def test_seats_make_two_teams_of_two():
    plain = GAME.seats(GAME.options({"mode": "2v2"}), [SeatSpec(s) for s in ("a", "b", "c", "d")])
    assert [s.role for s in plain] == ["red", "blue", "red", "blue"]
    with pytest.raises(InvalidOption, match="two teams of two"):
        GAME.seats(GAME.options({"mode": "2v2"}), [SeatSpec("a", "x"), SeatSpec("b", "x"), SeatSpec("c", "x"),
                                                   SeatSpec("d", "y")])
    with pytest.raises(InvalidOption, match="4 players"):
        GAME.seats(GAME.options({"mode": "2v2"}), [SeatSpec(s) for s in ("a", "b", "c")])


def test_the_shared_base_has_30_hp_and_falls_for_both():
    state = dragon("p1.units = Older Brother", "p2.base = 3", "p4.base = 3")
    assert [v.base_hp for v in GAME.view(state, "alice").sides] == [30, 3, 30, 3]
    state = do(state, "attack older-brother dave:base")  # the same base as bob's
    assert state.players["bob"].base_damage == state.players["dave"].base_damage == 29
    assert state.phase != OVER and [v.base_hp for v in GAME.view(state, "carol").sides] == [30, 1, 30, 1]
    texts = legal_texts(dragon("p1.units = Older Brother"), "alice")
    assert "attack older-brother bob:base" in texts and "attack older-brother dave:base" not in texts


def test_a_destroyed_team_base_loses_for_both_players():
    state = dragon("p1.units = Older Brother", "p2.base = 2", "p4.base = 2")
    state = do(state, "attack older-brother bob:base")
    assert state.phase == OVER and state.outcome.winners == ["alice", "carol"]


def test_both_patrol_zones_guard_both_players():
    """dave's squad leader guards bob, whose own patrol zone is empty."""
    state = dragon("p1.units = Older Brother", "p2.units = Tenderfoot", "p4.units = Brick Thief",
                   "p4.patrol = sl=brick-thief")
    texts = [t for t in legal_texts(state, "alice") if t.startswith("attack")]
    assert texts == ["attack older-brother dave:brick-thief"]
    with pytest.raises(IllegalCommand, match="squad leader"):
        GAME.apply(state, "alice", GAME.presentation.parse("attack older-brother bob:base", state, "alice"), CH)


def test_two_squad_leaders_the_attacker_picks_either():
    state = dragon("p1.units = Older Brother", "p2.units = Tenderfoot, Older Brother",
                   "p2.patrol = sl=tenderfoot elite=older-brother", "p4.units = Brick Thief",
                   "p4.patrol = sl=brick-thief")
    texts = sorted(t for t in legal_texts(state, "alice") if t.startswith("attack"))
    assert texts == ["attack older-brother bob:tenderfoot", "attack older-brother dave:brick-thief"]


def test_you_means_you_and_friendly_means_the_team():
    """Grounded Guide's bonus to "your other units" skips the teammate's;
    a friendly target may be the teammate's unit, never an opponent's."""
    state = dragon("p1.units = Grounded Guide, Older Brother", "p3.units = Older Brother",
                   "p1.hand = Forest's Favor", "p1.gold = 5", "p1.hero = 1",
                   p1="growth", p1_starter="neutral")
    mine = engine.controls(state, "alice", "Older Brother")[0]
    mate = engine.controls(state, "carol", "Older Brother")[0]
    assert engine.atk(state, mine) == 3 and engine.atk(state, mate) == 2
    plays = [t for t in legal_texts(state, "alice") if t.startswith("play forest")]
    assert "play forest-s-favor target=carol:older-brother" in plays
    assert not any("bob:" in t or "dave:" in t for t in plays)


def test_an_effect_on_a_base_s_player_may_name_the_team_s_second_player():
    """Pillage takes gold from a base's player, Marauder and Tyrannosaurus
    Rex trash a worker of one: the team's one base is its first player's
    (``bob:base``), and ``dave:player`` names its second player by it. What
    `legal` lists reads back as the same command (it listed ``dave:base``,
    which read back as bob's), and the effect is on dave, the shared base
    taking the damage once."""
    st = dragon("turn = 1", "p1.hero = 1", "p1.gold = 20", "p1.buildings = tech1, tech2",
                "p1.hand = Pillage, Marauder", "p2.gold = 5", "p4.gold = 5", p1="anarchy")
    texts = legal_texts(st, "alice")
    assert "play pillage target=dave:player" in texts and "play pillage target=carol:player" in texts
    assert "play pillage target=dave:base" not in texts and "play pillage target=bob:base" in texts
    for cmd in GAME.legal(st, "alice"):  # every listed command is read back as itself
        assert GAME.presentation.parse(GAME.presentation.format(cmd, st, "alice"), st, "alice") == cmd
    hit = do(st, "play pillage target=dave:player")
    assert [hit.players[s].gold for s in ("bob", "dave")] == [5, 4]
    assert [hit.players[s].base_damage for s in ("bob", "dave")] == [1, 1]
    assert do(st, "play pillage target=bob:base").players["bob"].gold == 4
    trashed = do(st, "play marauder boost target=dave:player")
    assert [engine.worker_count(trashed, s) for s in ("bob", "dave")] == [5, 4]
    assert engine.worker_count(do(st, "play marauder boost target=me:player"), "alice") == 3  # one's own (ruling)
    rex = dragon("turn = 1", "p1.gold = 20", "p1.buildings = tech1, tech2, tech3", "p1.hand = Tyrannosaurus Rex",
                 p1="balance")
    rex = do(rex, "play tyrannosaurus-rex target=dave:player,bob:base")
    assert [engine.worker_count(rex, s) for s in ("bob", "dave")] == [4, 4]
    with pytest.raises(IllegalCommand):  # not in Detonate's candidates: its card names the base (rules 5)
        do(dragon("turn = 1", "p1.hero = 1", "p1.gold = 9", "p1.hand = Detonate", p1="anarchy"),
           "play detonate target=dave:player")


def test_a_team_has_no_two_of_the_same_add_on():
    state = dragon("p1.buildings = tower", "p3.gold = 10", "turn = 2")
    assert state.active == "carol"
    with pytest.raises(IllegalCommand, match="no two of the same add-on"):
        GAME.apply(state, "carol", GAME.presentation.parse("build tower", state, "carol"), CH)
    assert "build surplus" in legal_texts(state, "carol")


def test_no_lending_nor_repairs_outside_the_free_for_all():
    state = dragon("p1.units = Older Brother", "p1.base = 20", "p1.gold = 9")
    texts = legal_texts(state, "alice")
    assert not any(t.startswith("repair") or "lend=" in t for t in texts)


# --- bot games --------------------------------------------------------------------------------


def bot_game(seed: int, bot: str):
    rng = random.Random(seed)
    chance = RandomChance(seed)
    state = GAME.advance(GAME.setup(GAME.options({"mode": "2v2"}), SEATS, chance), chance)
    for _ in range(8000):
        if GAME.outcome(state) is not None:
            return state
        seat = GAME.to_act(state)[0]
        for other in state.seats if rng.random() < 0.1 else ():  # nobody's view, a teammate's either, holds another's hand
            side = next(x for x in GAME.view(state, seat).sides if x.seat == other)
            assert (side.my_hand is None) == (other != seat)
        state = GAME.advance(GAME.apply(state, seat, GAME.presentation.bots[bot](GAME, state, seat, rng), chance), chance)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed,bot", [(1, "greedy"), (2, "random")] +
                         ([(s, b) for s in range(3, 12) for b in ("greedy", "random")] if LONG else []))
def test_bot_games_end_with_a_whole_team_winning(seed, bot):
    state = bot_game(seed, bot)
    winners = state.outcome.winners
    assert len(winners) == 2 and state.teams[winners[0]] == state.teams[winners[1]]
    assert state.players[winners[0]].base_damage == state.players[winners[1]].base_damage < 30
