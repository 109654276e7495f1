"""The red colour's functions: what its data cannot say with the common
effects (Detonate's two kinds of target, Firehouse's "if that destroys
it", Land Octopus's two workers, a short list of Burning Volley's targets
for `legal`)."""

from __future__ import annotations

from pbem.games.codex import board, engine, values
from pbem.games.codex.board import log
from pbem.games.codex.effects import Ctx
from pbem.games.codex.registry import register
from pbem.games.codex.state import State, opponents


@register("effect", "trash_worker_or_card")
def trash_worker_or_card(ctx: Ctx, params: dict) -> None:
    """Detonate: its target names a base (one of that player's workers is
    trashed, unseen: rulings) or a building card (trashed)."""
    target = ctx.targets[0] if ctx.targets else ""
    if target.endswith(":base"):
        engine.trash_worker(ctx.state, board.controller(ctx.state, target))
    elif target in ctx.state.things:
        log(ctx.state, f"{ctx.state.things[target].card} is trashed")
        engine.leave_play(ctx.state, target, "trash")


def _doomed(state: State, target: str) -> bool:
    """Whether the damage on `target` now destroys it (the state-based
    checks will): a building at its HP, a thing at its HP that can die."""
    if board.is_structure(target):
        seat, kind = board.structure(target)
        return kind == "base" or board.structure_damage(state, target) >= board.building_hp(kind)
    t = state.things.get(target)
    return t is not None and t.damage >= values.hp(state, target) and not values.has(state, target, "indestructible")


@register("effect", "ready_if_doomed")
def ready_if_doomed(ctx: Ctx, params: dict) -> None:
    """Firehouse: readies when its damage destroys what it hit. An illusion
    that died on being targeted was not destroyed by the damage (ruling):
    it is gone before the damage, and nothing readies."""
    target = ctx.targets[0] if ctx.targets else ""
    if target and ctx.src in ctx.state.things and _doomed(ctx.state, target) and (
            board.is_structure(target) or target in ctx.state.things):
        ctx.state.things[ctx.src].exhausted = False
        log(ctx.state, f"{ctx.state.things[ctx.src].card} readies")


@register("test", "two_workers")
def two_workers(state: State, seat: str, src: str, x: str) -> bool:
    """Land Octopus: its controller has two workers to give up."""
    return board.worker_count(state, seat) >= 2


@register("prune", "weakest_opposing")
def weakest_opposing(state: State, candidates: list[str]) -> list[str]:
    """Burning Volley's further targets, for `legal` to list (any are legal):
    the active player's opponents' three nearest to dying, so that the
    choices stay few."""
    def left(x: str) -> int:
        if board.is_structure(x):
            return board.building_hp(board.structure(x)[1], state) - board.structure_damage(state, x)
        return values.hp(state, x) - state.things[x].damage

    theirs = [x for x in candidates if board.controller(state, x) in opponents(state, state.active)]
    return sorted(theirs, key=left)[:3]
