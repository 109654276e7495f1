"""Agent Avenue options and state Structs, plus small helpers to read them.

Zones (`GameState.zones`):

* ``deck``            the agent deck, top first; nobody may read it.
* ``hand:<seat>``     a seat's hand; read by that seat.
* ``play:<seat>``     the agents a seat has recruited; public.
* ``discard:<seat>``  a seat's face-down discards (out of the game); read by that seat.
* ``centre:up``       the card played face up this turn; public.
* ``centre:down``     the card played face down this turn; read by the active seat.

Advanced mode (the black market) adds:

* ``market:deck``     the black-market deck, top first; nobody may read it.
* ``market:supply``   the (up to) 3 face-up black-market cards; public.
* ``market:used``     instant cards already resolved; public.
* ``market:<seat>``   a seat's ongoing black-market cards; public.

Everything else in the state is public.

Team variant (3-4 players, `teams`): ``state.seats`` are the two *sides*
(team names); what belongs to a meeple (home, position, progress, the play
area ``play:<side>``, ``market:<side>``, the recruits) is keyed by side,
what belongs to a player (``hand:<player>``, ``discard:<player>``, the
discards used) by player. In two-player games a side is its seat.
"""

from __future__ import annotations

import msgspec

from pbem.games.base import GameState, Item, NeedsReveal, Outcome, Zone, identity, share_zones

#: phases of a turn: the active seat plays, the opponent recruits, the rules
#: resolve movement and the End step (no decision), or the game is over.
PLAY = "play"
RECRUIT = "recruit"
RESOLVE = "resolve"
#: advanced mode: black-market cards are taken and resolved (the seat named
#: by `Market.who` may have a decision to make)
MARKET = "market"
OVER = "over"

FACE_UP = "face-up"
FACE_DOWN = "face-down"

DECK = "deck"
CENTRE_UP = "centre:up"
CENTRE_DOWN = "centre:down"


MARKET_DECK = "market:deck"
MARKET_SUPPLY = "market:supply"
MARKET_USED = "market:used"


def ongoing(seat: str) -> str:
    return f"market:{seat}"


def hand(seat: str) -> str:
    return f"hand:{seat}"


def play_area(seat: str) -> str:
    return f"play:{seat}"


def discards(seat: str) -> str:
    return f"discard:{seat}"


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Agent Avenue options.

    `mode`: ``simple``, or ``advanced`` (the black market). `first`: who starts: empty for the first seat listed, a seat name,
    or ``random`` (chance decides). `deck`: a scenario option fixing the whole
    38-card agent deck, top first (the first 4 go to the first seat listed,
    the next 4 to the second); only for the hotseat dealer. `market`: the
    same for the 15-card black-market deck (advanced mode), top first.

    `teams`: ``2v2`` or ``2v1``, the team variant; optional at `pbem new`,
    where 3 or 4 seats already select it (with ``--seat NAME:TEAM``), but
    when given it must agree with the seats; `pbem demo` seats its bots by it.

    `market` and `teams` are UNSET (absent from the encoding) unless given,
    so the options of every game begun before they existed encode as they did.
    """

    mode: str = "simple"
    first: str = ""
    deck: list[str] | None = None
    market: list[str] | msgspec.UnsetType = msgspec.UNSET
    teams: str | msgspec.UnsetType = msgspec.UNSET


#: what the seat `Market.who` is doing in the ``market`` phase: ``take`` a
#: supply card, ``resolve`` an instant (no decision), answer an instant's
#: question (the card's name), or ``again`` (Spycation: recruit it again?)
TAKE = "take"
RESOLVE_CARD = "resolve"
AGAIN = "again"


class Market(msgspec.Struct, kw_only=True):
    """The black market's bookkeeping in advanced mode (absent in simple mode).

    `queue`: seats whose meeple landed on a black-market space and still take
    a card (the active seat first; a chain puts its seat back in front).
    `task`/`who`: see the constants above; `card`: the ref of the instant
    being resolved; `spy`: the agent Spycation returned to the hand.
    `log`: what the black market did this turn, in words (public), and
    `shown` the agents those words name. `revealed`: refs of public cards
    that went into a hand (Mind Control, Spycation, Double Trouble's kept
    card): everyone knows them while they stay there.
    """

    queue: list[str] = []
    task: str = ""
    who: str | None = None
    card: str | None = None
    spy: str | None = None
    log: list[str] = []
    shown: list[str] = []
    revealed: list[str] = []
    #: team variant: the player of side `who` who took the card being
    #: resolved (its hand is the one the card uses); UNSET with two players
    player: str | None | msgspec.UnsetType = msgspec.UNSET


class State(GameState, kw_only=True):
    """The Agent Avenue state (see the module docstring for the zones).

    `progress` is each meeple's net progress (forward minus backward) since
    the start; `position` its space on the 14-space loop. `choice` is the
    opponent's recruit choice this turn, `recruited` the ref each seat
    recruited this turn, `moves` the spaces each meeple moved in the last
    resolved turn.
    """

    mode: str = "simple"
    seats: list[str]
    active: str
    phase: str = PLAY
    turn: int = 1
    home: dict[str, int]
    position: dict[str, int]
    progress: dict[str, int]
    discards_used: dict[str, int]
    choice: str | None = None
    recruited: dict[str, str] = {}
    moves: dict[str, int] = {}
    outcome: Outcome | None = None
    #: advanced mode only (UNSET, so absent from the encoding, in simple mode)
    market: Market | msgspec.UnsetType = msgspec.UNSET
    #: team variant only: the players in seat order, and each side's players,
    #: the one to play face up on the side's next turn first (a pair swaps
    #: after each of its turns); UNSET with two players
    players: list[str] | msgspec.UnsetType = msgspec.UNSET
    teams: dict[str, list[str]] | msgspec.UnsetType = msgspec.UNSET


def thaw(state: State) -> State:
    """A copy of `state` for the rules to change, for a small part of what
    `copy_struct` costs: its zones shared until changed
    (`pbem.games.base.own_zone`; the rules end with `settle_zones`), its own
    dicts and black-market lists, and shared the frozen values and
    `REPLACED` fields."""
    s = state.__copy__()
    s.zones = share_zones(state.zones)
    s.position = dict(state.position)
    s.progress = dict(state.progress)
    s.discards_used = dict(state.discards_used)
    s.moves = dict(state.moves)
    if isinstance(state.market, Market):
        m = state.market.__copy__()
        m.queue, m.log, m.shown, m.revealed = list(m.queue), list(m.log), list(m.shown), list(m.revealed)
        s.market = m
    if isinstance(state.teams, dict):
        s.teams = {side: list(who) for side, who in state.teams.items()}
    return s


#: the fields the rules replace whole and never change in place (`thaw` shares them)
REPLACED = frozenset({"seats", "home", "recruited", "players"})


def is_team(state: State) -> bool:
    return isinstance(state.teams, dict)


def players_of(state: State) -> list[str]:
    """Every player (seat of the game) in seat order."""
    return list(state.players) if isinstance(state.players, list) else list(state.seats)


def members(state: State, side: str) -> list[str]:
    """The players of `side` (the face-up player of its turn first)."""
    return list(state.teams[side]) if isinstance(state.teams, dict) else [side]


def side_of(state: State, seat: str) -> str:
    """The side (team, or the seat itself with two players) `seat` plays for."""
    if isinstance(state.teams, dict):
        for side, who in state.teams.items():
            if seat in who:
                return side
    return seat


def other(state: State, seat: str) -> str:
    """The opponent of `seat`."""
    a, b = state.seats
    return b if seat == a else a


def find(state: State, ref: str) -> tuple[str, Item] | None:
    """The zone name and item holding `ref`, or None."""
    for name, zone in state.zones.items():
        for item in zone.items:
            if item.ref == ref:
                return name, item
    return None


def known_name(item: Item) -> str | None:
    """The item's card if known in this state, else None (never raises)."""
    try:
        return identity(item)
    except NeedsReveal:  # the holder of this state cannot see it
        return None


def ref_key(ref: str) -> tuple[int, str]:
    """Sort key putting ``a2`` before ``a10`` whatever the padding."""
    return (len(ref), ref)


def new_zone(readers: list[str] | None = None, public: bool = False) -> Zone:
    return Zone(items=[], readers=list(readers or []), public=public)
