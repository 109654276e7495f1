"""What a seat may see of a Codenames Duet game, and its terminal picture.

A player sees their own side of the key (zone ``key-a`` or ``key-b``, while
the state at hand knows it) and, like everyone, every colour revealed by a
guess (zones ``open-a`` / ``open-b``). So a player never sees the partner's
side, except the cells the partner's clues made public; an observer sees
only what is public. Each cell shows:

* ``mine``: the colour on the viewer's own side (None for an observer, or a
  cell the state does not know);
* ``found``: found as an agent (on either side);
* ``bystander``: the sides on which a guess showed it a bystander.

Picture marks: ``[G]`` found agent; ``g`` ``n`` ``x`` your side's agent,
bystander, assassin; ``~a`` / ``~b`` a bystander for side a / b.
"""

from __future__ import annotations

import msgspec

from pbem.games.base import fit_lines

from pbem.games.codenames.duet import (
    AGENTS_TO_FIND,
    BYSTANDER,
    SIDES,
    found_cells,
    guesses_left,
    key_zone,
    opened,
    other_side,
    ref_cell,
    seat_of,
    side_of,
    to_act,
)
from pbem.games.codenames.state import CLUE, GUESS, OVER, RESOLVE, SUDDEN, State, known_colour


class DuetCell(msgspec.Struct, kw_only=True):
    index: int
    row: int
    col: int
    word: str
    found: bool
    mine: str | None
    bystander: list[str]


class DuetTurn(msgspec.Struct, kw_only=True):
    side: str  # whose side of the key the guesses were for (the clue giver's)
    clue: str  # "" for sudden-death guesses
    number: int | str
    guesses: list[str]
    end: str


class DuetOutcome(msgspec.Struct, kw_only=True):
    winners: list[str]
    reason: str
    scores: dict[str, int] | None = None


class DuetView(msgspec.Struct, kw_only=True):
    """A Duet view (an observer's when `viewer` is None)."""

    game: str = "codenames"
    variant: str = "duet"
    viewer: str | None
    side: str | None  # the viewer's side of the key
    language: str
    seats: dict[str, str]  # side -> seat
    timer: int  # timer tokens left in the time bank
    found: int
    to_find: int
    giver: str  # the side whose words are being clued (or guessed, in sudden death)
    phase: str
    done: list[str]
    to_act: list[str]
    prompt: str
    guess_cap: str
    guesses_left: int | None
    pending: list[str]
    cells: list[DuetCell]
    turn: DuetTurn | None
    history: list[DuetTurn]
    outcome: DuetOutcome | None


def _turn(t) -> DuetTurn:
    return DuetTurn(side=t.team, clue=t.word, number=t.number, guesses=list(t.guesses), end=t.end)


def _prompt(state: State) -> str:
    waiting = to_act(state)
    who = waiting[0] if waiting else ""
    side = state.team
    turn = state.history[-1] if state.history else None
    if state.phase == CLUE:
        return f"{who} (side {side}) gives a clue"
    if state.phase == GUESS and turn is not None:
        return f"{who} (side {other_side(side)}) guesses for the clue {turn.word!r} {turn.number}"
    if state.phase == SUDDEN:
        return f"sudden death: {who} guesses an agent of side {side} (any miss loses), or passes to give up on it"
    if state.phase == RESOLVE:
        return "the guesses are being revealed (the clue giver's or the dealer's next file)"
    if state.phase == OVER and state.outcome is not None:
        return f"game over: {state.outcome.reason}"
    return ""


def build_view(state: State, seat: str | None) -> DuetView:
    side = side_of(state, seat)
    mine: dict[int, str | None] = {}
    if side is not None and state.zones[key_zone(side)].may_see(seat or ""):
        for it in state.zones[key_zone(side)].items:
            mine[ref_cell(it.ref)] = known_colour(it)
        mine.update(opened(state, side))
    found = set(found_cells(state))
    open_by_side = {s: opened(state, s) for s in SIDES}
    cells = [
        DuetCell(
            index=i, row=i // 5, col=i % 5, word=w, found=i in found,
            mine=mine.get(i),
            bystander=[s for s in SIDES if open_by_side[s].get(i) == BYSTANDER],
        )
        for i, w in enumerate(state.words)
    ]
    out = state.outcome
    return DuetView(
        viewer=seat,
        side=side,
        language=state.language,
        seats={s: seat_of(state, s) for s in SIDES},
        timer=state.timer,
        found=len(found),
        to_find=AGENTS_TO_FIND,
        giver=state.team,
        phase=state.phase,
        done=list(state.done),
        to_act=to_act(state),
        prompt=_prompt(state),
        guess_cap=state.guess_cap,
        guesses_left=guesses_left(state) if state.phase in (GUESS, RESOLVE) else None,
        pending=[state.words[c] for c in state.pending],
        cells=cells,
        turn=_turn(state.history[-1]) if state.history else None,
        history=[_turn(t) for t in state.history],
        outcome=DuetOutcome(winners=list(out.winners), reason=out.reason, scores=out.scores) if out else None,
    )


#: what a cell's label line says, in words (never a lone letter)
FOUND_LABEL = "[AGENT FOUND]"
KEY_LABEL = {"agent": "agent", "bystander": "bystander", "assassin": "!!ASSASSIN!!"}


def _cell_lines(cell: DuetCell, height: int) -> list[str]:
    """The word (wrapped in its cell), the sides for which a guess found a
    bystander, and the label: found, or the viewer's own side of the key."""
    from pbem.games.codenames.render import wrap_word

    words = wrap_word(cell.word)
    marks = "bystander " + "+".join(cell.bystander) if cell.bystander else ""
    label = FOUND_LABEL if cell.found else KEY_LABEL.get(cell.mine or "", "")
    return words + [""] * (height - 2 - len(words)) + [marks, label]


def render(view: DuetView) -> str:
    from pbem.games.codenames.render import boxed_grid, footer_lines, wrap_word

    who = view.viewer or "observer"
    side = f" (side {view.side})" if view.side else ""
    lines = [
        f"Codenames Duet, {view.language}: {who}{side}",
        f"agents found {view.found}/{view.to_find} . timer tokens left {view.timer}"
        + (f" . done: {', '.join(view.done)}" if view.done else ""),
    ]
    rows = []
    for row in range(5):
        cells = view.cells[row * 5 : row * 5 + 5]
        height = max(len(wrap_word(c.word)) for c in cells) + 2
        rows.append([_cell_lines(c, height) for c in cells])
    lines += boxed_grid(rows)
    if view.side:
        lines.append(f"your side ({view.side}) of the key: agent, bystander, !!ASSASSIN!!; [AGENT FOUND]: found")
    else:
        lines.append("[AGENT FOUND]: found; 'bystander a+b': a guess for that side hit a bystander")
    lines.append(f"side a: {view.seats['a']}; side b: {view.seats['b']}")
    if view.turn is not None:
        t = view.turn
        text = f"side {t.side} clue: {t.clue} {t.number}" if t.clue else f"sudden death, side {t.side}"
        if t.guesses:
            text += " -> " + ", ".join(t.guesses)
        if t.end:
            text += f" [{t.end}]"
        lines.append(text)
    lines += footer_lines(view)
    return "\n".join(fit_lines(lines))


#: a compact cell's mark (`pbem play`): found, or the viewer's own side
COMPACT_MARK = {"agent": "g", "bystander": "n", "assassin": "X!"}


def compact(view: DuetView) -> str:
    """The grid in five lines (a word and its mark per cell) and the clue."""
    from pbem.games.codenames.render import compact_word

    lines = [f"agents found {view.found}/{view.to_find}; timer tokens left {view.timer}; "
             f"side a: {view.seats['a']}, side b: {view.seats['b']}"]
    for row in range(5):
        cells = view.cells[row * 5 : row * 5 + 5]
        lines.append(" ".join(compact_word(c.word, compact_mark(c)) for c in cells).rstrip())
    lines.append("[G]: found; ~a ~b: a bystander for side a, b"
                 + (f"; g n X!: your side ({view.side}) of the key" if view.side else ""))
    if view.turn is not None:
        t = view.turn
        text = f"side {t.side} clue: {t.clue} {t.number}" if t.clue else f"sudden death, side {t.side}"
        lines.append(text + (" -> " + ", ".join(t.guesses) if t.guesses else "") + (f" [{t.end}]" if t.end else ""))
    return "\n".join(fit_lines(lines))


def compact_mark(cell: DuetCell) -> str:
    if cell.found:
        return "[G]"
    return COMPACT_MARK.get(cell.mine or "", "") + "".join(f"~{s}" for s in cell.bystander)
