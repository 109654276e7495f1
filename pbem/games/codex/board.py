"""Reading the board: where things are, who controls them, which face a
card shows, the buildings. No current values here (`values` computes
those) and no changes (`engine` makes them): every other module reads the
state through these small functions.

A *structure* is a base, tech building or add-on, named ``SEAT:KIND``
(``bob:base``); every other target is a ref of `State.things`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from pbem.games.codex import cards
from pbem.games.codex.cards import Face
from pbem.games.codex.state import Building, State, ongoing, play, team_of, workers


class _Frozen(threading.local):
    state: State | None = None
    cache: dict[Any, Any] | None = None


_frozen = _Frozen()


@contextlib.contextmanager
def frozen(state: State) -> Iterator[None]:
    """While `state` is not changed (callers promise not to: `legal`, the
    bots, the views), what is read from it is kept (`memo`): current values,
    candidate lists, the lists of things in play."""
    if _frozen.state is state:
        yield
        return
    before = (_frozen.state, _frozen.cache)
    _frozen.state, _frozen.cache = state, {}
    try:
        yield
    finally:
        _frozen.state, _frozen.cache = before


def memo(state: State) -> dict[Any, Any] | None:
    """The cache of a frozen `state` (None when it is not frozen)."""
    return _frozen.cache if _frozen.state is state else None


def log(state: State, text: str) -> None:
    state.log.append(text)


def is_structure(target: str) -> bool:
    return ":" in target


# kept under its older name: combat, commands and views ask it of any target
is_building = is_structure


def structure(target: str) -> tuple[str, str]:
    seat, kind = target.split(":")
    return seat, kind


def kind_of(state: State, ref: str) -> str:
    """``unit`` (tokens too), ``hero``, ``upgrade``, ``building``, ``spell``
    (ongoing) or, for a structure, ``base`` / ``structure``."""
    if is_structure(ref):
        return "base" if ref.endswith(":base") else "structure"
    t = cards.CARDS[state.things[ref].card].type
    return "unit" if t == "token" else t


def is_hero(state: State, ref: str) -> bool:
    t = state.things.get(ref)
    return t is not None and cards.CARDS[t.card].type == "hero"


def is_unit(state: State, ref: str) -> bool:
    t = state.things.get(ref)
    return t is not None and cards.CARDS[t.card].type in ("unit", "token")


def is_fighter(state: State, ref: str) -> bool:
    """Units and heroes: what attacks, patrols and has ATK."""
    t = state.things.get(ref)
    return t is not None and cards.CARDS[t.card].type in ("unit", "token", "hero")


def controller(state: State, target: str) -> str:
    if is_structure(target):
        return target.split(":")[0]
    return state.things[target].controller


def shown(state: State, ref: str) -> cards.Card:
    """The card `ref` shows: its own, or what it is transformed into (its
    subtypes and colour; its tech level and name stay its own card's)."""
    t = state.things[ref]
    for m in t.mods:
        if m.face:
            return cards.CARDS[m.face]
    return cards.CARDS[t.card]


def subtypes(state: State, ref: str) -> tuple[str, ...]:
    return shown(state, ref).subtypes


def tech_of(state: State, ref: str) -> int:
    """A card's tech level (tokens 0; heroes and spells have none: -1)."""
    c = cards.CARDS[state.things[ref].card]
    return -1 if c.type in ("hero", "spell") else c.tech


def band(state: State, ref: str) -> int:
    t = state.things[ref]
    return cards.band(t.card, t.level)


def face(state: State, ref: str) -> Face:
    """Its printed numbers, keywords and abilities now: a hero's band, or
    the face of what it is transformed into."""
    t = state.things[ref]
    for m in t.mods:
        if m.face:
            return cards.CARDS[m.face].face
    c = cards.CARDS[t.card]
    if not c.bands:
        return c.face
    return c.faces[c.band_at[min(t.level, len(c.band_at) - 1)]]


def things_of(state: State, seat: str) -> list[str]:
    """Refs of the units, heroes, upgrades and buildings `seat` controls, in
    play-zone order (a new list: callers may change it)."""
    cache = _frozen.cache if _frozen.state is state else None
    if cache is None:
        return [it.ref for it in state.zones[play(seat)].items]
    key = ("things", seat)
    got = cache.get(key)
    if got is None:
        got = cache[key] = [it.ref for it in state.zones[play(seat)].items]
    return list(got)


def spells_of(state: State, seat: str) -> list[str]:
    """Refs of `seat`'s ongoing spells in play."""
    return [it.ref for it in state.zones[ongoing(seat)].items]


def all_in_play(state: State) -> list[str]:
    """Every card in play, seat by seat (things, then ongoing spells)."""
    out: list[str] = []
    for s in state.seats:
        out += things_of(state, s)
        out += spells_of(state, s)
    return out


def fighters_of(state: State, seat: str) -> list[str]:
    return [r for r in things_of(state, seat) if is_fighter(state, r)]


def controls(state: State, seat: str, name: str) -> list[str]:
    return [r for r in things_of(state, seat) + spells_of(state, seat) if state.things[r].card == name]


def heroes_in_play(state: State, seat: str) -> list[str]:
    return [r for r in things_of(state, seat) if is_hero(state, r)]


def hero_in_play(state: State, seat: str) -> str | None:
    heroes = heroes_in_play(state, seat)
    return heroes[0] if heroes else None


def slot_of(state: State, ref: str) -> str | None:
    """The patrol slot `ref` holds (patrols count only once locked)."""
    t = state.things.get(ref)
    if t is None:
        return None
    slots = state.patrol.get(t.controller)
    if slots and ref in slots:
        return cards.SLOTS[slots.index(ref)]
    return None


def patrollers(state: State, seat: str) -> list[str]:
    return [r for r in state.patrol.get(seat, []) if r]


def worker_count(state: State, seat: str) -> int:
    return state.players[seat].base_workers + len(state.zones[workers(seat)].items)


def building(state: State, target: str) -> Building | None:
    seat, kind = structure(target)
    return state.players[seat].buildings.get(kind)


def flag(state: State, seat: str, name: str) -> bool:
    """Whether an effect on the player (``instant_build`` ...) lasts this turn."""
    return state.players[seat].flags.get(name, -1) >= state.turn


def building_done(state: State, seat: str, kind: str) -> bool:
    """Finished (or, while an effect makes them build at once, begun: tech buildings)."""
    b = state.players[seat].buildings.get(kind)
    if b is None:
        return False
    return b.done or (kind in cards.TECH_BUILDINGS and flag(state, seat, "instant_build"))


def building_hp(kind: str, state: State | None = None) -> int:
    if kind == "base":
        return base_max(state) if state is not None else cards.BASE_HP
    return int(cards.BUILDINGS[kind]["hp"])


def base_max(state: State) -> int:
    """A base's HP: 20, or a Two-Headed Dragon team's shared 30."""
    return cards.TEAM_BASE_HP if state.teams else cards.BASE_HP


def base_of(state: State, seat: str) -> str:
    """The structure id of `seat`'s base: a team's shared base is its first seat's."""
    return f"{team_of(state, seat)[0]}:base"


def damage_base(state: State, seat: str, n: int) -> None:
    """`n` damage to `seat`'s base (negative: repaired), shared with its
    teammates: each teammate's `Player.base_damage` counts the one base."""
    for s in team_of(state, seat):
        p = state.players[s]
        p.base_damage = max(0, p.base_damage + n)


def structure_damage(state: State, target: str) -> int:
    seat, kind = structure(target)
    p = state.players[seat]
    return p.base_damage if kind == "base" else p.buildings[kind].damage


def structures(state: State, seat: str) -> list[str]:
    """Structure ids (``SEAT:base``, ``SEAT:tech1`` ...) that can be hit."""
    out = [f"{seat}:base"] if base_of(state, seat) == f"{seat}:base" else []
    for kind in cards.TECH_BUILDINGS + cards.ADDONS:
        if building_done(state, seat, kind):
            out.append(f"{seat}:{kind}")
    return out


def card_buildings(state: State, seat: str) -> list[str]:
    """`seat`'s building cards in play (they have HP and can be attacked)."""
    return [r for r in things_of(state, seat) if cards.CARDS[state.things[r].card].type == "building"]


def buildings_in_play(state: State, seat: str) -> list[str]:
    """Everything of `seat`'s that is a building: structures, then building cards."""
    return structures(state, seat) + card_buildings(state, seat)


def name_of(state: State, target: str) -> str:
    if not target:
        return "nothing"
    if is_structure(target):
        seat, kind = structure(target)
        return f"{seat}'s " + ("base" if kind == "base" else cards.BUILDINGS[kind]["name"])
    t = state.things.get(target)
    return t.card if t else target
