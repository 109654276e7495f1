"""Codex map cards (``--option map=NAME``): a fixed position for each of
the 12, its rule at work, and the same position without the map where the
difference is not plain."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.codex import GAME, maps
from pbem.games.codex.state import OVER
from tests.codex_helpers import do, legal_texts, next_turn, start, thing


def on(map_key: str, *lines: str, **options: str):
    """Bashing (alice) against Finesse (bob) on `map_key` ("" for none)."""
    return start(*lines, **{"p1": "bashing", "p2": "finesse", "map": map_key, **options})


def test_every_map_card_is_an_option_by_key_or_by_name():
    assert len(maps.MAPS) == 12
    for key, (name, _) in maps.MAPS.items():
        assert GAME.options({"map": name}).map == key
    assert "map cards (map=NAME; a rule for the whole game):" in GAME.presentation.catalogue()
    with pytest.raises(InvalidOption, match="no such map card"):
        GAME.options({"map": "atlantis"})


def test_the_map_is_named_in_the_picture():
    assert "map: Fury Road (one patroller at most a player)" in GAME.presentation.render(GAME.view(on("fury-road"), "bob"))


def test_fury_road_one_patroller_at_a_time():
    lines = ("p1.units = Older Brother, Tenderfoot",)
    with pytest.raises(IllegalCommand, match="one patroller at most"):
        do(on("fury-road", *lines), "end sl=older-brother elite=tenderfoot")
    assert all(t.count("=") <= 1 for t in legal_texts(on("fury-road", *lines)) if t.startswith("end"))
    do(on("", *lines), "end sl=older-brother elite=tenderfoot")


def test_flagstone_mines_hire_any_number_of_workers_a_turn():
    lines = ("p1.gold = 5", "p1.hand = Older Brother, Tenderfoot, Spark")
    st = do(do(on("flagstone-mines", *lines), "hire older-brother"), "hire tenderfoot")
    assert len(st.zones["workers:alice"].items) == 2
    with pytest.raises(IllegalCommand, match="already hired"):
        do(do(on("", *lines), "hire older-brother"), "hire tenderfoot")


def test_big_game_hunters_two_more_gold_each_upkeep():
    assert on("big-game-hunters").players["alice"].gold == 4 + 2
    st = next_turn(on("big-game-hunters"))
    assert st.players["bob"].gold == 5 + 2


def test_hard_times_mill_hiring_costs_one_more():
    st = do(on("hard-times-mill", "p1.hand = Older Brother"), "hire older-brother")
    assert st.players["alice"].gold == 4 - 2
    with pytest.raises(IllegalCommand, match="costs 2 gold"):
        do(on("hard-times-mill", "p1.hand = Older Brother", "p1.base_workers = 1"), "hire older-brother")


@pytest.mark.parametrize("turn, dealt", [(8, 0), (9, 2)])
def test_no_rush_prevents_all_damage_until_each_player_has_had_four_turns(turn, dealt):
    """Bob's fourth turn (8) is still inside; alice's fifth (9) is not."""
    side = "p1" if turn % 2 else "p2"
    st = on("no-rush-15-minutes", f"turn = {turn}", f"{side}.units = Older Brother")
    st = do(st, "attack older-brother opp:base")
    foe = "bob" if turn % 2 else "alice"
    assert st.players[foe].base_damage == dealt


def test_daggerfall_prison_camp_hiring_takes_no_card():
    st = on("daggerfall-prison-camp", "p1.hand = Older Brother")
    assert [t for t in legal_texts(st) if t.startswith("hire")] == ["hire"]
    after = do(st, "hire")
    assert after.players["alice"].base_workers == 5 and len(after.zones["hand:alice"].items) == 1
    with pytest.raises(IllegalCommand, match="takes no card"):
        do(st, "hire older-brother")


def test_mystical_forest_a_rune_instead_of_readying():
    lines = ("turn = 3", "tech = yes", "p1.units = Older Brother exhausted")
    st = on("mystical-forest", *lines)
    grow = next(t for t in legal_texts(st) if "rune=" in t)
    assert grow.endswith("rune=me:older-brother")
    st = do(st, grow)
    brother = thing(st, "alice", "Older Brother")
    assert st.things[brother].runes == 1 and st.things[brother].exhausted
    plain = on("", *lines)
    with pytest.raises(IllegalCommand, match="Mystical Forest"):
        do(plain, grow)
    assert not [t for t in legal_texts(plain) if "rune=" in t]


def test_burial_grounds_a_dead_hero_never_comes_back():
    st = on("burial-grounds", "turn = 2", "p1.hero = 1", "p2.units = Regular-sized Rhinoceros")
    st = next_turn(do(st, "attack regular-sized-rhinoceros opp:troq-bashar"))
    st = next_turn(next_turn(st))
    assert st.players["alice"].heroes["Troq Bashar"].gone
    assert not [t for t in legal_texts(st) if t.startswith("summon")]
    with pytest.raises(IllegalCommand, match="out of the game"):
        do(st, "summon troq-bashar")
    assert "Troq Bashar (out of the game)" not in GAME.presentation.render(GAME.view(st, "bob"))  # one hero: the 1-hero line
    assert "hero: Troq Bashar in command zone" in GAME.presentation.render(GAME.view(st, "bob"))


@pytest.mark.parametrize("map_key", ["pinnacle", ""])
def test_pinnacle_ultimates_at_any_level_and_a_longer_wait_for_the_dead(map_key):
    st = do(on(map_key, "p1.gold = 10", "p1.hand = War Drums", p1="blood"), "summon drakk-ramhorn")
    if map_key:
        do(st, "play war-drums")
    else:
        with pytest.raises(IllegalCommand, match="max level"):
            do(st, "play war-drums")
    st = on(map_key, "turn = 2", "p1.hero = 1", "p2.units = Regular-sized Rhinoceros")
    st = do(st, "attack regular-sized-rhinoceros opp:troq-bashar")
    assert st.players["alice"].heroes["Troq Bashar"].back == 5 + (2 if map_key else 0)


def test_vortoss_ruins_every_player_has_the_tech_lab_and_the_heroes_hall():
    st = start("p1.gold = 20", "p1.buildings = tech1", "p1.base_workers = 8", mode="3hero", map="vortoss-ruins")
    for addon in ("hall", "techlab fire"):
        with pytest.raises(IllegalCommand, match="Vortoss Ruins"):
            do(st, f"build {addon}")
    assert [t for t in legal_texts(st) if t.startswith("build tech2")] == [
        "build tech2 anarchy blood", "build tech2 anarchy fire", "build tech2 blood fire"]
    st = do(do(st, "build tech2 blood fire"), "summon captain-zane")
    assert st.players["alice"].tech_specs == ["Blood", "Fire"]
    st = do(st, "summon drakk-ramhorn")  # the hall's one more hero, with no tech II building finished
    assert [t for t in legal_texts(st) if t.startswith("summon")] == []


def test_bloodbowl_units_get_one_more_atk_and_haste():
    st = do(on("bloodbowl", "p1.hand = Older Brother"), "play older-brother")
    st = do(st, "attack older-brother opp:base")
    assert st.players["bob"].base_damage == 3
    with pytest.raises(IllegalCommand):
        do(do(on("", "p1.hand = Older Brother"), "play older-brother"), "attack older-brother opp:base")


def test_lost_temple_no_tech_building_and_no_hero_needed():
    st = on("lost-temple", "p1.gold = 10", "p1.hand = Regular-sized Rhinoceros, Intimidate")
    st = do(do(st, "play regular-sized-rhinoceros"), "play intimidate target=me:regular-sized-rhinoceros")
    assert st.phase != OVER and thing(st, "alice", "Regular-sized Rhinoceros")
    plain = on("", "p1.gold = 10", "p1.hand = Regular-sized Rhinoceros, Intimidate")
    assert not [t for t in legal_texts(plain) if t.startswith("play")]
