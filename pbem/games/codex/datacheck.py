"""Checks of the card data, for card authors and the test suite: every
key known, every selector and condition readable, every named function
registered, every token and card a card names written.

``python -m pbem.games.codex.datacheck`` prints the problems found (none:
nothing printed, exit 0). The engine reads the data lazily, so a mistake
here would otherwise only show when the card is played.
"""

from __future__ import annotations

import sys
from typing import Any

from pbem.games.codex import abilities, cards, effects, registry, select  # noqa: F401 (abilities registers)
from pbem.games.codex.cards import Ability, Card, CardDataError

_CARD_KEYS = {"type", "colour", "spec", "tech", "cost", "atk", "hp", "subtypes", "keywords", "legendary", "ultimate", "ongoing",
              "channeling", "text", "targets", "do", "abilities", "limit_as", "may_top", "boost", "attach", "modes",
              "pick", "boost_all", "x", "discard", "cheaper_per"}
_HERO_KEYS = {"spec", "cost", "title", "bands"}
_BAND_KEYS = {"from", "atk", "hp", "text", "keywords", "abilities"}
_ABILITY_KEYS = {"on", "if", "who", "targets", "do", "use", "cost", "granted", "per_turn", "static", "check",
                 "replace", "key", "may", "ask", "log", "targets_icon", "if_text", "to", "itself", "else",
                 "per_turn_as"}
_STATIC_KEYS = {"to", "while", "atk", "hp", "armor", "base", "keywords", "lose", "cant", "grant", "atk_per", "plays", "cost",
                "hire", "hire_cost", "unattackable_by", "unstoppable_by", "prevent", "from", "per_turn", "cant_attack",
                "no_hero", "damage_boost", "sources", "no_tech", "reveal"}
_PART_KEYS = {"what", "pick", "distinct", "unordered", "optional", "prune", "aim", "rel", "mode", "if", "slot_of", "from", "of", "by"}
_COST_KEYS = {"exhaust", "gold", "sacrifice", "remove", "discard", "alt"}
_TYPES = {"unit", "token", "spell", "upgrade", "building"}


def _unknown(where: str, raw: dict[str, Any], known: set[str]) -> None:
    extra = set(raw) - known
    if extra:
        raise CardDataError(f"{where}: unknown key(s) {sorted(extra)}")


def _effects(where: str, items: list[Any]) -> None:
    for e in items:
        if not isinstance(e, dict) or not e:
            raise CardDataError(f"{where}: an effect must be a dict, not {e!r}")
        name = next(iter(e))
        if name not in effects.EFFECT_KEYS:
            raise CardDataError(f"{where}: unknown effect {name!r}")
        if name == "if":
            select.check_condition(e["if"])
            _effects(where, e.get("then", []))
            _effects(where, e.get("else", []))
        elif name == "coin":
            _effects(where, e.get("heads", []))
            _effects(where, e.get("tails", []))
        elif name == "call":
            registry.get("effect", e["call"])
        elif name == "token" and cards.CARDS.get(e["token"], None) is None:
            raise CardDataError(f"{where}: no token card {e['token']!r}")
        elif name == "cast" and e.get("free") is not True:
            raise CardDataError(f"{where}: cast plays a spell for free only (free: true)")
        elif name in ("flip", "transform") and e[name] not in cards.CARDS:
            raise CardDataError(f"{where}: no card {e[name]!r} to {name} into")
        to = e.get("to")
        if isinstance(to, dict):
            select.compile_selector(to["each"])


def _grants(where: str, card: str, names: list[str], items: list[Any]) -> None:
    """Every ability a continuous effect or a ``give`` grants is the card's own."""
    names = list(names)
    for e in items:
        if isinstance(e.get("give"), dict):
            names += e["give"].get("grant", [])
        if "if" in e:
            _grants(where, card, [], e.get("then", []) + e.get("else", []))
    for name in names:
        if cards.granted_ability(card, name) is None:
            raise CardDataError(f"{where}: grants {name!r}, which {card} does not have")


def _parts(where: str, parts: list[dict[str, Any]]) -> None:
    for p in parts:
        _unknown(where + " target", p, _PART_KEYS)
        if p.get("from"):
            if set(p["from"]) - {"hand", "codex", "discard"}:
                raise CardDataError(f"{where}: a card may be chosen from hand, codex or discard, not {p['from']}")
            if p.get("of", "me") not in ("me", "opp"):
                raise CardDataError(f"{where}: of: me or opp, not {p['of']!r}")
            if p.get("by", "") not in ("", "owner") or (p.get("by") and not p.get("from")):
                raise CardDataError(f"{where}: by: owner (with from), not {p['by']!r}")
            _unknown(where + " card filter", p.get("pick", {}), select.CARD_FILTER_KEYS)
            if "test" in p.get("pick", {}):
                registry.get("test", p["pick"]["test"])
        else:
            select.compile_selector(p.get("pick", {}))
        select.check_condition(p.get("if"))
        if p.get("prune"):
            registry.get("prune", p["prune"])
        if p.get("rel"):
            registry.get("relation", p["rel"])


def _ability(where: str, ab: Ability) -> None:
    raw = ab.raw
    _unknown(where, raw, _ABILITY_KEYS)
    for ev in ab.on:
        if ev not in cards.EVENTS:
            raise CardDataError(f"{where}: unknown event {ev!r} (events: {', '.join(cards.EVENTS)})")
    select.check_condition(ab.cond)
    if ab.who is not None:
        select.compile_selector(ab.who)
    _parts(where, raw.get("targets", []))
    _effects(where, ab.do)
    _effects(where, raw.get("else", []))
    if ab.kind == "use":
        _unknown(where + " cost", ab.cost, _COST_KEYS)
        for alt in ab.cost.get("alt", []):
            _unknown(where + " cost", alt, _COST_KEYS)
    _grants(where, ab.card, ab.static.get("grant", []), ab.do)
    if ab.kind == "static":
        st = ab.static
        _unknown(where + " static", st, _STATIC_KEYS)
        if st.get("reveal", "hand") != "hand":
            raise CardDataError(f"{where}: a continuous reveal shows hands only, not {st['reveal']!r}")
        select.check_condition(st.get("while"))
        if isinstance(st.get("to"), (dict, list)):
            select.compile_selector(st["to"])
        for key in ("unattackable_by", "unstoppable_by", "cant_attack"):
            if key in st:
                select.compile_selector(st[key])
        if isinstance(st.get("atk_per"), dict):
            select.compile_selector(st["atk_per"]["count"])
        for k in st.get("keywords", {}):
            if k not in cards.KEYWORDS:
                raise CardDataError(f"{where}: unknown keyword {k!r}")
    if ab.kind == "check":
        registry.get("check", ab.check)
    if ab.kind == "replace" and ab.replace != "dies":
        raise CardDataError(f"{where}: replace {ab.replace!r}: only dies is replaced (prevent damage with a static)")


def check_card(c: Card) -> None:
    where = c.name
    if c.type == "hero":
        _unknown(where, c.raw, _HERO_KEYS)
        for band in c.bands:
            _unknown(f"{where} band {band.get('from')}", band, _BAND_KEYS)
    else:
        _unknown(where, c.raw, _CARD_KEYS)
        if c.type not in _TYPES:
            raise CardDataError(f"{where}: unknown type {c.type!r}")
        if c.colour not in cards.COLOURS:
            raise CardDataError(f"{where}: unknown colour {c.colour!r}")
        if c.spec and c.spec not in cards.SPECS:
            raise CardDataError(f"{where}: unknown spec {c.spec!r}")
    for k in c.keywords:
        if k not in cards.KEYWORDS:
            raise CardDataError(f"{where}: unknown keyword {k!r}")
    _parts(where, c.raw.get("targets", []))
    _effects(where, c.do)
    if "cheaper_per" in c.raw:
        select.compile_selector(c.raw["cheaper_per"])
    _grants(where, c.name, [], c.do)
    for mode in c.raw.get("modes", []):
        _effects(where + " mode", mode)
    keys: set[str] = set()
    for ab in c.faces[-1].abilities:  # a hero's last face holds every band's abilities
        if ab.key in keys:
            raise CardDataError(f"{where}: two abilities with key {ab.key!r}")
        keys.add(ab.key)
        _ability(f"{where} ({ab.key})", ab)


def problems() -> list[str]:
    out = []
    for name, c in cards.CARDS.items():
        try:
            check_card(c)
        except (CardDataError, KeyError) as exc:
            out.append(f"{name}: {exc}")
    for spec, raw in cards.SPECS.items():
        if raw.get("playable"):
            missing = [n for n in raw["cards"] + [raw["hero"]] if n not in cards.CARDS]
            if missing:
                out.append(f"spec {spec} is marked playable but lacks {', '.join(missing)}")
    return out


def main() -> int:
    found = problems()
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
