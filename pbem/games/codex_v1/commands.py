"""Codex commands and their one-line notation.

Wire form: frozen Structs in a tagged union (``"t": "cx.play"`` ...). They
name cards by ref and buildings as ``SEAT:KIND``; the notation names cards
in hand or codex by name (resolved to a representative copy, which the
writer re-chooses at random before signing: `pbem.games.refchoice`) and
things in play by side and name: ``me:iron-man``, ``opp:base``,
``opp:tech2``; ``opp:sl`` (or ``opp:squad-leader``,
``opp:patrol:squad-leader``) names a patroller by its slot; a second copy
of a name on one side is ``iron-man.2`` (in ref order). ``none``: a part
with no legal target.

* ``tech NAME NAME`` / ``tech NAME`` / ``tech none`` [``first=me:X,...``]
  start of turn: the cards teched after the last turn, and the upkeep
  triggers to resolve first (the active player orders them)
* ``hire NAME``                    a hand card becomes a worker (1 gold)
* ``build tech1|tech2|tech3|surplus|tower``
* ``summon HERO``, ``level N``
* ``play NAME [target=T,T,...] [top]``   (``top``: Appel Stomp on the deck;
  ``target=self``: the unit being played, e.g. Hired Stomper)
* ``use THING ABILITY [target=T]``       abilities: sideline, wreck,
  stop-the-music
* ``attack THING TARGET [with=T,T] [spark=T] [over=T] [then=T]``
  (`with`: targets of its attack trigger; sparkshot, overpower,
  obliterate's new target)
* ``end [sl=X] [elite=X] [scavenger=X] [technician=X] [lookout=X]``
  lock the patrol zone and end the main phase (draw phase follows)
"""

from __future__ import annotations

import msgspec

from pbem.errors import InvalidCommand
from pbem.games.base import Known
from pbem.games.codex_v1 import cards, engine
from pbem.games.codex_v1.state import State, codex, hand, other, ref_key


class Tech(msgspec.Struct, frozen=True, tag="cx.tech", tag_field="t", omit_defaults=True):
    cards: list[str] = []
    first: list[str] = []


class Hire(msgspec.Struct, frozen=True, tag="cx.hire", tag_field="t"):
    ref: str


class Build(msgspec.Struct, frozen=True, tag="cx.build", tag_field="t"):
    building: str


class Summon(msgspec.Struct, frozen=True, tag="cx.summon", tag_field="t"):
    """Summon the hero (by name) from the command zone."""

    hero: str


class Level(msgspec.Struct, frozen=True, tag="cx.level", tag_field="t"):
    hero: str
    times: int = 1


class Play(msgspec.Struct, frozen=True, tag="cx.play", tag_field="t", omit_defaults=True):
    ref: str
    targets: list[str] = []
    top: bool = False


class Use(msgspec.Struct, frozen=True, tag="cx.use", tag_field="t", omit_defaults=True):
    source: str
    ability: str
    targets: list[str] = []


class Attack(msgspec.Struct, frozen=True, tag="cx.attack", tag_field="t", omit_defaults=True):
    attacker: str
    target: str
    extra: list[str] = []
    spark: str = ""
    over: str = ""
    then: str = ""


class End(msgspec.Struct, frozen=True, tag="cx.end", tag_field="t", omit_defaults=True):
    #: the five slots, squad leader first: refs or ""
    patrol: list[str] = []


Command = Tech | Hire | Build | Summon | Level | Play | Use | Attack | End

SLOT_WORDS = ("sl", "elite", "scavenger", "technician", "lookout")


# --- names of things -------------------------------------------------------------


def _side(state: State, seat: str, owner: str) -> str:
    return "me" if owner == seat else "opp"


def handle(state: State, ref: str) -> str:
    """``iron-man`` or ``iron-man.2``: unique among one side's things."""
    t = state.things[ref]
    same = sorted((r for r in engine.things_of(state, t.controller) if state.things[r].card == t.card), key=ref_key)
    base = cards.slug(t.card)
    return base if len(same) == 1 else f"{base}.{same.index(ref) + 1}"


def target_text(state: State, seat: str, target: str) -> str:
    if not target:
        return "none"
    if engine.is_building(target):
        owner, kind = target.split(":")
        return f"{_side(state, seat, owner)}:{kind}"
    if target in state.things:
        return f"{_side(state, seat, state.things[target].controller)}:{handle(state, target)}"
    return target


def parse_target(state: State, seat: str, text: str) -> str:
    text = text.strip().lower()
    if text in ("none", "-", ""):
        return ""
    side, _, rest = text.partition(":")
    if side not in ("me", "opp", "my", "their") or not rest:
        raise InvalidCommand(f"target {text!r}: write me:NAME or opp:NAME (opp:base, opp:sl, me:tech1 ...)")
    owner = seat if side in ("me", "my") else other(state, seat)
    rest = rest.removeprefix("patrol:")
    if rest in ("base",) + cards.TECH_BUILDINGS + cards.ADDONS:
        return f"{owner}:{rest}"
    if rest in cards.SLOT_SHORT:
        slot = cards.SLOTS.index(cards.SLOT_SHORT[rest])
        ref = state.patrol.get(owner, [""] * 5)[slot] if state.patrol.get(owner) else ""
        if not ref:
            raise InvalidCommand(f"{side}:{rest}: that patrol slot is empty")
        return ref
    for ref in engine.things_of(state, owner):
        if handle(state, ref) == rest or (cards.slug(state.things[ref].card) == rest):
            return ref
    name = cards.lookup(rest.split(".")[0])
    if name is not None:
        for ref in engine.things_of(state, owner):
            if state.things[ref].card == name:
                return ref
    raise InvalidCommand(f"nothing called {rest!r} on {'your' if owner == seat else 'the opposing'} side")


def _targets(state: State, seat: str, targets: list[str]) -> str:
    return ",".join(target_text(state, seat, t) for t in targets)


def known_card(state: State, ref: str, seat: str | None) -> str | None:
    """The name of `ref` if `seat` may see it in this state (never raises)."""
    for name, zone in state.zones.items():
        for it in zone.items:
            if it.ref == ref:
                if isinstance(it, Known) and (zone.public or (seat is not None and seat in zone.readers)):
                    return it.card
                return state.shown.get(ref)
    return state.shown.get(ref)


def _by_name(state: State, zone: str, text: str, what: str) -> str:
    name = cards.lookup(text)
    if name is None:
        raise InvalidCommand(f"unknown card {text!r}")
    refs = sorted((it.ref for it in state.zones[zone].items if isinstance(it, Known) and it.card == name),
                  key=ref_key)
    if not refs:
        raise InvalidCommand(f"there is no {name} in your {what}")
    return refs[0]


# --- format ------------------------------------------------------------------------


def format_command(cmd: Command, state: State, seat: str) -> str:
    def card_slug(ref: str) -> str:
        name = known_card(state, ref, seat)
        return cards.slug(name) if name else ref

    match cmd:
        case Tech(cards=refs, first=first):
            text = "tech " + (" ".join(card_slug(r) for r in refs) if refs else "none")
            if first:
                text += " first=" + ",".join(
                    f"me:{f.split(':')[1]}" if engine.is_building(f) else target_text(state, seat, f) for f in first)
            return text
        case Hire(ref=ref):
            return f"hire {card_slug(ref)}"
        case Build(building=b):
            return f"build {b}"
        case Summon(hero=name):
            return f"summon {cards.slug(name)}"
        case Level(times=n):
            return f"level {n}"
        case Play(ref=ref, targets=targets, top=top):
            text = f"play {card_slug(ref)}"
            if targets:
                text += " target=" + ",".join("self" if t == ref else target_text(state, seat, t) for t in targets)
            return text + (" top" if top else "")
        case Use(source=src, ability=ab, targets=targets):
            who = handle(state, src) if src in state.things else card_slug(src)
            text = f"use {who} {ab}"
            return text + (f" target={_targets(state, seat, targets)}" if targets else "")
        case Attack(attacker=a, target=t, extra=extra, spark=spark, over=over, then=then):
            text = f"attack {handle(state, a) if a in state.things else a} {target_text(state, seat, t)}"
            if extra:
                text += f" with={_targets(state, seat, extra)}"
            for key, value in (("spark", spark), ("over", over), ("then", then)):
                if value:
                    text += f" {key}={target_text(state, seat, value)}"
            return text
        case End(patrol=slots):
            parts = ["end"]
            for word, ref in zip(SLOT_WORDS, slots):
                if ref:
                    parts.append(f"{word}={handle(state, ref)}")
            return " ".join(parts)
    raise InvalidCommand(f"not a Codex command: {cmd!r}")


# --- parse ---------------------------------------------------------------------------


def _split(text: str) -> tuple[list[str], dict[str, str], set[str]]:
    words, opts, flags = [], {}, set()
    for tok in text.split():
        if "=" in tok:
            k, _, v = tok.partition("=")
            opts[k.lower()] = v
        elif tok.lower() in ("top",):
            flags.add("top")
        else:
            words.append(tok)
    return words, opts, flags


def _thing(state: State, seat: str, text: str) -> str:
    if ":" not in text:
        text = "me:" + text
    ref = parse_target(state, seat, text)
    if not ref or engine.is_building(ref):
        raise InvalidCommand(f"{text!r} is not one of your units or heroes")
    return ref


def _list(state: State, seat: str, value: str) -> list[str]:
    return [parse_target(state, seat, v) for v in value.split(",")] if value else []


def parse_command(text: str, state: State, seat: str) -> Command:
    words, opts, flags = _split(text.strip())
    if not words:
        raise InvalidCommand("empty command (try: tech, hire, build, summon, level, play, use, attack, end)")
    verb, args = words[0].lower(), words[1:]
    allowed = {"tech": {"first"}, "play": {"target"}, "use": {"target"},
               "attack": {"with", "spark", "over", "then"},
               "end": set(SLOT_WORDS) | {"squad-leader", "scav", "tech"}}.get(verb, set())
    for key in opts:
        if key not in allowed:
            raise InvalidCommand(f"{verb}: unknown option {key}=")
    if flags and verb != "play":
        raise InvalidCommand(f"{verb}: unexpected word 'top'")
    if verb == "tech":
        refs: list[str] = []
        zone = state.zones[codex(seat)]
        if args != ["none"]:
            taken: set[str] = set()
            for a in args:
                name = cards.lookup(a)
                ref = next((it.ref for it in sorted(zone.items, key=lambda i: ref_key(i.ref))
                            if isinstance(it, Known) and it.card == name and it.ref not in taken), None)
                if ref is None:
                    raise InvalidCommand(f"no {a} left in your codex")
                taken.add(ref)
                refs.append(ref)
        first = []
        for f in opts.get("first", "").split(",") if opts.get("first") else []:
            if f.lower() in ("me:surplus", "surplus"):
                first.append(f"{seat}:surplus")
            else:
                first.append(_thing(state, seat, f))
        return Tech(cards=refs, first=first)
    if verb == "hire" and len(args) == 1:
        return Hire(_by_name(state, hand(seat), args[0], "hand"))
    if verb == "build" and len(args) == 1:
        b = args[0].lower().replace("-", "")
        b = {"techi": "tech1", "techii": "tech2", "techiii": "tech3"}.get(b, b)
        return Build(b)
    if verb == "summon" and len(args) == 1:
        name = cards.lookup(args[0])
        if name is None or name not in cards.HEROES:
            raise InvalidCommand(f"unknown hero {args[0]!r}")
        return Summon(name)
    if verb == "level" and len(args) <= 1:
        hero = engine.hero_in_play(state, seat)
        if hero is None:
            raise InvalidCommand("you have no hero in play")
        try:
            n = int(args[0]) if args else 1
        except ValueError:
            raise InvalidCommand(f"level N: {args[0]!r} is not a number") from None
        return Level(hero, n)
    if verb == "play" and len(args) == 1:
        ref = _by_name(state, hand(seat), args[0], "hand")
        value = opts.get("target", "")
        targets = [ref if v.strip().lower() == "self" else parse_target(state, seat, v)
                   for v in value.split(",")] if value else []
        return Play(ref, targets, "top" in flags)
    if verb == "use" and len(args) == 2:
        src = args[0]
        try:
            ref = _thing(state, seat, src)
        except InvalidCommand:
            name = cards.lookup(src)
            ref = next((it.ref for it in state.zones[f"ongoing:{seat}"].items if it.card == name), "")
            if not ref:
                raise
        return Use(ref, args[1].lower(), _list(state, seat, opts.get("target", "")))
    if verb == "attack" and len(args) == 2:
        a = _thing(state, seat, args[0])
        t = parse_target(state, seat, args[1] if ":" in args[1] else "opp:" + args[1])
        return Attack(a, t, _list(state, seat, opts.get("with", "")),
                      *(parse_target(state, seat, opts[k]) if opts.get(k) else "" for k in ("spark", "over", "then")))
    if verb == "end" and not args:
        slots = [""] * 5
        for key, value in opts.items():
            i = SLOT_WORDS.index({"squad-leader": "sl", "scav": "scavenger", "tech": "technician"}.get(key, key))
            slots[i] = _thing(state, seat, value)
        return End(slots if any(slots) else [])
    raise InvalidCommand(f"cannot read {text!r} (try: tech, hire, build, summon, level, play, use, attack, end)")


# --- words for logs ------------------------------------------------------------------


def describe_command(cmd: Command, state: State, seat: str | None) -> str:
    """A log line `seat` may read: hidden cards are never named."""
    viewer = seat or ""
    match cmd:
        case Tech(cards=refs):
            names = [known_card(state, r, seat) for r in refs]
            if refs and all(names):
                return "tech " + ", ".join(n for n in names if n)
            return f"tech {len(refs)} card(s) face down"
        case Hire(ref=ref):
            name = known_card(state, ref, seat)
            return f"hire a worker ({name})" if name else "hire a worker (a card face down)"
        case Play(ref=ref, targets=targets, top=top):
            # playing a card shows it to everyone: a state that knows it
            # (after the play, or before it with the file's reveals) names it
            name = known_card(state, ref, seat) or _any_known(state, ref) or "a card"
            text = f"play {name}"
            if targets:
                text += " on " + ", ".join(_plain(state, viewer, t) for t in targets)
            return text + (" (back on top of the draw pile)" if top else "")
    try:
        return format_command(cmd, state, viewer)
    except (KeyError, InvalidCommand):
        return type(cmd).__name__.lower()


def _any_known(state: State, ref: str) -> str | None:
    for zone in state.zones.values():
        for it in zone.items:
            if it.ref == ref and isinstance(it, Known):
                return it.card
    return None


def _plain(state: State, seat: str, target: str) -> str:
    if not target:
        return "nothing"
    if engine.is_building(target):
        owner, kind = target.split(":")
        return f"{owner}'s {kind}"
    t = state.things.get(target)
    return f"{t.controller}'s {t.card}" if t else "a card no longer in play"
