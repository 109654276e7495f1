"""Why a command of Dark Agent's action phase is not legal (`None`: it
is), one function per kind (spot, attack, use, power, double-spy token),
with the tests they share with `legal` (what an attack on a cell would
be, which cells may attack, a protected AIM). `apply` refuses with these
sentences and `legal` lists what they let through, so the two cannot
disagree.
"""

from __future__ import annotations

from pbem.games.base import identity
from pbem.games.dark_agent.commands import Attack, Spot, Use
from pbem.games.dark_agent.editions import CURRENT, Edition
from pbem.games.dark_agent.readers import (
    can_deploy, cell_card, family, far_sources, hand_limit, idx, mine_on, reach, sources, turn_effects, turn_has,
)
from pbem.games.dark_agent.state import (
    CELLS, EQ_DECK, EQ_DISCARD, KARA_SPY, State, cell_name, hand, line_of, neighbours, pos_of, spy_at, spy_level,
    spy_owner,
)


def attacker_cells(state: State, seat: str) -> list[int]:
    out = []
    for cell in sorted(state.selected):
        spy = spy_at(state, cell)
        if spy is not None and (spy_owner(spy) == seat or spy == state.turned):
            out.append(cell)
        elif state.turned == KARA_SPY and cell_card(state, cell) == state.catalogue.kara.id:
            out.append(cell)
    return out


def jetpack_target(state: State, seat: str, other: str | None, fam: str) -> bool:
    """Where a jet-pack may go: a cell holding an enemy spy (`other`, the
    spy there) or a sentry (`fam`, the family of its card)."""
    return (other is not None and spy_owner(other) != seat and other != state.turned) or fam == "sentry"


def spot_problem(state: State, seat: str, cmd: Spot) -> str | None:
    cell = cmd.cell
    if not 0 <= cell < CELLS:
        return "no such cell"
    if cell in state.selected:
        return f"{cell_name(cell)} is already selected"
    line = line_of(cell)
    if mine_on(state, seat, line) - state.used_sats[line] <= 0:
        return f"you have no unused satellite over line {cell_name(cell)[0]}"
    within = pos_of(cell) < reach(state, seat, line)
    if cmd.reach == "":
        if not within:
            return f"{cell_name(cell)} is out of reach (line {cell_name(cell)[0]} reaches {reach(state, seat, line)} cells)"
    elif within:
        return f"{cell_name(cell)} is within reach: spot it without {cmd.reach}"
    elif cmd.reach == "super":
        if not state.super_left[seat]:
            return "your super-satellite token is used up"
    elif cmd.reach == "far":
        if not far_sources(state, seat):
            return "you have no far-sight power left this turn"
    else:
        return f"unknown reach {cmd.reach!r}"
    card = cell_card(state, cell)
    if card is not None and family(state, card) == "equipment" and len(state.zones[hand(seat)].items) >= hand_limit(state, seat):
        return f"you hold {hand_limit(state, seat)} equipment cards: you cannot take another"
    return None


def target_kind(state: State, seat: str, cell: int) -> str:
    """What an attack on `cell` would be: sentry, aim, kara, spy, or ''."""
    spy = spy_at(state, cell)
    if spy is not None:
        return "spy" if spy_owner(spy) != seat and spy != state.turned else ""
    card = cell_card(state, cell)
    if card is None:
        return ""
    fam = family(state, card)
    if fam == "kara":
        return "" if state.turned == KARA_SPY else "kara"
    return fam if fam in ("sentry", "aim") else ""


def protected(state: State, seat: str, cell: int, edition: Edition = CURRENT) -> bool:
    """An AIM that `seat` cannot attack: an enemy spy (not the one `seat`
    turned with the double-spy token) or a sentry lies orthogonally next to
    it. The rulebook names only these two; Kara, the Dark Agent, is no
    enemy spy and protects nothing (rules 1 let her protect: `editions`)."""
    for n in neighbours(cell):
        spy = spy_at(state, n)
        if spy is not None and spy_owner(spy) != seat and spy != state.turned:
            return True
        card = cell_card(state, n)
        if card is not None:
            fam = family(state, card)
            if fam == "sentry" or (fam == "kara" and edition.kara_protects_aims and state.turned != KARA_SPY):
                return True
    return False


def level_at(state: State, cell: int) -> int:
    spy = spy_at(state, cell)
    if spy is not None:
        return spy_level(spy)
    return state.catalogue.kara.level  # a turned Kara


def attack_problem(state: State, seat: str, cmd: Attack, edition: Edition) -> str | None:
    t = cmd.target
    if not 0 <= t < CELLS:
        return "no such cell"
    kind = target_kind(state, seat, t)
    if not kind:
        return f"nothing to attack in {cell_name(t)}"
    any_sentry = any(e.kind == "attack_bonus" and e.any_sentry for e in turn_effects(state))
    if t not in state.selected and not (kind == "sentry" and any_sentry):
        return f"{cell_name(t)} is not selected"
    if not cmd.spies:
        return "an attack needs at least one of your spies"
    if len(set(cmd.spies)) != len(cmd.spies) or t in cmd.spies:
        return "each attacking spy once, and not the target"
    attackers = attacker_cells(state, seat)
    for c in cmd.spies:
        if c not in attackers:
            return f"no spy of yours in a selected cell {cell_name(c)}"
    own = [c for c in cmd.spies if (s := spy_at(state, c)) is not None and spy_owner(s) == seat]
    if not own:
        return "you cannot attack with the double spy alone"
    if kind in ("spy", "kara"):
        level = spy_level(spy_at(state, t)) if kind == "spy" else state.catalogue.kara.level  # type: ignore[arg-type]
        total = sum(level_at(state, c) for c in cmd.spies)
        if total <= level:
            return f"your spies' levels ({total}) must be above the target's level ({level})"
    if kind == "aim" and protected(state, seat, t, edition) and not turn_has(state, "explosives"):
        return f"the AIM in {cell_name(t)} is protected by {edition.protectors()} next to it"
    return None


def double_target(state: State, seat: str, cell: int) -> bool:
    spy = spy_at(state, cell)
    if spy is not None:
        return spy_owner(spy) != seat
    return cell_card(state, cell) == state.catalogue.kara.id


def use_problem(state: State, seat: str, cmd: Use) -> str | None:
    item = next((it for it in state.zones[hand(seat)].items if it.ref == cmd.ref), None)
    if item is None:
        return "that card is not in your hand"
    ix = idx(state)
    card = identity(item)
    eq = ix.entry[card]
    kind = eq.effect.kind  # type: ignore[attr-defined]
    if eq.star and state.star_used:  # type: ignore[attr-defined]
        return "you already used a * card this turn"
    cells = cmd.cells
    if any(not 0 <= c < CELLS for c in cells):
        return "no such cell"
    if kind == "jacket":
        return "a bulletproof jacket works by itself when one of your spies is hit"
    if kind == "adrenaline":
        if len(cells) != 1 or not ((s := spy_at(state, cells[0])) and spy_owner(s) == seat):
            return "adrenaline: name a cell holding one of your spies"
        if s in state.adrenaline:
            return "that spy already has adrenaline"
    elif kind == "investigate":
        if len(cells) != 1 or family(state, cell_card(state, cells[0]) or "") != "aim":
            return "name a cell holding an AIM"
    elif kind == "jetpack":
        if len(cells) != 2 or not ((s := spy_at(state, cells[0])) and spy_owner(s) == seat):
            return "jet-pack: name your spy's cell, then an enemy spy's or a sentry's"
        if not jetpack_target(state, seat, spy_at(state, cells[1]), family(state, cell_card(state, cells[1]) or "")):
            return "jet-pack: the second cell must hold an enemy spy or a sentry"
    elif cells:
        return f"{ix.name(card)} takes no cell"
    return None


def power_problem(state: State, seat: str, source: str) -> str | None:
    eff = dict(sources(state, seat)).get(source)
    if eff is None:
        return "that power is not yours"
    if eff.kind not in ("draw_equipment", "deploy"):
        return "that power works by itself" if eff.kind != "far_sight" else "use it with: spot CELL far"
    if source in state.powers_used:
        return "already used this turn"
    if eff.kind == "deploy" and not can_deploy(state, seat):
        return "no spy on your board or no empty cell"
    if eff.kind == "draw_equipment" and (
        len(state.zones[hand(seat)].items) >= hand_limit(state, seat)
        or not (state.zones[EQ_DECK].items or state.zones[EQ_DISCARD].items)
    ):
        return "your hand is full or there is no equipment left"
    return None
