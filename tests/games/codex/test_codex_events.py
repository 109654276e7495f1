"""The events cards may listen to, each waking a trigger: the "whenever"
events (a unit or hero dies, a spell is cast, a base is damaged, a card is
drawn or discarded, another card arrives or attacks, a unit is played) and
a card's own (kills, damages a base), with test cards that count them."""

from __future__ import annotations

import pytest

from codex_helpers import do, next_turn, start, thing
from pbem.games.codex import cards

def _counter(event: str, who: dict | None = None) -> dict:
    ab = {"on": event, "do": [{"counter": event, "n": 1, "to": {"each": {"kinds": ["upgrade"], "card": "Test Tally"}}}]}
    if who is not None:
        ab["who"] = who
    return ab


TEST_CARDS = {
    "Test Tally": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: counts events.",
                   "abilities": [_counter(e) for e in ("unit_dies", "hero_dies", "spell_cast", "base_damaged",
                                                       "card_drawn", "card_discarded", "other_arrives",
                                                       "other_attacks", "unit_played")]},
    "Test Hunter": {"type": "unit", "tech": 0, "cost": 0, "atk": 5, "hp": 5, "text": "A test unit: kills for gold.",
                    "abilities": [{"on": "kills", "if": {"slot": True}, "do": [{"gold": 2}]},
                                  {"on": "damages_base", "do": [{"gold": 1}]}]},
}


@pytest.fixture(autouse=True, scope="module")
def test_cards():
    names = cards.add("neutral", TEST_CARDS)
    yield
    cards.remove(names)


def tally(st, seat="alice"):
    return st.things[thing(st, seat, "Test Tally")].counters


def test_whenever_events_wake_their_watchers():
    st = start("turn = 3", "p1.units = Test Tally, Older Brother", "p1.hand = Spark, Tenderfoot, Bloom", "p1.hero = 1",
               "p2.units = Tenderfoot, Iron Man", "p2.patrol = sl=tenderfoot", "p2.hero = 1")
    st = do(st, "play spark target=opp:sl")
    assert tally(st)["spell_cast"] == 1
    st = do(st, "play tenderfoot")
    assert tally(st)["other_arrives"] == 1 and tally(st)["unit_played"] == 1
    st = do(st, "attack older-brother opp:sl")
    assert tally(st)["other_attacks"] == 1 and tally(st)["unit_dies"] == 1  # the damaged Tenderfoot
    st.things[thing(st, "bob", "River Montoya")].damage = 2
    st = do(st, "attack troq-bashar opp:river-montoya")
    assert tally(st)["hero_dies"] == 1
    st = do(st, "end")
    assert tally(st)["card_discarded"] == 1 and tally(st)["card_drawn"] == 1
    st = start("turn = 3", "p1.units = Test Tally, Older Brother")
    st = do(st, "attack older-brother opp:base")
    assert tally(st)["base_damaged"] == 1


def test_a_cards_own_kills_and_base_damage():
    st = start("turn = 3", "p1.units = Test Hunter", "p2.units = Tenderfoot", "p2.patrol = elite=tenderfoot",
               "p1.gold = 0")
    gold = st.players["alice"].gold
    st = do(st, "attack test-hunter opp:tenderfoot")
    assert st.players["alice"].gold == gold + 2, "it killed a patroller"
    st = next_turn(next_turn(st))
    gold = st.players["alice"].gold
    st = do(st, "attack test-hunter opp:base")
    assert st.players["alice"].gold == gold + 1
