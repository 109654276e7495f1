"""Current values and the effects every card uses.

Values are recomputed from printed values and what is in play, never
stored: ATK and HP (`atk`, `hp`), keywords (`keywords`), costs
(`play_cost`). Effects mutate a state the caller has copied: damage
(`damage`), the state-based checks that follow every step (`settle`:
deaths, destroyed buildings, channeling, Two Step, the end of the game),
draws with the one reshuffle per main phase (`draw`), arrivals, leaving
play. All functions take the state first.
"""

from __future__ import annotations

from pbem.games.base import Chance, Hidden, Item, Known, Outcome, draw_private, shuffle_zone
from pbem.games.codex_v1 import cards
from pbem.games.codex_v1.state import (
    MAIN,
    OVER,
    Building,
    State,
    Thing,
    deck,
    discard,
    hand,
    ongoing,
    other,
    play,
    workers,
)

# --- reading the board ---------------------------------------------------------


def log(state: State, text: str) -> None:
    state.log.append(text)


def is_hero(state: State, ref: str) -> bool:
    return cards.is_hero(state.things[ref].card)


def is_unit(state: State, ref: str) -> bool:
    return not is_hero(state, ref)


def subtypes(state: State, ref: str) -> list[str]:
    name = state.things[ref].card
    return [] if cards.is_hero(name) else cards.CARDS[name].get("subtypes", [])


def tech_of(state: State, ref: str) -> int:
    name = state.things[ref].card
    return 0 if cards.is_hero(name) else cards.tech(name)


def things_of(state: State, seat: str) -> list[str]:
    """Refs of the things `seat` controls, in play-zone order."""
    return [it.ref for it in state.zones[play(seat)].items]


def controls(state: State, seat: str, name: str) -> list[str]:
    return [r for r in things_of(state, seat) if state.things[r].card == name]


def hero_in_play(state: State, seat: str) -> str | None:
    for r in things_of(state, seat):
        if is_hero(state, r):
            return r
    return None


def band(state: State, ref: str) -> int:
    t = state.things[ref]
    return cards.band(t.card, t.level)


def slot_of(state: State, ref: str) -> str | None:
    """The patrol slot `ref` holds (patrols count only once locked)."""
    t = state.things.get(ref)
    if t is None:
        return None
    slots = state.patrol.get(t.controller, [])
    if ref in slots:
        return cards.SLOTS[slots.index(ref)]
    return None


def patrollers(state: State, seat: str) -> list[str]:
    return [r for r in state.patrol.get(seat, []) if r]


def worker_count(state: State, seat: str) -> int:
    return state.players[seat].base_workers + len(state.zones[workers(seat)].items)


def building_done(state: State, seat: str, kind: str) -> bool:
    b = state.players[seat].buildings.get(kind)
    return b is not None and b.done


def building_hp(kind: str) -> int:
    return cards.BASE_HP if kind == "base" else int(cards.BUILDINGS[kind]["hp"])


def addon(state: State, seat: str) -> Building | None:
    for k in cards.ADDONS:
        if k in state.players[seat].buildings:
            return state.players[seat].buildings[k]
    return None


def buildings_in_play(state: State, seat: str) -> list[str]:
    """Building ids (``SEAT:base``, ``SEAT:tech1`` ...) that can be hit."""
    out = [f"{seat}:base"]
    for kind in cards.TECH_BUILDINGS + cards.ADDONS:
        if building_done(state, seat, kind):
            out.append(f"{seat}:{kind}")
    return out


def is_building(target: str) -> bool:
    return ":" in target


# --- keywords and stats ---------------------------------------------------------


def keywords(state: State, ref: str) -> dict[str, int]:
    t = state.things[ref]
    seat = t.controller
    if cards.is_hero(t.card):
        kw: dict[str, int] = {}
        if t.card == "Troq Bashar" and band(state, ref) >= 2:
            kw["readiness"] = 1
    else:
        kw = dict(cards.CARDS[t.card].get("keywords", {}))
    for k in t.temp_kw:
        kw[k] = kw.get(k, 0) + 1
    mine = things_of(state, seat)
    names = [state.things[r].card for r in mine]
    if "Virtuoso" in subtypes(state, ref) and "Nimble Fencer" in names:
        kw["haste"] = 1
    if "Blademaster" in names:
        kw["swift_strike"] = 1
    if slot_of(state, ref) == "lookout":
        kw["resist"] = kw.get("resist", 0) + 1
    return kw


def has(state: State, ref: str, key: str) -> bool:
    return keywords(state, ref).get(key, 0) > 0


def _printed(state: State, ref: str) -> tuple[int, int]:
    t = state.things[ref]
    if cards.is_hero(t.card):
        b = cards.HEROES[t.card]["bands"][band(state, ref)]
        return b["atk"], b["hp"]
    c = cards.CARDS[t.card]
    return c["atk"], c["hp"]


def _partnered(state: State, ref: str) -> int:
    """How many live Two Steps give `ref` +2/+2."""
    t = state.things[ref]
    n = 0
    for sp in state.spells.values():
        if ref in sp.partners and sp.owner == t.controller and all(
            p in state.things and state.things[p].controller == sp.owner for p in sp.partners
        ):
            n += 1
    return n


def _guides(state: State, ref: str) -> tuple[int, int]:
    t = state.things[ref]
    if cards.is_hero(t.card):
        return 0, 0
    virtuoso = "Virtuoso" in subtypes(state, ref)
    a = h = 0
    for r in things_of(state, t.controller):
        if r != ref and state.things[r].card == "Grounded Guide":
            if virtuoso:
                a, h = a + 2, h + 1
            else:
                a += 1
    return a, h


def atk(state: State, ref: str) -> int:
    t = state.things[ref]
    base, _ = _printed(state, ref)
    value = base + t.runes + t.temp_atk
    kw = keywords(state, ref)
    if t.controller == state.active:
        value += kw.get("frenzy", 0)
    if slot_of(state, ref) == "elite":
        value += 1
    if t.card == "Star-Crossed Starlet":
        value += t.damage
    value += _guides(state, ref)[0] + 2 * _partnered(state, ref)
    return max(0, value)


def hp(state: State, ref: str) -> int:
    t = state.things[ref]
    _, base = _printed(state, ref)
    return base + t.runes + t.temp_hp + _guides(state, ref)[1] + 2 * _partnered(state, ref)


def play_cost(state: State, seat: str, name: str) -> int:
    cost = int(cards.CARDS[name]["cost"])
    if cards.kind(name) == "unit":
        mine = [state.things[r] for r in things_of(state, seat)]
        if "Virtuoso" in cards.CARDS[name].get("subtypes", []) and any(t.card == "Maestro" for t in mine):
            return 0
        for t in mine:
            if t.card == "River Montoya" and cards.band(t.card, t.level) >= 2 and cards.tech(name) == 0:
                cost = max(0, cost - 1)
    return cost


def fatigued(state: State, ref: str) -> bool:
    """Arrival fatigue: came under its controller's control this turn, no haste."""
    t = state.things[ref]
    return t.since >= state.turn and not has(state, ref, "haste")


# --- zones -------------------------------------------------------------------------


def take(state: State, zone: str, ref: str) -> Item | None:
    items = state.zones[zone].items
    for i, it in enumerate(items):
        if it.ref == ref:
            return items.pop(i)
    return None


def zone_of(state: State, ref: str) -> str | None:
    for name, zone in state.zones.items():
        if any(it.ref == ref for it in zone.items):
            return name
    return None


def gain_gold(state: State, seat: str, n: int) -> None:
    p = state.players[seat]
    p.gold = min(cards.GOLD_CAP, p.gold + n)


def draw(state: State, seat: str, n: int, chance: Chance) -> int:
    """Draw up to `n` cards; an empty deck takes the discard pile, shuffled
    (once per main phase). Returns how many were drawn."""
    p = state.players[seat]
    got = 0
    for _ in range(n):
        pile = state.zones[deck(seat)]
        if not pile.items:
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
        else:
            item = draw_private(state, deck(seat), chance)
        state.zones[hand(seat)].items.append(item)
        got += 1
    return got


def to_discard(state: State, seat: str, item: Item, name: str) -> None:
    """A card everyone saw goes face down to its owner's discard pile."""
    state.zones[discard(seat)].items.append(Known(item.ref, name) if isinstance(item, Hidden) else item)
    state.shown[item.ref] = name


# --- damage, death, arrival ---------------------------------------------------------


def damage(state: State, target: str, n: int) -> int:
    """Deal `n` damage to a thing or a building; returns what got through."""
    if n <= 0:
        return 0
    if is_building(target):
        seat, kind = target.split(":")
        p = state.players[seat]
        if kind == "base":
            p.base_damage += n
        elif kind in p.buildings:
            p.buildings[kind].damage += n
        return n
    t = state.things.get(target)
    if t is None:
        return 0
    if slot_of(state, target) == "squad-leader" and t.armor_used != state.turn:
        t.armor_used = state.turn
        n -= 1
    t.damage += max(0, n)
    return max(0, n)


def repair(state: State, target: str, n: int) -> None:
    seat, kind = target.split(":")
    p = state.players[seat]
    if kind == "base":
        p.base_damage = max(0, p.base_damage - n)
    elif kind in p.buildings:
        p.buildings[kind].damage = max(0, p.buildings[kind].damage - n)


def heal(state: State, ref: str, n: int) -> None:
    t = state.things[ref]
    t.damage = max(0, t.damage - n)


def unpatrol(state: State, ref: str) -> None:
    for slots in state.patrol.values():
        for i, r in enumerate(slots):
            if r == ref:
                slots[i] = ""


def _remove(state: State, ref: str) -> Thing:
    t = state.things.pop(ref)
    unpatrol(state, ref)
    return t


def level_up(state: State, ref: str, n: int) -> int:
    """Level a hero up to `n` times (not past max), healing at a new band."""
    t = state.things[ref]
    top = cards.max_level(t.card)
    done = 0
    while done < n and t.level < top:
        before = cards.band(t.card, t.level)
        t.level += 1
        done += 1
        if cards.band(t.card, t.level) != before:
            t.damage = 0
        if t.level == top:
            t.max_since = state.turn
    return done


def die(state: State, refs: list[str], chance: Chance) -> None:
    """Things that die together: to the discard pile (tokens vanish, heroes
    go home), then the patrol-slot bonuses and a dead hero's free levels."""
    bonuses: list[tuple[str, str]] = []
    heroes: list[str] = []
    for ref in refs:
        t = state.things[ref]
        slot = slot_of(state, ref)
        if slot in ("scavenger", "technician"):
            bonuses.append((t.controller, slot))
        _remove(state, ref)
        item = take(state, play(t.controller), ref)
        assert item is not None
        if t.card in cards.HEROES:
            p = state.players[t.owner]
            p.hero_home = True
            nxt = state.turn + (2 if t.owner == state.active else 1)
            p.hero_back = nxt + 2
            heroes.append(t.controller)
            log(state, f"{t.card} dies and returns to {t.owner}'s command zone")
        elif cards.kind(t.card) == "token":
            log(state, f"a {t.card} token dies")
        else:
            to_discard(state, t.owner, item, t.card)
            log(state, f"{t.card} dies")
    for seat, slot in bonuses:
        if slot == "scavenger":
            gain_gold(state, seat, 1)
            log(state, f"{seat}'s scavenger finds 1 gold")
        else:
            got = draw(state, seat, 1, chance)
            log(state, f"{seat}'s technician draws {got} card")
    for seat in heroes:
        h = hero_in_play(state, other(state, seat))
        if h is not None and level_up(state, h, 2):
            log(state, f"{state.things[h].card} levels up twice (an opposing hero died)")


def leave_play(state: State, ref: str, to: str) -> None:
    """Bounce (`to` = ``hand``) or destroy-without-dying moves."""
    t = _remove(state, ref)
    item = take(state, play(t.controller), ref)
    assert item is not None
    if cards.kind(t.card) == "token":
        return
    if to == "hand":
        state.zones[hand(t.owner)].items.append(item)
        state.shown[ref] = t.card


def change_control(state: State, ref: str, seat: str) -> None:
    t = state.things[ref]
    if t.controller == seat:
        return
    unpatrol(state, ref)
    item = take(state, play(t.controller), ref)
    assert item is not None
    state.zones[play(seat)].items.append(item)
    t.controller = seat
    t.since = state.turn


def new_thing(state: State, seat: str, item: Item, name: str, owner: str | None = None) -> str:
    """Put a card (or token) into play under `seat`; legendary copies go to
    the discard pile instead. Returns the ref ("" if it did not arrive)."""
    legendary = cards.CARDS.get(name, {}).get("legendary", False)
    if legendary and controls(state, seat, name):
        to_discard(state, owner or seat, item, name)
        return ""
    state.zones[play(seat)].items.append(Known(item.ref, name))
    state.things[item.ref] = Thing(card=name, owner=owner or seat, controller=seat, since=state.turn,
                                   level=1 if name in cards.HEROES else 0)
    return item.ref


def make_token(state: State, seat: str, name: str) -> str:
    ref = f"k{state.next_ref:03d}"
    state.next_ref += 1
    new_thing(state, seat, Known(ref, name), name)
    return ref


def flip_token(state: State, ref: str, name: str) -> str:
    """Flip a token to its other face: not an arrival; damage, runes, patrol
    slot and partners stay. A token's ref names one face, so the flipped
    token gets a fresh ref in the same place."""
    t = state.things.pop(ref)
    new = f"k{state.next_ref:03d}"
    state.next_ref += 1
    zone = state.zones[play(t.controller)]
    zone.items = [Known(new, name) if it.ref == ref else it for it in zone.items]
    t.card = name
    state.things[new] = t
    for slots in state.patrol.values():
        for i, r in enumerate(slots):
            if r == ref:
                slots[i] = new
    for sp in state.spells.values():
        sp.partners = [new if p == ref else p for p in sp.partners]
    return new


def sacrifice_spell(state: State, ref: str) -> None:
    sp = state.spells.pop(ref)
    item = take(state, ongoing(sp.owner), ref)
    assert item is not None
    to_discard(state, sp.owner, item, sp.card)
    log(state, f"{sp.owner}'s {sp.card} is sacrificed")


def settle(state: State, chance: Chance) -> None:
    """State-based checks, repeated until nothing changes."""
    while state.phase != OVER:
        dying = [r for r in state.things if hp(state, r) <= 0 or state.things[r].damage >= hp(state, r)]
        if dying:
            die(state, dying, chance)
            continue
        changed = False
        for seat in state.seats:
            p = state.players[seat]
            for kind, b in list(p.buildings.items()):
                if b.done and b.damage >= building_hp(kind):
                    del p.buildings[kind]
                    p.base_damage += 2
                    log(state, f"{seat}'s {cards.BUILDINGS[kind]['name']} is destroyed (2 damage to the base)")
                    changed = True
        for ref, sp in list(state.spells.items()):
            gone = False
            if sp.caster and (sp.caster not in state.things or state.things[sp.caster].controller != sp.owner):
                gone = True
            if sp.partners and not all(
                p in state.things and state.things[p].controller == sp.owner for p in sp.partners
            ):
                gone = True
            if gone:
                sacrifice_spell(state, ref)
                changed = True
        if changed:
            continue
        dead = [s for s in state.seats if state.players[s].base_damage >= cards.BASE_HP]
        if dead:
            state.phase = OVER
            winners = [s for s in state.seats if s not in dead]
            reason = "base destroyed: " + ", ".join(dead)
            state.outcome = Outcome(winners=winners, reason=reason)
            log(state, f"{' and '.join(dead)}'s base is destroyed")
        break
