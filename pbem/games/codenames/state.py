"""Codenames options, state Structs and small helpers to read them.

Zones (`GameState.zones`):

* ``key``      the key card: one item per uncovered cell, ref ``kNN`` for cell
               NN (0..24, row by row), card ``red`` | ``blue`` | ``bystander``
               | ``assassin``; read by the spymasters (coop: the one
               spymaster).
* ``covered``  the covered cells, in the order they were covered: a cell's
               key item moves here when it is guessed (or covered by a
               spymaster), so the protocol must reveal it and everyone can
               check its commitment. Public.

Everything else is public: the 25 grid words, the starting team (which the
key decides, but which the whole table knows from the start), the roster,
the clues and the guesses.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from pbem.games.base import GameState, Item, Known, NeedsReveal, Outcome, Zone, copy_zones, identity

RED = "red"
BLUE = "blue"
BYSTANDER = "bystander"
ASSASSIN = "assassin"
TEAMS = (RED, BLUE)
COLOURS = (RED, BLUE, BYSTANDER, ASSASSIN)

# roles given at `pbem new` (--seat NAME:ROLE)
RED_SPYMASTER = "red-spymaster"
BLUE_SPYMASTER = "blue-spymaster"
SHARED = "shared"  # the three-player variant's operative, who guesses for both teams
SPYMASTER_OF = {RED: RED_SPYMASTER, BLUE: BLUE_SPYMASTER}
ROLES = (RED_SPYMASTER, BLUE_SPYMASTER, RED, BLUE, SHARED)

VARIANTS = ("standard", "coop", "three", "duet")
GUESS_CAPS = ("open", "plus-one")  # Duet: guess while right, or number + 1
REVIEWS = ("auto", "opponent")

# the key card: the starting team has 9 agents, the other 8
STARTING_AGENTS = 9
OTHER_AGENTS = 8
BYSTANDERS = 7
ASSASSINS = 1

# phases
CLUE = "clue"  # the spymaster of `team` gives a clue
REVIEW = "review"  # clue_review=opponent: the opposing spymaster accepts or objects
PENALTY = "penalty"  # after an objection: the objector may cover one of their own agents
GUESS = "guess"  # the captain of `team` guesses (an ordered list) or passes
RESOLVE = "resolve"  # no decision: the pending guesses are revealed in order (`advance`)
GHOST = "ghost"  # coop: the spymaster covers one agent of the ghost team
SUDDEN = "sudden"  # Duet: the time bank is empty; guesses only, any miss loses
OVER = "over"

KEY = "key"
COVERED = "covered"

UNLIMITED = "unlimited"
#: a clue's number: 0-9, or "unlimited" (0 and unlimited both lift the guess cap)
Number = Annotated[int, msgspec.Meta(ge=0, le=9)] | Literal["unlimited"]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Codenames options (``--option KEY=VALUE``).

    `variant`: ``standard`` (4+ players), ``coop`` (2-3 players against the
    ghost team) or ``three`` (3 players, two spymasters share one operative).
    `language`: ``en`` or ``sv`` (the deck, the stemmer and the bots' clues).
    `words`: a user's own word list replacing the deck (25+ distinct words).
    `clue_review`: ``auto`` (the engine's checks only) or ``opponent`` (the
    opposing spymaster also accepts or objects to each clue).
    `hyphen`: allow one internal hyphen in clues. `first`: ``red`` or
    ``blue`` to fix the starting team (Duet: ``a`` or ``b``, the side that
    gives the first clue); empty: chance decides.

    Duet only (``variant=duet``, see ``DUET.md``): `timer`, the timer
    tokens in the time bank (9 in the standard game); `guess_cap`:
    ``open`` (guess on while right) or ``plus-one`` (at most number + 1).

    Scenario options (tests, golden transcripts, teaching): `grid` fixes the
    25 words row by row (public information, allowed in every mode); `key`
    fixes the key card as 25 letters ``r`` ``b`` ``n`` ``x`` (red, blue,
    bystander, assassin; spaces and ``/`` ignored), 9 of the starting team,
    8 of the other, 7 ``n``, 1 ``x`` (Duet: two sides of 25 letters ``g``
    ``n`` ``x``, side a then side b, parted by ``/``, with the standard
    overlap): it is hidden information, so only the hotseat dealer accepts
    it (`Codenames.scenario_options`).
    """

    variant: str = "standard"
    language: str = "en"
    words: list[str] | None = None
    clue_review: str = "auto"
    hyphen: bool = False
    first: str = ""
    grid: list[str] | None = None
    key: str | None = None
    timer: int = 9
    guess_cap: str = "open"


class Turn(msgspec.Struct, kw_only=True):
    """One team's turn, as the table saw it: the clue, its review status,
    the words guessed in order, how the turn ended, and the cover a
    spymaster made after it (coop: the ghost's agent; after an objection:
    the objector's own agent)."""

    team: str
    word: str
    number: Number
    status: str = "accepted"  # "pending" (awaiting review) | "accepted" | "objected"
    guesses: list[str] = []
    #: "" while it runs | "miss" | "cap" | "pass" | "assassin" | "over" (a
    #: team has all its agents covered) | "objected"
    end: str = ""
    cover: str | None = None
    #: clue_review=opponent: why the checks find the clue objectionable (a
    #: possible compound, a substring), shown to the judge; None if clean
    concern: str | None = None


class Member(msgspec.Struct, frozen=True):
    """A seat and its role (``red-spymaster``, ``red``, ``shared`` ...)."""

    seat: str
    role: str


class State(GameState, kw_only=True):
    """The Codenames state (see the module docstring for the zones).

    `roster` lists the seats with their roles in the order given at set-up
    (a list, not a mapping: canonical encodings sort mapping keys, and the
    order decides the captains);
    `team` is the team whose turn it is; `pending` the cells of the
    captain's guess list still to resolve, `then_pass` whether the list ends
    with a pass; `history` every turn so far (the last one is the current
    turn while it runs).
    """

    variant: str = "standard"
    language: str = "en"
    clue_review: str = "auto"
    hyphen: bool = False
    roster: list[Member]
    words: list[str]
    starting: str
    team: str
    phase: str = CLUE
    pending: list[int] = []
    then_pass: bool = False
    history: list[Turn] = []
    outcome: Outcome | None = None
    #: Duet: timer tokens left in the time bank, the guess cap, and the
    #: sides whose agents are all found (they give no more clues)
    timer: int = 0
    guess_cap: str = "open"
    done: list[str] = []


def thaw(state: State) -> State:
    """A copy of `state` for the rules to change (what `copy_struct` gives,
    for a fraction of the cost): its own zones and lists, and its own copy
    of the current turn, the last of `history`, the only turn the rules
    change. Earlier turns are shared, as are the frozen values (the
    roster's members, the outcome)."""
    new = state.__copy__()
    new.zones = copy_zones(state.zones)
    new.roster = list(state.roster)
    new.words = list(state.words)
    new.pending = list(state.pending)
    new.done = list(state.done)
    if state.history:
        turn = state.history[-1].__copy__()
        turn.guesses = list(turn.guesses)
        new.history = [*state.history[:-1], turn]
    else:
        new.history = []
    return new


# --- reading the state -----------------------------------------------------------


def other(team: str) -> str:
    return BLUE if team == RED else RED


def cell_ref(cell: int) -> str:
    return f"k{cell:02d}"


def ref_cell(ref: str) -> int:
    return int(ref[1:])


def agents_total(state: State, team: str) -> int:
    return STARTING_AGENTS if team == state.starting else OTHER_AGENTS


def spymaster(state: State, team: str) -> str | None:
    for m in state.roster:
        if m.role == SPYMASTER_OF[team]:
            return m.seat
    return None


def spymasters(state: State) -> list[str]:
    return [m.seat for m in state.roster if m.role in (RED_SPYMASTER, BLUE_SPYMASTER)]


def operatives(state: State, team: str) -> list[str]:
    """The team's operatives in the order given (the first is the captain);
    in the three-player variant the shared operative plays for both teams."""
    return [m.seat for m in state.roster if m.role in (team, SHARED)]


def captain(state: State, team: str) -> str | None:
    ops = operatives(state, team)
    return ops[0] if ops else None


def human_team(state: State) -> str:
    """Coop: the players' team (the ghost team is the other)."""
    for role in (m.role for m in state.roster):
        if role in TEAMS:
            return role
        if role in (RED_SPYMASTER, BLUE_SPYMASTER):
            return role.split("-")[0]
    return RED


def role_of(state: State, seat: str | None) -> str | None:
    for m in state.roster:
        if m.seat == seat:
            return m.role
    return None


def key_items(state: State) -> list[Item]:
    return state.zones[KEY].items


def covered_items(state: State) -> list[Item]:
    return state.zones[COVERED].items


def covered_cells(state: State) -> dict[int, Item]:
    return {ref_cell(it.ref): it for it in covered_items(state)}


def known_colour(item: Item) -> str | None:
    """The item's colour if this state knows it, else None (never raises)."""
    try:
        return identity(item)
    except NeedsReveal:
        return None


def cell_of_word(state: State, word: str) -> int | None:
    try:
        return state.words.index(word)
    except ValueError:
        return None


def uncovered_words(state: State) -> list[str]:
    """The visible codenames (not yet covered), in grid order."""
    done = {ref_cell(it.ref) for it in covered_items(state)}
    return [w for i, w in enumerate(state.words) if i not in done]


def covered_count(state: State, colour: str) -> int:
    """How many cells of `colour` are covered (covered cells are public)."""
    return sum(1 for it in covered_items(state) if type(it) is Known and it.card == colour)


def new_zone(readers: list[str] | None = None, public: bool = False) -> Zone:
    return Zone(items=[], readers=list(readers or []), public=public)


def current_turn(state: State) -> Turn | None:
    return state.history[-1] if state.history else None


def guess_cap(number: int | str) -> int | None:
    """How many guesses a clue allows: number + 1, none for 0 and unlimited."""
    if number == UNLIMITED or number == 0:
        return None
    return int(number) + 1
