"""General mechanisms of the continuous-effects pass (`values`), with
test-only cards: the order of effects whose selectors read the thing they
judge, ... (the green cards that use them are tested card by card in
test_codex_balance/feral/growth)."""

from __future__ import annotations

import pytest

from codex_helpers import CH, GAME, base, do, gone, legal_texts, next_turn, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import board, cards, engine, values
from pbem.games.codex.state import Mod

TEST_CARDS = {
    "Test Shroud": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your units with 3 ATK or less have stealth.",
                    "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"], "atk_max": 3}, "keywords": {"stealth": 1}}}]},
    "Test Mentor": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your units with no abilities get +1/+1.",
                    "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"], "no_abilities": True}, "atk": 1, "hp": 1}}]},
    "Test Shrink": {"type": "spell", "cost": 0, "text": "A test spell: a unit is a Squirrel until your next upkeep.",
                    "targets": [{"what": "a unit", "pick": {"kinds": ["unit"]}}],
                    "do": [{"transform": "Squirrel", "to": "t0", "until": "next_upkeep"}]},
    "Test Feathers": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: units with feather runes are 3/1 fliers.",
                      "abilities": [{"static": {"to": {"kinds": ["unit"], "counter": "feather"}, "base": {"atk": 3, "hp": 1},
                                                "keywords": {"flying": 1}}}]},
    "Test Truce": {"type": "spell", "cost": 0, "text": "A test spell: until your next turn your units cannot patrol "
                                                       "and the opponent's units cannot attack you.",
                   "do": [{"lasting": ["a", "b"], "until": "next_upkeep"}],
                   "abilities": [{"key": "a", "static": {"to": {"side": "mine", "kinds": ["unit"]}, "cant": ["patrol"]}},
                                 {"key": "b", "static": {"to": {"side": "theirs", "kinds": ["unit"]},
                                                         "cant_attack": {"side": "mine", "kinds": ["unit", "hero", "building"]}}}]},
    "Test Bull": {"type": "unit", "tech": 0, "cost": 0, "atk": 2, "hp": 5,
                  "text": "A test unit: the first time it exhausts each turn, it readies.",
                  "abilities": [{"on": "exhausts", "per_turn": 1, "do": [{"ready": "self"}]}]},
    "Test Giant": {"type": "unit", "tech": 0, "cost": 5, "atk": 5, "hp": 5, "cheaper_per": {"side": "mine", "kinds": ["unit"]},
                   "text": "A test unit: 1 gold less for each unit you have."},
    "Test Patron": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: Finesse spells are free and need no hero.",
                    "abilities": [{"static": {"plays": {"types": ["spell"], "spec": "Finesse"}, "cost": {"set": 0}, "no_hero": True}}]},
    "Test Banner": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your units have resist 1.",
                    "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"]}, "keywords": {"resist": 1}}}]},
}


def tech(st):
    """The active seat techs whatever `legal` lists first, if it must."""
    if st.phase == "tech":
        st = GAME.advance(GAME.apply(st, st.active, GAME.legal(st, st.active)[0], CH), CH)
    return st


@pytest.fixture(autouse=True, scope="module")
def test_cards():
    names = cards.add("neutral", TEST_CARDS)
    yield
    cards.remove(names)


def iron(st):
    ref = thing(st, "alice", "Iron Man")
    return stats(st, "alice", "Iron Man")[:2], values.has(st, ref, "stealth")


@pytest.mark.parametrize("order, want", [
    ("Test Shroud, Iron Man, Test Mentor", ((3, 4), True)),    # the bonus came last: it sees the stealth
    ("Iron Man, Test Shroud, Test Mentor", ((3, 4), True)),
    ("Iron Man, Test Mentor, Test Shroud", ((4, 5), False)),   # stealth came last: it sees 4 ATK
    ("Test Mentor, Iron Man, Test Shroud", ((4, 5), False)),
    ("Test Mentor, Test Shroud, Iron Man", ((4, 5), False)),   # the unit came last: numbers first
    ("Test Shroud, Test Mentor, Iron Man", ((4, 5), False)),
])
def test_effects_reading_their_target_apply_in_the_order_they_began(order, want):
    st = start(f"p1.units = {order}")
    assert iron(st) == want


def test_an_ability_given_later_or_earlier_ends_a_bonus_for_units_without_abilities():
    for order in ("Test Mentor, Iron Man, Test Banner", "Test Banner, Iron Man, Test Mentor"):
        st = start(f"p1.units = {order}")
        assert iron(st) == ((3, 4), False)
    st = start("p1.units = Test Mentor, Tenderfoot dmg=2", "p1.hand = Test Banner")
    assert stats(st, "alice", "Tenderfoot") == (2, 3, 2)
    st = do(st, "play test-banner")
    assert gone(st, "alice", "Tenderfoot"), "without the bonus its damage kills it"


def test_a_things_own_bonus_while_attacking_comes_after_the_check_to_sneak():
    st = start("turn = 3", "p1.units = Test Shroud, Makeshift Rambaster runes=1", "p2.units = Iron Man",
               "p2.patrol = sl=iron-man")
    st = do(st, "attack makeshift-rambaster opp:base")  # 2 ATK, 4 against a building: it sneaks all the same
    assert base(st, "bob") == 16


def test_a_patrol_slots_bonus_is_no_ability():
    st = start("turn = 2", "p1.units = Test Mentor, Iron Man", "p1.patrol = lookout=iron-man")
    ref = thing(st, "alice", "Iron Man")
    assert values.get(st, ref).kw == {"resist": 1} and stats(st, "alice", "Iron Man")[:2] == (4, 5)


def test_a_transformed_unit_shows_the_tokens_face_and_keeps_its_runes_damage_and_tech():
    st = start("turn = 3", "p1.hand = Test Shrink, Test Shrink", "p1.hero = 1",
               "p2.units = Doubleshot Archer runes=1 dmg=1, Crash Bomber")
    archer = thing(st, "bob", "Doubleshot Archer")
    st.things[archer].mods = [Mod(atk=2)]  # a one-time effect given before: lost
    st = do(st, "play test-shrink target=opp:doubleshot-archer")
    t = st.things[archer]
    assert stats(st, "bob", "Doubleshot Archer") == (2, 2, 1) and t.counters == {} and not t.mods[0].atk
    assert values.keywords(st, archer) == {} and board.subtypes(st, archer) == ("Squirrel",)
    assert board.tech_of(st, archer) == 2 and not values.has_abilities(st, archer, values.get(st, archer))
    assert "- doubleshot-archer: 2/1 (a Squirrel now, 1 dmg, +1 rune)" in GAME.presentation.render(GAME.view(st, "alice"))
    st = do(st, "play test-shrink target=opp:crash-bomber")
    st = next_turn(st)  # bob's turn: the archer attacks as a squirrel, without its printed trigger
    st = do(st, "attack doubleshot-archer opp:base")
    assert base(st, "alice") == 20 - 2
    st = next_turn(st)  # alice's upkeep: both are themselves again
    assert stats(st, "bob", "Doubleshot Archer")[:2] == (5, 4) and values.has(st, archer, "long_range")


def test_transforming_can_kill_and_loses_printed_abilities():
    st = start("turn = 3", "p1.hand = Test Shrink, Test Shrink", "p1.hero = 1", "p1.gold = 5",
               "p2.units = Iron Man dmg=2, Crash Bomber, Tenderfoot", "p2.patrol = sl=tenderfoot")
    st = do(st, "play test-shrink target=opp:iron-man")
    assert gone(st, "bob", "Iron Man"), "1 HP and 2 damage"
    st = do(st, "play test-shrink target=opp:crash-bomber")
    bomber = thing(st, "bob", "Crash Bomber")
    engine.die(st, [bomber], None)
    engine.settle(st, None)
    assert not st.fresh and not st.queue and st.prompt is None, "no dies trigger: it had no abilities"


def test_an_effect_may_set_the_base_values_runes_and_others_add_to():
    st = start("turn = 2", "p2.hand = Test Feathers", "p1.units = Iron Man feather=1 runes=1, Tenderfoot feather=1 dmg=1",
               "p2.units = Older Brother")
    assert stats(st, "alice", "Iron Man")[:2] == (4, 5)
    st = do(st, "play test-feathers")
    iron_man = thing(st, "alice", "Iron Man")
    assert stats(st, "alice", "Iron Man")[:2] == (4, 2) and values.has(st, iron_man, "flying")
    assert gone(st, "alice", "Tenderfoot"), "1 HP now, 1 damage"
    assert stats(st, "bob", "Older Brother")[:2] == (2, 2), "no feather rune"


def test_a_spells_effects_may_last_after_it_is_gone():
    st = start("turn = 3", "p1.hand = Test Truce", "p1.hero = 1", "p1.units = Iron Man",
               "p2.units = Older Brother", "p2.hero = 1")
    st = do(st, "play test-truce")
    assert "Test Truce" in [it.card for it in st.zones["discard:alice"].items]
    with pytest.raises(IllegalCommand, match="cannot patrol"):
        do(st, "end sl=iron-man")
    st = tech(do(st, "end sl=troq-bashar"))
    for target in ("opp:sl", "opp:iron-man", "opp:base"):
        with pytest.raises(IllegalCommand, match="Test Truce forbids it"):
            do(st, f"attack older-brother {target}")
    assert not [c for c in legal_texts(st) if c.startswith("attack older-brother")]
    st = do(st, "attack river-montoya opp:sl")  # heroes are no units
    st = next_turn(st)
    assert st.lasting == [] and "end sl=iron-man" in legal_texts(st)


def test_a_unit_readied_after_its_attack_attacks_again_and_once_a_turn_triggers():
    st = start("turn = 3", "p1.units = Test Bull")
    bull = thing(st, "alice", "Test Bull")
    st = do(st, "attack test-bull opp:base")
    assert not st.things[bull].exhausted and base(st, "bob") == 18
    st = do(st, "attack test-bull opp:base")
    assert st.things[bull].exhausted and base(st, "bob") == 16, "the second exhaustion this turn does not ready it"
    st = next_turn(next_turn(st))
    st = do(st, "attack test-bull opp:base")
    assert not st.things[bull].exhausted, "a new turn"


def test_a_card_may_cost_less_for_each_thing_its_player_has():
    st = start("p1.hand = Test Giant", "p1.units = Tenderfoot, Older Brother", "p2.units = Iron Man", "p1.gold = 0")
    assert st.players["alice"].gold == 4
    st = do(st, "play test-giant")
    assert st.players["alice"].gold == 1 and cards.CARDS["Test Giant"].cost == 5
    st = start("p1.hand = Test Giant", "p1.units = Tenderfoot, Tenderfoot, Older Brother, Older Brother, Iron Man, Iron Man",
               "p1.gold = 0")
    st = do(st, "play test-giant")
    assert st.players["alice"].gold == 4, "never below 0"


def test_an_effect_may_let_a_player_cast_spells_free_without_their_hero():
    st = start("turn = 3", "p1.hand = Discord, Appel Stomp, Spark", "p1.units = Test Patron", "p1.gold = 0",
               "p2.units = Tenderfoot", "p2.patrol = sl=tenderfoot")
    with pytest.raises(IllegalCommand, match="hero in play"):
        do(st, "play spark target=opp:sl")
    st = do(st, "play discord")
    st = do(st, "play appel-stomp target=opp:sl")  # an ultimate spell, no hero at all
    assert st.players["alice"].gold == 4 and not st.patrol["bob"][0]
