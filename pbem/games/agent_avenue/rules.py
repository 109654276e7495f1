"""Agent Avenue rules (simple mode, two players): set-up, turn flow, End step.

A turn (active seat A, opponent B):

1. phase ``play``: A may ``discard`` (deck not empty, fewer than 4 discards
   used this game), any number of times, then ``play`` two hand cards, one
   face up and one face down, with different names unless every card in A's
   hand has the same name; A then draws up to 4 (fewer if the deck runs out).
2. phase ``recruit``: B recruits one of them; A gets the other.
3. phase ``resolve`` (`advance`, no decision): A's meeple moves, then B's,
   by the icon of the agent each just recruited; then the End step checks
   every condition together (catch, 3+ Codebreakers, 3+ Daredevils,
   running out), ties going to A. Otherwise B becomes the active seat.

Catching is judged on net progress (rules notes, Decision): A catches B when
progress(A) - progress(B) >= 7, B catches A when it is <= -7.

The team variant (3-4 seats, TEAMS.md): A and B are sides; a side of two
plays its turn in two files (``PlayOne``: the face-up player, then the
face-down one, each refilling at once), any player of B recruits, and a
pair swaps who plays face up after each of its turns.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.agent_avenue import cards, market
from pbem.games.agent_avenue.commands import Choose, Command, Discard, Pass, Play, PlayOne, Recruit, Take
from pbem.games.agent_avenue.state import (
    MARKET,
    CENTRE_DOWN,
    CENTRE_UP,
    DECK,
    FACE_UP,
    OVER,
    PLAY,
    RECRUIT,
    RESOLVE,
    Options,
    State,
    discards,
    hand,
    is_team,
    members,
    new_zone,
    other,
    play_area,
    players_of,
    ref_key,
    side_of,
    thaw,
)
from pbem.games.base import (
    Chance,
    Item,
    Known,
    Outcome,
    checked_if_visible,
    identity,
    own_zone,
    settle_zones,
)

CATCH_DISTANCE = cards.BOARD_SIZE // 2  # the homes are 7 apart
TIE = " (tie: the active player wins)"


# --- options and set-up --------------------------------------------------------


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
        _draw(state, seat, cards.HAND_SIZE)
    if options.mode == "advanced":
        if options.market is not msgspec.UNSET:
            market_order = list(options.market)
        else:  # secret chance: nobody may know the black-market deck's order
            market_order = chance.shuffle(list(cards.MARKET_NAMES))
        market.setup_market(state, market_order)
    return state


# --- the team variant ---------------------------------------------------------------

#: the team variant's options: teams=2v2 or 2v1 and the seats each needs
TEAM_SIZES = {"2v2": 4, "2v1": 3}
#: team names that would clash with a zone's name
RESERVED = frozenset({"deck", "supply", "used", "up", "down"})
#: discards a player may make in a game: 2 each in a pair, 4 for a player alone
PAIR_DISCARDS = 2


def team_roles(names: list[str], roles: list[str | None]) -> list[str]:
    """The team of each of 3-4 seats: the roles given (two team names), or,
    with none given, ``green`` and ``blue`` alternately in seat order (the
    teams alternate round the table). `InvalidOption` names what is wrong."""
    if all(r is None for r in roles):
        return ["green" if i % 2 == 0 else "blue" for i in range(len(names))]
    if any(r is None for r in roles):
        raise InvalidOption("give every seat a team (NAME:TEAM), or none to alternate green and blue")
    teams = [str(r) for r in roles]
    sides = list(dict.fromkeys(teams))
    if len(sides) != 2:
        raise InvalidOption(
            f"the team variant has two teams, got {len(sides)} ({', '.join(sides)}): "
            "e.g. --seat alice:green --seat bob:blue --seat carol:green"
        )
    sizes = sorted(teams.count(side) for side in sides)
    if sizes not in ([1, 2], [2, 2]):
        raise InvalidOption(f"teams of {' and '.join(map(str, sizes))}: the team variant is 2 against 2 or 2 against 1")
    for side in sides:
        if side in names or side in RESERVED or not side.replace("-", "").isalnum():
            raise InvalidOption(f"{side!r} cannot be a team name (a seat's name, a reserved word, or not a word)")
    return teams


def max_discards(state: State, seat: str) -> int:
    """4 with two players and for a player alone against a pair; 2 in a pair."""
    return PAIR_DISCARDS if len(members(state, side_of(state, seat))) > 1 else cards.MAX_DISCARDS


def face_down_player(state: State, side: str) -> str:
    """Who plays the face-down card on `side`'s turn (a pair's second player)."""
    return members(state, side)[-1]


def current_player(state: State) -> str:
    """Who plays now in the play phase: a pair's face-up player, then the other."""
    who = members(state, state.active)
    return who[1] if len(who) > 1 and state.zones[CENTRE_UP].items else who[0]


def _needs(state: State, seat: str) -> int:
    """Cards `seat` must hold to play: 1 in a pair, else 2."""
    return 1 if len(members(state, side_of(state, seat))) > 1 else 2


def side_short(state: State, side: str) -> bool:
    """True when `side` could not play a turn with the hands it holds (the
    running-out rule: a player of a pair holding no card, a player alone
    holding fewer than 2)."""
    return any(len(state.zones[hand(p)].items) < _needs(state, p) for p in members(state, side))


def _draw(state: State, seat: str, n: int) -> None:
    """Move up to `n` cards from the top of the deck to the end of the hand."""
    deck = own_zone(state, DECK)
    taken, deck.items = deck.items[:n], deck.items[n:]
    own_zone(state, hand(seat)).items.extend(taken)


# --- who acts, what is legal ------------------------------------------------------


def to_act(state: State) -> list[str]:
    if state.phase == PLAY:
        seat = current_player(state)
        return [seat] if len(state.zones[hand(seat)].items) >= _needs(state, seat) else []
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


# --- apply ----------------------------------------------------------------------


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
            _draw(state, seat, 1)
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
            _draw(state, seat, cards.HAND_SIZE - len(state.zones[hand(seat)].items))
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
            _draw(state, seat, cards.HAND_SIZE - len(state.zones[hand(seat)].items))
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


# --- advance: movement and the End step ----------------------------------------


def in_play_counts(state: State, seat: str) -> Counter[str]:
    """Agents of each name in the seat's play area (reads identities)."""
    return Counter(map(identity, state.zones[play_area(seat)].items))


def advance(state: State, chance: Chance) -> State:
    """Resolve movement and the End step; a no-op while a decision is awaited.

    Raises `NeedsReveal` while the face-down card just recruited is hidden.
    """
    out = _advance(state, chance)
    settle_zones(out)
    return out


def _advance(state: State, chance: Chance) -> State:
    if market.is_advanced(state):
        return _advance_advanced(state, chance)
    if state.phase == PLAY and not to_act(state):
        return _stalled(state)
    if state.phase != RESOLVE:
        return state
    a = state.active
    b = other(state, a)
    # read every identity first: NeedsReveal leaves the state untouched
    counts = {s: in_play_counts(state, s) for s in (a, b)}
    just = {}
    for s in (a, b):
        zone = state.zones[play_area(s)].items
        just[s] = identity(next(it for it in zone if it.ref == state.recruited[s]))
    state = thaw(state)
    moves = {}
    for s in (a, b):  # A moves first, then B (effectively simultaneous)
        moves[s] = cards.steps(just[s], counts[s][just[s]])
        state.progress[s] += moves[s]
        state.position[s] = (state.home[s] + state.progress[s]) % cards.BOARD_SIZE
    state.moves = moves
    result = end_step(
        active=a,
        opponent=b,
        progress=state.progress,
        counts=counts,
        deck_empty=not state.zones[DECK].items,
        opponent_hand=len(state.zones[hand(b)].items) if not is_team(state) else 0,
        opponent_short=side_short(state, b),
    )
    return _end_turn(state, result, b)


def _end_turn(state: State, result: Outcome | None, b: str) -> State:
    """The End step's last part, in both modes: the game is won, or `b`
    (the other seat) starts its turn with the centre's face-down card its own."""
    if result is not None:
        return _finish(state, result)
    if isinstance(state.teams, dict):  # a pair swaps who plays face up
        mine = state.teams[state.active]
        state.teams[state.active] = mine[1:] + mine[:1]
    state.active = b
    state.phase = PLAY
    state.turn += 1
    state.choice = None
    state.recruited = {}
    own_zone(state, CENTRE_DOWN).readers = [face_down_player(state, b)]
    return state


def _finish(state: State, result: Outcome) -> State:
    """End the game; in the team variant the winners are the winning side's players."""
    if isinstance(state.teams, dict):
        won = {p for side in result.winners for p in state.teams.get(side, [side])}
        result = Outcome(winners=[p for p in players_of(state) if p in won], reason=result.reason)
    state.outcome = result
    state.phase = OVER
    return state


def _advance_advanced(state: State, chance: Chance) -> State:
    """Advanced mode: turn up the supply, move both meeples, run the black
    market (a no-op while a seat must decide), then the End step."""
    if state.phase == OVER:
        return state
    if market.supply_short(state) and state.phase == PLAY:
        state = thaw(state)
        market.refill(state, chance)  # the supply is first turned face up here
    if state.phase == PLAY and not to_act(state):
        return _stalled(state)
    if state.phase not in (RESOLVE, MARKET):
        return state
    state = thaw(state)
    a = state.active
    b = other(state, a)
    if state.phase == RESOLVE:
        just = {}
        for s in (a, b):
            zone = state.zones[play_area(s)].items
            just[s] = identity(next(it for it in zone if it.ref == state.recruited[s]))
        counts = {s: in_play_counts(state, s) for s in (a, b)}
        state.moves = {a: 0, b: 0}
        state.market.log = []
        state.market.shown = []
        landed = []
        for s in (a, b):  # A moves first, then B (effectively simultaneous)
            n = cards.move_steps(just[s], counts[s][just[s]], market.ongoing_names(state, s))
            if market.move(state, s, n):
                landed.append(s)
        market.start(state, landed)
    if not market.run(state):
        return state  # a seat must take a card or answer one
    counts = {s: in_play_counts(state, s) for s in (a, b)}
    result = end_step(
        active=a,
        opponent=b,
        progress=state.progress,
        counts=counts,
        deck_empty=not state.zones[DECK].items,
        opponent_hand=len(state.zones[hand(b)].items) if not is_team(state) else 0,
        opponent_short=side_short(state, b),
        ongoing={s: market.ongoing_names(state, s) for s in (a, b)},
        position=state.position,
        home=state.home,
    )
    return _end_turn(state, result, b)


def _stalled(state: State) -> State:
    """Defensive: the active seat cannot play (fewer than 2 cards). The End
    step prevents this; if it ever happens, end by the running-out rule."""
    state = thaw(state)
    a = state.active
    lead = state.progress[a] - state.progress[other(state, a)]
    why = f"{a} cannot play (too few cards)" if is_team(state) else f"{a} cannot play (fewer than 2 cards)"
    return _finish(state, _running_out(a, other(state, a), lead, why))


def end_step(
    *,
    active: str,
    opponent: str,
    progress: dict[str, int],
    counts: dict[str, Counter[str]],
    deck_empty: bool,
    opponent_hand: int,
    opponent_short: bool | None = None,
    ongoing: dict[str, set[str]] | None = None,
    position: dict[str, int] | None = None,
    home: dict[str, int] | None = None,
) -> Outcome | None:
    """Check every End condition together; None if the game goes on.

    `opponent_short` (the team variant) says the opponent side cannot play
    its next turn; without it, an `opponent_hand` below 2 says so.

    A seat has a claim when it meets a win condition or its opponent meets a
    lose condition. One claimant wins; two (both win, both lose, one seat
    both wins and loses) is a tie, which goes to the active seat.

    Advanced mode passes each seat's `ongoing` black-market cards (and the
    meeples' `position` and `home`) for the extra conditions: Leader of the
    Pack turns 3+ Daredevils into a win, Masterplan wins with 7 different
    names in play, Security System wins with the opponent on your home.
    """
    extra = ongoing or {}
    a, b = active, opponent
    lead = progress[a] - progress[b]
    wins: dict[str, list[str]] = {a: [], b: []}
    loses: dict[str, list[str]] = {a: [], b: []}
    if lead >= CATCH_DISTANCE:
        wins[a].append(f"{a} caught {b}")
    if lead <= -CATCH_DISTANCE:
        wins[b].append(f"{b} caught {a}")
    for s in (a, b):
        n = counts[s][cards.CODEBREAKER]
        if n >= cards.THRESHOLD:
            wins[s].append(f"{s} has {n} {cards.CODEBREAKER}s in play")
        n = counts[s][cards.DAREDEVIL]
        mine = extra.get(s, set())
        if n >= cards.THRESHOLD and cards.LEADER in mine:
            wins[s].append(f"{s} has {n} {cards.DAREDEVIL}s in play and the {cards.LEADER}")
        elif n >= cards.THRESHOLD:
            loses[s].append(f"{s} has {n} {cards.DAREDEVIL}s in play")
        if cards.MASTERPLAN in mine:
            names = sum(1 for c in counts[s].values() if c > 0)
            if names >= len(cards.NAMES) - 1:
                wins[s].append(f"{s} has {names} different agents in play ({cards.MASTERPLAN})")
        if cards.SECURITY in mine and position is not None and home is not None:
            o = other_of(s, a, b)
            if position[o] == home[s]:
                wins[s].append(f"{o} stands on {s}'s home ({cards.SECURITY})")
    claims = [s for s in (a, b) if wins[s] or loses[other_of(s, a, b)]]
    if len(claims) == 1:
        s = claims[0]
        o = other_of(s, a, b)
        reasons = wins[s] + [f"{r}: {s} wins" for r in loses[o]]
        return Outcome(winners=[s], reason="; ".join(reasons))
    if len(claims) == 2:
        reasons = wins[a] + wins[b] + loses[a] + loses[b]
        return Outcome(winners=[a], reason="; ".join(reasons) + TIE)
    short = opponent_hand < 2 if opponent_short is None else opponent_short
    if short and deck_empty:
        return _running_out(a, b, lead, "the deck ran out")
    if short:
        return _running_out(a, b, lead, f"{b} cannot play (fewer than 2 cards)")
    return None


def other_of(seat: str, a: str, b: str) -> str:
    return b if seat == a else a


def _running_out(a: str, b: str, lead: int, why: str) -> Outcome:
    """The seat closer to catching (larger net-progress lead) wins; ties: `a`."""
    if lead > 0:
        return Outcome(winners=[a], reason=f"{why}: {a} was closer")
    if lead < 0:
        return Outcome(winners=[b], reason=f"{why}: {b} was closer")
    return Outcome(winners=[a], reason=f"{why}: equal distance{TIE}")


def outcome(state: State) -> Outcome | None:
    return state.outcome

