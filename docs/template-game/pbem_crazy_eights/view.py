"""What a seat may see, and its text picture.

`view` is the only function that decides what a reader sees: its own hand
and what lies face up, the other hands as counts. `render` draws a view,
never the state, so it cannot show more than the view holds.
"""

from __future__ import annotations

import msgspec

from pbem.games.base import Known, fit_lines

from pbem_crazy_eights import cards
from pbem_crazy_eights.rules import DECK, DISCARD, State, hand, suit_to_follow, to_act


class View(msgspec.Struct, frozen=True):
    reader: str | None
    #: the reader's hand (None for an observer or a seat not at the table)
    hand: list[str] | None
    #: every seat's number of cards, in turn order
    counts: dict[str, int]
    top: str
    suit: str
    deck: int
    discard: int
    to_act: list[str]
    #: the card the reader drew this turn, if it may still play it
    drawn: str | None
    winners: list[str] | None
    reason: str


def view(state: State, reader: str | None) -> View:
    mine = state.zones[hand(reader)].items if reader in state.seats else None
    drawn = next((it.card for it in mine or [] if it.ref == state.drawn and isinstance(it, Known)), None)
    top = next(iter(state.zones[DISCARD].items), None)
    return View(
        reader=reader,
        hand=None if mine is None else sorted((it.card for it in mine if isinstance(it, Known)), key=cards.in_hand_order),
        counts={seat: len(state.zones[hand(seat)].items) for seat in state.seats},
        top=top.card if isinstance(top, Known) else "-",
        suit=suit_to_follow(state) if top is not None else "",
        deck=len(state.zones[DECK].items),
        discard=len(state.zones[DISCARD].items),
        to_act=to_act(state),
        drawn=drawn,
        winners=state.winners,
        reason=state.reason,
    )


def render(v: View) -> str:
    named = "" if v.top[-1:] == v.suit or not v.suit else f" (an eight: {cards.SUITS[v.suit]} to follow)"
    lines = [
        "Crazy Eights",
        f"top of the discard pile: {v.top}{named}; {v.discard} card(s) in that pile",
        f"draw pile: {v.deck} card(s)",
        "hands: " + ", ".join(f"{seat} {n}" for seat, n in v.counts.items()),
    ]
    if v.hand is not None:
        lines.append("your hand: " + (" ".join(v.hand) or "-"))
    if v.drawn is not None:
        lines.append(f"you drew {v.drawn}: play it if it fits, or pass")
    if v.winners is not None:
        lines.append(f"over: {', '.join(v.winners)} won ({v.reason})")
    else:
        lines.append("to act: " + ", ".join(v.to_act))
    return "\n".join(fit_lines(lines))
