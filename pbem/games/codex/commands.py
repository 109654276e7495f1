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

import difflib

import msgspec

from pbem.errors import InvalidCommand
from pbem.games.base import Known
from pbem.games.codex import cards, engine
from pbem.games.codex.state import State, codex, hand, other, ref_key


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
    rest = _handle_key(rest.removeprefix("patrol:").strip())
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
    there = sorted(handle(state, r) for r in engine.things_of(state, owner))
    where = "your" if owner == seat else "the opposing"
    raise InvalidCommand(f"nothing called {rest!r} on {where} side",
                         hint=f"{where} side has in play: {', '.join(there)}; and the base" if there
                         else f"{where} side has nothing in play but its base and buildings")


def _handle_key(text: str) -> str:
    """A typed name of a thing in play as `handle` writes it: ``Iron Man``,
    ``iron man.2`` -> ``iron-man``, ``iron-man.2``."""
    base, dot, index = text.rpartition(".")
    if dot and index.isdigit():
        return f"{cards.slug(base)}.{index}"
    return cards.slug(text)


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


def _by_name(state: State, zone: str, name: str, what: str) -> str:
    """A representative copy of card `name` in `zone` (refchoice re-chooses it)."""
    refs = sorted((it.ref for it in state.zones[zone].items if isinstance(it, Known) and it.card == name),
                  key=ref_key)
    if not refs:
        held = sorted({it.card for it in state.zones[zone].items if isinstance(it, Known)})
        raise InvalidCommand(f"there is no {name} in your {what}",
                             hint=f"your {what}: {', '.join(held)}" if held else f"your {what} is empty")
    return refs[0]


def card_name(words: list[str]) -> str:
    """The card or hero that `words` name (any case; spaces or hyphens)."""
    text = " ".join(words)
    name = cards.lookup(text)
    if name is None:
        raise InvalidCommand(f"no card called {text!r}", hint=_did_you_mean(text))
    return name


def _did_you_mean(text: str) -> str | None:
    key = cards.slug(text)
    slugs = [cards.slug(n) for n in (*cards.CARDS, *cards.HEROES)]
    close = [s for s in slugs if key and key in s] or difflib.get_close_matches(key, slugs, n=3, cutoff=0.6)
    return f"did you mean {' or '.join(close[:3])}?" if close else "pbem legal DIR --as NAME lists your commands"


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


#: each command's shape, for the error that says what was expected
FORMS = {
    "tech": "tech NAME NAME (the cards teched after your last turn), tech NAME or tech none",
    "hire": "hire NAME (a card in your hand)",
    "build": "build tech1|tech2|tech3|surplus|tower",
    "summon": "summon HERO",
    "level": "level [N]",
    "play": "play NAME [target=T,...] [top] (a card in your hand)",
    "use": "use THING ABILITY [target=T]",
    "attack": "attack THING TARGET, e.g. attack troq-bashar opp:base",
    "end": "end [sl=X] [elite=X] [scavenger=X] [technician=X] [lookout=X]",
}
OPTIONS = {"tech": {"first"}, "play": {"target"}, "use": {"target"},
           "attack": {"with", "spark", "over", "then"},
           "end": set(SLOT_WORDS) | {"squad-leader", "scav", "tech"}}
VERBS_HINT = "Codex commands: " + ", ".join(FORMS) + " (pbem legal DIR --as NAME lists yours)"


def _split(text: str) -> tuple[list[str], dict[str, str], set[str]]:
    """The words before the first option, the options (``KEY=VALUE``; a
    value goes on over the next words up to the next option, so a name may
    hold spaces: ``sl=Older Brother``) and the flag ``top``."""
    words: list[str] = []
    opts: dict[str, str] = {}
    flags: set[str] = set()
    key = None
    for tok in text.split():
        if "=" in tok:
            k, _, v = tok.partition("=")
            key = k.lower()
            opts[key] = v
        elif tok.lower() == "top":
            flags.add("top")
        elif key is not None:
            opts[key] += " " + tok
        else:
            words.append(tok)
    return words, opts, flags


def _thing(state: State, seat: str, text: str) -> str:
    text = text.strip()
    if ":" not in text:
        text = "me:" + text
    ref = parse_target(state, seat, text)
    if not ref or engine.is_building(ref):
        raise InvalidCommand(f"{text!r} is not one of your units or heroes")
    return ref


def _list(state: State, seat: str, value: str) -> list[str]:
    return [parse_target(state, seat, v) for v in value.split(",")] if value else []


def _tech_names(words: list[str]) -> list[str]:
    """One or two card names from `words` (each any case, spaces or hyphens)."""
    if [w.lower() for w in words] == ["none"]:
        return []
    for cut in range(len(words), 0, -1):  # the longest first name that is a card
        first = cards.lookup(" ".join(words[:cut]))
        if first is None:
            continue
        rest = words[cut:]
        return [first] if not rest else [first, card_name(rest)]
    raise InvalidCommand(f"no card called {' '.join(words)!r}", hint=_did_you_mean(" ".join(words)))


def _attacker_and_target(state: State, seat: str, args: list[str]) -> tuple[str, str]:
    """``THING TARGET``: the target is the words from the first one with a
    side (``opp:``); without one, the first split whose start is a thing of yours."""
    cut = next((i for i, w in enumerate(args) if ":" in w and i > 0), None)
    if cut is None:
        for i in range(1, len(args)):
            try:
                _thing(state, seat, " ".join(args[:i]))
            except InvalidCommand:
                continue
            cut = i
            break
    if cut is None:
        raise InvalidCommand(f"attack: no unit or hero of yours called {' '.join(args[:-1])!r}",
                             hint=f"expected {FORMS['attack']}")
    target = " ".join(args[cut:])
    return _thing(state, seat, " ".join(args[:cut])), parse_target(state, seat, target if ":" in target else "opp:" + target)


def _hand_card(state: State, seat: str, words: list[str]) -> str:
    name = card_name(words)
    if cards.is_hero(name):
        raise _not_a_card(state, seat, name)
    return _by_name(state, hand(seat), name, "hand")


def _not_a_card(state: State, seat: str, hero: str) -> InvalidCommand:
    mine = state.players[seat].hero
    if hero == mine:
        return InvalidCommand(f"{hero} is a hero: a hero is summoned: summon {cards.slug(hero)}")
    return InvalidCommand(f"{hero} is a hero of the other side", hint=f"yours is {mine}: summon {cards.slug(mine)}")


def parse_command(text: str, state: State, seat: str) -> Command:
    """Read the notation (module docstring). Names may be typed in any case,
    with spaces or hyphens (``play Timely Messenger``); an error says what
    is wrong (no such card, not in your hand, a hero to summon ...)."""
    words, opts, flags = _split(text.strip())
    if not words:
        raise InvalidCommand("empty command", hint=VERBS_HINT)
    verb, args = words[0].lower(), words[1:]
    if verb not in FORMS:
        raise InvalidCommand(f"unknown command {words[0]!r}", hint=VERBS_HINT)
    for key in opts:
        if key not in OPTIONS.get(verb, set()):
            raise InvalidCommand(f"{verb}: unknown option {key}=", hint=f"expected {FORMS[verb]}")
    if flags and verb != "play":
        raise InvalidCommand(f"{verb}: unexpected word 'top'", hint=f"expected {FORMS[verb]}")
    if verb == "tech":
        zone = state.zones[codex(seat)]
        refs: list[str] = []
        for name in _tech_names(args) if args else []:
            ref = next((it.ref for it in sorted(zone.items, key=lambda i: ref_key(i.ref))
                        if isinstance(it, Known) and it.card == name and it.ref not in refs), None)
            if ref is None:
                raise InvalidCommand(f"no {name} left in your codex")
            refs.append(ref)
        first = []
        for f in opts.get("first", "").split(",") if opts.get("first") else []:
            if f.strip().lower() in ("me:surplus", "surplus"):
                first.append(f"{seat}:surplus")
            else:
                first.append(_thing(state, seat, f))
        return Tech(cards=refs, first=first)
    if verb in ("hire", "play", "summon") and not args:
        raise InvalidCommand(f"{verb}: which card? expected {FORMS[verb]}")
    if verb == "hire":
        return Hire(_hand_card(state, seat, args))
    if verb == "build":
        b = "".join(args).lower().replace("-", "")
        b = {"techi": "tech1", "techii": "tech2", "techiii": "tech3"}.get(b, b)
        if b not in cards.TECH_BUILDINGS + cards.ADDONS:
            raise InvalidCommand(f"build: no building called {' '.join(args)!r}", hint=f"expected {FORMS['build']}")
        return Build(b)
    if verb == "summon":
        name = card_name(args)
        if not cards.is_hero(name):
            raise InvalidCommand(f"{name} is not a hero: a card from your hand is played: play {cards.slug(name)}")
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
    if verb == "play":
        ref = _hand_card(state, seat, args)
        value = opts.get("target", "")
        targets = [ref if v.strip().lower() == "self" else parse_target(state, seat, v)
                   for v in value.split(",")] if value else []
        return Play(ref, targets, "top" in flags)
    if verb == "use" and len(args) >= 2:
        src = " ".join(args[:-1])
        try:
            ref = _thing(state, seat, src)
        except InvalidCommand:
            name = cards.lookup(src)
            ref = next((it.ref for it in state.zones[f"ongoing:{seat}"].items if it.card == name), "")
            if not ref:
                raise
        return Use(ref, args[-1].lower(), _list(state, seat, opts.get("target", "")))
    if verb == "attack" and len(args) >= 2:
        a, t = _attacker_and_target(state, seat, args)
        return Attack(a, t, _list(state, seat, opts.get("with", "")),
                      *(parse_target(state, seat, opts[k]) if opts.get(k) else "" for k in ("spark", "over", "then")))
    if verb == "end" and not args:
        slots = [""] * 5
        for key, value in opts.items():
            i = SLOT_WORDS.index({"squad-leader": "sl", "scav": "scavenger", "tech": "technician"}.get(key, key))
            slots[i] = _thing(state, seat, value)
        return End(slots if any(slots) else [])
    raise InvalidCommand(f"cannot read {text.strip()!r}: expected {FORMS[verb]}")


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
