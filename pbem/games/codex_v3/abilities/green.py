"""The green colour's functions: what its data cannot say alone."""

from __future__ import annotations

from pbem.games.codex_v3 import board, cards, engine, select, values
from pbem.games.codex_v3.board import log
from pbem.games.codex_v3.effects import Ctx
from pbem.games.codex_v3.registry import register
from pbem.games.codex_v3.state import State


@register("effect", "gold_per_two_green_units")
def gold_per_two_green_units(ctx: Ctx, params: dict) -> None:
    """Galina Glimmer's upkeep: a gold for every two green units you
    control, herself counted, rounded down (rulings)."""
    green = [r for r in board.things_of(ctx.state, ctx.seat)
             if board.is_unit(ctx.state, r) and board.shown(ctx.state, r).colour == "green"]
    n = len(green) // 2
    if n:
        engine.gain_gold(ctx.state, ctx.seat, n)
        log(ctx.state, f"{ctx.seat} gains {n} gold (two green units each)")


@register("effect", "join_the_strongest")
def join_the_strongest(ctx: Ctx, params: dict) -> None:
    """Dothram Horselord's upkeep: the player whose units and heroes have
    more ATK in all than each other player's (the Horselord counted, ruling)
    takes control of it; on a tie nobody does."""
    st = ctx.state
    if ctx.src not in st.things:
        return
    totals = {s: sum(values.atk(st, r) for r in board.fighters_of(st, s)) for s in st.seats}
    best = max(totals.values())
    strongest = [s for s, n in totals.items() if n == best]
    if len(strongest) == 1 and strongest[0] != st.things[ctx.src].controller:
        log(st, f"{st.things[ctx.src].card} joins {strongest[0]} (the most ATK)")
        engine.change_control(st, ctx.src, strongest[0])


@register("relation", "one_tech_above_first")
def one_tech_above_first(state: State, seat: str, src: str, earlier: list[str], x: str) -> bool:
    """Circle of Life: a codex card one tech level above the unit chosen first."""
    if not earlier or earlier[0] not in state.things:
        return False
    name = select.zone_card(state, seat, x)
    return name is not None and cards.CARDS[name].tech == board.tech_of(state, earlier[0]) + 1


@register("relation", "in_hand_or_fetched")
def in_hand_or_fetched(state: State, seat: str, src: str, earlier: list[str], x: str) -> bool:
    """Feral Strike boosted: a unit of the hand, or one of the codex that
    its first mode fetches into the hand before this one."""
    return any(it.ref == x for it in state.zones[f"hand:{seat}"].items) or x in earlier[:2]


@register("test", "tech_building_for_it")
def tech_building_for_it(state: State, seat: str, src: str, x: str) -> bool:
    """Feral Strike: its player has a finished tech building of the card's
    tech level, whatever its spec (the base for tech 0: ruling)."""
    name = select.zone_card(state, seat, x)
    tech = cards.CARDS[name].tech if name else -1
    return tech == 0 or tech > 0 and board.building_done(state, seat, f"tech{tech}")
