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
* parts marked ``distinct`` need another target than the earlier ones (of
  their own mode, in a modal spell; ``"things"``: a base may be named
  again, standing for a worker each time);
  ``rel`` names a registered relation a pick must have to the earlier ones;
* a part ``slot_of`` an earlier one names an empty slot of the patrol zone
  the thing chosen there patrols (nothing when there is none);
* a part ``from`` the chooser's hand, codex or discard pile names one of
  its cards there that the part's card filter takes, or none where it may
  (`card_problem` reads that card only: what else those zones hold stays
  hidden; that none was chosen where one had to be is checked where the
  cards are known: the writer, the dealer, the audit).

`why_not` says in words why a target is refused (the rule that forbids it).
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.errors import IllegalCommand
from pbem.games.base import Known, checked_if_visible, identity
from pbem.games.codex import board, cards, registry, select, values
from pbem.games.codex.cards import Ability, Part
from pbem.games.codex.state import State, other, ref_key


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


def slot_choices(state: State, ref: str) -> list[str]:
    """The empty slots of the patrol zone `ref` patrols (none if it does not)."""
    if not ref or board.slot_of(state, ref) is None:
        return []
    slots = state.patrol[state.things[ref].controller]
    return [name for name, r in zip(cards.SLOTS, slots) if not r]


def _card_fits(state: State, seat: str, src: str, part: Part, ref: str, name: str) -> bool:
    """Whether card `name` (ref `ref`) passes the part's card filter."""
    test = part.pick.get("test")
    return select.card_matches(part.pick, name) and (not test or registry.get("test", test)(state, seat, src, ref))


def card_candidates(state: State, seat: str, src: str, part: Part) -> list[str]:
    """The cards of `seat`'s zones a part ``from`` them may name, of those
    the holder of `state` can see (for `legal`: the chooser's own knowledge)."""
    owner = zones_owner(state, seat, part)
    return [it.ref for z in part.zones for it in state.zones[f"{z}:{owner}"].items
            if isinstance(it, Known) and _card_fits(state, seat, src, part, it.ref, it.card)]


def zones_owner(state: State, seat: str, part: Part) -> str:
    """Whose zones a part ``from`` names: the chooser's, or (``of: opp``) the other seat's."""
    return other(state, seat) if part.of == "opp" else seat


def card_problem(state: State, seat: str, src: str, parts: list[Part], picked: list[str], target: str) -> str | None:
    """Why `target` may not be the card of part ``len(picked)`` (a part
    ``from`` the chooser's own zones), or none there (None: it may). Only
    the chosen card is read (`NeedsReveal` on a public state: the chooser
    reveals it, as the effect does); that none was chosen where one had to
    be is judged where the cards are known."""
    part = parts[len(picked)]
    rel = registry.get("relation", part.rel) if part.rel else None

    def fits(x: str, name: str) -> bool:
        return _card_fits(state, seat, src, part, x, name) and (rel is None or rel(state, seat, src, picked, x))

    owner = zones_owner(state, seat, part)
    if target:
        if not any(it.ref == target for z in part.zones for it in state.zones[f"{z}:{owner}"].items):
            whose = "your" if owner == seat or part.by == "owner" else f"{owner}'s"  # the chooser's words
            return f"that is not a card of {whose} " + " or ".join(part.zones)
        if part.distinct and not _left(parts, picked, [target]):
            return "another card than the one before"
        if owner == seat and (part.pick or rel):  # read, so shown to all (as the effect shows it)
            name = select.zone_card(state, seat, target, part.zones)
            return None if fits(target, name) else f"{name} is not {part.what}"
        with checked_if_visible():  # another's card, or any card of one's own: never shown for this
            name = select.zone_card(state, owner, target, part.zones)
            if not fits(target, name):
                return f"{name} is not {part.what}"
        return None
    if part.optional:
        return None
    items = [it for z in part.zones for it in state.zones[f"{z}:{owner}"].items]
    if part.distinct:
        items = [it for it in items if _left(parts, picked, [it.ref])]
    with checked_if_visible():
        if any(fits(it.ref, identity(it)) for it in items):
            return "there is one (do as much as you can)"
    return None


def candidates(state: State, seat: str, src: str, part: Part) -> list[str]:
    if part.slot_of:  # the slots depend on an earlier part's choice: `check` knows them
        return list(cards.SLOTS)
    if part.zones:
        return card_candidates(state, seat, src, part)
    cache = values.memo(state)
    key = ("targets", id(part), seat, src)
    if cache is not None and key in cache:
        return cache[key]
    if part.cond and not select.holds(state, seat, src, part.cond):
        out = []
    else:
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
    if part.cond and not select.holds(state, seat, src, part.cond):
        return f"nothing can be chosen for {part.what} now (its condition does not hold)"
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
        if part.zones:
            why = card_problem(state, seat, src, parts, picked, target)
            if why:
                raise IllegalCommand(f"choose {part.what}: {why}")
            picked.append(target)
            continue
        if part.slot_of:
            cands = slot_choices(state, picked[int(part.slot_of[1:])])
        if part.distinct:
            cands = _left(parts, picked, cands)
        if not target:
            if cands and not part.optional:
                raise IllegalCommand(f"choose {part.what}: there is a legal target (do as much as you can)")
            picked.append("")
            continue
        if target not in cands:
            if part.slot_of:
                raise IllegalCommand(f"choose {part.what}: {target} is not one (" + (", ".join(cands) or "none") + ")")
            if part.distinct and target in picked:
                raise IllegalCommand(f"choose {part.what}: another target than the one before")
            raise IllegalCommand(f"cannot target {board.name_of(state, target)}: {why_not(state, seat, src, part, target)}")
        if part.rel and not registry.get("relation", part.rel)(state, seat, src, picked, target):
            raise IllegalCommand(f"cannot choose {board.name_of(state, target)}: it is not {part.what}")
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
    """Target lists `legal` offers (each passes `check`); copies of one card
    in a codex or hand are one choice (which copy a command names is
    re-chosen at random anyway: `pbem.games.refchoice`)."""
    full = [candidates(state, seat, src, part) for part in parts]
    pools = []
    same = {x: f"{z}:{select.zone_card(state, seat, x, (z,))}" for part, cands in zip(parts, full) if part.zones
            for z in part.zones for x in cands if select.zone_card(state, seat, x, (z,))}
    for part, cands in zip(parts, full):
        if prune and part.prune:
            cands = registry.get("prune", part.prune)(state, cands)
        pools.append((cands + [""]) if part.optional or not cands else cands)
    if len(parts) == 1 and not parts[0].rel:
        if same:
            pools[0] = list(dict.fromkeys(_lowest_copies(state, seat, [x], same)[0] for x in pools[0]))
        return [[c] for c in _single(state, seat, parts[0], full[0], pools[0], gold)]
    # no resist, no flagbearer among the candidates, no relation, no slot: only the order rules matter
    free = all(not part.rel and not part.slot_of
               and (not part.aim or all(not resist(state, seat, c) and not _flagbearer(state, seat, c) for c in cands))
               for part, cands in zip(parts, full))
    out: list[list[str]] = []
    seen = set()
    groups: list[list[int]] = []  # a part marked unordered swaps with the one before
    for i, part in enumerate(parts):
        if part.unordered and groups:
            groups[-1].append(i)
        else:
            groups.append([i])
    for chosen in _combos(state, seat, src, parts, pools):
        if same:
            chosen = _lowest_copies(state, seat, chosen, same)
        if len(groups) < len(parts) or same:
            names = [same.get(x, x) for x in chosen]
            key = tuple(tuple(sorted(names[i] for i in g)) for g in groups)
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


def _lowest_copies(state: State, seat: str, chosen: list[str], same: dict[str, str]) -> list[str]:
    """`chosen` naming, for each card of a hand or codex, its copies lowest
    ref first, as the notation reads them back (``hand:huntress`` twice)."""
    taken: set[str] = set()
    canon: dict[str, str] = {}
    out = []
    for x in chosen:
        if x in same and x not in canon:
            zone, _, name = same[x].partition(":")
            canon[x] = min((it.ref for it in state.zones[f"{zone}:{seat}"].items
                            if it.ref not in taken and same.get(it.ref) == same[x]), key=ref_key)
        y = canon.get(x, x)
        taken.add(y)
        out.append(y)
    return out


def _combos(state: State, seat: str, src: str, parts: list[Part], pools: list[list[str]]) -> Iterator[list[str]]:
    """Target lists part by part, leaving out early what repeats a
    ``distinct`` pick or lacks its ``rel`` to the earlier ones."""

    def grow(prefix: list[str]) -> Iterator[list[str]]:
        i = len(prefix)
        if i == len(parts):
            yield prefix
            return
        part = parts[i]
        rel = registry.get("relation", part.rel) if part.rel else None
        for x in pools[i]:
            if x and part.distinct and not _left(parts, prefix, [x]):
                continue
            if x and rel is not None and not rel(state, seat, src, prefix, x):
                continue
            yield from grow(prefix + [x])

    return grow([])


def _left(parts: list[Part], picked: list[str], cands: list[str]) -> list[str]:
    """The candidates of the ``distinct`` part ``len(picked)``: not picked
    by an earlier part (of its own mode, where it has one); ``"things"``: a
    base, standing for its player's workers, may be named again."""
    part = parts[len(picked)]
    again = part.distinct == "things"
    taken = {x for q, x in zip(parts, picked) if not (part.mode and q.mode and q.mode != part.mode)}
    return [c for c in cands if c not in taken or again and c.endswith(":base")]


def _distinct_ok(parts: list[Part], chosen: list[str], full: list[list[str]]) -> bool:
    """`check`'s rules of ``distinct`` and of ``none``, where nothing costs."""
    picked: list[str] = []
    for part, target, cands in zip(parts, chosen, full):
        left = _left(parts, picked, cands) if part.distinct else cands
        if not target:
            if left and not part.optional:
                return False
        elif target not in left:
            return False
        picked.append(target)
    return True
