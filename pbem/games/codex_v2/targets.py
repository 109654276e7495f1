"""Targeting: what a spell or ability may target, and what it costs.

A targeting effect is a list of `Part`s, resolved in order; a command
names one target per part (``""``: none, only where the part has no legal
target or is optional). Rules shared by every part:

* untargetable things (the keyword, or ``cant: be_targeted``) cannot be
  targeted by anyone; an opponent's invisible thing only by a seat that
  detects it (a detector of its own, or its tower's one reveal a turn);
* an opponent's resist is paid in gold for each part that targets it;
* the flagbearer rule: a part that could target an opponent's flagbearer
  (one whose resist can still be paid) must target one, unless an earlier
  part of the same effect already did (rulings on Final Smash and Ember
  Sparks);
* parts marked ``distinct`` need another target than the earlier ones.

`why_not` says in words why a target is refused (the rule that forbids it).
"""

from __future__ import annotations

import itertools

from pbem.errors import IllegalCommand
from pbem.games.codex_v2 import board, registry, select, values
from pbem.games.codex_v2.cards import Ability, Part
from pbem.games.codex_v2.state import State


def detects(state: State, seat: str, ref: str) -> bool:
    """Whether `seat` sees `ref` through stealth and invisibility: a
    detector of its own, or its tower's reveal (once a turn, first come)."""
    for r in board.things_of(state, seat):
        if values.has(state, r, "detector"):
            return True
    return tower_sees(state, seat, ref)


def tower_sees(state: State, seat: str, ref: str) -> bool:
    if not board.building_done(state, seat, "tower"):
        return False
    return state.detected.get(seat, "") in ("", ref)


def use_tower(state: State, seat: str, ref: str) -> None:
    """`seat`'s tower spends its reveal on `ref` (an opposing stealthy or invisible thing)."""
    t = state.things.get(ref)
    if t is None or t.controller == seat or state.detected.get(seat):
        return
    if (values.has(state, ref, "invisible") or values.has(state, ref, "stealth")) \
            and board.building_done(state, seat, "tower"):
        state.detected[seat] = ref


def untargetable_reason(state: State, seat: str, target: str) -> str | None:
    """Why `seat` may not target `target` at all (None: it may)."""
    if board.is_structure(target):
        return None
    t = state.things.get(target)
    if t is None:
        return "that is not in play"
    v = values.get(state, target)
    if v.has("untargetable") or "be_targeted" in v.cant:
        return f"{t.card} is untargetable"
    if t.controller != seat and v.has("invisible") and not detects(state, seat, target):
        return f"{t.card} is invisible and you have no detector (a tower reveals one a turn)"
    return None


def resist(state: State, seat: str, target: str) -> int:
    if board.is_structure(target):
        return 0
    t = state.things[target]
    return 0 if t.controller == seat else values.get(state, target).kw.get("resist", 0)


def candidates(state: State, seat: str, src: str, part: Part) -> list[str]:
    cache = values.memo(state)
    key = ("targets", id(part), seat, src)
    if cache is not None and key in cache:
        return cache[key]
    out = select.candidates(state, seat, src, part.pick)
    if part.aim:
        out = [c for c in out if untargetable_reason(state, seat, c) is None]
    if cache is not None:
        cache[key] = out
    return out


def why_not(state: State, seat: str, src: str, part: Part, target: str) -> str:
    """The rule that keeps `target` out of `part`'s candidates."""
    if not board.is_structure(target) and target not in state.things:
        return "that is not in play"
    if not select.matches(state, seat, src, part.pick, target):
        return f"{board.name_of(state, target)} is not {part.what}"
    if not part.aim:
        return f"{board.name_of(state, target)} cannot be chosen"
    return untargetable_reason(state, seat, target) or f"{board.name_of(state, target)} cannot be targeted"


def _flagbearer(state: State, seat: str, ref: str) -> bool:
    t = state.things.get(ref)
    return t is not None and t.controller != seat and values.has(state, ref, "flagbearer")


def check(state: State, seat: str, src: str, parts: list[Part], chosen: list[str], gold: int,
          pools: list[list[str]] | None = None) -> int:
    """Raise `IllegalCommand` (naming the rule) unless `chosen` are legal
    targets for `parts`; return the resist to pay. `pools`: each part's
    candidates, when the caller has them already."""
    if len(chosen) != len(parts):
        want = "; ".join(p.what for p in parts) or "no target"
        raise IllegalCommand(f"this needs {len(parts)} target(s) ({want}), got {len(chosen)}")
    if pools is None:
        pools = [candidates(state, seat, src, part) for part in parts]
    flag_done = False
    cost = 0
    picked: list[str] = []
    for part, target, cands in zip(parts, chosen, pools):
        if part.distinct:
            cands = [c for c in cands if c not in picked]
        if not target:
            if cands and not part.optional:
                raise IllegalCommand(f"choose {part.what}: there is a legal target (do as much as you can)")
            picked.append("")
            continue
        if target not in cands:
            if part.distinct and target in picked:
                raise IllegalCommand(f"choose {part.what}: another target than the one before")
            raise IllegalCommand(f"cannot target {board.name_of(state, target)}: {why_not(state, seat, src, part, target)}")
        if part.aim:
            flags = [c for c in cands if _flagbearer(state, seat, c) and cost + resist(state, seat, c) <= gold]
            if flags and not flag_done and target not in flags:
                raise IllegalCommand(f"flagbearer: {board.name_of(state, flags[0])} must be targeted first")
            if target in flags:
                flag_done = True
            cost += resist(state, seat, target)
        picked.append(target)
    if cost > gold:
        raise IllegalCommand(f"resist: targeting needs {cost} gold, you have {gold}")
    return cost


def _single(state: State, seat: str, part: Part, cands: list[str], pool: list[str], gold: int) -> list[str]:
    """`check` for one part, for every candidate at once (the common case)."""
    if not part.aim:
        return pool
    cost = {c: resist(state, seat, c) for c in cands}
    flags = [c for c in cands if cost[c] <= gold and _flagbearer(state, seat, c)]
    return [c for c in pool if c == "" or cost[c] <= gold and (not flags or c in flags)]


def check_own(state: State, seat: str, src: str, abilities: list[Ability], chosen: list[str], gold: int) -> int:
    """Check a command's targets for the triggers of its own card (a played
    unit's arrival, an attacker's attack), given in order: each ability
    takes as many as it has parts; a "you may" one given only ``none``
    declines. Returns the resist to pay."""
    wanted = sum(len(ab.targets) for ab in abilities)
    if len(chosen) != wanted:
        want = "; ".join(p.what for ab in abilities for p in ab.targets) or "no target"
        raise IllegalCommand(f"this needs {wanted} target(s) ({want}), got {len(chosen)}")
    total = 0
    for ab in abilities:
        n = len(ab.targets)
        mine, chosen = chosen[:n], chosen[n:]
        if n and not (ab.raw.get("may") and not any(mine)):
            total += check(state, seat, src, ab.targets, mine, gold - total)
    return total


def options(state: State, seat: str, src: str, parts: list[Part], gold: int, prune: bool = True) -> list[list[str]]:
    """Target lists `legal` offers (each passes `check`)."""
    full = [candidates(state, seat, src, part) for part in parts]
    pools = []
    for part, cands in zip(parts, full):
        if prune and part.prune:
            cands = registry.get("prune", part.prune)(state, cands)
        pools.append((cands + [""]) if part.optional or not cands else cands)
    if len(parts) == 1:
        return [[c] for c in _single(state, seat, parts[0], full[0], pools[0], gold)]
    # no resist and no flagbearer among the candidates: only the order rules matter
    free = all(not part.aim or all(not resist(state, seat, c) and not _flagbearer(state, seat, c) for c in cands)
               for part, cands in zip(parts, full))
    out: list[list[str]] = []
    seen = set()
    unordered = any(p.unordered for p in parts)
    for combo in itertools.product(*pools):
        chosen = list(combo)
        if unordered:
            key = tuple(sorted(chosen))
            if key in seen:
                continue
            seen.add(key)
        if free:
            if _distinct_ok(parts, chosen, full):
                out.append(chosen)
            continue
        try:
            check(state, seat, src, parts, chosen, gold, full)
        except IllegalCommand:
            continue
        out.append(chosen)
    return out


def _distinct_ok(parts: list[Part], chosen: list[str], full: list[list[str]]) -> bool:
    """`check`'s rules of ``distinct`` and of ``none``, where nothing costs."""
    picked: list[str] = []
    for part, target, cands in zip(parts, chosen, full):
        left = [c for c in cands if c not in picked] if part.distinct else cands
        if not target:
            if left and not part.optional:
                return False
        elif target not in left:
            return False
        picked.append(target)
    return True
