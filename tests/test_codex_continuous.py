"""General mechanisms of the continuous-effects pass (`values`), with
test-only cards: the order of effects whose selectors read the thing they
judge, ... (the green cards that use them are tested card by card in
test_codex_balance/feral/growth)."""

from __future__ import annotations

import pytest

from codex_helpers import do, gone, start, stats, thing
from pbem.games.codex import cards, values

TEST_CARDS = {
    "Test Shroud": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your units with 3 ATK or less have stealth.",
                    "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"], "atk_max": 3}, "keywords": {"stealth": 1}}}]},
    "Test Mentor": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your units with no abilities get +1/+1.",
                    "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"], "no_abilities": True}, "atk": 1, "hp": 1}}]},
    "Test Banner": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: your units have resist 1.",
                    "abilities": [{"static": {"to": {"side": "mine", "kinds": ["unit"]}, "keywords": {"resist": 1}}}]},
}


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


def test_a_patrol_slots_bonus_is_no_ability():
    st = start("turn = 2", "p1.units = Test Mentor, Iron Man", "p1.patrol = lookout=iron-man")
    ref = thing(st, "alice", "Iron Man")
    assert values.get(st, ref).kw == {"resist": 1} and stats(st, "alice", "Iron Man")[:2] == (4, 5)
