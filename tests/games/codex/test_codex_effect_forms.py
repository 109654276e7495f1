"""Forms of the card data's effects, targets and events, with test-only
cards: an effect's ``only``, amounts by kind, workers named by their base
(parts ``distinct: "things"``, ``trash_worker at``), selectors without
structures, spells that leave the game once cast (``trash: self``); an
attacker's combat damage (``combat_damage``), runes counted by a
condition, what a card is attached to (``host``), healing from an ongoing
spell, the cause of damage to a base, excess combat damage to the base."""

from __future__ import annotations

import pytest

from codex_helpers import base, do, legal_texts, next_turn, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import board, cards, engine

TEST_CARDS = {
    "Test Graft": {"type": "spell", "cost": 0, "text": "A test spell: three +1/+1 runes on a unit, one on a hero, if it has none.",
                   "targets": [{"what": "a unit or hero", "pick": {"kinds": ["unit", "hero"]}}],
                   "do": [{"runes": {"unit": 3, "hero": 1}, "to": "t0", "only": {"plus_runes": False}}]},
    "Test Quake": {"type": "spell", "cost": 0, "text": "A test spell: destroy up to two units or workers (a base names a worker).",
                   "targets": [{"what": "a unit or a base (a worker)", "pick": [{"kinds": ["unit"]}, {"kinds": ["base"]}],
                                "optional": True},
                               {"what": "another", "pick": [{"kinds": ["unit"]}, {"kinds": ["base"]}], "optional": True,
                                "distinct": "things", "unordered": True}],
                   "do": [{"destroy": "t0"}, {"destroy": "t1"}, {"trash_worker": 1, "at": "t0"},
                          {"trash_worker": 1, "at": "t1"}]},
    "Test Reclaim": {"type": "spell", "cost": 0, "text": "A test spell: trash a building card; it leaves the game too.",
                     "targets": [{"what": "a building card", "pick": {"kinds": ["building"], "structure": False}}],
                     "do": [{"trash": "t0"}, {"trash": "self"}]},
    "Test Trophy": {"type": "upgrade", "tech": 0, "cost": 0,
                    "text": "A test upgrade: a growth rune each time an attacker of yours deals combat damage; from 2, your units +1/+1.",
                    "abilities": [{"on": "combat_damage", "who": {"side": "mine"}, "do": [{"counter": "growth", "to": "self"}]},
                                  {"static": {"to": {"side": "mine", "kinds": ["unit"]}, "while": {"counter": {"growth": 2}},
                                              "atk": 1, "hp": 1}}]},
    "Test Charm": {"type": "spell", "ongoing": True, "cost": 0, "text": "A test spell: attached to a unit, which gets +1/+1 and "
                   "gives its controller 1 gold when it attacks. Healing 1.", "keywords": {"healing": 1},
                   "targets": [{"what": "a unit", "pick": {"kinds": ["unit"]}}], "do": [{"attach": "t0"}],
                   "abilities": [{"static": {"to": "attached", "atk": 1, "hp": 1}},
                                 {"on": "other_attacks", "who": {"host": True}, "do": [{"gold": 1, "who": "subject"}]}]},
    "Test Raider": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 3, "keywords": {"haste": 1},
                    "text": "A test unit: its combat damage to a base trashes a worker there.",
                    "abilities": [{"on": "damages_base", "if": {"cause": "combat"}, "do": [{"trash_worker": 1, "from": "attacked"}]}]},
    "Test Rush": {"type": "spell", "cost": 0, "text": "A test spell: excess combat damage of your units this turn hits the base.",
                  "do": [{"give": {"keywords": {"excess_to_base": 1}}, "to": {"each": {"side": "mine", "kinds": ["unit"]}}}]},
}


@pytest.fixture(autouse=True, scope="module")
def test_cards():
    names = cards.add("neutral", TEST_CARDS)
    yield
    cards.remove(names)


def test_an_effect_only_on_what_matches_and_amounts_by_kind():
    st = start("p1.hand = Test Graft, Test Graft, Test Graft", "p1.hero = 1", "p1.units = Tenderfoot, Older Brother runes=1")
    st = do(st, "play test-graft target=me:tenderfoot")
    st = do(st, "play test-graft target=me:troq-bashar")
    st = do(st, "play test-graft target=me:older-brother")  # it has one already: no more
    assert stats(st, "alice", "Tenderfoot")[:2] == (4, 5) and stats(st, "alice", "Troq Bashar")[:2] == (3, 4)
    assert stats(st, "alice", "Older Brother")[:2] == (3, 3)


def test_a_base_named_twice_stands_for_two_workers():
    st = start("p1.hand = Test Quake", "p1.hero = 1", "p2.units = Tenderfoot", "p2.workers = Spark")
    assert "play test-quake target=opp:base,opp:base" in legal_texts(st)
    assert "play test-quake target=opp:tenderfoot,opp:tenderfoot" not in legal_texts(st)
    with pytest.raises(IllegalCommand):
        do(st, "play test-quake target=opp:tenderfoot,opp:tenderfoot")
    after = do(st, "play test-quake target=opp:base,opp:base")
    assert engine.worker_count(after, "bob") == 4 and len(after.zones["trash:bob"].items) == 1
    after = do(st, "play test-quake target=opp:tenderfoot,opp:base")
    assert not board.controls(after, "bob", "Tenderfoot") and engine.worker_count(after, "bob") == 5


def test_a_selector_without_structures_and_a_spell_that_is_trashed():
    st = start("p1.hand = Test Reclaim", "p1.hero = 1", "p2.units = Verdant Tree", "p2.buildings = tech1",
               p1="bashing", p2="finesse", p2_starter="green")
    assert [t for t in legal_texts(st) if t.startswith("play test-reclaim")] == ["play test-reclaim target=opp:verdant-tree"]
    with pytest.raises(IllegalCommand, match="not a building card"):
        do(st, "play test-reclaim target=opp:tech1")
    st = do(st, "play test-reclaim target=opp:verdant-tree")
    assert [it.card for it in st.zones["trash:bob"].items] == ["Verdant Tree"]
    assert [it.card for it in st.zones["trash:alice"].items] == ["Test Reclaim"] and not st.zones["discard:alice"].items


def test_an_attackers_combat_damage_and_runes_counted_by_a_condition():
    st = start("turn = 3", "p1.units = Test Trophy, Iron Man, Wisp, Tenderfoot", "p2.units = Older Brother",
               "p2.patrol = sl=older-brother")
    trophy = thing(st, "alice", "Test Trophy")
    st = do(st, "attack iron-man opp:sl")  # the squad leader's armor takes some: it counts
    assert st.things[trophy].counters == {"growth": 1} and stats(st, "alice", "Iron Man")[:2] == (3, 4)
    st = do(st, "attack wisp opp:base")
    assert st.things[trophy].counters == {"growth": 1}, "0 damage is no damage"
    st = do(st, "attack tenderfoot opp:base")
    assert st.things[trophy].counters == {"growth": 2} and stats(st, "alice", "Iron Man")[:2] == (4, 5)


def test_an_attached_spell_follows_its_hosts_attacks_and_heals():
    st = start("turn = 3", "p1.hand = Test Charm", "p1.hero = 1", "p1.units = Older Brother dmg=1, Tenderfoot")
    st = do(st, "play test-charm target=me:older-brother")
    gold = st.players["alice"].gold
    st = do(st, "attack tenderfoot opp:base")
    assert st.players["alice"].gold == gold, "only its host's attacks"
    st = do(st, "attack older-brother opp:base")
    assert st.players["alice"].gold == gold + 1 and base(st, "bob") == 20 - 1 - 3
    st = next_turn(next_turn(st))
    assert stats(st, "alice", "Older Brother")[2] == 0, "healing 1 from the ongoing spell"


def test_the_cause_of_damage_to_a_base():
    st = start("turn = 3", "p1.units = Test Raider", "p2.workers = Spark")
    st = do(st, "attack test-raider opp:base")
    assert engine.worker_count(st, "bob") == 5


def test_excess_combat_damage_to_the_base_before_overpower():
    st = start("turn = 3", "p1.hand = Test Rush", "p1.hero = 1", "p1.units = Harvest Reaper",
               "p2.units = Older Brother, Tenderfoot", "p2.patrol = sl=older-brother elite=tenderfoot")
    st = do(st, "play test-rush")
    with pytest.raises(IllegalCommand, match="no excess"):
        do(st, "attack harvest-reaper opp:sl over=opp:elite")
    st = do(st, "attack harvest-reaper opp:sl")  # 6 ATK: 2 HP and 1 armor, 3 to the base
    assert base(st, "bob") == 17 and not board.controls(st, "bob", "Older Brother")
    assert stats(st, "bob", "Tenderfoot")[2] == 0


def test_a_selector_of_ongoing_spells_picks_them():
    st = start("turn = 3", "p1.hand = Potent Basilisk", "p1.buildings = tech1, tech2", "p2.units = Harmony", "p2.hero = 1",
               p1="bashing", p2="finesse")
    st = do(st, "play potent-basilisk target=opp:harmony")
    assert not engine.spells_of(st, "bob")
