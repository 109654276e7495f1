"""`pbem legal` lists every written card's commands wherever the card can
be used: each card of the hand (with a hero of its spec at max level, gold,
every tech building and units on both sides) has a ``play``, and each
ability a card or hero in play may use has a ``use``, whatever its cost
takes (gold, exhausting, runes, cards of the hand discarded: Vandy
Anadrose's fetch was missing). A card a bot never sees in `legal` is a
card no bot plays."""

from __future__ import annotations

import pytest

from pbem.games.codex import cards
from pbem.games.codex.commands import Play, Use
from tests.codex_helpers import GAME, start

HEROES = {c.spec: n for n, c in cards.CARDS.items() if c.type == "hero"}
BOARD = ["turn = 3", "p1.gold = 20", "p1.buildings = tech1, tech2, tech3", "p2.units = Older Brother, Tenderfoot",
         "p2.hand = Spark, Bloom"]
#: costs the position pays for: runes to remove, cards to discard
RUNES = "runes=2 blood=2"
HAND = "Spark, Bloom, Wither"


def _own_uses(c: cards.Card) -> set[str]:
    """The abilities a card uses itself (not those it grants to others)."""
    return {ab["use"] for band in [c.raw, *c.raw.get("bands", [])] for ab in band.get("abilities", [])
            if ab.get("use") and not ab.get("granted")}


def _position(*lines: str):
    st = start(*BOARD, *lines)
    for t in st.things.values():  # heroes at max level since an earlier turn (ultimate spells)
        if t.controller == "alice" and cards.CARDS[t.card].type == "hero":
            t.max_since = t.since = 1
    return st


def _cases():
    for name, c in sorted(cards.CARDS.items()):
        if c.type == "token" or "," in name:
            continue  # tokens are made, not played; a name with a comma cannot be written in a scenario
        yield name


@pytest.mark.parametrize("name", list(_cases()))
def test_legal_lists_every_card_s_play_and_uses(name):
    c = cards.CARDS[name]
    hero = HEROES.get(c.spec, "Troq Bashar")
    if c.type == "hero":
        st = _position(f"p1.heroes = {name} {cards.max_level(name)}", f"p1.hand = {HAND}",
                       "p1.units = Older Brother, Tenderfoot")
    else:
        st = _position(f"p1.heroes = {hero} {cards.max_level(hero)}", f"p1.hand = {name}, {HAND}",
                       "p1.units = Older Brother, Tenderfoot")
        ref = next(it.ref for it in st.zones["hand:alice"].items if it.card == name)
        assert any(isinstance(x, Play) and x.ref == ref for x in GAME.legal(st, "alice")), f"no play of {name}"
        if c.type == "spell" or not _own_uses(c):
            return
        st = _position(f"p1.heroes = {hero} {cards.max_level(hero)}", f"p1.hand = {HAND}",
                       f"p1.units = {name} {RUNES}, Older Brother")
    ref = next(r for r, t in st.things.items() if t.card == name and t.controller == "alice")
    listed = {x.ability for x in GAME.legal(st, "alice") if isinstance(x, Use) and x.source == ref}
    assert _own_uses(c) <= listed, f"{name}: no use of {sorted(_own_uses(c) - listed)}"
