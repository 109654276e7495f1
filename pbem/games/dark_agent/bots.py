"""Dark Agent bots: `random` (any legal command, ending the turn now and
then) and `greedy` (spots what helps, attacks when its exact chance is
good, prefers AIMs). Both choose from what their seat sees."""

from __future__ import annotations

import random
from typing import Any

from pbem.games.dark_agent import editions, odds, rules
from pbem.games.dark_agent.commands import Attack, Deploy, End, Move, Power, Spot, Swap, Use, Vote
from pbem.games.dark_agent.editions import Edition
from pbem.games.dark_agent.state import ACT, CELLS, CELLS_PER_LINE, card_at, spy_at, spy_owner


def random_bot(game: Any, state: Any, seat: str, rng: random.Random) -> Any:
    legal = game.legal(state, seat)
    if state.phase == ACT and len(legal) > 1 and rng.random() < 0.15:
        return End()
    return rng.choice(legal)


def chance_of(state: Any, seat: str, cmd: Attack) -> float:
    base, die = rules.defence(state, seat, cmd.target)
    bonus = rules.attack_bonus(state, seat, cmd)
    return odds.success_chance(bonus, base, die, rules.turn_has(state, "fix_die"))


def _value(state: Any, seat: str, cmd: Attack) -> float:
    kind = rules._target_kind(state, seat, cmd.target)
    worth = {"aim": 9, "kara": 6, "spy": 3}.get(kind, 0)
    if kind == "sentry":
        worth = 1 + getattr(rules.idx(state).entry[rules.cell_card(state, cmd.target)], "level", 1)
    return worth - 0.1 * len(cmd.spies)


def _cell_value(state: Any, seat: str, cell: int, edition: Edition) -> float:
    """How useful selecting `cell` is for `seat` now (a rough guide)."""
    spy = spy_at(state, cell)
    has_board = bool(rules.board_spies(state, seat))
    if spy is not None:
        return 4 if spy_owner(spy) == seat else 2
    item = card_at(state, cell)
    if item is None:
        return 1.5 if has_board else 0.3
    card = rules.identity(item)
    fam = rules.family(state, card)
    if fam == "special":
        kind = rules.idx(state).entry[card].kind
        if kind == "support":
            return 5 if has_board and rules.empty_cells(state) else 0.5
        return {"supply": 2, "espionage": 1, "media": 0.3}[kind]
    if fam == "equipment":
        return 3
    if fam == "aim":
        return 3.5 if not rules.protected(state, seat, cell, edition) else 1
    return {"kara": 2.5, "sentry": 2.5}.get(fam, 0)


def _spot_value(state: Any, seat: str, cmd: Spot, edition: Edition) -> float:
    return _cell_value(state, seat, cmd.cell, edition) - (1.5 if cmd.reach == "super" else 0.0)


def greedy_bot(game: Any, state: Any, seat: str, rng: random.Random) -> Any:
    legal = game.legal(state, seat)
    edition = editions.of(game.info.rules_version)
    phase = state.phase
    if phase == "vote":
        return Vote(rng.random() < 0.5)
    if phase == "place":
        return min(legal, key=lambda c: (len(state.sats[c.line]), rng.random()))
    if phase == "move":
        return _best_move(state, seat, legal, rng, edition)
    if phase == "deploy":
        sel = [c for c in legal if isinstance(c, Deploy) and c.cell in state.selected]
        return sel[0] if sel else min(legal, key=lambda c: (c.cell % CELLS_PER_LINE, rng.random()))
    if phase != ACT:
        return legal[0] if len(legal) == 1 else rng.choice(legal)
    attacks = [c for c in legal if isinstance(c, Attack)]
    if attacks:
        scored = [(chance_of(state, seat, c) * _value(state, seat, c), chance_of(state, seat, c), c) for c in attacks]
        best = max(scored, key=lambda x: (x[0], x[1]))
        if best[1] >= 0.55:
            return best[2]
    for c in legal:
        if isinstance(c, Power):
            return c
    uses = [c for c in legal if isinstance(c, Use)]
    spots = [c for c in legal if isinstance(c, Spot)]
    if spots:
        best_spot = max(spots, key=lambda c: (_spot_value(state, seat, c, edition), rng.random()))
        if _spot_value(state, seat, best_spot, edition) > 1:
            return best_spot
    if uses and rng.random() < 0.5:
        return rng.choice(uses)
    return End()


def _best_move(state: Any, seat: str, legal: list[Any], rng: random.Random, edition: Edition) -> Any:
    """The satellite layout whose reachable cells are worth most."""
    values = [_cell_value(state, seat, c, edition) for c in range(CELLS)]

    def score(cmd: Any) -> float:
        sats = [list(x) for x in state.sats]
        if isinstance(cmd, Move):
            for a, b in cmd.moves:
                sats = rules._moved(sats, seat, a, b)
        elif isinstance(cmd, Swap):
            sats[cmd.mine].remove(seat)
            sats[cmd.other].remove(cmd.owner)
            sats[cmd.mine].append(cmd.owner)
            sats[cmd.other].append(seat)
        total = 0.0
        for line, owners in enumerate(sats):
            mine = owners.count(seat)
            if not mine:
                continue
            r = CELLS_PER_LINE if mine == 3 else min(len(owners), 3)
            cells = sorted((values[line * CELLS_PER_LINE + p] for p in range(r)), reverse=True)
            total += sum(cells[:mine])
        return total + rng.random() * 0.5
    return max(legal, key=score)


BOTS = {"random": random_bot, "greedy": greedy_bot}

__all__ = ["BOTS"]
