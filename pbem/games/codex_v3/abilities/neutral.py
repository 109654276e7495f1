"""The neutral set's few functions (everything else is data)."""

from __future__ import annotations

from pbem.games.codex_v3 import board
from pbem.games.codex_v3.registry import register
from pbem.games.codex_v3.state import State


@register("test", "unpartnered")
def unpartnered(state: State, seat: str, src: str, x: str) -> bool:
    """Two Step: a unit that is not already some Two Step's partner."""
    return not any(x in t.links for t in state.things.values())


@register("check", "partners_held")
def partners_held(state: State, ref: str) -> bool:
    """Two Step stays while its controller controls both partners (one
    cast without two partners binds nobody and simply stays)."""
    t = state.things[ref]
    return not t.links or all(p in state.things and state.things[p].controller == t.controller for p in t.links)


@register("test", "partners_held")
def partners_held_test(state: State, seat: str, src: str, x: str) -> bool:
    return partners_held(state, src)


@register("prune", "damaged_first")
def damaged_first(state: State, candidates: list[str]) -> list[str]:
    """Repairing: every damaged building, plus one undamaged one (a no-op),
    so that `legal` does not list the same repair many times."""
    hurt, spare = [], []
    for b in candidates:
        damaged = board.structure_damage(state, b) if board.is_structure(b) else state.things[b].damage
        (hurt if damaged else spare).append(b)
    return hurt + spare[:1]
