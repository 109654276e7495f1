"""Dark Agent's small readers of a state: the catalogue's index, a seat's
power and AIMs, what a satellite reaches, the empty cells, the scores, and
who acts now (`to_act`). They change nothing but the log (`log`) and
import no other rules module, so that every other one (set-up, legal
commands, problems, apply, the attack, the turn's end), the view and the
bots read the state alike without an import cycle.
"""

from __future__ import annotations

from pbem.games.base import Hidden, identity
from pbem.games.dark_agent import catalogue as catmod
from pbem.games.dark_agent.catalogue import Effect
from pbem.games.dark_agent.state import (
    ACT, CELL_ZONES, CELLS_PER_LINE, DEAL, DEPLOY, JACKET, KARA_SPY, MEDIA, MOVE, NEUTRAL, OVER, PLACE, SLOTS, VOTE,
    State, active, card_at, spy_level, spy_owner, taken,
)

HAND_LIMIT = 3
LOG_LINES = 6


def idx(state: State) -> catmod.Index:
    return catmod.index(state.catalogue)


def family(state: State, card: str) -> str:
    return idx(state).family.get(card, "")


def cell_card(state: State, cell: int) -> str | None:
    item = card_at(state, cell)
    return identity(item) if item is not None else None


def sources(state: State, seat: str) -> list[tuple[str, Effect]]:
    """(source id, effect) of the seat's nation power and the AIMs it holds."""
    ix = idx(state)
    out = [(state.power[seat], ix.power[state.power[seat]].effect)]
    for it in state.zones[taken(seat)].items:
        card = identity(it)
        aim = ix.entry[card]
        if ix.family[card] == "aim" and aim.effect is not None:  # type: ignore[attr-defined]
            out.append((card, aim.effect))  # type: ignore[attr-defined]
    return out


def passive(state: State, seat: str, kind: str) -> list[Effect]:
    return [e for _, e in sources(state, seat) if e.kind == kind]


def hand_limit(state: State, seat: str) -> int:
    return max([HAND_LIMIT] + [e.amount for e in passive(state, seat, "equipment_limit")])


def turn_effects(state: State) -> list[Effect]:
    """Effects of the equipment used this turn (they last until its end)."""
    ix = idx(state)
    return [ix.entry[c].effect for c in state.effects]  # type: ignore[attr-defined]


def turn_has(state: State, kind: str) -> bool:
    return any(e.kind == kind for e in turn_effects(state))


def mine_on(state: State, seat: str, line: int, neutral: bool | None = None) -> int:
    """The seat's satellites over `line` (and the neutral ones with a
    use_neutral effect this turn; `neutral`: that effect, when known)."""
    own = state.sats[line].count(seat)
    if turn_has(state, "use_neutral") if neutral is None else neutral:
        own += state.sats[line].count(NEUTRAL)
    return own


def reach(state: State, seat: str, line: int, neutral: bool | None = None) -> int:
    """How many cells of `line` (from the satellites) the seat may select."""
    n = len(state.sats[line])
    return CELLS_PER_LINE if mine_on(state, seat, line, neutral) >= SLOTS else min(n, SLOTS)


def far_sources(state: State, seat: str) -> list[str]:
    return [s for s, e in sources(state, seat) if e.kind == "far_sight" and s not in state.powers_used]


def board_spies(state: State, seat: str) -> list[str]:
    return sorted((s for s, c in state.spy_cell.items() if c < 0 and spy_owner(s) == seat), key=spy_level)


def empty_cells(state: State) -> list[int]:
    """The cells holding neither a card nor a spy (`is_empty`), in order."""
    spies = set(state.spy_cell.values())
    zones = state.zones
    return [c for c, name in enumerate(CELL_ZONES) if not zones[name].items and c not in spies]


def can_deploy(state: State, seat: str) -> bool:
    return bool(board_spies(state, seat)) and bool(empty_cells(state))


def holder_spy_level(state: State, spy: str) -> int:
    return state.catalogue.kara.level if spy == KARA_SPY else spy_level(spy)


def log(state: State, line: str) -> None:
    state.log = (state.log + [line])[-LOG_LINES:]


def aims_taken(state: State) -> int:
    return sum(
        1 for s in state.seats for it in state.zones[taken(s)].items if family(state, identity(it)) == "aim"
    )


def kara_taker(state: State) -> str | None:
    kara = state.catalogue.kara.id
    for s in state.seats:
        if any(identity(it) == kara for it in state.zones[taken(s)].items):
            return s
    return None


def score(state: State, seat: str) -> int:
    ix = idx(state)
    total = state.catalogue.last_aim_bonus if state.last_aim == seat else 0
    for it in state.zones[taken(seat)].items:
        e = ix.entry[identity(it)]
        total += getattr(e, "points", None) or getattr(e, "level", 0)
    total += sum(spy_level(s) for s, c in state.spy_cell.items() if c >= 0 and spy_owner(s) == seat)
    return total


def area_face_down(state: State) -> bool:
    """A card lies in the area that is not face up yet: it was just laid out
    (`deal`, a refill) and its reveal is still travelling. Nobody decides
    until it is in, so nobody chooses without seeing the area (in a peer
    game several seats take their layers off, one file each)."""
    zones = state.zones
    for name in CELL_ZONES:
        for it in zones[name].items:
            if type(it) is Hidden:
                return True
    return False


def to_act(state: State) -> list[str]:
    if state.phase != OVER and area_face_down(state):
        return []
    if state.phase == DEAL:  # the first to place a satellite lays out the area
        return state.to_place[:1] or state.seats[-1:]
    if state.phase == PLACE:
        return state.to_place[:1]
    if state.phase == JACKET:
        return [spy_owner(state.hit)]
    if state.phase in (MOVE, ACT, DEPLOY, MEDIA):
        return [active(state)]
    if state.phase == VOTE:
        return [s for s in state.seats if s not in state.votes]
    return []


def simultaneous(state: State) -> list[str]:
    return to_act(state) if state.phase == VOTE else []
