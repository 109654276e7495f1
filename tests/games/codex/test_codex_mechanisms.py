"""General mechanisms of the effects engine that the red cards brought,
each tested with test cards of its own (the red cards' own tests are in
test_codex_anarchy.py, test_codex_blood.py and test_codex_fire.py)."""

from __future__ import annotations

import pytest

from codex_helpers import GAME, TopChance, base, do, gone, hand_names, legal_texts, red_green, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import cards, engine

RED_TEST_CARDS = {
    "Test Furnace": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your red damage is 1 higher.",
                     "abilities": [{"static": {"damage_boost": 1, "sources": {"colour": "red"}}}]},
    "Test Mourner": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1, "text": "A test unit: 1 gold a unit death.",
                     "abilities": [{"on": "unit_dies", "itself": True, "do": [{"gold": 1}]}]},
    "Test Grudge": {"type": "unit", "tech": 0, "cost": 0, "atk": 3, "hp": 1, "text": "A test unit: 2 gold a kill.",
                    "abilities": [{"on": "kills", "do": [{"gold": 2}]}]},
    "Test Doom": {"type": "spell", "cost": 0, "text": "A test spell: destroy every unit.",
                  "do": [{"destroy": {"each": {"kinds": ["unit"]}}}]},
    "Test Homebody": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1, "text": "A test unit: home at each turn's end.",
                      "abilities": [{"on": "end_of_each_turn", "do": [{"bounce": "self"}]}]},
    "Test Banner": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1,
                    "text": "A test unit: your units have 'dies: 1 damage to each opposing base'.",
                    "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"]}, "grant": ["salute"]}},
                                  {"key": "salute", "on": "dies", "granted": True, "do": [{"damage": 1, "to": "base:opp"}]}]},
    "Test Frenzy": {"type": "spell", "cost": 0, "text": "A test spell: a unit +1 ATK this turn, 1 damage at its end.",
                    "targets": [{"what": "a unit", "pick": {"kinds": ["unit"]}}],
                    "do": [{"give": {"atk": 1, "grant": ["sting"]}, "to": "t0", "until": "turn"}],
                    "abilities": [{"key": "sting", "on": "end_of_each_turn", "granted": True,
                                   "do": [{"damage": 1, "to": "self"}]}]},
    "Test Kidnap": {"type": "spell", "cost": 0, "text": "A test spell: take an opposing unit this turn, ready, with haste.",
                    "targets": [{"what": "an opposing unit", "pick": {"kinds": ["unit"], "side": "theirs"}}],
                    "do": [{"take": "t0", "until": "turn"}, {"ready": "t0"},
                           {"give": {"keywords": {"haste": 1}}, "to": "t0", "until": "turn"}]},
    "Test Mirror": {"type": "spell", "cost": 0, "text": "A test spell: two units or heroes swap printed ATK this turn.",
                    "targets": [{"what": "a unit or hero", "pick": {"kinds": ["unit", "hero"]}, "aim": False},
                                {"what": "another", "pick": {"kinds": ["unit", "hero"]}, "aim": False, "distinct": True}],
                    "do": [{"swap_printed": "atk", "among": ["t0", "t1"], "until": "turn"}]},
    "Test Seer": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1,
                  "text": "A test unit: exhaust, and if you cast a spell this turn, sideline a patroller.",
                  "abilities": [{"use": "glimpse", "cost": {"exhaust": True},
                                 "targets": [{"what": "a patroller", "pick": {"patrolling": True},
                                              "if": {"flag": "spell_cast"}}],
                                 "do": [{"sideline": "t0"}]}]},
    "Test Shover": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1,
                    "text": "A test unit: exhaust, shove a patroller to an empty slot, 1 damage to it.",
                    "abilities": [{"use": "shove", "cost": {"exhaust": True},
                                   "targets": [{"what": "a patroller", "pick": {"patrolling": True}},
                                               {"what": "an empty slot of its patrol zone", "slot_of": "t0"}],
                                   "do": [{"shove": "t0", "to": "t1"}, {"damage": 1, "to": "t0"}]},
                                  {"on": "arrives", "targets": [{"what": "a patroller", "pick": {"patrolling": True}},
                                                                {"what": "an empty slot", "slot_of": "t0"}],
                                   "do": [{"shove": "t0", "to": "t1"}]}]},
    "Test Recruiter": {"type": "unit", "tech": 1, "cost": 0, "atk": 3, "hp": 2,
                       "text": "A test unit: surviving its combat, it takes an opposing tech 0 unit.",
                       "abilities": [{"on": "survives_combat",
                                      "targets": [{"what": "a tech 0 unit", "pick": {"kinds": ["unit"], "tech": [0]}}],
                                      "do": [{"take": "t0"}]}]},
    "Test Asylum": {"type": "upgrade", "tech": 0, "cost": 0,
                    "text": "A test upgrade: exhaust, draw a card, then put up to two tech 0-II units of your hand into play.",
                    "abilities": [{"use": "admit", "cost": {"exhaust": True}, "do": [{"draw": 1}, {"queue": "in"}]},
                                  {"key": "in", "targets": [
                                      {"what": "a unit of your hand", "from": ["hand"], "optional": True, "pick": {"types": ["unit"], "tech": [0, 1, 2]}},
                                      {"what": "another", "from": ["hand"], "optional": True, "pick": {"types": ["unit"], "tech": [0, 1, 2]},
                                       "distinct": True}],
                                   "do": [{"put_in_play": "t0"}, {"put_in_play": "t1"},
                                          {"give": {"keywords": {"haste": 1, "ephemeral": 1}}, "to": "t0", "until": ""},
                                          {"give": {"keywords": {"haste": 1, "ephemeral": 1}}, "to": "t1", "until": ""}]}]},
    "Test Muster": {"type": "upgrade", "tech": 0, "cost": 0,
                    "text": "A test upgrade: exhaust to put a unit of your hand or codex into play.",
                    "abilities": [{"use": "muster", "cost": {"exhaust": True}, "do": [{"queue": "in"}]},
                                  {"key": "in", "targets": [{"what": "a unit of your hand or codex",
                                                             "from": ["hand", "codex"], "pick": {"types": ["unit"]}}],
                                   "do": [{"put_in_play": "t0"}]}]},
    "Test Caster": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1,
                    "text": "A test unit: arriving, cast a non-ultimate spell of your hand or codex for free.",
                    "abilities": [{"on": "arrives", "targets": [
                        {"what": "a spell of your hand or codex", "from": ["hand", "codex"], "optional": True,
                         "pick": {"types": ["spell"], "ultimate": False}}], "do": [{"cast": "t0", "free": True}]}]},
    "Test Despair": {"type": "spell", "cost": 0, "text": "A test spell: with an empty hand, trash it and draw 3; discard your hand at the end of the main phase.",
                     "do": [{"if": {"hand_empty": True}, "then": [{"trash": "self"}, {"draw": 3}]},
                            {"player": "discard_hand"}]},
    "Test Drums": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your units +1 ATK per unit you control.",
                   "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"]},
                                             "atk_per": {"count": {"side": "mine", "kinds": ["unit"]}}}}]},
    "Test Boss": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your Bashing tech I units are free and need no tech building.",
                  "abilities": [{"static": {"plays": {"types": ["unit"], "spec": "Bashing", "tech": [1]},
                                            "cost": {"set": 0}, "no_tech": True}}]},
    "Test Drummer": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1,
                     "text": "A test unit: the first unit arriving from your hand each turn gets haste.",
                     "abilities": [{"on": "other_arrives", "who": {"side": "mine", "kinds": ["unit"]},
                                    "if": {"from_hand": "first"},
                                    "do": [{"give": {"keywords": {"haste": 1}}, "to": "subject", "until": ""}]}]},
    "Test Mine": {"type": "upgrade", "tech": 0, "cost": 0,
                  "text": "A test upgrade: exhaust, 3 gold and a coin; tails, it goes and your base takes 2.",
                  "abilities": [{"use": "dig", "cost": {"exhaust": True},
                                 "do": [{"gold": 3}, {"coin": True, "tails": [{"sacrifice": "self"},
                                                                             {"damage": 2, "to": "base:me"}]}]}]},
    "Test Glutton": {"type": "unit", "tech": 0, "cost": 0, "atk": 5, "hp": 5,
                     "text": "A test unit: each upkeep, trash a worker or sacrifice it.",
                     "abilities": [{"on": "upkeep", "may": True, "ask": "trash a worker to keep it",
                                    "do": [{"trash_worker": 1, "from": "me"}], "else": [{"sacrifice": "self"}]}]},
    "Test Taxer": {"type": "unit", "tech": 0, "cost": 0, "atk": 4, "hp": 4,
                   "text": "A test unit: killing a patroller, it takes 1 gold from that player.",
                   "abilities": [{"on": "kills", "if": {"slot": True}, "do": [{"steal": 1, "from": "player"}]}]},
    "Test Fish": {"type": "token", "colour": "blue", "atk": 1, "hp": 1, "text": "A blue test token a red card makes."},
    "Test Assassin": {"type": "unit", "tech": 0, "cost": 0, "atk": 2, "hp": 2,
                      "text": "A test unit: attacking, it destroys what it attacks first.",
                      "abilities": [{"on": "attacks", "do": [{"destroy": "attacked"}]}]},
    "Test Sparks": {"type": "spell", "cost": 0, "text": "A test spell: 3 damage divided among up to two units.",
                    "targets": [{"what": "a unit", "pick": {"kinds": ["unit"]}},
                                {"what": "another unit", "pick": {"kinds": ["unit"]}, "distinct": True, "optional": True}],
                    "do": [{"split_damage": 3, "among": ["t0", "t1"]}]},
}


@pytest.fixture(autouse=True, scope="module")
def test_cards():
    names = cards.add("red", RED_TEST_CARDS)
    yield
    cards.remove(names)


# --- a damage boost ----------------------------------------------------------------------


def test_a_damage_boost_adds_to_its_controllers_spells_and_abilities_of_the_cards_it_names():
    st = red_green("turn = 3", "p1.units = Test Furnace, Careless Musketeer, Nautical Dog", "p1.hero = 1",
                   "p1.hand = Scorch", "p1.gold = 10", "p2.units = Ironbark Treant, Tiger Cub, Young Treant",
                   "p2.patrol = sl=tiger-cub")
    st = do(st, "play scorch target=opp:sl")
    assert gone(st, "bob", "Tiger Cub"), "3 damage: the squad leader's armor took 1, its 2 HP the rest"
    st = do(st, "use careless-musketeer shoot target=opp:base")
    assert base(st, "bob") == 18 and base(st, "alice") == 18, "both parts boosted"
    st = do(st, "attack nautical-dog opp:base")
    assert base(st, "bob") == 16, "combat damage is not boosted"


def test_damage_boosts_add_up_and_are_their_controllers_only():
    st = red_green("turn = 3", "p1.units = Test Furnace, Test Furnace", "p1.hero = 1", "p1.hand = Scorch",
                   "p1.gold = 10", "p2.units = Test Furnace", "p2.buildings = tech1")
    st = do(st, "play scorch target=opp:tech1")
    assert st.players["bob"].buildings["tech1"].damage == 4
    st = red_green("turn = 3", "p1.hero = 1", "p1.hand = Scorch", "p1.gold = 10", "p2.units = Test Furnace",
                   "p2.buildings = tech1")
    st = do(st, "play scorch target=opp:tech1")
    assert st.players["bob"].buildings["tech1"].damage == 2, "the opponent's boost does not help me"


def test_a_boosted_split_divides_the_greater_total():
    st = red_green("p1.units = Test Furnace", "p1.hero = 1", "p1.hand = Test Sparks, Test Sparks",
                   "p2.units = Ironbark Treant, Tiger Cub")
    with pytest.raises(IllegalCommand, match="divide 4 damage"):
        do(st, "play test-sparks target=opp:ironbark-treant,opp:tiger-cub split=2,1")
    st = do(st, "play test-sparks target=opp:ironbark-treant,opp:tiger-cub split=1,3")
    assert stats(st, "bob", "Ironbark Treant")[2] == 1 and gone(st, "bob", "Tiger Cub")
    assert "play test-sparks target=opp:ironbark-treant,none split=4,0" in legal_texts(st)


# --- things that die together see each other die -----------------------------------------


def test_things_dying_together_see_each_other_die():
    st = red_green("p1.units = Test Mourner, Nautical Dog", "p1.hero = 1", "p1.hand = Test Doom",
                   "p2.units = Tiger Cub", "p1.gold = 0")
    gold = st.players["alice"].gold - 1  # a red minor spell, no red hero: 1 gold
    st = do(st, "play test-doom")
    assert st.players["alice"].gold == gold + 3, "the dog, the cub, and the mourner itself"


def test_a_killer_killed_back_still_kills():
    st = red_green("turn = 3", "p1.units = Test Grudge", "p2.units = Tiger Cub", "p2.patrol = elite=tiger-cub",
                   "p1.gold = 0")
    gold = st.players["alice"].gold
    st = do(st, "attack test-grudge opp:tiger-cub")
    assert gone(st, "alice", "Test Grudge") and gone(st, "bob", "Tiger Cub")
    assert st.players["alice"].gold == gold + 2


# --- the end of every turn, whoever's it is ------------------------------------------------


def test_end_of_each_turn_wakes_the_cards_of_both_sides():
    st = red_green("p1.units = Test Homebody", "p2.units = Test Homebody")
    st = do(st, "end")
    assert gone(st, "alice", "Test Homebody") and gone(st, "bob", "Test Homebody")
    assert "Test Homebody" in hand_names(st, "alice") and "Test Homebody" in hand_names(st, "bob")


# --- abilities given to others --------------------------------------------------------------


def test_a_continuous_effect_gives_a_trigger_even_to_things_dying_with_its_source():
    st = red_green("p1.units = Test Banner, Nautical Dog", "p1.hero = 1", "p1.hand = Test Doom",
                   "p2.units = Tiger Cub")
    st = do(st, "play test-doom")
    assert base(st, "bob") == 18, "the dog's and the banner's own: they died together"
    st = red_green("turn = 3", "p1.units = Test Banner, Nautical Dog", "p2.units = Ironbark Treant")
    st = do(st, "attack nautical-dog opp:ironbark-treant")
    assert base(st, "bob") == 19 and gone(st, "bob", "Ironbark Treant"), "the treant has nothing from my banner"


def test_a_modifier_gives_a_trigger_for_as_long_as_it_lasts():
    st = red_green("p1.hero = 1", "p1.hand = Test Frenzy", "p2.units = Ironbark Treant")
    st = do(st, "play test-frenzy target=opp:ironbark-treant")
    assert stats(st, "bob", "Ironbark Treant") == (4, 2, 0)
    st = do(st, "end")
    assert stats(st, "bob", "Ironbark Treant") == (3, 2, 1), "hit at the end of the turn, whoever controls it"
    st = do(st, "end")
    assert stats(st, "bob", "Ironbark Treant")[2] == 1, "once: the modifier is gone"


# --- control for a while --------------------------------------------------------------------


def test_control_taken_until_the_end_of_the_turn_goes_back():
    st = red_green("turn = 3", "p1.hero = 1", "p1.hand = Test Kidnap", "p2.units = Tiger Cub exhausted, Young Treant")
    st = do(st, "play test-kidnap target=opp:tiger-cub")
    cub = thing(st, "alice", "Tiger Cub")
    st = do(st, "attack tiger-cub opp:base")
    assert base(st, "bob") == 18
    st = do(st, "end")
    assert st.things[cub].controller == "bob" and st.things[cub].owner == "bob"
    assert st.things[cub].returns_to == ""


def test_control_taken_for_a_while_dies_to_its_owners_discard_pile():
    st = red_green("turn = 3", "p1.hero = 1", "p1.hand = Test Kidnap", "p2.units = Tiger Cub, Tiger Cub",
                   "p2.patrol = sl=tiger-cub")
    st = do(st, "play test-kidnap target=opp:tiger-cub.2")  # the one not patrolling
    st = do(st, "attack tiger-cub opp:sl")
    assert gone(st, "alice", "Tiger Cub") and "Tiger Cub" in [it.card for it in st.zones["discard:bob"].items]


# --- printed values for a while ---------------------------------------------------------------


def test_printed_atk_swapped_for_the_turn_keeps_runes_and_other_bonuses():
    st = red_green("p1.hero = 1", "p1.hand = Test Mirror", "p1.units = Nautical Dog runes=1",
                   "p2.units = Ironbark Treant")
    assert stats(st, "alice", "Nautical Dog")[0] == 3  # 1 printed, +1 rune, +1 frenzy
    st = do(st, "play test-mirror target=me:nautical-dog,opp:ironbark-treant")
    assert stats(st, "alice", "Nautical Dog")[0] == 5 and stats(st, "bob", "Ironbark Treant")[0] == 1
    st = do(st, "end")
    assert stats(st, "alice", "Nautical Dog")[0] == 2 and stats(st, "bob", "Ironbark Treant")[0] == 3


# --- a target only while a condition holds ----------------------------------------------------


def test_a_part_with_a_condition_offers_nothing_while_it_fails():
    st = red_green("turn = 3", "p1.hero = 1", "p1.units = Test Seer, Test Seer", "p1.hand = Pillage",
                   "p2.units = Tiger Cub", "p2.patrol = sl=tiger-cub")
    with pytest.raises(IllegalCommand, match="its condition does not hold"):
        do(st, "use test-seer target=opp:sl")
    st = do(st, "use test-seer target=none")
    assert st.patrol["bob"][0], "used for nothing: no spell cast this turn"
    st = do(st, "play pillage target=opp:base")
    st = do(st, "use test-seer.2 target=opp:sl")
    assert not st.patrol["bob"][0]


# --- a slot of a patrol zone as a choice ------------------------------------------------------


def test_a_patroller_is_shoved_to_an_empty_slot_of_its_patrol_zone():
    st = red_green("turn = 3", "p1.units = Test Shover", "p2.units = Tiger Cub, Young Treant",
                   "p2.patrol = sl=tiger-cub elite=young-treant")
    cub = thing(st, "bob", "Tiger Cub")
    with pytest.raises(IllegalCommand, match="elite is not one"):
        do(st, "use test-shover target=opp:sl,elite")
    st = do(st, "use test-shover target=opp:sl,scavenger")
    assert st.patrol["bob"][2] == cub and not st.patrol["bob"][0] and stats(st, "bob", "Tiger Cub")[2] == 1
    st = red_green("turn = 3", "p1.units = Test Shover", "p2.units = Tiger Cub", "p2.patrol = elite=tiger-cub")
    assert "use test-shover shove target=opp:tiger-cub,lookout" in legal_texts(st)


def test_a_full_patrol_zone_leaves_nowhere_to_shove_but_the_rest_happens():
    st = red_green("p1.hand = Test Shover", "p2.units = Tiger Cub, Young Treant, Wisp, Wisp, Tiger Cub",
                   "p2.patrol = sl=tiger-cub elite=young-treant scavenger=wisp technician=wisp lookout=tiger-cub")
    with pytest.raises(IllegalCommand, match="scavenger is not one"):
        do(st, "play test-shover target=opp:elite,scavenger")
    st = do(st, "play test-shover target=opp:elite,none")
    assert st.patrol["bob"][1] == thing(st, "bob", "Young Treant")


# --- after an attack's combat -----------------------------------------------------------------


def test_an_attacker_that_survives_its_combat_has_its_triggers_then():
    st = red_green("turn = 3", "p1.units = Test Recruiter, Test Recruiter", "p2.units = Tiger Cub, Young Treant",
                   "p2.patrol = sl=young-treant")
    st = do(st, "attack test-recruiter opp:sl")  # the treant died: the cub is the only choice
    assert thing(st, "alice", "Tiger Cub") and gone(st, "bob", "Tiger Cub")
    st = red_green("turn = 3", "p1.units = Test Recruiter", "p2.units = Tiger Cub, Young Treant",
                   "p2.patrol = sl=tiger-cub")
    st = do(st, "attack test-recruiter opp:sl")
    assert gone(st, "alice", "Test Recruiter") and not gone(st, "bob", "Young Treant"), "it died: nothing"


# --- cards of one's own hand or codex as choices ----------------------------------------------


def test_units_put_into_play_from_hand_after_a_draw_asked_without_showing_the_hand():
    st = red_green("turn = 3", "p1.units = Test Asylum", "p1.hand = Mad Man, Bombaster, Scorch",
                   "p1.deck = Nautical Dog")
    st = do(st, "use test-asylum admit")
    assert st.prompt is not None and st.prompt.kind == "card" and st.prompt.options == []
    assert "Nautical Dog" in hand_names(st, "alice"), "the draw came first"
    assert "Bombaster" not in GAME.view(st, "bob").prompt and "Mad Man" not in GAME.view(st, "bob").prompt
    assert sorted(legal_texts(st)) == ["choose hand:bombaster", "choose hand:mad-man", "choose hand:nautical-dog",
                                       "choose none"]
    for bad, why in (("hand:scorch", "Scorch is not a unit of your hand"), ("opp:base", "not a card of your hand")):
        with pytest.raises(IllegalCommand, match=why):
            do(st, f"choose {bad}")
    st = do(st, "choose hand:nautical-dog")
    assert "choose hand:nautical-dog" not in legal_texts(st), "the second must be another card"
    st = do(st, "choose hand:bombaster")
    for name in ("Nautical Dog", "Bombaster"):
        assert engine.has(st, thing(st, "alice", name), "haste") and engine.has(st, thing(st, "alice", name), "ephemeral")
    st = do(st, "attack nautical-dog opp:base")
    st = do(st, "end")
    assert gone(st, "alice", "Nautical Dog") and gone(st, "alice", "Bombaster"), "ephemeral"
    st = red_green("turn = 3", "p1.units = Test Asylum", "p1.hand = Mad Man")
    st = do(st, "use test-asylum admit choose=none")
    assert st.prompt is None and len(hand_names(st, "alice")) == 2, "up to two: none ends it"


def test_a_spell_cast_for_free_from_the_codex_asks_its_own_targets_then():
    st = red_green("p1.hero = 1", "p1.hand = Test Caster", "p2.buildings = tech1")
    gold = st.players["alice"].gold
    st = do(st, "play test-caster target=codex:wrecking-ball choose=opp:tech1")
    assert st.players["bob"].buildings["tech1"].damage == 2 and st.players["alice"].gold == gold
    assert "Wrecking Ball" in [it.card for it in st.zones["discard:alice"].items]
    assert [it.card for it in st.zones["codex:alice"].items].count("Wrecking Ball") == 1


def test_a_divided_spell_cast_for_free_asks_how_to_divide():
    st = red_green("p1.hand = Test Caster, Test Sparks", "p2.units = Ironbark Treant, Tiger Cub")
    st = do(st, "play test-caster target=hand:test-sparks choose=opp:ironbark-treant;opp:tiger-cub")
    assert st.prompt is not None and st.prompt.kind == "split" and st.prompt.options == ["1,2", "2,1"]
    st = do(st, "choose 1,2")
    assert gone(st, "bob", "Tiger Cub") and stats(st, "bob", "Ironbark Treant")[2] == 1


# --- a spell that trashes itself; a hand discarded at the end of the main phase -----------------


def test_a_spell_that_trashes_itself_and_a_hand_discarded_before_the_draw_phase():
    st = red_green("p1.hero = 1", "p1.hand = Test Despair", "p1.deck = Mad Man, Scorch, Bombaster, Pillage")
    st = do(st, "play test-despair")
    assert hand_names(st, "alice") == ["Bombaster", "Mad Man", "Scorch"]
    assert "Test Despair" in [it.card for it in st.zones["trash:alice"].items]
    st = do(st, "end")
    assert len(st.zones["hand:alice"].items) == 2, "the hand went before the draw phase: 0 discarded, 2 drawn"
    st = red_green("p1.hero = 1", "p1.hand = Test Despair, Mad Man")
    st = do(st, "play test-despair")
    assert hand_names(st, "alice") == ["Mad Man"] and "Test Despair" in [it.card for it in st.zones["discard:alice"].items]


# --- ATK by a count -----------------------------------------------------------------------------


def test_atk_grows_with_the_count_a_selector_takes():
    st = red_green("p1.units = Test Drums, Mad Man, Bloodrage Ogre", "p1.hero = 1", "p2.units = Tiger Cub")
    assert stats(st, "alice", "Mad Man")[0] == 3 and stats(st, "alice", "Bloodrage Ogre")[0] == 5
    assert stats(st, "bob", "Tiger Cub")[0] == 2 and engine.atk(st, thing(st, "alice", "Troq Bashar")) == 2


# --- cards played without their tech building ---------------------------------------------------


def test_a_continuous_effect_lets_some_cards_be_played_without_their_tech_building():
    st = red_green("p1.hand = Iron Man, Hired Stomper", "p1.units = Test Boss", "p1.gold = 0")
    st = do(st, "play iron-man")
    assert thing(st, "alice", "Iron Man") and st.players["alice"].gold == 4
    with pytest.raises(IllegalCommand, match="needs a finished Tech II"):
        do(st, "play hired-stomper target=me:iron-man")


# --- the first unit arriving from hand -----------------------------------------------------------


def test_only_the_first_unit_arriving_from_hand_each_turn_is_told_so():
    st = red_green("p1.hero = 1", "p1.hand = Bombaster, Bombaster", "p1.units = Test Drummer",
                   "p1.gold = 10")
    st = do(st, "play bombaster")
    first = thing(st, "alice", "Bombaster")
    assert engine.has(st, first, "haste")
    st = do(st, "play bombaster")
    assert [engine.has(st, r, "haste") for r in engine.controls(st, "alice", "Bombaster")] == [True, False]


# --- a coin ---------------------------------------------------------------------------------------


class Coin(TopChance):
    """Public chance that always gives `side` (0 heads, 1 tails)."""

    def __init__(self, side: int) -> None:
        super().__init__(0)
        self.side = side

    def below(self, n: int) -> int:
        return self.side


@pytest.mark.parametrize("side", [0, 1])
def test_a_coin_is_public_chance(side):
    st = red_green("turn = 3", "p1.units = Test Mine", "p1.gold = 0")
    cmd = GAME.presentation.parse("use test-mine dig", st, "alice")
    st = GAME.apply(st, "alice", cmd, Coin(side))
    assert st.players["alice"].gold == 4 + 3
    assert gone(st, "alice", "Test Mine") == bool(side) and base(st, "alice") == 20 - 2 * side
    assert ("the coin shows tails" if side else "the coin shows heads") in st.log


# --- "you may ... or else" --------------------------------------------------------------------------


def test_a_you_may_declined_does_what_it_says_instead():
    st = red_green("turn = 3", "p1.units = Test Glutton")
    assert st.prompt is not None and st.prompt.options == ["yes", "no"]
    kept = do(st, "choose yes")
    assert not gone(kept, "alice", "Test Glutton") and engine.worker_count(kept, "alice") == 3
    lost = do(st, "choose no")
    assert gone(lost, "alice", "Test Glutton") and engine.worker_count(lost, "alice") == 4


# --- the player an event is about --------------------------------------------------------------------


def test_an_effect_acts_on_the_player_its_event_is_about():
    st = red_green("turn = 3", "p1.units = Test Taxer", "p2.units = Tiger Cub", "p2.patrol = elite=tiger-cub",
                   "p1.gold = 0", "p2.gold = 3")
    st = do(st, "attack test-taxer opp:tiger-cub")
    assert st.players["bob"].gold == 2 and st.players["alice"].gold == 5


# --- a card of another colour than its file ------------------------------------------------------------


def test_a_card_may_have_another_colour_than_its_file():
    assert cards.CARDS["Test Fish"].colour == "blue" and cards.CARDS["Test Sparks"].colour == "red"


# --- a new target when the attacked thing is gone before the combat ---------------------------------------


def test_an_attacker_whose_target_is_gone_before_the_combat_may_attack_something_else():
    st = red_green("turn = 3", "p1.units = Test Assassin", "p2.units = Tiger Cub, Young Treant")
    st = do(st, "attack test-assassin opp:tiger-cub")
    assert gone(st, "bob", "Tiger Cub") and st.prompt is not None
    assert sorted(st.prompt.options) == sorted(["", thing(st, "bob", "Young Treant"), "bob:base"])
    st = do(st, "choose opp:base")
    assert base(st, "bob") == 18
    st = red_green("turn = 3", "p1.units = Test Assassin", "p2.units = Tiger Cub")
    st = do(st, "attack test-assassin opp:tiger-cub choose=none")
    assert base(st, "bob") == 20 and st.prompt is None


def test_a_card_question_lists_a_card_of_the_hand_and_its_codex_copy_apart_none_only_if_optional():
    st = start("turn = 3", "p1.units = Test Muster", "p1.hand = Tiger Cub", "p1.codex = Tiger Cub, Iron Man",
               p1="bashing", p2="finesse")
    st = do(st, "use test-muster")
    assert st.prompt.kind == "card"
    assert set(legal_texts(st)) == {"choose hand:tiger-cub", "choose codex:tiger-cub", "choose codex:iron-man"}
    st = do(st, "choose codex:tiger-cub")
    assert thing(st, "alice", "Tiger Cub") and "Tiger Cub" in [it.card for it in st.zones["hand:alice"].items]
