"""The one-line notation players type, and the log's words.

``play 7h``, ``play 8s hearts`` (an eight names the suit to follow),
``draw``, ``pass``. Cards are named as in `cards`; a player types the
card, the command carries its ref (what the protocol moves), so `parse`
reads the seat's own state to find it. `describe` is what a log shows any
reader: it names a card only where the state it is given shows it.
"""

from __future__ import annotations

from pbem.games.base import InvalidCommand, Known

from pbem_crazy_eights import cards
from pbem_crazy_eights.rules import Command, Draw, Pass, Play, State, hand

HELP = "play CARD [SUIT], draw, pass (e.g. play 7h, play 8s hearts)"


def _card_of(state: State, ref: str) -> str | None:
    """The card under `ref` where `state` shows it, else None."""
    for zone in state.zones.values():
        for it in zone.items:
            if it.ref == ref:
                return it.card if isinstance(it, Known) else None
    return None


def format_command(command: Command, state: State, seat: str) -> str:
    if isinstance(command, Play):
        card = _card_of(state, command.ref) or command.ref
        return f"play {card}" + (f" {cards.SUITS[command.suit]}" if command.suit else "")
    return "draw" if isinstance(command, Draw) else "pass"


def parse_command(text: str, state: State, seat: str) -> Command:
    words = text.lower().split()
    if words in (["draw"], ["pass"]):
        return Draw() if words == ["draw"] else Pass()
    if words and words[0] == "play" and len(words) in (2, 3):
        wanted = cards.read_card(words[1])
        for it in state.zones[hand(seat)].items:
            if words[1] == it.ref or (wanted is not None and isinstance(it, Known) and it.card == wanted):
                break
        else:
            raise InvalidCommand(f"no {words[1]} in {seat}'s hand")
        if len(words) == 2:
            return Play(it.ref)
        suit = cards.read_suit(words[2])
        if suit is None:
            raise InvalidCommand(f"{words[2]!r} is not a suit (clubs, diamonds, hearts, spades)")
        return Play(it.ref, suit)
    raise InvalidCommand(f"not a Crazy Eights command: {text!r} ({HELP})")


def describe_command(command: Command, state: State, seat: str | None) -> str:
    if isinstance(command, Play):
        card = _card_of(state, command.ref)
        said = cards.spoken(card) if card else "a card"
        return f"plays {said}" + (f", naming {cards.SUITS[command.suit]}" if command.suit else "")
    return "draws a card" if isinstance(command, Draw) else "passes"
