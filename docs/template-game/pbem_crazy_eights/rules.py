"""The rules of Crazy Eights as pure functions of (state, command, chance).

Nothing here reads a clock, a file or a global random generator: the same
functions run in each player's client, in a referee, in a replay and in the
end-of-game audit. `__init__` builds the game object from them.

Where the cards are (every card is an item in a `Zone`, see
`pbem.games.base`):

- ``deck``: the draw pile, face down, read by nobody (its order is the
  dealer's secret; in a peer game, the mental-poker deck's);
- ``hand:<seat>``: a seat's hand, read by that seat alone;
- ``discard``: the discard pile, face up, public; its first item is the top.

A card's identity is read with `identity()`, which raises `NeedsReveal`
on a card the holder of the state may not see. A played card goes face up,
so its writer reveals it and every verifier reads it. The one check that
needs a seat's hidden hand ("you may draw only when you cannot play") runs
inside `checked_if_visible()`: the writer, the dealer and the audit make
it; the public state skips it.
"""

from __future__ import annotations

import msgspec

from pbem.games.base import (
    Chance,
    GameState,
    IllegalCommand,
    InvalidOption,
    Known,
    Outcome,
    SeatSpec,
    Zone,
    checked_if_visible,
    copy_struct,
    identity,
    shuffle_zone,
)

from pbem_crazy_eights import cards

DECK = "deck"
DISCARD = "discard"


def hand(seat: str) -> str:
    return f"hand:{seat}"


# --- options, state, commands ----------------------------------------------------


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: cards dealt to each seat; 0: the usual, 7 for two players, 5 for more
    hand: int = 0


class State(GameState, kw_only=True):
    seats: list[str]
    #: index in `seats` of the seat whose turn it is
    turn: int = 0
    #: the suit the eight on top named (None: follow the top card's own
    #: suit). Not the top card's suit copied here at set-up: the starter
    #: comes from the secret shuffle, and every verifier rebuilds the
    #: public set-up without it, so the state may hold it only as a card
    named: str | None = None
    #: the ref the seat to act drew this turn (it may play that card or pass)
    drawn: str | None = None
    winners: list[str] | None = None
    reason: str = ""


class Play(msgspec.Struct, frozen=True, tag="c8.play", tag_field="t"):
    """Play a card of one's hand onto the discard pile; an eight names the
    suit to follow (`suit`, a letter of `cards.SUITS`), any other card none."""

    ref: str
    suit: str | None = None


class Draw(msgspec.Struct, frozen=True, tag="c8.draw", tag_field="t"):
    """Draw the top card of the draw pile (allowed only with no card to play)."""


class Pass(msgspec.Struct, frozen=True, tag="c8.pass", tag_field="t"):
    """End the turn without playing: after a draw, or when nothing can be drawn."""


Command = Play | Draw | Pass


# --- set-up ----------------------------------------------------------------------------


def hand_size(options: Options, players: int) -> int:
    return options.hand or (7 if players == 2 else 5)


def check_table(options: Options, players: int) -> None:
    """Refuse a deal that does not fit the deck (a card must be left to turn up)."""
    size = hand_size(options, players)
    if size < 1 or size * players + 1 > len(cards.full_deck()):
        raise InvalidOption(f"hand={options.hand} does not fit {players} players and 52 cards")


def setup(options: Options, seats: list[SeatSpec], chance: Chance) -> State:
    """Shuffle and deal each seat its hand; `advance` then turns the starter.

    Refs are given after the shuffle, by position, so a ref says nothing of
    its card; which refs are hidden, and in which hand, depends on the
    number of seats only (a peer game finds so, and shuffles its deck at
the joins, one file sooner). The first
    seat starts: no public chance is needed. The discard pile starts empty:
    a peer game cannot show a card at set-up (every seat's layer of the
    shuffled deck is on it), so the starter is turned by `advance`, the
    first automatic step, as any card turned face up in play."""
    names = [s.name for s in seats]
    check_table(options, len(names))
    shuffled = chance.shuffle(cards.full_deck())
    items = [Known(f"c{i:02d}", card) for i, card in enumerate(shuffled)]
    size = hand_size(options, len(names))
    zones = {hand(seat): Zone(items=items[k * size:(k + 1) * size], readers=[seat]) for k, seat in enumerate(names)}
    zones[DISCARD] = Zone(public=True)
    zones[DECK] = Zone(items=items[size * len(names):])
    return State(zones=zones, next_ref=len(items), seats=names)


def advance(state: State, chance: Chance) -> State:
    """The step that needs no decision: the starter, the draw pile's top
    card turned face up to begin the discard pile (once: the pile is never
    empty again)."""
    if state.zones[DISCARD].items:
        return state
    s = copy_struct(state)
    s.zones[DISCARD].items.append(s.zones[DECK].items.pop(0))
    return s


# --- play ---------------------------------------------------------------------------------


def to_act(state: State) -> list[str]:
    if state.winners is not None or not state.zones[DISCARD].items:
        return []
    return [state.seats[state.turn]]


def top(state: State) -> str:
    return identity(state.zones[DISCARD].items[0])


def suit_to_follow(state: State) -> str:
    return state.named or cards.suit(top(state))


def playable(state: State, card: str) -> bool:
    """An eight always; otherwise a card of the suit to follow or of the top card's rank."""
    return (cards.rank(card) == cards.WILD or cards.suit(card) == suit_to_follow(state)
            or cards.rank(card) == cards.rank(top(state)))


def can_draw(state: State) -> bool:
    """A card is left to draw: in the pile, or under the top of the discard pile."""
    return bool(state.zones[DECK].items) or len(state.zones[DISCARD].items) > 1


def plays_of(state: State, card: str, ref: str) -> list[Play]:
    """The commands that play this card: one per suit for an eight."""
    if cards.rank(card) == cards.WILD:
        return [Play(ref, letter) for letter in cards.SUITS]
    return [Play(ref)]


def legal(state: State, seat: str) -> list[Command]:
    """What `seat` may do, from what it sees (its own hand and the table)."""
    if seat not in to_act(state):
        return []
    items = state.zones[hand(seat)].items
    if state.drawn is not None:
        drawn = next(it for it in items if it.ref == state.drawn)
        card = identity(drawn)
        return [*(plays_of(state, card, drawn.ref) if playable(state, card) else []), Pass()]
    plays = [p for it in items if playable(state, identity(it)) for p in plays_of(state, identity(it), it.ref)]
    if plays:
        return plays
    return [Draw()] if can_draw(state) else [Pass()]


def apply(state: State, seat: str, command: Command, chance: Chance) -> State:
    """The state after `seat` makes `command`; `IllegalCommand` if it may not.
    Never changes `state` (works on a copy)."""
    if seat not in to_act(state):
        raise IllegalCommand(f"it is not {seat}'s turn")
    s = copy_struct(state)
    if isinstance(command, Play):
        return _play(s, seat, command)
    if isinstance(command, Draw):
        return _draw(s, seat, chance)
    if isinstance(command, Pass):
        return _pass(s, seat)
    raise IllegalCommand(f"not a Crazy Eights command: {command!r}")


def _play(s: State, seat: str, command: Play) -> State:
    items = s.zones[hand(seat)].items
    at = next((k for k, it in enumerate(items) if it.ref == command.ref), None)
    if at is None:
        raise IllegalCommand(f"{command.ref} is not in {seat}'s hand")
    if s.drawn is not None and command.ref != s.drawn:
        raise IllegalCommand("after a draw only the card drawn may be played (or pass)")
    card = identity(items[at])  # the card goes face up: its writer reveals it
    if not playable(s, card):
        follow = cards.SUITS[suit_to_follow(s)]
        raise IllegalCommand(f"{card} follows neither the suit to follow ({follow}) nor the rank of {top(s)}")
    wild = cards.rank(card) == cards.WILD
    if wild and command.suit not in cards.SUITS:
        raise IllegalCommand(f"an eight names a suit: play {card} clubs|diamonds|hearts|spades")
    if not wild and command.suit is not None:
        raise IllegalCommand(f"only an eight names a suit, not {card}")
    s.zones[DISCARD].items.insert(0, items.pop(at))
    s.named = command.suit if wild else None
    if not items:
        s.winners, s.reason = [seat], f"{seat} played their last card"
        return s
    return _next_turn(s)


def _draw(s: State, seat: str, chance: Chance) -> State:
    if s.drawn is not None:
        raise IllegalCommand("one draw a turn: play the card drawn or pass")
    with checked_if_visible():  # the hand is hidden on the public state: the writer, dealer and audit check it
        mine = [identity(it) for it in s.zones[hand(seat)].items]
        if any(playable(s, card) for card in mine):
            raise IllegalCommand("a card of your hand can be played: draw only when none can")
    if not s.zones[DECK].items:
        if len(s.zones[DISCARD].items) < 2:
            raise IllegalCommand("there is nothing left to draw: pass")
        reshuffle(s, chance)
    card = s.zones[DECK].items.pop(0)
    s.zones[hand(seat)].items.append(card)
    s.drawn = card.ref
    return s


def reshuffle(s: State, chance: Chance) -> None:
    """The discard pile but its top card, shuffled face down into a new
    draw pile (secret chance: `shuffle_zone` gives the cards fresh refs, so
    where a card went is unknown, and tells the protocol which refs went in)."""
    discard = s.zones[DISCARD]
    s.zones[DECK].items, discard.items = discard.items[1:], discard.items[:1]
    shuffle_zone(s, DECK, chance)


def _pass(s: State, seat: str) -> State:
    """End the turn without playing. Without a draw first, only with
    nothing to draw and nothing to play; the game still goes on, as every
    card but the top one is then in a hand, and so are three eights."""
    if s.drawn is None:
        if can_draw(s):
            raise IllegalCommand("a card is left to draw: draw (or play) before passing")
        with checked_if_visible():
            if any(playable(s, identity(it)) for it in s.zones[hand(seat)].items):
                raise IllegalCommand("a card of your hand can be played: pass only when none can")
    return _next_turn(s)


def _next_turn(s: State) -> State:
    s.drawn = None
    s.turn = (s.turn + 1) % len(s.seats)
    return s


def outcome(state: State) -> Outcome | None:
    if state.winners is None:
        return None
    return Outcome(winners=list(state.winners), reason=state.reason)
