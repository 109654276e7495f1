"""What one seat may see of a Dark Agent game (the only place that decides it).

Everything is public except the equipment in the hands (each seat sees its
own; the others see how many) and the hidden decks (counts only). A vote
is shown as "voted" until every vote is in.
"""

from __future__ import annotations

import msgspec

from pbem.games.base import NeedsReveal, Outcome
from pbem.games.dark_agent import problems, readers
from pbem.games.dark_agent.editions import CURRENT, Edition
from pbem.games.dark_agent.state import (
    AREA_DECK,
    CELLS,
    EQ_DECK,
    EQ_DISCARD,
    KARA_SPY,
    NEUTRAL,
    State,
    active,
    card_at,
    cell_name,
    hand,
    known,
    spy_at,
    spy_level,
    spy_owner,
    taken,
)

PHASE_WORDS = {
    "deal": "dealing the area", "place": "placing satellites", "move": "phase 1: move satellites",
    "act": "phase 2: spotting and actions", "deploy": "deploying a spy", "jacket": "a spy is hit", "media": "Media: rearrange 3 cards",
    "vote": "UN peace phase: secret vote", "tally": "counting the votes", "over": "game over",
}


class CellView(msgspec.Struct, frozen=True):
    cell: str
    kind: str  # sentry, aim, kara, special, equipment, spy, empty
    label: str  # at most 11 characters
    card: str = ""
    spy: str = ""  # owner of the spy
    level: int = 0
    selected: bool = False
    tokens: int = 0
    protected: bool = False


class SeatView(msgspec.Struct, frozen=True):
    name: str
    number: int
    power: str
    score: int
    board: list[int]
    deployed: list[str]  # "5@C2"
    hand: list[str] | None  # the viewer's own equipment; None for others
    hand_count: int
    taken: list[str]
    super_left: bool
    double: bool
    last_aim: bool
    voted: bool


class View(msgspec.Struct, frozen=True):
    viewer: str | None
    round: int
    phase: str
    phase_words: str
    order: list[str]
    active: str
    to_act: list[str]
    target: int
    kara_needed: bool
    nuclear: int
    solo: bool
    cells: list[CellView]
    sats: list[list[int]]  # per line: seat numbers, 0 = neutral
    seats: list[SeatView]
    area_deck: int
    eq_deck: int
    eq_discard: int
    effects: list[str]
    turned: str
    last_roll: list[int]
    log: list[str]
    catalogue: str
    prompt: str = ""
    outcome: Outcome | None = None


PROMPTS = {
    "deal": "{who}: lay out the operation area from its shuffled deck (deal)",
    "place": "{who}: place a satellite (place LINE)",
    "move": "{who}: phase 1, move two satellites (move A>C B>D) or swap one (swap A C NAME)",
    "act": "{who}: spot cells, attack, use equipment, or end the turn",
    "deploy": "{who}: choose the empty cell for your spy (deploy CELL)",
    "jacket": "{who}: your spy is hit: jacket (a bulletproof jacket saves it) or jacket none",
    "media": "{who}: Media, rearrange three cards (media A1 B2 C3 > B2 C3 A1) or media pass",
    "vote": "UN vote ({who}): vote yes to shift the area, vote no to leave it",
}


def _prompt(state: State) -> str:
    if state.outcome is not None:
        who = ", ".join(state.outcome.winners) or "nobody"
        return f"Game over: {who} won"
    acting = readers.to_act(state)
    if not acting or state.phase not in PROMPTS:
        return ""
    return PROMPTS[state.phase].format(who=", ".join(acting))


def _short(text: str, n: int = 11) -> str:
    return text if len(text) <= n else text[: n - 1] + "."


def cell_view(state: State, cell: int, spies: dict[int, str] | None = None, edition: Edition = CURRENT) -> CellView:
    name = cell_name(cell)
    selected = cell in state.selected
    spy = spy_at(state, cell) if spies is None else spies.get(cell)
    if spy is not None:
        owner = spy_owner(spy)
        return CellView(name, "spy", _short(f"{owner[:8]}:{spy_level(spy)}"), spy=owner,
                        level=spy_level(spy), selected=selected)
    item = card_at(state, cell)
    if item is None:
        return CellView(name, "empty", "", selected=selected)
    card = known(item)
    if card is None:
        return CellView(name, "hidden", "face down", selected=selected)
    ix = readers.idx(state)
    fam = ix.family[card]
    e = ix.entry[card]
    tokens = state.tokens.get(item.ref, 0)
    if fam == "sentry":
        label = f"Sen {e.defence} L{e.level}"  # type: ignore[attr-defined]
    elif fam == "aim":
        label = f"AIM {e.defence}" + (f" +{tokens}" if tokens else "")  # type: ignore[attr-defined]
    elif fam == "kara":
        label = f"KARA {e.defence}"  # type: ignore[attr-defined]
    else:
        label = ix.name(card)
    return CellView(name, fam, _short(label), card=ix.name(card), selected=selected, tokens=tokens,
                    protected=fam == "aim" and _seen_protected(state, cell, edition))


def _seen_protected(state: State, cell: int, edition: Edition) -> bool:
    """Whether the AIM in `cell` is protected as far as the reader can
    tell: a neighbour face down to this reader (a card it has not seen)
    might be a sentry, and is not counted."""
    try:
        return problems.protected(state, active(state), cell, edition)
    except NeedsReveal:
        return False


def view(state: State, seat: str | None, edition: Edition = CURRENT) -> View:
    """What `seat` may see (None: an observer); `edition`: the game's rules
    version, which says which AIMs are protected."""
    ix = readers.idx(state)
    number = {s: i + 1 for i, s in enumerate(state.seats)}
    seats = []
    for s in state.seats:
        items = state.zones[hand(s)].items
        mine = [ix.name(known(it) or "") for it in items] if s == seat else None
        seats.append(SeatView(
            name=s, number=number[s], power=ix.power[state.power[s]].name, score=readers.score(state, s),
            board=[spy_level(x) for x in readers.board_spies(state, s)],
            deployed=sorted(f"{spy_level(x)}@{cell_name(c)}" for x, c in state.spy_cell.items()
                            if c >= 0 and spy_owner(x) == s),
            hand=mine, hand_count=len(items),
            taken=[ix.name(known(it) or "") for it in state.zones[taken(s)].items],
            super_left=state.super_left[s], double=state.double_holder == s, last_aim=state.last_aim == s,
            voted=s in state.votes,
        ))
    spies = {c: s for s, c in state.spy_cell.items() if c >= 0}
    turned = ""
    if state.turned:
        turned = "Kara" if state.turned == KARA_SPY else f"{spy_owner(state.turned)}:{spy_level(state.turned)}"
    return View(
        viewer=seat, round=state.round, phase=state.phase, phase_words=PHASE_WORDS.get(state.phase, state.phase),
        order=list(state.order), active=active(state), to_act=readers.to_act(state),
        target=state.target, kara_needed=state.kara_needed, nuclear=state.nuclear, solo=state.solo,
        cells=[cell_view(state, c, spies, edition) for c in range(CELLS)],
        sats=[[0 if o == NEUTRAL else number[o] for o in line] for line in state.sats],
        seats=seats,
        area_deck=len(state.zones[AREA_DECK].items), eq_deck=len(state.zones[EQ_DECK].items),
        eq_discard=len(state.zones[EQ_DISCARD].items),
        effects=[ix.name(c) for c in state.effects], turned=turned, last_roll=list(state.last_roll),
        log=list(state.log), catalogue=state.catalogue.name, prompt=_prompt(state), outcome=state.outcome,
    )
