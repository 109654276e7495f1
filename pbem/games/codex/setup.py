"""Codex options and set-up: how many seats the options call for, each
seat's specs and starter deck, the 2v2 teams, and the state a game begins
in (every hand empty, each whole starter deck in its owner's draw pile,
phase ``opening``; `rules.advance` then draws the opening hands, so that no
card of a hand is chosen by the set-up's chance, which a peer game makes
public). The turn and `apply` are `rules`'s.
"""

from __future__ import annotations

import msgspec

from pbem.errors import InvalidOption
from pbem.games.base import Chance, Known, Zone
from pbem.games.codex import cards, maps, modes, turn
from pbem.games.codex.state import (
    OPENING,
    UPKEEP,
    Hero,
    Options,
    Player,
    State,
    codex,
    deck,
    discard,
    future,
    hand,
    ongoing,
    top,
    trash,
    team_of,
    turn_order,
    workers,
)
from pbem.games.codex.state import play as play_zone


DEFAULT_SPECS = ("Bashing", "Finesse")


def seat_count(options: Options, given: int = 0) -> int:
    """How many seats the options call for (`given`: the seats named at
    `pbem new`), refusing a count the mode does not allow."""
    mode = modes.mode_of(options)
    n = given or options.players or (4 if mode not in modes.TWO_SEATS else 2)
    if options.players and given and options.players != given:
        raise InvalidOption(f"players={options.players} but {given} seats were given")
    if mode == modes.FFA and not 3 <= n <= 5:
        raise InvalidOption(f"mode=ffa is for 3 to 5 players, got {n}")
    if mode == modes.TEAMS and n != 4:
        raise InvalidOption(f"mode=2v2 is for 4 players (two teams of two), got {n}")
    if mode in modes.TWO_SEATS and n != 2:
        raise InvalidOption(f"codex ({mode}) needs 2 seats, got {n} (mode=ffa for 3 to 5 players)")
    return n


def seat_decks(options: Options, n: int = 0) -> list[tuple[list[str], str]]:
    """(specs, starter colour) of each of the `n` seats, from the options:
    `modes.teams` in the modes of two seats, one spec a seat here."""
    if modes.mode_of(options) in modes.TWO_SEATS:
        seat_count(options, n)
        return modes.teams(options)
    n = seat_count(options, n)
    specs = [options.p1, options.p2, options.p3, options.p4, options.p5]
    starters = [options.p1_starter, options.p2_starter, options.p3_starter, options.p4_starter,
                options.p5_starter]
    if any(specs[n:]) or any(starters[n:]):
        raise InvalidOption(f"p{n + 1}=: there are only {n} seats")
    if options.first:  # a two-seat option (`modes.teams`)
        raise InvalidOption(f"first={options.first}: the first seat plays bashing or finesse "
                            "(or give p1= and p2= instead)")
    mode = modes.mode_of(options)
    out = []
    for i in range(n):
        spec = [modes.spec_named(specs[i] or DEFAULT_SPECS[i % 2], f"p{i + 1}")]
        out.append((spec, modes.starter_of(f"p{i + 1}", starters[i], spec, mode)))
    return out


def check_options(options: Options) -> Options:
    mode = modes.mode_of(options)
    seat_decks(options)
    if options.map and mode not in modes.TWO_SEATS:
        raise InvalidOption(f"map={options.map}: the map cards are played by two seats here (not mode={mode})")
    options = msgspec.structs.replace(options, map=maps.key_of(options.map))
    if options.scenario is not None:
        from pbem.games.codex import scenario

        most = options.players or (5 if mode not in modes.TWO_SEATS else 2)
        scenario.parse(options.scenario, most)  # raises InvalidOption
    return options


def _zone(readers: list[str] | None = None, public: bool = False) -> Zone:
    return Zone(items=[], readers=list(readers or []), public=public)


def team_roles(names: list[str], roles: list[str | None]) -> list[str]:
    """Two-Headed Dragon: the team of each of the 4 seats, from the roles
    (``--seat NAME:TEAM``, two team names of two seats each), or, with none
    given, the first and third seat against the second and fourth."""
    if all(r is None for r in roles):
        return ["red" if i % 2 == 0 else "blue" for i in range(len(names))]
    teams = [str(r) for r in roles]
    sides = list(dict.fromkeys(teams))
    if any(r is None for r in roles) or len(sides) != 2 or any(teams.count(t) != 2 for t in sides):
        raise InvalidOption("mode=2v2: two teams of two, e.g. --seat alice:red --seat bob:blue "
                            "--seat carol:red --seat dave:blue (or no teams: 1st and 3rd against 2nd and 4th)")
    if any(t in names for t in sides):
        raise InvalidOption("a team cannot have a seat's name")
    return teams


def setup(options: Options, seats: list[str], chance: Chance, roles: list[str | None] | None = None) -> State:
    options = check_options(options)
    mode = modes.mode_of(options)
    state = State(seats=list(seats), active=seats[0], mode=mode, map=maps.key_of(options.map))
    if mode == modes.TEAMS:
        state.teams = dict(zip(seats, team_roles(list(seats), list(roles or [None] * len(seats)))))
    order = turn_order(state)
    zones: dict[str, Zone] = {}
    for seat, (specs, colour) in zip(seats, seat_decks(options, len(seats))):
        # the first seat (in 2v2 its whole team) 4 workers, every later one 5
        first = seat in team_of(state, order[0])
        state.players[seat] = Player(spec=specs[0], colour=colour, specs=specs,
                                     heroes={cards.HERO_OF[s]: Hero() for s in specs},
                                     base_workers=cards.START_WORKERS[0 if first else 1])
        state.patrol[seat] = [""] * 5
        zones[deck(seat)] = _zone()
        for name in (hand(seat), discard(seat), codex(seat), workers(seat), trash(seat), top(seat)):
            zones[name] = _zone([seat])
        for name in (play_zone(seat), ongoing(seat), future(seat)):
            zones[name] = _zone(public=True)
    state.zones = zones
    if options.scenario is not None:
        from pbem.games.codex import scenario

        scenario.apply_scenario(state, scenario.parse(options.scenario, len(seats)), chance)
        if state.phase == UPKEEP:
            turn.start_turn(state, chance)
        return state
    for seat in seats:
        p = state.players[seat]
        # secret shuffles first, refs after: a ref says nothing about its card
        for zone, names in ((deck(seat), cards.starter(p.colour)), (codex(seat), modes.codex_of(p.specs))):
            for name in chance.shuffle(list(names)):
                zones[zone].items.append(Known(f"c{state.next_ref:03d}", name))
                state.next_ref += 1
    # the whole starter deck is each seat's draw pile: which cards the hand
    # gets is not the set-up's chance but draws of the opening (`advance`),
    # which a peer game picks from a link no writer of the set-up foresaw
    state.phase = OPENING
    return state
