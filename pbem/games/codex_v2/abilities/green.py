"""The green colour's functions (its starter deck is data only)."""

from __future__ import annotations

from pbem.games.codex_v2 import board, cards, engine
from pbem.games.codex_v2.board import log
from pbem.games.codex_v2.effects import Ctx
from pbem.games.codex_v2.registry import register


@register("effect", "gold_per_two_green_units")
def gold_per_two_green_units(ctx: Ctx, params: dict) -> None:
    """Galina Glimmer's upkeep: a gold for every two green units you
    control, herself counted, rounded down (rulings)."""
    green = [r for r in board.things_of(ctx.state, ctx.seat)
             if board.is_unit(ctx.state, r) and cards.CARDS[ctx.state.things[r].card].colour == "green"]
    n = len(green) // 2
    if n:
        engine.gain_gold(ctx.state, ctx.seat, n)
        log(ctx.state, f"{ctx.seat} gains {n} gold (two green units each)")
