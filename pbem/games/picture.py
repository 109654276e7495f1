"""Small helpers for the SVG pictures of the games (`Presentation.svg`).

A game's picture is a pure function of a seat's *view* returning SVG text,
so it can only show what that seat may see. These helpers keep every
picture self-contained and safe to inline in an HTML page:

* every text and attribute value goes through `esc` (a card name or a
  player's name may hold ``<`` or ``&``);
* fonts are generic families only (no web fonts, nothing fetched);
* no ``href`` to anything outside the picture, no scripts, no ``<style>``
  element (its rules would leak into the page around an inlined picture):
  presentation is in attributes;
* numbers are written with at most one decimal, so the same view always
  gives the same bytes (golden files compare them).

Like `pbem.games.base`, this module imports only the standard library, so
every game may use it.
"""

from __future__ import annotations

import math
from html import escape

__all__ = ["esc", "num", "el", "text", "document", "polar", "SANS", "MONO"]

SANS = "sans-serif"
MONO = "monospace"


def esc(value: object) -> str:
    """Text or an attribute value, escaped for XML (quotes included)."""
    return escape(str(value), quote=True)


def num(value: float) -> str:
    """A coordinate with at most one decimal (``12``, ``12.5``)."""
    rounded = round(float(value), 1)
    if rounded == 0:
        rounded = 0.0  # never "-0"
    return str(int(rounded)) if rounded.is_integer() else f"{rounded:.1f}"


def _attr_name(key: str) -> str:
    # python names -> SVG names: font_size -> font-size, class_ -> class
    return key.rstrip("_").replace("_", "-")


def attrs(values: dict[str, object]) -> str:
    out = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        if isinstance(value, float):
            value = num(value)
        out.append(f' {_attr_name(key)}="{esc(value)}"')
    return "".join(out)


def el(tag: str, *children: str, **values: object) -> str:
    """An element; `children` are already-built SVG strings."""
    inner = "".join(children)
    if not inner:
        return f"<{tag}{attrs(values)}/>"
    return f"<{tag}{attrs(values)}>{inner}</{tag}>"


def text(x: float, y: float, content: object, size: float = 14, **values: object) -> str:
    """A line of text in the generic sans-serif family (escaped)."""
    values.setdefault("font_family", SANS)
    return f"<text{attrs({'x': float(x), 'y': float(y), 'font_size': float(size), **values})}>{esc(content)}</text>"


def polar(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    """The point at `degrees` (0 = right, clockwise, as SVG's y axis points down)."""
    a = math.radians(degrees)
    return cx + radius * math.cos(a), cy + radius * math.sin(a)


def document(width: int, height: int, title: str, *body: str, background: str = "#ffffff", **values: object) -> str:
    """A complete SVG document with an accessible title."""
    head = attrs(
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": width,
            "height": height,
            "viewBox": f"0 0 {width} {height}",
            "role": "img",
            "aria-label": title,
            **values,
        }
    )
    return (
        f"<svg{head}><title>{esc(title)}</title>"
        + el("rect", x=0, y=0, width=width, height=height, fill=background)
        + "".join(body)
        + "</svg>\n"
    )
