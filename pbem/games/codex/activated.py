"""Activated abilities (``use``): which a card has now, their costs, and using one.

A cost (``"cost"`` of a ``use`` ability) may ask, all paid before the effect:
``exhaust`` (not while exhausted, nor with arrival fatigue unless it has
haste), ``gold`` N, ``sacrifice`` (``self``), ``remove`` (``{"runes": 1}``
for +1/+1 runes, or another rune kind: ``{"blood": 2}``), ``discard`` N
(cards from hand, named by the command's ``pay=``), ``alt`` (a list of
costs, one of which the command picks with ``by=``). ``per_turn`` on the
ability limits its uses a turn. A card may also have abilities another
card grants it (a continuous effect with ``grant``: Maestro's Virtuosos).
"""

from __future__ import annotations

from typing import Any

from pbem.errors import IllegalCommand
from pbem.games.base import Chance
from pbem.games.codex import board, cards, engine, resolve, select, targets, values
from pbem.games.codex.board import log
from pbem.games.codex.cards import Ability
from pbem.games.codex.effects import Ctx, run
from pbem.games.codex.state import State, hand


def usable(state: State, ref: str) -> list[Ability]:
    """The activated abilities `ref` has now: its own (not those it only
    grants) and those granted to it."""
    out = [ab for ab in board.face(state, ref).uses.values() if not ab.granted]
    if board.is_fighter(state, ref):
        for card, name in values.get(state, ref).grants:
            ab = next((a for f in cards.CARDS[card].faces for a in f.uses.values() if a.name == name), None)
            if ab is not None and ab not in out:
                out.append(ab)
    return out


def names(state: State, ref: str) -> list[str]:
    return [ab.name for ab in usable(state, ref)]


def find(state: State, ref: str, name: str) -> Ability | None:
    return next((ab for ab in usable(state, ref) if ab.name == name), None)


def alt_names(ab: Ability) -> list[str]:
    """The words naming each alternative cost (``gold``, ``exhaust`` ...)."""
    return [next(iter(c)) for c in ab.cost.get("alt", [])]


def costs_of(ab: Ability, alt: int) -> dict[str, Any]:
    cost = {k: v for k, v in ab.cost.items() if k != "alt"}
    alts = ab.cost.get("alt", [])
    if alts:
        cost.update(alts[alt])
    return cost


def cost_problem(state: State, seat: str, ref: str, ab: Ability, alt: int, pay: list[str]) -> str | None:
    """Why `seat` cannot pay `ab`'s cost on `ref` now (None: it can)."""
    t = state.things[ref]
    alts = ab.cost.get("alt", [])
    if alts and not 0 <= alt < len(alts) or not alts and alt:
        return f"{ab.name}: pay it by " + (" or ".join(alt_names(ab)) if alts else "its one cost (no by=)")
    cost = costs_of(ab, alt)
    if cost.get("exhaust"):
        if t.exhausted:
            return f"{t.card} is exhausted"
        if values.fatigued(state, ref):
            return f"{t.card} arrived this turn: no exhaust abilities without haste (arrival fatigue)"
    if ab.once and t.used_turn == state.turn and t.used.get(ab.name, 0) >= ab.once:
        return f"{ab.name} can be used {ab.once} time(s) a turn"
    if cost.get("gold", 0) > state.players[seat].gold:
        return f"{ab.name} costs {cost['gold']} gold, you have {state.players[seat].gold}"
    for kind, n in cost.get("remove", {}).items():
        have = max(0, t.runes) if kind == "runes" else t.counters.get(kind, 0)
        if have < n:
            what = "+1/+1" if kind == "runes" else kind
            return f"{ab.name} needs {n} {what} rune(s) on {t.card} (it has {have})"
    if cost.get("sacrifice") == "self" and values.has(state, ref, "indestructible"):
        return f"{t.card} is indestructible: it cannot be sacrificed"
    discards = cost.get("discard", 0)
    in_hand = {it.ref for it in state.zones[hand(seat)].items}
    if len(pay) != discards or len(set(pay)) != len(pay) or any(r not in in_hand for r in pay):
        if discards:
            return f"{ab.name}: discard {discards} card(s) from your hand as its cost (pay=hand:NAME,...)"
        return f"{ab.name} takes no cards as its cost (no pay=)"
    return None


def use(state: State, seat: str, ref: str, name: str, chosen: list[str], alt: int, pay: list[str],
        chance: Chance) -> None:
    """The ``use`` command: check and pay the cost and the targets, then
    the effect (do as much as you can)."""
    t = state.things.get(ref)
    if t is None or t.controller != seat:
        raise IllegalCommand("use an ability of something you control")
    ab = find(state, ref, name)
    if ab is None:
        known = ", ".join(names(state, ref)) or "none now"
        raise IllegalCommand(f"{t.card} has no ability {name!r} (it has: {known})")
    with values.frozen(state):
        why = cost_problem(state, seat, ref, ab, alt, pay)
        if why:
            raise IllegalCommand(why)
        cost = costs_of(ab, alt)
        gold_after = state.players[seat].gold - cost.get("gold", 0)
        targets.check(state, seat, ref, ab.targets, chosen, gold_after)
        if not select.holds(state, seat, ref, ab.cond):
            raise IllegalCommand(f"{ab.name}: {ab.raw.get('if_text', 'its condition does not hold now')}")
    state.players[seat].gold = gold_after
    if t.used_turn != state.turn:
        t.used_turn, t.used = state.turn, {}
    t.used[ab.name] = t.used.get(ab.name, 0) + 1
    if cost.get("exhaust"):
        engine.exhaust(state, ref)
    for kind, n in cost.get("remove", {}).items():
        if kind == "runes":
            engine.add_runes(state, ref, -n)
        else:
            engine.remove_counter(state, ref, kind, n, chance)
    engine.discard_from_hand(state, seat, pay)
    log(state, f"{t.card} uses {ab.name}")
    if cost.get("sacrifice") == "self":
        engine.destroy(state, [ref], chance)
    if any(chosen):
        resolve.pay_targeting(state, seat, ab.targets, chosen)
    run(Ctx(state, seat, ref, chosen, chance, card=ab.card), ab.do)
