"""The Blood spec (red) card by card, its hero Drakk Ramhorn band by band,
and every ruling of rulings.json about them, from fixed positions. Alice
(p1) plays Blood with the red starter deck, Bob (p2) Finesse."""

from __future__ import annotations

import pytest

from codex_helpers import CH, GAME, base, do, gone, hand_names, legal_texts, next_turn, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import engine, resolve


def blood(*lines: str, p2: str = "finesse"):
    return start(*lines, p1="blood", p2=p2)


def names(st, zone):
    return sorted(it.card for it in st.zones[zone].items)


# --- spells ----------------------------------------------------------------------------------


def test_desperation_with_an_empty_hand_leaves_the_game_and_draws_three():
    st = blood("p1.hero = 1", "p1.hand = Desperation", "p1.deck = Scorch, Charge, Pillage, Mad Man")
    st = do(st, "play desperation")
    assert names(st, "trash:alice") == ["Desperation"] and hand_names(st, "alice") == ["Charge", "Pillage", "Scorch"]
    # the hand goes to the discard pile as the main phase ends, before the draw (ruling): then 2 drawn
    st = do(st, "end")
    assert {"Charge", "Pillage", "Scorch"} <= set(names(st, "discard:alice"))
    assert len(st.zones["hand:alice"].items) == 2


def test_desperation_draws_only_if_it_was_the_last_card_in_hand():
    st = blood("p1.hero = 1", "p1.hand = Desperation, Mad Man", "p1.deck = Scorch, Charge, Pillage")
    st = do(st, "play desperation")
    assert names(st, "discard:alice") == ["Desperation"] and hand_names(st, "alice") == ["Mad Man"]
    st = do(st, "play mad-man")  # the flag holds whatever happens after
    st = do(st, "end")
    assert "Desperation" in names(st, "discard:alice") and not names(st, "trash:alice")


def test_kidnapping_takes_a_tech_0_to_2_unit_for_the_turn_ready_with_haste():
    st = blood("turn = 3", "p1.hero = 1", "p1.hand = Kidnapping", "p1.gold = 10",
               "p2.units = Older Brother exhausted, Blademaster")
    with pytest.raises(IllegalCommand, match="not an opposing tech 0-II unit"):
        do(st, "play kidnapping target=opp:blademaster")  # tech III
    st = do(st, "play kidnapping target=opp:older-brother")
    brother = thing(st, "alice", "Older Brother")
    assert not st.things[brother].exhausted and engine.has(st, brother, "haste")
    st = do(st, "attack older-brother opp:base")
    assert base(st, "bob") == 18
    st = do(st, "end")
    assert thing(st, "bob", "Older Brother") == brother, "back to its controller at the end of the turn (ruling)"


def test_kidnapping_a_unit_that_dies_sends_it_to_its_owners_discard_pile():
    st = blood("turn = 3", "p1.hero = 1", "p1.hand = Kidnapping", "p1.gold = 10", "p2.units = Older Brother")
    st = do(st, "play kidnapping target=opp:older-brother")
    st = engine_kill(st, "alice", "Older Brother")
    assert "Older Brother" in names(st, "discard:bob") and "Older Brother" not in names(st, "discard:alice")


def engine_kill(st, seat, name):
    """`seat`'s first `name` dies (as by any effect), its triggers resolved."""
    engine.die(st, [thing(st, seat, name)], CH)
    resolve.run(st, CH)
    return GAME.advance(st, CH)


def test_bloodlust_gives_two_things_haste_and_1_atk_and_hits_each_for_1_as_the_turn_ends():
    st = blood("p1.hero = 1", "p1.hand = Bloodlust, Mad Man, Nautical Dog", "p1.gold = 10")
    st = do(st, "play mad-man")
    st = do(st, "play nautical-dog")
    st = do(st, "play bloodlust target=me:nautical-dog,me:drakk-ramhorn")
    dog = thing(st, "alice", "Nautical Dog")
    assert stats(st, "alice", "Nautical Dog")[0] == 1 + 1 + 1 and engine.has(st, dog, "haste")
    st = do(st, "attack drakk-ramhorn opp:base")
    assert base(st, "bob") == 18
    st = do(st, "end")
    assert gone(st, "alice", "Nautical Dog"), "1 damage as the turn ends kills the 1 HP dog"
    assert st.things[thing(st, "alice", "Drakk Ramhorn")].damage == 1
    assert stats(st, "alice", "Mad Man")[2] == 0


def test_war_drums_each_unit_gets_1_atk_per_unit_its_player_controls():
    st = blood("turn = 3", "p1.hero = 6", "p1.hand = War Drums", "p1.units = Mad Man, Nautical Dog, Older Brother",
               "p2.units = Tiger Cub")
    st = do(st, "play war-drums")
    # 1 printed, 3 units, frenzy from Drakk's level 4 band (a hero keeps its bands' abilities)
    assert stats(st, "alice", "Mad Man")[0] == 1 + 3 + 1 and stats(st, "alice", "Drakk Ramhorn")[0] == 3, "units only"
    assert stats(st, "bob", "Tiger Cub")[0] == 2
    st = engine_kill(st, "alice", "Older Brother")
    assert stats(st, "alice", "Mad Man")[0] == 1 + 2 + 1, "units you control now (ruling)"


def test_war_drums_is_an_ultimate_and_channels():
    st = blood("turn = 3", "p1.hero = 5", "p1.hand = War Drums")
    assert not [t for t in legal_texts(st) if t.startswith("play war-drums")]
    st = blood("turn = 3", "p1.hero = 6", "p1.hand = War Drums", "p1.units = Mad Man")
    st = do(st, "play war-drums")
    st = engine_kill(st, "alice", "Drakk Ramhorn")
    assert not engine.controls(st, "alice", "War Drums"), "channeling: gone with the Blood hero"


# --- units -----------------------------------------------------------------------------------


def test_crash_bomber_dying_in_your_turn_hits_a_patroller_or_building():
    st = blood("turn = 3", "p1.units = Crash Bomber", "p2.units = Tiger Cub dmg=1, Older Brother",
               "p2.patrol = elite=older-brother scavenger=tiger-cub")
    st = do(st, "attack crash-bomber opp:older-brother")
    assert gone(st, "alice", "Crash Bomber") and gone(st, "bob", "Older Brother")
    assert st.prompt is not None and "choose opp:tech1" not in legal_texts(st) and "choose opp:base" in legal_texts(st)
    st = do(st, "choose opp:tiger-cub")
    assert gone(st, "bob", "Tiger Cub")


def test_crash_bomber_dying_in_their_turn_hits_their_base():
    st = blood("turn = 2", "p1.units = Crash Bomber", "p1.patrol = elite=crash-bomber", "p2.units = Older Brother")
    st = do(st, "attack older-brother opp:elite")
    assert gone(st, "alice", "Crash Bomber") and base(st, "bob") == 19


def test_rickety_mine_gives_3_gold_and_on_tails_is_sacrificed_with_2_damage_to_your_base(monkeypatch):
    st = blood("turn = 3", "p1.units = Rickety Mine, Rickety Mine", "p1.gold = 0")
    coins = iter([0, 1])
    monkeypatch.setattr(type(CH.public), "below", lambda self, n: next(coins))
    st = do(st, "use rickety-mine")
    assert st.players["alice"].gold == 4 + 3 and len(engine.controls(st, "alice", "Rickety Mine")) == 2, "heads: phew"
    st = do(st, "use rickety-mine.2")
    assert len(engine.controls(st, "alice", "Rickety Mine")) == 1 and base(st, "alice") == 18
    assert st.players["alice"].gold == 4 + 6


def test_rickety_mine_has_no_haste():
    st = blood("p1.buildings = tech1", "p1.hand = Rickety Mine", "p1.gold = 10")
    st = do(st, "play rickety-mine")
    with pytest.raises(IllegalCommand, match="arrival fatigue"):
        do(st, "use rickety-mine")


def test_shoddy_glider_and_crashbarrow_attack_at_once_and_die_at_the_end_of_the_turn():
    st = blood("p1.buildings = tech1, tech2", "p1.hand = Shoddy Glider, Crashbarrow", "p1.gold = 10",
               "p2.units = Tiger Cub, Older Brother", "p2.patrol = sl=tiger-cub")
    st = do(st, "play shoddy-glider")
    glider = thing(st, "alice", "Shoddy Glider")
    assert engine.has(st, glider, "flying")
    st = do(st, "attack shoddy-glider opp:base")  # flies over the ground patroller
    assert base(st, "bob") == 17
    st = do(st, "play crashbarrow")
    st = do(st, "attack crashbarrow opp:tiger-cub over=opp:base")  # 6 against a 1 HP cub: 5 over
    assert gone(st, "bob", "Tiger Cub") and base(st, "bob") == 14, "6 - 2 HP - 1 armor of the squad leader"
    st = do(st, "end")
    assert gone(st, "alice", "Shoddy Glider") and gone(st, "alice", "Crashbarrow")


def test_captured_bugblatter_any_unit_dying_hurts_the_opposing_base_itself_too():
    st = blood("turn = 3", "p1.units = Captured Bugblatter, Mad Man", "p2.units = Tiger Cub")
    st = engine_kill(st, "bob", "Tiger Cub")
    assert base(st, "bob") == 19
    st = engine_kill(st, "alice", "Mad Man")
    assert base(st, "bob") == 18
    st = engine_kill(st, "alice", "Captured Bugblatter")
    assert base(st, "bob") == 17, "its own death triggers it (ruling)"
    st = blood("turn = 2", "p1.units = Captured Bugblatter", "p2.units = Tiger Cub")
    st = engine_kill(st, "bob", "Tiger Cub")
    assert base(st, "bob") == 19, "in bob's turn: the base of the player whose turn it is"


def test_land_octopus_cannot_patrol_and_costs_two_workers_each_upkeep():
    st = blood("turn = 2", "p1.units = Land Octopus", "p1.workers = Mad Man, Nautical Dog")
    assert not [t for t in legal_texts(st, "alice") if "sl=land-octopus" in t]
    workers = engine.worker_count(st, "alice")
    st = next_turn(st)
    assert st.prompt is not None and st.prompt.kind == "may"
    st = do(st, "choose yes")
    assert engine.worker_count(st, "alice") == workers - 2 and thing(st, "alice", "Land Octopus")
    assert names(st, "trash:alice") == ["Mad Man", "Nautical Dog"], "trashed, not discarded (ruling)"
    assert not [t for t in legal_texts(st) if "sl=land-octopus" in t]
    st = next_turn(next_turn(st))
    st = do(st, "choose no")
    assert gone(st, "alice", "Land Octopus")


def test_ogre_recruiter_takes_a_tech_0_or_1_unit_if_it_survives_its_combat():
    st = blood("turn = 3", "p1.units = Ogre Recruiter, Ogre Recruiter", "p2.units = Tiger Cub, Older Brother, Blademaster")
    st = do(st, "attack ogre-recruiter opp:base")
    assert st.prompt is not None and "choose opp:blademaster" not in legal_texts(st)
    st = do(st, "choose opp:older-brother")
    assert thing(st, "alice", "Older Brother")
    st = blood("turn = 3", "p1.units = Ogre Recruiter dmg=3", "p2.units = Tiger Cub, Blademaster",
               "p2.patrol = sl=blademaster")
    st = do(st, "attack ogre-recruiter opp:sl")
    assert gone(st, "alice", "Ogre Recruiter") and thing(st, "bob", "Tiger Cub"), "it died: nothing taken"


def test_pirate_gang_commander_brings_pirates_arms_your_units_and_makes_blood_units_free():
    st = blood("p1.buildings = tech1, tech2, tech3", "p1.hand = Pirate-Gang Commander, Crashbarrow, Land Octopus",
               "p1.gold = 6")
    st = do(st, "play pirate-gang-commander")
    assert len(engine.controls(st, "alice", "Pirate")) == 3 and st.players["alice"].gold == 4
    st = do(st, "play crashbarrow")
    assert st.players["alice"].gold == 4, "tech II Blood units cost nothing"
    st = engine_kill(st, "alice", "Pirate")
    assert base(st, "bob") == 19, "a unit of yours dying hits each opposing base"
    st = blood("p1.units = Pirate-Gang Commander", "p1.hand = Land Octopus, Tiger Cub", "p1.gold = 0",
               p2="finesse")
    st = do(st, "play land-octopus")  # no tech II building, no gold
    assert thing(st, "alice", "Land Octopus")


# --- Drakk Ramhorn ---------------------------------------------------------------------------


def test_drakk_level_1_dying_hits_each_opposing_base():
    st = blood("turn = 3", "p1.hero = 1")
    assert stats(st, "alice", "Drakk Ramhorn")[:2] == (1, 3)
    st = engine_kill(st, "alice", "Drakk Ramhorn")
    assert base(st, "bob") == 19


def test_drakk_level_4_gives_your_units_frenzy():
    st = blood("turn = 3", "p1.hero = 4", "p1.units = Mad Man", "p2.units = Tiger Cub")
    assert stats(st, "alice", "Drakk Ramhorn")[:2] == (2, 3)
    assert stats(st, "alice", "Mad Man")[0] == 2 and stats(st, "bob", "Tiger Cub")[0] == 2
    st = next_turn(st)
    assert stats(st, "alice", "Mad Man")[0] == 1, "frenzy: on its controller's turn only"


def test_drakk_max_level_the_first_unit_from_hand_each_turn_gets_haste_for_good():
    st = blood("p1.hero = 5", "p1.gold = 20", "p1.hand = Older Brother, Bombaster, Surprise Attack",
               "p1.buildings = tech1")
    st = do(st, "play older-brother")
    st = do(st, "level 1")
    assert stats(st, "alice", "Drakk Ramhorn")[:2] == (3, 4)
    st = do(st, "play bombaster")
    brother, bomb = thing(st, "alice", "Older Brother"), thing(st, "alice", "Bombaster")
    assert not engine.has(st, brother, "haste") and not engine.has(st, bomb, "haste"), "never retroactive (ruling)"
    st = blood("p1.hero = 6", "p1.gold = 20", "p1.hand = Older Brother, Bombaster")
    st = do(st, "play older-brother")
    st = do(st, "play bombaster")
    brother, bomb = thing(st, "alice", "Older Brother"), thing(st, "alice", "Bombaster")
    assert engine.has(st, brother, "haste") and not engine.has(st, bomb, "haste")
    st = next_turn(next_turn(st))
    assert engine.has(st, brother, "haste"), "for good (ruling)"


def test_drakk_max_level_counts_a_unit_put_into_play_from_the_hand_not_one_a_spell_makes():
    st = blood("turn = 3", "p1.hero = 6", "p1.heroes = Calamandra Moss 5", "p1.gold = 20", "p1.buildings = tech1",
               "p1.hand = Murkwood Allies, Feral Strike, Older Brother, Bombaster")
    st = do(st, "play murkwood-allies mode=1")
    beast = [r for r in engine.things_of(st, "alice") if st.things[r].card not in ("Drakk Ramhorn", "Calamandra Moss")]
    assert beast and not any(engine.has(st, r, "haste") for r in beast), "made by a spell: not from the hand (ruling)"
    st = do(st, "play feral-strike mode=2 target=none,none,hand:older-brother,none")
    assert engine.has(st, thing(st, "alice", "Older Brother"), "haste"), "put into play from the hand counts (ruling)"
    st = do(st, "play bombaster")
    assert not engine.has(st, thing(st, "alice", "Bombaster"), "haste")
