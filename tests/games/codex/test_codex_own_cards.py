"""Choices among the cards of one's own codex or hand (a part ``from``
them with a card filter), the effects that move them (``fetch``,
``put_in_play``), relations between picks (``rel``) and parts tied to a
mode; with test-only cards (the green cards that use them are tested card
by card). Only the chosen card is ever read: on the public state the
command needs its reveal and no other."""

from __future__ import annotations

import pytest

from codex_helpers import CH, GAME, do, hand_names, legal_texts, start, thing
from pbem.errors import IllegalCommand, InvalidCommand
from pbem.games.base import Known, NeedsReveal, overlay, project
from pbem.games.codex import board, cards, registry

TEST_CARDS = {
    "Test Recall": {"type": "spell", "cost": 0, "text": "A test spell: up to two units of your codex to your hand, shown.",
                    "targets": [{"what": "a unit in your codex", "from": ["codex"], "pick": {"types": ["unit"]}, "optional": True},
                                {"what": "another unit in your codex", "from": ["codex"], "pick": {"types": ["unit"]},
                                 "optional": True, "distinct": True}],
                    "do": [{"fetch": "t0"}, {"fetch": "t1"}]},
    "Test Renewal": {"type": "spell", "cost": 0, "text": "A test spell: sacrifice a unit of yours for a unit one tech higher from your codex.",
                     "targets": [{"what": "a unit of yours", "pick": {"kinds": ["unit"], "side": "mine"}, "aim": False},
                                 {"what": "a unit one tech higher in your codex", "rel": "test_one_tech_above_t0",
                                  "from": ["codex"], "pick": {"types": ["unit"], "cost_max": 5}}],
                     "do": [{"sacrifice": "t0"}, {"put_in_play": "t1"}]},
    "Test Caller": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1,
                    "text": "A test unit: exhaust to put a Virtuoso of your codex into play.",
                    "abilities": [{"use": "call", "cost": {"exhaust": True},
                                   "targets": [{"what": "a Virtuoso in your codex", "from": ["codex"], "pick": {"subtype": "Virtuoso"}}],
                                   "do": [{"put_in_play": "t0"}]}]},
    "Test Either": {"type": "spell", "cost": 0, "boost": {"cost": 1}, "modes": [[{"fetch": "t0"}], [{"put_in_play": "t1"}]],
                    "pick": 1, "boost_all": True,
                    "text": "A test spell: a unit from your codex to your hand, or one from your hand into play; boosted, both.",
                    "targets": [{"what": "a unit in your codex", "from": ["codex"], "pick": {"types": ["unit"]}, "optional": True,
                                 "mode": 1},
                                {"what": "a unit in your hand", "from": ["hand"], "pick": {"types": ["unit"]}, "optional": True,
                                 "mode": 2}]},
    "Test Pairs": {"type": "spell", "cost": 0, "text": "A test spell: up to two units of your codex to your hand, then two into play.",
                   "targets": [{"what": "a codex unit", "from": ["codex"], "pick": {"types": ["unit"]}, "optional": True},
                               {"what": "another", "from": ["codex"], "pick": {"types": ["unit"]}, "optional": True,
                                "distinct": True, "unordered": True},
                               {"what": "a codex unit", "from": ["codex"], "pick": {"types": ["unit"]}, "optional": True,
                                "distinct": True},
                               {"what": "another", "from": ["codex"], "pick": {"types": ["unit"]}, "optional": True,
                                "distinct": True, "unordered": True}],
                   "do": [{"fetch": "t0"}, {"fetch": "t1"}, {"put_in_play": "t2"}, {"put_in_play": "t3"}]},
    "Test Both": {"type": "spell", "cost": 0, "boost": {"cost": 0}, "modes": [[{"fetch": "t0"}], [{"put_in_play": "t1"}]],
                  "pick": 1, "boost_all": True,
                  "text": "A test spell: a unit of your codex to your hand, or one of your hand into play; boosted, both in turn.",
                  "targets": [{"what": "a unit in your codex", "from": ["codex"], "pick": {"types": ["unit"]}, "optional": True,
                               "mode": 1},
                              {"what": "a unit in your hand", "from": ["hand", "codex"], "pick": {"types": ["unit"]},
                               "optional": True, "mode": 2, "distinct": True, "rel": "test_in_hand_or_earlier"}]},
}


@registry.register("relation", "test_in_hand_or_earlier")
def _in_hand_or_earlier(state, seat, src, earlier, x):
    return x in earlier or any(it.ref == x for it in state.zones[f"hand:{seat}"].items)


@registry.register("relation", "test_one_tech_above_t0")
def _one_above(state, seat, src, earlier, x):
    from pbem.games.codex import select

    return bool(earlier and earlier[0]) and cards.CARDS[select.zone_card(state, seat, x)].tech == \
        board.tech_of(state, earlier[0]) + 1


@pytest.fixture(autouse=True, scope="module")
def test_cards():
    names = cards.add("neutral", TEST_CARDS)
    yield
    cards.remove(names)


def codex_names(st, seat="alice"):
    return sorted(it.card for it in st.zones[f"codex:{seat}"].items)


def public(st):
    """The state as the chain holds it: cards in hidden zones unknown."""
    return project(st, {it.ref for z in st.zones.values() if z.public for it in z.items})


def test_fetching_units_from_the_codex_shows_them():
    st = start("p1.hand = Test Recall", "p1.hero = 1")
    st = do(st, "play test-recall target=codex:iron-man,codex:iron-man")
    assert hand_names(st, "alice").count("Iron Man") == 2 and "Iron Man" not in codex_names(st)
    assert sorted(n for n in st.shown.values() if n == "Iron Man") == ["Iron Man", "Iron Man"], "everyone saw them"
    st = start("p1.hand = Test Recall", "p1.hero = 1")
    with pytest.raises(IllegalCommand, match="not a unit in your codex"):
        do(st, "play test-recall target=codex:the-boot,none")
    assert "play test-recall target=codex:eggship,codex:iron-man" in legal_texts(st)


def test_only_the_chosen_card_is_read():
    st = start("p1.hand = Test Recall", "p1.hero = 1")
    cmd = GAME.presentation.parse("play test-recall target=codex:sneaky-pig,none", st, "alice")
    pig = cmd.targets[0]
    hidden = overlay(public(st), {cmd.ref: "Test Recall"})
    with pytest.raises(NeedsReveal) as err:
        GAME.apply(hidden, "alice", cmd, CH)
    assert err.value.ref == pig
    after = GAME.apply(overlay(hidden, {pig: "Sneaky Pig"}), "alice", cmd, CH)
    assert Known(pig, "Sneaky Pig") in after.zones["hand:alice"].items


def test_a_pick_that_has_to_be_made_and_its_relation_to_an_earlier_one():
    st = start("p1.hand = Test Renewal", "p1.hero = 1", "p1.units = Tenderfoot")
    with pytest.raises(IllegalCommand, match="not a unit one tech higher"):
        do(st, "play test-renewal target=me:tenderfoot,codex:eggship")  # tech 2
    with pytest.raises(IllegalCommand, match="there is one"):
        do(st, "play test-renewal target=me:tenderfoot,none")
    plays = [t for t in legal_texts(st) if t.startswith("play test-renewal")]
    assert plays == ["play test-renewal target=me:tenderfoot,codex:iron-man",
                     "play test-renewal target=me:tenderfoot,codex:revolver-ocelot"]
    st = do(st, plays[0])
    assert not board.controls(st, "alice", "Tenderfoot") and board.controls(st, "alice", "Iron Man")
    st = start("p1.hand = Test Renewal", "p1.hero = 1", "p1.units = Tenderfoot", "p1.codex = Eggship")
    st = do(st, "play test-renewal target=me:tenderfoot,none")  # no tech I unit left: nothing to put
    # on the public state nobody can tell: the writer's check (and the audit) makes it
    st = start("p1.hand = Test Renewal", "p1.hero = 1", "p1.units = Tenderfoot")
    cmd = GAME.presentation.parse("play test-renewal target=me:tenderfoot,none", st, "alice")
    GAME.apply(overlay(public(st), {cmd.ref: "Test Renewal"}), "alice", cmd, CH)


def test_an_ability_putting_a_codex_card_into_play_unpaid():
    st = start("turn = 3", "p1.units = Test Caller", "p1.gold = 0", p1="finesse", p2="bashing")
    st = do(st, "use test-caller call target=codex:blademaster")
    assert board.controls(st, "alice", "Blademaster") and st.players["alice"].gold == 4, "no cost, no tech III"


def test_parts_tied_to_modes_take_nothing_unless_chosen():
    st = start("p1.hand = Test Either, Tenderfoot", "p1.hero = 1")
    with pytest.raises(IllegalCommand):
        do(st, "play test-either mode=1 target=codex:iron-man,hand:tenderfoot")
    st1 = do(st, "play test-either mode=1 target=codex:iron-man,none")
    assert "Iron Man" in hand_names(st1, "alice") and not board.controls(st1, "alice", "Tenderfoot")
    st2 = do(st, "play test-either boost mode=1,2 target=codex:iron-man,hand:tenderfoot")
    assert "Iron Man" in hand_names(st2, "alice") and thing(st2, "alice", "Tenderfoot")
    plays = [t for t in legal_texts(st) if t.startswith("play test-either") and t.endswith(" mode=2")]
    assert plays == ["play test-either target=none,hand:tenderfoot mode=2", "play test-either target=none,none mode=2"]


def test_unordered_parts_swap_only_with_the_part_before():
    st = start("p1.hand = Test Pairs", "p1.hero = 1", "p1.codex = Iron Man, Eggship")
    plays = [t for t in legal_texts(st) if t.startswith("play test-pairs")]
    assert len(plays) == 9, plays  # each unit: fetched, put into play, or neither
    assert {"play test-pairs target=codex:iron-man,none,codex:eggship,none",
            "play test-pairs target=codex:eggship,none,codex:iron-man,none"} <= set(plays)


def test_a_later_mode_may_name_again_the_card_an_earlier_one_fetched():
    st = start("p1.hand = Test Both", "p1.hero = 1")
    assert "play test-both target=codex:eggship,t0 boost mode=1,2" in legal_texts(st)
    with pytest.raises(InvalidCommand, match="earlier target"):
        GAME.presentation.parse("play test-both boost mode=1,2 target=t1,none", st, "alice")
    st = do(st, "play test-both boost mode=1,2 target=codex:iron-man,t0")  # distinct only within its mode
    assert board.controls(st, "alice", "Iron Man") and "Iron Man" not in hand_names(st, "alice")
