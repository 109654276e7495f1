"""The state after an Agent Avenue command (`apply`): a discard, a play
(two different names unless the whole hand has one), a pair's single
card, a recruit; the black market applies its own (`market`). Each is
refused in one line when it is not the seat's turn or not its card.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand
from pbem.games.agent_avenue import cards, market
from pbem.games.agent_avenue.commands import Choose, Command, Discard, Pass, Play, PlayOne, Recruit, Take
from pbem.games.agent_avenue.legal import to_act
from pbem.games.agent_avenue.setup import draw
from pbem.games.agent_avenue.state import (
    CENTRE_DOWN, CENTRE_UP, DECK, FACE_UP, MARKET, OVER, PLAY, RECRUIT, RESOLVE, State, discards, hand, members,
    play_area, players_of, side_of, thaw,
)
from pbem.games.agent_avenue.teams import max_discards
from pbem.games.base import Chance, Item, checked_if_visible, identity, own_zone, settle_zones


def _take(state: State, zone: str, ref: str, what: str) -> Item:
    items = own_zone(state, zone).items
    for i, item in enumerate(items):
        if item.ref == ref:
            return items.pop(i)
    raise IllegalCommand(f"{what} {ref} is not in your hand")


def _check_turn(state: State, seat: str, command: Command) -> None:
    if state.phase == OVER:
        raise IllegalCommand("the game is over")
    if seat not in players_of(state):
        raise IllegalCommand(f"{seat!r} is not a seat of this game")
    acting = to_act(state)
    if isinstance(command, (Take, Choose, Pass)):
        if not market.is_advanced(state):
            raise IllegalCommand("there is no black market in simple mode")
        return  # the black market checks its own turn
    if isinstance(command, Recruit):
        if state.phase != RECRUIT:
            raise IllegalCommand("there is nothing to recruit now: " + _waiting(state))
        if seat not in acting:
            who = " or ".join(acting)
            raise IllegalCommand(f"{who} recruits this turn, not {seat} (the other team chooses)")
    else:
        verb = "discard" if isinstance(command, Discard) else "play"
        if state.phase != PLAY or seat not in acting:
            raise IllegalCommand(f"{seat} cannot {verb} now: " + _waiting(state))
        pair = len(members(state, state.active)) > 1
        if isinstance(command, Play) and pair:
            raise IllegalCommand(
                f"{seat} plays one card for the team ('play NAME'); the teammate plays the other"
            )
        if isinstance(command, PlayOne) and not pair:
            raise IllegalCommand("play two cards, one face up and one face down ('play FACEUP / FACEDOWN')")


def _waiting(state: State) -> str:
    acting = to_act(state)
    if state.phase == PLAY and acting:
        return f"it is {acting[0]}'s turn to play"
    if state.phase == RECRUIT:
        return f"{' or '.join(acting)} must recruit"
    if state.phase in (RESOLVE, MARKET):
        return "the turn is being resolved"
    return "the game is over"


def apply(state: State, seat: str, command: Command, chance: Chance) -> State:
    _check_turn(state, seat, command)
    state = thaw(state)
    match command:
        case Discard(ref=ref):
            if not state.zones[DECK].items:
                raise IllegalCommand("you cannot discard: the deck is empty")
            limit = max_discards(state, seat)
            if state.discards_used[seat] >= limit:
                raise IllegalCommand(f"you cannot discard: you have used all {limit} discards")
            item = _take(state, hand(seat), ref, "card")
            own_zone(state, discards(seat)).items.append(item)
            state.discards_used[seat] += 1
            draw(state, seat, 1)
        case Play(face_up=up, face_down=down):
            if up == down:
                raise IllegalCommand("play two different cards (one face up, one face down)")
            held = state.zones[hand(seat)].items
            refs = {it.ref for it in held}
            for ref, what in ((up, "face-up card"), (down, "face-down card")):
                if ref not in refs:
                    raise IllegalCommand(f"the {what} {ref} is not in your hand")
            _check_names(held, up, down)
            own_zone(state, CENTRE_UP).items.append(_take(state, hand(seat), up, "card"))
            own_zone(state, CENTRE_DOWN).items.append(_take(state, hand(seat), down, "card"))
            draw(state, seat, cards.HAND_SIZE - len(state.zones[hand(seat)].items))
            state.phase = RECRUIT
        case PlayOne(ref=ref):
            held = state.zones[hand(seat)].items
            if ref not in {it.ref for it in held}:
                raise IllegalCommand(f"the card {ref} is not in your hand")
            up = state.zones[CENTRE_UP].items
            if up:
                _check_team_names(held, ref, identity(up[0]))
                own_zone(state, CENTRE_DOWN).items.append(_take(state, hand(seat), ref, "card"))
                state.phase = RECRUIT
            else:
                own_zone(state, CENTRE_UP).items.append(_take(state, hand(seat), ref, "card"))
            # each refills at once: the face-up player first, so it draws the
            # last card of the deck (the last-card rule)
            draw(state, seat, cards.HAND_SIZE - len(state.zones[hand(seat)].items))
        case Recruit(which=which):
            if which not in ("face-up", "face-down"):
                raise IllegalCommand(f"recruit face-up or face-down, not {which!r}")
            a, b = state.active, side_of(state, seat)
            up = own_zone(state, CENTRE_UP).items.pop()
            down = own_zone(state, CENTRE_DOWN).items.pop()
            mine, theirs = (up, down) if which == FACE_UP else (down, up)
            own_zone(state, play_area(b)).items.append(mine)
            own_zone(state, play_area(a)).items.append(theirs)
            state.choice = which
            state.recruited = {a: theirs.ref, b: mine.ref}
            state.phase = RESOLVE
        case Take() | Choose() | Pass():
            state = market.apply(state, seat, command, chance)
        case _:
            raise IllegalCommand(f"not an Agent Avenue command: {command!r}")
    settle_zones(state)
    return state


def _check_names(held: list[Item], up: str, down: str) -> None:
    """Different names unless the whole hand has one name (needs identities)."""
    with checked_if_visible():
        by_ref = {it.ref: it for it in held}
        name = identity(by_ref[up])
        if identity(by_ref[down]) == name:
            names = {identity(it) for it in held}
            if len(names) > 1:
                raise IllegalCommand(
                    f"both cards are named {name}: the two cards you play must have "
                    "different names (identical cards only when your whole hand has one name)"
                )


def _check_team_names(held: list[Item], down: str, up_name: str) -> None:
    """The face-down card of a pair: another name than the face-up card,
    unless every card in the player's hand has that name."""
    with checked_if_visible():
        name = identity(next(it for it in held if it.ref == down))
        if name == up_name and any(identity(it) != up_name for it in held):
            raise IllegalCommand(
                f"your teammate played {up_name} face up: play a card of another name "
                f"(a second {up_name} only when your whole hand is {up_name})"
            )
