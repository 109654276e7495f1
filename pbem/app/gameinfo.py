"""`pbem info GAME`: what a game is and which options `pbem new` takes.

Read from the game object itself (its `Options` Struct, `scenario_options`,
`file_options`, seat limits and summary), so the listing can never fall
behind the rules. `describe` is about a game kind; a game folder's own
`pbem info DIR` can sit beside it, taking the same shape plus the folder's
facts.
"""

from __future__ import annotations

import inspect
from typing import Any

import msgspec


def _default(value: Any) -> Any:
    if value is msgspec.UNSET or value is msgspec.NODEFAULT:
        return None
    return msgspec.to_builtins(value)


def describe(name: str) -> dict[str, Any]:
    """Title, seats, options (default, whether scenario-only, whether a file)."""
    from pbem import games

    game = games.get(name)
    info = msgspec.inspect.type_info(game.info.Options)
    options = []
    for f in info.fields:
        default = f.default if f.default is not msgspec.NODEFAULT else (
            f.default_factory() if f.default_factory is not msgspec.NODEFAULT else None)
        options.append({
            "name": f.name,
            "default": _default(default),
            "scenario": f.name in game.info.scenario_options,
            "file": f.name in game.info.file_options,
        })
    return {
        "game": game.info.name,
        "title": game.info.title,
        "aliases": list(games._REGISTRY[game.info.name][2]),
        "rules_version": game.info.rules_version,
        "seats": {"min": game.info.min_seats, "max": game.info.max_seats,
                  "demo": list(game.presentation.demo_seats(None))},
        "default_dealer": game.info.default_dealer,
        "options": options,
        "about_options": inspect.cleandoc(game.info.Options.__doc__ or ""),
        "catalogue": game.presentation.catalogue(),
        "summary": game.presentation.summary.strip(),
    }


def lines(info: dict[str, Any]) -> list[str]:
    """`describe` in words."""
    seats = info["seats"]
    out = [
        f"{info['title']} ({info['game']}{'; also ' + ', '.join(info['aliases']) if info['aliases'] else ''}), "
        f"rules {info['rules_version']}",
        f"seats: {seats['min']}-{seats['max']} (e.g. {' '.join('--seat ' + s for s in seats['demo'])})",
        f"dealer: {info['default_dealer']} unless --dealer says otherwise"
        + (" (pbem new asks for --referee NAME)" if info["default_dealer"] == "referee" else ""),
        "options (pbem new GAME DIR --option KEY=VALUE):",
    ]
    for o in info["options"]:
        default = o["default"]
        shown = "(none)" if default in (None, "", []) else str(default)
        marks = [m for m, on in (("scenario option: hotseat only", o["scenario"]), ("a file of lines", o["file"])) if on]
        out.append(f"  {o['name']:<12} default {shown}" + (f"  [{'; '.join(marks)}]" if marks else ""))
    if info["about_options"]:
        out.append("")
        out += [line.rstrip() for line in info["about_options"].splitlines()]
    if info.get("catalogue"):
        out.append("")
        out += info["catalogue"]
    return out
