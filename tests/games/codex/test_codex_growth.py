"""The Growth spec (green) card by card, its hero Argagarg Garg band by
band, and every ruling about them in rulings.json, from fixed positions.
Alice (p1) plays Growth with the green starter deck, Bob (p2) Bashing
unless said otherwise."""

from __future__ import annotations

import pytest

from codex_helpers import CH, GAME, base, do, gone, legal_texts, next_turn, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import board, engine, values
from pbem.games.codex.state import Mod


def growth(*lines: str, p2: str = "bashing") -> object:
    return start(*lines, p1="growth", p2=p2)


def tech(st):
    """The active seat techs whatever `legal` lists first, if it must."""
    if st.phase == "tech":
        st = GAME.advance(GAME.apply(st, st.active, GAME.legal(st, st.active)[0], CH), CH)
    return st


# --- Polymorph: Squirrel -------------------------------------------------------------------------


def test_polymorph_squirrel_until_the_casters_next_upkeep():
    """Rulings: no arrival; runes, damage and attachments stay; printed
    abilities and one-time effects given before are lost, later ones count;
    the tech level stays."""
    st = growth("turn = 3", "p1.hand = Polymorph: Squirrel, Rampant Growth", "p1.hero = 1", "p1.gold = 20",
                "p2.units = Barkcoat Bear runes=1 dmg=1, Spirit of the Panda", "p2.hero = 1")
    bear = thing(st, "bob", "Barkcoat Bear")
    panda = thing(st, "bob", "Spirit of the Panda")
    st.things[panda].attached = bear
    st.things[bear].mods = [Mod(atk=2)]  # a one-time effect given before
    before = len(st.fresh)
    st = do(st, "play polymorph-squirrel target=opp:barkcoat-bear")  # resist 2 paid
    assert st.players["alice"].gold == 20 - 3 - 2 and len(st.fresh) == before
    assert stats(st, "bob", "Barkcoat Bear") == (1 + 1 + 2, 1 + 1 + 2, 1), "a 1/1 with its rune and its Spirit of the Panda"
    assert values.keywords(st, bear) == {} and board.subtypes(st, bear) == ("Squirrel",)
    assert board.tech_of(st, bear) == 2 and st.things[bear].arrived == 0
    st = do(st, "play rampant-growth target=opp:barkcoat-bear")  # given after: it counts
    assert stats(st, "bob", "Barkcoat Bear")[0] == 6
    st = next_turn(st)
    assert stats(st, "bob", "Barkcoat Bear")[:2] == (1 + 1 + 2, 1 + 1 + 2), "still a squirrel on bob's turn"
    st = next_turn(st)
    assert stats(st, "bob", "Barkcoat Bear")[:2] == (5 + 1 + 2, 5 + 1 + 2) and values.keywords(st, bear)["resist"] == 2


def test_polymorph_squirrel_can_kill_even_the_indestructible():
    """Rulings: damage already on it may kill the 1/1; an indestructible
    unit made a Squirrel dies to 1 damage."""
    st = growth("turn = 3", "p1.hand = Polymorph: Squirrel, Polymorph: Squirrel", "p1.hero = 1", "p1.gold = 20",
                "p1.units = Careless Musketeer", "p2.units = Iron Man dmg=1, Immortal")
    st = do(st, "play polymorph-squirrel target=opp:iron-man")
    assert gone(st, "bob", "Iron Man")
    st = do(st, "play polymorph-squirrel target=opp:immortal")
    st = do(st, "use careless-musketeer shoot target=opp:immortal")
    assert gone(st, "bob", "Immortal")


def test_dinosize_6_atk_and_6_armor_this_turn():
    st = growth("turn = 3", "p1.hand = Dinosize", "p1.hero = 1", "p1.units = Tiger Cub", "p2.units = Regular-sized Rhinoceros",
                "p2.patrol = sl=regular-sized-rhinoceros")
    st = do(st, "play dinosize target=me:tiger-cub")
    cub = thing(st, "alice", "Tiger Cub")
    assert stats(st, "alice", "Tiger Cub")[0] == 8 and values.armor_left(st, cub) == 6
    st = do(st, "attack tiger-cub opp:sl")
    assert gone(st, "bob", "Regular-sized Rhinoceros") and stats(st, "alice", "Tiger Cub")[2] == 0
    st = next_turn(st)
    assert stats(st, "alice", "Tiger Cub")[0] == 2 and values.armor_left(st, cub) == 0


def test_spirit_of_the_panda_attached_2_2_gold_on_attack_healing_1():
    st = growth("turn = 3", "p1.hand = Spirit of the Panda", "p1.hero = 1", "p1.units = Tiger Cub dmg=1, Young Treant dmg=1")
    st = do(st, "play spirit-of-the-panda target=me:tiger-cub")
    assert stats(st, "alice", "Tiger Cub")[:2] == (4, 4)
    gold = st.players["alice"].gold
    st = do(st, "attack tiger-cub opp:base")
    assert st.players["alice"].gold == gold + 1 and base(st, "bob") == 16
    st = next_turn(next_turn(st))
    assert stats(st, "alice", "Young Treant")[2] == 0 and stats(st, "alice", "Tiger Cub")[2] == 0, "healing 1"
    engine.die(st, [thing(st, "alice", "Tiger Cub")], None)
    engine.settle(st, None)
    assert not engine.spells_of(st, "alice"), "gone with its host"


def test_spirit_of_the_panda_on_an_opposing_unit_gold_for_that_units_controller():
    st = growth("turn = 3", "p1.hand = Spirit of the Panda", "p1.hero = 1", "p2.units = Iron Man")
    st = do(st, "play spirit-of-the-panda target=opp:iron-man")
    st = next_turn(st)
    gold = st.players["bob"].gold
    st = do(st, "attack iron-man opp:base")
    assert st.players["bob"].gold == gold + 1 and base(st, "alice") == 15


def test_stampede_3_atk_3_armor_and_excess_to_the_base_before_overpower():
    """Ruling: overpower is not lost (a Wandering Mimic still sees it); only
    where the excess goes changes."""
    st = growth("turn = 3", "p1.hand = Stampede", "p1.hero = 5", "p1.gold = 10", "p1.units = Centaur, Tiger Cub",
                "p2.units = Older Brother, Tenderfoot, Wandering Mimic", "p2.patrol = sl=older-brother")
    st = do(st, "play stampede")
    centaur = thing(st, "alice", "Centaur")
    assert stats(st, "alice", "Centaur")[0] == 6 and values.armor_left(st, centaur) == 3
    assert values.has(st, centaur, "overpower") and values.has(st, thing(st, "bob", "Wandering Mimic"), "overpower")
    assert not any("over=" in t for t in legal_texts(st) if t.startswith("attack centaur"))
    st = do(st, "attack centaur opp:sl")  # 6 ATK: 2 HP and 1 armor, 3 to the base
    assert base(st, "bob") == 17 and gone(st, "bob", "Older Brother") and stats(st, "bob", "Tenderfoot")[2] == 0
    assert stats(st, "alice", "Centaur")[2] == 0, "its armor took the strike back"
    st = do(st, "attack tiger-cub opp:wandering-mimic")  # 5 ATK against 4 HP: 1 to the base, off patrol too
    assert base(st, "bob") == 16
    st = next_turn(st)
    assert stats(st, "alice", "Centaur")[0] == 3


def test_stampede_needs_the_growth_hero_at_max_level():
    st = growth("turn = 3", "p1.hand = Stampede", "p1.hero = 4")
    with pytest.raises(IllegalCommand, match="max level"):
        do(st, "play stampede")


# --- units -------------------------------------------------------------------------------------


def test_galina_glimmer_a_gold_for_every_two_green_units():
    """Rulings: she counts; 3 green units give 1 gold, not 1.5."""
    st = growth("turn = 3", "tech = yes", "p1.units = Galina Glimmer, Tiger Cub, Iron Man", "p1.gold = 0")
    st = tech(st)
    assert st.players["alice"].gold == 4 + 1
    st = growth("turn = 3", "tech = yes", "p1.units = Galina Glimmer, Tiger Cub, Wisp, Iron Man", "p1.gold = 0")
    st = tech(st)
    assert st.players["alice"].gold == 4 + 1
    st = growth("turn = 3", "tech = yes", "p1.units = Galina Glimmer, Tiger Cub, Wisp, Young Treant", "p1.gold = 0")
    st = tech(st)
    assert st.players["alice"].gold == 4 + 2


def test_giant_panda_arrives_exhausted_with_a_wisp():
    st = growth("p1.hand = Giant Panda", "p1.buildings = tech1")
    st = do(st, "play giant-panda")
    assert st.things[thing(st, "alice", "Giant Panda")].exhausted and stats(st, "alice", "Wisp")[:2] == (0, 1)
    assert stats(st, "alice", "Giant Panda")[:2] == (2, 4)


def test_artisan_mantis_repairs_up_to_3_on_a_building():
    """Ruling: less damage than 3 is all repaired; no HP above full."""
    st = growth("p1.hand = Artisan Mantis, Artisan Mantis", "p1.buildings = tech1, tech2", "p1.base = 15", "p1.gold = 20",
                "p1.units = Verdant Tree dmg=2")
    st = do(st, "play artisan-mantis target=me:base")
    assert base(st, "alice") == 18
    st = do(st, "play artisan-mantis target=me:verdant-tree")
    assert stats(st, "alice", "Verdant Tree")[2] == 0


def test_oversized_rhinoceros_has_no_ability():
    st = growth("p1.units = Oversized Rhinoceros")
    rhino = thing(st, "alice", "Oversized Rhinoceros")
    assert stats(st, "alice", "Oversized Rhinoceros")[:2] == (7, 8) and values.keywords(st, rhino) == {}


def test_blooming_ancient_grows_when_others_arrive_and_passes_runes_on():
    st = growth("turn = 3", "p1.units = Blooming Ancient, Tiger Cub", "p1.hand = Young Treant, Giant Panda",
                "p1.buildings = tech1", "p1.gold = 20")
    ancient = thing(st, "alice", "Blooming Ancient")
    st = do(st, "play young-treant")
    st = do(st, "play giant-panda")  # the panda and its wisp
    assert st.things[ancient].runes == 3
    st = do(st, "use blooming-ancient share target=me:tiger-cub")
    st = do(st, "use blooming-ancient share target=me:tiger-cub")  # no exhaust in its cost
    assert st.things[ancient].runes == 1 and stats(st, "alice", "Tiger Cub")[:2] == (4, 4)
    with pytest.raises(IllegalCommand):
        do(st, "use blooming-ancient share target=me:blooming-ancient")


def test_blooming_elm_overpower_for_runes_and_runes_for_those_without():
    """Ruling: it may target a unit or hero with runes already; it just adds none."""
    st = growth("turn = 3", "p1.units = Blooming Elm, Tiger Cub, Young Treant runes=1", "p1.hero = 1",
                "p2.units = Wisp", "p2.patrol = sl=wisp")
    cub = thing(st, "alice", "Tiger Cub")
    assert not values.has(st, cub, "overpower") and values.has(st, thing(st, "alice", "Young Treant"), "overpower")
    st2 = do(st, "use blooming-elm grow target=me:tiger-cub")
    assert stats(st2, "alice", "Tiger Cub")[:2] == (5, 5) and values.has(st2, cub, "overpower")
    st2 = do(st2, "attack tiger-cub opp:sl over=opp:base")  # 5 ATK: 1 HP and 1 armor, 3 over
    assert base(st2, "bob") == 17
    st3 = do(st, "use blooming-elm grow target=me:argagarg-garg")
    assert stats(st3, "alice", "Argagarg Garg")[:2] == (2, 4)
    st4 = do(st, "use blooming-elm grow target=me:young-treant")
    assert stats(st4, "alice", "Young Treant")[:2] == (1, 3) and st4.things[thing(st4, "alice", "Blooming Elm")].exhausted


def test_might_of_leaf_and_claw_growth_runes_for_combat_damage_and_5_5_from_five():
    """Rulings: 0 combat damage is none; damage to armor counts; sparkshot
    and overpower go with the attack's damage: one rune."""
    st = growth("turn = 3", "p1.units = Might of Leaf and Claw, Huntress, Wisp, Centaur, Tiger Cub",
                "p2.units = Older Brother, Tenderfoot, Iron Man", "p2.patrol = sl=older-brother elite=tenderfoot scavenger=iron-man")
    might = thing(st, "alice", "Might of Leaf and Claw")
    st = do(st, "attack wisp opp:sl")
    assert st.things[might].counters == {}
    st = do(st, "attack huntress opp:sl spark=opp:elite")  # the armor, the patroller and the sparkshot: one rune
    assert st.things[might].counters == {"growth": 1}
    st.things[might].counters["growth"] = 4
    st = do(st, "attack centaur opp:elite over=opp:scavenger")
    assert st.things[might].counters == {"growth": 5}
    assert stats(st, "alice", "Tiger Cub")[:2] == (7, 7) and stats(st, "alice", "Huntress")[:2] == (8, 8)


def test_guargum_growth_spells_free_without_a_growth_hero():
    """Ruling: an ultimate Growth spell too, even the turn he came into play."""
    st = growth("turn = 3", "p1.hand = Guargum-Eternal-Sentinel, Stampede, Dinosize", "p1.buildings = tech1, tech2, tech3",
                "p1.gold = 20", "p2.units = Iron Man, Tiger Cub, Older Brother, Tenderfoot, Wisp")
    with pytest.raises(IllegalCommand, match="hero"):
        do(st, "play dinosize target=opp:iron-man")
    st = do(st, "play guargum-eternal-sentinel")
    gold = st.players["alice"].gold
    st = do(st, "play stampede")
    st = do(st, "play dinosize target=me:guargum-eternal-sentinel")
    assert st.players["alice"].gold == gold and stats(st, "alice", "Guargum, Eternal Sentinel")[0] == 12 + 3 + 6
    guargum = thing(st, "alice", "Guargum, Eternal Sentinel")
    assert values.keywords(st, guargum)["resist"] == 2 and values.keywords(st, guargum)["obliterate"] == 4


def test_guargum_obliterates_four_and_is_legendary():
    st = growth("turn = 3", "p1.units = Guargum-Eternal-Sentinel", "p1.hand = Guargum-Eternal-Sentinel",
                "p1.buildings = tech1, tech2, tech3", "p1.gold = 20",
                "p2.units = Tiger Cub, Wisp, Iron Man, Older Brother, Regular-sized Rhinoceros")
    st = do(st, "attack guargum-eternal-sentinel opp:regular-sized-rhinoceros")
    assert [engine.controls(st, "bob", n) for n in ("Tiger Cub", "Wisp", "Older Brother", "Iron Man")] == [[]] * 4
    st = do(st, "play guargum-eternal-sentinel")
    assert len(engine.controls(st, "alice", "Guargum, Eternal Sentinel")) == 1


# --- Argagarg Garg -----------------------------------------------------------------------------


def test_argagarg_garg_bands():
    st = growth("turn = 3", "p1.gold = 20")
    st = do(st, "summon argagarg-garg")
    assert stats(st, "alice", "Argagarg Garg")[:2] == (1, 3) and stats(st, "alice", "Wisp")[:2] == (0, 1)
    st = do(st, "level 2")
    assert stats(st, "alice", "Argagarg Garg")[:2] == (1, 4)
    st = growth("turn = 3", "p1.hero = 3", "p1.units = Tiger Cub", "p2.units = Older Brother")
    st = do(st, "use argagarg-garg bless target=me:tiger-cub")
    cub = thing(st, "alice", "Tiger Cub")
    assert stats(st, "alice", "Tiger Cub")[0] == 3 and values.armor_left(st, cub) == 1
    assert "use argagarg-garg bless target=opp:older-brother" not in legal_texts(st), "exhausted"
    st = growth("turn = 3", "p1.hero = 4", "p1.gold = 20")
    st = do(st, "level 1")
    assert stats(st, "alice", "Argagarg Garg")[:2] == (1, 5) and stats(st, "alice", "Water Elemental")[:2] == (3, 3)
    assert values.has(st, thing(st, "alice", "Water Elemental"), "anti_air")


def test_a_polymorphed_token_still_counts_for_its_tokens_limit():
    """Ruling (Limit: X): a token's limit counts what it is before any Polymorph: Squirrel."""
    st = growth("turn = 3", "p1.hand = Polymorph: Squirrel, Dinosize", "p1.hero = 1", "p1.heroes = River Montoya 1",
                "p1.ongoing = Harmony", "p1.units = Dancer, Dancer, Dancer", "p1.gold = 20")
    st = do(st, "play polymorph-squirrel target=me:dancer")
    st = do(st, "play dinosize target=me:dancer.2")
    assert len(engine.controls(st, "alice", "Dancer")) == 3
