"""The Fire spec (red) card by card, its hero Jaina Stormborne band by band,
and every ruling of rulings.json about them, from fixed positions. Alice
(p1) plays Fire with the red starter deck, Bob (p2) Finesse."""

from __future__ import annotations

import pytest

from codex_helpers import base, do, gone, legal_texts, start, stats, thing
from pbem.errors import IllegalCommand


def fire(*lines: str, p2: str = "finesse"):
    return start(*lines, p1="fire", p2=p2)


def damage(st, seat, name):
    return stats(st, seat, name)[2]


def building_damage(st, seat, kind):
    return st.players[seat].buildings[kind].damage


# --- spells ----------------------------------------------------------------------------------


def test_fire_dart_3_to_a_unit_2_to_a_building():
    st = fire("p1.hero = 1", "p1.hand = Fire Dart, Fire Dart", "p1.gold = 10", "p2.units = Maestro",
              "p2.buildings = tech1", "p2.hero = 1")
    with pytest.raises(IllegalCommand):
        do(st, "play fire-dart target=opp:river-montoya")  # a unit or a building, not a hero
    st = do(st, "play fire-dart target=opp:maestro")
    assert damage(st, "bob", "Maestro") == 3
    st = do(st, "play fire-dart target=opp:tech1")
    assert building_damage(st, "bob", "tech1") == 2


def test_ember_sparks_divides_3_among_one_to_three_patrollers_or_buildings():
    st = fire("p1.hero = 1", "p1.hand = Ember Sparks", "p1.gold = 10",
              "p2.units = Maestro, Nimble Fencer, Tenderfoot, Iron Man",
              "p2.patrol = elite=maestro scavenger=nimble-fencer technician=tenderfoot")
    with pytest.raises(IllegalCommand):
        do(st, "play ember-sparks target=opp:iron-man")  # not patrolling
    splits = {t.split("split=")[1] for t in legal_texts(st)
              if t.startswith("play ember-sparks target=opp:maestro,opp:nimble-fencer,opp:tenderfoot")}
    assert splits == {"1,1,1"}
    st = do(st, "play ember-sparks target=opp:maestro,opp:tenderfoot,none split=2,1,0")
    assert damage(st, "bob", "Maestro") == 2 and damage(st, "bob", "Tenderfoot") == 1


def test_ember_sparks_with_hotter_fire_divides_4_still_among_three_at_most():
    st = fire("p1.hero = 1", "p1.hand = Ember Sparks", "p1.gold = 10", "p1.units = Hotter Fire",
              "p2.units = Maestro, Nimble Fencer", "p2.patrol = elite=maestro scavenger=nimble-fencer")
    st = do(st, "play ember-sparks target=opp:maestro,opp:nimble-fencer,none split=3,1,0")
    assert damage(st, "bob", "Maestro") == 3 and damage(st, "bob", "Nimble Fencer") == 1


def test_flame_arrow_4_to_a_unit_or_hero_3_to_a_building():
    st = fire("p1.hero = 1", "p1.hand = Flame Arrow, Flame Arrow", "p1.gold = 10", "p2.hero = 1",
              "p2.buildings = tech1")
    st = do(st, "play flame-arrow target=opp:river-montoya")
    assert gone(st, "bob", "River Montoya")
    st = do(st, "play flame-arrow target=opp:tech1")
    assert building_damage(st, "bob", "tech1") == 3


def test_burning_volley_divides_5_one_each_at_least_an_ultimate():
    st = fire("turn = 3", "p1.hero = 6", "p1.hand = Burning Volley")
    assert not [t for t in legal_texts(st) if t.startswith("play burning-volley")], "Jaina's max level is 7"
    st = fire("turn = 3", "p1.hero = 7", "p1.hand = Burning Volley", "p2.units = Maestro, Tenderfoot, Wisp",
              "p2.buildings = tech1")
    with pytest.raises(IllegalCommand):
        do(st, "play burning-volley target=opp:maestro,opp:tenderfoot,opp:wisp,opp:tech1,opp:base,me:base,none "
               "split=1,1,1,1,1,1,0")  # six places for 5 damage (ruling)
    st = do(st, "play burning-volley target=opp:maestro,opp:tenderfoot,opp:wisp,opp:tech1,opp:base,none,none "
                "split=1,1,1,1,1,0,0")
    assert gone(st, "bob", "Wisp") and damage(st, "bob", "Maestro") == 1 and base(st, "bob") == 19


def test_burning_volley_with_hotter_fire_divides_6_among_up_to_six():
    st = fire("turn = 3", "p1.hero = 7", "p1.hand = Burning Volley", "p1.units = Hotter Fire",
              "p2.units = Maestro, Tenderfoot, Wisp", "p2.buildings = tech1")
    st = do(st, "play burning-volley target=opp:maestro,opp:tenderfoot,opp:wisp,opp:tech1,opp:base,me:base,none "
                "split=1,1,1,1,1,1,0")
    assert base(st, "bob") == 19 and gone(st, "bob", "Wisp")


# --- units and buildings ---------------------------------------------------------------------


def test_lobber_hastes_and_hits_a_building_for_1():
    st = fire("p1.buildings = tech1", "p1.hand = Lobber", "p1.gold = 10", "p2.units = Tenderfoot")
    st = do(st, "play lobber")
    with pytest.raises(IllegalCommand):
        do(st, "use lobber target=opp:tenderfoot")
    st = do(st, "use lobber target=opp:base")
    assert base(st, "bob") == 19


def test_firebat_pays_1_and_exhausts_for_2_to_a_patroller_or_building():
    st = fire("turn = 3", "p1.units = Firebat", "p1.gold = 0", "p2.units = Maestro, Tenderfoot",
              "p2.patrol = elite=maestro")
    with pytest.raises(IllegalCommand):
        do(st, "use firebat target=opp:tenderfoot")  # not patrolling
    gold = st.players["alice"].gold
    st = do(st, "use firebat target=opp:maestro")
    assert damage(st, "bob", "Maestro") == 2 and st.players["alice"].gold == gold - 1


def test_bamstamper_lizzo_must_hit_a_unit_its_own_self_if_need_be():
    st = fire("p1.buildings = tech1, tech2", "p1.hand = Bamstamper Lizzo", "p1.gold = 10", "p2.units = Maestro")
    assert {t for t in legal_texts(st) if t.startswith("play bamstamper-lizzo")} == \
        {"play bamstamper-lizzo target=opp:maestro", "play bamstamper-lizzo target=self"}
    st2 = do(st, "play bamstamper-lizzo target=opp:maestro")
    assert damage(st2, "bob", "Maestro") == 3
    st = fire("p1.buildings = tech1, tech2", "p1.hand = Bamstamper Lizzo", "p1.gold = 10")
    assert [t for t in legal_texts(st) if t.startswith("play bamstamper-lizzo")] == ["play bamstamper-lizzo target=self"]
    st = do(st, "play bamstamper-lizzo target=self")
    assert gone(st, "alice", "Bamstamper Lizzo"), "the only unit: it hits itself and dies (ruling)"


def test_doubleshot_archer_shoots_the_base_on_each_attack_from_long_range():
    st = fire("turn = 3", "p1.units = Doubleshot Archer", "p2.units = Maestro", "p2.patrol = sl=maestro")
    st = do(st, "attack doubleshot-archer opp:maestro")
    assert base(st, "bob") == 17 and damage(st, "alice", "Doubleshot Archer") == 0, "long-range: no damage back"


def test_molting_firebird_damaging_a_building_hits_each_of_its_players_units_and_heroes():
    st = fire("turn = 3", "p1.units = Molting Firebird, Mad Man", "p2.units = Tenderfoot, Maestro", "p2.hero = 1")
    st = do(st, "attack molting-firebird opp:base")
    assert base(st, "bob") == 16 and damage(st, "bob", "Tenderfoot") == 1 and damage(st, "bob", "River Montoya") == 1
    assert damage(st, "alice", "Mad Man") == 0


def test_firehouse_readies_when_its_2_damage_destroys_no_haste():
    st = fire("turn = 3", "p1.units = Firehouse", "p2.units = Tenderfoot, Wisp, Maestro")
    st = do(st, "use firehouse target=opp:tenderfoot")
    assert gone(st, "bob", "Tenderfoot") and not st.things[thing(st, "alice", "Firehouse")].exhausted
    st = do(st, "use firehouse target=opp:wisp")
    st = do(st, "use firehouse target=opp:maestro")
    assert damage(st, "bob", "Maestro") == 2 and st.things[thing(st, "alice", "Firehouse")].exhausted
    st = fire("p1.buildings = tech1, tech2", "p1.hand = Firehouse", "p1.gold = 10", "p2.units = Tenderfoot")
    st = do(st, "play firehouse")
    with pytest.raises(IllegalCommand, match="arrival fatigue"):
        do(st, "use firehouse target=opp:tenderfoot")


def test_firehouse_on_an_illusion_does_not_ready():
    st = fire("turn = 3", "p1.units = Firehouse", "p2.units = Spectral Hound")
    st = do(st, "use firehouse target=opp:spectral-hound")
    assert gone(st, "bob", "Spectral Hound") and st.things[thing(st, "alice", "Firehouse")].exhausted, \
        "the illusion died from being targeted, not from the damage (ruling)"


def test_hotter_fire_adds_1_to_red_spells_and_abilities_never_to_combat_damage():
    st = fire("turn = 3", "p1.hero = 4", "p1.units = Hotter Fire, Hotter Fire, Careless Musketeer",
              "p1.hand = Scorch", "p1.gold = 10", "p2.units = Blademaster, Maestro, Iron Man",
              "p2.patrol = elite=maestro scavenger=iron-man")
    st = do(st, "play scorch target=opp:maestro")
    assert damage(st, "bob", "Maestro") == 2 + 2, "two of them stack (ruling)"
    st = do(st, "use careless-musketeer target=opp:blademaster")
    assert damage(st, "bob", "Blademaster") == 3 and base(st, "alice") == 17, "its own base too (ruling)"
    st = do(st, "use jaina-stormborne target=opp:iron-man")
    assert damage(st, "bob", "Iron Man") == 3


def test_hotter_fire_leaves_sparkshot_alone():
    st = fire("turn = 3", "p1.hero = 1", "p1.units = Hotter Fire", "p2.units = Tenderfoot, Maestro",
              "p2.patrol = sl=tenderfoot elite=maestro")
    st = do(st, "attack jaina-stormborne opp:tenderfoot spark=opp:maestro")
    assert damage(st, "bob", "Maestro") == 1


def test_cinderblast_dragon_casts_a_fire_spell_free_from_hand_or_codex_arriving_and_attacking():
    st = fire("p1.buildings = tech1, tech2, tech3", "p1.hand = Cinderblast Dragon, Fire Dart", "p1.gold = 7",
              "p2.units = Maestro, Tenderfoot")
    plays = [t for t in legal_texts(st) if t.startswith("play cinderblast-dragon")]
    assert "play cinderblast-dragon target=hand:fire-dart" in plays and "play cinderblast-dragon target=none" in plays
    assert "play cinderblast-dragon target=codex:burning-volley" not in plays, "not an ultimate"
    with pytest.raises(IllegalCommand, match="not a non-ultimate Fire spell"):
        do(st, "play cinderblast-dragon target=codex:burning-volley")
    st = do(st, "play cinderblast-dragon target=codex:flame-arrow")
    assert st.prompt is not None and st.prompt.kind == "target"  # the spell's own target, asked as it is cast
    st = do(st, "choose opp:maestro")
    assert damage(st, "bob", "Maestro") == 4 and st.players["alice"].gold == 7 + 4 - 7, "free, and no Fire hero (ruling)"
    assert "Flame Arrow" in [it.card for it in st.zones["discard:alice"].items]
    st = fire("turn = 3", "p1.units = Cinderblast Dragon", "p1.hand = Fire Dart", "p2.units = Tenderfoot")
    st = do(st, "attack cinderblast-dragon opp:tenderfoot with=hand:fire-dart")
    st = do(st, "choose opp:tenderfoot")
    # the spell killed what it attacks: it attacks something else, the ability not again (ruling)
    assert gone(st, "bob", "Tenderfoot") and st.prompt is not None and "instead" in st.prompt.what
    st = do(st, "choose opp:base")
    assert base(st, "bob") == 14


# --- Jaina Stormborne ------------------------------------------------------------------------


def test_jaina_level_1_sparkshot():
    st = fire("turn = 3", "p1.hero = 1", "p2.units = Tenderfoot, Maestro", "p2.patrol = sl=tenderfoot elite=maestro")
    assert stats(st, "alice", "Jaina Stormborne")[:2] == (2, 3)
    st = do(st, "attack jaina-stormborne opp:tenderfoot spark=opp:maestro")
    assert damage(st, "bob", "Maestro") == 1


def test_jaina_level_4_exhausts_for_1_to_a_patroller_or_building():
    st = fire("turn = 3", "p1.hero = 4", "p2.units = Maestro, Tenderfoot", "p2.patrol = elite=maestro")
    assert stats(st, "alice", "Jaina Stormborne")[:2] == (3, 3)
    with pytest.raises(IllegalCommand):
        do(st, "use jaina-stormborne target=opp:tenderfoot")
    st = do(st, "use jaina-stormborne target=opp:maestro")
    assert damage(st, "bob", "Maestro") == 1


def test_jaina_max_level_exhausts_for_3_to_a_unit_or_building():
    st = fire("turn = 3", "p1.hero = 7", "p2.units = Maestro")
    assert stats(st, "alice", "Jaina Stormborne")[:2] == (4, 3)
    st = do(st, "use jaina-stormborne blast target=opp:maestro")
    assert damage(st, "bob", "Maestro") == 3
