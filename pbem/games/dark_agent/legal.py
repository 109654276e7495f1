"""A Dark Agent seat's legal commands (`legal`): the one or few answers of
most phases, and the action phase's spots, attacks, equipment and powers,
filtered by `problems`. Apart from `apply` because listing is the
search's hot path (bots, `pbem legal`), with shortcuts of its own
(`_uses`) that tests hold to the problems one by one.
"""

from __future__ import annotations

from itertools import combinations

from pbem.games.base import identity
from pbem.games.dark_agent.commands import (
    Attack, Command, Deal, Deploy, Double, End, Jacket, Media, Place, Power, Spot, Use, Vote, jacket_refs,
)
from pbem.games.dark_agent.editions import CURRENT, Edition
from pbem.games.dark_agent.problems import (
    attack_problem, attacker_cells, double_target, jetpack_target, power_problem, target_kind,
)
from pbem.games.dark_agent.readers import (
    empty_cells, far_sources, hand_limit, idx, mine_on, reach, sources, to_act, turn_effects, turn_has,
)
from pbem.games.dark_agent.satellites import moves
from pbem.games.dark_agent.state import (
    ACT, CELL_ZONES, CELLS, CELLS_PER_LINE, DEAL, DEPLOY, JACKET, LINES, MEDIA, MOVE, PLACE, SLOTS, VOTE, State,
    card_at, hand, spy_owner,
)


def legal(state: State, seat: str, edition: Edition = CURRENT) -> list[Command]:
    """`seat`'s legal commands, under the rules of `edition` (`editions`)."""
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase == DEAL:
        return [Deal()]
    if phase == PLACE:
        return [Place(ln) for ln in range(LINES) if len(state.sats[ln]) < SLOTS]
    if phase == MOVE:
        return moves(state, seat)
    if phase == DEPLOY:
        return [Deploy(c) for c in empty_cells(state)]
    if phase == JACKET:  # a jacket must save the spy: the only answer
        return [Jacket((jacket_refs(state, seat) or [""])[0])]
    if phase == MEDIA:
        cards = [c for c in range(CELLS) if card_at(state, c) is not None]
        out: list[Command] = [Media()]
        for k in range(0, min(len(cards) - 2, 9), 3):  # a small sample; any triple is allowed
            a, b, c = cards[k:k + 3]
            out += [Media([a, b, c], [b, c, a]), Media([a, b, c], [b, a, c])]
        return out
    if phase == VOTE:
        return [Vote(True), Vote(False)]
    if phase == ACT:
        return act_commands(state, seat, edition)
    return []


def act_commands(state: State, seat: str, edition: Edition = CURRENT) -> list[Command]:
    out: list[Command] = []
    full = len(state.zones[hand(seat)].items) >= hand_limit(state, seat)
    fams = area_families(state) if full else []
    far = bool(far_sources(state, seat))
    neutral = turn_has(state, "use_neutral")
    for line in range(LINES):
        if mine_on(state, seat, line, neutral) - state.used_sats[line] <= 0:
            continue
        r = reach(state, seat, line, neutral)
        for pos in range(CELLS_PER_LINE):
            cell = line * CELLS_PER_LINE + pos
            if cell in state.selected:
                continue
            if full and fams[cell] == "equipment":
                continue
            if pos < r:
                out.append(Spot(cell))
                continue
            if state.super_left[seat]:
                out.append(Spot(cell, "super"))
            if far:
                out.append(Spot(cell, "far"))
    out += _attacks(state, seat, edition)
    if state.double_holder == seat and not state.turned:
        for cell in state.selected:
            if double_target(state, seat, cell):
                out.append(Double(cell))
    out += _uses(state, seat)
    for source, eff in sources(state, seat):
        if power_problem(state, seat, source) is None:
            out.append(Power(source))
    out.append(End())
    return out


def _attacks(state: State, seat: str, edition: Edition) -> list[Command]:
    attackers = attacker_cells(state, seat)
    if not attackers:
        return []
    any_sentry = any(e.kind == "attack_bonus" and e.any_sentry for e in turn_effects(state))
    candidates = range(CELLS) if any_sentry else sorted(state.selected)
    targets = [c for c in candidates if c not in attackers and target_kind(state, seat, c)]
    out: list[Command] = []
    for t in targets:
        for k in range(1, len(attackers) + 1):
            for group in combinations(attackers, k):
                cmd = Attack(t, list(group))
                if attack_problem(state, seat, cmd, edition) is None:
                    out.append(cmd)
    return out


def _uses(state: State, seat: str) -> list[Command]:
    """Every `Use` that `use_problem` lets through, one card of each name
    (its lowest ref): the candidate cells of each kind, filtered by the same
    tests, computed once for the whole hand (tests/games/test_rules_shortcuts.py
    holds them to the candidates `use_problem` passes one by one)."""
    items = state.zones[hand(seat)].items
    if not items:
        return []
    ix = idx(state)
    first = spies_by_cell(state)
    fams = area_families(state)
    mine = sorted(c for s, c in state.spy_cell.items() if c >= 0 and spy_owner(s) == seat)
    own = [c for c in mine if (s := first.get(c)) and spy_owner(s) == seat]
    out: list[Command] = []
    seen: set[str] = set()
    for it in sorted(items, key=lambda i: (len(i.ref), i.ref)):
        card = identity(it)
        if card in seen:
            continue
        seen.add(card)
        eq = ix.entry[card]
        kind = eq.effect.kind  # type: ignore[attr-defined]
        if kind == "jacket" or (eq.star and state.star_used):  # type: ignore[attr-defined]
            continue
        if kind == "adrenaline":
            out += [Use(it.ref, [c]) for c in own if first[c] not in state.adrenaline]
        elif kind == "investigate":
            out += [Use(it.ref, [c]) for c in range(CELLS) if fams[c] == "aim"]
        elif kind == "jetpack":
            hits = [c for c in range(CELLS) if jetpack_target(state, seat, first.get(c), fams[c])]
            out += [Use(it.ref, [m, o]) for m in own for o in hits if o != m]
        else:
            out.append(Use(it.ref, []))
    return out


def spies_by_cell(state: State) -> dict[int, str]:
    """Cell -> the spy `spy_at` finds there (the first in `spy_cell`)."""
    out: dict[int, str] = {}
    for spy, cell in state.spy_cell.items():
        out.setdefault(cell, spy)
    return out


def area_families(state: State) -> list[str]:
    """The family of the card in each cell ("" where there is none):
    ``family(state, cell_card(state, cell) or "")`` for every cell at once."""
    fam = idx(state).family
    zones = state.zones
    return [fam.get(identity(items[0]), "") if (items := zones[name].items) else "" for name in CELL_ZONES]
