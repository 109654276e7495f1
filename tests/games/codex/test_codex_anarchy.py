"""The Anarchy spec (red) card by card, its hero Captain Zane band by band,
and every ruling of rulings.json about them, from fixed positions. Alice
(p1) plays Anarchy with the red starter deck, Bob (p2) Finesse."""

from __future__ import annotations

import pytest

from codex_helpers import GAME, base, do, gone, hand_names, legal_texts, next_turn, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import cards, engine


def anarchy(*lines: str):
    return start(*lines, p1="anarchy", p2="finesse")


def discard(st, seat):
    return [it.card for it in st.zones[f"discard:{seat}"].items]


def trash(st, seat):
    return [it.card for it in st.zones[f"trash:{seat}"].items]


# --- spells ----------------------------------------------------------------------------------


def test_chaos_mirror_swaps_printed_atk_for_the_turn_without_targeting():
    st = anarchy("p1.hero = 1", "p1.hand = Chaos Mirror", "p1.units = Nautical Dog runes=1",
                 "p2.units = Leaping Lizard", "p2.patrol = lookout=leaping-lizard", "turn = 1")
    gold = st.players["alice"].gold
    # the lookout's resist is not paid: the card has no target icon
    st = do(st, "play chaos-mirror target=me:nautical-dog,opp:leaping-lizard")
    assert st.players["alice"].gold == gold - 2
    # printed ATK is what the card says, runes and frenzy stay on top (ruling)
    assert stats(st, "alice", "Nautical Dog")[0] == 3 + 1 + 1 and stats(st, "bob", "Leaping Lizard")[0] == 1
    st = do(st, "end")
    assert stats(st, "alice", "Nautical Dog")[0] == 2 and stats(st, "bob", "Leaping Lizard")[0] == 3


def test_chaos_mirror_reads_a_heros_printed_band_atk():
    st = anarchy("p1.hero = 6", "p1.hand = Chaos Mirror", "p2.units = Tiger Cub")
    st = do(st, "play chaos-mirror target=me:captain-zane,opp:tiger-cub")
    assert engine.atk(st, thing(st, "alice", "Captain Zane")) == 2 and stats(st, "bob", "Tiger Cub")[0] == 4


def test_detonate_trashes_a_worker_unseen_or_a_building_card_and_itself():
    st = anarchy("p1.hero = 1", "p1.hand = Detonate, Detonate", "p1.gold = 10", "p2.workers = Tiger Cub",
                 "p2.units = Verdant Tree", "p2.buildings = tech1, tower")
    st = do(st, "play detonate target=opp:base")
    assert engine.worker_count(st, "bob") == 5 and not st.zones["workers:bob"].items
    gone_worker = st.zones["trash:bob"].items[0].ref
    assert gone_worker not in st.shown, "its front stays unseen (ruling)"
    assert trash(st, "alice") == ["Detonate"]
    for target in ("opp:tech1", "opp:tower"):
        with pytest.raises(IllegalCommand, match="not a worker .* or a building card"):
            do(st, f"play detonate target={target}")
    st = do(st, "play detonate target=opp:verdant-tree")
    assert gone(st, "bob", "Verdant Tree") and "Verdant Tree" in trash(st, "bob")


def test_detonate_may_trash_your_own_worker():
    st = anarchy("p1.hero = 1", "p1.hand = Detonate")
    st = do(st, "play detonate target=me:base")
    assert engine.worker_count(st, "alice") == 3


def test_surprise_attack_summons_two_blue_sharks_that_attack_at_once_and_die_at_the_end_of_the_turn():
    st = anarchy("p1.hero = 1", "p1.hand = Surprise Attack", "p1.gold = 5")
    st = do(st, "play surprise-attack")
    sharks = engine.controls(st, "alice", "Shark")
    assert len(sharks) == 2 and cards.CARDS["Shark"].colour == "blue"
    st = do(st, "attack shark opp:base")
    assert base(st, "bob") == 17
    st = do(st, "end")
    assert gone(st, "alice", "Shark")


def test_maximum_anarchy_destroys_every_unit_and_hero_zane_too():
    st = anarchy("p1.hero = 6", "p1.hand = Maximum Anarchy", "p1.units = Nautical Dog", "turn = 3",
                 "p2.hero = 2", "p2.units = Tiger Cub, Older Brother", "p2.patrol = scavenger=tiger-cub")
    gold = st.players["bob"].gold
    st = do(st, "play maximum-anarchy")
    assert not engine.things_of(st, "alice") and not engine.things_of(st, "bob")
    assert st.players["alice"].heroes["Captain Zane"].home and st.players["bob"].heroes["River Montoya"].home
    assert "Nautical Dog" in discard(st, "alice") and "Older Brother" in discard(st, "bob")
    assert st.players["bob"].gold == gold + 1, "they die: the scavenger's gold (ruling)"


def test_maximum_anarchy_is_an_ultimate():
    st = anarchy("p1.hero = 5", "p1.hand = Maximum Anarchy")
    assert not [t for t in legal_texts(st) if t.startswith("play maximum-anarchy")]


# --- units -----------------------------------------------------------------------------------


def test_calypso_vystari_sidelines_a_patroller_only_after_a_spell():
    st = anarchy("turn = 3", "p1.hero = 1", "p1.units = Calypso Vystari, Calypso Vystari", "p1.hand = Bombaster, Pillage",
                 "p2.units = Spectral Hound, Tiger Cub", "p2.patrol = sl=spectral-hound elite=tiger-cub")
    st = do(st, "play bombaster")  # a unit is not a spell (ruling)
    with pytest.raises(IllegalCommand, match="condition does not hold"):
        do(st, "use calypso-vystari target=opp:elite")
    st = do(st, "use calypso-vystari target=none")
    assert not gone(st, "bob", "Spectral Hound"), "no spell: it targets nothing, the illusion lives (ruling)"
    st = do(st, "play pillage target=opp:base")
    st = do(st, "use calypso-vystari.2 target=opp:elite")
    assert st.patrol["bob"][1] == ""


def test_gunpoint_taxman_takes_a_gold_for_each_patroller_it_kills():
    st = anarchy("turn = 3", "p1.units = Gunpoint Taxman, Gunpoint Taxman, Gunpoint Taxman", "p1.gold = 0",
                 "p2.units = Tiger Cub, Young Treant, Cloud Sprite", "p2.patrol = elite=tiger-cub lookout=young-treant",
                 "p2.gold = 1")
    st = do(st, "attack gunpoint-taxman opp:tiger-cub")
    assert st.players["alice"].gold == 5 and st.players["bob"].gold == 0
    st = do(st, "attack gunpoint-taxman.2 opp:young-treant")
    assert gone(st, "bob", "Young Treant") and st.players["alice"].gold == 5, "nothing to take (ruling)"
    st = do(st, "attack gunpoint-taxman.3 opp:cloud-sprite")  # anti-air: it may attack a flier
    assert gone(st, "bob", "Cloud Sprite")


def test_disguised_monkey_has_haste_and_stealth_on_its_first_turn():
    st = anarchy("p1.buildings = tech1, tech2", "p1.hand = Disguised Monkey", "p2.units = Tiger Cub",
                 "p2.patrol = sl=tiger-cub")
    st = do(st, "play disguised-monkey")
    monkey = thing(st, "alice", "Disguised Monkey")
    st = do(st, "attack disguised-monkey opp:base")
    assert base(st, "bob") == 17
    st = next_turn(next_turn(st))
    assert not engine.has(st, monkey, "stealth")


def test_chameleon_lizzo_sneaks_and_goes_home_at_the_end_of_every_turn():
    st = anarchy("p1.buildings = tech1, tech2", "p1.hand = Chameleon Lizzo", "p2.units = Tiger Cub",
                 "p2.patrol = sl=tiger-cub")
    st = do(st, "play chameleon-lizzo")
    st = do(st, "attack chameleon-lizzo opp:base")
    assert base(st, "bob") == 16
    st = do(st, "end")
    assert gone(st, "alice", "Chameleon Lizzo") and "Chameleon Lizzo" in hand_names(st, "alice")
    assert len(st.zones["hand:alice"].items) == 3, "after the draw (ruling): 0 + 2 drawn, then it came back"
    # in play on the opponent's turn, it goes back at the end of that turn (ruling)
    st = anarchy("turn = 2", "p1.units = Chameleon Lizzo")
    st = do(st, "end")
    assert "Chameleon Lizzo" in hand_names(st, "alice")


def test_marauder_boosted_trashes_a_worker_of_either_player():
    st = anarchy("p1.buildings = tech1, tech2", "p1.hand = Marauder, Marauder", "p1.gold = 8")
    st = do(st, "play marauder boost target=opp:base")
    assert engine.worker_count(st, "bob") == 4 and engine.has(st, thing(st, "alice", "Marauder"), "haste")
    st = do(st, "play marauder boost target=me:base")  # your own, if you wish (ruling)
    assert engine.worker_count(st, "alice") == 3


def test_steam_tank_hits_buildings_4_harder():
    st = anarchy("turn = 3", "p1.units = Steam Tank, Steam Tank", "p2.units = Ironbark Treant")
    st = do(st, "attack steam-tank opp:base")
    assert base(st, "bob") == 13
    st = do(st, "attack steam-tank.2 opp:ironbark-treant")
    assert gone(st, "bob", "Ironbark Treant") and stats(st, "alice", "Steam Tank")[0] == 3


def test_sanatorium_draws_then_puts_two_units_into_play_free_with_haste_and_ephemeral():
    st = anarchy("turn = 3", "p1.units = Sanatorium", "p1.hand = Steam Tank, Bombaster, Pirate Gunship",
                 "p1.deck = Scorch", "p1.gold = 0")
    with pytest.raises(IllegalCommand, match="Pirate Gunship is not a tech 0-II unit"):
        do(st, "use sanatorium admit choose=hand:pirate-gunship")
    st = do(st, "use sanatorium admit choose=hand:steam-tank;hand:bombaster")
    assert st.players["alice"].gold == 4 - 1, "no cost, no tech building for the units (ruling)"
    for name in ("Steam Tank", "Bombaster"):
        ref = thing(st, "alice", name)
        assert engine.has(st, ref, "haste") and engine.has(st, ref, "ephemeral")
        assert any(m.until == "" for m in st.things[ref].mods), "for good, not for the turn (ruling)"
    assert hand_names(st, "alice") == ["Pirate Gunship", "Scorch"]
    st = do(st, "attack steam-tank opp:base")
    st = do(st, "end")
    assert gone(st, "alice", "Steam Tank") and gone(st, "alice", "Bombaster")


def test_sanatorium_asks_which_units_after_the_draw_and_not_on_the_turn_it_arrives():
    st = anarchy("p1.buildings = tech1, tech2", "p1.hand = Sanatorium", "p1.gold = 10")
    st = do(st, "play sanatorium")
    with pytest.raises(IllegalCommand, match="arrival fatigue"):
        do(st, "use sanatorium admit")
    st = anarchy("turn = 3", "p1.units = Sanatorium", "p1.hand = Scorch", "p1.deck = Bombaster")
    st = do(st, "use sanatorium")
    assert st.prompt.kind == "card" and "choose hand:bombaster" in legal_texts(st)
    st = do(st, "choose none")
    assert st.prompt is None and hand_names(st, "alice") == ["Bombaster", "Scorch"]


def test_pirate_gunship_flies_at_once_and_obliterates_two():
    st = anarchy("p1.buildings = tech1, tech2, tech3", "p1.hand = Pirate Gunship", "p1.gold = 6",
                 "p2.units = Tiger Cub, Young Treant, Iron Man, Ironbark Treant", "p2.patrol = sl=iron-man")
    st = do(st, "play pirate-gunship")
    gunship = thing(st, "alice", "Pirate Gunship")
    assert [k for k in ("flying", "haste", "long_range") if engine.has(st, gunship, k)] == ["flying", "haste", "long_range"]
    assert engine.keywords(st, gunship)["resist"] == 2
    st = do(st, "attack pirate-gunship opp:base doomed=opp:tiger-cub,opp:young-treant")
    assert gone(st, "bob", "Tiger Cub") and gone(st, "bob", "Young Treant") and base(st, "bob") == 13


# --- Captain Zane ---------------------------------------------------------------------------


def test_zane_level_1_has_haste():
    st = anarchy("p1.gold = 2")
    st = do(st, "summon captain-zane")
    st = do(st, "attack captain-zane opp:base")
    assert base(st, "bob") == 18


def test_zane_level_4_kills_a_scavenger_for_gold_and_a_technician_for_a_card():
    st = anarchy("turn = 3", "p1.hero = 4", "p1.gold = 0", "p1.hand = Scorch", "p1.units = Mad Man",
                 "p2.units = Tiger Cub, Young Treant", "p2.patrol = scavenger=tiger-cub technician=young-treant")
    assert stats(st, "alice", "Captain Zane")[:2] == (3, 3)
    st = do(st, "attack captain-zane opp:scavenger")
    assert st.players["alice"].gold == 4 + 1
    st = anarchy("turn = 3", "p1.hero = 4", "p1.hand = Scorch", "p2.units = Tiger Cub, Young Treant",
                 "p2.patrol = scavenger=tiger-cub technician=young-treant")
    st = do(st, "attack captain-zane opp:technician")
    assert len(st.zones["hand:alice"].items) == 2


def test_zane_gets_nothing_when_another_unit_or_his_spell_kills():
    st = anarchy("turn = 3", "p1.hero = 4", "p1.gold = 3", "p1.hand = Scorch", "p1.units = Gunpoint Taxman",
                 "p2.units = Tiger Cub, Young Treant", "p2.patrol = scavenger=tiger-cub technician=young-treant")
    st = do(st, "attack gunpoint-taxman opp:tiger-cub")
    assert st.players["alice"].gold == 8, "the Taxman's steal of bob's scavenger gold, no Zane gold (ruling)"
    st = do(st, "play scorch target=opp:young-treant")
    assert len(st.zones["hand:alice"].items) == 0, "his spell is not Zane killing (ruling)"


def test_zane_max_level_shoves_a_patroller_then_hits_it_and_its_kill_counts_as_his():
    st = anarchy("turn = 3", "p1.hero = 5", "p1.gold = 0", "p2.units = Tiger Cub dmg=1, Young Treant",
                 "p2.patrol = sl=young-treant elite=tiger-cub")
    st = do(st, "level 1")
    assert st.prompt is not None and st.prompt.kind == "target"
    st = do(st, "choose opp:tiger-cub")
    assert st.prompt.options == ["scavenger", "technician", "lookout"], "any empty slot, gaps between or not (ruling)"
    gold = st.players["alice"].gold
    st = do(st, "choose scavenger")
    # 1 damage kills the cub in the scavenger slot: bob's scavenger gold, and Zane's
    assert gone(st, "bob", "Tiger Cub") and st.players["alice"].gold == gold + 1


def test_zane_max_level_with_a_full_patrol_zone_only_hits():
    st = anarchy("turn = 3", "p1.hero = 5", "p2.units = Tiger Cub, Young Treant, Wisp, Wisp, Iron Man",
                 "p2.patrol = sl=tiger-cub elite=young-treant scavenger=wisp technician=wisp lookout=iron-man")
    slots = list(st.patrol["bob"])
    st = do(st, "level 1 choose=opp:iron-man;none")
    assert st.patrol["bob"] == slots and stats(st, "bob", "Iron Man")[2] == 1, "nowhere to go, still 1 damage (ruling)"
    assert GAME.view(st, "alice").prompt == "your main phase"
