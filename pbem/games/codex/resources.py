"""Gold, cards, damage and the small changes every card makes: draws
with the one reshuffle a main phase, the discard and trash piles, workers,
damage through prevention and armor (deathtouch, armor piercing), healing
and repairs, runes and other counters, modifiers, exhaustion, sidelining,
disabling, levels. `engine` adds arrival, death and the state-based checks
on top (and is what the rest of the rules import).
"""

from __future__ import annotations

from pbem.games.base import Chance, Hidden, Item, Known, draw_private, shuffle_zone
from pbem.games.codex import board, cards, events, maps, select, values
from pbem.games.codex.board import log
from pbem.games.codex.state import MAIN, Lasting, Mod, State, deck, discard, hand, top, trash, workers

# --- gold and cards ----------------------------------------------------------------------


def gain_gold(state: State, seat: str, n: int) -> None:
    p = state.players[seat]
    p.gold = max(0, min(cards.GOLD_CAP, p.gold + n))


def take_item(state: State, zone: str, ref: str) -> Item | None:
    items = state.zones[zone].items
    for i, it in enumerate(items):
        if it.ref == ref:
            return items.pop(i)
    return None


def draw(state: State, seat: str, n: int, chance: Chance) -> int:
    """Draw up to `n` cards; an empty deck takes the discard pile, shuffled
    (once per main phase). The top of the pile is the public cards put there
    (`Player.on_top`), then those its owner looked at (``top:S``), then a
    card chance picks. Returns how many were drawn."""
    p = state.players[seat]
    got = 0
    for _ in range(n):
        pile = state.zones[deck(seat)]
        seen = state.zones[top(seat)]
        if not pile.items and not seen.items:
            if state.phase == MAIN and p.reshuffled:
                break
            used = state.zones[discard(seat)]
            if not used.items:
                break
            pile.items, used.items = used.items, []
            for it in pile.items:
                state.shown.pop(it.ref, None)
            shuffle_zone(state, deck(seat), chance, prefix="r")
            p.on_top = 0
            if state.phase == MAIN:
                p.reshuffled = True
            log(state, f"{seat} shuffles the discard pile into a new draw pile")
        if p.on_top > 0:
            item = pile.items.pop(0)
            p.on_top -= 1
        elif seen.items:
            item = seen.items.pop(0)
        else:
            item = draw_private(state, deck(seat), chance)
        state.zones[hand(seat)].items.append(item)
        got += 1
    if got:
        events.emit(state, events.whenever(state, "card_drawn", "", {"player": seat, "n": str(got)}))
    return got


def discard_from_hand(state: State, seat: str, refs: list[str]) -> None:
    """Cards go from `seat`'s hand to its discard pile (face down: not shown)."""
    for r in refs:
        item = take_item(state, hand(seat), r)
        assert item is not None
        state.zones[discard(seat)].items.append(item)
    if refs:
        events.emit(state, events.whenever(state, "card_discarded", "", {"player": seat, "n": str(len(refs))}))


def to_discard(state: State, seat: str, item: Item, name: str) -> None:
    """A card everyone saw goes face down to its owner's discard pile."""
    state.zones[discard(seat)].items.append(Known(item.ref, name) if isinstance(item, Hidden) else item)
    state.shown[item.ref] = name


def trash_worker(state: State, seat: str) -> None:
    """A worker of `seat` leaves the game: its last hired worker card (face
    down still), else one of the worker card's own workers."""
    hired = state.zones[workers(seat)].items
    if hired:
        to_trash(state, seat, hired.pop(), None)
    elif state.players[seat].base_workers:
        state.players[seat].base_workers -= 1
    else:
        return
    log(state, f"{seat} loses a worker (trashed)")


def to_trash(state: State, seat: str, item: Item, name: str | None) -> None:
    """A card leaves the game (named in `shown` if everyone saw it)."""
    state.zones[trash(seat)].items.append(item)
    if name is not None:
        state.shown[item.ref] = name


# --- damage, healing, runes, modifiers ---------------------------------------------------------


def damage(state: State, target: str, n: int, src: str = "", combat: bool = False) -> int:
    """Deal `n` damage to a thing or a structure; returns what was dealt
    after prevention (armor absorbing it counts: ruling on Might of Leaf and
    Claw). Combat damage from a deathtouch source kills a unit or hero it
    reaches, even through armor; armor piercing ignores armor. A source
    with ``damage_as_runes`` (Orpal Gloor) puts that many -1/-1 runes on a
    unit or hero instead of damage: still damage dealt (ruling), so what
    watches combat damage sees it."""
    n = _prevented(state, target, n, combat) if n > 0 and not maps.no_rush(state) else 0
    if n <= 0:
        return 0
    if board.is_structure(target):
        seat, kind = board.structure(target)
        p = state.players[seat]
        if kind == "base":
            board.damage_base(state, seat, n)
            events.emit(state, events.whenever(state, "base_damaged", "", {"player": seat, "n": str(n), "source": src}))
        elif kind in p.buildings:
            p.buildings[kind].damage += n
        else:
            return 0
        _source_hit(state, src, "damages_base" if kind == "base" else "damages_building", target, combat)
        return n
    t = state.things.get(target)
    if t is None:
        return 0
    t.hit_by, t.hit_src = ("combat" if combat else "effect"), src
    lethal = pierce = as_runes = False
    if src in state.things:
        sv = values.get(state, src)
        lethal = combat and sv.has("deathtouch") and board.is_fighter(state, target)
        pierce = combat and sv.has("armor_piercing")
        as_runes = sv.has("damage_as_runes") and board.is_fighter(state, target)
    dealt = n
    if not pierce:
        n = _absorb(state, target, n)
    if as_runes:
        add_runes(state, target, -n)
    else:
        t.damage += n
    if lethal:
        t.damage = max(t.damage, values.hp(state, target))
    if board.kind_of(state, target) == "building":
        _source_hit(state, src, "damages_building", target, combat)
    return dealt


def _prevented(state: State, target: str, n: int, combat: bool) -> int:
    """What is left of `n` damage to `target` after prevention effects
    (continuous ``prevent``: ``all`` or a number, ``from`` ``combat`` /
    ``effects`` / ``any``, ``per_turn`` uses of the effect's card)."""
    for src, ctrl, ab in values.statics(state):
        st = ab.static
        if "prevent" not in st or n <= 0:
            continue
        source = st.get("from", "any")
        if source == "combat" and not combat or source == "effects" and combat:
            continue
        if not select.matches(state, ctrl, src, st["to"], target) or not select.holds(state, ctrl, src, st.get("while")):
            continue
        t = state.things.get(src)
        if st.get("per_turn") and t is not None:
            if t.used_turn != state.turn:
                t.used_turn, t.used = state.turn, {}
            if t.used.get("prevent", 0) >= st["per_turn"]:
                continue
            t.used["prevent"] = t.used.get("prevent", 0) + 1
        stop = n if st["prevent"] == "all" else min(n, int(st["prevent"]))
        n -= stop
        log(state, f"{ab.card} prevents {stop} damage to {board.name_of(state, target)}")
    return n


def _source_hit(state: State, src: str, name: str, target: str, combat: bool) -> None:
    """Its source's ``damages_base`` / ``damages_building`` (``cause``:
    ``combat`` or ``effect``; ``defender``: whose it was)."""
    t = state.things.get(src)
    if t is not None:
        owner = board.controller(state, target)
        events.emit(state, events.own(state, name, src, t.controller, board.face(state, src),
                                      {"subject": src, "attacked": target, "player": owner, "defender": owner,
                                       "cause": "combat" if combat else "effect"}))


def _absorb(state: State, ref: str, n: int) -> int:
    """Armor takes damage first: the continuous armor (refreshed each
    turn), then what is left of armor modifiers."""
    t = state.things[ref]
    if t.armor_turn != state.turn:
        t.armor_turn, t.armor_used = state.turn, 0
    pool = max(0, values.get(state, ref).armor - t.armor_used)
    take = min(pool, n)
    t.armor_used += take
    n -= take
    for m in t.mods:
        if n <= 0:
            break
        take = min(m.armor, n)
        m.armor -= take
        n -= take
    return n


def heal(state: State, ref: str, n: int) -> None:
    t = state.things[ref]
    t.damage = max(0, t.damage - n)


def repair(state: State, target: str, n: int) -> None:
    """Remove damage from a structure or a building card (never above its HP)."""
    if board.is_structure(target):
        seat, kind = board.structure(target)
        p = state.players[seat]
        if kind == "base":
            board.damage_base(state, seat, -n)
        elif kind in p.buildings:
            p.buildings[kind].damage = max(0, p.buildings[kind].damage - n)
    elif target in state.things:
        heal(state, target, n)


def add_runes(state: State, ref: str, n: int) -> None:
    """+1/+1 runes (negative: -1/-1); the two kinds cancel each other."""
    state.things[ref].runes += n


def add_counter(state: State, ref: str, name: str, n: int, limit: int = 0) -> int:
    """Put `n` runes of a kind on a thing (at most `limit` in all); returns how many."""
    t = state.things[ref]
    have = t.counters.get(name, 0)
    if limit:
        n = max(0, min(n, limit - have))
    if n:
        t.counters[name] = have + n
    return n


def stamp(state: State, ref: str) -> None:
    """`ref` is new to its controller now (arrival, control, a hero's new
    band): later than everything stamped before (`values` orders
    continuous effects by it)."""
    state.clock += 1
    state.things[ref].stamp = state.clock


def give(state: State, ref: str, mod: Mod) -> None:
    state.things[ref].mods.append(mod)


def transform(state: State, ref: str, name: str, until: str, src: str = "") -> None:
    """`ref` shows `name`'s face (numbers, keywords, abilities, subtypes,
    colour) until `until`: not an arrival; it loses what other effects gave
    it before (their modifiers) and keeps its runes, damage, attachments and
    tech level (rulings on Polymorph: Squirrel)."""
    t = state.things[ref]
    log(state, f"{t.card} is transformed into a {name}")
    t.mods = [Mod(until=until, face=name, src=src)]


def expire(state: State, until: str) -> list[str]:
    """Modifiers and lasting effects that last `until` end now. Returns the
    things whose ending modifier says they die then (``Mod.dies``)."""
    doomed = []
    for ref, t in state.things.items():
        if any(m.until == until for m in t.mods):
            doomed += [ref] if any(m.until == until and m.dies for m in t.mods) else []
            t.mods = [m for m in t.mods if m.until != until]
    if any(e.until == until for e in state.lasting):
        state.lasting = [e for e in state.lasting if e.until != until]
    return doomed


def lasting(state: State, seat: str, src: str, card: str, key: str, until: str) -> None:
    """`card`'s continuous effect `key` holds for `seat` until `until`
    (`State.lasting`), though the card itself leaves or never stays."""
    state.clock += 1
    state.lasting.append(Lasting(card=card, key=key, ctrl=seat, src=src, until=until, stamp=state.clock))




def unpatrol(state: State, ref: str) -> None:
    for slots in state.patrol.values():
        for i, r in enumerate(slots):
            if r == ref:
                slots[i] = ""


def shove(state: State, ref: str, slot: str) -> bool:
    """Move a patroller to another slot of its patrol zone, if that one is empty."""
    t = state.things[ref]
    slots = state.patrol.get(t.controller, [])
    if ref not in slots or slot not in cards.SLOTS or slots[cards.SLOTS.index(slot)]:
        return False
    slots[slots.index(ref)] = ""
    slots[cards.SLOTS.index(slot)] = ref
    return True


def exhaust(state: State, ref: str) -> None:
    """Exhaust a ready thing (an attack, a cost, an effect): its ``exhausts`` event."""
    t = state.things[ref]
    if t.exhausted:
        return
    t.exhausted = True
    events.emit(state, events.own(state, "exhausts", ref, t.controller, board.face(state, ref), {"subject": ref}))


def disable(state: State, ref: str) -> None:
    """Exhaust it, it skips its next ready step, and it leaves the patrol zone."""
    t = state.things[ref]
    exhaust(state, ref)
    t.disabled = True
    unpatrol(state, ref)


def level_up(state: State, ref: str, n: int) -> int:
    """Level a hero up to `n` times (not past max), healing at a new band;
    reaching max level is an event."""
    t = state.things[ref]
    if values.cant(state, ref, "level_up"):
        return 0
    top = cards.max_level(t.card)
    done = 0
    while done < n and t.level < top:
        before = cards.band(t.card, t.level)
        t.level += 1
        done += 1
        if cards.band(t.card, t.level) != before:
            t.damage = 0
            stamp(state, ref)
        if t.level == top:
            t.max_since = state.turn
            events.emit(state, events.own(state, "max_level", ref, t.controller, board.face(state, ref),
                                          {"subject": ref}))
    return done
