"""Codex 1-hero rules from fixed positions (scenario lines), one rule a test."""

from __future__ import annotations

import pytest

from codex_helpers import CH, GAME, base, do, gone, start, stats, thing
from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption
from pbem.games.codex import engine
from pbem.games.codex.state import MAIN, TECH

HAND = "p1.hand = Tenderfoot, Older Brother, Spark, Bloom, Wither"
DECK = "p1.deck = Timely Messenger, Brick Thief, Helpful Turtle, Granfalloon Flagbearer, Fruit Ninja"


def test_sample_turns_of_the_rulebook():
    st = start(HAND, DECK, "p2.hand = Timely Messenger, Tenderfoot, Older Brother, Spark, Bloom")
    # player 1, first turn: 4 gold, a unit, a worker, the unit as squad leader
    assert st.players["alice"].gold == 4 and engine.worker_count(st, "alice") == 4
    st = do(st, "play older-brother")
    st = do(st, "hire spark")
    assert st.players["alice"].gold == 1 and engine.worker_count(st, "alice") == 5
    st = do(st, "end sl=older-brother")
    assert len(st.zones["hand:alice"].items) == 5  # discarded 3, drew 5
    assert st.patrol["alice"][0] == thing(st, "alice", "Older Brother")
    # player 2, first turn: 5 workers, no tech yet
    assert st.active == "bob" and st.phase == MAIN and st.players["bob"].gold == 5
    st = do(st, "summon river-montoya")
    st = do(st, "play tenderfoot")
    st = do(st, "hire spark")
    st = do(st, "end sl=river-montoya elite=tenderfoot")
    # player 1, second turn: tech 2 first, then 5 gold from 5 workers
    assert st.phase == TECH and st.active == "alice"
    with pytest.raises(IllegalCommand):
        do(st, "tech iron-man")  # 2 are mandatory below 10 workers
    st = do(st, "tech iron-man iron-man")
    assert st.players["alice"].gold == 1 + 5
    st = do(st, "hire timely-messenger")
    st = do(st, "build tech1")
    assert st.players["alice"].gold == 4  # the rulebook's 3 left, plus 1 saved
    assert not engine.building_done(st, "alice", "tech1")
    st = do(st, "end")
    assert engine.building_done(st, "alice", "tech1")
    assert st.active == "bob" and st.phase == TECH
    st = do(st, "tech harmony harmony")
    assert st.players["bob"].gold == 1 + 6  # 6 workers after the hire


def test_gold_is_capped_at_20():
    st = start("p1.gold = 18", "p1.base_workers = 4")
    assert st.players["alice"].gold == 20


def test_one_hire_a_turn_and_it_costs_gold():
    st = start(HAND, "p1.gold = 0")
    st = do(st, "hire spark")
    with pytest.raises(IllegalCommand, match="already hired"):
        do(st, "hire bloom")
    st2 = start(HAND, "p1.base_workers = 0")
    with pytest.raises(IllegalCommand, match="1 gold"):
        do(st2, "hire spark")


def test_tech_is_optional_from_ten_workers():
    st = start("turn = 3", "tech = yes", "p1.base_workers = 10")
    st = do(st, "tech none")
    assert st.phase == MAIN and len(st.zones["codex:alice"].items) == 24
    st = start("turn = 3", "tech = yes", "p1.base_workers = 9")
    with pytest.raises(IllegalCommand):
        do(st, "tech none")


def test_tech_buildings_need_workers_and_the_level_below():
    st = start("p1.base_workers = 5", "p1.gold = 10")
    with pytest.raises(IllegalCommand, match="6 workers"):
        do(st, "build tech1")
    st = start("p1.base_workers = 8", "p1.gold = 10")
    with pytest.raises(IllegalCommand, match="finished Tech I"):
        do(st, "build tech2")
    st = do(st, "build tech1")
    with pytest.raises(IllegalCommand, match="finished Tech I"):
        do(st, "build tech2")  # still under construction this turn


def test_units_need_their_finished_tech_building():
    st = start("p1.hand = Iron Man", "p1.gold = 10", "p1.base_workers = 6")
    with pytest.raises(IllegalCommand, match="Tech I"):
        do(st, "play iron-man")
    st = start("p1.hand = Iron Man", "p1.gold = 10", "p1.buildings = tech1")
    st = do(st, "play iron-man")
    assert st.players["alice"].gold == 10 + 4 - 3


def test_a_destroyed_tech_building_damages_the_base_and_rebuilds_free():
    st = start("turn = 2", "p2.units = Older Brother", "p1.buildings = tech1", "p1.base_workers = 6",
               "p1.gold = 5")
    st = do(st, "attack older-brother opp:tech1")
    assert st.players["alice"].buildings["tech1"].damage == 2
    st = start("turn = 2", "p2.units = Older Brother", "p1.buildings = tech1", "p1.base_workers = 6",
               "p2.hand = Spark", "p2.hero = 1")
    st.players["alice"].buildings["tech1"].damage = 4
    st = do(st, "attack older-brother opp:tech1")
    assert "tech1" not in st.players["alice"].buildings and base(st, "alice") == 18
    st = do(st, "end")
    st = do(st, "tech iron-man iron-man")
    gold = st.players["alice"].gold
    st = do(st, "build tech1")
    assert st.players["alice"].gold == gold  # rebuilt for free


def test_addons_one_at_a_time_and_surplus_draws():
    st = start("p1.gold = 10", DECK)
    st = do(st, "build surplus")
    st = do(st, "build tower")
    assert base(st, "alice") == 18 and "surplus" not in st.players["alice"].buildings
    st = start("p1.buildings = surplus", "turn = 3", "tech = yes")
    n = len(st.zones["hand:alice"].items)
    st = do(st, "tech iron-man iron-man")
    assert len(st.zones["hand:alice"].items) == n + 1


def test_spells_need_a_hero_and_ultimates_a_max_level_one():
    st = start("p1.hand = Spark", "p2.units = Older Brother", "p2.patrol = sl=older-brother")
    with pytest.raises(IllegalCommand, match="hero"):
        do(st, "play spark target=opp:sl")
    st = start("p1.hand = Final Smash", "p1.hero = 8", "p1.gold = 10", "turn = 3")
    st.things[thing(st, "alice", "Troq Bashar")].max_since = 3  # reached max this turn
    with pytest.raises(IllegalCommand, match="max level"):
        do(st, "play final-smash target=none,none,none")
    st.things[thing(st, "alice", "Troq Bashar")].max_since = 2
    st = do(st, "play final-smash target=none,none,none")
    assert st.players["alice"].gold == 10 + 4 - 6


def test_hero_summon_level_and_heal_at_a_new_band():
    st = start("p1.gold = 10")
    st = do(st, "summon troq-bashar")
    hero = thing(st, "alice", "Troq Bashar")
    assert st.players["alice"].gold == 14 - 2 and st.things[hero].level == 1
    st.things[hero].damage = 2
    st = do(st, "level 3")
    assert st.things[hero].level == 4 and st.things[hero].damage == 2
    st = do(st, "level 1")
    assert st.things[hero].damage == 0 and stats(st, "alice", "Troq Bashar")[:2] == (3, 4)
    with pytest.raises(IllegalCommand):
        do(st, "level 4")  # past max level 8


def test_hero_death_returns_home_waits_and_levels_the_other_hero():
    st = start("turn = 2", "p1.hero = 1", "p1.patrol = sl=troq-bashar", "p2.hero = 1",
               "p2.units = Older Brother, Fruit Ninja, Maestro")
    st.things[thing(st, "alice", "Troq Bashar")].damage = 1
    st = do(st, "attack older-brother opp:troq-bashar")  # armor absorbs 1
    assert not gone(st, "alice", "Troq Bashar")
    st = do(st, "attack fruit-ninja opp:troq-bashar")
    assert gone(st, "alice", "Troq Bashar")
    assert st.players["alice"].hero_home
    assert st.things[thing(st, "bob", "River Montoya")].level == 3
    st = do(st, "end")
    st = do(st, "tech iron-man iron-man")
    st.players["alice"].gold = 5
    with pytest.raises(IllegalCommand, match="come back"):
        do(st, "summon troq-bashar")  # not until after this next turn


def test_squad_leader_first_then_patrollers_then_anything():
    st = start("turn = 2", "p1.units = Older Brother, Tenderfoot, Helpful Turtle",
               "p1.patrol = sl=older-brother elite=tenderfoot", "p2.units = Fruit Ninja, Maestro")
    with pytest.raises(IllegalCommand, match="squad leader"):
        do(st, "attack fruit-ninja opp:tenderfoot")
    with pytest.raises(IllegalCommand):
        do(st, "attack fruit-ninja opp:base")
    st = do(st, "attack fruit-ninja opp:older-brother")  # 3 ATK on its turn, 1 armor
    assert gone(st, "alice", "Older Brother")
    with pytest.raises(IllegalCommand):
        do(st, "attack maestro opp:helpful-turtle")
    st = do(st, "attack maestro opp:tenderfoot")
    assert gone(st, "alice", "Tenderfoot")


def test_squad_leader_armor_absorbs_once_a_turn_and_damage_persists():
    st = start("turn = 2", "p1.units = Iron Man", "p1.patrol = sl=iron-man", "p2.hand = Spark, Wither",
               "p2.hero = 1", "p2.gold = 5")
    st = do(st, "play spark target=opp:sl")
    assert stats(st, "alice", "Iron Man")[2] == 0
    st.zones["hand:bob"].items.append(type(st.zones["hand:bob"].items[0])("x999", "Spark"))
    st = do(st, "play spark target=opp:sl")
    assert stats(st, "alice", "Iron Man")[2] == 1
    st = do(st, "end")
    st = do(st, "tech the-boot the-boot")
    assert stats(st, "alice", "Iron Man")[2] == 1


def test_arrival_fatigue_exhaustion_and_patrol():
    st = start("p1.hand = Older Brother, Timely Messenger", "p1.units = Tenderfoot")
    st = do(st, "play older-brother")
    with pytest.raises(IllegalCommand, match="arrival fatigue"):
        do(st, "attack older-brother opp:base")
    st = do(st, "play timely-messenger")
    st = do(st, "attack timely-messenger opp:base")  # haste
    assert base(st, "bob") == 19
    with pytest.raises(IllegalCommand, match="exhausted"):
        do(st, "attack timely-messenger opp:base")
    with pytest.raises(IllegalCommand, match="exhausted"):
        do(st, "end sl=timely-messenger")


def test_combat_damage_is_simultaneous():
    st = start("turn = 2", "p1.units = Older Brother", "p1.patrol = sl=older-brother",
               "p2.units = Maestro")
    st = do(st, "attack maestro opp:older-brother")
    assert gone(st, "alice", "Older Brother") and stats(st, "bob", "Maestro")[2] == 2


def test_draw_phase_hand_plus_two_and_one_reshuffle_a_main_phase():
    st = start("p1.hand = Spark", "p1.deck = Tenderfoot", "p1.discard = Bloom, Wither, Older Brother")
    st = do(st, "end")
    # discarded 1, drew 3: Tenderfoot, then the reshuffled discard (Spark included)
    assert len(st.zones["hand:alice"].items) == 3
    p = st.players["alice"]
    p.reshuffled = True
    st.zones["deck:alice"].items = []
    st.phase = MAIN
    assert engine.draw(st, "alice", 1, CH) == 0  # a second reshuffle this main phase


def test_patrol_slot_bonuses():
    st = start("turn = 2", "p1.units = Older Brother, Tenderfoot, Timely Messenger, Helpful Turtle",
               "p1.patrol = elite=older-brother scavenger=tenderfoot technician=timely-messenger lookout=helpful-turtle",
               "p1.gold = 3", "p2.units = Maestro, Backstabber", "p2.hand = Spark", "p2.hero = 1",
               "p2.gold = 3")
    assert stats(st, "alice", "Older Brother")[0] == 3  # elite +1 ATK
    st = do(st, "attack maestro opp:tenderfoot")
    assert st.players["alice"].gold == 4  # scavenger
    hand = len(st.zones["hand:alice"].items)
    st = do(st, "attack backstabber opp:timely-messenger")
    assert len(st.zones["hand:alice"].items) == hand + 1  # technician
    gold = st.players["bob"].gold
    st = do(st, "play spark target=opp:helpful-turtle")  # lookout: resist 1
    assert st.players["bob"].gold == gold - 2


def test_base_destroyed_ends_the_game():
    st = start("turn = 2", "p1.base = 2", "p2.units = Maestro")
    st = do(st, "attack maestro opp:base")
    assert GAME.outcome(st).winners == ["bob"] and GAME.to_act(st) == []
    assert GAME.legal(st, "bob") == []


def test_bad_input_is_refused_and_changes_nothing():
    st = start(HAND, "p1.gold = 1", "p1.base_workers = 0")
    from pbem.games.conformance import encode

    before = encode(st)
    with pytest.raises(IllegalCommand):
        do(st, "play older-brother")  # 2 gold
    with pytest.raises(InvalidCommand):
        do(st, "play iron-man")  # not in hand
    with pytest.raises(InvalidCommand):
        GAME.presentation.parse("dance", st, "alice")
    with pytest.raises(IllegalCommand):
        GAME.apply(st, "bob", GAME.presentation.parse("end", st, "bob"), CH)
    assert encode(st) == before and st.players["alice"].gold == 1
    with pytest.raises(InvalidOption):
        GAME.options({"first": "red"})
    with pytest.raises(InvalidOption):
        GAME.options({"scenario": "p3.gold = 1"})


def test_notation_round_trips_for_every_legal_command():
    st = start("turn = 2", "p2.hand = Spark, Brick Thief, Wither, Bloom, Timely Messenger", "p2.hero = 3",
               "p2.gold = 9", "p1.units = Older Brother, Iron Man", "p1.patrol = sl=older-brother",
               "p2.units = Fruit Ninja, Tenderfoot")
    legal = GAME.legal(st, "bob")
    assert len(legal) > 30
    for cmd in legal:
        assert GAME.presentation.parse(GAME.presentation.format(cmd, st, "bob"), st, "bob") == cmd
        assert GAME.presentation.explain(cmd, st, "bob")
    assert "opp:older-brother" in {GAME.presentation.format(c, st, "bob").split()[-1] for c in legal}
