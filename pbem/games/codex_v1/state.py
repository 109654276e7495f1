"""Codex options and state Structs.

Zones (`GameState.zones`), for each seat S:

* ``deck:S``     S's draw pile; nobody reads it (a private deck: S knows
                 what it holds, nobody knows the order).
* ``hand:S``     S's hand; read by S.
* ``discard:S``  S's face-down discard pile; read by S (the opponent sees
                 the count, and names the cards it saw go there).
* ``codex:S``    what is left of S's 24 codex cards; read by S. Its refs are
                 given after a secret shuffle, so a ref says nothing.
* ``workers:S``  the face-down cards S hired as workers; read by S.
* ``play:S``     the units, tokens and heroes S controls; public.
* ``ongoing:S``  S's ongoing spells in play; public.

Each seat's hero is public from the options: it is no card in a zone
(`Player.hero_home` says it waits in the command zone) and gets a fresh
ref each time it is summoned, so nothing is shown at set-up.

Everything else is public: `things` holds the state of each card in play
(damage, runes, exhaustion...), `players` gold, workers, buildings and the
base. Current values (ATK, HP, keywords, costs) are never stored: they are
recomputed from printed values and effects (`engine`).
"""

from __future__ import annotations

import msgspec

from pbem.games.base import GameState, Outcome

OPENING = "opening"    # the opening hands are due (advance, no decision)
TECH = "tech"          # the active seat techs (and orders its upkeep)
UPKEEP = "upkeep"      # ready and upkeep are due (advance, no decision)
MAIN = "main"          # the active seat's main phase
OVER = "over"


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Codex options (1-hero mode, neutral set).

    `first`: the spec of the first seat listed (``bashing`` or ``finesse``);
    the second seat plays the other. `scenario`: the lines of a scenario file
    (hotseat only, see `scenario`) fixing decks, hands and a position.
    """

    first: str = "bashing"
    scenario: list[str] | None = None


class Building(msgspec.Struct):
    """A tech building or add-on: `done` once construction finished."""

    kind: str
    damage: int = 0
    done: bool = False


class Player(msgspec.Struct, kw_only=True):
    spec: str
    hero: str
    gold: int = 0
    #: workers on the worker card (4 or 5); hired ones are cards in workers:S
    base_workers: int = 4
    base_damage: int = 0
    buildings: dict[str, Building] = {}
    hired: int = 0            # turn number of the last hire
    tech_due: bool = False    # S techs at the start of its next turn
    hero_back: int = 0        # turn number from which the hero may be summoned
    hero_home: bool = True    # the hero waits in the command zone
    reshuffled: bool = False  # reshuffled the discard this main phase
    on_top: int = 0           # cards on top of the deck in a known order
    turns: int = 0            # turns S has begun
    built: list[str] = []     # tech buildings built once (rebuilt free)


class Thing(msgspec.Struct, kw_only=True):
    """A unit, token or hero in play (its ref is its key in `State.things`)."""

    card: str
    owner: str
    controller: str
    since: int                # turn it came under its controller's control
    damage: int = 0
    runes: int = 0            # net +1/+1 runes (negative: -1/-1 runes)
    exhausted: bool = False
    attacked: int = 0         # turn of its last attack
    level: int = 0            # heroes
    max_since: int = 0        # heroes: turn it reached max level (0: not max)
    temp_atk: int = 0         # until end of turn
    temp_hp: int = 0
    temp_kw: list[str] = []   # keywords until end of turn
    armor_used: int = 0       # turn its squad-leader armor absorbed damage
    tokens_of: str = ""       # tokens: the spell that made it


class Ongoing(msgspec.Struct, kw_only=True):
    """An ongoing spell in play: who cast it (channeling) and its partners."""

    card: str
    owner: str
    caster: str = ""
    partners: list[str] = []


class State(GameState, kw_only=True):
    seats: list[str]
    active: str
    phase: str = UPKEEP
    turn: int = 1
    players: dict[str, Player] = {}
    things: dict[str, Thing] = {}
    spells: dict[str, Ongoing] = {}
    #: locked patrol zones: seat -> 5 slots (ref or "")
    patrol: dict[str, list[str]] = {}
    #: upkeep triggers to resolve first (refs), from the tech command
    upkeep_first: list[str] = []
    #: the tower's one detection this turn: seat of the tower -> ref detected
    detected: dict[str, str] = {}
    #: cards everyone saw that now lie in hidden zones: ref -> name
    shown: dict[str, str] = {}
    #: what happened this turn, in words (public)
    log: list[str] = []
    last_log: list[str] = []
    outcome: Outcome | None = None


def other(state: State, seat: str) -> str:
    a, b = state.seats
    return b if seat == a else a


def deck(seat: str) -> str:
    return f"deck:{seat}"


def hand(seat: str) -> str:
    return f"hand:{seat}"


def discard(seat: str) -> str:
    return f"discard:{seat}"


def codex(seat: str) -> str:
    return f"codex:{seat}"


def workers(seat: str) -> str:
    return f"workers:{seat}"


def command_zone(seat: str) -> str:
    return f"command:{seat}"


def play(seat: str) -> str:
    return f"play:{seat}"


def ongoing(seat: str) -> str:
    return f"ongoing:{seat}"


def ref_key(ref: str) -> tuple[int, str]:
    return (len(ref), ref)
