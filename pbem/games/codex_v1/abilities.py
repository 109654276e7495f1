"""Card abilities: what each hook targets and what it does.

A targeting effect is a list of `Part`s, resolved in order; the command
names one target per part (``""`` only when the part has no legal target:
do as much as you can). Legality, shared by every part (`check_targets`):
an opponent's thing needs to be targetable (invisible ones are not, unless
the seat's tower revealed it this turn) and its resist paid in gold; the
flagbearer rule (an opponent's flagbearer that a part could target must be
targeted, once per effect); parts marked `distinct` need another target
than the earlier ones. Hooks mutate a copied state; `engine.settle` runs
after each.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import NamedTuple

from pbem.errors import IllegalCommand
from pbem.games.base import Chance
from pbem.games.codex_v1 import cards, engine
from pbem.games.codex_v1.engine import log
from pbem.games.codex_v1.state import Ongoing, State, other

Pick = Callable[[State, str], list[str]]


class Part(NamedTuple):
    what: str
    pick: Pick
    distinct: bool = False
    unordered: bool = False
    #: enumeration only: candidates worth listing in `legal`
    prune: Callable[[State, list[str]], list[str]] | None = None


# --- candidate sets ------------------------------------------------------------------


def _all_things(state: State) -> list[str]:
    return [r for s in state.seats for r in engine.things_of(state, s)]


def _units(state: State, seat: str) -> list[str]:
    return [r for r in _all_things(state) if engine.is_unit(state, r)]


def _units_or_heroes(state: State, seat: str) -> list[str]:
    return _all_things(state)


def _patrollers(state: State, seat: str) -> list[str]:
    return [r for s in state.seats for r in engine.patrollers(state, s)]


def _buildings(state: State, seat: str) -> list[str]:
    return [b for s in state.seats for b in engine.buildings_in_play(state, s)]


def _tech(levels: tuple[int, ...]) -> Pick:
    return lambda st, seat: [r for r in _units(st, seat) if engine.tech_of(st, r) in levels]


def _own_no_plus(state: State, seat: str) -> list[str]:
    return [r for r in engine.things_of(state, seat) if state.things[r].runes <= 0]


def _own_unpartnered(state: State, seat: str) -> list[str]:
    taken = {p for sp in state.spells.values() for p in sp.partners}
    return [r for r in engine.things_of(state, seat) if engine.is_unit(state, r) and r not in taken]


def _low_patrollers(state: State, seat: str) -> list[str]:
    return [r for r in _patrollers(state, seat) if engine.is_unit(state, r) and engine.tech_of(state, r) <= 1]


def _damaged_first(state: State, cands: list[str]) -> list[str]:
    """Repair: every damaged building, plus one undamaged one (a no-op)."""
    out, spare = [], []
    for b in cands:
        seat, kind = b.split(":")
        p = state.players[seat]
        hurt = p.base_damage if kind == "base" else p.buildings[kind].damage
        (out if hurt else spare).append(b)
    return out + spare[:1]


SPELLS: dict[str, list[Part]] = {
    "spark": [Part("a patroller", _patrollers)],
    "bloom": [Part("one of your units or heroes without a +1/+1 rune", _own_no_plus)],
    "wither": [Part("a unit or hero", _units_or_heroes)],
    "wrecking_ball": [Part("a building", _buildings)],
    "the_boot": [Part("a tech 0 or tech I unit", _tech((0, 1)))],
    "intimidate": [Part("a unit or hero", _units_or_heroes)],
    "final_smash": [Part("a tech 0 unit to destroy", _tech((0,))),
                    Part("a tech I unit to return to its owner's hand", _tech((1,))),
                    Part("a tech II unit to take", _tech((2,)))],
    "discord": [],
    "harmony": [],
    "two_step": [Part("one of your unpartnered units", _own_unpartnered),
                 Part("another of your unpartnered units", _own_unpartnered, distinct=True, unordered=True)],
    "appel_stomp": [Part("a patroller", _patrollers)],
}

#: arrives / attacks triggers that target
TRIGGERS: dict[str, list[Part]] = {
    "brick_thief": [Part("a building to damage", _buildings),
                    Part("another building to repair", _buildings, distinct=True, prune=_damaged_first)],
    "trojan_duck": [Part("a building", _buildings)],
    "hired_stomper": [Part("a unit", _units)],
}
ATTACK_TRIGGERS = ("brick_thief", "trojan_duck")

#: activated abilities: name -> (parts, needs exhausting)
ACTIVATED: dict[str, tuple[list[Part], bool]] = {
    "sideline": ([Part("a tech 0 or tech I patroller", _low_patrollers)], True),
    "wreck": ([Part("a building", _buildings)], True),
    "stop-the-music": ([], False),
}


def hook(name: str) -> str:
    return cards.CARDS.get(name, {}).get("hook", "")


def spell_parts(name: str) -> list[Part]:
    return SPELLS[hook(name)]


def arrive_parts(name: str) -> list[Part]:
    return TRIGGERS.get(hook(name), [])


def attack_parts(state: State, ref: str) -> list[Part]:
    h = hook(state.things[ref].card)
    return TRIGGERS[h] if h in ATTACK_TRIGGERS else []


def abilities_of(state: State, ref: str) -> list[str]:
    """Activated abilities the thing `ref` has now."""
    t = state.things[ref]
    out = []
    if t.card == "River Montoya" and engine.band(state, ref) >= 1:
        out.append("sideline")
    if "Virtuoso" in engine.subtypes(state, ref) and engine.controls(state, t.controller, "Maestro"):
        out.append("wreck")
    return out


# --- targeting legality ----------------------------------------------------------------


def targetable(state: State, seat: str, target: str) -> int | None:
    """The resist `seat` pays to target `target`, or None if it cannot."""
    if engine.is_building(target):
        return 0
    t = state.things.get(target)
    if t is None:
        return None
    if t.controller == seat:
        return 0
    kw = engine.keywords(state, target)
    if kw.get("invisible") and not tower_sees(state, seat, target):
        return None
    return kw.get("resist", 0)


def tower_sees(state: State, seat: str, ref: str) -> bool:
    """`seat`'s tower detects one stealthy or invisible thing a turn."""
    if not engine.building_done(state, seat, "tower"):
        return False
    return state.detected.get(seat, "") in ("", ref)


def use_tower(state: State, seat: str, ref: str) -> None:
    t = state.things.get(ref)
    if t is None or t.controller == seat:
        return
    kw = engine.keywords(state, ref)
    if (kw.get("invisible") or kw.get("stealth")) and engine.building_done(state, seat, "tower"):
        state.detected[seat] = ref


def _flagbearer(state: State, seat: str, ref: str) -> bool:
    t = state.things.get(ref)
    return t is not None and t.controller != seat and engine.has(state, ref, "flagbearer")


def candidates(state: State, seat: str, part: Part) -> list[str]:
    return [c for c in part.pick(state, seat) if targetable(state, seat, c) is not None]


def check_targets(state: State, seat: str, parts: list[Part], targets: list[str], gold: int) -> int:
    """Raise `IllegalCommand` unless `targets` are legal; return the resist to pay."""
    if len(targets) != len(parts):
        want = "; ".join(p.what for p in parts) or "no target"
        raise IllegalCommand(f"this needs {len(parts)} target(s) ({want}), got {len(targets)}")
    flag_done = False
    resist = 0
    chosen: list[str] = []
    for part, target in zip(parts, targets):
        cands = candidates(state, seat, part)
        if part.distinct:
            cands = [c for c in cands if c not in chosen]
        if not target:
            if cands:
                raise IllegalCommand(f"choose {part.what}: there is a legal target")
            chosen.append("")
            continue
        if target not in cands:
            raise IllegalCommand(f"{name_of(state, target)} is not {part.what} you can target")
        # a flagbearer whose resist cannot be paid cannot be targeted: skipped
        flags = [c for c in cands if _flagbearer(state, seat, c)
                 and resist + (targetable(state, seat, c) or 0) <= gold]
        if flags and not flag_done and target not in flags:
            raise IllegalCommand(f"a flagbearer must be targeted: {name_of(state, flags[0])}")
        if target in flags:
            flag_done = True
        resist += targetable(state, seat, target) or 0
        chosen.append(target)
    if resist > gold:
        raise IllegalCommand(f"targeting needs {resist} gold for resist, you have {gold}")
    return resist


def target_options(state: State, seat: str, parts: list[Part], gold: int) -> list[list[str]]:
    """Target lists `legal` offers (each passes `check_targets`)."""
    pools = []
    for part in parts:
        cands = candidates(state, seat, part)
        if part.prune:
            cands = part.prune(state, cands)
        pools.append(cands or [""])
    out: list[list[str]] = []
    seen = set()
    for combo in itertools.product(*pools):
        combo = list(combo)
        if any(p.unordered for p in parts):
            key = tuple(sorted(combo))
            if key in seen:
                continue
            seen.add(key)
        try:
            check_targets(state, seat, parts, combo, gold)
        except IllegalCommand:
            continue
        out.append(combo)
    return out


def name_of(state: State, target: str) -> str:
    if engine.is_building(target):
        seat, kind = target.split(":")
        return f"{seat}'s " + ("base" if kind == "base" else cards.BUILDINGS[kind]["name"])
    t = state.things.get(target)
    return t.card if t else target


# --- resolution ----------------------------------------------------------------------------


def sideline(state: State, ref: str) -> None:
    if ref and engine.slot_of(state, ref):
        engine.unpatrol(state, ref)
        log(state, f"{state.things[ref].card} is sidelined")


def resolve_spell(state: State, seat: str, ref: str, name: str, targets: list[str], top: bool,
                  chance: Chance) -> None:
    """A spell's effect; the card itself is moved by the caller (or kept in play)."""
    h = hook(name)
    t = targets
    if h == "spark" and t[0]:
        engine.damage(state, t[0], 1)
    elif h == "bloom" and t[0]:
        state.things[t[0]].runes += 1
    elif h == "wither" and t[0]:
        state.things[t[0]].runes -= 1
    elif h == "wrecking_ball" and t[0]:
        engine.damage(state, t[0], 2)
    elif h == "the_boot" and t[0]:
        engine.die(state, [t[0]], chance)
    elif h == "intimidate" and t[0]:
        state.things[t[0]].temp_atk -= 4
    elif h == "final_smash":
        if t[0]:
            engine.die(state, [t[0]], chance)
            engine.settle(state, chance)
        if t[1] and t[1] in state.things:
            log(state, f"{state.things[t[1]].card} returns to {state.things[t[1]].owner}'s hand")
            engine.leave_play(state, t[1], "hand")
            engine.settle(state, chance)
        if t[2] and t[2] in state.things:
            engine.change_control(state, t[2], seat)
            log(state, f"{seat} takes control of {state.things[t[2]].card}")
    elif h == "discord":
        for r in engine.things_of(state, other(state, seat)):
            if engine.is_unit(state, r) and engine.tech_of(state, r) <= 1:
                state.things[r].temp_atk -= 2
                state.things[r].temp_hp -= 1
    elif h in ("harmony", "two_step"):
        caster = engine.hero_in_play(state, seat) or ""
        state.spells[ref] = Ongoing(card=name, owner=seat, caster=caster,
                                    partners=list(t) if h == "two_step" and all(t) else [])
    elif h == "appel_stomp":
        if t[0]:
            sideline(state, t[0])
        engine.draw(state, seat, 1, chance)


def after_spell(state: State, seat: str, ref: str) -> None:
    """Harmony: a Dancer after each later spell (at most 3 Dancers)."""
    for sref, sp in list(state.spells.items()):
        if sp.card != "Harmony" or sp.owner != seat or sref == ref:
            continue
        dancers = [r for r in engine.things_of(state, seat)
                   if state.things[r].card in ("Dancer", "Angry Dancer")]
        if len(dancers) < 3:
            engine.make_token(state, seat, "Dancer")
            log(state, f"Harmony: a Dancer token arrives for {seat}")


def resolve_trigger(state: State, seat: str, ref: str, targets: list[str], chance: Chance) -> None:
    """An arrives / attacks trigger of `ref` with its targets."""
    h = hook(state.things[ref].card) if ref in state.things else ""
    if h == "brick_thief":
        if targets[0]:
            engine.damage(state, targets[0], 1)
        if targets[1]:
            engine.repair(state, targets[1], 1)
    elif h == "trojan_duck" and targets[0]:
        engine.damage(state, targets[0], 4)
    elif h == "hired_stomper" and targets[0]:
        engine.damage(state, targets[0], 3)


def arrive(state: State, seat: str, ref: str) -> None:
    """Arrival effects that need no target."""
    if hook(state.things[ref].card) == "sneaky_pig":
        state.things[ref].temp_kw.append("stealth")


def activate(state: State, seat: str, ref: str, ability: str, targets: list[str], chance: Chance) -> None:
    if ability == "sideline" and targets[0]:
        sideline(state, targets[0])
    elif ability == "wreck" and targets[0]:
        engine.damage(state, targets[0], 2)
    elif ability == "stop-the-music":
        engine.sacrifice_spell(state, ref)
        for r in engine.things_of(state, seat):
            if state.things[r].card == "Dancer":
                engine.flip_token(state, r, "Angry Dancer")
        log(state, f"{seat} stops the music: the Dancers turn angry")


def upkeep_triggers(state: State, seat: str) -> list[tuple[str, str]]:
    """(ref, kind) of the upkeep triggers of `seat`, default order."""
    out = []
    for r in engine.things_of(state, seat):
        if engine.has(state, r, "healing"):
            out.append((r, "healing"))
        if state.things[r].card == "Star-Crossed Starlet":
            out.append((r, "starlet"))
    if engine.building_done(state, seat, "surplus"):
        out.append((f"{seat}:surplus", "surplus"))
    return out


def resolve_upkeep(state: State, seat: str, ref: str, kind: str, chance: Chance) -> None:
    if kind == "healing":
        if ref not in state.things:
            return
        n = engine.keywords(state, ref).get("healing", 0)
        for r in engine.things_of(state, seat):
            engine.heal(state, r, n)
    elif kind == "starlet" and ref in state.things:
        engine.damage(state, ref, 1)
    elif kind == "surplus":
        engine.draw(state, seat, 1, chance)
