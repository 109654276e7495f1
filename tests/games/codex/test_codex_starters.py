"""The red and green starter decks and their tokens, card by card, from
fixed positions. Alice (p1) plays Bashing's hero with the red starter deck,
Bob (p2) Finesse's with the green one (`red_green`), unless said otherwise."""

from __future__ import annotations

import pytest

from codex_helpers import GAME, base, do, gone, hand_names, legal_texts, next_turn, red_green, start, stats, thing
from pbem.errors import IllegalCommand, InvalidCommand
from pbem.games.codex import cards, engine, values

# --- red ----------------------------------------------------------------------------------


def test_the_starter_decks_follow_the_options():
    st = red_green()
    assert sorted(it.card for s in ("hand", "deck") for it in st.zones[f"{s}:alice"].items) == sorted(cards.starter("red"))
    assert sorted(it.card for s in ("hand", "deck") for it in st.zones[f"{s}:bob"].items) == sorted(cards.starter("green"))
    assert st.players["alice"].spec == "Bashing" and st.players["bob"].colour == "green"


def test_nautical_dog_frenzy():
    st = red_green("p1.units = Nautical Dog")
    assert stats(st, "alice", "Nautical Dog")[0] == 2
    st = do(st, "end")
    assert stats(st, "alice", "Nautical Dog")[0] == 1


def test_mad_man_haste():
    st = red_green("p1.hand = Mad Man")
    st = do(st, "play mad-man")
    st = do(st, "attack mad-man opp:base")
    assert base(st, "bob") == 19


def test_bombaster_sacrifices_itself_for_2_damage_to_a_patrolling_unit():
    st = red_green("turn = 3", "p1.units = Bombaster", "p2.units = Tiger Cub, Young Treant",
                   "p2.patrol = elite=tiger-cub", "p1.gold = 0")
    with pytest.raises(IllegalCommand, match="patrolling unit"):
        do(st, "use bombaster explode target=opp:young-treant")  # not patrolling
    gold = st.players["alice"].gold
    st = do(st, "use bombaster target=opp:tiger-cub")  # its only ability: the name may be left out
    assert gone(st, "alice", "Bombaster") and "Bombaster" in [it.card for it in st.zones["discard:alice"].items]
    assert gone(st, "bob", "Tiger Cub") and st.players["alice"].gold == gold - 1
    st = red_green("turn = 3", "p1.units = Bombaster", "p2.units = Tiger Cub", "p2.patrol = sl=tiger-cub",
                   "p1.base_workers = 0")
    with pytest.raises(IllegalCommand, match="costs 1 gold"):
        do(st, "use bombaster explode target=opp:sl")


def test_careless_musketeer_hits_a_unit_or_building_and_its_own_base():
    st = red_green("turn = 3", "p1.units = Careless Musketeer", "p2.units = Tiger Cub")
    st = do(st, "use careless-musketeer shoot target=opp:tiger-cub")
    assert stats(st, "bob", "Tiger Cub")[2] == 1 and base(st, "alice") == 19
    with pytest.raises(IllegalCommand, match="exhausted"):
        do(st, "use careless-musketeer shoot target=opp:base")
    st = red_green("p1.hand = Careless Musketeer")
    st = do(st, "play careless-musketeer")
    with pytest.raises(IllegalCommand, match="arrival fatigue"):
        do(st, "use careless-musketeer shoot target=opp:base")


def test_bloodrage_ogre_goes_home_unless_it_arrived_or_attacked():
    st = red_green("turn = 3", "p1.units = Bloodrage Ogre")
    st = do(st, "end")
    assert gone(st, "alice", "Bloodrage Ogre") and "Bloodrage Ogre" in hand_names(st, "alice")
    assert len(st.zones["hand:alice"].items) == 6, "it returns after the draw (ruling)"
    st = red_green("turn = 3", "p1.units = Bloodrage Ogre")
    st = do(st, "attack bloodrage-ogre opp:base")
    st = next_turn(st)
    assert not gone(st, "alice", "Bloodrage Ogre")
    st = next_turn(st)  # bob's turn ends: only its controller's end of turn counts (ruling)
    assert not gone(st, "alice", "Bloodrage Ogre")
    st = red_green("p1.hand = Bloodrage Ogre")
    st = do(st, "play bloodrage-ogre")
    st = do(st, "end")
    assert not gone(st, "alice", "Bloodrage Ogre")


def test_makeshift_rambaster_hits_buildings_harder_and_cannot_patrol():
    st = red_green("p1.hand = Makeshift Rambaster", "p2.units = Tiger Cub")
    st = do(st, "play makeshift-rambaster")
    assert stats(st, "alice", "Makeshift Rambaster")[0] == 1
    st = do(st, "attack makeshift-rambaster opp:base")
    assert base(st, "bob") == 17
    st = red_green("turn = 3", "p1.units = Makeshift Rambaster, Nautical Dog", "p2.units = Tiger Cub")
    st = do(st, "attack makeshift-rambaster opp:tiger-cub")
    assert stats(st, "bob", "Tiger Cub")[2] == 1
    st = red_green("turn = 3", "p1.units = Makeshift Rambaster, Nautical Dog")
    with pytest.raises(IllegalCommand, match="cannot patrol"):
        do(st, "end sl=makeshift-rambaster")
    assert not any("makeshift" in t for t in legal_texts(st) if t.startswith("end"))


def test_bloodburn_gathers_blood_runes_and_spends_two_for_1_damage():
    st = red_green("turn = 3", "p1.units = Bloodburn, Nautical Dog, Mad Man",
                   "p2.units = Tiger Cub dmg=1, Wisp, Merfolk Prospector", "p1.hand = Scorch", "p1.hero = 1")
    burn = thing(st, "alice", "Bloodburn")
    with pytest.raises(IllegalCommand, match="2 blood rune"):
        do(st, "use bloodburn burn target=opp:tiger-cub")
    st = do(st, "attack nautical-dog opp:tiger-cub")  # 2 ATK: both die
    assert st.things[burn].counters == {"blood": 2}
    st = do(st, "use bloodburn burn target=opp:wisp")
    assert gone(st, "bob", "Wisp") and st.things[burn].counters == {"blood": 1} and st.things[burn].exhausted
    st.things[burn].counters["blood"] = 3
    st = do(st, "attack mad-man opp:merfolk-prospector")  # both die: 5, at most 4
    assert st.things[burn].counters == {"blood": 4}
    st = red_green("p1.hand = Bloodburn")
    st = do(st, "play bloodburn")
    st.things[thing(st, "alice", "Bloodburn")].counters["blood"] = 2
    with pytest.raises(IllegalCommand, match="arrival fatigue"):
        do(st, "use bloodburn burn target=opp:base")


def test_an_upgrade_cannot_be_attacked():
    st = red_green("turn = 2", "p1.units = Bloodburn", "p2.units = Tiger Cub")
    with pytest.raises(IllegalCommand, match="upgrades"):
        do(st, "attack tiger-cub opp:bloodburn")


def test_scorch_hits_a_patroller_or_a_building():
    st = red_green("p1.hand = Scorch, Scorch", "p1.hero = 1", "p1.gold = 9", "p2.units = Tiger Cub, Ironbark Treant",
                   "p2.patrol = elite=tiger-cub", "p2.buildings = tech1")
    with pytest.raises(IllegalCommand, match="not a patroller or building"):
        do(st, "play scorch target=opp:ironbark-treant")
    st = do(st, "play scorch target=opp:tiger-cub")
    assert gone(st, "bob", "Tiger Cub")
    st = do(st, "play scorch target=opp:tech1")
    assert st.players["bob"].buildings["tech1"].damage == 2


def test_charge_gives_haste_and_1_atk_this_turn():
    st = start("p1.hand = Charge, Iron Man", "p1.hero = 1", "p1.gold = 9", "p1.buildings = tech1",
               p1="bashing", p2="finesse", p1_starter="red")
    st = do(st, "play iron-man")
    st = do(st, "play charge target=me:iron-man")
    assert stats(st, "alice", "Iron Man")[0] == 4
    st = do(st, "attack iron-man opp:base")
    assert base(st, "bob") == 16
    st = do(st, "end")
    assert stats(st, "alice", "Iron Man")[0] == 3


def test_pillage_and_red_minor_spells_cost_1_more_without_a_red_hero():
    st = red_green("p1.hand = Pillage, Pillage", "p1.hero = 1", "p1.gold = 0", "p2.gold = 1")
    assert st.players["alice"].gold == 4
    st = do(st, "play pillage target=opp:base")
    assert base(st, "bob") == 19 and st.players["bob"].gold == 0 and st.players["alice"].gold == 4 - 2 + 1
    st = red_green("p1.hand = Pillage", "p1.hero = 1", "p1.units = Bombaster", "p2.gold = 5")
    st = do(st, "play pillage target=opp:base")
    assert base(st, "bob") == 18 and st.players["bob"].gold == 3  # a Pirate: 2 and 2
    st = red_green("p1.hand = Pillage", "p1.hero = 1", "p2.gold = 0")
    st = do(st, "play pillage target=opp:base")
    assert st.players["alice"].gold == 4 - 2, "no more gold than the player has (ruling)"


def test_pirate_and_shark_tokens():
    st = red_green("turn = 3", "p1.units = Pirate, Shark")
    assert stats(st, "alice", "Pirate")[:2] == (2, 2)
    st = do(st, "attack shark opp:base")
    assert base(st, "bob") == 17
    st = do(st, "end")
    assert gone(st, "alice", "Shark") and not gone(st, "alice", "Pirate"), "ephemeral: dies at the end of the turn"


# --- green --------------------------------------------------------------------------------


def test_merfolk_prospector_exhausts_for_gold():
    st = red_green("turn = 2", "p2.units = Merfolk Prospector")
    gold = st.players["bob"].gold
    st = do(st, "use merfolk-prospector prospect")
    assert st.players["bob"].gold == gold + 1


def test_tiger_cub_has_no_ability():
    st = red_green("turn = 2", "p2.units = Tiger Cub")
    assert stats(st, "bob", "Tiger Cub")[:2] == (2, 2)
    assert values.keywords(st, thing(st, "bob", "Tiger Cub")) == {}


def test_young_treant_draws_on_arrival_and_cannot_attack():
    st = red_green("turn = 2", "p2.hand = Young Treant", "p2.deck = Rich Earth")
    st = do(st, "play young-treant")
    assert hand_names(st, "bob") == ["Rich Earth"]
    st.things[thing(st, "bob", "Young Treant")].since = 0
    with pytest.raises(IllegalCommand, match="cannot attack"):
        do(st, "attack young-treant opp:base")


def test_playful_panda_arrives_exhausted_with_a_wisp():
    st = red_green("turn = 2", "p2.hand = Playful Panda")
    st = do(st, "play playful-panda")
    panda = thing(st, "bob", "Playful Panda")
    assert st.things[panda].exhausted and stats(st, "bob", "Wisp")[:2] == (0, 1)


def test_ironbark_treant_patrols_with_2_armor_and_2_less_atk():
    st = red_green("turn = 3", "p2.units = Ironbark Treant", "p2.patrol = sl=ironbark-treant",
                   "p1.units = Iron Man", "p1.buildings = tech1")
    assert stats(st, "bob", "Ironbark Treant")[0] == 1
    tree = thing(st, "bob", "Ironbark Treant")
    assert values.armor_left(st, tree) == 3  # 2 of its own, 1 as squad leader
    st = do(st, "attack iron-man opp:sl")
    assert stats(st, "bob", "Ironbark Treant")[2] == 0 and stats(st, "alice", "Iron Man")[2] == 1
    st = red_green("turn = 2", "p2.units = Ironbark Treant")
    assert stats(st, "bob", "Ironbark Treant")[0] == 3


def test_spore_shambler_moves_its_runes():
    st = red_green("turn = 2", "p2.hand = Spore Shambler", "p2.units = Tiger Cub", "p2.gold = 9")
    st = do(st, "play spore-shambler")
    assert stats(st, "bob", "Spore Shambler")[:2] == (2, 3)
    st = do(st, "use spore-shambler spread target=me:tiger-cub by=gold")
    assert stats(st, "bob", "Tiger Cub")[:2] == (3, 3) and stats(st, "bob", "Spore Shambler")[:2] == (1, 2)
    shambler = thing(st, "bob", "Spore Shambler")
    assert not st.things[shambler].exhausted
    with pytest.raises(IllegalCommand, match="arrival fatigue"):
        do(st, "use spore-shambler spread target=me:tiger-cub by=exhaust")
    with pytest.raises(InvalidCommand, match="gold or exhaust"):
        GAME.presentation.parse("use spore-shambler spread target=me:tiger-cub by=magic", st, "bob")
    st.things[shambler].damage = 1
    st = do(st, "use spore-shambler spread target=me:tiger-cub by=gold")
    assert gone(st, "bob", "Spore Shambler"), "removing the rune can kill it (ruling)"


def test_verdant_tree_is_a_building_that_heals_and_builds_at_once():
    st = red_green("turn = 4", "tech = yes", "p2.units = Verdant Tree, Tiger Cub dmg=1", "p2.base_workers = 10",
                   "p2.gold = 20")
    st = do(st, "tech none")
    assert stats(st, "bob", "Tiger Cub")[2] == 0, "healing 1"
    st = do(st, "use verdant-tree hasten")
    st = do(st, "build tech1")
    st = do(st, "build tech2")
    st = do(st, "build tech3")
    assert all(engine.building_done(st, "bob", k) for k in ("tech1", "tech2", "tech3"))
    st = red_green("turn = 3", "p2.units = Verdant Tree", "p1.units = Nautical Dog")
    st = do(st, "attack nautical-dog opp:verdant-tree")
    tree = thing(st, "bob", "Verdant Tree")
    assert st.things[tree].damage == 2
    st = next_turn(next_turn(st))
    st.things[tree].damage = 2
    st = do(st, "attack nautical-dog opp:verdant-tree")
    assert gone(st, "bob", "Verdant Tree") and "Verdant Tree" in [it.card for it in st.zones["discard:bob"].items]
    assert base(st, "bob") == 20, "a building card is no tech building: no damage to the base"


def test_rich_earth_makes_hiring_free_once_a_turn():
    st = red_green("turn = 2", "p2.units = Rich Earth", "p2.hand = Tiger Cub, Young Treant")
    gold = st.players["bob"].gold
    st = do(st, "hire tiger-cub")
    assert st.players["bob"].gold == gold and engine.worker_count(st, "bob") == 6
    with pytest.raises(IllegalCommand, match="already hired"):
        do(st, "hire young-treant")


def test_rampant_growth_gives_2_atk_and_2_armor_this_turn():
    st = red_green("turn = 2", "p2.hand = Rampant Growth", "p2.hero = 1", "p2.units = Tiger Cub",
                   "p1.units = Nautical Dog")
    st = do(st, "play rampant-growth target=me:tiger-cub")
    cub = thing(st, "bob", "Tiger Cub")
    assert stats(st, "bob", "Tiger Cub")[0] == 4 and values.armor_left(st, cub) == 2
    st.things[cub].since = 0
    st = do(st, "attack tiger-cub opp:nautical-dog")
    assert stats(st, "bob", "Tiger Cub")[2] == 0 and values.armor_left(st, cub) == 1
    st = do(st, "end")
    assert stats(st, "bob", "Tiger Cub")[0] == 2 and values.armor_left(st, cub) == 0, "the armor left goes (ruling)"


def test_forests_favor_needs_a_friendly_target_without_a_plus_rune():
    st = red_green("turn = 2", "p2.hand = Forest's Favor", "p2.hero = 1", "p2.units = Tiger Cub runes=1, Wisp",
                   "p1.units = Nautical Dog")
    with pytest.raises(IllegalCommand):
        do(st, "play forest-s-favor target=me:tiger-cub")
    with pytest.raises(IllegalCommand):
        do(st, "play forests-favor target=opp:nautical-dog")
    st = do(st, "play forests-favor target=me:wisp")
    assert stats(st, "bob", "Wisp")[:2] == (1, 2)


@pytest.mark.parametrize("name", ["Wisp", "Hunter", "Beast", "Frog", "Squirrel", "Pirate", "Shark"])
def test_every_token_of_the_two_colours_arrives(name):
    st = red_green()
    ref = engine.make_token(st, "alice", name)
    c = cards.CARDS[name]
    assert st.things[ref].card == name and (values.atk(st, ref), values.hp(st, ref)) == (c.atk, c.hp)
    assert c.type == "token"
    if name == "Hunter":
        assert values.has(st, ref, "anti_air")


def test_both_starter_decks_are_written_whole():
    for colour in ("red", "green"):
        assert cards.starter_ready(colour) and len(cards.starter(colour)) == 10
        for name in cards.starter(colour):
            assert cards.describe(name) and cards.CARDS[name].tech == 0
