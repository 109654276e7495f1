"""Who acts in an Agent Avenue game (`to_act`) and each seat's legal
commands (`legal`): discards, plays (one card each in a pair) or the two
recruits; the black market lists its own (`market`). Apart from `apply`
because bots and `pbem legal` list commands far more often than a command
is applied, and the view reads `to_act` without the rest of the rules.
"""

from __future__ import annotations

from pbem.games.agent_avenue import cards, market
from pbem.games.agent_avenue.commands import Command, Discard, Play, PlayOne, Recruit
from pbem.games.agent_avenue.state import (
    CENTRE_UP, DECK, MARKET, PLAY, RECRUIT, State, hand, members, other, players_of, ref_key,
)
from pbem.games.agent_avenue.teams import current_player, max_discards, needs
from pbem.games.base import identity


def to_act(state: State) -> list[str]:
    if state.phase == PLAY:
        seat = current_player(state)
        return [seat] if len(state.zones[hand(seat)].items) >= needs(state, seat) else []
    if state.phase == RECRUIT:  # any one of the opposing side's players (seat order)
        them = members(state, other(state, state.active))
        return [p for p in players_of(state) if p in them]
    if state.phase == MARKET:
        return market.to_act(state)
    return []


def can_discard(state: State, seat: str) -> bool:
    return bool(state.zones[DECK].items) and state.discards_used[seat] < max_discards(state, seat)


def _lowest_by_name(state: State, seat: str) -> dict[str, list[str]]:
    """Hand refs per name (table order), lowest ref first. Reads identities."""
    by_name: dict[str, list[str]] = {}
    for item in state.zones[hand(seat)].items:
        by_name.setdefault(identity(item), []).append(item.ref)
    return {n: sorted(by_name[n], key=ref_key) for n in cards.NAMES if n in by_name}


def legal(state: State, seat: str) -> list[Command]:
    """Deterministic: discards (one per name in hand, table order), then plays
    (one per ordered pair of different names), or both recruits. Each card is
    its name's lowest ref, a representative: the writer re-chooses it among
    the copies before signing (`pbem.games.refchoice`)."""
    if seat not in to_act(state):
        return []
    if state.phase == RECRUIT:
        return [Recruit("face-up"), Recruit("face-down")]
    if state.phase == MARKET:
        return market.legal(state, seat)
    by_name = _lowest_by_name(state, seat)
    out: list[Command] = []
    if can_discard(state, seat):
        out.extend(Discard(refs[0]) for refs in by_name.values())
    if len(members(state, state.active)) > 1:  # a pair: one card each
        up = state.zones[CENTRE_UP].items
        if up:  # face down: another name, unless the whole hand is the face-up one's
            name = identity(up[0])
            allowed = [n for n in by_name if n != name] or [name]
        else:
            allowed = list(by_name)
        return out + [PlayOne(by_name[n][0]) for n in allowed]
    if len(by_name) == 1:
        refs = next(iter(by_name.values()))
        out.append(Play(refs[0], refs[1]))
    else:
        for up, up_refs in by_name.items():
            for down, down_refs in by_name.items():
                if up != down:
                    out.append(Play(up_refs[0], down_refs[0]))
    return out
