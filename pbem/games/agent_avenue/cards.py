"""Agent Avenue card data: the eight agents, their copies and movement icons.

Kept as a small table so that the rules read it instead of hard-coding
numbers. Each agent prints three icons, used when its owner has 1, 2 or 3+
agents of that name in play (counting the one just recruited). An icon is
either a signed number of spaces (negative: backward) or one of the two
special icons, which move nobody: `WIN` (the Codebreaker's third icon) and
`LOSE` (the Daredevil's third icon). Sidekick and Mole print a single icon,
repeated here three times.
"""

from __future__ import annotations

from collections import Counter

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
