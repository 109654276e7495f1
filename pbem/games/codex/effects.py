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

and an effect's ``only`` (a selector) keeps those of its places that match
(runes only on what has none yet).

and a player (``who``, ``from``, ``for``) is ``me``, ``opp`` (each
opponent), ``active`` (whose turn it is), ``t0`` (whoever controls target
0), ``subject``, ``attacked`` or ``player`` (the player the event is
about: the controller of what was killed, of the base damaged ...).

Effects: ``damage`` (a number, ``"x"`` for the command's X, or ``{"unit":
n, "hero": h, "building": m}`` by what is hit; a damage boost of the
controller's, `values.damage_boost`, adds to it), ``split_damage`` (the
command's split among ``among``: the total, boost included, divided),
``runes`` (+1/+1, negative for -1/-1; a number or one by kind, as damage), ``counter`` / ``remove_counter`` (other runes,
with ``limit``), ``draw``, ``gold``, ``steal``, ``token`` (``n``,
``limit``, ``for``), ``destroy``, ``sacrifice``, ``bounce`` (to its owner's
hand), ``trash`` (``self`` on a spell: it goes to the trash once resolved), ``shove`` (a patroller ``to`` the slot a ``slot_of`` part
chose), ``take`` (control; for good, or ``until`` ``turn`` or
``next_upkeep``, when its controller gets it back), ``sideline``,
``exhaust``, ``ready``, ``disable``, ``heal``, ``repair``, ``give`` (a
modifier: ``atk`` ``hp`` ``armor`` ``keywords`` ``lose`` ``cant`` ``grant``
(abilities of this card the thing has meanwhile), with
``until``: ``turn``, ``next_upkeep`` or ``""`` for as long as it stays in
play; ``"then": "dies"``: the thing dies when it ends), ``swap_printed`` (``atk``: two things' printed ATK, ``among``
two places, ``until``), ``level``, ``flip`` (a token to another face), ``transform`` (a
thing shows a token's face ``until`` ..., keeping its runes, damage and
attachments, losing what others gave it: `engine.transform`), ``lasting``
(this card's continuous effects of these keys hold ``until`` ..., though
the card itself goes: `State.lasting`), ``link`` (the targets
this card binds), ``attach`` (this ongoing spell to a target; it goes to
the discard pile when its host leaves play), ``extra_turn`` (``who`` takes
a turn after this one), ``player`` (a flag on the player until the end of
the turn: ``instant_build``, ``discard_hand`` at the end of the main phase
...), ``trash_worker`` (``from`` a player, or ``at`` a place: each base
there stands for its owner's workers), ``fetch`` (a card of the
controller's codex a part ``from`` the codex chose, to its hand, shown to
all), ``put_in_play`` (a card a part ``from`` the hand or codex chose: it
arrives, not played), ``cast`` (a spell a
part ``from`` the hand or codex chose, played for free: its own targets and
choices are asked then; ``free: true``), ``queue`` (this card's ability of
that key resolves next, making its choices then: after a draw, say),
``look`` (``hand`` or ``discard``: the controller reads that zone of each
player ``of`` names, default ``opp``, until the next command; its cards
are shown to it alone), ``discard`` (``N`` cards of each ``who``'s hand at
random, default ``opp``, face down; or ``t0``: the card a part ``from``
an opponent's hand chose, after a look), ``look_top`` (the controller
sees the top N cards of its own draw pile), ``exchange_top`` (the card a
part ``from`` the hand chose and the top of the draw pile trade places),
``arrange_top`` (``N``: the controller sees the top N cards of its own
draw pile, then its own next command puts them back in an order it
chooses): `hidden`;
``if`` / ``then`` / ``else`` (a condition, `select.holds`), ``coin`` (a
coin is flipped, public chance: ``heads`` or ``tails`` effects), and ``call``: a
function registered in ``abilities/`` (`registry`).
"""

from __future__ import annotations

from typing import Any

from pbem.games.base import Chance
from pbem.games.codex import board, engine, hidden, registry, select, values
from pbem.games.codex.board import log
from pbem.games.codex.cards import CardDataError
from pbem.games.codex.state import Mod, Pending, State, opponents

EFFECT_KEYS = ("damage", "split_damage", "runes", "counter", "remove_counter", "draw", "gold", "steal", "token",
               "destroy", "sacrifice", "bounce", "trash", "take", "sideline", "exhaust", "ready", "disable", "heal",
               "repair", "give", "level", "flip", "link", "attach", "player", "trash_worker", "extra_turn", "if",
               "call", "transform", "lasting", "swap_printed", "shove", "fetch", "put_in_play", "cast", "queue", "coin") + hidden.EFFECTS


class Ctx:
    """What an effect runs with: the state, who controls it, its source,
    the chosen targets and choices, what the event said, and chance."""

    __slots__ = ("state", "seat", "src", "targets", "chance", "ev", "split", "x", "modes", "card", "fate")

    def __init__(self, state: State, seat: str, src: str, targets: list[str], chance: Chance | None,
                 ev: dict[str, str] | None = None, split: list[int] | None = None, x: int = 0,
                 modes: list[int] | None = None, card: str = "") -> None:
        self.state, self.seat, self.src, self.targets, self.chance = state, seat, src, targets, chance
        self.ev = ev or {}
        self.split = split or []
        self.x = x
        self.modes = modes or []
        #: the card the spell or ability is written on (what a damage boost
        #: such as "your red spells and abilities deal 1 more" looks at)
        self.card = card
        #: where the spell being cast goes after it resolves ("trash": its
        #: effects trashed it) instead of the discard pile
        self.fate = ""

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
            return list(dict.fromkeys(board.base_of(st, p) for p in self.players(to[5:])))  # a team's is shared
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

    def cards(self, place: str) -> list[tuple[str, str]]:
        """(zone, ref) of the card a part ``from`` the controller's hand,
        codex or discard pile chose, while it is still there."""
        i = int(place[1:])
        ref = self.targets[i] if i < len(self.targets) else ""
        for kind in ("hand", "codex", "discard"):
            for seat in self.state.seats:  # another's: a part ``of`` the opponent's zones
                zone = f"{kind}:{seat}"
                if ref and any(it.ref == ref for it in self.state.zones[zone].items):
                    return [(zone, ref)]
        return []

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
        if who == "player":  # the player the event is about (a kill's victim's controller ...)
            return [self.ev["player"]] if self.ev.get("player") else []
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


def _by_kind(ctx: Ctx, n: Any, x: str) -> int:
    """An amount, or one by what `x` is: ``{"unit": 3, "hero": 1, "building": 2}``
    (a hero takes the unit's amount unless the hero's is given)."""
    if not isinstance(n, dict):
        return amount(ctx, n)
    kind = board.kind_of(ctx.state, x)
    if kind in ("base", "structure", "building"):
        return n.get("building", 0)
    return n.get("hero", n.get("unit", 0)) if kind == "hero" else n.get("unit", 0)


def _card_of(ctx: Ctx) -> str:
    """The card whose effects run: in play, or a spell being cast (shown to all)."""
    t = ctx.state.things.get(ctx.src)
    return t.card if t is not None else ctx.state.shown[ctx.src]


def _until(ctx: Ctx, until: str) -> str:
    return f"upkeep:{ctx.seat}" if until == "next_upkeep" else until


def one(ctx: Ctx, e: dict[str, Any]) -> None:
    st, seat = ctx.state, ctx.seat
    name = next(iter(e))
    only = e.get("only")

    def where(to: Any) -> list[str]:
        found = ctx.where(to)
        return [x for x in found if select.matches(st, seat, ctx.src, only, x)] if only else found

    if name == "damage":
        boost = values.damage_boost(st, seat, ctx.card)
        for x in where(e["to"]):
            n = _by_kind(ctx, e["damage"], x)
            engine.damage(st, x, n + boost if n > 0 else n, src=ctx.src)
    elif name == "split_damage":  # the command divided the total, boost included
        for part, n in zip(e["among"], ctx.split):
            for x in where(part):
                engine.damage(st, x, n, src=ctx.src)
    elif name == "runes":
        for x in where(e["to"]):
            engine.add_runes(st, x, _by_kind(ctx, e["runes"], x))
    elif name == "counter":
        for x in where(e["to"]):
            engine.add_counter(st, x, e["counter"], e.get("n", 1), e.get("limit", 0))
    elif name == "remove_counter":
        for x in where(e["to"]):
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
        engine.destroy(st, [x for x in where(e[name]) if not board.is_structure(x)], ctx.chance)
    elif name == "trash" and e["trash"] == "self" and ctx.src not in st.things:
        ctx.fate = "trash"  # a spell being cast: it leaves the game once resolved
    elif name in ("bounce", "trash"):
        for x in where(e[name]):
            if not board.is_structure(x):
                log(st, f"{st.things[x].card} " + ("returns to its owner's hand" if name == "bounce" else "is trashed"))
                engine.leave_play(st, x, "hand" if name == "bounce" else "trash")
    elif name == "take":
        for x in where(e["take"]):
            if not board.is_structure(x) and st.things[x].controller != seat:
                log(st, f"{seat} takes control of {st.things[x].card}")
                engine.change_control(st, x, seat, _until(ctx, e["until"]) if e.get("until") else "")
    elif name == "sideline":
        for x in where(e["sideline"]):
            if not board.is_structure(x) and board.slot_of(st, x):
                engine.unpatrol(st, x)
                log(st, f"{st.things[x].card} is sidelined")
    elif name == "shove":
        i = int(e["to"][1:])
        slot = ctx.targets[i] if i < len(ctx.targets) else ""
        for x in ctx.where(e["shove"]):
            if not board.is_structure(x) and slot and engine.shove(st, x, slot):
                log(st, f"{st.things[x].card} is shoved to the {slot} slot")
    elif name == "exhaust":
        for x in where(e["exhaust"]):
            engine.exhaust(st, x)
    elif name == "ready":
        for x in where(e["ready"]):
            st.things[x].exhausted = False
    elif name == "disable":
        for x in where(e["disable"]):
            engine.disable(st, x)
    elif name == "heal":
        for x in where(e["to"]):
            engine.heal(st, x, e["heal"])
    elif name == "repair":
        for x in where(e["to"]):
            engine.repair(st, x, e["repair"])
    elif name == "give":
        g = e["give"]
        for x in where(e["to"]):
            if board.is_structure(x):
                continue
            engine.give(st, x, Mod(until=_until(ctx, e.get("until", "turn")), atk=g.get("atk", 0), hp=g.get("hp", 0),
                                   armor=g.get("armor", 0), keywords=dict(g.get("keywords", {})),
                                   lose=list(g.get("lose", [])), cant=list(g.get("cant", [])), src=ctx.src,
                                   grant=list(g.get("grant", [])), card=ctx.card if g.get("grant") else "",
                                   dies=e.get("then") == "dies"))
    elif name == "swap_printed":
        if e["swap_printed"] != "atk":
            raise CardDataError(f"swap_printed: only atk is swapped, not {e['swap_printed']!r}")
        pair = [x for part in e["among"] for x in ctx.where(part) if not board.is_structure(x)]
        if len(pair) == 2 and pair[0] != pair[1]:
            a, b = (values.printed_atk(st, x) for x in pair)
            until = _until(ctx, e.get("until", "turn"))
            engine.give(st, pair[0], Mod(until=until, base_atk=b, src=ctx.src))
            engine.give(st, pair[1], Mod(until=until, base_atk=a, src=ctx.src))
            log(st, f"{st.things[pair[0]].card} and {st.things[pair[1]].card} swap their printed ATK")
    elif name == "level":
        for x in where(e["to"]):
            if board.is_hero(st, x):
                engine.level_up(st, x, e["level"])
    elif name == "flip":
        for x in where(e["to"]):
            engine.flip(st, x, e["flip"])
    elif name == "fetch":
        for zone, ref in ctx.cards(e["fetch"]):
            engine.fetch(st, seat, zone, ref)
    elif name == "lasting":
        keys = [e["lasting"]] if isinstance(e["lasting"], str) else e["lasting"]
        card = _card_of(ctx)
        for key in keys:
            engine.lasting(st, seat, ctx.src, card, key, _until(ctx, e.get("until", "turn")))
    elif name == "transform":
        for x in where(e["to"]):
            if not board.is_structure(x):
                engine.transform(st, x, e["transform"], _until(ctx, e.get("until", "turn")), src=ctx.src)
    elif name == "link":
        if ctx.src in st.things:
            refs = [r for part in e["link"] for r in where(part)]
            st.things[ctx.src].links = refs if len(refs) == len(e["link"]) else []
    elif name == "attach":
        hosts = where(e["attach"])
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
        owners = [board.controller(st, x) for x in where(e["at"]) if x.endswith(":base")] if "at" in e \
            else ctx.players(e.get("from", "opp"))
        for p in owners:
            for _ in range(e["trash_worker"]):
                engine.trash_worker(st, p)
    elif name == "if":
        branch = "then" if select.holds(st, seat, ctx.src, e["if"], ctx.ev) else "else"
        run(ctx, e.get(branch, []))
    elif name == "coin":
        if ctx.chance is not None:  # public chance: everyone sees the coin
            side = ("heads", "tails")[ctx.chance.public.below(2)]
            log(st, f"the coin shows {side}")
            run(ctx, e.get(side, []))
    elif name == "put_in_play":
        for zone, ref in ctx.cards(e["put_in_play"]):
            engine.put_into_play(st, seat, zone, ref)
    elif name == "cast":
        for _, ref in ctx.cards(e["cast"]):  # the cast step asks the spell's own targets
            st.fresh.append(Pending(kind="step", key="cast", src=ref, ctrl=seat))
    elif name == "queue":
        st.fresh.append(Pending(kind="trigger", key=e["queue"], src=ctx.src, card=ctx.card, ctrl=seat,
                                ev=dict(ctx.ev)))
    elif name in hidden.EFFECTS:
        hidden.run(ctx, e)
    elif name == "call":
        registry.get("effect", e["call"])(ctx, e)
    else:
        raise CardDataError(f"unknown effect {name!r}")


@registry.register("runner", "effects")
def run_for(state: State, seat: str, src: str, do: list[dict[str, Any]], chance: Chance | None,
            ev: dict[str, str]) -> None:
    """Effects of a replacement the engine applies (no choices: no targets)."""
    run(Ctx(state, seat, src, [], chance, ev, card=state.things[src].card if src in state.things else ""), do)
