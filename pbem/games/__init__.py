"""Games: one package per game, each importing only `pbem.games.base`.

The registry maps names and aliases to the module holding the game object,
so that `import pbem.games` stays cheap: a game's module is imported only
when a command needs it. Games outside pbem come in by a package entry point
(group ``pbem.games``, `_plugins`) or, while one is being written, by
``PBEM_GAMES``.
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
    "dark-agent": ("pbem.games.dark_agent", "GAME", ("da", "darkagent", "dark_agent")),
    "codex": ("pbem.games.codex", "GAME", ("cx",)),
}


def _extra_games() -> None:
    """Games named by ``PBEM_GAMES`` (``NAME=MODULE:ATTR``, comma-separated):
    how a game that is not shipped with pbem (a test game, one being
    written) is played through the real CLI without editing this file."""
    import os

    for entry in filter(None, (e.strip() for e in os.environ.get("PBEM_GAMES", "").split(","))):
        name, sep, target = entry.partition("=")
        module, colon, attr = target.partition(":")
        if not (sep and colon and name and module and attr):
            raise UnknownGame(f"PBEM_GAMES entry {entry!r} is not NAME=MODULE:ATTR")
        _REGISTRY.setdefault(name.strip().lower(), (module.strip(), attr.strip(), ()))


_extra_games()

#: whether the ``pbem.games`` entry points have been read (`_plugins`)
_plugins_read = False


def _plugins() -> None:
    """Games installed as packages of their own: a distribution that
    declares an entry point in the group ``pbem.games`` (``NAME =
    "MODULE:ATTR"`` under ``[project.entry-points."pbem.games"]``) is
    registered under NAME. Read once, and only when a name is not found or
    every name is listed, so that commands on the shipped games never pay
    for scanning the installed distributions."""
    global _plugins_read
    if _plugins_read:
        return
    _plugins_read = True
    from importlib.metadata import entry_points

    for entry in entry_points(group="pbem.games"):
        module, _, attr = entry.value.partition(":")
        _REGISTRY.setdefault(entry.name.strip().lower(), (module.strip(), attr.strip() or "GAME", ()))


def shipped() -> list[str]:
    """The games that come with pbem (not those added by ``PBEM_GAMES``)."""
    return sorted(name for name, (module, _, _) in _REGISTRY.items() if module.startswith("pbem.games."))


def names() -> list[str]:
    """Canonical names of every registered game."""
    _plugins()
    return sorted(_REGISTRY)


def canonical(name: str) -> str:
    key = name.strip().lower()
    for attempt in range(2):
        for canon, (_, _, aliases) in _REGISTRY.items():
            if key == canon or key in aliases:
                return canon
        if attempt == 0:
            _plugins()
    raise UnknownGame(f"unknown game {name!r}", hint=f"games: {', '.join(names())}")


def get(name: str, rules_version: str | None = None) -> "Game":
    """The game registered under `name` (or an alias); with `rules_version`,
    the rules of that version, current or kept for old games: when a game's
    rules change, it bumps its `GameInfo.rules_version` and names the old
    rules in `GameInfo.editions` (a copy of the old package, or, for a few
    changed readings, the game with those rules functions replaced, as Dark
    Agent's `editions` do)."""
    from pbem.games.api import load

    canon = canonical(name)
    module, attr, _ = _REGISTRY[canon]
    game = getattr(importlib.import_module(module), attr)
    info = game.info
    if rules_version is None or rules_version == info.rules_version:
        return game
    if rules_version in info.editions:
        return load(info.editions[rules_version])
    known = sorted([info.rules_version, *info.editions])
    raise UnknownGame(
        f"{canon} rules version {rules_version} is not known to this pbem (it knows {', '.join(known)})",
        hint="a newer pbem may know it",
    )
