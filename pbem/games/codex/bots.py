"""Codex bots: `random` (uniform among the legal commands, with a lean
towards attacking and ending so that games finish) and `greedy` (hire,
build, summon and level, play the dearest card it can, attack the weakest
reachable thing, the base when it can, patrol with everything ready).

The greedy bot aims what it plays and uses by what the card's data does
to each target (`_aim`): effects that hurt go to the opponent's things,
the others to its own; a choice that would do the reverse is left out.

Among several opponents (a free-for-all) it attacks the base with the
most HP first, never destroys a base unless its own would then be the
one with the most HP (the game ends there: rulebook, "Lending
Patrollers"), and repairs its base with the gold it has left."""

from __future__ import annotations

import random
from typing import Any

from pbem.games.codex import activated, board, cards, ffa, values
from pbem.games.codex.commands import Attack, Build, End, Hire, Level, Play, Repair, Summon, Tech, Use
from pbem.games.codex.state import TECH, team_of


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
    """Lower first: bases (the healthiest first), other buildings, then the
    weakest units."""
    if board.is_building(target):
        if target.endswith(":base"):
            return (0, -ffa.base_hp(state, board.controller(state, target)))
        return (1, 0)
    return (2, values.hp(state, target) - state.things[target].damage)


def _ends_badly(state: Any, seat: str, c: Attack) -> bool:
    """Would this attack destroy a base while `seat`'s would not then have
    the most HP (a free-for-all ends with that base)?"""
    if state.mode != ffa.FFA or not c.target.endswith(":base"):
        return False
    victim = board.controller(state, c.target)
    if values.atk(state, c.attacker) < ffa.base_hp(state, victim):
        return False
    mine = ffa.base_hp(state, seat)
    return any(ffa.base_hp(state, s) >= mine for s in state.seats if s not in (seat, victim))


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
        return rng.choice(units if units and rng.random() < 0.6 else techs)
    p = state.players[seat]
    for kind in (Hire, Summon):
        cmds = [c for c in legal if isinstance(c, kind)]
        if cmds:
            return cmds[0]
    builds = [c for c in legal if isinstance(c, Build) and c.building in cards.TECH_BUILDINGS]
    if builds:
        return max(builds, key=lambda c: _spec_worth(state, seat, c.specs))
    plays = [c for c in legal if isinstance(c, Play) and _aim(state, seat, c) >= 0]
    if plays:
        return max(plays, key=lambda c: (cards.CARDS[state_card(state, c.ref)].cost, _aim(state, seat, c),
                                         c.choices.boost, rng.random()))
    attacks = [c for c in legal if isinstance(c, Attack) and not _ends_badly(state, seat, c)]
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
    # an ability paid with cards of the hand (Calamandra Moss's stealth) is
    # not worth them to this bot
    uses = [c for c in legal if isinstance(c, Use) and not c.choices.pay and not _sacrifices_itself(state, c)
            and _aim(state, seat, c) >= 0]
    if uses:
        return max(uses, key=lambda c: _aim(state, seat, c))
    repairs = [c for c in legal if isinstance(c, Repair)]
    if repairs:
        return max(repairs, key=lambda c: c.n)
    ends = [c for c in legal if isinstance(c, End) and not c.lend]
    return max(ends, key=lambda c: (sum(1 for r in c.patrol if r), rng.random()))


#: effects that hurt what they land on
_HURTS = {"damage", "split_damage", "destroy", "sacrifice", "trash", "transform", "take", "sideline", "disable",
          "exhaust", "bounce", "trash_worker", "steal", "remove_counter"}


def _hurts(e: dict[str, Any]) -> bool:
    name = next(iter(e))
    if name in ("runes", "give"):
        amount = e[name]
        if isinstance(amount, dict):
            amount = amount.get("atk", amount.get("unit", 0)) + amount.get("hp", 0)
        return amount < 0
    return name in _HURTS


def _mentions(value: Any, slot: str) -> bool:
    if isinstance(value, str):
        return value == slot or value == f"base:{slot}"
    if isinstance(value, dict):
        return any(_mentions(v, slot) for k, v in value.items() if k not in ("only", "if"))
    if isinstance(value, list):
        return any(_mentions(v, slot) for v in value)
    return False


def _flat(effects: list[Any]) -> list[dict[str, Any]]:
    out = []
    for e in effects:
        out.append(e)
        if "if" in e:
            out += _flat(e.get("then", []) + e.get("else", []))
    return out


def _aim(state: Any, seat: str, c: Any) -> int:
    """How well a play or use aims: +1 for each target that the effects
    naming it help and that is its own, or hurt and that is not; -1 for
    the reverse. Cards of its codex or hand count as its own."""
    if isinstance(c, Play):
        card = cards.CARDS[state_card(state, c.ref)]
        if card.type != "spell":
            abilities = [ab for ab in card.face.triggers.get("arrives", ()) if ab.targets]
            effects = [e for ab in abilities for e in ab.do]
        else:
            modes = card.raw.get("modes") or []
            effects = list(card.do) + [e for m in c.choices.modes for e in modes[m]]
    else:
        ab = activated.find(state, c.source, c.ability)
        effects = list(ab.do) if ab is not None else []
    effects = _flat(effects)
    score = 0
    for i, t in enumerate(c.targets):
        if not t:
            continue
        slot = f"t{i}"
        naming = [e for e in effects if _mentions(e, slot)]
        if not naming:
            continue
        hurt = any(_hurts(e) for e in naming)
        mine = board.controller(state, t) in team_of(state, seat) if (board.is_structure(t) or t in state.things) \
            else True
        score += 1 if mine != hurt else -1
    return score


def _spec_worth(state: Any, seat: str, specs: list[str]) -> int:
    """How many of its own cards out of the codex (hand, discard pile and
    draw pile, those it can read) a tech II building of `specs` would let
    it play: the spec it declares in 3-hero mode."""
    own = [it.card for z in ("hand", "discard", "deck") for it in state.zones[f"{z}:{seat}"].items
           if getattr(it, "card", None)]
    return sum(1 for name in own if cards.CARDS[name].tech >= 2 and cards.CARDS[name].spec in specs)


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
