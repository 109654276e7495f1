"""Dark Agent's attack: its bonus and the target's defence (the bots' odds
read them too), the one roll of its command, what a success or a failure
does (`attack`), and the hit spy's owner's answer, a bulletproof jacket
or none (`answer_hit`). Apart because it is the one rule that rolls inside
a command, and the rules editions differ on its failure (`editions`).
"""

from __future__ import annotations

from pbem.errors import IllegalCommand
from pbem.games.base import Chance, checked_if_visible, identity, own_zone, roll
from pbem.games.dark_agent.commands import Attack
from pbem.games.dark_agent.editions import Edition
from pbem.games.dark_agent.problems import level_at, target_kind
from pbem.games.dark_agent.readers import cell_card, family, idx, log, passive, turn_effects, turn_has
from pbem.games.dark_agent.state import (
    ACT, EQ_DISCARD, JACKET, State, card_at, cell_name, cell_zone, hand, spy_at, spy_level, spy_owner, taken,
)
from pbem.games.dark_agent.turn_end import finish_turn


def attack_dice(dice: list[int], fix: bool) -> list[int]:
    """The four attack dice after a Rocket launcher (the lowest becomes a 6)."""
    out = list(dice)
    if fix:
        out[out.index(min(out))] = 6
    return out


def attack_bonus(s: State, seat: str, cmd: Attack) -> int:
    """Everything added to the attack dice: spy levels (adrenaline again),
    passive and equipment bonuses, nuclear deterrence, investigation tokens."""
    total = 0
    for c in cmd.spies:
        lvl = level_at(s, c)
        spy = spy_at(s, c)
        total += lvl * (2 if spy is not None and spy in s.adrenaline else 1)
    total += sum(e.amount for e in passive(s, seat, "attack_bonus"))
    total += sum(e.amount for e in turn_effects(s) if e.kind == "attack_bonus")
    total += s.nuclear
    item = card_at(s, cmd.target)
    if item is not None:
        total += s.tokens.get(item.ref, 0)
    return total


def defence(s: State, seat: str, target: int) -> tuple[int, bool]:
    """The target's defence before any die, and whether a die is added."""
    spy = spy_at(s, target)
    if spy is not None:
        bonus = sum(e.amount for e in passive(s, spy_owner(spy), "spy_defence"))
        return idx(s).spy_defence[spy_level(spy)] + bonus, True
    card = cell_card(s, target)
    e = idx(s).entry[card]  # type: ignore[index]
    return e.defence, family(s, card) == "kara"  # type: ignore[attr-defined,arg-type]


def attack(s: State, seat: str, cmd: Attack, chance: Chance, edition: Edition) -> None:
    """Roll the attack. A failure ends the turn: against a sentry, an enemy
    spy or Kara it wounds the attacking spies (back to the board, unless
    impregnable); against an AIM it puts an investigation token on the AIM
    and wounds nobody (the rulebook's AIM passage; rules 1 wounded them too)."""
    kind = target_kind(s, seat, cmd.target)
    base, with_die = defence(s, seat, cmd.target)
    dice = roll(chance.public, 5 if with_die else 4, 6)  # the one roll of this command
    att = attack_dice(dice[:4], turn_has(s, "fix_die"))
    bonus = attack_bonus(s, seat, cmd)
    total = bonus + sum(att)
    need = base + (dice[4] if with_die else 0)
    four = len(set(att)) == 1
    ok = four or total >= need
    s.last_roll = dice
    ix = idx(s)
    what = f"spy {spy_at(s, cmd.target)}" if kind == "spy" else ix.name(cell_card(s, cmd.target) or "")
    log(s, f"{seat} attacks {what} in {cell_name(cmd.target)}: {bonus}+{'+'.join(map(str, att))}={total}"
        f" vs {need}{' (four of a kind)' if four else ''}: {'success' if ok else 'failure'}")
    if not ok:
        wounds = kind != "aim" or edition.aim_failure_wounds
        if wounds and not passive(s, seat, "impregnable"):
            for c in cmd.spies:
                spy = spy_at(s, c)
                if spy is not None and spy_owner(spy) == seat:
                    s.spy_cell[spy] = -1  # wounded: back to the board
        if kind == "aim":
            ref = card_at(s, cmd.target).ref  # type: ignore[union-attr]
            s.tokens[ref] = s.tokens.get(ref, 0) + 1
        s.media = False  # a failed attack loses Media
        finish_turn(s, chance)
        return
    if kind == "spy":
        victim = spy_at(s, cmd.target)
        if s.zones[hand(spy_owner(victim))].items:  # type: ignore[arg-type]
            s.phase, s.hit = JACKET, victim  # type: ignore[assignment]
        else:
            s.spy_cell[victim] = -1  # type: ignore[index]
        return
    item = own_zone(s, cell_zone(cmd.target)).items.pop()
    own_zone(s, taken(seat)).items.append(item)
    s.tokens.pop(item.ref, None)
    if kind == "aim":
        s.last_aim = seat


def answer_hit(s: State, owner: str, ref: str) -> None:
    """The hit spy's owner answers (`Jacket`): the jacket it names is shown
    and discarded and the spy stays; without one the spy goes back to its
    board. Only the owner sees its hand, so nobody else's file could say;
    "no jacket" while holding one is refused wherever the hand is known
    (the owner's own client, the dealer, the audit)."""
    items = s.zones[hand(owner)].items
    if ref:
        item = next((it for it in items if it.ref == ref), None)
        card = identity(item) if item is not None else ""
        if item is None or family(s, card) != "equipment" or idx(s).entry[card].effect.kind != "jacket":  # type: ignore[attr-defined]
            raise IllegalCommand("that card is not a bulletproof jacket in your hand")
        own_zone(s, hand(owner)).items.remove(item)
        own_zone(s, EQ_DISCARD).items.append(item)
        log(s, f"{owner}'s bulletproof jacket saves the spy")
    else:
        with checked_if_visible():
            for it in items:
                card = identity(it)
                if idx(s).entry[card].effect.kind == "jacket":  # type: ignore[attr-defined]
                    raise IllegalCommand("you hold a bulletproof jacket: it saves your spy (answer: jacket)")
        s.spy_cell[s.hit] = -1
        log(s, f"{owner}'s spy {spy_level(s.hit)} goes back to the board")
    s.phase, s.hit = ACT, ""
