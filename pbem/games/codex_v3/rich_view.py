"""The colour terminal picture of a Codex view (rich).

The same lines as the text picture (`view.render`), so it reads the same
without colour: colour only marks each side's heading, base HP, exhausted
things and the reader's own hand. rich is imported inside `render`.
"""

from __future__ import annotations

from typing import Any

from pbem.games.codex_v3.view import View, render as text_render


def _style(line: str, v: View) -> str:
    stripped = line.strip()
    if stripped.startswith("Game over"):
        return "bold reverse"
    if any(line.startswith(s.seat) for s in v.sides):
        return "bold bright_white" if line.startswith(f"{v.seat} ") else "bold"
    if stripped.startswith("- ") and "exhausted" in stripped:
        return "dim"
    if stripped.startswith("your "):
        return "green"
    if stripped.startswith("patrol:"):
        return "yellow"
    return ""


def render(v: View) -> Any:
    from rich.text import Text

    out = Text()
    lines = text_render(v).splitlines()
    for i, line in enumerate(lines):
        out.append(line, style=_style(line, v))
        if i + 1 < len(lines):
            out.append("\n")
    return out
