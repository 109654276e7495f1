"""Changes to the board that every card uses: arrival, tokens, control,
death and leaving play, and the state-based checks (`settle`) that follow
every step; with `resources` (gold, draws, damage and armor, runes and
counters, modifiers, levels), whose functions it also offers, this is the
one module the rules call to change the board.

Every function takes the state first and changes it in place (callers work
on a copy). Events are emitted here (`events.emit`) as they happen; the
queue runner resolves the triggers they wake. Replacements apply here:
``replace: dies`` abilities and indestructible ("instead exhaust it and
remove its damage"), forecast (arrives in the future instead), legendary (a
second copy is discarded instead), a token that would leave play ceases to
exist; prevention applies in `resources.damage`.
"""

from __future__ import annotations

from pbem.games.base import Chance, Item, Known, Outcome, identity
from pbem.games.codex import board, cards, events, ffa, maps, registry, resources, select, values
from pbem.games.codex.cards import Face
from pbem.games.codex.board import log
from pbem.games.codex.resources import (  # noqa: F401 (offered to the rules from here)
    add_counter,
    add_runes,
    damage,
    disable,
    discard_from_hand,
    draw,
    exhaust,
    gain_gold,
    give,
    heal,
    lasting,
    level_up,
    repair,
    shove,
    stamp,
    take_item,
    transform,
    to_discard,
    to_trash,
    trash_worker,
    unpatrol,
)
from pbem.games.codex.state import (
    OVER,
    Future,
    Pending,
    State,
    Thing,
    future,
    hand,
    ongoing,
    play,
    turn_order,
)

def remove_counter(state: State, ref: str, name: str, n: int, chance: Chance | None = None) -> int:
    """Take up to `n` runes of a kind off a thing; returns how many. A
    fading thing whose last time rune goes is sacrificed, whatever removed
    it (ruling on fading)."""
    t = state.things[ref]
    have = t.counters.get(name, 0)
    n = min(n, have)
    if n:
        if have - n:
            t.counters[name] = have - n
        else:
            del t.counters[name]
            if name == "time" and values.has(state, ref, "fading"):
                log(state, f"{t.card} fades away")
                die(state, [ref], chance)
    return n


# --- arriving ------------------------------------------------------------------------------------


def new_thing(state: State, seat: str, item: Item, name: str, owner: str | None = None,
              played: bool = False, ev: dict[str, str] | None = None, from_hand: bool = False) -> str:
    """Put a card (or token) into play under `seat`. Forecast sends it to
    the future instead, legendary copies to the discard pile. Returns the
    ref ("" if it did not arrive). A unit arriving `from_hand` says in its
    arrival events whether it is the first to do so for `seat` this turn
    (``from_hand``: ``first`` or ``yes``)."""
    owner = owner or seat
    c = cards.CARDS[name]
    forecast = c.keywords.get("forecast", 0)
    if forecast and played:
        state.zones[future(owner)].items.append(Known(item.ref, name))
        state.future[item.ref] = Future(card=name, owner=owner, time=forecast)
        log(state, f"{name} goes {forecast} turns into the future")
        return ""
    if c.legendary and board.controls(state, seat, name):
        to_discard(state, owner, item, name)
        log(state, f"a second {name} is discarded (legendary)")
        return ""
    zone = ongoing(seat) if c.type == "spell" else play(seat)
    state.zones[zone].items.append(Known(item.ref, name))
    t = Thing(card=name, owner=owner, controller=seat, since=state.turn, arrived=state.turn,
              level=1 if c.type == "hero" else 0)
    state.things[item.ref] = t
    stamp(state, item.ref)
    if c.keywords.get("fading"):
        t.counters["time"] = c.keywords["fading"]
    if c.type in ("unit", "token") and from_hand:
        ev = {**(ev or {}), "from_hand": "yes" if board.flag(state, seat, "unit_from_hand") else "first"}
        state.players[seat].flags["unit_from_hand"] = state.turn
    if c.type != "spell":
        arrive(state, item.ref, ev)
    return item.ref


def put_into_play(state: State, seat: str, zone: str, ref: str) -> str:
    """A card of `seat`'s `zone` (its hand ...) is put into play, not
    played: no cost, no tech needed, no boost or forecast; it arrives."""
    item = next(it for it in state.zones[zone].items if it.ref == ref)
    name = identity(item)  # read before anything moves (a public state asks its owner)
    take_item(state, zone, ref)
    log(state, f"{name} is put into play from {seat}'s {zone.split(':')[0]}")
    return new_thing(state, seat, Known(ref, name), name, from_hand=zone.startswith("hand:"))


def fetch(state: State, seat: str, zone: str, ref: str) -> None:
    """A card of `seat`'s codex (`zone`) goes to its hand, shown to everyone."""
    item = next(it for it in state.zones[zone].items if it.ref == ref)
    name = identity(item)
    take_item(state, zone, ref)
    state.zones[hand(seat)].items.append(Known(ref, name))
    state.shown[ref] = name
    log(state, f"{seat} fetches {name} from the codex into the hand")


def arrive(state: State, ref: str, ev: dict[str, str] | None = None) -> None:
    """The arrival event: its own arrives triggers (`ev`: how it was
    played, ``boosted``, ``from_hand``), then others' "whenever another ...
    arrives" (told the same)."""
    t = state.things[ref]
    mine = events.own(state, "arrives", ref, t.controller, board.face(state, ref), {"subject": ref, **(ev or {})})
    events.emit(state, mine + events.whenever(state, "other_arrives", ref,
                                              {"subject": ref, "controller": t.controller, **(ev or {})}))


def make_token(state: State, seat: str, name: str, limit: int = 0) -> str:
    """A token arrives for `seat` unless it already has `limit` of its kind."""
    if limit:
        kind = set(cards.CARDS[name].limit_as)
        have = sum(1 for r in board.things_of(state, seat) if state.things[r].card in kind)
        if have >= limit:
            return ""
    ref = f"k{state.next_ref:03d}"
    state.next_ref += 1
    # a token with forecast waits in the future as a played card does (Vir Garbarean's Mech)
    return new_thing(state, seat, Known(ref, name), name, played=bool(cards.CARDS[name].keywords.get("forecast")))


def flip(state: State, ref: str, name: str) -> str:
    """Flip a token to its other face: not an arrival; damage, runes,
    counters, modifiers and patrol slot stay. A token's ref names one face,
    so the flipped token gets a fresh ref in the same place."""
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
    for other in state.things.values():
        if ref in other.links:
            other.links = [new if p == ref else p for p in other.links]
        if other.attached == ref:
            other.attached = new
    return new


def change_control(state: State, ref: str, seat: str, until: str = "") -> None:
    """`seat` takes control of a thing: for good, or `until` an end
    (``turn`` ...) when its controller before gets it back (`expire`).
    Nothing arrives; damage, runes and exhaustion stay."""
    t = state.things[ref]
    if t.controller == seat:
        return
    if until:
        t.returns_to, t.returns_at = t.returns_to or t.controller, until
    else:
        t.returns_to = t.returns_at = ""
    unpatrol(state, ref)
    zone = ongoing if cards.CARDS[t.card].type == "spell" else play
    item = take_item(state, zone(t.controller), ref)
    assert item is not None
    if cards.CARDS[t.card].legendary and board.controls(state, seat, t.card):
        _gone(state, ref)
        to_discard(state, t.owner, item, t.card)
        return
    state.zones[zone(seat)].items.append(item)
    t.controller = seat
    t.since = state.turn
    stamp(state, ref)


def expire(state: State, until: str) -> None:
    """What lasts `until` ends now: modifiers and control taken for a while;
    a thing whose modifier said so dies (`Mod.dies`)."""
    doomed = resources.expire(state, until)
    if doomed:
        die(state, doomed, None, cause="effect")
    for ref in [r for r, t in state.things.items() if t.returns_at == until]:
        t = state.things[ref]
        back, t.returns_to, t.returns_at = t.returns_to, "", ""
        if back != t.controller:
            log(state, f"{back} gets {t.card} back")
            change_control(state, ref, back)


# --- leaving play ------------------------------------------------------------------------------------


def _gone(state: State, ref: str) -> Thing:
    """Remove a thing from the things and the patrol zones (its item is the caller's)."""
    t = state.things.pop(ref)
    unpatrol(state, ref)
    return t


def _take_from_play(state: State, ref: str) -> tuple[Thing, Item]:
    t = state.things[ref]
    zone = ongoing if cards.CARDS[t.card].type == "spell" else play
    item = take_item(state, zone(t.controller), ref)
    assert item is not None
    return _gone(state, ref), item


def _leaves(state: State, ref: str, t: Thing, face: Face) -> list:
    return events.own(state, "leaves", ref, t.controller, face, {"subject": ref, "controller": t.controller})


def die(state: State, refs: list[str], chance: Chance | None, cause: str = "") -> bool:
    """Things that die (or are destroyed, or sacrificed) together: to the
    discard pile (tokens cease to exist, heroes go to the command zone),
    then the patrol-slot bonuses, a dead hero's levels for the other side,
    and their dies / leaves / kills / unit_dies triggers. The triggers are
    found while all of them are still in play, so that things dying
    together see each other die (a watcher of deaths that dies too, a
    killer killed back). Indestructible ones are exhausted and lose their
    damage and attachments instead. Returns whether anything changed."""
    changed = False
    dying: list[str] = []
    for ref in dict.fromkeys(refs):
        if ref not in state.things:
            continue
        t = state.things[ref]
        if _replaced(state, ref, cause, chance):
            changed = True
            continue
        if values.has(state, ref, "indestructible"):
            if t.damage or not t.exhausted or _attachments(state, ref):
                t.damage = 0
                exhaust(state, ref)
                for a in _attachments(state, ref):
                    sacrifice_card(state, a)
                changed = True
            continue
        dying.append(ref)
    if not dying:
        return changed
    triggers: list = []
    bonuses: list[tuple[str, str]] = []
    for ref in dying:
        t = state.things[ref]
        face = board.face(state, ref)
        slot = board.slot_of(state, ref)
        if slot in ("scavenger", "technician"):  # a lent patroller's goes to its lender (free-for-all)
            bonuses.append((t.returns_to if state.mode == ffa.FFA and t.returns_to else t.controller, slot))
        killer = state.things.get(t.hit_src) if t.damage and cause != "destroyed" else None
        if killer is not None and t.hit_src != ref:
            triggers += events.own(state, "kills", t.hit_src, killer.controller, board.face(state, t.hit_src),
                                   {"subject": t.hit_src, "victim": ref, "slot": slot or "", "player": t.controller})
        kind = cards.CARDS[t.card].type
        if kind in ("unit", "token") and (cause == "destroyed" or t.damage):
            ffa.killed(state, t.controller)
        ev = {"subject": ref, "controller": t.controller, "card": t.card}
        triggers += events.own(state, "dies", ref, t.controller, face, ev)
        triggers += _leaves(state, ref, t, face)
        if kind in ("unit", "token"):
            triggers += events.whenever(state, "unit_dies", ref, ev)
        elif kind == "hero":
            triggers += events.whenever(state, "hero_dies", ref, ev)
    dead_heroes: list[str] = []
    for ref in dying:
        kind = cards.CARDS[state.things[ref].card].type
        t, item = _take_from_play(state, ref)
        if kind == "hero":
            h = state.players[t.owner].heroes[t.card]
            h.home, h.ref = True, ""
            h.back = _after_next_turn(state, t.owner) + 2 * maps.has(state, "pinnacle")
            h.gone = maps.has(state, "burial-grounds")
            dead_heroes.append(t.controller)
            log(state, f"{t.card} dies and " + ("leaves the game (Burial Grounds)" if h.gone
                                                else f"returns to {t.owner}'s command zone"))
        elif kind == "token":
            log(state, f"a {t.card} token dies")
        else:
            to_discard(state, t.owner, item, t.card)
            log(state, f"{t.card} dies")
    for seat, slot in bonuses:
        if slot == "scavenger":
            gain_gold(state, seat, 1)
            log(state, f"{seat}'s scavenger finds 1 gold")
        elif chance is not None:
            got = draw(state, seat, 1, chance)
            log(state, f"{seat}'s technician draws {got} card")
    events.emit(state, triggers)
    for seat in dead_heroes:  # one opposing hero of all of them levels (rulebook)
        state.fresh.append(Pending(kind="step", key="hero_died", ev={"dead": seat}))
    return True


def _after_next_turn(state: State, seat: str) -> int:
    """The turn number after `seat`'s next turn (a dead hero comes back
    then), counting round the table in turn order."""
    order = turn_order(state)
    wait = (order.index(seat) - order.index(state.active)) % len(order) or len(order)
    return state.turn + wait + len(order)


def _replaced(state: State, ref: str, cause: str, chance: Chance | None) -> bool:
    """A ``replace: dies`` ability of the dying thing, or of something
    attached to it (``to: attached``), happens instead of the death (its
    ``if`` may ask ``{"cause": "combat"}``: killed by combat damage)."""
    t = state.things[ref]
    ev = {"subject": ref, "cause": cause or (t.hit_by if t.damage else "effect")}
    holders = [(ref, "self")] + [(a, "attached") for a in _attachments(state, ref)]
    for holder, to in holders:
        for ab in board.face(state, holder).replacements:
            if ab.replace != "dies" or ab.raw.get("to", "self") != to:
                continue
            ctrl = state.things[holder].controller
            if not select.holds(state, ctrl, holder, ab.cond, ev):
                continue
            log(state, f"{state.things[holder].card}: instead of dying")
            run = registry.get("runner", "effects")
            run(state, ctrl, holder, ab.do, chance, ev)
            return True
    return False


def _attachments(state: State, ref: str) -> list[str]:
    return [r for r, t in state.things.items() if t.attached == ref]


def sacrifice_card(state: State, ref: str) -> None:
    """An ongoing spell, upgrade or building card goes from play to its owner's discard pile."""
    t = state.things[ref]
    triggers = events.own(state, "dies", ref, t.controller, board.face(state, ref), {"subject": ref}) \
        + _leaves(state, ref, t, board.face(state, ref))
    t, item = _take_from_play(state, ref)
    to_discard(state, t.owner, item, t.card)
    log(state, f"{t.owner}'s {t.card} goes to the discard pile")
    events.emit(state, triggers)


def destroy(state: State, refs: list[str], chance: Chance | None) -> None:
    """Destroy things: units and heroes die; other cards go to the discard pile."""
    fighters = [r for r in refs if r in state.things and board.is_fighter(state, r)]
    die(state, fighters, chance, cause="destroyed")
    for r in refs:
        if r in state.things and not board.is_fighter(state, r):
            if not values.has(state, r, "indestructible"):
                sacrifice_card(state, r)


def leave_play(state: State, ref: str, to: str) -> None:
    """A thing goes back to its owner's hand (``hand``) or out of the game
    (``trash``); a token simply ceases to exist. No death."""
    triggers = _leaves(state, ref, state.things[ref], board.face(state, ref))
    t, item = _take_from_play(state, ref)
    if cards.CARDS[t.card].type == "hero":
        h = state.players[t.owner].heroes[t.card]
        h.home, h.ref = True, ""
    elif cards.CARDS[t.card].type != "token":
        if to == "hand":
            state.zones[hand(t.owner)].items.append(item)
            state.shown[ref] = t.card
        else:
            to_trash(state, t.owner, item, t.card)
    events.emit(state, triggers)


# --- state-based checks ------------------------------------------------------------------------------


def settle(state: State, chance: Chance | None) -> None:
    """State-based checks, repeated until nothing changes: deaths at 0 HP
    or lethal damage, destroyed buildings (2 damage to the base for a tech
    building or add-on), attachments without their host, channeling spells
    without their hero, cards whose `check` fails, fading at 0 time runes,
    the end of the game. Only cards that may be at lethal damage have their
    values computed (`values.lethal`)."""
    while state.phase != OVER:
        vals = values.lethal(state)
        dying = [r for r, v in vals.items() if board.is_fighter(state, r)]
        if dying and die(state, dying, chance):
            continue
        wrecked = [r for r in vals if board.kind_of(state, r) == "building"]
        if wrecked:
            destroy(state, wrecked, chance)
            continue
        changed = False
        for seat in state.seats:
            p = state.players[seat]
            for kind, b in list(p.buildings.items()):
                if b.done and b.damage >= board.building_hp(kind):
                    del p.buildings[kind]
                    board.damage_base(state, seat, 2)
                    log(state, f"{seat}'s {cards.BUILDINGS[kind]['name']} is destroyed (2 damage to the base)")
                    changed = True
        for ref in [r for r, t in state.things.items() if t.attached or cards.CARDS[t.card].checked]:
            if ref in state.things and _must_go(state, ref):
                if board.is_fighter(state, ref):
                    die(state, [ref], chance)
                else:
                    sacrifice_card(state, ref)
                changed = True
        if changed:
            continue
        dead = [s for s in state.seats if state.players[s].base_damage >= board.base_max(state)]
        if dead and state.mode == ffa.FFA:
            ffa.base_destroyed(state, dead)
        elif dead:
            state.phase = OVER
            winners = [s for s in state.seats if s not in dead]
            state.outcome = Outcome(winners=winners, reason="base destroyed: " + ", ".join(dead))
            log(state, f"{' and '.join(dead)}'s base is destroyed")
            state.queue, state.fresh, state.prompt = [], [], None
        break


def _must_go(state: State, ref: str) -> bool:
    t = state.things[ref]
    c = cards.CARDS[t.card]
    if t.attached and t.attached not in state.things:
        return True
    if c.channeling and c.spec and not any(cards.CARDS[state.things[h].card].spec == c.spec
                                            for h in board.heroes_in_play(state, t.controller)):
        return True
    for ab in board.face(state, ref).checks:
        if not registry.get("check", ab.check)(state, ref):
            return True
    return False


# --- readers, under the names the tests and bots have always used ----------------------

atk, hp, has, keywords, fatigued = values.atk, values.hp, values.has, values.keywords, values.fatigued
things_of, spells_of, controls, worker_count = board.things_of, board.spells_of, board.controls, board.worker_count
is_building, hero_in_play, slot_of, patrollers = board.is_building, board.hero_in_play, board.slot_of, board.patrollers
building_done = board.building_done
