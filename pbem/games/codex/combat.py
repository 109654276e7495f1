"""Attacks: who may attack what, and combat as damage packets.

Targets (rulebook, Attacking): an attacker must attack the opposing squad
leader if it can and may not ignore it; otherwise a patroller it can attack
if some patroller binds it; otherwise anything of the opponent's with HP
(units, heroes, buildings: structures and building cards; never upgrades or
ongoing spells). A patroller binds an attacker unless the attacker may
ignore it: unstoppable; stealth or invisible and not detected (a detector
of the defender's, or its tower's one detection a turn, first come);
flying over a ground patroller; unable to attack it (ground against
flying, an unattackable thing); anti-air may ignore patrolling fliers.
What may be attacked at all: not unattackable (nor ``cant: be_attacked``),
not invisible off patrol unless detected, not flying unless the attacker
flies or has anti-air, nothing an effect forbids the attacker to attack
(``cant_attack``).

Resolution: exhaust (not with readiness), obliterate (the defender's
lowest-tech units; the attacker picks among ties, ``doomed=``), the
attack triggers (its own with ``with=`` targets, then others'; if they
removed what it attacks, it may attack something else: ``then=``, or a
question), then the
combat step: damage in packets applied together, swift strikers first.
The attacker deals its ATK to the defender (sparkshot: as much to an
adjacent patroller; overpower: the excess past a patroller's remaining HP
and armor to one other thing it could attack), the defender its ATK back
(nothing from ground without anti-air to a flier, nothing to a long-range
attacker from a defender without long-range), every anti-air patroller
flown over its ATK, and the defender's tower 1 to an attacker it sees.
An attacker with ``excess_to_base`` sends what is beyond a unit's or
hero's remaining HP and armor to its controller's base, before overpower.
An attacker still in play after its combat has its ``survives_combat``
triggers.
"""

from __future__ import annotations

import msgspec

from pbem.errors import IllegalCommand
from pbem.games.base import Chance
from pbem.games.codex import board, cards, editions, engine, events, recall, registry, resolve, select, targets, values
from pbem.games.codex.board import log
from pbem.games.codex.state import Combat, Pending, State, opponents, team_of


def _has(state: State, ref: str, key: str) -> bool:
    return values.get(state, ref).kw.get(key, 0) > 0


def _sneaky(state: State, ref: str) -> bool:
    kw = values.get(state, ref).kw
    return kw.get("stealth", 0) > 0 or kw.get("invisible", 0) > 0


def _defender_detects(state: State, a: str, defender: str) -> bool:
    """The defender sees the sneaky attacker `a` (a detector, or its tower;
    under rules 5 its team's tower, `tower_of`)."""
    if targets.detects(state, defender, a):
        return True
    keeper = tower_of(state, defender)
    return keeper != defender and targets.tower_sees(state, keeper, a)


def attack_problem(state: State, a: str, x: str) -> str | None:
    """Why attacker `a` could not attack `x` at all, patrollers aside (None: it could)."""
    for ctrl, src, sel, card in values.get(state, a).cant_attack:
        if select.matches(state, ctrl, src, sel, x):
            return f"{card} forbids it"
    if board.is_structure(x):
        return None
    t = state.things.get(x)
    if t is None:
        return "that is not in play"
    kind = board.kind_of(state, x)
    if kind in ("upgrade", "spell"):
        return f"{t.card} cannot be attacked ({'upgrades' if kind == 'upgrade' else 'ongoing spells'} have no HP)"
    v = values.get(state, x)
    if v.has("unattackable") or "be_attacked" in v.cant:
        return f"{t.card} is unattackable"
    for ctrl, src, sel in v.unattackable_by:
        if select.matches(state, ctrl, src, sel, a):
            return f"{t.card} is unattackable by the likes of {state.things[a].card}"
    if kind != "building" and v.has("flying") and not (_has(state, a, "flying") or _has(state, a, "anti_air")):
        return f"{t.card} is flying and {state.things[a].card} has neither flying nor anti-air"
    if v.has("invisible") and not board.slot_of(state, x) and not targets.detects(state, state.things[a].controller, x):
        return f"{t.card} is invisible and you have no detector (a tower reveals one a turn)"
    return None


def can_attack(state: State, a: str, x: str) -> bool:
    return attack_problem(state, a, x) is None


def can_ignore(state: State, a: str, p: str, flying: bool | None = None) -> bool:
    if not can_attack(state, a, p):
        return True
    av = values.get(state, a)
    if av.has("unstoppable"):
        return True
    for ctrl, src, sel in av.unstoppable_by:
        if select.matches(state, ctrl, src, sel, p):
            return True
    if _sneaky(state, a) and not _defender_detects(state, a, state.things[p].controller):
        return True
    fly = _has(state, a, "flying") if flying is None else flying
    if fly and not _has(state, p, "flying"):
        return True
    if _has(state, a, "anti_air") and _has(state, p, "flying"):
        return True
    return False


def _binding(state: State, a: str, front: list[str], flying: bool | None = None) -> list[str]:
    """The patrollers of the seats `front` that `a` must attack before
    anything else of theirs."""
    return [p for s in front for p in board.patrollers(state, s) if not can_ignore(state, a, p, flying)]


def defender_of(state: State, x: str) -> str:
    """Whose thing or structure `x` is (the player an attack on it attacks)."""
    return board.controller(state, x)


def tower_of(state: State, defender: str) -> str:
    """The seat whose tower hits (and detects) an attacker of `defender`'s
    things: its own; under rules 5 (`editions`) its teammate's when that one
    has the team's tower (ruling on the Tower: "the player (or team in
    2v2)")."""
    if editions.current().team_tower:
        for s in [defender, *team_of(state, defender)]:
            if board.building_done(state, s, "tower"):
                return s
    return defender


def _fronts(state: State, seat: str) -> list[list[str]]:
    """The sides `seat`'s attackers face, each guarded by its own patrol
    zones: each opponent alone (a free-for-all), or the other team whole
    (Two-Headed Dragon: both patrol zones guard both players)."""
    out: list[list[str]] = []
    for opp in opponents(state, seat):
        if team_of(state, opp) not in out:
            out.append(team_of(state, opp))
    return out


def _squad_leaders(state: State, front: list[str]) -> list[str]:
    return [state.patrol[s][0] for s in front if state.patrol.get(s) and state.patrol[s][0]]


def targets_of(state: State, a: str, gone: str = "") -> list[str]:
    """What attacker `a` may attack now, on every side it faces (`gone`:
    leave that one out). Where a continuous effect depends on what is
    attacked ("unstoppable when attacking a building"), each target is
    judged as if it were attacked."""
    fronts = _fronts(state, state.things[a].controller)
    if not any(ab.attack_context for _, _, ab in values.statics(state)):
        return [x for front in fronts for x in _targets(state, a, front, gone)]
    out = []
    for front in fronts:
        for opp in front:
            for x in board.patrollers(state, opp) + board.things_of(state, opp) + board.structures(state, opp):
                if x == gone or x in out:
                    continue
                hypothetical = msgspec.structs.replace(state, combat=Combat(attacker=a, target=x))
                with recall.scope(hypothetical, values.statics(hypothetical)):  # only read: values kept
                    if x in _targets(hypothetical, a, front, gone):
                        out.append(x)
    return out


def _targets(state: State, a: str, front: list[str], gone: str) -> list[str]:
    pats = [p for s in front for p in board.patrollers(state, s) if p != gone]
    binding = [p for p in _binding(state, a, front) if p != gone]
    leaders = [sl for sl in _squad_leaders(state, front) if sl in binding]
    if leaders:  # two squad leaders: one it can attack must be (either one)
        return leaders
    if binding:
        return [p for p in pats if can_attack(state, a, p)]
    out = [x for s in front for x in board.things_of(state, s) if x != gone and can_attack(state, a, x)]
    return out + [x for s in front for x in board.structures(state, s) if can_attack(state, a, x)]


def refusal(state: State, a: str, x: str) -> str:
    """Why `a` may not attack `x` now, naming the rule."""
    name = state.things[a].card
    if board.is_structure(x) and x.split(":")[0] == state.things[a].controller or \
            x in state.things and state.things[x].controller == state.things[a].controller:
        return f"{name} cannot attack {board.name_of(state, x)}: it is yours"
    why = attack_problem(state, a, x)
    if why:
        return f"{name} cannot attack {board.name_of(state, x)}: {why}"
    front = team_of(state, defender_of(state, x))
    binding = _binding(state, a, front)
    leaders = [sl for sl in _squad_leaders(state, front) if sl in binding]
    if leaders and x not in leaders:
        return f"{name} must attack the squad leader {' or '.join(board.name_of(state, sl) for sl in leaders)} first"
    if binding:
        return f"{name} must attack a patroller first ({', '.join(board.name_of(state, p) for p in binding)})"
    return f"{name} cannot attack {board.name_of(state, x)}"


def flown_over(state: State, a: str, target: str, defender: str = "") -> list[str]:
    """Anti-air patrollers `a` flew over to reach `target` (`defender`:
    whose it was, for a target a swift strike already killed)."""
    if not _has(state, a, "flying"):
        return []
    front = team_of(state, defender or defender_of(state, target))
    ground = _binding(state, a, front, flying=False)
    leaders = _squad_leaders(state, front)
    if target in leaders:
        return []
    over = [sl for sl in leaders if sl in ground] if board.slot_of(state, target) else ground
    return [p for p in over if p != target and _has(state, p, "anti_air")]


def can_attack_now(state: State, a: str) -> str | None:
    """Why `a` cannot attack now (None: it can)."""
    t = state.things.get(a)
    if t is None or t.controller != state.active:
        return "you do not control that"
    if not board.is_fighter(state, a):
        return f"{t.card} cannot attack (only units and heroes attack)"
    if values.cant(state, a, "attack"):
        return f"{t.card} cannot attack"
    if t.exhausted:
        return f"{t.card} is exhausted"
    if values.fatigued(state, a):
        return f"{t.card} arrived this turn (arrival fatigue; no haste)"
    if t.attacked == state.turn and values.has(state, a, "readiness"):
        return f"{t.card} already attacked this turn (readiness: once a turn)"
    return None


def adjacent(state: State, target: str) -> list[str]:
    slot = board.slot_of(state, target)
    if not slot:
        return []
    slots = state.patrol[state.things[target].controller]
    i = cards.SLOTS.index(slot)
    return [slots[j] for j in (i - 1, i + 1) if 0 <= j < len(slots) and slots[j]]


def lowest_units(state: State, a: str, opp: str) -> tuple[list[str], list[str]]:
    """Obliterate: (the units of the defender `opp` it surely takes, the
    tied ones it picks from), skipping indestructible units (ruling)."""
    n = values.get(state, a).kw.get("obliterate", 0)
    if not n:
        return [], []
    units = [r for r in board.things_of(state, opp) if board.is_unit(state, r) and not _has(state, r, "indestructible")]
    units.sort(key=lambda r: board.tech_of(state, r))
    if len(units) <= n:
        return units, []
    edge = board.tech_of(state, units[n - 1])
    sure = [r for r in units if board.tech_of(state, r) < edge]
    tied = [r for r in units if board.tech_of(state, r) == edge]
    if len(sure) + len(tied) == n:
        return sure + tied, []
    return sure, tied


def obliterated(state: State, a: str, target: str, doomed: list[str]) -> list[str]:
    """The units obliterate destroys when `a` attacks `target`, with the
    attacker's pick among ties."""
    n = values.get(state, a).kw.get("obliterate", 0)
    sure, tied = lowest_units(state, a, defender_of(state, target))
    if not tied:
        if doomed and set(doomed) != set(sure):
            raise IllegalCommand("obliterate: there is no tie to choose from (doomed= only names tied units)")
        return sure
    need = n - len(sure)
    if doomed and set(doomed) <= set(sure) | set(tied):
        picked = [r for r in doomed if r in tied]
        if len(picked) == need and len(set(picked)) == need:
            return sure + picked
    names = ", ".join(board.name_of(state, r) for r in tied)
    raise IllegalCommand(f"obliterate: choose {need} of the tied lowest-tech units ({names}) with doomed=")


def _beyond(state: State, a: str, target: str) -> int:
    """The part of `a`'s combat damage beyond what kills `target` (its HP
    left and, unless `a` pierces armor, its armor left)."""
    need = max(0, values.hp(state, target) - state.things[target].damage)
    if not _has(state, a, "armor_piercing"):
        need += values.armor_left(state, target)
    return max(0, values.atk(state, a) - need)


def to_base(state: State, a: str, target: str) -> int:
    """``excess_to_base``: damage beyond what kills a unit or hero it
    fights goes to that player's base (before overpower, ruling on Stampede)."""
    if not _has(state, a, "excess_to_base") or not board.is_fighter(state, target):
        return 0
    return _beyond(state, a, target)


def excess(state: State, a: str, target: str) -> int:
    """Overpower: damage beyond the patroller's remaining HP and armor."""
    if not _has(state, a, "overpower") or board.is_structure(target) or not board.slot_of(state, target) \
            or to_base(state, a, target):
        return 0
    return _beyond(state, a, target)


def spill_targets(state: State, a: str, target: str) -> list[str]:
    if excess(state, a, target) <= 0:
        return []
    return targets_of(state, a, gone=target)


def check_spill(state: State, a: str, target: str, spark: str, over: str) -> None:
    sparks = adjacent(state, target) if _has(state, a, "sparkshot") else []
    if sparks and spark not in sparks:
        raise IllegalCommand("sparkshot: name the adjacent patroller it hits (spark=...)")
    if not sparks and spark:
        raise IllegalCommand("sparkshot: there is no adjacent patroller to hit")
    spill = spill_targets(state, a, target)
    if spill and over not in spill:
        raise IllegalCommand("overpower: name where the excess damage goes (over=...)")
    if not spill and over:
        raise IllegalCommand("overpower: there is no excess damage")


def _check_attack(state: State, a: str, target: str, extra: list[str], spark: str, over: str, then: str,
                  doomed: list[str]) -> list[str]:
    """Refuse an illegal attack (naming the rule); return what obliterate takes."""
    why = can_attack_now(state, a)
    if why:
        raise IllegalCommand(why)
    if target not in targets_of(state, a):
        raise IllegalCommand(refusal(state, a, target))
    own = [ab for ab in board.face(state, a).triggers.get("attacks", ())
           if select.holds(state, state.active, a, ab.cond, {"subject": a, "attacked": target})]
    targets.check_own(state, state.active, a, own, extra, state.players[state.active].gold)  # resist paid later
    doomed_now = obliterated(state, a, target, doomed)
    if then and target not in doomed_now:
        raise IllegalCommand("then= only when obliterate removed what was attacked")
    if target not in doomed_now:
        check_spill(state, a, target, spark, over)
    elif spark or over:  # the attack goes elsewhere: its spill is chosen then
        raise IllegalCommand("sparkshot and overpower are chosen when the attack goes elsewhere (obliterate took "
                             "what it attacks)")
    return doomed_now


def declare(state: State, a: str, target: str, extra: list[str], spark: str, over: str, then: str,
            doomed: list[str], chance: Chance | None, checked: bool = False) -> None:
    """Declare an attack (checked here, unless the caller `checked` it) and
    queue its triggers and combat."""
    if checked:
        doomed_now = obliterated(state, a, target, doomed)
    else:
        with values.frozen(state):
            doomed_now = _check_attack(state, a, target, extra, spark, over, then, doomed)
    seat = state.active
    t = state.things[a]
    defender = defender_of(state, target)
    keeper = tower_of(state, defender)
    if _sneaky(state, a) and not state.detected.get(keeper) and board.building_done(state, keeper, "tower"):
        state.detected[keeper] = a
    if _has(state, a, "invisible") or not board.is_structure(target):
        targets.use_tower(state, seat, target)
    if not _has(state, a, "readiness"):
        engine.exhaust(state, a)
    t.attacked = state.turn
    engine.unpatrol(state, a)
    log(state, f"{t.card} attacks {board.name_of(state, target)}")
    state.combat = Combat(attacker=a, target=target, spark=spark, over=over, then=then)
    if doomed_now:
        log(state, "obliterate: " + ", ".join(state.things[r].card for r in doomed_now))
        engine.die(state, doomed_now, chance)
    ev = {"subject": a, "attacked": target, "defender": defender}
    mine = events.own(state, "attacks", a, seat, board.face(state, a), ev)
    events.distribute(mine, extra)
    events.emit(state, mine + events.whenever(state, "other_attacks", a, ev))
    state.fresh.append(Pending(kind="step", key="combat", src=a))


@registry.register("step", "combat")
def combat_step(state: State, item: Pending, chance: Chance | None) -> None:
    c = state.combat
    if c is None or c.attacker not in state.things or state.outcome is not None:
        state.combat = None
        return
    a, target = c.attacker, c.target
    gone = not board.is_structure(target) and target not in state.things or \
        board.is_structure(target) and target not in board.structures(state, board.controller(state, target))
    if gone:
        # what it attacked is gone before the combat (obliterate, an attack
        # trigger killed it): the attacker may attack something else
        # (rulebook, obliterate; Cinderblast Dragon ruling): the command's
        # then=, or asked now (`state.combat` stays for the retry); its
        # sparkshot and overpower are asked too
        name = state.things[a].card
        if c.then and not item.given:
            item.given.append(c.then)
        target = resolve.ask(state, item, 0, "target", f"what {name} attacks instead (its target is gone)",
                             targets_of(state, a) + [""])
        if not target:
            state.combat = None
            return
        sparks = adjacent(state, target) if _has(state, a, "sparkshot") else []
        c.spark = resolve.ask(state, item, 1, "target", f"{name}'s sparkshot: an adjacent patroller", sparks) \
            if sparks else ""
        spill = spill_targets(state, a, target)
        c.over = resolve.ask(state, item, 1 + bool(sparks), "target", f"{name}'s overpower: where the excess goes", spill) \
            if spill else ""
    elif c.then:
        raise IllegalCommand("then= only when obliterate removed what was attacked")
    c.target = target
    try:
        _damage(state, a, target, c.spark, c.over, chance)
    finally:
        state.combat = None
    t = state.things.get(a)
    if t is not None and state.outcome is None:
        events.emit(state, events.own(state, "survives_combat", a, t.controller, board.face(state, a),
                                      {"subject": a, "attacked": target, "defender": board.controller(state, target)
                                       if board.is_structure(target) or target in state.things else ""}))


def _damage(state: State, a: str, target: str, spark: str, over: str, chance: Chance | None) -> None:
    defender = defender_of(state, target)  # read before a swift strike may kill it
    for swift in (True, False):
        with values.frozen(state):
            packets = _packets(state, a, target, defender, spark, over, swift)
        dealt = 0
        for where, n, src in packets:
            got = engine.damage(state, where, n, src=src, combat=True)
            dealt += got if src == a else 0
        if dealt > 0:  # one event a strike, sparkshot and overpower included (ruling on Might of Leaf and Claw)
            seat = state.things[a].controller if a in state.things else state.active
            events.emit(state, events.whenever(state, "combat_damage", a, {"subject": a, "controller": seat}))
        engine.settle(state, chance)
        if state.outcome is not None:
            return


def _packets(state: State, a: str, target: str, defender: str, spark: str, over: str,
             swift: bool) -> list[tuple[str, int, str]]:
    """The combat damage dealt in one strike (swift strikers, or the rest)."""
    if a not in state.things:
        return []  # a swift striker already killed the attacker
    sources: list[tuple[str, bool]] = [(a, _has(state, a, "swift_strike"))]
    if not board.is_structure(target) and board.is_fighter(state, target):
        sources.append((target, _has(state, target, "swift_strike")))
    for p in flown_over(state, a, target, defender):
        sources.append((p, _has(state, p, "swift_strike")))
    keeper = tower_of(state, defender)
    tower = board.building_done(state, keeper, "tower") and (
        not _sneaky(state, a) or state.detected.get(keeper) == a)
    packets: list[tuple[str, int, str]] = []
    for src, fast in sources:
        if fast != swift or src not in state.things:
            continue
        if src == a:
            if target not in state.things and not board.is_structure(target):
                continue
            n = values.atk(state, a)
            spill = excess(state, a, target)
            trample = to_base(state, a, target)
            packets.append((target, n - spill - trample, a))
            if spill and over:
                packets.append((over, spill, a))
            if trample:
                packets.append((f"{board.controller(state, target)}:base", trample, a))
            if spark:
                packets.append((spark, values.get(state, a).kw.get("sparkshot", 0), a))
            if tower:
                packets.append((a, 1, ""))
        elif src == target:
            if _has(state, a, "flying") and not (_has(state, src, "flying") or _has(state, src, "anti_air")):
                continue
            if _has(state, a, "long_range") and not _has(state, src, "long_range"):
                continue
            packets.append((a, values.atk(state, src), src))
        else:
            packets.append((a, values.atk(state, src), src))
    return packets
