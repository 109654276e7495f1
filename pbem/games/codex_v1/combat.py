"""Attacks: who may attack what, and combat as damage packets.

Targets (rulebook, Attacking): an attacker must attack the opposing squad
leader if it can and may not ignore it; otherwise a patroller it can attack
if some patroller binds it; otherwise anything of the opponent's with HP.
A patroller binds an attacker unless the attacker can ignore it:
unstoppable; stealth or invisible and not detected by the defender's tower
(one detection a turn, the first such attacker); flying over a ground
patroller; unable to attack it (ground against flying); anti-air may
ignore patrolling fliers.

Resolution: exhaust (not with readiness), then the attack triggers
(obliterate, the card's own, Troq's band), then combat damage in packets
applied together: swift strikers first, then the rest. The attacker deals
its ATK to the defender (sparkshot: 1 more to an adjacent patroller;
overpower: the excess past a patroller's remaining HP and armor to one other
thing it could attack), the defender its ATK back (nothing from ground
without anti-air to a flier), every anti-air patroller flown over its ATK,
and the defender's tower 1 to an attacker it sees.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand
from pbem.games.base import Chance
from pbem.games.codex_v1 import abilities, cards, engine
from pbem.games.codex_v1.engine import log
from pbem.games.codex_v1.state import State, other


def _flying(state: State, ref: str) -> bool:
    return engine.has(state, ref, "flying")


def _sneaky(state: State, ref: str) -> bool:
    return engine.has(state, ref, "stealth") or engine.has(state, ref, "invisible")


def can_attack(state: State, a: str, x: str) -> bool:
    """Could attacker `a` attack `x` (a thing or a building id) at all?"""
    if engine.is_building(x):
        return True
    if x not in state.things:
        return False
    if _flying(state, x) and not (_flying(state, a) or engine.has(state, a, "anti_air")):
        return False
    if engine.has(state, x, "invisible") and not engine.slot_of(state, x):
        return abilities.tower_sees(state, state.things[a].controller, x)
    return True


def detected(state: State, a: str) -> bool:
    """The defender's tower sees the sneaky attacker `a`."""
    defender = other(state, state.things[a].controller)
    return abilities.tower_sees(state, defender, a)


def can_ignore(state: State, a: str, p: str, flying: bool | None = None) -> bool:
    if not can_attack(state, a, p):
        return True
    if engine.has(state, a, "unstoppable"):
        return True
    if _sneaky(state, a) and not detected(state, a):
        return True
    fly = _flying(state, a) if flying is None else flying
    if fly and not _flying(state, p):
        return True
    if engine.has(state, a, "anti_air") and _flying(state, p):
        return True
    return False


def _binding(state: State, a: str, flying: bool | None = None) -> list[str]:
    opp = other(state, state.things[a].controller)
    return [p for p in engine.patrollers(state, opp) if not can_ignore(state, a, p, flying)]


def targets(state: State, a: str, gone: str = "") -> list[str]:
    """What attacker `a` may attack now (`gone`: leave that one out)."""
    opp = other(state, state.things[a].controller)
    pats = [p for p in engine.patrollers(state, opp) if p != gone]
    binding = [p for p in _binding(state, a) if p != gone]
    sl = state.patrol.get(opp, [""])[0]
    if sl and sl in binding:
        return [sl]
    if binding:
        return [p for p in pats if can_attack(state, a, p)]
    out = [x for x in engine.things_of(state, opp) if x != gone and can_attack(state, a, x)]
    return out + engine.buildings_in_play(state, opp)


def flown_over(state: State, a: str, target: str) -> list[str]:
    """Anti-air patrollers `a` flew over to reach `target`."""
    if not _flying(state, a):
        return []
    ground = _binding(state, a, flying=False)
    opp = other(state, state.things[a].controller)
    sl = state.patrol.get(opp, [""])[0]
    if target == sl:
        return []
    if engine.slot_of(state, target):
        over = [sl] if sl in ground else []
    else:
        over = ground
    return [p for p in over if p != target and engine.has(state, p, "anti_air")]


def can_attack_now(state: State, a: str) -> str | None:
    """Why `a` cannot attack now (None: it can)."""
    t = state.things.get(a)
    if t is None or t.controller != state.active:
        return "you do not control that"
    if t.exhausted:
        return f"{t.card} is exhausted"
    if engine.fatigued(state, a):
        return f"{t.card} arrived this turn (arrival fatigue; no haste)"
    if t.attacked == state.turn:
        return f"{t.card} already attacked this turn"
    return None


def adjacent(state: State, target: str) -> list[str]:
    slot = engine.slot_of(state, target)
    if not slot:
        return []
    slots = state.patrol[state.things[target].controller]
    i = cards.SLOTS.index(slot)
    return [slots[j] for j in (i - 1, i + 1) if 0 <= j < len(slots) and slots[j]]


def obliterated(state: State, a: str) -> list[str]:
    """The defender's lowest-tech units obliterate takes (lowest refs on ties)."""
    n = engine.keywords(state, a).get("obliterate", 0)
    if not n:
        return []
    opp = other(state, state.things[a].controller)
    units = [r for r in engine.things_of(state, opp) if engine.is_unit(state, r)]
    units.sort(key=lambda r: engine.tech_of(state, r))
    return units[:n]


def excess(state: State, a: str, target: str) -> int:
    """Overpower: damage beyond the patroller's remaining HP (and armor)."""
    if not engine.has(state, a, "overpower") or engine.is_building(target) or not engine.slot_of(state, target):
        return 0
    t = state.things[target]
    armor = 1 if engine.slot_of(state, target) == "squad-leader" and t.armor_used != state.turn else 0
    need = max(0, engine.hp(state, target) - t.damage) + armor
    return max(0, engine.atk(state, a) - need)


def attack(state: State, a: str, target: str, extra: list[str], spark: str, over: str, then: str,
           chance: Chance) -> None:
    """Resolve one attack (legality of `a` and `target` checked here)."""
    why = can_attack_now(state, a)
    if why:
        raise IllegalCommand(why)
    legal = targets(state, a)
    if target not in legal:
        raise IllegalCommand(f"{state.things[a].card} cannot attack {abilities.name_of(state, target)} "
                             "(squad leader first, then patrollers)")
    seat = state.active
    parts = abilities.attack_parts(state, a)
    resist = abilities.check_targets(state, seat, parts, extra, state.players[seat].gold)
    _check_spill(state, a, target, spark, over)
    state.players[seat].gold -= resist
    t = state.things[a]
    defender = other(state, seat)
    if _sneaky(state, a) and not state.detected.get(defender) and engine.building_done(state, defender, "tower"):
        state.detected[defender] = a
    if engine.has(state, a, "invisible") or not engine.is_building(target):
        abilities.use_tower(state, seat, target)
    if not engine.has(state, a, "readiness"):
        t.exhausted = True
    t.attacked = state.turn
    engine.unpatrol(state, a)
    log(state, f"{t.card} attacks {abilities.name_of(state, target)}")
    # attack triggers
    doomed = obliterated(state, a)
    if doomed:
        log(state, "obliterate: " + ", ".join(state.things[r].card for r in doomed))
        engine.die(state, doomed, chance)
        engine.settle(state, chance)
    if parts and a in state.things:
        abilities.resolve_trigger(state, seat, a, extra, chance)
        engine.settle(state, chance)
    if a in state.things and t.card == "Troq Bashar" and engine.band(state, a) >= 1:
        engine.damage(state, f"{defender}:base", 1)
        engine.settle(state, chance)
    if state.outcome is not None or a not in state.things:
        return
    if not engine.is_building(target) and target not in state.things:
        if not then:
            return
        if then not in targets(state, a):
            raise IllegalCommand(f"{abilities.name_of(state, then)} cannot be attacked instead")
        target = then
        _check_spill(state, a, target, spark, over)
    elif then:
        raise IllegalCommand("then= only when obliterate removed what was attacked")
    combat(state, a, target, spark, over, chance)


def _check_spill(state: State, a: str, target: str, spark: str, over: str) -> None:
    sparks = adjacent(state, target) if engine.has(state, a, "sparkshot") else []
    if sparks and spark not in sparks:
        raise IllegalCommand("sparkshot: name the adjacent patroller (spark=...)")
    if not sparks and spark:
        raise IllegalCommand("there is no adjacent patroller for sparkshot")
    spill = spill_targets(state, a, target)
    if spill and over not in spill:
        raise IllegalCommand("overpower: name where the excess goes (over=...)")
    if not spill and over:
        raise IllegalCommand("there is no excess damage for overpower")


def spill_targets(state: State, a: str, target: str) -> list[str]:
    if excess(state, a, target) <= 0:
        return []
    return targets(state, a, gone=target)


def combat(state: State, a: str, target: str, spark: str, over: str, chance: Chance) -> None:
    seat = state.things[a].controller
    defender = other(state, seat)
    sources: list[tuple[str, bool]] = [(a, engine.has(state, a, "swift_strike"))]
    if not engine.is_building(target):
        sources.append((target, engine.has(state, target, "swift_strike")))
    for p in flown_over(state, a, target):
        sources.append((p, engine.has(state, p, "swift_strike")))
    tower = engine.building_done(state, defender, "tower") and (
        not _sneaky(state, a) or state.detected.get(defender) == a)
    for swift in (True, False):
        packets: list[tuple[str, int]] = []
        for src, fast in sources:
            if fast != swift or src not in state.things:
                continue
            if src != a and a not in state.things:
                continue  # a swift striker already killed the attacker
            if src == a:
                if target not in state.things and not engine.is_building(target):
                    continue
                n = engine.atk(state, a)
                spill = excess(state, a, target)
                packets.append((target, n - spill))
                if spill and over:
                    packets.append((over, spill))
                if spark:
                    packets.append((spark, 1))
                if tower:
                    packets.append((a, 1))
            elif src == target:
                if _flying(state, a) and not (_flying(state, src) or engine.has(state, src, "anti_air")):
                    continue
                packets.append((a, engine.atk(state, src)))
            else:
                packets.append((a, engine.atk(state, src)))
        for where, n in packets:
            engine.damage(state, where, n)
        engine.settle(state, chance)
        if state.outcome is not None:
            return
