"""Agent Avenue card data: the eight agents, their copies and movement icons;
and, for advanced mode, the black-market cards and spaces (read from
``data/black_market.json``) with the movement modifiers of the ongoing ones.

Kept as a small table so that the rules read it instead of hard-coding
numbers. Each agent prints three icons, used when its owner has 1, 2 or 3+
agents of that name in play (counting the one just recruited). An icon is
either a signed number of spaces (negative: backward) or one of the two
special icons, which move nobody: `WIN` (the Codebreaker's third icon) and
`LOSE` (the Daredevil's third icon). Sidekick and Mole print a single icon,
repeated here three times.
"""

from __future__ import annotations

import pkgutil as _pkgutil
from collections import Counter

import msgspec

from pbem.errors import InvalidCommand

WIN = "WIN"
LOSE = "LOSE"

Icon = int | str

#: name -> (copies, (1st copy icon, 2nd copy icon, 3rd+ copy icon)); table order
#: is the order used wherever the game lists names.
AGENTS: dict[str, tuple[int, tuple[Icon, Icon, Icon]]] = {
    "Double Agent": (6, (-1, 6, -1)),
    "Enforcer": (6, (1, 2, 3)),
    "Codebreaker": (6, (0, 0, WIN)),
    "Daredevil": (6, (2, 3, LOSE)),
    "Saboteur": (6, (-1, -1, -2)),
    "Sentinel": (6, (0, 2, 6)),
    "Sidekick": (1, (4, 4, 4)),
    "Mole": (1, (-3, -3, -3)),
}

NAMES: tuple[str, ...] = tuple(AGENTS)
COPIES: dict[str, int] = {name: copies for name, (copies, _) in AGENTS.items()}
DECK_SIZE = sum(COPIES.values())  # 38

CODEBREAKER = "Codebreaker"
DAREDEVIL = "Daredevil"
#: how many Codebreakers (win) / Daredevils (lose) in play end the game
THRESHOLD = 3

BOARD_SIZE = 14
#: home space of the first and second seat listed
HOMES = (0, 7)
HAND_SIZE = 4
MAX_DISCARDS = 4


def full_deck() -> list[str]:
    """The 38 agents in table order (shuffle before use)."""
    return [name for name in NAMES for _ in range(COPIES[name])]


def icon(name: str, count: int) -> Icon:
    """The icon used for `name` when its owner has `count` (>= 1) of them in play."""
    icons = AGENTS[name][1]
    return icons[min(count, 3) - 1]


def steps(name: str, count: int) -> int:
    """Spaces moved (negative: backward) for that icon; special icons move 0."""
    value = icon(name, count)
    return value if isinstance(value, int) else 0


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


_BY_KEY = {_key(name): name for name in NAMES}


def lookup(text: str) -> str | None:
    """The canonical name for `text` (case, spaces and hyphens ignored), or None."""
    return _BY_KEY.get(_key(text))


def canonical(text: str) -> str:
    """Like `lookup` but raises `InvalidCommand` naming the valid names."""
    name = lookup(text)
    if name is None or not text.strip():
        raise InvalidCommand(
            f"unknown card name {text.strip()!r}; expected one of: {', '.join(NAMES)}",
            hint=f"agent names: {', '.join(NAMES)}",
        )
    return name


def deck_problems(names: list[str]) -> str | None:
    """Why `names` (canonical) is not exactly the 38-card agent deck, or None."""
    have = Counter(names)
    want = Counter(COPIES)
    missing = want - have
    extra = have - want
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append("missing " + ", ".join(f"{n} x{missing[n]}" for n in NAMES if missing[n]))
    if extra:
        parts.append("too many " + ", ".join(f"{n} x{extra[n]}" for n in NAMES if extra[n]))
    return f"got {len(names)} cards, expected {DECK_SIZE}: " + "; ".join(parts)


# --- advanced mode: the black market -----------------------------------------
#
# The advanced board's black-market spaces and the 15 black-market cards are
# data (``data/black_market.json``), read once here, so a reprint or a house
# board changes a file, not the rules.

# through the package's loader (a zipped install works too); importlib.resources
# would load tempfile, shutil and the compression modules into every command
_MARKET = msgspec.json.decode(_pkgutil.get_data("pbem.games.agent_avenue", "data/black_market.json"))

#: spaces of the advanced board where a meeple ending its move takes a card
MARKET_SPACES: frozenset[int] = frozenset(_MARKET["market_spaces"])
#: black-market card name -> "ongoing" or "instant", in table order
MARKET_KIND: dict[str, str] = {c["name"]: c["kind"] for c in _MARKET["cards"]}
#: black-market card name -> its effect in a few words
MARKET_EFFECT: dict[str, str] = {c["name"]: c["effect"] for c in _MARKET["cards"]}
MARKET_NAMES: tuple[str, ...] = tuple(MARKET_KIND)
SUPPLY_SIZE = 3

LEADER = "Leader of the Pack"
MASTERPLAN = "Masterplan"
SECURITY = "Security System"
GETAWAY = "Getaway Car"
WATCHTOWER = "Watchtower"
SUPERCOMPUTER = "Supercomputer"
DISTRACTION = "Distraction Device"
TWIN = "Sinister Twin"
TRUCK = "Surveillance Truck"
SMOKE = "Smoke Screen"
OUTPOST = "Outpost"
SECRET = "Secret Recruit"
TROUBLE = "Double Trouble"
SPYCATION = "Spycation"
MIND = "Mind Control"

ENFORCER = "Enforcer"
SABOTEUR = "Saboteur"
DOUBLE_AGENT = "Double Agent"
SENTINEL = "Sentinel"

assert set(MARKET_NAMES) == {
    LEADER, MASTERPLAN, SECURITY, GETAWAY, WATCHTOWER, SUPERCOMPUTER, DISTRACTION, TWIN,
    TRUCK, SMOKE, OUTPOST, SECRET, TROUBLE, SPYCATION, MIND,
}, "data/black_market.json does not hold the 15 black-market cards"

_MARKET_BY_KEY = {_key(name): name for name in MARKET_NAMES}


def market_lookup(text: str) -> str | None:
    """The canonical black-market card name for `text`, or None."""
    return _MARKET_BY_KEY.get(_key(text))


def market_canonical(text: str) -> str:
    name = market_lookup(text)
    if name is None or not text.strip():
        raise InvalidCommand(
            f"unknown black-market card {text.strip()!r}; expected one of: {', '.join(MARKET_NAMES)}",
            hint=f"black-market cards: {', '.join(MARKET_NAMES)}",
        )
    return name


def move_steps(name: str, count: int, ongoing: set[str] | frozenset[str]) -> int:
    """Spaces moved for recruiting `name` (the `count`-th in play) with the
    owner's ongoing cards, in our decided order: the base icon, then the
    card-specific modifiers (Getaway Car is applied where the move ends)."""
    n = steps(name, count)
    if name == SABOTEUR and DISTRACTION in ongoing:
        n = abs(n)
    if name == DOUBLE_AGENT and TWIN in ongoing:
        n *= 2
    if name == ENFORCER and WATCHTOWER in ongoing:
        n += 2
    if name == CODEBREAKER and SUPERCOMPUTER in ongoing:
        n += 3
    return n
