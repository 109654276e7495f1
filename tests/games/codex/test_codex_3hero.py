"""Codex 3-hero mode (``--option mode=3hero``), rule by rule from the
rulebook's "Codex 3-Hero Game" (and the rulings on the tech lab and the
heroes' hall), each from a fixed position; then seeded bot games under
hotseat (PBEM_LONG=1 plays more) and a whole game under the referee and
under peer, verified from its files and audited."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from pbem.app import opening
from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.base import RandomChance
from pbem.app.demo import run_demo
from pbem.games.codex import GAME, board, cards, engine
from pbem.games.codex.bots import greedy_bot
from pbem.games.codex.commands import End
from pbem.games.codex.state import OVER
from pbem.app.audit import audit
from pbem.render import codex_cards
from tests import tamper
from tests.codex_helpers import CH, SEATS, do, legal_texts, next_turn, start

LONG = os.environ.get("PBEM_LONG") == "1"
RED_GREEN = {"mode": "3hero", "p1": "anarchy,blood,fire", "p2": "balance,feral,growth"}


def three(*lines: str, **options: str):
    return start(*lines, **{**RED_GREEN, **options})


def heroes_in_play(st, seat: str) -> list[str]:
    return sorted(st.things[r].card for r in board.heroes_in_play(st, seat))


# --- set-up: three heroes, their codex, the starter deck of the main one ----------------------------


def test_three_heroes_wait_in_the_public_command_zone_with_the_72_codex_cards_of_their_specs():
    """"Put all three of your heroes in your command zone ... public
    knowledge"; "your codex contains 24 cards from each of those specs"."""
    st = GAME.advance(GAME.setup(GAME.options({"mode": "3hero"}), SEATS, CH), CH)
    alice, bob = st.players["alice"], st.players["bob"]
    assert list(alice.heroes) == ["Captain Zane", "Drakk Ramhorn", "Jaina Stormborne"]
    assert list(bob.heroes) == ["Master Midori", "Calamandra Moss", "Argagarg Garg"]
    assert all(h.home for p in (alice, bob) for h in p.heroes.values())
    codex = Counter(it.card for it in st.zones["codex:alice"].items)
    assert sum(codex.values()) == 72
    assert codex == Counter(cards.codex_cards("Anarchy") + cards.codex_cards("Blood") + cards.codex_cards("Fire"))
    assert (alice.colour, bob.colour) == ("red", "green")
    seen_by_bob = GAME.view(st, "bob").sides[0]
    assert [(h.name, h.handle) for h in seen_by_bob.heroes] == [(n, "") for n in alice.heroes]
    assert "command zone: Captain Zane, Drakk Ramhorn, Jaina Stormborne" in GAME.presentation.render(GAME.view(st, "bob"))


@pytest.mark.parametrize("raw, colour", [
    ({"p1": "fire,balance,bashing"}, "red"),                            # the main hero: the first named
    ({"p1": "fire,balance,bashing", "p1_starter": "green"}, "green"),  # or another of its heroes' colour
    ({"p1": "fire,balance,bashing", "p1_starter": "neutral"}, "neutral"),
])
def test_mixed_colours_take_the_starter_deck_of_the_main_hero(raw, colour):
    st = GAME.setup(GAME.options({"mode": "3hero", **raw}), SEATS, CH)
    assert st.players["alice"].colour == colour
    assert Counter(it.card for it in st.zones["deck:alice"].items) == Counter(cards.starter(colour))


@pytest.mark.parametrize("raw, error", [
    ({"mode": "3hero", "p1": "fire,balance"}, "3 different spec"),
    ({"mode": "3hero", "p1": "fire,fire,blood"}, "3 different spec"),
    ({"mode": "3hero", "p1": "fire,blood,anarchy", "p1_starter": "green"}, "one of your heroes' colours"),
    ({"p1": "fire,blood,anarchy"}, "mode=3hero for three"),
    ({"mode": "5hero"}, "no such mode"),
    ({"mode": "3hero", "first": "bashing"}, "first=bashing"),
])
def test_a_team_that_breaks_the_rules_is_refused_when_the_game_is_made(raw, error):
    with pytest.raises(InvalidOption, match=error):
        GAME.options(raw)


def test_pbem_info_lists_the_modes():
    listed = "\n".join(GAME.presentation.catalogue())
    assert "modes (mode=): 1hero (the default: p1=SPEC, p2=SPEC)," in listed and "  3hero (three different" in listed
    assert "  ffa (free-for-all of 3 to 5 seats" in listed and "  2v2 (Two-Headed Dragon" in listed
    for mode in ("1hero", "3hero", "ffa", "2v2"):  # every mode listed is one the options take
        GAME.options({"mode": mode, "players": "3"} if mode == "ffa" else {"mode": mode})


def test_the_add_ons_of_3_hero_mode_are_not_built_in_1_hero_mode():
    st = start("p1.gold = 20")
    with pytest.raises(IllegalCommand, match="3hero mode only"):
        do(st, "build hall")
    assert not [t for t in legal_texts(st) if "hall" in t or "techlab" in t]


# --- the hero limit ---------------------------------------------------------------------------------


@pytest.mark.parametrize("buildings, limit", [
    ("", 1),
    ("tech1, tech2 anarchy", 2),
    ("hall", 2),
    ("tech1, tech2 anarchy, tech3", 3),
    ("tech1, tech2 anarchy, hall", 3),   # ruling on Heroes' Hall
])
def test_the_hero_limit_grows_with_the_tech_buildings_and_the_heroes_hall(buildings, limit):
    st = three("p1.gold = 20", f"p1.buildings = {buildings}")
    for n in range(limit):
        summons = [t for t in legal_texts(st) if t.startswith("summon")]
        assert len(summons) == 3 - n, "pbem legal lists every hero of the command zone it may summon"
        st = do(st, summons[0])
    assert len(heroes_in_play(st, "alice")) == limit
    assert not [t for t in legal_texts(st) if t.startswith("summon")]
    for home in [n for n, h in st.players["alice"].heroes.items() if h.home]:
        with pytest.raises(IllegalCommand, match=f"hero limit is {limit}"):
            do(st, f"summon {cards.slug(home)}")


@pytest.mark.parametrize("building", ["tech2", "hall"])
def test_losing_the_building_sends_no_hero_away_but_the_limit_holds_at_the_next_summon(building):
    """"The hero limit is only checked at the moment you would summon a new
    hero"; "If your heroes' hall is destroyed, you don't have to sacrifice"."""
    st = three("turn = 2", "p1.hero = 1", "p1.heroes = Drakk Ramhorn 1", "p1.buildings = tech1, tech2 anarchy, hall",
               "p1.gold = 10", "p2.units = Rampaging Elephant", "p2.codex = Gigadon")
    st = do(st, f"attack rampaging-elephant opp:{building}")
    assert building not in st.players["alice"].buildings
    st = next_turn(st)
    assert heroes_in_play(st, "alice") == ["Captain Zane", "Drakk Ramhorn"]
    with pytest.raises(IllegalCommand, match="hero limit is 2"):
        do(st, "summon jaina-stormborne")


def test_a_hero_that_died_makes_room_for_another_under_the_limit_of_one():
    """"You can even summon one hero, let it die, then summon a different one"."""
    st = three("turn = 2", "p1.hero = 1", "p1.gold = 10", "p2.units = Rampaging Elephant", "p2.codex = Gigadon")
    st = do(st, "attack rampaging-elephant opp:captain-zane")
    st = next_turn(st)
    assert [t for t in legal_texts(st) if t.startswith("summon")] == ["summon drakk-ramhorn", "summon jaina-stormborne"]
    st = do(st, "summon drakk-ramhorn")
    assert heroes_in_play(st, "alice") == ["Drakk Ramhorn"]


@pytest.mark.parametrize("midori, asked", [(1, True), (8, False)])
def test_a_hero_death_levels_one_opposing_hero_that_can_level_the_active_player_picks(midori, asked):
    """"The active player chooses which hero if there are multiple opposing
    heroes, and they can only choose a hero that actually can level up"."""
    st = three("turn = 2", "p1.hero = 1", "p2.units = Rampaging Elephant", f"p2.hero = {midori}",
               "p2.heroes = Calamandra Moss 1", "p2.buildings = tech1, tech2 feral", "p2.codex = Gigadon")
    st = do(st, "attack rampaging-elephant opp:captain-zane")
    if asked:
        assert sorted(legal_texts(st)) == ["choose me:calamandra-moss", "choose me:master-midori"]
        st = do(st, "choose me:calamandra-moss")
    moss = engine.controls(st, "bob", "Calamandra Moss")[0]
    assert st.things[moss].level == 3


# --- the tech II spec and the tech lab ------------------------------------------------------------


def test_the_tech_ii_building_names_one_of_the_seats_specs_for_the_rest_of_the_game():
    st = three("p1.buildings = tech1", "p1.base_workers = 8", "p1.gold = 20", "p2.units = Rampaging Elephant",
               "p2.codex = Gigadon")
    assert [t for t in legal_texts(st) if t.startswith("build tech2")] == [
        "build tech2 anarchy", "build tech2 blood", "build tech2 fire"]
    for wrong, error in (("build tech2", "name 1 of your specs"), ("build tech2 balance", "not one of your specs")):
        with pytest.raises(IllegalCommand, match=error):
            do(st, wrong)
    st = next_turn(do(st, "build tech2 blood"))
    assert st.players["alice"].tech_specs == ["Blood"]
    st = next_turn(do(st, "attack rampaging-elephant opp:tech2"))
    assert "tech2" not in st.players["alice"].buildings
    with pytest.raises(IllegalCommand, match="makes Blood for the rest of the game"):
        do(st, "build tech2 fire")
    gold = st.players["alice"].gold
    st = do(st, "build tech2")
    assert st.players["alice"].tech_specs == ["Blood"] and st.players["alice"].gold == gold, "rebuilt free, same spec"


def test_tech_ii_cards_need_the_spec_of_the_tech_ii_building_tech_i_cards_any_spec():
    st = three("p1.buildings = tech1, tech2 blood", "p1.gold = 20",
               "p1.hand = Ogre Recruiter, Chameleon Lizzo, Firebat, Doubleshot Archer")
    plays = [t for t in legal_texts(st) if t.startswith("play")]
    assert plays == ["play firebat", "play ogre-recruiter"]
    with pytest.raises(IllegalCommand, match="your tech II and III buildings make Blood"):
        do(st, "play chameleon-lizzo")
    do(do(st, "play ogre-recruiter"), "play firebat")


def test_the_tech_lab_unlocks_a_second_spec_until_it_is_destroyed_and_may_name_another_when_rebuilt():
    st = three("p1.buildings = tech1, tech2 blood, techlab fire", "p1.gold = 20",
               "p1.hand = Doubleshot Archer, Chameleon Lizzo", "p1.deck = Doubleshot Archer, Chameleon Lizzo",
               "p2.units = Rampaging Elephant", "p2.codex = Gigadon")
    assert "play doubleshot-archer" in legal_texts(st)
    assert "play chameleon-lizzo" not in legal_texts(st)
    st = next_turn(do(next_turn(st), "attack rampaging-elephant opp:techlab"))
    assert "techlab" not in st.players["alice"].buildings
    with pytest.raises(IllegalCommand, match="make Blood"):
        do(st, "play doubleshot-archer")
    assert [t for t in legal_texts(st) if t.startswith("build techlab")] == ["build techlab anarchy",
                                                                           "build techlab fire"]
    with pytest.raises(IllegalCommand, match="makes Blood already"):
        do(st, "build techlab blood")
    st = next_turn(do(st, "build techlab anarchy"))
    assert "Tech II 5/5 (Blood), Tech Lab 4/4 (Anarchy)" in GAME.presentation.render(GAME.view(st, "bob"))


def test_a_tech_lab_without_a_tech_ii_building_makes_no_tech_ii_card():
    st = three("p1.buildings = tech1, techlab fire", "p1.gold = 20", "p1.hand = Doubleshot Archer")
    with pytest.raises(IllegalCommand, match="needs a finished Tech II building"):
        do(st, "play doubleshot-archer")


# --- the extra gold of a team of more than one colour -------------------------------------------


@pytest.mark.parametrize("team, first, second", [
    ("anarchy,blood,fire", 1, 3),       # one colour
    ("anarchy,blood,bashing", 1, 3),    # neutral is no colour
    ("anarchy,blood,balance", 2, 3),    # red and green: the first building costs 1 more
])
def test_a_team_of_two_colours_pays_one_more_gold_for_its_first_tech_building_or_add_on(team, first, second):
    st = three("p1.gold = 10", "p1.base_workers = 6", p1=team)
    after = do(st, "build tech1")
    assert st.players["alice"].gold - after.players["alice"].gold == first
    again = do(after, "build tower")
    assert after.players["alice"].gold - again.players["alice"].gold == second
    addon_first = do(st, "build tower")
    assert st.players["alice"].gold - addon_first.players["alice"].gold == second + first - 1


# --- spells: minor spells off colour, spec spells need their hero ----------------------------------


@pytest.mark.parametrize("hero, cost", [("p1.hero = 1", 1), ("p1.heroes = Master Midori 1", 2)])
def test_a_minor_spell_costs_one_more_with_only_heroes_of_another_colour(hero, cost):
    st = three(hero, "p1.gold = 5", "p1.hand = Pillage, Fire Dart", p1="fire,balance,feral")
    after = do(st, "play pillage target=opp:base")
    assert st.players["alice"].gold - after.players["alice"].gold == cost
    if cost == 2:
        with pytest.raises(IllegalCommand, match="needs your Fire hero in play"):
            do(st, "play fire-dart target=opp:base")


# --- pictures -------------------------------------------------------------------------------------


def test_the_pictures_show_three_heroes_a_side_within_80_columns():
    st = three("p1.hero = 3", "p1.heroes = Drakk Ramhorn 2", "p1.buildings = tech1, tech2 blood, techlab fire",
               "p1.units = Older Brother, Tenderfoot", "p2.heroes = Calamandra Moss 1",
               "p2.buildings = tech1, tech2 feral, hall")
    for seat in ("alice", "bob", None):
        v = GAME.view(st, seat)
        text, compact = GAME.presentation.render(v), GAME.presentation.compact(v)
        assert max(len(line) for line in (text + "\n" + compact).splitlines()) <= 80
        assert len(compact.splitlines()) <= 12
        assert "alice - Anarchy/Blood/Fire" in text.replace(" (you)", "")
        assert "heroes in play: Captain Zane, Drakk Ramhorn; command zone: Jaina Stormborne" in text
        assert "heroes in play: Calamandra Moss; command zone: Master Midori, Argagarg Garg" in text
        assert "Tech II 5/5 (Blood), Tech Lab 4/4 (Fire)" in text
        svg = GAME.presentation.svg(v)
        assert all(name in svg for name in ("Jaina Stormborne", "Master Midori", "Argagarg Garg", "Balance/Feral/Growth"))
        page = codex_cards.board(v)
        assert "command zone: Master Midori, Argagarg Garg" in page


# --- bot games -----------------------------------------------------------------------------------


def _bot_game(seed: int, options: dict) -> tuple:
    rng, chance = random.Random(seed), RandomChance(seed)
    st = GAME.advance(GAME.setup(GAME.options(options), SEATS, chance), chance)
    most = 0
    for n in range(3000):
        if GAME.outcome(st) is not None:
            return st, n, most
        for seat in st.seats:
            p = st.players[seat]
            mine = Counter(cards.starter(p.colour)) + Counter(c for s in p.specs for c in cards.codex_cards(s))
            held = Counter(it.card for z, zone in st.zones.items() if z.endswith(":" + seat)
                           and not z.startswith(("play", "ongoing")) for it in zone.items)
            held += Counter(t.card for t in st.things.values() if t.owner == seat
                            and cards.kind(t.card) not in ("token", "hero"))
            assert held == mine, seat
            most = max(most, len(board.heroes_in_play(st, seat)))
        seat = GAME.to_act(st)[0]
        cmd = GAME.presentation.bots["greedy"](GAME, st, seat, rng)
        st = GAME.advance(GAME.apply(st, seat, cmd, chance), chance)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", range(20 if LONG else 2))
def test_greedy_bots_play_3_hero_games_to_a_destroyed_base(seed):
    teams = [RED_GREEN, {"mode": "3hero", "p1": "fire,growth,finesse", "p2": "feral,blood,bashing",
                         "p2_starter": "neutral"}]
    st, moves, most = _bot_game(seed, teams[seed % 2])
    assert st.phase == OVER and any(st.players[s].base_damage >= 20 for s in st.seats)
    assert 1 <= most <= 3


# --- dealers: a whole game verified and audited ----------------------------------------------------


def rusher(game, state, seat, rng):
    """The greedy bot leaving its patrol zone empty: a short game."""
    cmd = greedy_bot(game, state, seat, rng)
    return End() if isinstance(cmd, End) else cmd


# the peer game in the full run only (the quick subset keeps the referee's)
@pytest.mark.parametrize("dealer", ["referee", pytest.param("peer", marks=pytest.mark.slow)])
def test_a_3_hero_game_verifies_and_audits_under_the_referee_and_peer(dealer, tmp_path):
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAME.presentation.bots, "rusher", rusher)
        mp.setattr(GAME.presentation, "demo_bot", "rusher")
        table = tamper.play("codex", dealer, ["alice", "bob"], 3, options=("mode=3hero",))
    folder = tamper.save(table, tmp_path / "game")
    chain = opening.verify(folder)
    assert chain.over and chain.outcome().winners
    final = next(r.after for r in reversed(chain.records) if r.after is not None)
    assert final.mode == "3hero" and all(len(p.heroes) == 3 for p in final.players.values())
    report = audit(folder)
    assert report.ok, report.failures


@pytest.mark.skipif(not LONG, reason="the CLI demo under every dealer: PBEM_LONG=1")
@pytest.mark.parametrize("dealer", ["hotseat", "referee", "peer"])
def test_the_3_hero_demo_plays_to_the_end(dealer, tmp_path):
    folder = run_demo("codex", tmp_path / "game", 1, dealer, None, lambda line: None, keys_dir=tmp_path / "keys",
                      options=["mode=3hero"])
    for seat in ("alice", "bob") if dealer == "peer" else ("",):
        assert opening.verify(folder / seat).over
        assert audit(folder / seat).ok
