"""Values kept within one computation (`pbem.games.codex.recall`): the same
values as computing each afresh, in far fewer computations where effects
read other things' values (Wandering Mimic, Master Midori, Behind the
Ferns), issue #22."""

from __future__ import annotations

import pytest

from codex_helpers import do, start, thing
from pbem.games.codex import cards, engine, recall, values

MIMICS = ("turn = 3", "p1.units = Wandering Mimic dmg=1, Wandering Mimic dmg=1, Gemscout Owl, Fairie Dragon",
          "p2.units = Revolver Ocelot, Potent Basilisk, Chameleon, Harvest Reaper, Sneaky Pig")

#: Test Lark's value read while Test Echo's is half done (before Echo's own
#: flying) differs from its value of the state alone
TEST_CARDS = {
    "Test Echo": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 3,
                  "text": "A test unit: stealth while another unit flies; flying.",
                  "abilities": [{"static": {"to": "self", "while": {"count": {"of": {"has": "flying", "other": True}}},
                                            "keywords": {"stealth": 1}}},
                                {"static": {"to": "self", "keywords": {"flying": 1}}}]},
    "Test Lark": {"type": "unit", "tech": 0, "cost": 0, "atk": 1, "hp": 1,
                  "text": "A test unit: +2 HP while another unit flies.",
                  "abilities": [{"static": {"to": "self", "while": {"count": {"of": {"has": "flying", "other": True}}},
                                            "hp": 2}}]},
    "Test Feathers": {"type": "upgrade", "tech": 0, "cost": 0, "text": "A test upgrade: units with feather runes are 3/1 fliers.",
                      "abilities": [{"static": {"to": {"kinds": ["unit"], "counter": "feather"}, "base": {"atk": 3, "hp": 1},
                                                "keywords": {"flying": 1}}}]},
}


@pytest.fixture(autouse=True, scope="module")
def test_cards():
    names = cards.add("neutral", TEST_CARDS)
    yield
    cards.remove(names)


def positions():
    """Positions where continuous effects read values: two Mimics copying
    keywords (each reads the other while its own value is half done),
    Midori's bonus for units without abilities beside a unit given one,
    Behind the Ferns' stealth for units with 3 ATK or less."""
    yield start(*MIMICS, p1="balance", p2="bashing")
    yield start("turn = 3", "p1.hero = 5", "p1.units = Tiger Cub dmg=1, Oversized Rhinoceros, Wandering Mimic",
                "p1.heroes = Calamandra Moss 5", "p2.units = Iron Man, Sneaky Pig", p1="balance", p2="bashing")
    st = start("turn = 3", "p1.hand = Behind the Ferns", "p1.hero = 1",
               "p1.units = Tiger Cub, Barkcoat Bear, Makeshift Rambaster runes=1",
               "p2.units = Iron Man, Wandering Mimic", "p2.patrol = sl=iron-man", p1="feral", p2="balance")
    yield do(st, "play behind-the-ferns")
    # Feathers' "base" makes `lethal` compute every unit, Echo first: the Lark it
    # reads then is not the Lark alone (2 HP less), which must not be reused
    yield start("turn = 3", "p1.units = Test Feathers, Test Echo, Test Lark dmg=2")


def snapshot(st) -> dict:
    """Every value of every thing in play, and what `lethal` finds."""
    out = {}
    for ref in st.things:
        v = values.get(st, ref)
        out[ref] = (v.atk, v.hp, v.armor, dict(v.kw), dict(v.own_kw), sorted(v.cant), v.grants, v.base,
                    v.unattackable_by, v.unstoppable_by, v.cant_attack)
    out["lethal"] = sorted(values.lethal(st))
    return out


@pytest.mark.parametrize("index", range(4))
def test_kept_values_are_those_computed_afresh(index, monkeypatch):
    st = list(positions())[index]
    kept = snapshot(st)
    monkeypatch.setattr(recall, "known", lambda state, ref, stack: None)  # nothing reused
    assert snapshot(st) == kept


def test_a_value_read_half_done_is_not_reused():
    st = list(positions())[3]
    assert values.lethal(st) == {}
    assert values.hp(st, thing(st, "alice", "Test Lark")) == 3


def test_two_mimics_values_are_computed_far_fewer_times(monkeypatch):
    """Each Mimic's six conditions count the other things with a keyword:
    without the scope every count computed every other thing again (609
    computations for `lethal` here, 301 for one Mimic's values)."""
    st = start(*MIMICS, p1="balance", p2="bashing")
    count = [0]
    base = values._base

    def counted(state, ref):
        count[0] += 1
        return base(state, ref)

    monkeypatch.setattr(values, "_base", counted)
    values.lethal(st)
    assert count[0] <= 30
    count[0] = 0
    mimic = thing(st, "alice", "Wandering Mimic")
    assert {k for k, n in values.keywords(st, mimic).items() if n} == {
        "flying", "overpower", "haste", "sparkshot", "untargetable", "stealth"}
    assert count[0] <= 20
    assert len(engine.controls(st, "alice", "Wandering Mimic")) == 2
