"""Codex card data, read from ``data/neutral.json`` through the package loader.

The data file is our own structured form of the card facts (names, costs,
tech levels, ATK/HP, subtypes, keywords) with a short description of each
ability in our words; `hook` names the ability code in `abilities`. Other
colours are more data files plus hooks, not engine changes.
"""

from __future__ import annotations

import json as _json
import pkgutil as _pkgutil
import re
from typing import Any

_DATA: dict[str, Any] = _json.loads(
    _pkgutil.get_data("pbem.games.codex_v1", "data/neutral.json").decode("utf-8")
)

CARDS: dict[str, dict[str, Any]] = _DATA["cards"]
HEROES: dict[str, dict[str, Any]] = _DATA["heroes"]
BUILDINGS: dict[str, dict[str, Any]] = _DATA["buildings"]
STARTER: list[str] = list(_DATA["starter"])
CODEX: dict[str, list[str]] = {k: list(v) for k, v in _DATA["codex"].items()}
#: the spec each hero leads
HERO_OF: dict[str, str] = {spec: name for name, h in HEROES.items() for spec in [h["spec"]]}
SPECS = tuple(CODEX)

TECH_BUILDINGS = ("tech1", "tech2", "tech3")
ADDONS = ("surplus", "tower")
BASE_HP = 20
GOLD_CAP = 20
HAND_MAX = 5
SLOTS = ("squad-leader", "elite", "scavenger", "technician", "lookout")
SLOT_SHORT = {"sl": "squad-leader", "squad-leader": "squad-leader", "elite": "elite",
              "scavenger": "scavenger", "scav": "scavenger", "technician": "technician",
              "tech": "technician", "lookout": "lookout"}


def codex_cards(spec: str) -> list[str]:
    """The 24 codex cards of a spec (two of each)."""
    return [name for name in CODEX[spec] for _ in range(2)]


def card(name: str) -> dict[str, Any]:
    return CARDS[name]


def is_hero(name: str) -> bool:
    return name in HEROES


def kind(name: str) -> str:
    """``hero``, ``unit``, ``token``, ``minor``, ``spell``, ``ultimate`` or ``ongoing``."""
    return "hero" if name in HEROES else CARDS[name]["type"]


def is_spell(name: str) -> bool:
    return kind(name) in ("minor", "spell", "ultimate", "ongoing")


def is_unit_card(name: str) -> bool:
    return kind(name) in ("unit", "token")


def tech(name: str) -> int:
    return int(CARDS[name].get("tech", 0))


def slug(name: str) -> str:
    """``Star-Crossed Starlet`` -> ``star-crossed-starlet``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


_BY_SLUG = {slug(n): n for n in list(CARDS) + list(HEROES)}


def lookup(text: str) -> str | None:
    """The card or hero a typed name means (case, spaces and hyphens ignored)."""
    key = slug(text)
    if key in _BY_SLUG:
        return _BY_SLUG[key]
    squashed = key.replace("-", "")
    for s, n in _BY_SLUG.items():
        if s.replace("-", "") == squashed:
            return n
    return None


def band(hero: str, level: int) -> int:
    """0, 1 or 2: the hero's band at `level`."""
    bands = HEROES[hero]["bands"]
    return max(i for i, b in enumerate(bands) if level >= b["from"])


def max_level(hero: str) -> int:
    return int(HEROES[hero]["bands"][-1]["from"])


def describe(name: str) -> str:
    """One line about a card in our own words."""
    if name in HEROES:
        h = HEROES[name]
        parts = [f"{name}, {h['title']} ({h['spec']} hero, cost {h['cost']})"]
        for b in h["bands"]:
            parts.append(f"L{b['from']}+ {b['atk']}/{b['hp']}" + (f" {b['text']}" if b["text"] else ""))
        return "; ".join(parts)
    c = CARDS[name]
    what = {"unit": f"tech {c.get('tech', 0)} unit", "token": "token", "minor": "minor spell",
            "spell": f"{c['spec']} spell", "ultimate": f"{c['spec']} ultimate spell",
            "ongoing": f"{c['spec']} ongoing spell"}[c["type"]]
    stats = f" {c['atk']}/{c['hp']}" if "atk" in c else ""
    return f"{name}: {what}, cost {c['cost']}{stats}. {c['text']}"
