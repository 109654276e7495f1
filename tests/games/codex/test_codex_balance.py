"""The Balance spec (green) card by card, its hero Master Midori band by
band, and every ruling about them in rulings.json, from fixed positions.
Alice (p1) plays Balance with the green starter deck, Bob (p2) Bashing
unless said otherwise."""

from __future__ import annotations

import pytest

from codex_helpers import (
    CH,
    GAME,
    base,
    do,
    gone,
    legal_texts,
    next_turn,
    start,
    stats,
    thing,
)
from pbem.errors import IllegalCommand
from pbem.games.codex import board, engine, values


def balance(*lines: str, p2: str = "bashing") -> object:
    return start(*lines, p1="balance", p2=p2)


def tech(st):
    """The active seat techs whatever `legal` lists first, if it must."""
    if st.phase == "tech":
        st = GAME.advance(GAME.apply(st, st.active, GAME.legal(st, st.active)[0], CH), CH)
    return st


def names(st, zone):
    return sorted(it.card for it in st.zones[zone].items)


# --- Moment's Peace --------------------------------------------------------------------------


def test_moments_peace_no_patrol_and_no_attack_on_anything_of_yours_until_your_next_turn():
    """Ruling: "can't attack you" means anything you control, base and buildings too."""
    st = balance("turn = 3", "p1.hand = Moment's Peace", "p1.hero = 1", "p1.units = Tiger Cub, Verdant Tree",
                 "p1.buildings = tech1", "p2.units = Iron Man, Older Brother", "p2.hero = 1")
    st = do(st, "play moment-s-peace")
    with pytest.raises(IllegalCommand, match="cannot patrol"):
        do(st, "end sl=tiger-cub")
    st = tech(do(st, "end sl=master-midori"))  # a hero is no unit: it may patrol
    for target in ("opp:sl", "opp:tiger-cub", "opp:verdant-tree", "opp:tech1", "opp:base"):
        with pytest.raises(IllegalCommand, match="Moment's Peace forbids it"):
            do(st, f"attack iron-man {target}")
    assert not [t for t in legal_texts(st) if t.startswith(("attack iron-man", "attack older-brother"))]
    st = do(st, "attack troq-bashar opp:sl")  # heroes may
    st = next_turn(st)
    assert not st.lasting and "end sl=tiger-cub" in legal_texts(st)


# --- Nature Reclaims ---------------------------------------------------------------------------


def test_nature_reclaims_trashes_an_upgrade_ongoing_spell_or_building_card_and_itself():
    """Ruling: a building card, never a base, tech building or add-on."""
    st = balance("turn = 3", "p1.hand = Nature Reclaims, Nature Reclaims, Nature Reclaims", "p1.hero = 1", "p1.gold = 20",
                 "p2.units = Rich Earth, Verdant Tree, Harmony", "p2.hero = 1", "p2.buildings = tech1, tower",
                 p2="finesse")
    plays = {t for t in legal_texts(st) if t.startswith("play nature-reclaims")}
    assert plays == {f"play nature-reclaims target=opp:{x}" for x in ("rich-earth", "verdant-tree", "harmony")}
    for x in ("tech1", "tower", "base"):
        with pytest.raises(IllegalCommand):
            do(st, f"play nature-reclaims target=opp:{x}")
    for x in ("rich-earth", "verdant-tree", "harmony"):
        st = do(st, f"play nature-reclaims target=opp:{x}")
    assert names(st, "trash:bob") == ["Harmony", "Rich Earth", "Verdant Tree"]
    assert names(st, "trash:alice") == ["Nature Reclaims"] * 3 and not st.zones["discard:alice"].items


# --- Circle of Life ----------------------------------------------------------------------------


def test_circle_of_life_trades_a_green_unit_for_one_a_tech_higher_from_the_codex():
    """Rulings: "one tech higher" (tech 0 gives tech I, tech I gives tech II), and
    "costs 5 or less" is the printed cost: never Gigadon."""
    st = balance("p1.hand = Circle of Life", "p1.hero = 1", "p1.units = Tiger Cub",
                 "p1.codex = Gemscout Owl, Chameleon, Tyrannosaurus Rex")
    assert [t for t in legal_texts(st) if t.startswith("play circle-of-life")] == [
        "play circle-of-life target=me:tiger-cub,codex:gemscout-owl"]
    st = do(st, "play circle-of-life target=me:tiger-cub,codex:gemscout-owl")
    assert gone(st, "alice", "Tiger Cub") and thing(st, "alice", "Gemscout Owl")
    assert "Tiger Cub" in names(st, "discard:alice"), "sacrificed: to the discard pile"
    owl = thing(st, "alice", "Gemscout Owl")
    assert st.things[owl].arrived == st.turn and values.fatigued(st, owl), "it arrives"
    st = balance("p1.hand = Circle of Life", "p1.hero = 1", "p1.units = Tiny Basilisk", "p1.buildings = tech1",
                 "p1.codex = Gigadon, Dothram Horselord", "p1.gold = 9")
    with pytest.raises(IllegalCommand, match="not a green unit"):
        do(st, "play circle-of-life target=me:tiny-basilisk,codex:gigadon")  # printed cost 9 (it costs less to play)
    with pytest.raises(IllegalCommand, match="there is one"):
        do(st, "play circle-of-life target=me:tiny-basilisk,none")
    st = do(st, "play circle-of-life target=me:tiny-basilisk,codex:dothram-horselord")
    assert thing(st, "alice", "Dothram Horselord"), "no tech II building needed"


def test_circle_of_life_only_green_units_and_nothing_when_none_fits():
    st = balance("p1.hand = Circle of Life", "p1.hero = 1", "p1.units = Tiger Cub, Wisp",
                 "p1.codex = Chameleon", "p2.units = Older Brother")
    with pytest.raises(IllegalCommand):
        do(st, "play circle-of-life target=opp:older-brother,none")
    st = do(st, "play circle-of-life target=me:wisp,none")  # a green token; no green tech I left
    assert gone(st, "alice", "Wisp") and names(st, "codex:alice") == ["Chameleon"]


# --- Final Showdown ----------------------------------------------------------------------------


def test_final_showdown_on_midori_and_two_hunters_for_the_opponent():
    """Ruling: the Hunters do not go to the opponent's patrol zone."""
    st = balance("turn = 3", "p1.hand = Final Showdown", "p1.hero = 8", "p1.deck = Rich Earth, Tiger Cub")
    midori = thing(st, "alice", "Master Midori")
    st = do(st, "play final-showdown target=me:master-midori")
    assert stats(st, "alice", "Master Midori")[:2] == (4 + 3, 5 + 3)
    assert values.has(st, midori, "readiness") and values.keywords(st, midori)["resist"] == 1
    hunters = engine.controls(st, "bob", "Hunter")
    assert len(hunters) == 2 and all(not board.slot_of(st, h) for h in hunters)
    assert stats(st, "bob", "Hunter")[:2] == (3, 3) and values.has(st, hunters[0], "anti_air")
    hand = len(st.zones["hand:alice"].items)
    st = do(st, "attack master-midori opp:base")
    assert len(st.zones["hand:alice"].items) == hand + 1 and not st.things[midori].exhausted
    assert base(st, "bob") == 13
    with pytest.raises(IllegalCommand, match="readiness"):
        do(st, "attack master-midori opp:base")


def test_final_showdown_needs_the_balance_hero_at_max_level():
    st = balance("turn = 3", "p1.hand = Final Showdown", "p1.hero = 7")
    with pytest.raises(IllegalCommand, match="max level"):
        do(st, "play final-showdown target=me:master-midori")


# --- units -------------------------------------------------------------------------------------


def test_gemscout_owl_flies_resists_never_attacks_and_brings_gold():
    st = balance("turn = 3", "tech = yes", "p1.units = Gemscout Owl", "p1.gold = 0")
    owl = thing(st, "alice", "Gemscout Owl")
    st = tech(st)
    assert st.players["alice"].gold == 4 + 1
    assert values.has(st, owl, "flying") and values.keywords(st, owl)["resist"] == 1
    with pytest.raises(IllegalCommand, match="cannot attack"):
        do(st, "attack gemscout-owl opp:base")


def test_tiny_basilisk_deathtouch_and_tech_0_units():
    st = balance("turn = 3", "p1.units = Tiny Basilisk", "p2.units = Tiger Cub, Iron Man",
                 "p2.patrol = sl=tiger-cub", p2="bashing")
    st = do(st, "attack tiny-basilisk opp:iron-man")  # it ignores the tech 0 squad leader
    assert gone(st, "bob", "Iron Man"), "deathtouch"
    st = balance("turn = 2", "p1.units = Tiny Basilisk", "p2.units = Tiger Cub")
    with pytest.raises(IllegalCommand, match="unattackable"):
        do(st, "attack tiger-cub opp:tiny-basilisk")


def test_chameleon_sneaks_past_patrollers():
    st = balance("turn = 3", "p1.units = Chameleon", "p2.units = Iron Man", "p2.patrol = sl=iron-man")
    st = do(st, "attack chameleon opp:base")
    assert base(st, "bob") == 17


def test_fairie_dragon_feather_runes():
    """Rulings: units with feather runes are 3/1 at base (runes and other
    effects add) and fly, keeping their other abilities; without a Fairie
    Dragon in play they are themselves again, and a new one makes them 3/1
    fliers again, whoever put the rune."""
    st = balance("turn = 3", "p1.hand = Fairie Dragon, Fairie Dragon", "p1.buildings = tech1, tech2", "p1.gold = 20",
                 "p2.units = Iron Man, Tiger Cub", "p1.units = Tiny Basilisk runes=1")
    with pytest.raises(IllegalCommand):
        do(st, "play fairie-dragon target=opp:tiger-cub")  # tech 0
    st = do(st, "play fairie-dragon target=opp:iron-man")
    iron = thing(st, "bob", "Iron Man")
    assert stats(st, "bob", "Iron Man")[:2] == (3, 1) and values.has(st, iron, "flying")
    dragon = thing(st, "alice", "Fairie Dragon")
    st.things[dragon].since = 0
    st2 = do(st, "play fairie-dragon target=me:tiny-basilisk")
    basilisk = thing(st2, "alice", "Tiny Basilisk")
    assert stats(st2, "alice", "Tiny Basilisk")[:2] == (4, 2), "3/1 plus its +1/+1 rune"
    assert values.has(st2, basilisk, "deathtouch") and values.has(st2, basilisk, "flying")
    engine.die(st, [dragon], None)
    engine.settle(st, None)
    assert stats(st, "bob", "Iron Man")[:2] == (3, 4) and not values.has(st, iron, "flying")
    st = do(st, "play fairie-dragon target=none")  # declines: the old rune counts again
    assert stats(st, "bob", "Iron Man")[:2] == (3, 1)


def test_fairie_dragon_may_decline():
    st = balance("turn = 3", "p1.hand = Fairie Dragon", "p1.buildings = tech1, tech2", "p2.units = Iron Man")
    assert "play fairie-dragon target=none" in legal_texts(st)
    st = do(st, "play fairie-dragon target=none")
    assert stats(st, "bob", "Iron Man")[:2] == (3, 4)


def test_dothram_horselord_joins_the_strongest_player_at_its_controllers_upkeep():
    """Ruling: the Horselord counts in its controller's total."""
    st = balance("turn = 3", "tech = yes", "p1.units = Dothram Horselord", "p2.units = Iron Man, Iron Man")
    st = tech(st)  # alice 6 (the Horselord) against 6: a tie, it stays
    assert thing(st, "alice", "Dothram Horselord")
    st = balance("turn = 3", "tech = yes", "p1.units = Dothram Horselord", "p2.units = Iron Man, Iron Man, Tiger Cub")
    st = tech(st)  # 6 against 8
    horse = thing(st, "bob", "Dothram Horselord")
    assert st.things[horse].owner == "alice"
    st = next_turn(st)  # bob's upkeep: 14 against 0, it stays his
    assert st.things[horse].controller == "bob"


def test_dothram_horselord_overrides_a_control_taken_once():
    """Ruling: control taken once (Final Smash) is overridden by the
    Horselord's own upkeep ability, newer than it."""
    st = balance("turn = 4", "p2.hand = Final Smash", "p2.hero = 8", "p2.gold = 20",
                 "p1.units = Dothram Horselord, Oversized Rhinoceros", "p1.hero = 1")
    st = do(st, "play final-smash target=none,none,opp:dothram-horselord")
    horse = thing(st, "bob", "Dothram Horselord")
    st = next_turn(next_turn(st))  # bob's upkeep: 6 + 4 against alice's 7 + 2
    assert st.things[horse].controller == "bob"
    engine.die(st, [thing(st, "bob", "Troq Bashar")], None)
    st = next_turn(next_turn(st))  # bob's upkeep: 6 against 9
    assert st.things[horse].controller == "alice"


def test_wandering_mimic_has_what_some_other_unit_or_hero_has():
    """Ruling: two Mimics flying only thanks to a third flier both lose it when it dies."""
    st = balance("turn = 3", "p1.units = Wandering Mimic, Wandering Mimic", "p2.units = Iron Man")
    a, b = engine.controls(st, "alice", "Wandering Mimic")
    assert values.keywords(st, a) == {} and values.keywords(st, b) == {}
    st = balance("turn = 3", "p1.units = Wandering Mimic, Wandering Mimic, Gemscout Owl",
                 "p2.units = Revolver Ocelot, Potent Basilisk, Chameleon, Harvest Reaper, Sneaky Pig")
    a, b = engine.controls(st, "alice", "Wandering Mimic")
    for m in (a, b):
        kw = values.keywords(st, m)
        assert {k for k, n in kw.items() if n} == {"flying", "overpower", "haste", "sparkshot", "untargetable", "stealth"}
    engine.die(st, [thing(st, "alice", "Gemscout Owl")], None)
    engine.settle(st, None)
    assert not values.has(st, a, "flying") and not values.has(st, b, "flying")


def test_potent_basilisk_may_destroy_an_upgrade_or_ongoing_spell():
    st = balance("turn = 3", "p1.hand = Potent Basilisk", "p1.buildings = tech1, tech2", "p2.units = Rich Earth",
                 p2="finesse")
    st = do(st, "play potent-basilisk target=opp:rich-earth")
    basilisk = thing(st, "alice", "Potent Basilisk")
    assert gone(st, "bob", "Rich Earth") and values.has(st, basilisk, "untargetable")
    assert values.has(st, basilisk, "deathtouch")


def test_tyrannosaurus_rex_destroys_up_to_two_units_upgrades_or_workers():
    """Rulings: any mix of two (two workers too); a worker destroyed is
    trashed, unchosen and unseen (the last hired, face down)."""
    st = balance("turn = 3", "p1.hand = Tyrannosaurus Rex", "p1.buildings = tech1, tech2, tech3", "p1.gold = 20",
                 "p2.units = Iron Man, Rich Earth", "p2.workers = Spark", p2="finesse")
    rex = st.zones["hand:alice"].items[0].ref
    st2 = do(st, "play tyrannosaurus-rex target=opp:base,opp:base")
    assert engine.worker_count(st2, "bob") == 4 and len(st2.zones["trash:bob"].items) == 1
    assert st2.zones["trash:bob"].items[0].ref not in st2.shown, "nobody sees the worker card's face"
    st2 = do(st, "play tyrannosaurus-rex target=opp:iron-man,opp:rich-earth")
    assert gone(st2, "bob", "Iron Man") and gone(st2, "bob", "Rich Earth")
    assert "Rich Earth" in names(st2, "discard:bob"), "destroyed, not trashed"
    st2 = do(st, "play tyrannosaurus-rex target=none,none")
    rex_thing = thing(st2, "alice", "Tyrannosaurus Rex")
    assert rex_thing == rex and values.has(st2, rex, "overpower") and values.keywords(st2, rex)["resist"] == 2


# --- Master Midori -----------------------------------------------------------------------------


def test_master_midori_bands():
    st = balance("turn = 3", "p1.hero = 1", "p1.units = Tiger Cub")
    assert stats(st, "alice", "Master Midori")[:2] == (2, 3) and stats(st, "alice", "Tiger Cub")[:2] == (2, 2)
    st = balance("turn = 3", "p1.hero = 5", "p1.units = Tiger Cub, Huntress, Wisp, Spectral Hound")
    assert stats(st, "alice", "Master Midori")[:2] == (3, 4)
    assert stats(st, "alice", "Tiger Cub")[:2] == (3, 3) and stats(st, "alice", "Wisp")[:2] == (1, 2)
    assert stats(st, "alice", "Huntress")[:2] == (3, 3), "keywords are abilities"
    assert stats(st, "alice", "Spectral Hound")[:2] == (4, 4), "an illusion has no ability for that"
    midori = thing(st, "alice", "Master Midori")
    assert not values.has(st, midori, "flying")
    st = balance("turn = 3", "p1.hero = 8")
    midori = thing(st, "alice", "Master Midori")
    assert stats(st, "alice", "Master Midori")[:2] == (4, 5) and values.has(st, midori, "flying")
    st = next_turn(st)
    assert not values.has(st, midori, "flying"), "only during her controller's turn"


def test_master_midori_numbers_runes_damage_and_patrol_slots_are_no_abilities():
    """Rulings: stats changes, damage and runes of any kind are no
    abilities; no patrol slot takes the bonus away (a lookout's resist)."""
    st = balance("turn = 4", "p1.hero = 5", "p1.units = Tiger Cub runes=1 dmg=1, Oversized Rhinoceros feather=1",
                 "p1.patrol = lookout=tiger-cub")
    assert stats(st, "alice", "Tiger Cub") == (4, 4, 1) and stats(st, "alice", "Oversized Rhinoceros")[:2] == (8, 9)
    cub = thing(st, "alice", "Tiger Cub")
    assert values.keywords(st, cub)["resist"] == 1


def test_master_midori_a_unit_given_an_ability_loses_the_bonus_and_may_die():
    """Ruling: given an ability (Calamandra's resist 1), a unit loses the bonus;
    with its damage it may die."""
    st = balance("turn = 3", "p1.hero = 5", "p1.units = Tiger Cub dmg=2, Oversized Rhinoceros",
                 "p1.heroes = Calamandra Moss 2", "p1.gold = 5")
    assert stats(st, "alice", "Tiger Cub") == (3, 3, 2)
    calamandra = thing(st, "alice", "Calamandra Moss")
    engine.level_up(st, calamandra, 1)
    engine.settle(st, None)
    assert gone(st, "alice", "Tiger Cub")
    assert stats(st, "alice", "Oversized Rhinoceros")[:2] == (7, 8)
