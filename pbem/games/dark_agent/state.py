"""Dark Agent options and state Structs, the grid geometry and small helpers.

The operation area (TDO) is 7 lines (A-G) of 5 cells (1-5, 1 nearest the
line's 3 satellite slots); cell index = line * 5 + position. Zones:

* ``cell:A1`` ... ``cell:G5``  the card lying in a cell (0 or 1); public.
* ``area:deck``   the operation-area deck (laid out by ``deal``); nobody reads it;
                  drawn by the beacons in peer games (``Dealing.by_beacon``).
* ``eq:deck``     the equipment deck; nobody reads it.
* ``eq:discard``  used equipment; public.
* ``hand:<seat>`` a seat's equipment; read by that seat.
* ``taken:<seat>`` sentries, AIMs and Kara a seat took; public.

Spies and satellites are the players' pieces, not cards: they are public
fields of the state (`spy_cell`, `sats`). Everything else is public.
"""

from __future__ import annotations

import msgspec

from pbem.games.base import GameState, Item, NeedsReveal, Outcome, Zone, identity, share_zones
from pbem.games.dark_agent.catalogue import Catalogue

LINES = 7
CELLS_PER_LINE = 5
CELLS = LINES * CELLS_PER_LINE
SLOTS = 3  # satellites per line
LINE_NAMES = "ABCDEFG"
NEUTRAL = ""  # owner of a neutral satellite
KARA_SPY = "kara"  # the double-spy token used on Kara

# phases
DEAL = "deal"        # set-up: the area waits to be laid out (the first file of play)
PLACE = "place"      # set-up: satellites placed one at a time
MOVE = "move"        # phase 1
ACT = "act"          # phase 2
DEPLOY = "deploy"    # a Support / Rubber boat / power waits for its cell
JACKET = "jacket"    # a spy is hit: its owner, who holds equipment, says if a jacket saves it
MEDIA = "media"      # end of turn: Media rearranges 3 cards
VOTE = "vote"        # UN peace phase: secret simultaneous vote
TALLY = "tally"      # votes in: the rules count them (advance)
OVER = "over"

AREA_DECK = "area:deck"
EQ_DECK = "eq:deck"
EQ_DISCARD = "eq:discard"


def cell_zone(cell: int) -> str:
    return CELL_ZONES[cell]


def hand(seat: str) -> str:
    return f"hand:{seat}"


def taken(seat: str) -> str:
    return f"taken:{seat}"


def cell_name(cell: int) -> str:
    return f"{LINE_NAMES[cell // CELLS_PER_LINE]}{cell % CELLS_PER_LINE + 1}"


#: the zone of each cell, A1..G5 (a negative index counts from G5, as
#: `cell_name` does)
CELL_ZONES = tuple(f"cell:{cell_name(c)}" for c in range(CELLS))


def parse_cell(text: str) -> int | None:
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in LINE_NAMES or t[1] not in "12345":
        return None
    return LINE_NAMES.index(t[0]) * CELLS_PER_LINE + int(t[1]) - 1


def line_of(cell: int) -> int:
    return cell // CELLS_PER_LINE


def pos_of(cell: int) -> int:
    return cell % CELLS_PER_LINE


def neighbours(cell: int) -> list[int]:
    """Orthogonally adjacent cells (lines are neighbours, and so are positions)."""
    line, pos = line_of(cell), pos_of(cell)
    out = []
    for dl, dp in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nl, np_ = line + dl, pos + dp
        if 0 <= nl < LINES and 0 <= np_ < CELLS_PER_LINE:
            out.append(nl * CELLS_PER_LINE + np_)
    return out


def spy_id(seat: str, level: int) -> str:
    return f"{seat}/{level}"


def spy_owner(spy: str) -> str:
    return spy.rpartition("/")[0]


def spy_level(spy: str) -> int:
    return int(spy.rpartition("/")[2])


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Dark Agent options.

    `aims`: the game ends when this many AIMs are taken (2-5; solo: targets,
    Kara counting as one). `kara`: Kara must be taken too before the game
    ends. `nuclear`: nuclear deterrence added to every attack (seed: 3; 0
    turns it off). `satellites`: satellites per player; `neutral`: neutral
    satellites. `rounds`: end after this many rounds even if the AIMs are not
    taken (0: no limit; solo games always end after 10 + aims). `catalogue`:
    a user's own catalogue (the CLI reads ``--option catalogue=FILE`` into
    lines). `powers`: ``table`` (seat i gets the catalogue's power i) or
    ``random`` (public chance deals them). `area`: a scenario option (hotseat
    only) fixing the 35 cards of the area, A1..G5, by card id or name.
    """

    aims: int = 3
    kara: bool = False
    nuclear: int = 3
    satellites: int = 3
    neutral: int = 2
    rounds: int = 0
    powers: str = "table"
    catalogue: list[str] | None = None
    area: list[str] | None = None


class State(GameState, kw_only=True):
    """The Dark Agent state (see the module docstring for the zones).

    `seats`: every seat in turn order (counter-clockwise) as listed at set-up;
    `order`: this round's order (the first player rotates); `turn`: index in
    `order` of the seat to play. `sats[line]`: the owners of the satellites
    in that line (``""``: neutral). `spy_cell`: spy id (``seat/level``) ->
    cell, or -1 on its owner's board. `turn_*` fields live for one turn.
    """

    catalogue: Catalogue
    seats: list[str]
    order: list[str]
    turn: int = 0
    round: int = 1
    phase: str = DEAL
    target: int = 3
    kara_needed: bool = False
    nuclear: int = 3
    max_rounds: int = 0
    solo: bool = False
    to_place: list[str] = []
    sats: list[list[str]] = []
    spy_cell: dict[str, int] = {}
    power: dict[str, str] = {}
    super_left: dict[str, bool] = {}
    double_holder: str = ""
    tokens: dict[str, int] = {}  # AIM ref -> investigation tokens
    last_aim: str = ""  # seat holding the last-AIM chip
    # one turn's bookkeeping
    selected: list[int] = []
    used_sats: list[int] = []  # satellites used per line this turn
    effects: list[str] = []  # equipment effect kinds active this turn (by card id)
    adrenaline: list[str] = []  # spies whose level counts twice this turn
    star_used: bool = False
    powers_used: list[str] = []
    turned: str = ""  # spy turned with the double-spy token this turn
    media: bool = False
    deploy_from: str = ""  # what waits for a `deploy` cell
    hit: str = ""  # the spy hit, while its owner answers with or without a jacket
    votes: dict[str, bool] = {}
    last_roll: list[int] = []
    log: list[str] = []
    outcome: Outcome | None = None


def thaw(state: State) -> State:
    """A copy of `state` for the rules to change, for a small part of what
    `copy_struct` costs: its zones shared until changed
    (`pbem.games.base.own_zone`; the rules end with `settle_zones`), its
    own copy of every list and dict the rules change in place, and shared
    the rest: frozen values (the catalogue above all, so that its index is
    built once: `catalogue.index`) and `REPLACED` fields."""
    s = state.__copy__()
    s.zones = share_zones(state.zones)
    s.to_place = list(state.to_place)
    s.sats = [list(line) for line in state.sats]
    s.spy_cell = dict(state.spy_cell)
    s.super_left = dict(state.super_left)
    s.tokens = dict(state.tokens)
    s.selected = list(state.selected)
    s.used_sats = list(state.used_sats)
    s.effects = list(state.effects)
    s.adrenaline = list(state.adrenaline)
    s.powers_used = list(state.powers_used)
    s.votes = dict(state.votes)
    return s


#: the fields the rules replace whole and never change in place (`thaw` shares them)
REPLACED = frozenset({"seats", "order", "power", "last_roll", "log"})


def known(item: Item) -> str | None:
    try:
        return identity(item)
    except NeedsReveal:
        return None


def card_at(state: State, cell: int) -> Item | None:
    items = state.zones[cell_zone(cell)].items
    return items[0] if items else None


def spy_at(state: State, cell: int) -> str | None:
    for spy, where in state.spy_cell.items():
        if where == cell:
            return spy
    return None


def is_empty(state: State, cell: int) -> bool:
    return card_at(state, cell) is None and spy_at(state, cell) is None


def active(state: State) -> str:
    """The seat whose turn it is (after the last turn of a round: that seat)."""
    return state.order[min(state.turn, len(state.order) - 1)]


def new_zone(readers: list[str] | None = None, public: bool = False) -> Zone:
    return Zone(items=[], readers=list(readers or []), public=public)
