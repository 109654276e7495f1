"""Every neutral card, keyword and ruling, from fixed positions.

Alice (p1) plays Bashing and Bob (p2) Finesse unless `first="finesse"`."""

from __future__ import annotations

import pytest

from codex_helpers import CH, GAME, base, do, gone, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import engine
from pbem.games.codex.state import Thing


def hp_left(st, seat, name):
    a, h, d = stats(st, seat, name)
    return h - d


# --- the starter deck -------------------------------------------------------------


def test_timely_messenger_has_haste():
    st = start("p1.hand = Timely Messenger")
    st = do(st, "play timely-messenger")
    st = do(st, "attack timely-messenger opp:base")
    assert base(st, "bob") == 19


def test_brick_thief_arrives_and_attacks_damage_and_repair_and_resist():
    st = start("p1.hand = Brick Thief", "p2.buildings = tech1", "p1.buildings = tech1")
    st.players["alice"].buildings["tech1"].damage = 2
    with pytest.raises(IllegalCommand):
        do(st, "play brick-thief target=opp:tech1,opp:tech1")  # another building
    st = do(st, "play brick-thief target=opp:tech1,me:tech1")
    assert st.players["bob"].buildings["tech1"].damage == 1
    assert st.players["alice"].buildings["tech1"].damage == 1
    # repairing an undamaged building does nothing (ruling)
    st2 = start("p1.hand = Brick Thief")
    st2 = do(st2, "play brick-thief target=opp:base,me:base")
    assert base(st2, "alice") == 20 and base(st2, "bob") == 19
    # attacks: the same effect again
    st3 = start("turn = 3", "p1.units = Brick Thief", "p2.buildings = tech1")
    st3 = do(st3, "attack brick-thief opp:base with=opp:tech1,me:base")
    assert base(st3, "bob") == 18 and st3.players["bob"].buildings["tech1"].damage == 1
    # resist 1: an opponent pays 1 gold to target it
    st4 = start("turn = 2", "p1.units = Brick Thief", "p2.hand = Wither", "p2.hero = 1", "p2.base_workers = 2",
                "p2.gold = 0")
    with pytest.raises(IllegalCommand, match="resist"):
        do(st4, "play wither target=opp:brick-thief")
    st4.players["bob"].gold = 3
    st4 = do(st4, "play wither target=opp:brick-thief")
    assert st4.players["bob"].gold == 0 and gone(st4, "alice", "Brick Thief")


def test_helpful_turtle_heals_and_the_active_player_orders_upkeep():
    lines = ("turn = 3", "tech = yes", "p1.units = Helpful Turtle, Older Brother dmg=1, Tenderfoot dmg=1")
    st = do(start(*lines), "tech iron-man iron-man")
    assert stats(st, "alice", "Older Brother")[2] == 0 and stats(st, "alice", "Tenderfoot")[2] == 0
    # Starlet: damage first then heal (0 left), or heal first then damage (1 left)
    st = start("turn = 3", "tech = yes", "p1.units = Helpful Turtle, Star-Crossed Starlet dmg=1", first="finesse")
    st1 = do(st, "tech harmony harmony")
    assert stats(st1, "alice", "Star-Crossed Starlet")[2] == 1  # healed, then 1 damage
    starlet = thing(st, "alice", "Star-Crossed Starlet")
    st2 = do(st, "tech harmony harmony first=me:star-crossed-starlet")
    assert starlet not in st2.things  # 2 damage first: she dies before the heal


def test_granfalloon_flagbearer_must_be_targeted():
    st = start("turn = 2", "p1.units = Granfalloon Flagbearer, Older Brother",
               "p1.patrol = sl=older-brother elite=granfalloon-flagbearer", "p2.hand = Spark", "p2.hero = 1")
    with pytest.raises(IllegalCommand, match="flagbearer"):
        do(st, "play spark target=opp:older-brother")
    st = do(st, "play spark target=opp:granfalloon-flagbearer")
    assert stats(st, "alice", "Granfalloon Flagbearer")[2] == 1
    # Wither may hit anything, so it must hit the flagbearer too
    legal = [GAME.presentation.format(c, st, "bob") for c in GAME.legal(st, "bob")]
    assert not any("older-brother" in t and t.startswith("play") for t in legal)


def test_a_flagbearer_whose_resist_cannot_be_paid_is_skipped():
    st = start("turn = 2", "p1.units = Granfalloon Flagbearer, Older Brother",
               "p1.patrol = sl=older-brother lookout=granfalloon-flagbearer", "p2.hand = Spark", "p2.hero = 1",
               "p2.base_workers = 1")
    assert st.players["bob"].gold == 1
    st = do(st, "play spark target=opp:older-brother")  # Spark takes the 1 gold: no resist left
    assert stats(st, "alice", "Older Brother")[2] == 0  # armor


def test_fruit_ninja_frenzy_on_its_own_turn_only():
    st = start("p1.units = Fruit Ninja")
    assert stats(st, "alice", "Fruit Ninja")[0] == 3
    st = do(st, "end")
    assert stats(st, "alice", "Fruit Ninja")[0] == 2


def test_spark_bloom_wither():
    st = start("turn = 2", "p1.units = Older Brother, Tenderfoot", "p1.patrol = sl=older-brother",
               "p2.hand = Spark, Bloom, Wither", "p2.hero = 1", "p2.units = Leaping Lizard", "p2.gold = 9")
    with pytest.raises(IllegalCommand):
        do(st, "play spark target=opp:tenderfoot")  # not a patroller
    st = do(st, "play bloom target=me:leaping-lizard")
    assert stats(st, "bob", "Leaping Lizard")[:2] == (4, 6)
    st = do(st, "play wither target=opp:tenderfoot")
    assert stats(st, "alice", "Tenderfoot")[:2] == (0, 1)
    # a +1/+1 rune and a -1/-1 rune cancel; Bloom needs no +1/+1 rune
    st2 = start("turn = 2", "p2.hand = Bloom", "p2.hero = 1", "p2.units = Leaping Lizard runes=1")
    with pytest.raises(IllegalCommand):
        do(st2, "play bloom target=me:leaping-lizard")


def test_wither_kills_an_x1_even_with_armor():
    st = start("turn = 2", "p1.units = Brick Thief", "p1.patrol = sl=brick-thief", "p2.hand = Wither",
               "p2.hero = 1")
    st = do(st, "play wither target=opp:sl")
    assert gone(st, "alice", "Brick Thief")


# --- Bashing ----------------------------------------------------------------------


def test_wrecking_ball_the_boot_and_intimidate():
    st = start("p1.hand = Wrecking Ball, The Boot, Intimidate", "p1.hero = 1", "p1.gold = 9",
               "p2.buildings = tech1, tech2", "p2.units = Nimble Fencer, Maestro, Tenderfoot",
               "p2.patrol = scavenger=tenderfoot")
    st = do(st, "play wrecking-ball target=opp:tech2")
    assert st.players["bob"].buildings["tech2"].damage == 2
    with pytest.raises(IllegalCommand):
        do(st, "play the-boot target=opp:maestro")  # tech II
    gold = st.players["bob"].gold
    st = do(st, "play the-boot target=opp:tenderfoot")
    assert gone(st, "bob", "Tenderfoot") and st.players["bob"].gold == gold + 1  # it died: scavenger
    st = do(st, "play intimidate target=opp:nimble-fencer")
    assert stats(st, "bob", "Nimble Fencer")[0] == 0  # never below 0
    st = do(st, "end")
    assert stats(st, "bob", "Nimble Fencer")[0] == 2


def test_final_smash_parts_in_order():
    st = start("turn = 3", "p1.hand = Final Smash", "p1.hero = 8", "p1.gold = 6",
               "p2.units = Tenderfoot, Nimble Fencer, Maestro", "p1.units = Older Brother")
    st = do(st, "play final-smash target=opp:tenderfoot,opp:nimble-fencer,opp:maestro")
    assert gone(st, "bob", "Tenderfoot") and gone(st, "bob", "Nimble Fencer")
    assert [it.card for it in st.zones["hand:bob"].items].count("Nimble Fencer") == 1
    maestro = thing(st, "alice", "Maestro")
    assert st.things[maestro].owner == "bob" and engine.fatigued(st, maestro)
    # parts are mandatory even on your own units
    st2 = start("turn = 3", "p1.hand = Final Smash", "p1.hero = 8", "p1.units = Older Brother")
    with pytest.raises(IllegalCommand):
        do(st2, "play final-smash target=none,none,none")


def test_revolver_ocelot_sparkshot():
    st = start("turn = 3", "p1.units = Revolver Ocelot",
               "p2.units = Tenderfoot, Older Brother, Leaping Lizard",
               "p2.patrol = sl=tenderfoot elite=older-brother lookout=leaping-lizard")
    with pytest.raises(IllegalCommand, match="sparkshot"):
        do(st, "attack revolver-ocelot opp:sl")
    st = do(st, "attack revolver-ocelot opp:sl spark=opp:older-brother")
    assert gone(st, "bob", "Tenderfoot") and stats(st, "bob", "Older Brother")[2] == 1


def test_hired_stomper_must_deal_3_to_a_unit():
    st = start("p1.hand = Hired Stomper", "p1.buildings = tech1, tech2", "p1.gold = 4")
    st = do(st, "play hired-stomper target=self")
    assert gone(st, "alice", "Hired Stomper")
    st = start("p1.hand = Hired Stomper", "p1.buildings = tech1, tech2", "p2.units = Maestro")
    with pytest.raises(IllegalCommand):
        do(st, "play hired-stomper")
    st = do(st, "play hired-stomper target=opp:maestro")
    assert stats(st, "bob", "Maestro")[2] == 3


def test_sneaky_pig_haste_and_stealth_this_turn():
    st = start("p1.hand = Sneaky Pig", "p1.buildings = tech1, tech2", "p2.units = Leaping Lizard",
               "p2.patrol = sl=leaping-lizard")
    st = do(st, "play sneaky-pig")
    st = do(st, "attack sneaky-pig opp:base")
    assert base(st, "bob") == 17


def test_eggship_flies_over_ground_patrollers():
    st = start("turn = 3", "p1.units = Eggship, Older Brother", "p2.units = Tenderfoot, Cloud Sprite",
               "p2.patrol = sl=tenderfoot")
    st = do(st, "attack eggship opp:base")
    assert base(st, "bob") == 16
    with pytest.raises(IllegalCommand):
        do(st, "attack older-brother opp:cloud-sprite")  # ground cannot attack fliers


def test_harvest_reaper_overpower_spills_once():
    st = start("turn = 3", "p1.units = Harvest Reaper", "p2.units = Tenderfoot, Older Brother",
               "p2.patrol = sl=tenderfoot elite=older-brother")
    st = do(st, "attack harvest-reaper opp:sl over=opp:older-brother")
    assert gone(st, "bob", "Tenderfoot") and gone(st, "bob", "Older Brother")  # 6 = 1 armor + 2 + 3


def test_trojan_duck_obliterates_and_hits_a_building():
    st = start("turn = 3", "p1.units = Trojan Duck", "p2.units = Tenderfoot, Nimble Fencer, Maestro",
               "p2.buildings = tech1", "p2.patrol = sl=tenderfoot")
    st = do(st, "attack trojan-duck opp:sl with=opp:tech1 then=opp:maestro")
    assert gone(st, "bob", "Tenderfoot") and gone(st, "bob", "Nimble Fencer") and gone(st, "bob", "Maestro")
    assert st.players["bob"].buildings["tech1"].damage == 4
    st2 = start("p1.hand = Trojan Duck", "p1.buildings = tech1, tech2, tech3", "p1.gold = 7")
    st2 = do(st2, "play trojan-duck target=opp:base")
    assert base(st2, "bob") == 16


def test_trojan_duck_cannot_go_on_to_the_building_its_trigger_destroys():
    st = start("turn = 3", "p1.units = Trojan Duck", "p2.units = Tenderfoot, Nimble Fencer",
               "p2.buildings = tech1", "p2.patrol = sl=tenderfoot")
    st.players["bob"].buildings["tech1"].damage = 1  # 4 more destroy it (5 HP)
    duck = thing(st, "alice", "Trojan Duck")
    attacks = [c for c in GAME.legal(st, "alice") if getattr(c, "attacker", "") == duck]
    assert any(c.then == "bob:tech1" for c in attacks if c.extra == ["bob:base"])
    assert not any(c.then == "bob:tech1" for c in attacks if c.extra == ["bob:tech1"])
    for c in attacks:  # every listed attack is legal
        GAME.apply(st, "alice", c, CH)


# --- Finesse ----------------------------------------------------------------------


def test_harmony_dancers_and_stopping_the_music():
    st = start("turn = 2", "p2.hand = Harmony, Spark, Bloom, Wither, Discord", "p2.hero = 1", "p2.gold = 20",
               "p2.units = Leaping Lizard", "p1.units = Older Brother", "p1.patrol = sl=older-brother")
    st = do(st, "play harmony")
    assert not engine.controls(st, "bob", "Dancer")  # not for itself
    st = do(st, "play spark target=opp:sl")
    st = do(st, "play bloom target=me:leaping-lizard")
    st = do(st, "play wither target=opp:older-brother")
    st = do(st, "play discord")
    assert len(engine.controls(st, "bob", "Dancer")) == 3  # the limit
    st = do(st, "use harmony stop-the-music")
    assert len(engine.controls(st, "bob", "Angry Dancer")) == 3
    assert engine.has(st, thing(st, "bob", "Angry Dancer"), "unstoppable")


def test_harmony_is_sacrificed_without_flipping_when_the_hero_goes():
    st = start("turn = 2", "p2.hand = Harmony, Spark", "p2.hero = 1", "p2.gold = 9",
               "p1.units = Older Brother, Iron Man", "p1.patrol = sl=older-brother")
    st = do(st, "play harmony")
    st = do(st, "play spark target=opp:sl")
    river = thing(st, "bob", "River Montoya")
    engine.die(st, [river], CH)
    engine.settle(st, CH)
    assert not engine.spells_of(st, "bob") and engine.controls(st, "bob", "Dancer")


def test_discord_gives_minus_2_minus_1_to_low_tech_units():
    st = start("turn = 2", "p2.hand = Discord", "p2.hero = 1", "p1.units = Tenderfoot, Iron Man, Brick Thief")
    st = do(st, "play discord")
    assert gone(st, "alice", "Brick Thief")
    assert stats(st, "alice", "Iron Man")[:2] == (1, 3) and stats(st, "alice", "Tenderfoot")[:2] == (0, 1)
    st = do(st, "end")
    assert stats(st, "alice", "Iron Man")[:2] == (3, 4)


def test_two_step_partners_and_losing_one():
    st = start("turn = 2", "p2.hand = Two Step, Two Step", "p2.hero = 1", "p2.gold = 9",
               "p2.units = Tenderfoot, Older Brother, Leaping Lizard", "p1.hand = Spark")
    st = do(st, "play two-step target=me:tenderfoot,me:older-brother")
    assert stats(st, "bob", "Tenderfoot")[:2] == (3, 4) and stats(st, "bob", "Older Brother")[:2] == (4, 4)
    with pytest.raises(IllegalCommand):
        do(st, "play two-step target=me:tenderfoot,me:leaping-lizard")  # already a partner
    engine.die(st, [thing(st, "bob", "Older Brother")], CH)
    engine.settle(st, CH)
    assert not engine.spells_of(st, "bob") and stats(st, "bob", "Tenderfoot")[:2] == (1, 2)


def test_appel_stomp_sidelines_draws_and_may_go_on_top():
    st = start("turn = 4", "p2.hand = Appel Stomp", "p2.hero = 5", "p2.deck = Spark",
               "p1.units = Older Brother", "p1.patrol = sl=older-brother")
    st = do(st, "play appel-stomp target=opp:sl top")
    assert st.patrol["alice"][0] == ""
    assert [it.card for it in st.zones["hand:bob"].items] == ["Spark"]
    assert st.zones["deck:bob"].items[0].card == "Appel Stomp" and st.players["bob"].on_top == 1


def test_nimble_fencer_gives_virtuosos_haste():
    st = start("turn = 2", "p2.hand = Nimble Fencer, Tenderfoot", "p2.buildings = tech1", "p2.gold = 3")
    st = do(st, "play nimble-fencer")
    st = do(st, "play tenderfoot")
    st = do(st, "attack nimble-fencer opp:base")
    st = do(st, "attack tenderfoot opp:base")
    assert base(st, "alice") == 17


def test_star_crossed_starlet_gets_atk_from_damage():
    st = start("turn = 3", "p2.units = Star-Crossed Starlet dmg=1")
    assert stats(st, "bob", "Star-Crossed Starlet")[0] == 4


def test_grounded_guide_stacks():
    st = start("turn = 2", "p2.units = Grounded Guide, Grounded Guide, Tenderfoot, Leaping Lizard")
    assert stats(st, "bob", "Tenderfoot")[:2] == (5, 4)
    assert stats(st, "bob", "Leaping Lizard")[:2] == (5, 5)
    assert stats(st, "bob", "Grounded Guide")[:2] == (5, 4)


def test_maestro_makes_virtuosos_free_and_gives_them_a_wrecking_ability():
    st = start("turn = 2", "p2.units = Maestro, Tenderfoot", "p2.hand = Nimble Fencer", "p2.buildings = tech1",
               "p2.base_workers = 0")
    st = do(st, "play nimble-fencer")
    assert st.players["bob"].gold == 0
    st = do(st, "use tenderfoot wreck target=opp:base")
    assert base(st, "alice") == 18
    with pytest.raises(IllegalCommand):
        do(st, "use tenderfoot wreck target=opp:base")  # exhausted


def test_backstabber_is_invisible():
    st = start("p1.hand = Spark", "p1.hero = 1", "p2.units = Backstabber")
    with pytest.raises(IllegalCommand):
        do(st, "play spark target=opp:backstabber")
    st = start("turn = 3", "p1.units = Older Brother", "p2.units = Backstabber")
    with pytest.raises(IllegalCommand):
        do(st, "attack older-brother opp:backstabber")
    st = start("turn = 2", "p2.units = Backstabber", "p1.units = Older Brother", "p1.patrol = sl=older-brother")
    st = do(st, "attack backstabber opp:base")  # sneaks past
    assert base(st, "alice") == 17


def test_tower_detects_the_first_sneaky_attacker_and_hits_attackers():
    st = start("turn = 2", "p2.units = Backstabber, Tenderfoot", "p1.units = Older Brother",
               "p1.patrol = sl=older-brother", "p1.buildings = tower")
    with pytest.raises(IllegalCommand):
        do(st, "attack backstabber opp:base")
    st = do(st, "attack backstabber opp:sl")
    assert gone(st, "bob", "Backstabber")  # 2 from the squad leader, 1 from the tower


def test_cloud_sprite_and_leaping_lizard_anti_air():
    st = start("turn = 3", "p1.units = Eggship", "p2.units = Leaping Lizard, Tenderfoot",
               "p2.patrol = sl=tenderfoot elite=leaping-lizard")
    st = do(st, "attack eggship opp:base")
    assert gone(st, "alice", "Eggship")  # the anti-air lizard it flew over hit it (4 with elite)
    st = start("turn = 2", "p2.units = Leaping Lizard", "p1.units = Eggship")
    st = do(st, "attack leaping-lizard opp:eggship")
    assert gone(st, "alice", "Eggship")


def test_blademaster_gives_swift_strike():
    st = start("turn = 2", "p2.units = Blademaster, Tenderfoot", "p1.units = Older Brother",
               "p1.patrol = sl=older-brother")
    tender = thing(st, "bob", "Tenderfoot")
    assert engine.has(st, tender, "swift_strike")
    st.things[tender].runes = 2  # 3/4: kills the armoured 2/2 before it strikes back
    st = do(st, "attack tenderfoot opp:sl")
    assert gone(st, "alice", "Older Brother") and stats(st, "bob", "Tenderfoot")[2] == 0


# --- heroes --------------------------------------------------------------------------


def test_troq_bashar_bands():
    st = start("turn = 3", "p1.hero = 5", "p2.units = Tenderfoot", "p2.patrol = sl=tenderfoot")
    st = do(st, "attack troq-bashar opp:sl")
    assert base(st, "bob") == 19
    st = start("turn = 3", "p1.hero = 8")
    st = do(st, "attack troq-bashar opp:base")
    troq = thing(st, "alice", "Troq Bashar")
    assert not st.things[troq].exhausted and base(st, "bob") == 20 - 1 - 4
    with pytest.raises(IllegalCommand, match="already attacked"):
        do(st, "attack troq-bashar opp:base")


def test_river_montoya_bands():
    st = start("turn = 2", "p2.hero = 3", "p1.units = Older Brother, Iron Man",
               "p1.patrol = sl=older-brother elite=iron-man")
    st = do(st, "use river-montoya sideline target=opp:sl")
    assert st.patrol["alice"][0] == ""
    st = start("turn = 2", "p2.hero = 5", "p2.hand = Tenderfoot, Older Brother", "p2.base_workers = 1")
    st = do(st, "play tenderfoot")
    st = do(st, "play older-brother")
    assert st.players["bob"].gold == 0


def test_heroes_and_cards_are_described_in_our_words():
    from pbem.games.codex import cards

    for name in list(cards.CARDS) + list(cards.HEROES):
        assert cards.describe(name)
    assert len(cards.STARTER) == 10 and all(len(cards.codex_cards(s)) == 24 for s in cards.SPECS)


def test_tower_lets_its_owner_attack_one_invisible_thing_a_turn():
    st = start("turn = 3", "p1.units = Older Brother, Tenderfoot", "p1.buildings = tower",
               "p2.units = Backstabber, Cloud Sprite")
    st = do(st, "attack older-brother opp:backstabber")
    assert stats(st, "bob", "Backstabber")[2] == 2
    with pytest.raises(IllegalCommand):
        do(st, "attack tenderfoot opp:cloud-sprite")  # a ground unit and a flier


def test_two_step_is_sacrificed_when_a_partner_changes_control():
    st = start("turn = 3", "p1.hand = Final Smash", "p1.hero = 8", "p1.gold = 2", "p2.units = Maestro, Leaping Lizard",
               "p2.hero = 1")
    st.things["x1"] = Thing(card="Two Step", owner="bob", controller="bob", since=0,
                            links=[thing(st, "bob", "Maestro"), thing(st, "bob", "Leaping Lizard")])
    st.zones["ongoing:bob"].items.append(type(st.zones["play:bob"].items[0])("x1", "Two Step"))
    assert stats(st, "bob", "Maestro")[:2] == (5, 7)
    st = do(st, "play final-smash target=none,none,opp:leaping-lizard")
    assert not engine.spells_of(st, "bob") and stats(st, "bob", "Maestro")[:2] == (3, 5)
    assert [it.card for it in st.zones["discard:bob"].items] == ["Two Step"]
