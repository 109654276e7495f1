"""Codex bots: `random` (uniform among the legal commands, with a lean
towards attacking and ending so that games finish) and `greedy` (hire,
build, summon and level, play the dearest card it can, attack the weakest
reachable thing, the base when it can, patrol with everything ready)."""

from __future__ import annotations

import random
from typing import Any

from pbem.games.codex_v2 import activated, board, cards, values
from pbem.games.codex_v2.commands import Attack, Build, End, Hire, Level, Play, Summon, Tech, Use
from pbem.games.codex_v2.state import TECH


def random_bot(game: Any, state: Any, seat: str, rng: random.Random) -> Any:
    legal = game.legal(state, seat)
    if state.phase == TECH or state.prompt is not None:
        return rng.choice(legal)
    attacks = [c for c in legal if isinstance(c, Attack)]
    if attacks and rng.random() < 0.6:
        return rng.choice(attacks)
    others = [c for c in legal if not isinstance(c, End)]
    ends = [c for c in legal if isinstance(c, End)]
    if not others or rng.random() < 0.25:
        return rng.choice(ends)
    return rng.choice(others)


def _value(state: Any, target: str) -> tuple[int, int]:
    if board.is_building(target):
        return (0 if target.endswith(":base") else 1, 0)
    return (2, values.hp(state, target) - state.things[target].damage)


def greedy_bot(game: Any, state: Any, seat: str, rng: random.Random) -> Any:
    with values.frozen(state):
        return _greedy(game, state, seat, rng)


def _greedy(game: Any, state: Any, seat: str, rng: random.Random) -> Any:
    legal = game.legal(state, seat)
    if state.prompt is not None:
        return legal[0]
    if state.phase == TECH:
        techs = [c for c in legal if isinstance(c, Tech)]
        units = [c for c in techs if all(cards.kind(state_card(state, r)) == "unit" for r in c.cards)]
        return rng.choice(units or techs)
    p = state.players[seat]
    for kind in (Hire, Summon):
        cmds = [c for c in legal if isinstance(c, kind)]
        if cmds:
            return cmds[0]
    builds = [c for c in legal if isinstance(c, Build) and c.building in cards.TECH_BUILDINGS]
    if builds:
        return builds[0]
    plays = [c for c in legal if isinstance(c, Play)]
    if plays:
        best = max(plays, key=lambda c: (cards.CARDS[state_card(state, c.ref)].cost, rng.random()))
        return best
    attacks = [c for c in legal if isinstance(c, Attack)]
    good = []
    for c in attacks:
        a = c.attacker
        if board.is_building(c.target):
            good.append(c)
            continue
        mine = values.atk(state, a)
        left = values.hp(state, c.target) - state.things[c.target].damage
        theirs = values.atk(state, c.target)
        hp_left = values.hp(state, a) - state.things[a].damage
        if mine >= left or theirs < hp_left:
            good.append(c)
    if good:
        return min(good, key=lambda c: (_value(state, c.target), rng.random()))
    levels = [c for c in legal if isinstance(c, Level)]
    if levels and p.gold >= 3:
        return levels[0]
    uses = [c for c in legal if isinstance(c, Use) and not _sacrifices_itself(state, c)]
    if uses:
        return uses[0]
    ends = [c for c in legal if isinstance(c, End)]
    return max(ends, key=lambda c: (sum(1 for r in c.patrol if r), rng.random()))


def _sacrifices_itself(state: Any, c: Use) -> bool:
    ab = activated.find(state, c.source, c.ability)
    return ab is not None and ab.cost.get("sacrifice") == "self"


def state_card(state: Any, ref: str) -> str:
    for zone in state.zones.values():
        for it in zone.items:
            if it.ref == ref:
                return it.card
    return ""


BOTS = {"random": random_bot, "greedy": greedy_bot}
