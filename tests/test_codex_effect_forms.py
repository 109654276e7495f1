"""Forms of the card data's effects and targets, with test-only cards: an
effect's ``only``, amounts by kind, workers named by their base (parts
``distinct: "things"``, ``trash_worker at``), selectors without structures,
spells that leave the game once cast (``trashed``)."""

from __future__ import annotations

import pytest

from codex_helpers import do, legal_texts, start, stats
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
    "Test Reclaim": {"type": "spell", "cost": 0, "trashed": True, "text": "A test spell: trash a building card; it leaves the game too.",
                     "targets": [{"what": "a building card", "pick": {"kinds": ["building"], "structure": False}}],
                     "do": [{"trash": "t0"}]},
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
