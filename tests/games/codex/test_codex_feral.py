"""The Feral spec (green) card by card, its hero Calamandra Moss band by
band, and every ruling about them in rulings.json, from fixed positions.
Alice (p1) plays Feral with the green starter deck, Bob (p2) Bashing
unless said otherwise."""

from __future__ import annotations

import pytest

from codex_helpers import GAME, base, do, gone, hand_names, legal_texts, next_turn, start, stats, thing
from pbem.errors import IllegalCommand
from pbem.games.codex import engine, values


def feral(*lines: str, p2: str = "bashing") -> object:
    return start(*lines, p1="feral", p2=p2)


def names(st, zone):
    return sorted(it.card for it in st.zones[zone].items)


# --- spells -------------------------------------------------------------------------------------


def test_ferocity_armor_piercing_and_swift_strike_until_your_next_upkeep():
    st = feral("turn = 3", "p1.hand = Ferocity", "p1.hero = 1", "p1.units = Centaur",
               "p2.units = Iron Man", "p2.patrol = sl=iron-man")
    st = do(st, "play ferocity")
    cub = thing(st, "alice", "Centaur")
    st = do(st, "attack centaur opp:sl")  # 3 past the squad leader's armor
    assert stats(st, "bob", "Iron Man")[2] == 3 and stats(st, "alice", "Centaur")[2] == 3
    assert values.has(st, cub, "swift_strike") and values.has(st, cub, "armor_piercing")
    st = next_turn(st)
    assert values.has(st, cub, "swift_strike"), "still on the opponent's turn"
    st = next_turn(st)
    assert not values.has(st, cub, "swift_strike") and not values.has(st, cub, "armor_piercing")


def test_ferocity_swift_strike_kills_before_the_strike_back():
    st = feral("turn = 3", "p1.hand = Ferocity", "p1.hero = 1", "p1.units = Huntress",
               "p2.units = Older Brother", "p2.patrol = sl=older-brother")
    st = do(st, "play ferocity")
    st = do(st, "attack huntress opp:sl")
    assert gone(st, "bob", "Older Brother") and stats(st, "alice", "Huntress")[2] == 0


def test_behind_the_ferns_stealth_for_units_with_3_atk_or_less():
    st = feral("turn = 3", "p1.hand = Behind the Ferns", "p1.hero = 1", "p1.units = Tiger Cub, Barkcoat Bear",
               "p2.units = Iron Man", "p2.patrol = sl=iron-man")
    st = do(st, "play behind-the-ferns")
    cub, bear = thing(st, "alice", "Tiger Cub"), thing(st, "alice", "Barkcoat Bear")
    assert values.has(st, cub, "stealth") and not values.has(st, bear, "stealth")
    st = do(st, "attack tiger-cub opp:base")
    assert base(st, "bob") == 18
    engine.die(st, [thing(st, "alice", "Calamandra Moss")], None)
    engine.settle(st, None)
    assert not engine.spells_of(st, "alice"), "channeling: gone with the Feral hero"


def test_behind_the_ferns_reads_atk_before_a_bonus_while_attacking_a_building():
    """Ruling (with Steam Tank): the ATK a unit gets while attacking a
    building comes after the check that lets it sneak past patrollers."""
    st = feral("turn = 3", "p1.hand = Behind the Ferns", "p1.hero = 1", "p1.units = Makeshift Rambaster runes=1",
               "p2.units = Iron Man", "p2.patrol = sl=iron-man")
    st = do(st, "play behind-the-ferns")
    st = do(st, "attack makeshift-rambaster opp:base")  # 2 ATK, 4 against a building: it sneaks past
    assert base(st, "bob") == 16


@pytest.mark.parametrize("order, want", [
    (("ferns", "unit", "level"), ((3, 4), True)),    # Midori's band came last: the unit has stealth already
    (("unit", "ferns", "level"), ((3, 4), True)),
    (("level", "unit", "ferns"), ((4, 5), False)),   # Ferns came last: the unit has 4 ATK already
    (("unit", "level", "ferns"), ((4, 5), False)),
    (("ferns", "level", "unit"), ((4, 5), False)),   # the unit came last: as with both before it
    (("level", "ferns", "unit"), ((4, 5), False)),
])
def test_behind_the_ferns_and_midoris_band_depend_on_the_order_of_events(order, want):
    """Ruling: with Midori's middle band (+1/+1 here, as patched) and Behind
    the Ferns, a unit with no ability ends up as the order of events says:
    whichever came later sees what the earlier one did."""
    st = start("turn = 3", "p1.hero = 4", "p1.heroes = Calamandra Moss 1", "p1.hand = Behind the Ferns, Iron Man",
               "p1.buildings = tech1", "p1.gold = 20", p1="balance", p2="bashing")
    steps = {"ferns": "play behind-the-ferns", "unit": "play iron-man", "level": "level 1"}
    for step in order:
        st = do(st, steps[step])
    iron = thing(st, "alice", "Iron Man")
    assert (stats(st, "alice", "Iron Man")[:2], values.has(st, iron, "stealth")) == want


def test_murkwood_allies_a_beast_or_four_frogs_boosted_both():
    """Ruling (Drill Sergeant, Drakk Ramhorn): the tokens are not units played from hand."""
    st = feral("p1.hand = Murkwood Allies, Murkwood Allies", "p1.hero = 1", "p1.gold = 20")
    plays = [t for t in legal_texts(st) if t.startswith("play murkwood-allies")]
    assert plays == ["play murkwood-allies mode=1", "play murkwood-allies mode=2", "play murkwood-allies boost mode=1,2"]
    st1 = do(st, "play murkwood-allies mode=1")
    assert stats(st1, "alice", "Beast")[:2] == (4, 4) and not engine.controls(st1, "alice", "Frog")
    st2 = do(st, "play murkwood-allies mode=2")
    assert len(engine.controls(st2, "alice", "Frog")) == 4 and stats(st2, "alice", "Frog")[:2] == (1, 1)
    st3 = do(st, "play murkwood-allies boost mode=1,2")
    assert len(engine.controls(st3, "alice", "Frog")) == 4 and engine.controls(st3, "alice", "Beast")
    assert st3.players["alice"].gold == 20 - 9
    with pytest.raises(IllegalCommand, match="mode"):
        do(st, "play murkwood-allies boost mode=1")


def test_feral_strike_fetches_from_the_codex_or_puts_from_the_hand_boosted_both():
    """Ruling: tech 0 units need only the base, others a tech building of
    their level, whatever its spec; the units are put into play unpaid."""
    st = feral("turn = 3", "p1.hand = Feral Strike, Tiger Cub, Oversized Rhinoceros, Huntress", "p1.hero = 5",
               "p1.buildings = tech1", "p1.gold = 20")
    st1 = do(st, "play feral-strike mode=1 target=codex:gigadon,codex:centaur,none,none")
    assert {"Gigadon", "Centaur"} <= set(hand_names(st1, "alice"))
    assert sorted(n for n in st1.shown.values() if n in ("Gigadon", "Centaur")) == ["Centaur", "Gigadon"], "revealed"
    with pytest.raises(IllegalCommand, match="not a unit of your hand with a tech building"):
        do(st, "play feral-strike mode=2 target=none,none,hand:oversized-rhinoceros,none")  # no tech II building
    st2 = do(st, "play feral-strike mode=2 target=none,none,hand:tiger-cub,hand:huntress")
    assert thing(st2, "alice", "Tiger Cub") and thing(st2, "alice", "Huntress")
    assert st2.players["alice"].gold == 20 - 4, "unpaid"
    st3 = do(st, "play feral-strike boost mode=1,2 target=codex:centaur,none,t0,hand:huntress")
    assert thing(st3, "alice", "Centaur") and thing(st3, "alice", "Huntress"), "the fetched unit may be put into play"
    with pytest.raises(IllegalCommand):
        do(st, "play feral-strike mode=2 target=none,none,codex:centaur,none")  # from the codex only when fetched


def test_feral_strike_offers_copies_of_a_card_as_the_notation_reads_them_back():
    """Two Huntresses in a hand out of ref order (drawn, discarded ...): each
    command legal offers parses back to itself (a random bot game found
    one that named the higher copy first)."""
    st = feral("turn = 3", "p1.hand = Feral Strike, Huntress, Huntress", "p1.hero = 5", "p1.buildings = tech1")
    st.zones["hand:alice"].items.reverse()
    plays = [c for c in GAME.legal(st, "alice") if getattr(c, "ref", "") and "mode=2" in GAME.presentation.format(c, st, "alice")]
    assert any("hand:huntress,hand:huntress" in GAME.presentation.format(c, st, "alice") for c in plays)
    for c in plays:
        assert GAME.presentation.parse(GAME.presentation.format(c, st, "alice"), st, "alice") == c


def test_feral_strike_units_of_another_spec_with_a_tech_building_of_their_level():
    st = feral("turn = 3", "p1.hand = Feral Strike, Iron Man", "p1.hero = 5", "p1.buildings = tech1")
    st = do(st, "play feral-strike mode=2 target=none,none,hand:iron-man,none")
    assert thing(st, "alice", "Iron Man")


# --- units -------------------------------------------------------------------------------------


def test_huntress_sparkshot_and_anti_air():
    st = feral("turn = 3", "p1.units = Huntress", "p2.units = Older Brother, Tiger Cub",
               "p2.patrol = sl=older-brother elite=tiger-cub")
    st = do(st, "attack huntress opp:sl spark=opp:elite")
    assert gone(st, "bob", "Older Brother") and stats(st, "bob", "Tiger Cub")[2] == 1
    st = feral("turn = 3", "p1.units = Huntress", "p2.units = Eggship")
    st = do(st, "attack huntress opp:eggship")  # anti-air: it may attack a flier
    assert gone(st, "bob", "Eggship")


def test_centaur_overpower():
    st = feral("turn = 3", "p1.units = Centaur", "p2.units = Wisp", "p2.patrol = sl=wisp")
    st = do(st, "attack centaur opp:sl over=opp:base")
    assert gone(st, "bob", "Wisp") and base(st, "bob") == 20 - 1


def test_stalking_tiger_stealth_against_units_invisible_with_a_feral_hero():
    st = feral("turn = 3", "p1.units = Stalking Tiger", "p2.units = Iron Man, Older Brother", "p2.patrol = sl=iron-man")
    tiger = thing(st, "alice", "Stalking Tiger")
    assert not values.has(st, tiger, "invisible") and not values.has(st, tiger, "stealth")
    st2 = do(st, "attack stalking-tiger opp:older-brother")  # stealth while attacking a unit: past the squad leader
    assert gone(st2, "bob", "Older Brother")
    with pytest.raises(IllegalCommand, match="squad leader"):
        do(st, "attack stalking-tiger opp:base")
    st = feral("turn = 2", "p1.units = Stalking Tiger", "p1.hero = 1", "p2.units = Iron Man", "p2.hand = Wither",
               "p2.hero = 1")
    tiger = thing(st, "alice", "Stalking Tiger")
    assert values.has(st, tiger, "invisible")
    with pytest.raises(IllegalCommand, match="invisible"):
        do(st, "attack iron-man opp:stalking-tiger")
    with pytest.raises(IllegalCommand, match="invisible"):
        do(st, "play wither target=opp:stalking-tiger")


def test_predator_tiger_ignores_tech_0_patrollers_and_trashes_a_worker():
    st = feral("turn = 3", "p1.units = Predator Tiger", "p2.units = Tiger Cub", "p2.patrol = sl=tiger-cub",
               "p2.workers = Spark")
    st = do(st, "attack predator-tiger opp:base")
    assert base(st, "bob") == 16 and engine.worker_count(st, "bob") == 5


def test_barkcoat_bear_resist_2_and_overpower():
    st = feral("turn = 2", "p1.units = Barkcoat Bear", "p2.hand = Wither", "p2.hero = 1", "p2.gold = 1",
               "p2.base_workers = 1")
    bear = thing(st, "alice", "Barkcoat Bear")
    assert values.keywords(st, bear) == {"resist": 2, "overpower": 1}
    with pytest.raises(IllegalCommand, match="resist"):
        do(st, "play wither target=opp:barkcoat-bear")


def test_rampaging_elephant_readies_the_first_time_it_exhausts_each_turn():
    st = feral("turn = 3", "p1.units = Rampaging Elephant")
    elephant = thing(st, "alice", "Rampaging Elephant")
    st = do(st, "attack rampaging-elephant opp:base")
    assert not st.things[elephant].exhausted
    st = do(st, "attack rampaging-elephant opp:base")
    assert st.things[elephant].exhausted and base(st, "bob") == 20 - 12


def test_gigadon_costs_less_per_green_unit_never_below_0():
    """Rulings: only its play cost goes down (others read 9); never below 0
    (the same ruling stands on Master Midori)."""
    st = feral("p1.hand = Gigadon, Gigadon", "p1.units = Tiger Cub, Wisp, Wisp, Iron Man", "p1.buildings = tech1, tech2",
               "p1.gold = 20")
    gold = st.players["alice"].gold
    st = do(st, "play gigadon")
    assert st.players["alice"].gold == gold - (9 - 3)
    assert values.play_cost(st, "alice", "Gigadon") == 9 - 4
    st = feral("p1.hand = Gigadon", "p1.units = " + ", ".join(["Wisp"] * 10), "p1.buildings = tech1, tech2", "p1.gold = 0")
    st = do(st, "play gigadon")
    assert st.players["alice"].gold == 4 and values.has(st, thing(st, "alice", "Gigadon"), "overpower")


def test_moss_ancient_squirrels_on_arrival_and_attack_haste_and_invisible_while_it_stays():
    """Ruling: the Squirrels keep haste and invisibility only while the
    Ancient is in play under their controller's control."""
    st = feral("turn = 3", "p1.hand = Moss Ancient", "p1.buildings = tech1, tech2, tech3", "p1.gold = 20",
               "p2.hand = Wither", "p2.hero = 1")
    st = do(st, "play moss-ancient")
    squirrels = engine.controls(st, "alice", "Squirrel")
    assert len(squirrels) == 3 and all(values.has(st, s, "haste") and values.has(st, s, "invisible") for s in squirrels)
    assert values.has(st, thing(st, "alice", "Moss Ancient"), "untargetable")
    st = do(st, "attack squirrel opp:base")  # haste
    assert base(st, "bob") == 19
    st.things[thing(st, "alice", "Moss Ancient")].since = 0
    st = do(st, "attack moss-ancient opp:base")
    assert len(engine.controls(st, "alice", "Squirrel")) == 6
    engine.die(st, [thing(st, "alice", "Moss Ancient")], None)
    engine.settle(st, None)
    assert not any(values.has(st, s, "invisible") for s in engine.controls(st, "alice", "Squirrel"))


# --- Calamandra Moss ---------------------------------------------------------------------------


def test_calamandra_moss_bands():
    st = feral("turn = 3", "p1.hero = 1", "p1.hand = Tiger Cub, Rich Earth, Young Treant",
               "p2.units = Iron Man", "p2.patrol = sl=iron-man")
    cala = thing(st, "alice", "Calamandra Moss")
    assert stats(st, "alice", "Calamandra Moss")[:2] == (2, 3)
    with pytest.raises(IllegalCommand, match="discard 2"):
        do(st, "use calamandra-moss hide pay=hand:tiger-cub")
    st = do(st, "use calamandra-moss hide pay=hand:tiger-cub,hand:rich-earth")
    assert hand_names(st, "alice") == ["Young Treant"] and values.has(st, cala, "stealth")
    st = do(st, "attack calamandra-moss opp:base")
    assert base(st, "bob") == 18
    st = feral("turn = 3", "p1.hero = 3", "p1.units = Tiger Cub")
    assert stats(st, "alice", "Calamandra Moss")[:2] == (3, 4)
    assert values.keywords(st, thing(st, "alice", "Tiger Cub")) == {"resist": 1}


def test_calamandra_moss_max_band_puts_a_tiger_from_the_codex_into_play():
    """Ruling: the Tiger is not paid for and needs no tech building."""
    st = feral("turn = 3", "p1.hero = 5", "p1.gold = 0")
    assert stats(st, "alice", "Calamandra Moss")[:2] == (4, 5)
    uses = [t for t in legal_texts(st) if t.startswith("use calamandra-moss call")]
    assert uses == ["use calamandra-moss call target=codex:predator-tiger",
                    "use calamandra-moss call target=codex:stalking-tiger"]
    st = do(st, "use calamandra-moss call target=codex:stalking-tiger")
    assert thing(st, "alice", "Stalking Tiger") and st.players["alice"].gold == 0
    with pytest.raises(IllegalCommand):
        do(st, "use calamandra-moss call target=codex:predator-tiger")  # exhausted
    st = feral("turn = 3", "p1.hero = 5", "p1.codex = Gigadon")
    with pytest.raises(IllegalCommand, match="not a Tiger"):
        do(st, "use calamandra-moss call target=codex:gigadon")
    st = do(st, "use calamandra-moss call target=none")  # no Tiger left: nothing
