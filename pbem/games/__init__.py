"""Games: one package per game, each importing only `pbem.games.base`.

The registry maps names and aliases to the module holding the game object,
so that `import pbem.games` stays cheap: a game's module is imported only
when a command needs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from pbem.errors import UnknownGame

if TYPE_CHECKING:
    from pbem.games.base import Game

#: canonical name -> (module, attribute, aliases)
_REGISTRY: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "agent-avenue": ("pbem.games.agent_avenue", "GAME", ("aa", "agentavenue", "agent_avenue")),
    "codenames": ("pbem.games.codenames", "GAME", ("cn",)),
}


def names() -> list[str]:
    """Canonical names of every registered game."""
    return sorted(_REGISTRY)


def canonical(name: str) -> str:
    key = name.strip().lower()
    for canon, (_, _, aliases) in _REGISTRY.items():
        if key == canon or key in aliases:
            return canon
    raise UnknownGame(f"unknown game {name!r}", hint=f"games: {', '.join(names())}")


def get(name: str) -> "Game":
    """The game object registered under `name` or one of its aliases."""
    module, attr, _ = _REGISTRY[canonical(name)]
    return getattr(importlib.import_module(module), attr)
