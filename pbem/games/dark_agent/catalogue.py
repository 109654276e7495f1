"""The Dark Agent card catalogue: every number of every card, as data.

The printed values of the game are not known to us (rules notes), so the
rules never hold a card value: they read this catalogue, which lives in the
state (public) so that a game keeps the values it began with. The package
ships ``data/catalogue.json`` (every guessed value marked ``"guess": true``);
``--option catalogue=FILE`` replaces it with a user's own copy, JSON or TOML
(README.md in this package says how to write one).

Effects are *kinds* with parameters, interpreted by the rules:

passive (always on for whoever has the source):
  ``attack_bonus`` (amount; with ``any_sentry`` a Rifle also lets you attack
  a sentry anywhere), ``impregnable`` (your spies are not wounded by a
  failed attack), ``equipment_limit`` (amount: cards you may hold),
  ``spy_defence`` (amount added to the defence of your spies);
once per turn (nation powers and AIMs, through ``power NAME``):
  ``draw_equipment``, ``deploy``, ``far_sight`` (one satellite reaches the
  whole line: ``spot CELL far``);
equipment only (used once, then discarded):
  ``adrenaline``, ``investigate`` (amount of tokens on an AIM),
  ``jacket``, ``explosives``, ``jetpack``, ``fix_die``, ``deploy``,
  ``use_neutral``, ``attack_bonus``.
"""

from __future__ import annotations

import functools
import json
import pkgutil

import msgspec

from pbem.errors import InvalidOption
from pbem.safetext import text_problem

PASSIVE = frozenset({"attack_bonus", "impregnable", "equipment_limit", "spy_defence"})
ONCE_PER_TURN = frozenset({"draw_equipment", "deploy", "far_sight"})
EQUIPMENT_KINDS = frozenset({
    "adrenaline", "investigate", "jacket", "explosives", "jetpack", "fix_die",
    "deploy", "use_neutral", "attack_bonus",
})
SPECIAL_KINDS = frozenset({"supply", "support", "media", "espionage"})


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: str
    amount: int = 0
    any_sentry: bool = False


class SpyLevel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    level: int
    defence: int
    guess: bool = False
    note: str = ""


class Kara(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    level: int
    defence: int
    guess: bool = False
    note: str = ""


class Sentry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    level: int
    defence: int
    count: int = 1
    guess: bool = False
    note: str = ""


class Aim(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    defence: int
    effect: Effect | None = None
    points: int = 6
    guess: bool = False
    note: str = ""


class Special(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    kind: str
    count: int = 1
    guess: bool = False
    note: str = ""


class Equipment(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    effect: Effect
    count: int = 1
    star: bool = False
    guess: bool = False
    note: str = ""


class Power(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    effect: Effect
    guess: bool = False
    note: str = ""


class Catalogue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """All card values of one copy of the game."""

    name: str
    spies: list[SpyLevel]
    kara: Kara
    sentries: list[Sentry]
    aims: list[Aim]
    specials: list[Special]
    equipment: list[Equipment]
    powers: list[Power]
    #: points of the chip that moves onto the last AIM taken (seed: 3)
    last_aim_bonus: int = 3


def parse(text: str, where: str = "catalogue") -> Catalogue:
    """A catalogue from JSON or TOML text; `InvalidOption` naming the problem."""
    try:
        if text.lstrip().startswith("{"):
            raw = json.loads(text)
        else:  # a catalogue file of the user's own (the reference is JSON): tomllib costs every command 2-3 ms
            import tomllib

            raw = tomllib.loads(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError is one
        raise InvalidOption(f"{where}: not JSON or TOML: {exc}") from None
    try:
        cat = msgspec.convert(raw, Catalogue)
    except msgspec.ValidationError as exc:
        raise InvalidOption(f"{where}: {exc}") from None
    problem = problems(cat)
    if problem:
        raise InvalidOption(f"{where}: {problem}")
    return cat


def problems(cat: Catalogue) -> str | None:
    """Why `cat` cannot be played, or None."""
    texts = [("the catalogue's name", cat.name)] + [(f"spy level {s.level}", s.note) for s in cat.spies]
    for e in (cat.kara, *cat.sentries, *cat.aims, *cat.specials, *cat.equipment, *cat.powers):
        texts += [(f"card id {e.id!r}", e.id), (f"{e.id!r}'s name", e.name), (f"{e.id!r}'s note", e.note)]
    for what, text in texts:  # shown on every player's terminal and page
        problem = text_problem(text)
        if problem is not None:
            return f"{what} holds {problem}"
    ids: list[str] = [cat.kara.id] + [c.id for c in (*cat.sentries, *cat.aims, *cat.specials, *cat.equipment)]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        return f"card ids used twice: {', '.join(twice)}"
    if not ids or any(not i or not i.replace("-", "").replace("_", "").isalnum() for i in ids):
        return "card ids must be letters, digits, - and _"
    levels = [s.level for s in cat.spies]
    if not levels or len(set(levels)) != len(levels) or min(levels) < 1:
        return "spies: give each player's spy levels once each, all at least 1"
    if len(cat.aims) < 2:
        return "at least 2 AIMs are needed"
    if not cat.powers:
        return "at least one nation power is needed"
    for c in (*cat.sentries, *cat.specials, *cat.equipment):
        if c.count < 1:
            return f"{c.id}: count must be at least 1"
    for s in cat.specials:
        if s.kind not in SPECIAL_KINDS:
            return f"{s.id}: unknown special kind {s.kind!r} (kinds: {', '.join(sorted(SPECIAL_KINDS))})"
    for e in cat.equipment:
        if e.effect.kind not in EQUIPMENT_KINDS:
            return f"{e.id}: unknown equipment effect {e.effect.kind!r} (kinds: {', '.join(sorted(EQUIPMENT_KINDS))})"
    for owner, eff in [(a.id, a.effect) for a in cat.aims if a.effect] + [(p.id, p.effect) for p in cat.powers]:
        if eff.kind not in PASSIVE | ONCE_PER_TURN:
            return f"{owner}: unknown effect {eff.kind!r} (kinds: {', '.join(sorted(PASSIVE | ONCE_PER_TURN))})"
    if not cat.equipment:
        return "at least one equipment card is needed"
    return None


@functools.cache
def reference() -> Catalogue:
    """The catalogue shipped with the package (read through its loader),
    read once: a frozen value, the same object for every game (so its
    `index` is built once too; every set-up and seat check asks for it)."""
    data = pkgutil.get_data("pbem.games.dark_agent", "data/catalogue.json")
    assert data is not None
    return parse(data.decode("utf-8"), "data/catalogue.json")


def guessed(cat: Catalogue) -> list[str]:
    """Ids of the entries marked as guesses (for the README and `summary`)."""
    out = [s.level for s in cat.spies if s.guess]
    names = [f"spy level {n}" for n in out]
    entries = [cat.kara, *cat.sentries, *cat.aims, *cat.specials, *cat.equipment, *cat.powers]
    return names + [e.id for e in entries if e.guess]


class Index:
    """Lookups over a catalogue: card id -> entry and family."""

    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        self.family: dict[str, str] = {cat.kara.id: "kara"}
        self.entry: dict[str, object] = {cat.kara.id: cat.kara}
        for fam, entries in (("sentry", cat.sentries), ("aim", cat.aims),
                             ("special", cat.specials), ("equipment", cat.equipment)):
            for e in entries:
                self.family[e.id] = fam
                self.entry[e.id] = e
        self.power = {p.id: p for p in cat.powers}
        self.spy_defence = {s.level: s.defence for s in cat.spies}

    def name(self, card: str) -> str:
        e = self.entry.get(card)
        return getattr(e, "name", card)

    def area_deck(self) -> list[str]:
        """The operation-area deck in catalogue order: AIMs, Kara, sentries, specials."""
        cat = self.cat
        out = [a.id for a in cat.aims] + [cat.kara.id]
        out += [s.id for s in cat.sentries for _ in range(s.count)]
        out += [s.id for s in cat.specials for _ in range(s.count)]
        return out

    def equipment_deck(self) -> list[str]:
        return [e.id for e in self.cat.equipment for _ in range(e.count)]


_CACHE: dict[int, tuple[Catalogue, Index]] = {}


def index(cat: Catalogue) -> Index:
    """The (cached) index of `cat`; catalogues are frozen values."""
    hit = _CACHE.get(id(cat))
    if hit is not None and hit[0] is cat:
        return hit[1]
    if len(_CACHE) > 64:
        _CACHE.clear()
    idx = Index(cat)
    _CACHE[id(cat)] = (cat, idx)
    return idx
