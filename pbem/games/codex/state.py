"""Codex options and state Structs (rules version 2 on; 3 since the Red and Green specs).

Zones (`GameState.zones`), for each seat S:

* ``deck:S``     S's draw pile; nobody reads it (a private deck: S knows
                 what it holds, nobody knows the order).
* ``top:S``      the top of S's draw pile as far as S has looked at it
                 (`hidden`), in order; read by S. Draws take it first.
* ``hand:S``     S's hand; read by S.
* ``discard:S``  S's face-down discard pile; read by S (the opponent sees
                 the count, and names the cards it saw go there).
* ``codex:S``    what is left of S's codex cards; read by S. Its refs are
                 given after a secret shuffle, so a ref says nothing.
* ``workers:S``  the face-down cards S hired as workers; read by S.
* ``play:S``     the units, heroes, upgrades and buildings (cards) S
                 controls; public.
* ``ongoing:S``  S's ongoing spells in play; public.
* ``future:S``   S's cards waiting in the future (forecast); public.
* ``trash:S``    S's cards removed from the game; read by S (cards everyone
                 saw go there are named in `State.shown`).

Heroes wait in the command zone (`Player.heroes`, public) and get a fresh
ref each time one is summoned. Everything in play has its state in
`State.things` (damage, runes and other counters, modifiers, exhaustion ...);
`players` holds gold, workers, the base and the tech buildings and add-ons
(`Building`, addressed ``SEAT:KIND``). Current values (ATK, HP, keywords,
costs, what may attack or be targeted) are never stored: `values` computes
them from the printed values, the counters and every continuous effect.

What is being resolved is data too: `queue` holds the pending triggers and
engine steps (`Pending`), `prompt` the choice the active player owes when
one of them needs a decision nobody gave (README: "Choices").
"""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.games.base import GameState, Outcome

OPENING = "opening"    # the opening hands are due (advance, no decision)
TECH = "tech"          # the active seat techs (and orders its upkeep)
UPKEEP = "upkeep"      # ready and upkeep are due (advance, no decision)
MAIN = "main"          # the active seat's main phase
ENDING = "ending"      # the turn ends: draw phase done, end-of-turn effects resolve
OVER = "over"


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Codex options.

    `mode`: see below (`modes`). `p1`, `p2`: the
    spec of the first and second seat (``pbem info codex`` lists the
    playable ones), three of them comma-separated in 3-hero mode (the
    first is the main one); each seat gets the starter deck of its (main)
    spec's colour unless `p1_starter` / `p2_starter` names another colour
    whose starter deck is written (``neutral``, ``red``, ``green``; in
    3-hero mode the colour of one of the seat's heroes). `first` is the
    older way to say it: ``finesse`` means p1=finesse, p2=bashing.
    `map`: a map card (`maps`; two seats only). `scenario`: the lines of a
    scenario file (hotseat only, see `scenario`) fixing decks, hands and a
    position.

    `mode`: ``1hero`` (the default: two seats, one hero each), ``3hero``
    (two seats, three heroes each: `p1`, `p2` name three specs), ``ffa``
    (free-for-all, 3 to 5 seats: `players` says how many where the seats
    are not given, as ``pbem demo`` needs) or ``2v2`` (Two-Headed Dragon:
    four seats in two teams, ``--seat NAME:TEAM``, or the first and third
    seat against the second and fourth); `p3` ... `p5` and their starters
    as `p1`.
    """

    mode: str = ""
    map: str = ""
    players: int = 0
    p1: str = ""
    p2: str = ""
    p3: str = ""
    p4: str = ""
    p5: str = ""
    p1_starter: str = ""
    p2_starter: str = ""
    p3_starter: str = ""
    p4_starter: str = ""
    p5_starter: str = ""
    first: str = ""
    scenario: list[str] | None = None


class Building(msgspec.Struct):
    """A tech building or add-on: `done` once construction finished;
    `spec` the spec a tech lab unlocks (3-hero mode)."""

    kind: str
    damage: int = 0
    done: bool = False
    spec: str = ""


class Hero(msgspec.Struct, kw_only=True):
    """A hero of a seat's command zone (`home`) or in play (`ref`)."""

    home: bool = True
    ref: str = ""
    back: int = 0             # turn number from which it may be summoned again
    gone: bool = False        # out of the game (the Burial Grounds map)


class Player(msgspec.Struct, kw_only=True):
    spec: str                 # the spec of the (first, main) hero
    colour: str = "neutral"   # the colour of the starter deck
    #: the specs of the seat's heroes, main first: its codex holds their cards
    specs: list[str] = []
    heroes: dict[str, Hero] = {}
    #: 3-hero mode: the specs its tech II building makes, fixed when it is
    #: first begun (two under the Vortoss Ruins map, the tech lab's included)
    tech_specs: list[str] = []
    gold: int = 0
    #: workers on the worker card (4 or 5); hired ones are cards in workers:S
    base_workers: int = 4
    base_damage: int = 0
    buildings: dict[str, Building] = {}
    hired: int = 0            # turn number of the last hire
    tech_due: bool = False    # S techs at the start of its next turn
    reshuffled: bool = False  # reshuffled the discard this main phase
    on_top: int = 0           # cards on top of the deck in a known order
    turns: int = 0            # turns S has begun
    built: list[str] = []     # tech buildings built once (rebuilt free)
    #: effects on the player with their end: name -> turn number they last
    #: through (``instant_build`` ...)
    flags: dict[str, int] = {}

    # 1-hero mode: the one hero, as views and tests ask for it
    @property
    def hero(self) -> str:
        return next(iter(self.heroes))

    @property
    def hero_home(self) -> bool:
        return self.heroes[self.hero].home

    @property
    def hero_back(self) -> int:
        return self.heroes[self.hero].back


class Mod(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A modifier on a thing for a while (``until``: ``turn`` = the end of
    this turn; ``upkeep:SEAT`` = SEAT's next upkeep; ``""`` = while it stays
    in play). `armor` is what is left of the armor it gave; `face` a
    transformation; `grant` names abilities of `card` the thing has
    meanwhile (a delayed "it takes 1 damage at the end of the turn")."""

    until: str = "turn"
    #: a transformation: the card (a token's name) whose face, subtypes and
    #: colour it shows meanwhile; it keeps its tech level, runes, damage
    #: and attachments (rulings on Polymorph: Squirrel)
    face: str = ""
    atk: int = 0
    hp: int = 0
    armor: int = 0
    keywords: dict[str, int] = {}
    lose: list[str] = []
    cant: list[str] = []
    src: str = ""
    grant: list[str] = []
    card: str = ""
    #: the printed ATK it has meanwhile (swapped: Chaos Mirror's kind)
    base_atk: int | None = None
    #: the thing dies when this ends (Vandy Anadrose's gift)
    dies: bool = False


class Thing(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A card (or token) in play; its ref is its key in `State.things`."""

    card: str
    owner: str
    controller: str
    since: int                # turn it came under its controller's control
    arrived: int = 0          # turn it arrived in play
    damage: int = 0
    hit_by: str = ""          # what its last damage was: combat or effect ...
    hit_src: str = ""         # ... and what dealt it
    runes: int = 0            # net +1/+1 runes (negative: -1/-1 runes)
    counters: dict[str, int] = {}   # other runes: time, blood, sword ...
    exhausted: bool = False
    attacked: int = 0         # turn of its last attack
    level: int = 0            # heroes
    max_since: int = 0        # heroes: turn it reached max level (0: not max)
    mods: list[Mod] = []
    armor_used: int = 0       # armor of its continuous sources used up ...
    armor_turn: int = 0       # ... in this turn
    used: dict[str, int] = {}  # activated ability -> uses this turn (`used_turn`)
    used_turn: int = 0
    disabled: bool = False    # does not ready in its next ready step
    attached: str = ""        # attachments: the thing it is attached to
    links: list[str] = []     # things this card binds (Two Step's partners)
    #: when it came under its controller's control (or, a hero, reached its
    #: band): `State.clock` then; orders continuous effects (`values`)
    stamp: int = 0
    #: control taken for a while: the seat that gets it back, and when
    #: (an ``until`` of `Mod`: ``turn`` ...)
    returns_to: str = ""
    returns_at: str = ""


class Future(msgspec.Struct, kw_only=True):
    """A card waiting in the future (forecast): it arrives when its last
    time rune is removed."""

    card: str
    owner: str
    time: int


class Lasting(msgspec.Struct, kw_only=True):
    """A continuous effect of a card that has left play or never stayed (a
    spell's "until your next turn"): `card`'s static ability `key`, for
    `ctrl`, until `until` (as `Mod.until`); `src` the card's ref when it
    was played, `stamp` when the effect began."""

    card: str
    key: str
    ctrl: str
    src: str
    until: str
    stamp: int


class Pending(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Something waiting on the queue: a triggered ability (`kind`
    ``trigger``: `card`'s ability `key`, from `src`, controlled by `ctrl`) or
    an engine step (``step``: `key` names it). `ev` holds what the event
    said (``attacked``, ``subject``, ``player`` ...); `given` the answers the
    command that caused it already gave (a played unit's targets)."""

    kind: str
    key: str
    src: str = ""
    card: str = ""
    ctrl: str = ""
    ev: dict[str, str] = {}
    given: list[str] = []


class Prompt(msgspec.Struct, kw_only=True):
    """A decision the head of the queue needs: `kind` (``target``, ``may``,
    ``mode``, ``hero`` ...), `what` in words, the legal `options` (wire form).

    A ``card`` question (a card of the chooser's own hand or codex) lists
    no options, which would tell everyone what those zones hold: `zones`
    and the card filter `pick` say what may be chosen (or none, where
    `optional`), `taken` the cards chosen already for the same effect.
    An ``order`` question (`hidden.arrange_top`) lists none either: its
    one zone is the asker's ``top:S``, `optional` that some may be discarded."""

    seat: str
    kind: str
    what: str
    options: list[str] = []
    zones: list[str] = []
    pick: dict[str, Any] = {}
    taken: list[str] = []
    optional: bool = False


class Peek(msgspec.Struct, kw_only=True):
    """A hidden zone shown for a moment (`hidden`): `seat` added to the
    readers of `zone` until the next command of anyone, by which the
    dealer (or, in a peer game, the zone's owner) has delivered its cards
    to `seat`."""

    zone: str
    seat: str


class Combat(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The attack being resolved (continuous effects "while attacking ..." read it)."""

    attacker: str
    target: str
    spark: str = ""
    over: str = ""
    then: str = ""


class State(GameState, kw_only=True):
    seats: list[str]
    active: str
    #: the game mode (``1hero``, ``3hero``, ``ffa``: `seats` in turn order,
    #: ``2v2``: `teams`) and map card (a key of `maps.MAPS`, "" for none),
    #: from the options
    mode: str = "1hero"
    map: str = ""
    #: Two-Headed Dragon: seat -> its team's name
    teams: dict[str, str] = {}
    phase: str = UPKEEP
    turn: int = 1
    players: dict[str, Player] = {}
    things: dict[str, Thing] = {}
    future: dict[str, Future] = {}
    #: locked patrol zones: seat -> 5 slots (ref or "")
    patrol: dict[str, list[str]] = {}
    #: the active player's trigger order: sources to resolve first, and
    #: those of them that have had a trigger to order so far
    first: list[str] = []
    ordered: list[str] = []
    #: answers the current command gave for later choices, not yet used
    answers: list[str] = []
    queue: list[Pending] = []
    #: triggers of the step being resolved, queued in front once it is done
    fresh: list[Pending] = []
    prompt: Prompt | None = None
    combat: Combat | None = None
    #: seats that take an extra turn after the current one, in order
    extra_turns: list[str] = []
    #: continuous effects lasting a while after their card left (`Lasting`)
    lasting: list[Lasting] = []
    #: the tower's one detection this turn: seat of the tower -> ref detected
    detected: dict[str, str] = {}
    #: hidden zones shown for a moment (`Peek`), undone by the next command
    peeks: list[Peek] = []
    #: cards everyone saw that now lie in hidden zones: ref -> name
    shown: dict[str, str] = {}
    #: a counter that only goes up: the `Thing.stamp` of what changed last
    clock: int = 0
    #: free-for-all: gold the active seat got this turn for kills (at most 3)
    kill_gold: int = 0
    #: free-for-all tie-break: the seats tied for the most base HP when a
    #: base was destroyed, and those of them still to take their one more
    #: turn, in order
    finalists: list[str] = []
    final_turns: list[str] = []
    #: what happened this turn, in words (public)
    log: list[str] = []
    last_log: list[str] = []
    outcome: Outcome | None = None


def other(state: State, seat: str) -> str:
    """The one opponent of a two-player game (never asked in a free-for-all)."""
    a, b = state.seats
    return b if seat == a else a


def team_of(state: State, seat: str) -> list[str]:
    """`seat` and its teammates (Two-Headed Dragon), in seat order."""
    if not state.teams:
        return [seat]
    return [s for s in state.seats if state.teams[s] == state.teams[seat]]


def turn_order(state: State) -> list[str]:
    """The seats in turn order: as seated, or in Two-Headed Dragon the first
    seat's team (its two players one after the other), then the other."""
    if not state.teams:
        return list(state.seats)
    first = team_of(state, state.seats[0])
    return first + [s for s in state.seats if s not in first]


def next_seat(state: State, seat: str) -> str:
    """Whose turn follows `seat`'s."""
    order = turn_order(state)
    return order[(order.index(seat) + 1) % len(order)]


def opponents(state: State, seat: str) -> list[str]:
    """The seats not on `seat`'s side."""
    mine = team_of(state, seat)
    return [s for s in state.seats if s not in mine]


def deck(seat: str) -> str:
    return f"deck:{seat}"


def top(seat: str) -> str:
    """The cards on top of `seat`'s draw pile that `seat` has looked at, in
    order (under the public cards `Player.on_top` counts): read by `seat`."""
    return f"top:{seat}"


def hand(seat: str) -> str:
    return f"hand:{seat}"


def discard(seat: str) -> str:
    return f"discard:{seat}"


def codex(seat: str) -> str:
    return f"codex:{seat}"


def workers(seat: str) -> str:
    return f"workers:{seat}"


def play(seat: str) -> str:
    return f"play:{seat}"


def ongoing(seat: str) -> str:
    return f"ongoing:{seat}"


def future(seat: str) -> str:
    return f"future:{seat}"


def trash(seat: str) -> str:
    return f"trash:{seat}"


def ref_key(ref: str) -> tuple[int, str]:
    return (len(ref), ref)
