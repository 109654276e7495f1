"""Agent Avenue's options and set-up: the options checked (the scenario
deck and black market made canonical), the first seat, and the shuffled
deck dealt 4 to each player (`setup`); `draw`, which deals, also refills
a hand during play. Apart because only the game's creation reads the
options.
"""

from __future__ import annotations

from collections import Counter
import msgspec

from pbem.errors import InvalidOption
from pbem.games.agent_avenue import cards, market
from pbem.games.agent_avenue.state import (
    CENTRE_DOWN, CENTRE_UP, DECK, Options, State, discards, hand, new_zone, play_area,
)
from pbem.games.agent_avenue.teams import TEAM_SIZES, face_down_player, team_roles
from pbem.games.base import Chance, Known, own_zone


def check_options(options: Options) -> Options:
    """Validate `options`; return them with deck names made canonical."""
    if options.mode not in ("simple", "advanced"):
        raise InvalidOption(f"unknown mode {options.mode!r} for agent-avenue (modes: simple, advanced)")
    options = _check_market(options)
    if options.teams is not msgspec.UNSET and options.teams not in TEAM_SIZES:
        raise InvalidOption(
            f"teams={options.teams!r}: the team variant is teams=2v2 (4 players) or teams=2v1 (3 players)"
        )
    if options.deck is None:
        return options
    names = []
    for text in options.deck:
        name = cards.lookup(text)
        if name is None or not text.strip():
            raise InvalidOption(
                f"deck: unknown agent name {text.strip()!r} (agents: {', '.join(cards.NAMES)})"
            )
        names.append(name)
    problem = cards.deck_problems(names)
    if problem:
        raise InvalidOption(f"deck must be exactly the 38 agent cards: {problem}")
    return msgspec.structs.replace(options, deck=names)


def _check_market(options: Options) -> Options:
    """The `market` scenario option: advanced mode only, exactly the 15 cards."""
    if options.market is msgspec.UNSET:
        return options
    if options.mode != "advanced":
        raise InvalidOption("market= fixes the black-market deck: it needs mode=advanced")
    names = []
    for text in options.market:
        name = cards.market_lookup(text)
        if name is None or not text.strip():
            raise InvalidOption(
                f"market: unknown black-market card {text.strip()!r} (cards: {', '.join(cards.MARKET_NAMES)})"
            )
        names.append(name)
    have = Counter(names)
    missing = [n for n in cards.MARKET_NAMES if not have[n]]
    twice = [n for n in cards.MARKET_NAMES if have[n] > 1]
    if missing or twice:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"more than once: {', '.join(twice)}"] if twice else []
        )
        raise InvalidOption(
            f"market must be exactly the {len(cards.MARKET_NAMES)} black-market cards, once each: "
            + "; ".join(parts)
        )
    return msgspec.structs.replace(options, market=names)


def check_first(options: Options, seat_names: list[str]) -> None:
    if options.first not in ("", "random") and options.first not in seat_names:
        raise InvalidOption(
            f"first={options.first!r} is not a seat (seats: {', '.join(seat_names)}; "
            "or 'random', or empty for the first seat listed)"
        )


def setup(
    options: Options, seat_names: list[str], chance: Chance, roles: list[str | None] | None = None
) -> State:
    """Shuffle (or take the scenario deck), name refs positionally, deal 4 each
    (to the players in seat order). With 3 or 4 seats, `roles` are the teams
    (`team_roles`): the first-listed seat's team takes the green meeple."""
    options = check_options(options)
    check_first(options, seat_names)
    if options.first == "random":
        first = seat_names[chance.public.below(len(seat_names))]
    else:
        first = options.first or seat_names[0]
    order = list(options.deck) if options.deck is not None else chance.shuffle(cards.full_deck())

    teams = None
    sides = list(seat_names)
    if len(seat_names) > 2:
        teams = team_roles(seat_names, roles or [None] * len(seat_names))
        sides = list(dict.fromkeys(teams))
    state = State(
        mode=options.mode,
        seats=sides,
        active=teams[seat_names.index(first)] if teams else first,
        home={s: cards.HOMES[i] for i, s in enumerate(sides)},
        position={s: cards.HOMES[i] for i, s in enumerate(sides)},
        progress={s: 0 for s in sides},
        discards_used={s: 0 for s in seat_names},
    )
    if teams is not None:
        state.players = list(seat_names)
        by_side = {side: [p for p, t in zip(seat_names, teams) if t == side] for side in sides}
        mine = by_side[state.active]  # the first player plays face up first
        by_side[state.active] = mine[mine.index(first):] + mine[: mine.index(first)]
        state.teams = by_side
    deck = new_zone()
    for name in order:  # refs are given after shuffling: they leak nothing
        deck.items.append(Known(f"a{state.next_ref:03d}", name))
        state.next_ref += 1
    zones = {DECK: deck}
    for seat in seat_names:
        zones[hand(seat)] = new_zone([seat])
        zones[discards(seat)] = new_zone([seat])
    for side in sides:
        zones[play_area(side)] = new_zone(public=True)
    zones[CENTRE_UP] = new_zone(public=True)
    zones[CENTRE_DOWN] = new_zone([face_down_player(state, state.active)])
    state.zones = zones
    for seat in seat_names:
        draw(state, seat, cards.HAND_SIZE)
    if options.mode == "advanced":
        if options.market is not msgspec.UNSET:
            market_order = list(options.market)
        else:  # secret chance: nobody may know the black-market deck's order
            market_order = chance.shuffle(list(cards.MARKET_NAMES))
        market.setup_market(state, market_order)
    return state


def draw(state: State, seat: str, n: int) -> None:
    """Move up to `n` cards from the top of the deck to the end of the hand."""
    deck = own_zone(state, DECK)
    taken, deck.items = deck.items[:n], deck.items[n:]
    own_zone(state, hand(seat)).items.extend(taken)
