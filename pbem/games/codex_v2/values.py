"""Current values: the continuous-effects pass.

Nothing here is stored in the state. A thing's ATK, HP, armor, keywords,
what it may not do (``cant``) and the abilities others grant it are
computed, in this order, from:

1. its face (printed values and keywords; a hero's band),
2. its +1/+1 and -1/-1 runes,
3. its own modifiers (`Mod`: "this turn", "until your next upkeep" ...),
4. every continuous effect in play (``static`` abilities, declared in the
   card data with a selector ``to`` and a condition ``while``: ``atk``,
   ``hp``, ``armor``, ``keywords``, ``lose``, ``cant``, ``grant`` (another
   card's activated ability), ``atk_per`` (``damage``: +1 ATK per damage on
   it), ``unattackable_by`` / ``unstoppable_by`` (a selector of the
   attackers that may not attack it / the patrollers it may ignore)),
5. the patrol slot it holds (squad leader: 1 armor, elite: +1 ATK,
   lookout: resist 1) and frenzy on its controller's turn,
6. ATK never below 0.

No card is named here: every effect comes from data. A selector or
condition that asks for a value of the very thing being computed (a
continuous effect "units with 3 ATK or less ...") reads that thing's values
without the continuous effects of other cards (layer 0), so nothing loops.

Costs (`play_cost`, `hire_cost`) come the same way from ``static``
abilities with ``plays`` / ``hire``.

Speed: `get` computes one thing (one pass over the continuous effects in
play). Inside ``with frozen(state):`` (used by `legal`, the bots and the
views, which never change the state) every value is computed once and kept.
"""

from __future__ import annotations

import threading
from typing import Any

from pbem.games.codex_v2 import board, cards, select
from pbem.games.codex_v2.cards import Ability
from pbem.games.codex_v2.state import State


class V:
    """A thing's current values (read only: `kw` may be the card's own dict)."""

    __slots__ = ("atk", "hp", "armor", "kw", "cant", "grants", "unattackable_by", "unstoppable_by")

    def __init__(self, atk: int, hp: int, armor: int, kw: dict[str, int], cant: set[str],
                 grants: list[tuple[str, str]], unattackable_by: list[tuple[str, str, Any]] | None = None,
                 unstoppable_by: list[tuple[str, str, Any]] | None = None) -> None:
        self.atk, self.hp, self.armor, self.kw, self.cant, self.grants = atk, hp, armor, kw, cant, grants
        #: (controller, source, selector) of what may not attack it / what it may ignore
        self.unattackable_by = unattackable_by or []
        self.unstoppable_by = unstoppable_by or []

    def has(self, key: str) -> bool:
        return self.kw.get(key, 0) > 0


class _Local(threading.local):
    computing: set[str] | None = None


_local = _Local()
frozen = board.frozen
memo = board.memo


def statics(state: State) -> list[tuple[str, str, Ability]]:
    """(source ref, controller, ability) of every continuous effect in play."""
    out = []
    table = cards.CARDS
    for ref, t in state.things.items():
        if table[t.card].has_statics:
            out.extend((ref, t.controller, ab) for ab in board.face(state, ref).statics)
    return out


_frozen = board._frozen


def get(state: State, ref: str) -> V:
    cache = _frozen.cache if _frozen.state is state else None
    if cache is not None:
        v = cache.get(ref)
        if v is None:
            effects = cache.get("statics")
            if effects is None:
                effects = cache["statics"] = statics(state)
            v = cache[ref] = _compute(state, ref, effects)
        return v
    return _compute(state, ref, statics(state))


def lethal(state: State) -> dict[str, V]:
    """The fighters and building cards whose damage reaches their HP (or
    whose HP is 0 or less). A card whose own HP (printed, runes and its own
    modifiers) is above its damage is alive whatever continuous effects
    add, unless one in play takes HP away: only the others are computed."""
    effects = statics(state)
    shrinking = any(ab.static.get("hp", 0) < 0 for _, _, ab in effects)
    table = cards.CARDS
    out: dict[str, V] = {}
    for r, t in state.things.items():
        c = table[t.card]
        if c.type not in ("unit", "token", "hero", "building"):
            continue
        if not shrinking:
            f = c.face if not c.bands else c.faces[c.band_at[min(t.level, len(c.band_at) - 1)]]
            own = f.hp + t.runes + sum(m.hp for m in t.mods)
            if own > t.damage:
                continue
        v = _compute(state, r, effects)
        if v.hp <= 0 or t.damage >= v.hp:
            out[r] = v
    return out


def _applies(state: State, src: str, ctrl: str, st: dict[str, Any], ref: str) -> bool:
    to = st.get("to")
    if to is None:
        return False
    if to == "self":
        ok = src == ref
    elif to == "linked":
        ok = ref in state.things[src].links
    elif to == "attached":
        ok = state.things[src].attached == ref
    else:
        ok = select.matches(state, ctrl, src, to, ref)
    return ok and select.holds(state, ctrl, src, st.get("while"))


def _compute(state: State, ref: str, effects: list[tuple[str, str, Ability]]) -> V:
    t = state.things[ref]
    computing = _local.computing
    if computing is not None and ref in computing:
        return _layer0(state, ref)
    f = board.face(state, ref)
    atk, hp = f.atk + t.runes, f.hp + t.runes
    kw = f.keywords
    copied = False
    cant: set[str] = set()
    grants: list[tuple[str, str]] = []
    unattackable_by: list[tuple[str, str, Any]] = []
    unstoppable_by: list[tuple[str, str, Any]] = []
    if t.mods:
        kw, copied = dict(kw), True
        for m in t.mods:
            atk += m.atk
            hp += m.hp
            for k, v in m.keywords.items():
                kw[k] = kw.get(k, 0) + v
            for k in m.lose:
                kw.pop(k, None)
            cant.update(m.cant)
    armor = 0
    if effects:
        outer = computing is None
        if outer:
            computing = _local.computing = set()
        computing.add(ref)
        try:
            for src, ctrl, ab in effects:
                st = ab.static
                if not ab.values_thing or not _applies(state, src, ctrl, st, ref):
                    continue
                atk += st.get("atk", 0)
                hp += st.get("hp", 0)
                armor += st.get("armor", 0)
                if "keywords" in st or "lose" in st:
                    if not copied:
                        kw, copied = dict(kw), True
                    for k, v in st.get("keywords", {}).items():
                        kw[k] = kw.get(k, 0) + v if cards.KEYWORDS.get(k, False) else max(kw.get(k, 0), v)
                    for k in st.get("lose", ()):
                        kw.pop(k, None)
                if "cant" in st:
                    cant.update(st["cant"])
                if st.get("atk_per") == "damage":
                    atk += t.damage
                for name in st.get("grant", ()):
                    grants.append((state.things[src].card, name))
                if "unattackable_by" in st:
                    unattackable_by.append((ctrl, src, st["unattackable_by"]))
                if "unstoppable_by" in st:
                    unstoppable_by.append((ctrl, src, st["unstoppable_by"]))
        finally:
            computing.discard(ref)
            if outer:
                _local.computing = None
    if "armor" in kw:
        if not copied:
            kw, copied = dict(kw), True
        armor += kw.pop("armor")
    slot = board.slot_of(state, ref)
    if slot == "squad-leader":
        armor += 1
    elif slot == "elite":
        atk += 1
    elif slot == "lookout":
        if not copied:
            kw, copied = dict(kw), True
        kw["resist"] = kw.get("resist", 0) + 1
    if t.controller == state.active and "frenzy" in kw:
        atk += kw["frenzy"]
    return V(max(0, atk), hp, armor, kw, cant, grants, unattackable_by, unstoppable_by)


def _layer0(state: State, ref: str) -> V:
    t = state.things[ref]
    f = board.face(state, ref)
    kw = board.layer0_keywords(state, ref)
    atk = f.atk + t.runes + sum(m.atk for m in t.mods)
    hp = f.hp + t.runes + sum(m.hp for m in t.mods)
    return V(max(0, atk), hp, kw.pop("armor", 0), kw, set(), [])


def _read(state: State, ref: str) -> tuple[int, dict[str, int]]:
    v = get(state, ref)
    return v.atk, v.kw


select.VALUE_READER = _read


# --- the usual questions ---------------------------------------------------------------


def keywords(state: State, ref: str) -> dict[str, int]:
    return get(state, ref).kw


def has(state: State, ref: str, key: str) -> bool:
    return get(state, ref).kw.get(key, 0) > 0


def atk(state: State, ref: str) -> int:
    return get(state, ref).atk


def hp(state: State, ref: str) -> int:
    return get(state, ref).hp


def cant(state: State, ref: str, what: str) -> bool:
    return what in get(state, ref).cant


def armor_left(state: State, ref: str) -> int:
    """Armor that would absorb damage now: the continuous armor (squad
    leader, static effects) less what it absorbed this turn, plus what is
    left of armor modifiers (Rampant Growth's 2 armor this turn)."""
    t = state.things[ref]
    used = t.armor_used if t.armor_turn == state.turn else 0
    return max(0, get(state, ref).armor - used) + sum(m.armor for m in t.mods)


def fatigued(state: State, ref: str) -> bool:
    """Arrival fatigue: came under its controller's control this turn, no haste."""
    t = state.things[ref]
    return t.since >= state.turn and not has(state, ref, "haste")


# --- costs -------------------------------------------------------------------------------


_CARD_KEYS = {"types", "tech", "subtype", "spec", "colour", "name"}


def card_matches(plays: dict[str, Any], name: str) -> bool:
    """Whether a card (by name, not in play) matches a ``plays`` selector."""
    c = cards.CARDS[name]
    if "types" in plays and c.type not in plays["types"] and not (c.type == "token" and "unit" in plays["types"]):
        return False
    if "tech" in plays and (c.type not in ("unit", "token", "upgrade", "building") or c.tech not in plays["tech"]):
        return False
    if "subtype" in plays and plays["subtype"] not in c.subtypes:
        return False
    if "spec" in plays and c.spec != plays["spec"]:
        return False
    if "colour" in plays and c.colour != plays["colour"]:
        return False
    return "name" not in plays or plays["name"] == name


def _player_statics(state: State, seat: str, key: str) -> list[tuple[str, dict[str, Any]]]:
    cache = memo(state)
    if cache is not None and (key, seat) in cache:
        return cache[(key, seat)]
    effects = cache.get("statics") if cache is not None else None
    if effects is None:
        effects = statics(state)
        if cache is not None:
            cache["statics"] = effects
    out = [(ref, ab.static) for ref, ctrl, ab in effects
           if ctrl == seat and key in ab.static and select.holds(state, seat, ref, ab.static.get("while"))]
    if cache is not None:
        cache[(key, seat)] = out
    return out


def play_cost(state: State, seat: str, name: str) -> int:
    """What playing `name` costs `seat` now (before boost and off-colour extras)."""
    cost = cards.CARDS[name].cost
    setting = None
    for _, st in _player_statics(state, seat, "plays"):
        if not card_matches(st["plays"], name):
            continue
        change = st.get("cost", 0)
        if isinstance(change, dict):
            setting = change["set"] if setting is None else min(setting, change["set"])
        else:
            cost += change
    if setting is not None:
        cost = setting
    return max(0, cost)


def hire_cost(state: State, seat: str) -> int:
    """1 gold, or none with a "hire for free" effect; increases still count (ruling)."""
    found = _player_statics(state, seat, "hire")
    base = 0 if any(st["hire"] == "free" for _, st in found) else 1
    return max(0, base + sum(st.get("hire_cost", 0) for _, st in _player_statics(state, seat, "hire_cost")))
