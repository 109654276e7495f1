"""Codex card data: every colour's file in ``data/`` read once, checked and
compiled into small read-only objects.

A card is data (README.md, "Card author's guide"): printed facts (type,
spec, tech, cost, ATK/HP, subtypes, keywords) plus structured abilities
(`Ability`): triggers (``on``), activated abilities (``use``), continuous
effects (``static``), state checks (``check``) and replacements
(``replace``), whose effects (``do``) are common effects written as data or
``{"call": NAME}`` of a function registered in ``abilities/``. This module
knows nothing of the state: selectors and conditions stay dicts here and
are compiled by `select` on first use.

A hero's abilities and keywords grow with its level band: `Face` is what a
card (or a hero at one band) has, and `face(name, band)` gives it.
"""

from __future__ import annotations

import pkgutil as _pkgutil
import re
from typing import Any

COLOURS = ("neutral", "red", "green", "blue", "black", "white", "purple")

#: every keyword of the rulebook's glossary that a card may print or be
#: given, and whether several instances add up (resist 1 twice is resist 2);
#: ``excess_to_base`` is no glossary word but a card's ("excess combat
#: damage to units and heroes hits the base"), nor ``damage_as_runes``
#: (Orpal Gloor: what it deals to units and heroes comes as -1/-1 runes)
KEYWORDS: dict[str, bool] = {
    "anti_air": False, "armor": True, "armor_piercing": False, "damage_as_runes": False, "deathtouch": False,
    "detector": False,
    "ephemeral": False, "excess_to_base": False, "fading": True, "flagbearer": False, "flying": False, "forecast": True,
    "frenzy": True, "haste": False, "healing": True, "illusion": False, "indestructible": False,
    "invisible": False, "long_range": False, "obliterate": True, "overpower": False, "readiness": False,
    "resist": True, "sparkshot": True, "stealth": False, "swift_strike": False,
    "unattackable": False, "unstoppable": False, "untargetable": False,
}
#: what a trigger (``"on"``) may listen to. The first group happens to the
#: ability's own card (or, for upkeep and end of turn, to its controller's
#: turn; ``end_of_each_turn``: to every turn, whoever's it is;
#: ``survives_combat``: its attack's combat damage is dealt and it is
#: still in play); the second
#: are "whenever" events about any card, filtered by ``who``.
OWN_EVENTS = ("arrives", "attacks", "survives_combat", "dies", "leaves", "upkeep", "end_of_turn",
              "end_of_each_turn", "max_level", "kills", "damages_base", "damages_building", "exhausts")
WHENEVER_EVENTS = ("unit_dies", "hero_dies", "spell_cast", "base_damaged", "card_drawn", "card_discarded",
                   "other_arrives", "unit_played", "other_attacks", "combat_damage")
EVENTS = OWN_EVENTS + WHENEVER_EVENTS
#: things that may be forbidden by a ``cant`` of a continuous effect
CANT = ("attack", "patrol", "be_targeted", "be_attacked", "level_up", "be_sacrificed")

def _data(name: str) -> Any:
    """A card data file (msgspec reads JSON in a third of the time `json` takes: Codex is imported by
    every command of a Codex game)."""
    import msgspec

    data = _pkgutil.get_data("pbem.games.codex", f"data/{name}.json")
    assert data is not None  # a file of the package
    return msgspec.json.decode(data)


_DATA = {c: _data(c) for c in COLOURS}
_CORE = _data("core")

BASE_HP: int = _CORE["base_hp"]
GOLD_CAP: int = _CORE["gold_cap"]
HAND_MAX: int = _CORE["hand_max"]
START_WORKERS: tuple[int, ...] = tuple(_CORE["workers"])
#: Two-Headed Dragon: a team's shared base
TEAM_BASE_HP: int = _CORE["team_base_hp"]
#: the free-for-all's numbers: Mercenaries by seat (and their token), a
#: repair's cost, the most gold for kills a turn
FFA: dict[str, Any] = _CORE["free_for_all"]
SLOTS: tuple[str, ...] = tuple(_CORE["slots"])
BUILDINGS: dict[str, dict[str, Any]] = _CORE["buildings"]
TECH_BUILDINGS = tuple(k for k, b in BUILDINGS.items() if b.get("tech"))
ADDONS = tuple(k for k, b in BUILDINGS.items() if b.get("addon"))
SLOT_SHORT = {"sl": "squad-leader", "squad-leader": "squad-leader", "elite": "elite",
              "scavenger": "scavenger", "scav": "scavenger", "technician": "technician",
              "tech": "technician", "lookout": "lookout"}


_VALUE_KEYS = {"atk", "hp", "armor", "base", "keywords", "lose", "cant", "grant", "atk_per", "unattackable_by",
               "unstoppable_by", "cant_attack"}
#: selector keys that read a current value of the thing they judge
_READING_KEYS = ("atk_max", "atk_min", "has", "lacks", "no_abilities")
#: what a continuous effect changes beyond numbers (its layer: after numbers)
_GIFT_KEYS = {"keywords", "lose", "cant", "grant", "unattackable_by", "unstoppable_by", "cant_attack"}


class CardDataError(ValueError):
    """A card file says something the engine cannot read (raised at import)."""


class Part:
    """One target of a targeting ability: what it may pick and how."""

    __slots__ = ("what", "pick", "distinct", "unordered", "optional", "prune", "aim", "rel", "mode", "cond",
                 "slot_of", "zones", "of", "by")

    def __init__(self, raw: dict[str, Any]) -> None:
        self.what: str = raw.get("what", "a target")
        #: a condition (`select.holds`): while it fails, nothing may be chosen
        self.cond: Any = raw.get("if")
        self.pick: Any = raw.get("pick", {})
        self.distinct: bool | str = raw.get("distinct", False)
        self.unordered: bool = raw.get("unordered", False)
        self.optional: bool = raw.get("optional", False)
        self.prune: str = raw.get("prune", "")
        #: False: a choice that does not target (no target icon on the card):
        #: untargetable and invisible things may be chosen, no resist is
        #: paid, illusions do not die and flagbearers do not matter
        self.aim: bool = raw.get("aim", True)
        #: a registered relation the pick must have to the earlier ones
        self.rel: str = raw.get("rel", "")
        #: the mode (1, 2 ...) of a modal spell it belongs to: none unless chosen
        self.mode: int = int(raw.get("mode", 0))
        #: ``t0``: not a thing but an empty slot of the patrol zone that
        #: the thing chosen for that earlier part patrols (never aimed)
        self.slot_of: str = raw.get("slot_of", "")
        #: ``["hand", "codex"]``: not a thing but a card of the chooser's own
        #: hidden zones, `pick` being then a card filter (`select.card_matches`);
        #: never aimed
        self.zones: tuple[str, ...] = tuple(raw.get("from", ()))
        #: ``opp``: those zones are the opposing seat's (a hand the chooser
        #: has just looked at), not the chooser's own
        self.of: str = raw.get("of", "me")
        #: ``owner``: the owner of those zones answers the question itself
        #: (a discard the victim chooses from its own hand), not the
        #: active player; an empty zone asks nothing
        self.by: str = raw.get("by", "")
        if self.slot_of or self.zones:
            self.aim = False


def _names(data: Any, words: tuple[str, ...]) -> bool:
    """Whether any key or text anywhere in `data` (a card's JSON) is one of `words`."""
    if isinstance(data, str):
        return data in words
    if isinstance(data, dict):
        return any(k in words or _names(v, words) for k, v in data.items())
    if isinstance(data, list):
        return any(_names(v, words) for v in data)
    return False


class Ability:
    """One ability of a card: a trigger, an activated ability, a continuous
    effect, a state check or a replacement (its `kind`)."""

    __slots__ = ("card", "key", "kind", "on", "cond", "who", "targets", "do", "cost", "name", "granted",
                 "once", "static", "check", "replace", "raw", "attack_context", "values_thing", "reads_target",
                 "gifts", "reads_values")

    def __init__(self, card: str, key: str, raw: dict[str, Any]) -> None:
        self.card, self.key, self.raw = card, key, raw
        self.cond: Any = raw.get("if")
        self.who: Any = raw.get("who")
        self.targets = [Part(p) for p in raw.get("targets", [])]
        self.do: list[Any] = raw.get("do", [])
        self.cost: dict[str, Any] = raw.get("cost", {})
        self.name: str = raw.get("use", "")
        self.granted: bool = raw.get("granted", False)
        self.once: int = int(raw.get("per_turn", 0))
        self.static: dict[str, Any] = raw.get("static", {})
        self.check: str = raw.get("check", "")
        self.replace: str = raw.get("replace", "")
        #: a continuous effect that depends on what is being attacked: who
        #: may attack what is then worked out target by target
        self.attack_context = _names(self.static.get("while", {}), ("attacking",))
        #: a continuous effect on things' values (not only on costs or damage)
        self.values_thing = "to" in self.static and bool(set(self.static) & _VALUE_KEYS)
        #: its ``to`` reads a current value of the thing it judges ("units
        #: with 3 ATK or less", "with no abilities"): the order of continuous
        #: effects then matters (`values`)
        to = self.static.get("to")
        self.reads_target = isinstance(to, (dict, list)) and _names(to, _READING_KEYS)
        #: it gives abilities or takes them (keywords, restrictions) rather
        #: than only numbers: among effects that begin together, numbers first
        self.gifts = bool(set(self.static) & _GIFT_KEYS)
        #: whether working out where and whether it applies may compute other
        #: things' values (selectors or conditions reading values, tests): only
        #: then are values kept within one computation (`recall`)
        self.reads_values = _names(self.static, (*_READING_KEYS, "test"))
        on = raw.get("on", [])
        self.on: tuple[str, ...] = tuple([on] if isinstance(on, str) else on)
        self.kind = ("use" if "use" in raw else "static" if "static" in raw else "check" if "check" in raw
                     else "replace" if "replace" in raw else "trigger")

    def __repr__(self) -> str:
        return f"Ability({self.card}:{self.key})"


class Face:
    """What a card has in play: printed numbers, keywords and abilities
    (a hero's face depends on its band and keeps the lower bands' abilities)."""

    __slots__ = ("name", "atk", "hp", "keywords", "abilities", "triggers", "statics", "uses", "checks",
                 "replacements")

    def __init__(self, name: str, atk: int, hp: int, keywords: dict[str, int], abilities: list[Ability]) -> None:
        self.name, self.atk, self.hp, self.keywords = name, atk, hp, keywords
        self.abilities = abilities
        self.triggers: dict[str, list[Ability]] = {}
        for ab in abilities:
            if ab.granted:  # only what the card gives others (and itself, where it says so)
                continue
            for ev in ab.on:
                self.triggers.setdefault(ev, []).append(ab)
        self.statics = [ab for ab in abilities if ab.kind == "static"]
        self.uses = {ab.name: ab for ab in abilities if ab.kind == "use"}
        self.checks = [ab for ab in abilities if ab.kind == "check"]
        self.replacements = [ab for ab in abilities if ab.kind == "replace"]


class Card:
    """A card's facts and its face in play (heroes: `bands`, one face each)."""

    __slots__ = ("name", "type", "colour", "spec", "tech", "cost", "atk", "hp", "subtypes", "keywords", "legendary",
                 "ultimate", "ongoing", "channeling", "text", "targets", "do", "face", "faces", "bands", "title",
                 "limit_as", "may_top", "boost", "attach", "raw", "has_statics", "band_at", "checked")

    def __init__(self, name: str, raw: dict[str, Any], colour: str, hero: bool = False) -> None:
        #: the file's colour, unless the card says otherwise (a token of
        #: another colour that a card of this one makes: the blue Sharks)
        self.name, self.raw, self.colour = name, raw, raw.get("colour", colour)
        self.type: str = "hero" if hero else raw["type"]
        self.spec: str = raw.get("spec", "")
        self.tech: int = int(raw.get("tech", 0))
        self.cost: int = int(raw.get("cost", 0))
        self.subtypes: tuple[str, ...] = tuple(raw.get("subtypes", []))
        self.keywords: dict[str, int] = dict(raw.get("keywords", {}))
        self.legendary: bool = raw.get("legendary", False)
        self.ultimate: bool = raw.get("ultimate", False)
        self.ongoing: bool = raw.get("ongoing", False)
        self.channeling: bool = raw.get("channeling", False)
        self.text: str = raw.get("text", "")
        self.targets = [Part(p) for p in raw.get("targets", [])]
        self.do: list[Any] = raw.get("do", [])
        self.limit_as: tuple[str, ...] = tuple(raw.get("limit_as", [name]))
        self.may_top: bool = raw.get("may_top", False)
        self.boost: dict[str, Any] = raw.get("boost", {})
        self.attach: Any = raw.get("attach")
        self.title: str = raw.get("title", "")
        abilities = [Ability(name, raw_ab.get("key", str(i)), raw_ab) for i, raw_ab in enumerate(raw.get("abilities", []))]
        if hero:
            self.bands: list[dict[str, Any]] = raw["bands"]
            faces, kw, abs_ = [], {}, []
            for b, band in enumerate(self.bands):
                kw = {**kw, **band.get("keywords", {})}
                abs_ = abs_ + [Ability(name, band_ab.get("key", f"b{b}.{i}"), band_ab)
                               for i, band_ab in enumerate(band.get("abilities", []))]
                faces.append(Face(name, band["atk"], band["hp"], dict(kw), list(abs_)))
            self.faces = faces
            self.face = faces[0]
            self.atk, self.hp = faces[0].atk, faces[0].hp
        else:
            self.bands = []
            self.atk: int = int(raw.get("atk", 0))
            self.hp: int = int(raw.get("hp", 0))
            self.face = Face(name, self.atk, self.hp, self.keywords, abilities)
            self.faces = [self.face]
        self.has_statics = any(f.statics for f in self.faces)
        #: the state-based checks must look at it (channeling, a check of its own)
        self.checked = self.channeling or any(f.checks for f in self.faces)
        #: level -> band (heroes)
        self.band_at = tuple(max((i for i, b in enumerate(self.bands) if lv >= b["from"]), default=0)
                             for lv in range(self.bands[-1]["from"] + 1)) if self.bands else (0,)

    @property
    def minor(self) -> bool:
        """Starter-deck spells: any hero of their colour casts them."""
        return self.type == "spell" and not self.spec

    def __repr__(self) -> str:
        return f"Card({self.name})"


def _load() -> tuple[dict[str, Card], dict[str, dict[str, Any]], dict[str, list[str]]]:
    out: dict[str, Card] = {}
    specs: dict[str, dict[str, Any]] = {}
    starters: dict[str, list[str]] = {}
    for colour, data in _DATA.items():
        for name, raw in data["cards"].items():
            out[name] = Card(name, raw, colour)
        for name, raw in data["heroes"].items():
            out[name] = Card(name, raw, colour, hero=True)
        for spec, raw in data["specs"].items():
            specs[spec] = {**raw, "colour": colour}
        starters[colour] = list(data["starter"])
    return out, specs, starters


CARDS, SPECS, STARTERS = _load()
#: the spec each hero leads
HERO_OF: dict[str, str] = {spec: s["hero"] for spec, s in SPECS.items()}
#: the heroes written so far, and the neutral starter deck (the 1-hero
#: game's first decks, as the neutral tests name them)
HEROES: dict[str, Card] = {n: c for n, c in CARDS.items() if c.type == "hero"}
STARTER: list[str] = list(STARTERS["neutral"])


def granted_ability(card: str, name: str) -> Ability | None:
    """The ability `card` gives others under `name` (its ``use`` name or its key)."""
    for f in CARDS[card].faces:
        for ab in f.abilities:
            if ab.key == name or ab.name == name:
                return ab
    return None


def add(colour: str, cards_: dict[str, Any], heroes: dict[str, Any] | None = None) -> list[str]:
    """Add cards at run time (tests of engine features no written card has
    yet); returns their names, for `remove`."""
    names = []
    for name, raw in cards_.items():
        CARDS[name] = Card(name, raw, colour)
        names.append(name)
    for name, raw in (heroes or {}).items():
        CARDS[name] = Card(name, raw, colour, hero=True)
        names.append(name)
    for name in names:
        _BY_SLUG[slug(name)] = name
    return names


def remove(names: list[str]) -> None:
    for name in names:
        CARDS.pop(name, None)
        _BY_SLUG.pop(slug(name), None)


def ability(card: str, key: str) -> Ability:
    """A card's ability by key, whatever band of a hero it came from."""
    for f in CARDS[card].faces:
        for ab in f.abilities:
            if ab.key == key:
                return ab
    raise KeyError(f"{card} has no ability {key!r}")


def playable_specs() -> list[str]:
    """Specs a new game may pick: its hero, its 12 cards and its colour's
    starter deck are all written (and tested)."""
    return [s for s, raw in SPECS.items() if raw.get("playable")]


def lookup_spec(word: str) -> str | None:
    """A spec by its name in any case (None: no such spec)."""
    return next((s for s in SPECS if s.lower() == word.strip().lower()), None)


def colour_of(spec: str) -> str:
    return SPECS[spec]["colour"]


def starter(colour: str) -> list[str]:
    return list(STARTERS[colour])


def starter_ready(colour: str) -> bool:
    return all(n in CARDS for n in STARTERS[colour])


def codex_cards(spec: str) -> list[str]:
    """The 24 codex cards of a spec (two of each)."""
    return [name for name in SPECS[spec]["cards"] for _ in range(2)]


def is_hero(name: str) -> bool:
    c = CARDS.get(name)
    return c is not None and c.type == "hero"


def kind(name: str) -> str:
    """``hero``, ``unit``, ``token``, ``spell``, ``upgrade`` or ``building``."""
    return CARDS[name].type


def band(hero: str, level: int) -> int:
    """0, 1 or 2: the hero's band at `level`."""
    table = CARDS[hero].band_at
    return table[min(level, len(table) - 1)]


def max_level(hero: str) -> int:
    return int(CARDS[hero].bands[-1]["from"])


def slug(name: str) -> str:
    """``Star-Crossed Starlet`` -> ``star-crossed-starlet``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


_BY_SLUG = {slug(n): n for n in CARDS}


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


def describe(name: str) -> str:
    """One line about a card in our own words."""
    c = CARDS[name]
    if c.type == "hero":
        parts = [f"{name}, {c.title} ({c.spec} hero, cost {c.cost})"]
        for b in c.bands:
            parts.append(f"L{b['from']}+ {b['atk']}/{b['hp']}" + (f" {b['text']}" if b["text"] else ""))
        return "; ".join(parts)
    if c.type == "spell":
        what = (("minor " if c.minor else f"{c.spec} ") + ("ultimate " if c.ultimate else "")
                + ("ongoing " if c.ongoing else "") + "spell")
    elif c.type == "token":
        what = "token"
    else:
        what = f"tech {c.tech} {c.type}" + (f" ({c.spec})" if c.spec else "")
    stats = f" {c.atk}/{c.hp}" if c.type in ("unit", "token") else (f" {c.hp} HP" if c.type == "building" else "")
    return f"{name}: {what}, cost {c.cost}{stats}. {c.text}"
