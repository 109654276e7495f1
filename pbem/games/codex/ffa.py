"""Free-for-all (rulebook, "Free-for-all (3-5 Players)"): the rules a game
of 3 to 5 seats adds to the 1-hero game.

* Set-up: the first seat has 4 workers, the others 5 (`setup.setup`); the
  third, fourth and fifth seats get 1, 2 and 3 Mercenaries (1/1 neutral
  tech 0 tokens, without haste) in their first upkeep (`mercenaries`).
* Any opponent may be attacked or targeted: each one's patrol zone guards
  only its own things (`combat`); commands name the side by seat
  (``carol:base``).
* Repairs: a base heals 1 damage for 3 gold, any number of times a turn
  (the ``repair N`` command, `repair`).
* Free gold: the active seat gets 1 gold for each enemy unit it kills on
  its turn, at most 3 a turn (`killed`). A kill is a unit or token of
  another seat that dies on the active seat's turn from damage or a
  destroy or sacrifice effect; one that fades away or dies from being an
  illusion targeted is no kill (our reading).
* Lending patrollers: after its main phase a seat may place its ready
  units and heroes in any open slot of another seat's patrol zone (the
  ``end`` command's ``lend=``); that seat controls them until its next
  upkeep (`turn.end_turn`). One that dies goes to its owner's discard pile, and its
  scavenger or technician bonus goes to the lender (`engine.die`).
* The end: when a base is destroyed, the seats whose bases have the most
  HP win (`base_destroyed`). Tied seats each take one more turn, in turn
  order after the active seat (our reading: the turn in which the base
  fell is played to its end first), and then the one of them with the most
  base HP wins; a tie again repeats this among those still tied
  (`next_turn`). Extra turns are not taken meanwhile.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand
from pbem.games.base import Outcome
from pbem.games.codex import board, cards, resources
from pbem.games.codex.board import log
from pbem.games.codex.state import OVER, State, next_seat

FFA = "ffa"
REPAIR_COST: int = cards.FFA["repair_cost"]
KILL_GOLD_MAX: int = cards.FFA["kill_gold_max"]
#: how many Mercenaries each seat (in turn order) gets at its first upkeep
MERCENARIES: tuple[int, ...] = tuple(cards.FFA["mercenaries"])
MERCENARY: str = cards.FFA["mercenary"]


def mercenaries(state: State, seat: str) -> int:
    """How many Mercenaries `seat` gets in this upkeep (its first, a later seat)."""
    if state.mode != FFA or state.players[seat].turns != 1:
        return 0
    return MERCENARIES[state.seats.index(seat)]


def killed(state: State, victim_controller: str) -> None:
    """An enemy unit of the active seat died on its turn: 1 gold, at most 3 a turn."""
    seat = state.active
    if state.mode != FFA or victim_controller == seat or state.kill_gold >= KILL_GOLD_MAX:
        return
    state.kill_gold += 1
    resources.gain_gold(state, seat, 1)
    log(state, f"{seat} gets 1 gold for the kill")


def base_hp(state: State, seat: str) -> int:
    return cards.BASE_HP - state.players[seat].base_damage


def repair(state: State, seat: str, n: int) -> None:
    """`seat` pays 3 gold for each point of damage its base loses (mutates)."""
    if state.mode != FFA:
        raise IllegalCommand("only a free-for-all base can be repaired (mode=ffa)")
    p = state.players[seat]
    if n < 1:
        raise IllegalCommand("repair at least 1 damage")
    if n > p.base_damage:
        raise IllegalCommand(f"your base has {p.base_damage} damage to repair")
    if REPAIR_COST * n > p.gold:
        raise IllegalCommand(f"repairing {n} costs {REPAIR_COST * n} gold; you have {p.gold}")
    p.gold -= REPAIR_COST * n
    p.base_damage -= n
    log(state, f"{seat} repairs {n} damage of its base for {REPAIR_COST * n} gold")


def base_destroyed(state: State, dead: list[str]) -> None:
    """A base fell: the seats with the most base HP win, or, tied, each
    takes one more turn (mutates). Once the tie-break has begun, a further
    base falling changes nothing until its round ends."""
    if state.finalists:
        return
    log(state, f"{' and '.join(dead)}'s base is destroyed")
    _decide(state, [s for s in state.seats if s not in dead], "base destroyed: " + ", ".join(dead))


def _decide(state: State, among: list[str], why: str) -> None:
    best = max((base_hp(state, s) for s in among), default=0)
    leaders = [s for s in among if base_hp(state, s) == best]
    if len(leaders) == 1 or not leaders:
        state.phase = OVER
        state.outcome = Outcome(winners=leaders, reason=f"{why}; most base HP: {best}")
        state.queue, state.fresh, state.prompt = [], [], None
        return
    state.finalists = leaders
    state.final_turns = _after(state, state.active, leaders)
    log(state, f"tied at {best} base HP: {', '.join(leaders)} each take one more turn")


def _after(state: State, seat: str, among: list[str]) -> list[str]:
    """`among` in turn order starting after `seat` (`seat` last, if in it)."""
    out, s = [], seat
    for _ in state.seats:
        s = next_seat(state, s)
        if s in among:
            out.append(s)
    return out


def next_turn(state: State, seat: str) -> str | None:
    """Whose turn follows `seat`'s during a tie-break, or None (no
    tie-break: the usual order). Decides the game when the last tied seat
    has had its turn (mutates)."""
    if not state.finalists:
        return None
    state.extra_turns = []
    if not state.final_turns:
        tied = state.finalists
        state.finalists = []
        _decide(state, tied, "tie-break after the last turns")
        if state.phase == OVER:
            return None
    return state.final_turns.pop(0)


def check_lend(state: State, seat: str, lent: list[tuple[str, str, int]], own: list[str]) -> None:
    """Refuse a loan the rules do not allow, naming the rule."""
    if lent and state.mode != FFA:
        raise IllegalCommand("only a free-for-all lets you lend patrollers (mode=ffa)")
    seen: set[tuple[str, int]] = set()
    for ref, to, slot in lent:
        if to == seat or to not in state.seats:
            raise IllegalCommand("lend= places a patroller in another player's patrol zone")
        if not 0 <= slot < len(cards.SLOTS) or ref not in state.things:
            raise IllegalCommand("lend= names one of your units or heroes and a slot of the patrol zone")
        if ref in own or sum(1 for r, _, _ in lent if r == ref) > 1:
            raise IllegalCommand(f"{board.name_of(state, ref)} can patrol in one place only")
        if (to, slot) in seen or state.patrol[to][slot]:
            raise IllegalCommand(f"{to}'s {cards.SLOTS[slot]} slot is not open")
        seen.add((to, slot))
