"""The hero bands written last (issue #22): Orpal Gloor's three, Vandy
Anadrose's max level, Vir Garbarean's levels 5 and 7; each from a fixed
position under the hotseat rules, with the rulings on these heroes, and
Vir's top card played in one small peer game (the new effect on a hidden
zone: which card is on top is chance, seen by its owner alone until played)."""

from __future__ import annotations

import msgspec
import pytest

from pbem.errors import IllegalCommand, PbemError
from tests.codex_helpers import do, gone, legal_texts, start, stats


def _next_turn(st):
    """End the turn; the next seat techs first if it must (any cards)."""
    st = do(st, "end")
    return do(st, legal_texts(st)[0]) if st.phase == "tech" else st


def _runes(state, seat, name):
    return next(t.runes for t in state.things.values() if t.card == name and t.controller == seat)


def test_orpal_gloor_deals_his_damage_to_units_as_minus_runes_and_fights_back_normally():
    st = start("p1.heroes = Orpal Gloor 1", "p2.units = Older Brother")
    st = do(st, "attack orpal-gloor opp:older-brother")
    assert _runes(st, "bob", "Older Brother") == -1 and stats(st, "bob", "Older Brother") == (1, 1, 0), \
        "a -1/-1 rune, no damage"
    assert stats(st, "alice", "Orpal Gloor")[2] == 2, "what hits him is damage"
    st = start("p1.heroes = Orpal Gloor 1", "p2.base = 5")
    assert do(st, "attack orpal-gloor opp:base").players["bob"].base_damage == 16, "a base takes damage"


def test_orpal_gloor_sacrifices_a_non_demon_unit_once_a_turn_for_a_minus_rune():
    st = start("p1.heroes = Orpal Gloor 4", "p1.units = Tenderfoot, Thieving Imp, Iron Man",
               "p2.units = Older Brother")
    uses = [t for t in legal_texts(st) if t.startswith("use orpal-gloor plague")]
    assert uses and not any("me:thieving-imp," in t for t in uses), "a Demon is not sacrificed"
    with pytest.raises(IllegalCommand):
        do(st, "use orpal-gloor plague target=me:thieving-imp,opp:older-brother")
    st = do(st, "use orpal-gloor plague target=me:tenderfoot,opp:older-brother")
    assert gone(st, "alice", "Tenderfoot") and _runes(st, "bob", "Older Brother") == -1
    assert not any(t.startswith("use orpal-gloor") for t in legal_texts(st))
    with pytest.raises(IllegalCommand, match="1 time"):
        do(st, "use orpal-gloor plague target=me:iron-man,opp:older-brother")


def test_orpal_gloor_at_max_level_spreads_the_first_death_with_a_minus_rune_each_turn():
    st = start("p1.heroes = Orpal Gloor 6", "p2.units = Older Brother, Timely Messenger, Tenderfoot runes=-1")
    st = do(st, "attack orpal-gloor opp:older-brother")  # 2 -1/-1 runes: it dies
    assert gone(st, "bob", "Older Brother")
    assert st.prompt is not None and sorted(legal_texts(st)) == ["choose opp:tenderfoot", "choose opp:timely-messenger"], \
        "two units of the dead unit's side, the active player's pick"
    st = do(st, "choose opp:tenderfoot;opp:timely-messenger")
    # both die with a -1/-1 rune on them: not the first death of the turn
    assert gone(st, "bob", "Tenderfoot") and gone(st, "bob", "Timely Messenger") and st.prompt is None


def test_vandy_anadrose_at_max_level_gives_two_units_two_and_takes_them_at_her_next_upkeep():
    st = start("p1.heroes = Vandy Anadrose 4", "p1.gold = 9", "p1.units = Tenderfoot, Iron Man",
               "p2.units = Older Brother, Eggship")
    st = do(st, "level vandy-anadrose 1")
    assert legal_texts(st) == ["choose me:tenderfoot", "choose me:iron-man"], "tech 0 or I only (Eggship is II)"
    st = do(st, "choose me:tenderfoot")  # the only opposing tech 0 or I unit is taken at once
    assert stats(st, "alice", "Tenderfoot")[:2] == (3, 4) and stats(st, "bob", "Older Brother")[:2] == (4, 4)
    st = do(st, "end")
    st = do(st, "end")
    assert stats(st, "bob", "Older Brother")[:2] == (4, 4), "until her controller's upkeep"
    st = do(st, legal_texts(st)[0])  # alice's tech, then her upkeep
    assert gone(st, "alice", "Tenderfoot") and gone(st, "bob", "Older Brother") and not gone(st, "alice", "Iron Man")


def test_vandy_anadrose_s_max_level_takes_what_there_is_on_one_side():
    """Ruling: not optional; with no tech 0 or I unit of her own, an opposing one still gets it."""
    st = start("p1.heroes = Vandy Anadrose 4", "p1.gold = 9", "p2.units = Older Brother")
    st = do(st, "level vandy-anadrose 1")
    assert stats(st, "bob", "Older Brother")[:2] == (4, 4)


def test_vir_garbarean_at_max_level_makes_an_untargetable_mech_that_arrives_two_upkeeps_later():
    st = start("p1.heroes = Vir Garbarean 6", "p1.gold = 9", "p1.hand = Spark")
    st = do(st, "level vir-garbarean 1")
    assert [it.card for it in st.zones["future:alice"].items] == ["Mech"]
    for upkeep in (1, 2):
        st = _next_turn(_next_turn(st))
        assert gone(st, "alice", "Mech") == (upkeep == 1), "one time rune off each of her upkeeps"
    assert stats(st, "alice", "Mech")[:2] == (6, 7)
    from pbem.games.codex import values

    assert values.has(st, next(r for r, t in st.things.items() if t.card == "Mech"), "untargetable")


def test_vir_garbarean_at_level_five_plays_the_top_card_of_his_draw_pile_paying_for_it():
    st = start("p1.heroes = Vir Garbarean 5", "p1.gold = 3", "p1.hand = Spark", "p1.deck = Older Brother, Tenderfoot")
    assert "play older-brother" not in legal_texts(st)
    used = do(st, "use vir-garbarean play-top")
    assert [it.card for it in used.zones["top:alice"].items] == ["Older Brother"], "he sees it first"
    assert "play older-brother" in legal_texts(used)
    played = do(used, "play older-brother")
    assert not gone(played, "alice", "Older Brother") and played.players["alice"].gold == used.players["alice"].gold - 2
    assert not played.zones["top:alice"].items
    # the play is the next command only: otherwise the card stays on top, seen
    later = do(used, "hire spark")
    assert "play older-brother" not in legal_texts(later)
    with pytest.raises(PbemError, match="no Older Brother in your hand"):
        do(later, "play older-brother")
    assert [it.card for it in later.zones["top:alice"].items] == ["Older Brother"]


def test_vir_garbarean_s_top_card_is_played_only_if_it_can_be_paid_for():
    st = start("p1.heroes = Vir Garbarean 5", "p1.gold = 0", "p1.hand = Spark", "p1.deck = Older Brother",
               "p1.workers = Tenderfoot", "p1.base_workers = 0")
    used = do(st, "use vir-garbarean play-top")
    assert used.players["alice"].gold < 2 and "play older-brother" not in legal_texts(used)
    with pytest.raises(IllegalCommand, match="costs 2 gold"):
        do(used, "play older-brother")


#: six different units for a hand of five: the one left is the top card
PEER_LINES = ["opening = draw",
              "p1.deck = Timely Messenger, Tenderfoot, Older Brother, Brick Thief, Helpful Turtle, Fruit Ninja",
              "p1.workers = Granfalloon Flagbearer, Spark, Bloom, Wither", "p1.gold = 20",
              "p1.heroes = Vir Garbarean home"]
PEER_SCRIPT = [("alice", "summon vir-garbarean"), ("alice", "level vir-garbarean 4"), ("alice", "end"), ("bob", "end"),
               ("alice", lambda state, seat: legal_texts(state, seat)[0]),  # tech
               ("alice", "use vir-garbarean play-top"), ("alice", lambda state, seat: _play_the_top(state))]
USE = 5  # index in PEER_SCRIPT


def _play_the_top(state):
    """The first legal play of the top card (with its arrival's targets, if any)."""
    from pbem.games.codex import cards

    word = f"play {cards.slug(state.zones['top:alice'].items[0].card)}"
    return next(t for t in legal_texts(state, "alice") if t == word or t.startswith(word + " "))


def test_vir_garbarean_s_top_card_under_peer_is_drawn_by_chance_seen_by_him_alone_then_played():
    from pbem.games.codex import cards
    from tests import codex_tables, tamper

    seen: dict = {}
    with codex_tables.scenarios_everywhere():
        table = codex_tables.play("peer", PEER_LINES, PEER_SCRIPT, seen=seen)
        chain = tamper.replay(table.files)
    assert "top of your draw pile (seen)" in seen[USE]["alice"] and "top of" not in seen[USE]["bob"] + seen[USE]["public"]
    played = [t.card for t in chain.public.things.values() if t.controller == "alice" and cards.CARDS[t.card].type == "unit"]
    assert len(played) == 1 and not chain.public.zones["top:alice"].items
    use = next(r for r in chain.records[1:] if r.by == "alice" and r.body.commands
               and msgspec.json.decode(r.body.commands[0])["t"] == "cx.use")
    assert chain.records[use.seq + 1].by == "bob", "which card is on top is chance alice could not foresee"
