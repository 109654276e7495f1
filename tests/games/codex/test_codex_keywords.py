"""Every keyword of the rulebook's glossary, one test each, from fixed
positions (scenario lines). Cards of other specs and colours appear in a
position as cards added for the test; a few test-only cards (`TEST_CARDS`)
stand in where no written card has the keyword yet."""

from __future__ import annotations

import pytest

from codex_helpers import CH, base, do, gone, hand_names, next_turn, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import activated, cards, engine, values

TEST_CARDS = {
    "Test Seer": {"type": "unit", "tech": 0, "cost": 1, "atk": 1, "hp": 1, "keywords": {"detector": 1},
                  "text": "A test unit: a detector."},
    "Test Ghost": {"type": "unit", "tech": 0, "cost": 1, "atk": 1, "hp": 1,
                   "text": "A test unit: when it leaves play, its controller draws a card.",
                   "abilities": [{"on": "leaves", "do": [{"draw": 1}]}]},
    "Test Banish": {"type": "spell", "cost": 0, "text": "A test spell: trash one unit.",
                    "targets": [{"what": "a unit", "pick": {"kinds": ["unit"]}}], "do": [{"trash": "t0"}]},
    "Test Piercer": {"type": "unit", "tech": 0, "cost": 1, "atk": 3, "hp": 3, "keywords": {"armor_piercing": 1},
                     "text": "A test unit with armor piercing."},
    "Test Wall": {"type": "unit", "tech": 0, "cost": 1, "atk": 0, "hp": 4, "keywords": {"unattackable": 1},
                  "text": "A test unit: unattackable."},
}


@pytest.fixture(autouse=True, scope="module")
def test_cards():
    names = cards.add("neutral", TEST_CARDS)
    yield
    cards.remove(names)


def test_armor():
    """Armor pools absorb damage first (the squad leader's refreshes each turn)."""
    st = start("turn = 2", "p2.hand = Wither", "p2.hero = 1", "p1.units = Iron Man", "p1.patrol = sl=iron-man",
               "p2.units = Older Brother")
    iron = thing(st, "alice", "Iron Man")
    assert values.armor_left(st, iron) == 1  # squad leader
    st = do(st, "attack older-brother opp:sl")
    assert stats(st, "alice", "Iron Man")[2] == 1 and values.armor_left(st, iron) == 0


def test_armor_piercing():
    st = start("turn = 2", "p2.units = Test Piercer", "p1.units = Iron Man", "p1.patrol = sl=iron-man")
    st = do(st, "attack test-piercer opp:sl")
    assert stats(st, "alice", "Iron Man")[2] == 3


def test_arrives():
    st = start("p1.hand = Hired Stomper", "p1.buildings = tech1, tech2", "p2.units = Maestro")
    st = do(st, "play hired-stomper target=opp:maestro")
    assert stats(st, "bob", "Maestro")[2] == 3


def test_anti_air():
    st = start("turn = 2", "p2.units = Leaping Lizard", "p1.units = Eggship")
    st = do(st, "attack leaping-lizard opp:eggship")
    assert gone(st, "alice", "Eggship")
    st = start("turn = 2", "p2.units = Older Brother", "p1.units = Eggship")
    with pytest.raises(IllegalCommand, match="flying"):
        do(st, "attack older-brother opp:eggship")


def test_attacks():
    st = start("turn = 3", "p1.units = Doubleshot Archer")
    st = do(st, "attack doubleshot-archer opp:base")
    assert base(st, "bob") == 20 - 4 - 3


def test_boost():
    st = start("p1.hand = Marauder, Marauder", "p1.buildings = tech1, tech2", "p1.gold = 20", "p2.workers = Spark")
    assert "Spark" in [it.card for it in st.zones["workers:bob"].items]
    with pytest.raises(IllegalCommand, match="needs 0 target"):
        do(st, "play marauder target=opp:base")  # not boosted: no trigger
    st = do(st, "play marauder")
    assert engine.worker_count(st, "bob") == 6 and st.players["alice"].gold == 20 - 3
    st = do(st, "play marauder boost target=opp:base")
    assert engine.worker_count(st, "bob") == 5 and st.players["alice"].gold == 20 - 3 - 6
    assert [it.ref for it in st.zones["trash:bob"].items], "the worker card is trashed, still face down"


def test_channeling():
    st = start("turn = 2", "p2.hand = Harmony", "p2.hero = 1")
    st = do(st, "play harmony")
    river = thing(st, "bob", "River Montoya")
    engine.die(st, [river], CH)
    engine.settle(st, CH)
    assert not engine.spells_of(st, "bob") and "Harmony" in [it.card for it in st.zones["discard:bob"].items]


def test_deathtouch():
    st = start("turn = 2", "p2.units = Tiny Basilisk", "p1.units = Regular-sized Rhinoceros",
               "p1.patrol = sl=regular-sized-rhinoceros")
    st = do(st, "attack tiny-basilisk opp:sl")
    assert gone(st, "alice", "Regular-sized Rhinoceros"), "even through the squad leader's armor"


def test_detector():
    st = start("turn = 3", "p1.units = Test Seer", "p1.hand = Spark", "p1.hero = 1", "p2.units = Backstabber",
               "p2.patrol = sl=backstabber")
    st = do(st, "play spark target=opp:sl")  # targetable: seen
    st = start("turn = 3", "p1.units = Test Seer, Older Brother", "p2.units = Backstabber")
    st = do(st, "attack older-brother opp:backstabber")
    assert stats(st, "bob", "Backstabber")[2] == 2
    st = start("turn = 2", "p1.units = Test Seer, Tenderfoot", "p1.patrol = sl=tenderfoot", "p2.units = Backstabber")
    with pytest.raises(IllegalCommand, match="squad leader"):
        do(st, "attack backstabber opp:base")  # the detector sees it: it cannot sneak past


def test_dies():
    st = start("turn = 3", "p1.units = Crash Bomber dmg=1, Older Brother", "p2.units = Iron Man, Tenderfoot",
               "p2.patrol = sl=tenderfoot", "p1.hand = Wither", "p1.hero = 1", "p1.gold = 9")
    st = do(st, "play wither target=me:crash-bomber")  # dies on its own turn: the active player picks
    assert st.prompt is not None and st.prompt.kind == "target"
    st = do(st, "choose opp:sl")
    assert stats(st, "bob", "Tenderfoot")[2] == 0  # armor
    st = start("turn = 2", "p1.units = Crash Bomber", "p2.units = Iron Man")
    st = do(st, "attack iron-man opp:crash-bomber")
    assert base(st, "bob") == 19, "on the other's turn: 1 damage to that player's base"


def test_disable():
    st = start("turn = 2", "p2.hand = Arrest", "p2.hero = 1", "p1.units = Traffic Director, Older Brother",
               "p1.patrol = sl=traffic-director")
    st = do(st, "play arrest target=opp:sl")  # untargetable, but Arrest does not target
    director = thing(st, "alice", "Traffic Director")
    assert st.things[director].exhausted and st.patrol["alice"][0] == ""
    st = next_turn(st)
    assert st.things[director].exhausted, "it skips its next ready step"
    st = next_turn(next_turn(st))
    assert not st.things[director].exhausted


def test_ephemeral():
    st = start("p1.hand = Shoddy Glider", "p1.buildings = tech1, tech2")
    st = do(st, "play shoddy-glider")
    st = do(st, "attack shoddy-glider opp:base")
    st = do(st, "end")
    assert gone(st, "alice", "Shoddy Glider") and "Shoddy Glider" in [it.card for it in st.zones["discard:alice"].items]


def test_fading():
    st = start("turn = 3", "tech = yes", "p1.units = Fading Argonaut time=1")
    st = do(st, "tech iron-man iron-man")
    assert gone(st, "alice", "Fading Argonaut")
    st = start("p1.hand = Fading Argonaut")
    st = do(st, "play fading-argonaut")
    assert st.things[thing(st, "alice", "Fading Argonaut")].counters == {"time": 3}


def test_flying():
    st = start("turn = 3", "p1.units = Eggship", "p2.units = Tenderfoot", "p2.patrol = sl=tenderfoot")
    st = do(st, "attack eggship opp:base")
    assert base(st, "bob") == 16


def test_forecast():
    st = start("p1.hand = Plasmodium", "p1.gold = 5")
    st = do(st, "play plasmodium")
    assert gone(st, "alice", "Plasmodium") and [it.card for it in st.zones["future:alice"].items] == ["Plasmodium"]
    for _ in range(2):
        st = next_turn(next_turn(st))
        assert gone(st, "alice", "Plasmodium")
    st = next_turn(next_turn(st))
    assert not gone(st, "alice", "Plasmodium") and not st.zones["future:alice"].items
    st = do(st, "attack plasmodium opp:base")  # haste
    assert base(st, "bob") == 16


def test_frenzy():
    st = start("p1.units = Fruit Ninja")
    assert stats(st, "alice", "Fruit Ninja")[0] == 3


def test_haste():
    st = start("p1.hand = Timely Messenger")
    st = do(st, "play timely-messenger")
    st = do(st, "attack timely-messenger opp:base")
    assert base(st, "bob") == 19


def test_healing():
    st = start("turn = 3", "tech = yes", "p1.units = Helpful Turtle, Iron Man dmg=2")
    st = do(st, "tech the-boot the-boot")
    assert stats(st, "alice", "Iron Man")[2] == 1


def test_illusion():
    st = start("turn = 2", "p2.hand = Spark", "p2.hero = 1", "p1.units = Spectral Hound",
               "p1.patrol = sl=spectral-hound")
    st = do(st, "play spark target=opp:sl")
    assert gone(st, "alice", "Spectral Hound"), "targeted: it dies before the damage"
    st = start("turn = 2", "p2.units = Older Brother", "p1.units = Spectral Hound")
    st = do(st, "attack older-brother opp:spectral-hound")
    assert not gone(st, "alice", "Spectral Hound"), "attacking an illusion does not kill it"


def test_indestructible():
    st = start("turn = 2", "p2.units = Regular-sized Rhinoceros", "p1.units = Immortal", "p1.patrol = sl=immortal")
    st.things[thing(st, "alice", "Immortal")].damage = 3
    st = do(st, "attack regular-sized-rhinoceros opp:sl")
    immortal = thing(st, "alice", "Immortal")
    assert st.things[immortal].damage == 0 and st.things[immortal].exhausted
    st = start("turn = 3", "p1.units = Trojan Duck", "p2.units = Immortal, Tenderfoot")
    st = do(st, "attack trojan-duck opp:base with=opp:base")
    assert gone(st, "bob", "Tenderfoot") and not gone(st, "bob", "Immortal"), "obliterate skips it (ruling)"


def test_invisible():
    st = start("p1.hand = Wither", "p1.hero = 1", "p2.units = Backstabber")
    with pytest.raises(IllegalCommand, match="invisible"):
        do(st, "play wither target=opp:backstabber")
    st = start("turn = 3", "p1.units = Older Brother", "p2.units = Backstabber")
    with pytest.raises(IllegalCommand, match="invisible"):
        do(st, "attack older-brother opp:backstabber")
    st = start("turn = 3", "p1.units = Older Brother", "p2.units = Backstabber", "p2.patrol = sl=backstabber")
    st = do(st, "attack older-brother opp:sl")  # while patrolling, it can be attacked
    assert stats(st, "bob", "Backstabber")[2] == 1


def test_leaves():
    st = start("turn = 2", "p2.units = Iron Man", "p1.units = Test Ghost", "p1.deck = Spark")
    n = len(hand_names(st, "alice"))
    st = do(st, "attack iron-man opp:test-ghost")
    assert gone(st, "alice", "Test Ghost") and len(hand_names(st, "alice")) == n + 1


def test_legendary():
    st = start("p1.hand = Galina Glimmer", "p1.units = Galina Glimmer", "p1.buildings = tech1")
    st = do(st, "play galina-glimmer")
    assert len(engine.controls(st, "alice", "Galina Glimmer")) == 1
    assert "Galina Glimmer" in [it.card for it in st.zones["discard:alice"].items]


def test_long_range():
    st = start("turn = 3", "p1.units = Doubleshot Archer", "p2.units = Regular-sized Rhinoceros")
    st = do(st, "attack doubleshot-archer opp:regular-sized-rhinoceros")
    assert stats(st, "alice", "Doubleshot Archer")[2] == 0 and stats(st, "bob", "Regular-sized Rhinoceros")[2] == 4


def test_max_level():
    st = start("p1.heroes = Argagarg Garg 4", "p1.gold = 5")
    st = do(st, "level 1")
    assert engine.controls(st, "alice", "Water Elemental")


def test_obliterate():
    st = start("turn = 3", "p1.units = Trojan Duck", "p2.units = Tenderfoot, Older Brother, Fruit Ninja, Maestro")
    with pytest.raises(IllegalCommand, match="tied"):
        do(st, "attack trojan-duck opp:maestro with=opp:base")
    st = do(st, "attack trojan-duck opp:maestro with=opp:base doomed=opp:tenderfoot,opp:fruit-ninja")
    assert gone(st, "bob", "Tenderfoot") and gone(st, "bob", "Fruit Ninja") and gone(st, "bob", "Maestro")
    assert not gone(st, "bob", "Older Brother"), "the attacker picks among the tied lowest-tech units"


def test_overpower():
    st = start("turn = 3", "p1.units = Harvest Reaper", "p2.units = Tenderfoot, Older Brother",
               "p2.patrol = sl=tenderfoot elite=older-brother")
    st = do(st, "attack harvest-reaper opp:sl over=opp:older-brother")
    assert gone(st, "bob", "Older Brother")


def test_readiness():
    st = start("turn = 3", "p1.hero = 8")
    st = do(st, "attack troq-bashar opp:base")
    assert not st.things[thing(st, "alice", "Troq Bashar")].exhausted


def test_resist():
    st = start("turn = 2", "p1.units = Brick Thief", "p2.hand = Wither", "p2.hero = 1", "p2.base_workers = 2")
    with pytest.raises(IllegalCommand, match="resist"):
        do(st, "play wither target=opp:brick-thief")


def test_sacrifice():
    st = start("turn = 3", "p1.units = Bombaster", "p2.units = Iron Man", "p2.patrol = sl=iron-man",
               p1="bashing", p2="finesse", p1_starter="red")
    st = do(st, "use bombaster explode target=opp:sl")
    assert gone(st, "alice", "Bombaster")
    st = start("turn = 3", "p1.units = Immortal")
    ab = cards.CARDS["Bombaster"].face.uses["explode"]  # the same cost on an indestructible thing
    assert "cannot be sacrificed" in activated.cost_problem(st, "alice", thing(st, "alice", "Immortal"), ab, 0, [])


def test_sideline():
    st = start("turn = 2", "p2.hero = 3", "p1.units = Older Brother", "p1.patrol = sl=older-brother")
    st = do(st, "use river-montoya sideline target=opp:sl")
    assert st.patrol["alice"][0] == ""


def test_sparkshot():
    st = start("turn = 3", "p1.units = Revolver Ocelot", "p2.units = Tenderfoot, Older Brother",
               "p2.patrol = sl=tenderfoot elite=older-brother")
    st = do(st, "attack revolver-ocelot opp:sl spark=opp:older-brother")
    assert stats(st, "bob", "Older Brother")[2] == 1


def test_stealth():
    st = start("p1.hand = Sneaky Pig", "p1.buildings = tech1, tech2", "p2.units = Leaping Lizard",
               "p2.patrol = sl=leaping-lizard")
    st = do(st, "play sneaky-pig")
    st = do(st, "attack sneaky-pig opp:base")
    assert base(st, "bob") == 17


def test_swift_strike():
    st = start("turn = 2", "p2.units = Blademaster", "p1.units = Regular-sized Rhinoceros")
    st = do(st, "attack blademaster opp:regular-sized-rhinoceros")
    assert gone(st, "alice", "Regular-sized Rhinoceros") and stats(st, "bob", "Blademaster")[2] == 0


def test_trash():
    st = start("p1.hand = Test Banish", "p1.hero = 1", "p2.units = Immortal")
    st = do(st, "play test-banish target=opp:immortal")
    assert gone(st, "bob", "Immortal"), "even indestructible cards can be trashed"
    assert [it.card for it in st.zones["trash:bob"].items] == ["Immortal"] and not st.zones["discard:bob"].items


def test_unattackable():
    st = start("turn = 3", "p1.units = Older Brother", "p2.units = Test Wall")
    with pytest.raises(IllegalCommand, match="unattackable"):
        do(st, "attack older-brother opp:test-wall")
    st = start("turn = 3", "p1.units = Older Brother, Iron Man", "p1.buildings = tech1", "p2.units = Tiny Basilisk")
    with pytest.raises(IllegalCommand, match="unattackable"):
        do(st, "attack older-brother opp:tiny-basilisk")  # by tech 0 units
    st = do(st, "attack iron-man opp:tiny-basilisk")
    assert gone(st, "alice", "Iron Man"), "deathtouch"


def test_unstoppable():
    st = start("turn = 2", "p2.units = Angry Dancer", "p1.units = Older Brother", "p1.patrol = sl=older-brother")
    st = do(st, "attack angry-dancer opp:base")
    assert base(st, "alice") == 18
    st = start("turn = 2", "p2.units = Tiny Basilisk", "p1.units = Older Brother", "p1.patrol = sl=older-brother")
    st = do(st, "attack tiny-basilisk opp:base")  # ignores tech 0 patrollers
    assert base(st, "alice") == 19
    st = start("turn = 3", "p1.units = Traffic Director, Nautical Dog", "p2.units = Iron Man", "p2.patrol = sl=iron-man",
               p1="bashing", p2="finesse", p1_starter="red")
    st = do(st, "attack traffic-director opp:base")  # unstoppable when attacking a building
    assert base(st, "bob") == 19
    with pytest.raises(IllegalCommand, match="squad leader"):
        do(st, "attack nautical-dog opp:base")


def test_untargetable():
    st = start("p1.hand = Spark", "p1.hero = 1", "p2.units = Traffic Director", "p2.patrol = sl=traffic-director")
    with pytest.raises(IllegalCommand, match="untargetable"):
        do(st, "play spark target=opp:sl")


def test_upkeep():
    st = start("turn = 3", "tech = yes", "p1.units = Galina Glimmer, Tiger Cub, Playful Panda",
               p1="bashing", p2="finesse", p1_starter="green")
    gold = st.players["alice"].gold
    st = do(st, "tech iron-man iron-man")
    assert st.players["alice"].gold == gold + 4 + 1  # workers, and 3 green units: 1 gold


def test_every_glossary_keyword_has_a_test_here():
    glossary = {"armor", "armor_piercing", "arrives", "anti_air", "attacks", "boost", "channeling", "deathtouch",
                "detector", "dies", "disable", "ephemeral", "fading", "flying", "forecast", "frenzy", "haste",
                "healing", "illusion", "indestructible", "invisible", "leaves", "legendary", "long_range",
                "max_level", "obliterate", "overpower", "readiness", "resist", "sacrifice", "sideline", "sparkshot",
                "stealth", "swift_strike", "trash", "unattackable", "unstoppable", "untargetable", "upkeep"}
    assert len(glossary) == 39
    tested = {name[5:] for name in globals() if name.startswith("test_")}
    assert glossary <= tested, sorted(glossary - tested)
    assert set(cards.KEYWORDS) - {"flagbearer", "excess_to_base", "damage_as_runes"} <= glossary  # card words


# --- replacement and prevention ------------------------------------------------------------------


def test_a_replacement_instead_of_dying():
    st = start("turn = 2", "p2.units = Regular-sized Rhinoceros", "p1.units = Brave Knight")
    st = do(st, "attack regular-sized-rhinoceros opp:brave-knight")
    assert gone(st, "alice", "Brave Knight") and "Brave Knight" in hand_names(st, "alice"), "combat damage: to hand"
    assert "Brave Knight" not in [it.card for it in st.zones["discard:alice"].items]
    st = start("turn = 2", "p2.hand = Wither", "p2.hero = 1", "p1.units = Brave Knight dmg=2")
    st = do(st, "play wither target=opp:brave-knight")
    assert "Brave Knight" in [it.card for it in st.zones["discard:alice"].items], "not combat damage: it dies"


def test_damage_prevention():
    st = start("turn = 2", "p2.hand = Spark, Spark", "p2.hero = 1", "p2.gold = 5",
               "p1.units = Sentry, Older Brother", "p1.patrol = sl=sentry elite=older-brother")
    st = do(st, "play spark target=opp:elite")
    assert stats(st, "alice", "Older Brother")[2] == 0, "the first damage from a spell this turn is prevented"
    st = do(st, "play spark target=opp:elite")
    assert stats(st, "alice", "Older Brother")[2] == 1
    st = start("turn = 2", "p2.units = Iron Man", "p1.units = Sentry, Older Brother",
               "p1.patrol = sl=sentry elite=older-brother")
    st = do(st, "attack iron-man opp:sl")
    assert gone(st, "alice", "Sentry"), "combat damage is not prevented"


# --- attachments, once-per-turn abilities, extra turns, legendary non-units ------------------------

MORE_CARDS = {
    "Test Aura": {"type": "spell", "ongoing": True, "cost": 0, "text": "A test spell: attached to a unit, +1/+1.",
                  "targets": [{"what": "a unit", "pick": {"kinds": ["unit"]}}], "do": [{"attach": "t0"}],
                  "abilities": [{"static": {"to": "attached", "atk": 1, "hp": 1}}]},
    "Test Clock": {"type": "spell", "cost": 0, "text": "A test spell: you take a turn after this one.",
                   "do": [{"extra_turn": True}]},
    "Test Mill": {"type": "upgrade", "tech": 0, "cost": 0, "legendary": True, "text": "A test legendary upgrade.",
                  "abilities": [{"use": "grind", "per_turn": 2, "do": [{"gold": 1}]}]},
}


@pytest.fixture(scope="module")
def more_cards():
    names = cards.add("neutral", MORE_CARDS)
    yield
    cards.remove(names)


def test_attachments_follow_their_host(more_cards):
    st = start("p1.hand = Test Aura, Test Aura", "p1.hero = 1", "p1.units = Older Brother, Immortal")
    st = do(st, "play test-aura target=me:older-brother")
    assert stats(st, "alice", "Older Brother")[:2] == (3, 3)
    engine.destroy(st, [thing(st, "alice", "Older Brother")], CH)
    engine.settle(st, CH)
    assert not engine.spells_of(st, "alice") and "Test Aura" in [it.card for it in st.zones["discard:alice"].items]
    st = do(st, "play test-aura target=me:immortal")
    st.things[thing(st, "alice", "Immortal")].damage = 9
    engine.settle(st, CH)
    assert not engine.spells_of(st, "alice"), "indestructible: it loses its attachments instead of dying"


def test_once_per_turn_limits_and_legendary_upgrades(more_cards):
    st = start("turn = 3", "p1.units = Test Mill", "p1.hand = Test Mill")
    st = do(st, "use test-mill grind")
    st = do(st, "use test-mill grind")
    with pytest.raises(IllegalCommand, match="2 time"):
        do(st, "use test-mill grind")
    st = do(st, "play test-mill")
    assert len(engine.controls(st, "alice", "Test Mill")) == 1, "a second legendary copy is discarded"


def test_an_extra_turn(more_cards):
    st = start("p1.hand = Test Clock", "p1.hero = 1")
    st = do(st, "play test-clock")
    st = next_turn(st)
    assert st.active == "alice" and st.turn == 2
    st = next_turn(st)
    assert st.active == "bob"
