"""Selectors and conditions of the card data, compiled to predicates.

A *selector* picks things (and structures): ``{"kinds": ["unit"], "side":
"theirs", "tech": [0, 1]}``; a list of selectors means any of them. Keys:

``kinds``      unit (tokens too), hero, building (structures and building
               cards), base, upgrade, ongoing; default unit and hero
``structure``  false: no base, tech building or add-on; true: only those
``side``       mine, theirs, friendly or any (default), as seen by the
               ability's controller
``tech`` ``subtype`` ``not_subtype`` ``card`` ``colour`` ``spec`` ``token``
``legendary``  printed facts
``patrolling`` ``slot`` ``damaged`` ``exhausted`` ``other`` (not the source)
``plus_runes`` ``minus_runes`` (has such runes or not) ``atk_max`` ``atk_min``
``has`` ``lacks`` (a keyword) ``counter`` (has a rune of that kind)
``host``       the thing the source is attached to
``no_abilities`` (printed or given: keywords, granted abilities; not
numbers, runes or a patrol slot's bonus) ``test`` (a registered test)

A *condition* (``if`` of an ability or effect, ``while`` of a continuous
effect) is about the ability's source and controller: ``turn`` (mine or
theirs), ``patrolling``, ``attacking`` (true, unit, hero, building, base),
``arrived`` / ``attacked`` (``this_turn``), ``you_control`` (a selector),
``count`` (``{"of": selector, "min": n}``), ``boosted``, ``hand_empty``,
``counter`` (``{"growth": 5}``: at least so many runes of a kind on the
source), ``cause`` (of a death: ``combat``, ``effect``, ``destroyed``; of
damage to a base: ``combat`` or ``effect``), ``from_hand`` (of an
arrival: true, or ``first``: the first unit to arrive from its
controller's hand this turn), ``slot``
(the patrol slot the victim of a ``kills`` event held, or true for any),
``flag`` (a flag of the controller's lasts this turn: ``spell_cast``, set
when it casts a spell, ``instant_build`` ...), ``test``, and ``not`` /
``all`` / ``any`` of conditions.

Values a selector reads (ATK, keywords, abilities) come from `values` through
`VALUE_READER` and `ABILITY_READER`, which `values` sets on import (so that
this module, which `values` uses, does not import it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.games.base import identity
from pbem.games.codex import board, cards, editions, registry
from pbem.games.codex.cards import CardDataError
from pbem.games.codex.state import State, hand, team_of

Pred = Callable[[State, str, str, str], bool]

#: (state, ref) -> (atk, keywords): set by `values` at import
VALUE_READER: Callable[[State, str], tuple[int, dict[str, int]]] | None = None
#: (state, ref) -> whether it has any ability (printed or given): set by `values`
ABILITY_READER: Callable[[State, str], bool] | None = None

_KINDS = ("unit", "hero", "building", "base", "upgrade", "ongoing")
#: what a card filter (a card not in play: costs' ``plays``, a part ``from``
#: a hand or codex) may ask: printed facts, and a registered ``test`` of its ref
CARD_FILTER_KEYS = {"types", "tech", "subtype", "spec", "colour", "name", "ultimate", "cost_max", "test"}
_SEL_KEYS = {"kinds", "side", "tech", "subtype", "not_subtype", "card", "colour", "spec", "token", "legendary",
             "patrolling", "slot", "damaged", "exhausted", "other", "plus_runes", "minus_runes", "atk_max",
             "atk_min", "has", "lacks", "no_abilities", "test", "counter", "structure", "host"}
_COND_KEYS = {"turn", "patrolling", "attacking", "arrived", "attacked", "you_control", "count", "boosted",
              "hand_empty", "cause", "slot", "flag", "from_hand", "test", "not", "all", "any", "counter"}

_compiled: dict[int, tuple[Any, Pred, tuple[str, ...]]] = {}


def _values(state: State, ref: str) -> tuple[int, dict[str, int]]:
    assert VALUE_READER is not None, "values is not loaded"
    return VALUE_READER(state, ref)


def _has_abilities(state: State, ref: str) -> bool:
    assert ABILITY_READER is not None, "values is not loaded"
    return ABILITY_READER(state, ref)


def _side_ok(state: State, side: str, seat: str, owner_seat: str, team_base: bool = False) -> bool:
    """``mine``: the seat's own ("you means you", Two-Headed Dragon), and
    its team's shared base (`team_base`: it is one) whichever teammate asks
    (rules 5, `editions`); ``friendly``: its team's; ``theirs``: an opponent's."""
    if side == "any":
        return True
    if side == "mine":
        if team_base and editions.current().team_base_shared:
            return owner_seat in team_of(state, seat)
        return owner_seat == seat
    if side == "friendly":
        return owner_seat in team_of(state, seat)
    return owner_seat not in team_of(state, seat)


def _thing_checks(sel: dict[str, Any]) -> list[Pred]:
    checks: list[Pred] = []
    c = cards.CARDS

    def add(fn: Pred) -> None:
        checks.append(fn)

    if "tech" in sel:
        levels = tuple(sel["tech"])
        add(lambda st, seat, src, x: board.tech_of(st, x) in levels)
    if "subtype" in sel:
        want = sel["subtype"]
        add(lambda st, seat, src, x: want in board.subtypes(st, x))
    if "not_subtype" in sel:
        nope = sel["not_subtype"]
        add(lambda st, seat, src, x: nope not in board.subtypes(st, x))
    if "card" in sel:
        names = {sel["card"]} if isinstance(sel["card"], str) else set(sel["card"])
        add(lambda st, seat, src, x: st.things[x].card in names)
    if "colour" in sel:
        col = sel["colour"]
        add(lambda st, seat, src, x: board.shown(st, x).colour == col)
    if "spec" in sel:
        spec = sel["spec"]
        add(lambda st, seat, src, x: c[st.things[x].card].spec == spec)
    if "token" in sel:
        tok = sel["token"]
        add(lambda st, seat, src, x: (c[st.things[x].card].type == "token") == tok)
    if "legendary" in sel:
        leg = sel["legendary"]
        add(lambda st, seat, src, x: c[st.things[x].card].legendary == leg)
    if "patrolling" in sel:
        pat = sel["patrolling"]
        add(lambda st, seat, src, x: (board.slot_of(st, x) is not None) == pat)
    if "slot" in sel:
        slot = sel["slot"]
        add(lambda st, seat, src, x: board.slot_of(st, x) == slot)
    if "damaged" in sel:
        dmg = sel["damaged"]
        add(lambda st, seat, src, x: (st.things[x].damage > 0) == dmg)
    if "exhausted" in sel:
        ex = sel["exhausted"]
        add(lambda st, seat, src, x: st.things[x].exhausted == ex)
    if "plus_runes" in sel:
        plus = sel["plus_runes"]
        add(lambda st, seat, src, x: (st.things[x].runes > 0) == plus)
    if "minus_runes" in sel:
        minus = sel["minus_runes"]
        add(lambda st, seat, src, x: (st.things[x].runes < 0) == minus)
    if "atk_max" in sel:
        most = sel["atk_max"]
        add(lambda st, seat, src, x: _values(st, x)[0] <= most)
    if "atk_min" in sel:
        least = sel["atk_min"]
        add(lambda st, seat, src, x: _values(st, x)[0] >= least)
    if "has" in sel:
        key = sel["has"]
        add(lambda st, seat, src, x: _values(st, x)[1].get(key, 0) > 0)
    if "lacks" in sel:
        key = sel["lacks"]
        add(lambda st, seat, src, x: _values(st, x)[1].get(key, 0) <= 0)
    if "counter" in sel:
        rune = sel["counter"]
        add(lambda st, seat, src, x: st.things[x].counters.get(rune, 0) > 0)
    if "host" in sel:
        host = sel["host"]
        add(lambda st, seat, src, x: (src in st.things and st.things[src].attached == x) == host)
    if "no_abilities" in sel:
        none = sel["no_abilities"]
        add(lambda st, seat, src, x: (not _has_abilities(st, x)) == none)
    return checks


def _structure_ok(sel: dict[str, Any]) -> bool:
    """Whether a structure can ever match `sel` (its thing-only keys rule it out)."""
    only_things = {"tech", "subtype", "card", "colour", "spec", "token", "legendary", "patrolling", "slot",
                   "exhausted", "plus_runes", "minus_runes", "atk_max", "atk_min", "has", "no_abilities", "counter",
                   "host"}
    return not (only_things & set(sel))


def compile_selector(sel: Any) -> tuple[Pred, tuple[str, ...]]:
    """(predicate, kinds) for a selector dict or list (memoised)."""
    got = _compiled.get(id(sel))
    if got is not None and got[0] is sel:
        return got[1], got[2]
    if isinstance(sel, list):
        parts = [compile_selector(s) for s in sel]
        kinds = tuple(dict.fromkeys(k for _, ks in parts for k in ks))

        def any_of(st: State, seat: str, src: str, x: str) -> bool:
            return any(p(st, seat, src, x) for p, _ in parts)

        _compiled[id(sel)] = (sel, any_of, kinds)
        return any_of, kinds
    kinds = tuple(sel.get("kinds", ("unit", "hero")))
    unknown = set(sel) - _SEL_KEYS
    if unknown:
        raise CardDataError(f"unknown selector key(s) {sorted(unknown)} in {sel}")
    for k in kinds:
        if k not in _KINDS:
            raise CardDataError(f"unknown kind {k!r} in selector {sel}")
    side = sel.get("side", "any")
    other = sel.get("other", False)
    checks = _thing_checks(sel)
    test = registry.get("test", sel["test"]) if "test" in sel else None
    structures_ok = _structure_ok(sel) and sel.get("structure", True)
    cards_ok = not sel.get("structure", False)
    damaged = sel.get("damaged")

    def pred(st: State, seat: str, src: str, x: str) -> bool:
        if other and x == src:
            return False
        if board.is_structure(x):
            if not structures_ok:
                return False
            owner, kind = board.structure(x)
            if "building" not in kinds and not ("base" in kinds and kind == "base"):
                return False
            if not _side_ok(st, side, seat, owner, kind == "base"):
                return False
            if damaged is not None and (board.structure_damage(st, x) > 0) != damaged:
                return False
        else:
            t = st.things.get(x)
            if t is None or not cards_ok or _kind(st, x) not in kinds or not _side_ok(st, side, seat, t.controller):
                return False
            for check in checks:
                if not check(st, seat, src, x):
                    return False
        return test is None or test(st, seat, src, x)

    _compiled[id(sel)] = (sel, pred, kinds)
    return pred, kinds


def zone_card(state: State, seat: str, x: str, kinds: tuple[str, ...] = ("hand", "codex", "discard")) -> str | None:
    """The card of ref `x` in one of `seat`'s zones of these kinds (None:
    not there); `NeedsReveal` where the holder of `state` cannot see it."""
    for k in kinds:
        for it in state.zones[f"{k}:{seat}"].items:
            if it.ref == x:
                return identity(it)
    return None


def card_matches(sel: dict[str, Any], name: str) -> bool:
    """Printed facts of a card not in play against a card filter (a token
    counts as a unit; ``cost_max``: printed cost, ruling on Circle of Life;
    ``test`` is the caller's, who knows the ref)."""
    c = cards.CARDS[name]
    if "types" in sel and c.type not in sel["types"] and not (c.type == "token" and "unit" in sel["types"]):
        return False
    if "tech" in sel and (c.type not in ("unit", "token", "upgrade", "building") or c.tech not in sel["tech"]):
        return False
    if "name" in sel and sel["name"] != name:
        return False
    if "subtype" in sel and sel["subtype"] not in c.subtypes:
        return False
    for key in ("colour", "spec", "ultimate"):
        if key in sel and getattr(c, key) != sel[key]:
            return False
    return "cost_max" not in sel or c.cost <= sel["cost_max"]


def _kind(state: State, ref: str) -> str:
    """A thing's kind as selectors name it (an ongoing spell: ``ongoing``)."""
    k = board.kind_of(state, ref)
    return "ongoing" if k == "spell" else k


def pool(state: State, kinds: tuple[str, ...]) -> list[str]:
    """Every thing and structure of these kinds, seat by seat."""
    out: list[str] = []
    for s in state.seats:
        if "building" in kinds:
            out += board.structures(state, s)
        elif "base" in kinds:
            out.append(f"{s}:base")
        for r in board.things_of(state, s):
            if board.kind_of(state, r) in kinds:
                out.append(r)
        if "ongoing" in kinds:
            out += board.spells_of(state, s)
    return out


def candidates(state: State, seat: str, src: str, sel: Any) -> list[str]:
    pred, kinds = compile_selector(sel)
    return [x for x in pool(state, kinds) if pred(state, seat, src, x)]


def matches(state: State, seat: str, src: str, sel: Any, x: str) -> bool:
    return compile_selector(sel)[0](state, seat, src, x)


# --- conditions ----------------------------------------------------------------------


def holds(state: State, seat: str, src: str, cond: Any, ev: dict[str, str] | None = None) -> bool:
    """Whether condition `cond` holds for an ability of `src` controlled by `seat`."""
    if not cond:
        return True
    for key, want in cond.items():
        if not _holds1(state, seat, src, key, want, ev or {}):
            return False
    return True


def _holds1(state: State, seat: str, src: str, key: str, want: Any, ev: dict[str, str]) -> bool:
    t = state.things.get(src)
    if key == "turn":
        return (state.active == seat) == (want == "mine")
    if key == "patrolling":
        return (board.slot_of(state, src) is not None) == want
    if key == "attacking":
        c = state.combat
        if c is None or c.attacker != src:
            return False
        if want is True:
            return True
        what = board.kind_of(state, c.target) if (board.is_structure(c.target) or c.target in state.things) else ""
        return what == want or (want == "building" and what in ("base", "structure", "building"))
    if key == "arrived":
        return t is not None and t.arrived == state.turn
    if key == "attacked":
        return t is not None and t.attacked == state.turn
    if key == "you_control":
        return bool(candidates(state, seat, src, want))
    if key == "count":
        return len(candidates(state, seat, src, want["of"])) >= int(want.get("min", 1))
    if key == "boosted":
        return (ev.get("boosted") == "1") == want
    if key == "cause":
        return ev.get("cause") == want
    if key == "from_hand":  # of an arrival: "first" (the first unit from its hand this turn) or true
        return ev.get("from_hand") == want if isinstance(want, str) else bool(ev.get("from_hand")) == want
    if key == "slot":  # of what an event was about ("kills" a patroller): a slot name or true
        return ev.get("slot", "") == want if isinstance(want, str) else bool(ev.get("slot")) == want
    if key == "counter":  # the source has at least so many runes of each kind
        return t is not None and all(t.counters.get(k, 0) >= n for k, n in want.items())
    if key == "hand_empty":
        return (not state.zones[hand(seat)].items) == want
    if key == "flag":
        return board.flag(state, seat, want)
    if key == "test":
        return registry.get("test", want)(state, seat, src, "")
    if key == "not":
        return not holds(state, seat, src, want, ev)
    if key == "all":
        return all(holds(state, seat, src, c, ev) for c in want)
    if key == "any":
        return any(holds(state, seat, src, c, ev) for c in want)
    raise CardDataError(f"unknown condition {key!r}")


def check_condition(cond: Any) -> None:
    """Raise `CardDataError` for a condition with an unknown key (data checks)."""
    if not cond:
        return
    for key, want in cond.items():
        if key not in _COND_KEYS:
            raise CardDataError(f"unknown condition {key!r} in {cond}")
        if key == "not":
            check_condition(want)
        elif key in ("all", "any"):
            for c in want:
                check_condition(c)
