"""Current values: the continuous-effects pass.

Nothing here is stored in the state. A thing's ATK, HP, armor, keywords,
what it may not do (``cant``) and the abilities others grant it are
computed, in this order, from:

1. its face (printed values and keywords; a hero's band; a printed ATK a
   modifier sets for a while),
2. its +1/+1 and -1/-1 runes,
3. its own modifiers (`Mod`: "this turn", "until your next upkeep" ...),
4. every continuous effect in play (``static`` abilities, declared in the
   card data with a selector ``to`` and a condition ``while``: ``atk``,
   ``hp``, ``armor``, ``base`` (``{"atk": 3, "hp": 1}``: the base values
   the rest adds to, instead of the printed ones), ``keywords``, ``lose``,
   ``cant``, ``grant`` (another card's ability: an activated one, or a
   trigger it has then), ``atk_per`` (``damage``: +1 ATK per damage on it;
   ``{"count": SELECTOR}``: +1 per thing the selector takes, as the
   effect's controller sees it), ``unattackable_by`` /
   ``unstoppable_by`` (a selector of the attackers that may not attack it
   / the patrollers it may ignore), ``cant_attack`` (a selector, as the
   effect's controller sees it, of what it may not attack: ``{"side":
   "mine", "kinds": [...]}`` is "cannot attack you")),
5. the patrol slot it holds (squad leader: 1 armor, elite: +1 ATK,
   lookout: resist 1) and frenzy on its controller's turn,
6. ATK never below 0.

No card is named here: every effect comes from data.

Order. Continuous effects apply to a thing one after the other, each from
when it began to apply to that thing: the later of the effect's source and
the thing itself coming into play (`Thing.stamp`; a hero's band counts
from when it reached it). Among effects that began together, those that
change only numbers come before those that give or take abilities; a
thing's own continuous effects come last. The order matters only where an
effect's selector reads a value of the very thing it judges ("your units
with 3 ATK or less have stealth", "your units with no abilities get
+1/+1"): that read sees the effects applied before it (neither patrol-slot
bonuses nor frenzy), so nothing loops and the newer effect wins; and such
an effect stops where another card's effect, older or newer, makes it
false (`_recheck`), as the rulings on Behind the Ferns and Master Midori
have it.

Costs (`play_cost`, `hire_cost`) and damage boosts (`damage_boost`) come
from ``static`` abilities with ``plays`` / ``hire`` / ``damage_boost``.

Speed: inside ``with frozen(state):`` (`legal`, the bots and the views,
which never change the state) every value is computed once and kept; else
values are kept for one call (`get`, `lethal`) where that is exact (`recall`).
"""

from __future__ import annotations

import threading
from typing import Any

from pbem.games.codex import board, cards, maps, recall, select
from pbem.games.codex.cards import Ability
from pbem.games.codex.state import State, Thing


class V:
    """A thing's current values (read only: `kw` may be the card's own dict)."""

    __slots__ = ("atk", "hp", "armor", "kw", "cant", "grants", "unattackable_by", "unstoppable_by", "own_kw",
                 "private", "base", "cant_attack")

    def __init__(self, atk: int, hp: int, armor: int, kw: dict[str, int], cant: set[str],
                 grants: list[tuple[str, str]], unattackable_by: list[tuple[str, str, Any]] | None = None,
                 unstoppable_by: list[tuple[str, str, Any]] | None = None) -> None:
        self.atk, self.hp, self.armor, self.kw, self.cant, self.grants = atk, hp, armor, kw, cant, grants
        #: (controller, source, selector) of what may not attack it / what it may ignore
        self.unattackable_by = unattackable_by or []
        self.unstoppable_by = unstoppable_by or []
        #: its keywords before the patrol slot's (a lookout's resist is no ability of its own)
        self.own_kw = kw
        #: `kw` is a dict of its own (else the card's: copy it before a change)
        self.private = False
        #: the base ATK and HP the rest adds to (the face's, or what an effect set)
        self.base = (0, 0)
        #: (controller, source, selector, card) of what it may not attack
        self.cant_attack: list[tuple[str, str, Any, str]] = []

    def has(self, key: str) -> bool:
        return self.kw.get(key, 0) > 0


class _Local(threading.local):
    partial: dict[str, V] | None = None  #: things being computed -> their values so far (what a read of one sees)


_local = _Local()
frozen, memo, _frozen = board.frozen, board.memo, board._frozen


def statics(state: State) -> list[tuple[str, str, Ability]]:
    """(source ref, controller, ability) of every continuous effect in play,
    then the lasting ones of cards gone (`State.lasting`)."""
    out, table = [], cards.CARDS
    for ref, t in state.things.items():
        if table[t.card].has_statics or t.mods:
            out.extend((ref, t.controller, ab) for ab in board.face(state, ref).statics)
    for e in state.lasting:
        out.append((e.src, e.ctrl, cards.ability(e.card, e.key)))
    return out


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
    if (effects := recall.effects(state)) is not None:
        return _compute(state, ref, effects)
    effects = statics(state)
    if not any(e[2].reads_values for e in effects):  # nothing is computed twice: no scope
        return _compute(state, ref, effects)
    with recall.scope(state, effects):
        return _compute(state, ref, effects)


def grant_effects(state: State) -> list[tuple[str, str, Ability]]:
    """The continuous effects in play that give others abilities (``grant``)."""
    return [e for e in statics(state) if "grant" in e[2].static]


def granted(state: State, ref: str, effects: list[tuple[str, str, Ability]] | None = None) -> list[tuple[str, str]]:
    """(card, ability name) of the abilities `ref` has from others now: its
    modifiers' and continuous effects' (`effects`: `grant_effects`, when the
    caller asks of many things). The same as ``get(state, ref).grants``,
    without computing every other value."""
    if memo(state) is not None:
        return get(state, ref).grants
    out = [(m.card, g) for m in state.things[ref].mods for g in m.grant]
    for src, ctrl, ab in grant_effects(state) if effects is None else effects:
        if _applies(state, src, ctrl, ab.static, ref):
            out.extend((ab.card, g) for g in ab.static["grant"])
    return out


def lethal(state: State) -> dict[str, V]:
    """The fighters and building cards whose damage reaches their HP (or whose HP is 0 or less).
    A card whose own HP (printed, runes, its own modifiers) is above its damage is alive
    whatever continuous effects add, unless one in play takes HP away: only the others are computed."""
    effects = statics(state)
    shrinking = any(ab.static.get("hp", 0) < 0 or "base" in ab.static for _, _, ab in effects)
    table = cards.CARDS
    out: dict[str, V] = {}
    with recall.scope(state, effects, any(e[2].reads_values for e in effects)):
        for r, t in state.things.items():
            if table[t.card].type not in ("unit", "token", "hero", "building"):
                continue
            if not shrinking:
                own = board.face(state, r).hp + t.runes + sum(m.hp for m in t.mods)
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


Effect = tuple[str, str, Ability]


def _compute(state: State, ref: str, effects: list[Effect]) -> V:
    partial = _local.partial
    if partial is not None and ref in partial:
        recall.read(state, ref)
        return partial[ref]
    kept = recall.known(state, ref, partial)
    if kept is not None:
        return kept
    t = state.things[ref]
    if not effects:  # (no value is ever half done: nothing for `recall` to note)
        return _finish(state, ref, _base(state, ref))
    outer = partial is None
    if outer:
        partial = _local.partial = {}
    with recall.computing(state) as reads:
        try:
            ordered, reading = _in_order(state, ref, effects)
            v = partial[ref] = _base(state, ref)
            recall.changed(state, ref)
            applied = []
            for e in ordered:
                if e[2].values_thing and _applies(state, e[0], e[1], e[2].static, ref):
                    _add(state, t, v, e)
                    recall.changed(state, ref)
                    applied.append(e)
            if reading:
                v = _recheck(state, ref, applied, partial)
        finally:
            partial.pop(ref, None)
            if outer:
                _local.partial = None
    v = _finish(state, ref, v)
    recall.keep(state, ref, v, reads, partial)
    return v


def _base(state: State, ref: str) -> V:
    """Printed values (the face), runes and the thing's own modifiers."""
    t = state.things[ref]
    f = board.face(state, ref)
    printed = printed_atk(state, ref)
    v = V(printed + t.runes, f.hp + t.runes, 0, f.keywords, set(), [])
    v.base = (printed, f.hp)
    if maps.has(state, "bloodbowl") and board.is_unit(state, ref):
        v.atk += 1
        v.kw = v.own_kw = {**v.kw, "haste": max(1, v.kw.get("haste", 0))}
        v.private = True
    if t.mods:
        v.kw = v.own_kw = dict(v.kw)
        v.private = True
        for m in t.mods:
            v.atk += m.atk
            v.hp += m.hp
            v.grants.extend((m.card, g) for g in m.grant)
            for k, n in m.keywords.items():
                v.kw[k] = v.kw.get(k, 0) + n
            for k in m.lose:
                v.kw.pop(k, None)
            v.cant.update(m.cant)
    return v


def _add(state: State, t: Thing, v: V, e: Effect) -> None:
    """One continuous effect on `v`."""
    src, ctrl, ab = e
    st = ab.static
    if "base" in st:
        atk, hp = st["base"]["atk"], st["base"]["hp"]
        v.atk += atk - v.base[0]
        v.hp += hp - v.base[1]
        v.base = (atk, hp)
    v.atk += st.get("atk", 0)
    v.hp += st.get("hp", 0)
    v.armor += st.get("armor", 0)
    if "keywords" in st or "lose" in st:
        if not v.private:
            v.kw = v.own_kw = dict(v.kw)
            v.private = True
        for k, n in st.get("keywords", {}).items():
            v.kw[k] = v.kw.get(k, 0) + n if cards.KEYWORDS.get(k, False) else max(v.kw.get(k, 0), n)
        for k in st.get("lose", ()):
            v.kw.pop(k, None)
    if "cant" in st:
        v.cant.update(st["cant"])
    per = st.get("atk_per")
    if per == "damage":
        v.atk += t.damage
    elif per:
        v.atk += len(select.candidates(state, ctrl, src, per["count"]))
    for name in st.get("grant", ()):
        v.grants.append((ab.card, name))
    if "unattackable_by" in st:
        v.unattackable_by.append((ctrl, src, st["unattackable_by"]))
    if "unstoppable_by" in st:
        v.unstoppable_by.append((ctrl, src, st["unstoppable_by"]))
    if "cant_attack" in st:
        v.cant_attack.append((ctrl, src, st["cant_attack"], ab.card))


def _recheck(state: State, ref: str, applied: list[Effect], partial: dict[str, V]) -> V:
    """An effect whose selector reads its target stops when, with every
    other card's effect applied, it no longer holds (a unit given an
    ability loses a bonus for units with none: ruling on Master Midori).
    The thing's own effects stay out of it: a bonus it gets while
    attacking comes after the check that lets it sneak (ruling on Behind
    the Ferns with Steam Tank)."""
    t = state.things[ref]

    def fold(effs: list[Effect]) -> V:
        v = _base(state, ref)
        for e in effs:
            _add(state, t, v, e)
        return v

    changed = True
    while changed:
        changed = False
        for e in [e for e in applied if e[2].reads_target]:
            partial[ref] = fold([x for x in applied if x is not e and x[0] != ref])
            recall.changed(state, ref)
            if not _applies(state, e[0], e[1], e[2].static, ref):
                applied.remove(e)
                changed = True
                break
    return fold(applied)


def _finish(state: State, ref: str, v: V) -> V:
    """Armor printed as a keyword, the patrol slot's bonus, frenzy, ATK never below 0."""
    t = state.things[ref]
    if "armor" in v.kw:
        if not v.private:
            v.kw = v.own_kw = dict(v.kw)
        v.armor += v.kw.pop("armor")
    slot = board.slot_of(state, ref)
    if slot == "squad-leader":
        v.armor += 1
    elif slot == "elite":
        v.atk += 1
    elif slot == "lookout":
        v.kw = dict(v.kw)
        v.kw["resist"] = v.kw.get("resist", 0) + 1
    if t.controller == state.active and "frenzy" in v.kw:
        v.atk += v.kw["frenzy"]
    v.atk = max(0, v.atk)
    return v


def _in_order(state: State, ref: str, effects: list[Effect]) -> tuple[list[Effect], bool]:
    """The effects in the order they apply to `ref` (module docstring),
    and whether any reads its target's values (else the order is play
    order: it does not matter)."""
    cache = memo(state)
    reading = cache.get("reading") if cache is not None else None
    if reading is None:
        reading = any(ab.reads_target for _, _, ab in effects)
        if cache is not None:
            cache["reading"] = reading
    if not reading:
        return effects, False
    things = state.things
    mine = things[ref].stamp
    gone = {e.src: e.stamp for e in state.lasting}

    def key(e: Effect) -> tuple[int, int, int, int]:
        src, _, ab = e
        if src == ref:
            return (1, 0, 0, 0)
        began = things[src].stamp if src in things else gone.get(src, 0)
        return (0, max(began, mine), ab.gifts, began)

    return sorted(effects, key=key), True


def has_abilities(state: State, ref: str, v: V) -> bool:
    """Whether the thing has any ability now: printed or given (keywords,
    granted activated abilities); neither its numbers, its runes, its patrol
    slot nor being an illusion count (rulings on Master Midori)."""
    f = board.face(state, ref)
    return bool(f.abilities or v.grants or any(k != "illusion" for k in f.keywords)
                or any(n > 0 and k != "illusion" for k, n in v.own_kw.items()))


def printed_atk(state: State, ref: str) -> int:
    """The ATK printed on the card (a hero's band, the face it shows), or
    what a modifier set it to for a while (the last one)."""
    for m in reversed(state.things[ref].mods):
        if m.base_atk is not None:
            return m.base_atk
    return board.face(state, ref).atk


def _read(state: State, ref: str) -> tuple[int, dict[str, int]]:
    v = get(state, ref)
    return v.atk, v.kw  # (whether it has abilities: ABILITY_READER, only for selectors that ask)


select.VALUE_READER = _read
select.ABILITY_READER = lambda state, ref: has_abilities(state, ref, get(state, ref))


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
    return state.things[ref].since >= state.turn and not has(state, ref, "haste")


# --- costs -------------------------------------------------------------------------------


#: whether a card (by name, not in play) matches a ``plays`` selector
card_matches = select.card_matches


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
    """What playing `name` costs `seat` now (before boost and off-colour
    extras): its printed cost, 1 less for each thing its ``cheaper_per``
    selector finds, then the continuous effects on costs; never below 0.
    Other cards reading its cost see the printed one (ruling on Gigadon)."""
    c = cards.CARDS[name]
    cost = c.cost
    if "cheaper_per" in c.raw:
        cost -= len(select.candidates(state, seat, "", c.raw["cheaper_per"]))
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


def needs_no_hero(state: State, seat: str, name: str) -> bool:
    """A continuous effect (``plays`` with ``no_hero``) lets `seat` cast
    spell `name` without a hero of its spec, ultimate or not."""
    return maps.has(state, "lost-temple") or any(
        st.get("no_hero") and card_matches(st["plays"], name) for _, st in _player_statics(state, seat, "plays"))


def needs_no_tech(state: State, seat: str, name: str) -> bool:
    """Whether a continuous ``plays`` effect with ``no_tech`` lets `seat`
    play `name` without its tech building."""
    return maps.has(state, "lost-temple") or any(
        st.get("no_tech") and card_matches(st["plays"], name) for _, st in _player_statics(state, seat, "plays"))


def damage_boost(state: State, seat: str, card: str) -> int:
    """Extra damage `seat`'s spells and abilities written on `card` deal
    (continuous ``damage_boost`` effects of its own, each for the cards its
    ``sources`` take: "your red spells and abilities deal 1 more"; several
    add up). Combat damage is never boosted."""
    if not card:
        return 0
    return sum(int(st["damage_boost"]) for _, st in _player_statics(state, seat, "damage_boost")
               if card_matches(st.get("sources", {}), card))


def hire_cost(state: State, seat: str) -> int:
    """1 gold, or none with a "hire for free" effect; increases still count (ruling)."""
    found = _player_statics(state, seat, "hire")
    base = 0 if any(st["hire"] == "free" for _, st in found) else 1
    more = sum(st.get("hire_cost", 0) for _, st in _player_statics(state, seat, "hire_cost"))
    return max(0, base + more + maps.has(state, "hard-times-mill"))
