"""Common effects, written as data in the card files (``"do": [...]``).

Each effect is a dict whose first key names it; they run in order and each
does as much as it can (a target that is gone is skipped). Where an effect
acts (``to``) is one of:

``t0`` ``t1`` ...   the ability's chosen targets, in order
``self``            the card itself; ``linked`` the things it binds;
                    ``attached`` the thing it is attached to
``subject``         what the event was about; ``attacked`` what was attacked
``base:me`` ``base:opp`` ``base:t0`` ``base:attacked``  a base (``opp``:
                    each opponent's; ``t0``: of whoever controls target 0)
``{"each": SELECTOR}``  everything that matches, without targeting

and a player (``who``, ``from``, ``for``) is ``me``, ``opp`` (each
opponent), ``active`` (whose turn it is), ``t0`` (whoever controls target
0), ``subject`` or ``attacked``.

Effects: ``damage`` (a number, ``"x"`` for the command's X, or ``{"unit":
n, "building": m}`` by what is hit), ``split_damage`` (the command's split among ``among``), ``runes``
(+1/+1, negative for -1/-1), ``counter`` / ``remove_counter`` (other runes,
with ``limit``), ``draw``, ``gold``, ``steal``, ``token`` (``n``,
``limit``, ``for``), ``destroy``, ``sacrifice``, ``bounce`` (to its owner's
hand), ``trash``, ``take`` (control; ``until``), ``sideline``,
``exhaust``, ``ready``, ``disable``, ``heal``, ``repair``, ``give`` (a
modifier: ``atk`` ``hp`` ``armor`` ``keywords`` ``lose`` ``cant``, with
``until``: ``turn``, ``next_upkeep`` or ``""`` for as long as it stays in
play), ``level``, ``flip`` (a token to another face), ``link`` (the targets
this card binds), ``attach`` (this ongoing spell to a target; it goes to
the discard pile when its host leaves play), ``extra_turn`` (``who`` takes
a turn after this one), ``player`` (a flag on the player ``until`` the end of the
turn), ``trash_worker`` (``from`` a player), ``if`` / ``then`` / ``else`` (a condition, `select.holds`), and
``call``: a function registered in ``abilities/`` (`registry`).
"""

from __future__ import annotations

from typing import Any

from pbem.games.base import Chance
from pbem.games.codex_v2 import board, engine, registry, select
from pbem.games.codex_v2.board import log
from pbem.games.codex_v2.cards import CardDataError
from pbem.games.codex_v2.state import Mod, State, opponents

EFFECT_KEYS = ("damage", "split_damage", "runes", "counter", "remove_counter", "draw", "gold", "steal", "token",
               "destroy", "sacrifice", "bounce", "trash", "take", "sideline", "exhaust", "ready", "disable", "heal",
               "repair", "give", "level", "flip", "link", "attach", "player", "trash_worker", "extra_turn", "if",
               "call")


class Ctx:
    """What an effect runs with: the state, who controls it, its source,
    the chosen targets and choices, what the event said, and chance."""

    __slots__ = ("state", "seat", "src", "targets", "chance", "ev", "split", "x", "modes")

    def __init__(self, state: State, seat: str, src: str, targets: list[str], chance: Chance | None,
                 ev: dict[str, str] | None = None, split: list[int] | None = None, x: int = 0,
                 modes: list[int] | None = None) -> None:
        self.state, self.seat, self.src, self.targets, self.chance = state, seat, src, targets, chance
        self.ev = ev or {}
        self.split = split or []
        self.x = x
        self.modes = modes or []

    # -- where and who --------------------------------------------------------------

    def _alive(self, x: str) -> bool:
        if not x:
            return False
        if board.is_structure(x):
            seat, kind = board.structure(x)
            return kind == "base" or kind in self.state.players[seat].buildings
        return x in self.state.things

    def where(self, to: Any) -> list[str]:
        st = self.state
        if isinstance(to, dict):
            return select.candidates(st, self.seat, self.src, to["each"])
        if to.startswith("t") and to[1:].isdigit():
            i = int(to[1:])
            x = self.targets[i] if i < len(self.targets) else ""
            return [x] if self._alive(x) else []
        if to.startswith("base:"):
            return [f"{p}:base" for p in self.players(to[5:])]
        if to == "self":
            return [self.src] if self.src in st.things else []
        if to == "linked":
            return [r for r in st.things[self.src].links if r in st.things] if self.src in st.things else []
        if to == "attached":
            host = st.things[self.src].attached if self.src in st.things else ""
            return [host] if host in st.things else []
        if to in ("subject", "attacked"):
            x = self.ev.get(to, "")
            return [x] if self._alive(x) else []
        raise CardDataError(f"unknown place {to!r}")

    def players(self, who: str) -> list[str]:
        st = self.state
        if who == "me":
            return [self.seat]
        if who == "active":
            return [st.active]
        if who == "opp":
            return opponents(st, self.seat)
        if who == "attacked":
            return [self.ev["defender"]] if self.ev.get("defender") else []
        if who == "subject":
            x = self.ev.get("subject", "")
            return [st.things[x].controller] if x in st.things else ([self.ev["controller"]] if "controller" in self.ev else [])
        if who.startswith("t") and who[1:].isdigit():
            i = int(who[1:])
            x = self.targets[i] if i < len(self.targets) else ""
            return [board.controller(st, x)] if self._alive(x) else []
        raise CardDataError(f"unknown player {who!r}")


def run(ctx: Ctx, effects: list[dict[str, Any]]) -> None:
    for e in effects:
        if ctx.state.outcome is not None:
            return
        one(ctx, e)


def amount(ctx: Ctx, n: Any) -> int:
    """A number of the data, or ``"x"``: the X the command chose."""
    return ctx.x if n == "x" else int(n)


def _until(ctx: Ctx, until: str) -> str:
    return f"upkeep:{ctx.seat}" if until == "next_upkeep" else until


def one(ctx: Ctx, e: dict[str, Any]) -> None:
    st, seat = ctx.state, ctx.seat
    name = next(iter(e))
    if name == "damage":
        dmg = e["damage"]
        for x in ctx.where(e["to"]):
            n = dmg.get("building" if board.kind_of(st, x) in ("base", "structure", "building") else "unit", 0) \
                if isinstance(dmg, dict) else amount(ctx, dmg)
            engine.damage(st, x, n, src=ctx.src)
    elif name == "split_damage":
        for part, n in zip(e["among"], ctx.split):
            for x in ctx.where(part):
                engine.damage(st, x, n, src=ctx.src)
    elif name == "runes":
        for x in ctx.where(e["to"]):
            engine.add_runes(st, x, e["runes"])
    elif name == "counter":
        for x in ctx.where(e["to"]):
            engine.add_counter(st, x, e["counter"], e.get("n", 1), e.get("limit", 0))
    elif name == "remove_counter":
        for x in ctx.where(e["to"]):
            engine.remove_counter(st, x, e["remove_counter"], e.get("n", 1), ctx.chance)
    elif name == "draw":
        for p in ctx.players(e.get("who", "me")):
            if ctx.chance is not None:
                engine.draw(st, p, e["draw"], ctx.chance)
    elif name == "gold":
        for p in ctx.players(e.get("who", "me")):
            engine.gain_gold(st, p, e["gold"])
    elif name == "steal":
        for p in ctx.players(e["from"]):
            if p == seat:
                continue
            n = min(e["steal"], st.players[p].gold)
            st.players[p].gold -= n
            engine.gain_gold(st, seat, n)
            log(st, f"{seat} takes {n} gold from {p}")
    elif name == "token":
        for p in ctx.players(e.get("for", "me")):
            for _ in range(e.get("n", 1)):
                if engine.make_token(st, p, e["token"], e.get("limit", 0)):
                    log(st, f"a {e['token']} token arrives for {p}")
    elif name in ("destroy", "sacrifice"):
        engine.destroy(st, [x for x in ctx.where(e[name]) if not board.is_structure(x)], ctx.chance)
    elif name in ("bounce", "trash"):
        for x in ctx.where(e[name]):
            if not board.is_structure(x):
                log(st, f"{st.things[x].card} " + ("returns to its owner's hand" if name == "bounce" else "is trashed"))
                engine.leave_play(st, x, "hand" if name == "bounce" else "trash")
    elif name == "take":
        for x in ctx.where(e["take"]):
            if not board.is_structure(x) and st.things[x].controller != seat:
                log(st, f"{seat} takes control of {st.things[x].card}")
                engine.change_control(st, x, seat)
    elif name == "sideline":
        for x in ctx.where(e["sideline"]):
            if not board.is_structure(x) and board.slot_of(st, x):
                engine.unpatrol(st, x)
                log(st, f"{st.things[x].card} is sidelined")
    elif name == "exhaust":
        for x in ctx.where(e["exhaust"]):
            engine.exhaust(st, x)
    elif name == "ready":
        for x in ctx.where(e["ready"]):
            st.things[x].exhausted = False
    elif name == "disable":
        for x in ctx.where(e["disable"]):
            engine.disable(st, x)
    elif name == "heal":
        for x in ctx.where(e["to"]):
            engine.heal(st, x, e["heal"])
    elif name == "repair":
        for x in ctx.where(e["to"]):
            engine.repair(st, x, e["repair"])
    elif name == "give":
        g = e["give"]
        for x in ctx.where(e["to"]):
            if board.is_structure(x):
                continue
            engine.give(st, x, Mod(until=_until(ctx, e.get("until", "turn")), atk=g.get("atk", 0), hp=g.get("hp", 0),
                                   armor=g.get("armor", 0), keywords=dict(g.get("keywords", {})),
                                   lose=list(g.get("lose", [])), cant=list(g.get("cant", [])), src=ctx.src))
    elif name == "level":
        for x in ctx.where(e["to"]):
            if board.is_hero(st, x):
                engine.level_up(st, x, e["level"])
    elif name == "flip":
        for x in ctx.where(e["to"]):
            engine.flip(st, x, e["flip"])
    elif name == "link":
        if ctx.src in st.things:
            refs = [r for part in e["link"] for r in ctx.where(part)]
            st.things[ctx.src].links = refs if len(refs) == len(e["link"]) else []
    elif name == "attach":
        hosts = ctx.where(e["attach"])
        if ctx.src in st.things and hosts and not board.is_structure(hosts[0]):
            st.things[ctx.src].attached = hosts[0]
            log(st, f"{st.things[ctx.src].card} is attached to {st.things[hosts[0]].card}")
    elif name == "extra_turn":
        for p in ctx.players(e.get("who", "me")):
            st.extra_turns.append(p)
            log(st, f"{p} will take an extra turn after this one")
    elif name == "player":
        for p in ctx.players(e.get("who", "me")):
            st.players[p].flags[e["player"]] = st.turn
    elif name == "trash_worker":
        for p in ctx.players(e.get("from", "opp")):
            for _ in range(e["trash_worker"]):
                engine.trash_worker(st, p)
    elif name == "if":
        branch = "then" if select.holds(st, seat, ctx.src, e["if"], ctx.ev) else "else"
        run(ctx, e.get(branch, []))
    elif name == "call":
        registry.get("effect", e["call"])(ctx, e)
    else:
        raise CardDataError(f"unknown effect {name!r}")


@registry.register("runner", "effects")
def run_for(state: State, seat: str, src: str, do: list[dict[str, Any]], chance: Chance | None,
            ev: dict[str, str]) -> None:
    """Effects of a replacement the engine applies (no choices: no targets)."""
    run(Ctx(state, seat, src, [], chance, ev), do)
