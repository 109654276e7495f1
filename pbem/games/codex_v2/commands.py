"""Codex commands and their one-line notation (rules version 2).

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
  effects to resolve first (the active player orders them)
* ``hire NAME``                    a hand card becomes a worker
* ``build tech1|tech2|tech3|surplus|tower``
* ``summon HERO``, ``level N``
* ``play NAME [target=T,T,...] [top]``   (``top``: a card that may go back
  on the draw pile, Appel Stomp; ``target=self``: the unit being played)
* ``use THING ABILITY [target=T]``       an activated ability (``use
  bombaster explode target=opp:sl``); the ability's name may be left out
  when the thing has only one
* ``attack THING TARGET [with=T,T] [spark=T] [over=T] [then=T] [doomed=T,T]``
  (`with`: targets of its attack trigger; sparkshot, overpower,
  obliterate's new target and its pick among tied lowest-tech units)
* ``end [sl=X] [elite=X] [scavenger=X] [technician=X] [lookout=X]``
  lock the patrol zone and end the main phase (draw phase follows)
* ``choose ANSWER`` answers the question the game asks (`pbem legal` lists
  the answers): a target (``opp:x``, ``none``), ``yes``/``no``, a number

Choices any command may carry (the wire's ``choices``, `Choices`):
``boost`` (pay the boost), ``x=N``, ``mode=1,2`` (the modes chosen),
``split=2,1`` (damage per target, in target order), ``pay=T,T`` (cards
discarded or things sacrificed as a cost: ``hand:NAME`` or ``me:NAME``),
``by=gold|exhaust`` (which of an ability's alternative costs),
``first=me:X,...`` (simultaneous triggers to resolve first) and
``choose=A;B`` (answers for questions later in the same command, in order).
"""

from __future__ import annotations

import msgspec

from pbem.errors import InvalidCommand
from pbem.games.base import Known
from pbem.games.codex_v2 import activated, board, cards
from pbem.games.codex_v2.state import State, codex, hand, other, ref_key


class Choices(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """Decisions a command carries beyond its targets (rules version 2)."""

    boost: bool = False
    x: int = 0
    modes: list[int] = []
    split: list[int] = []
    pay: list[str] = []
    alt: int = 0
    doomed: list[str] = []
    first: list[str] = []
    answers: list[str] = []


NO_CHOICES = Choices()


class Tech(msgspec.Struct, frozen=True, tag="cx.tech", tag_field="t", omit_defaults=True):
    cards: list[str] = []
    choices: Choices = NO_CHOICES


class Hire(msgspec.Struct, frozen=True, tag="cx.hire", tag_field="t", omit_defaults=True):
    ref: str
    choices: Choices = NO_CHOICES


class Build(msgspec.Struct, frozen=True, tag="cx.build", tag_field="t", omit_defaults=True):
    building: str
    choices: Choices = NO_CHOICES


class Summon(msgspec.Struct, frozen=True, tag="cx.summon", tag_field="t", omit_defaults=True):
    """Summon a hero (by name) from the command zone."""

    hero: str
    choices: Choices = NO_CHOICES


class Level(msgspec.Struct, frozen=True, tag="cx.level", tag_field="t", omit_defaults=True):
    hero: str
    times: int = 1
    choices: Choices = NO_CHOICES


class Play(msgspec.Struct, frozen=True, tag="cx.play", tag_field="t", omit_defaults=True):
    ref: str
    targets: list[str] = []
    top: bool = False
    choices: Choices = NO_CHOICES


class Use(msgspec.Struct, frozen=True, tag="cx.use", tag_field="t", omit_defaults=True):
    source: str
    ability: str
    targets: list[str] = []
    choices: Choices = NO_CHOICES


class Attack(msgspec.Struct, frozen=True, tag="cx.attack", tag_field="t", omit_defaults=True):
    attacker: str
    target: str
    extra: list[str] = []
    spark: str = ""
    over: str = ""
    then: str = ""
    choices: Choices = NO_CHOICES


class End(msgspec.Struct, frozen=True, tag="cx.end", tag_field="t", omit_defaults=True):
    #: the five slots, squad leader first: refs or ""
    patrol: list[str] = []
    choices: Choices = NO_CHOICES


class Choose(msgspec.Struct, frozen=True, tag="cx.choose", tag_field="t"):
    """Answers to the question the game asks (`State.prompt`), in order."""

    answers: list[str]


Command = Tech | Hire | Build | Summon | Level | Play | Use | Attack | End | Choose

SLOT_WORDS = ("sl", "elite", "scavenger", "technician", "lookout")


# --- names of things -------------------------------------------------------------


def _side(state: State, seat: str, owner: str) -> str:
    return "me" if owner == seat else "opp"


def handle(state: State, ref: str) -> str:
    """``iron-man`` or ``iron-man.2``: unique among one side's things."""
    t = state.things[ref]
    mine = board.things_of(state, t.controller) + board.spells_of(state, t.controller)
    same = sorted((r for r in mine if state.things[r].card == t.card), key=ref_key)
    base = cards.slug(t.card)
    return base if len(same) <= 1 else f"{base}.{same.index(ref) + 1}"


def target_text(state: State, seat: str, target: str) -> str:
    if not target:
        return "none"
    if board.is_structure(target):
        owner, kind = board.structure(target)
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
    mine = board.things_of(state, owner) + board.spells_of(state, owner)
    for ref in mine:
        if handle(state, ref) == rest or (cards.slug(state.things[ref].card) == rest):
            return ref
    name = cards.lookup(rest.split(".")[0])
    if name is not None:
        for ref in mine:
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


def _by_name(state: State, zone: str, text: str, what: str, taken: set[str] | None = None) -> str:
    name = cards.lookup(text)
    if name is None:
        raise InvalidCommand(f"unknown card {text!r}")
    refs = sorted((it.ref for it in state.zones[zone].items if isinstance(it, Known) and it.card == name
                   and it.ref not in (taken or ())), key=ref_key)
    if not refs:
        raise InvalidCommand(f"there is no {name} in your {what}")
    return refs[0]


# --- format ------------------------------------------------------------------------


def answer_text(state: State, seat: str, answer: str) -> str:
    if answer == "" or board.is_structure(answer) or answer in state.things:
        return target_text(state, seat, answer)
    return answer


def _choices_text(state: State, seat: str, ch: Choices, card_slug) -> str:
    out = []
    if ch.boost:
        out.append("boost")
    if ch.x:
        out.append(f"x={ch.x}")
    if ch.modes:
        out.append("mode=" + ",".join(str(m + 1) for m in ch.modes))
    if ch.split:
        out.append("split=" + ",".join(str(n) for n in ch.split))
    if ch.pay:
        out.append("pay=" + ",".join(target_text(state, seat, r) if r in state.things else f"hand:{card_slug(r)}"
                                     for r in ch.pay))
    if ch.alt:
        out.append(f"by={ch.alt + 1}")  # Use writes the alternative's word (`_use_by`)
    if ch.doomed:
        out.append(f"doomed={_targets(state, seat, ch.doomed)}")
    if ch.first:
        out.append("first=" + ",".join(f"me:{f.split(':')[1]}" if board.is_structure(f) else target_text(state, seat, f)
                                       for f in ch.first))
    if ch.answers:
        out.append("choose=" + ";".join(answer_text(state, seat, a) for a in ch.answers))
    return (" " + " ".join(out)) if out else ""


def format_command(cmd: Command, state: State, seat: str) -> str:
    def card_slug(ref: str) -> str:
        name = known_card(state, ref, seat)
        return cards.slug(name) if name else ref

    def thing(ref: str) -> str:
        return handle(state, ref) if ref in state.things else card_slug(ref)

    match cmd:
        case Tech(cards=refs, choices=ch):
            return "tech " + (" ".join(card_slug(r) for r in refs) if refs else "none") + \
                _choices_text(state, seat, ch, card_slug)
        case Hire(ref=ref, choices=ch):
            return f"hire {card_slug(ref)}" + _choices_text(state, seat, ch, card_slug)
        case Build(building=b, choices=ch):
            return f"build {b}" + _choices_text(state, seat, ch, card_slug)
        case Summon(hero=name, choices=ch):
            return f"summon {cards.slug(name)}" + _choices_text(state, seat, ch, card_slug)
        case Level(times=n, choices=ch):
            return f"level {n}" + _choices_text(state, seat, ch, card_slug)
        case Play(ref=ref, targets=targets, top=top, choices=ch):
            text = f"play {card_slug(ref)}"
            if targets:
                text += " target=" + ",".join("self" if t == ref else target_text(state, seat, t) for t in targets)
            return text + (" top" if top else "") + _choices_text(state, seat, ch, card_slug)
        case Use(source=src, ability=ab, targets=targets, choices=ch):
            text = f"use {thing(src)} {ab}"
            text += f" target={_targets(state, seat, targets)}" if targets else ""
            found = activated.find(state, src, ab) if src in state.things else None
            ways = activated.alt_names(found) if found else []
            if ch.alt < len(ways) and ways:
                text += f" by={ways[ch.alt]}"
                ch = msgspec.structs.replace(ch, alt=0)
            return text + _choices_text(state, seat, ch, card_slug)
        case Attack(attacker=a, target=t, extra=extra, spark=spark, over=over, then=then, choices=ch):
            text = f"attack {thing(a)} {target_text(state, seat, t)}"
            if extra:
                text += f" with={_targets(state, seat, extra)}"
            for key, value in (("spark", spark), ("over", over), ("then", then)):
                if value:
                    text += f" {key}={target_text(state, seat, value)}"
            return text + _choices_text(state, seat, ch, card_slug)
        case End(patrol=slots, choices=ch):
            parts = ["end"]
            for word, ref in zip(SLOT_WORDS, slots):
                if ref:
                    parts.append(f"{word}={handle(state, ref)}")
            return " ".join(parts) + _choices_text(state, seat, ch, card_slug)
        case Choose(answers=answers):
            return "choose " + ";".join(answer_text(state, seat, a) for a in answers)
    raise InvalidCommand(f"not a Codex command: {cmd!r}")


# --- parse ---------------------------------------------------------------------------

_FLAGS = ("top", "boost")
_CHOICE_KEYS = {"x", "mode", "split", "pay", "by", "doomed", "first", "choose"}


def _split(text: str) -> tuple[list[str], dict[str, str], set[str]]:
    words, opts, flags = [], {}, set()
    for tok in text.split():
        if "=" in tok:
            k, _, v = tok.partition("=")
            opts[k.lower()] = v
        elif tok.lower() in _FLAGS:
            flags.add(tok.lower())
        else:
            words.append(tok)
    return words, opts, flags


def _thing(state: State, seat: str, text: str) -> str:
    if ":" not in text:
        text = "me:" + text
    ref = parse_target(state, seat, text)
    if not ref or board.is_structure(ref):
        raise InvalidCommand(f"{text!r} is not one of your cards in play")
    return ref


def _list(state: State, seat: str, value: str) -> list[str]:
    return [parse_target(state, seat, v) for v in value.split(",")] if value else []


def parse_answer(state: State, seat: str, text: str) -> str:
    text = text.strip()
    low = text.lower()
    if ":" in low or low in ("none", "-"):
        return parse_target(state, seat, low)
    return low


def _numbers(key: str, value: str) -> list[int]:
    try:
        return [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise InvalidCommand(f"{key}=: write numbers separated by commas") from None


def _choices(state: State, seat: str, opts: dict[str, str], flags: set[str],
             alts: list[str] | None = None) -> Choices:
    fields: dict = {}
    if "boost" in flags:
        fields["boost"] = True
    if "x" in opts:
        xs = _numbers("x", opts["x"])
        if len(xs) != 1 or xs[0] < 0:
            raise InvalidCommand("x=N: one number, 0 or more")
        fields["x"] = xs[0]
    if "mode" in opts:
        modes = _numbers("mode", opts["mode"])
        if any(m < 1 for m in modes):
            raise InvalidCommand("mode=: modes are numbered from 1")
        fields["modes"] = [m - 1 for m in modes]
    if "split" in opts:
        fields["split"] = _numbers("split", opts["split"])
    if "pay" in opts:
        pay: list[str] = []
        for v in opts["pay"].split(","):
            if v.lower().startswith("hand:"):
                pay.append(_by_name(state, hand(seat), v[5:], "hand", set(pay)))
            else:
                pay.append(_thing(state, seat, v))
        fields["pay"] = pay
    if "by" in opts and alts is not None:
        by = opts["by"].lower()
        ways = alts
        if by.isdigit() and 1 <= int(by) <= len(ways):
            fields["alt"] = int(by) - 1
        elif by in ways:
            fields["alt"] = ways.index(by)
        else:
            raise InvalidCommand("by=: " + (f"pay it by {' or '.join(ways)}" if ways else "this has one cost only"))
    if "doomed" in opts:
        fields["doomed"] = _list(state, seat, opts["doomed"])
    if "first" in opts and opts["first"]:
        first = []
        for f in opts["first"].split(","):
            if f.lower() in ("me:surplus", "surplus"):
                first.append(f"{seat}:surplus")
            else:
                first.append(_thing(state, seat, f))
        fields["first"] = first
    if "choose" in opts:
        fields["answers"] = [parse_answer(state, seat, a) for a in opts["choose"].split(";")]
    return Choices(**fields)


def parse_command(text: str, state: State, seat: str) -> Command:
    words, opts, flags = _split(text.strip())
    if not words:
        raise InvalidCommand("empty command (try: tech, hire, build, summon, level, play, use, attack, end, choose)")
    verb, args = words[0].lower(), words[1:]
    allowed = {"play": {"target"}, "use": {"target"}, "attack": {"with", "spark", "over", "then"},
               "end": set(SLOT_WORDS) | {"squad-leader", "scav", "tech"}}.get(verb, set()) | _CHOICE_KEYS
    for key in opts:
        if key not in allowed:
            raise InvalidCommand(f"{verb}: unknown option {key}=")
    if "top" in flags and verb != "play":
        raise InvalidCommand(f"{verb}: unexpected word 'top'")
    if "by" in opts and verb != "use":
        raise InvalidCommand(f"{verb}: by= chooses how to pay an ability's cost (use ... by=gold)")
    if verb == "choose":
        if not args:
            raise InvalidCommand("choose ANSWER (pbem legal lists the answers)")
        return Choose([parse_answer(state, seat, a) for a in " ".join(args).split(";")])
    ch = _choices(state, seat, opts, flags)
    if verb == "tech":
        refs: list[str] = []
        if args != ["none"]:
            taken: set[str] = set()
            for a in args:
                try:
                    ref = _by_name(state, codex(seat), a, "codex", taken)
                except InvalidCommand:
                    raise InvalidCommand(f"no {a} left in your codex") from None
                taken.add(ref)
                refs.append(ref)
        return Tech(cards=refs, choices=ch)
    if verb == "hire" and len(args) == 1:
        return Hire(_by_name(state, hand(seat), args[0], "hand"), ch)
    if verb == "build" and len(args) == 1:
        b = args[0].lower().replace("-", "")
        b = {"techi": "tech1", "techii": "tech2", "techiii": "tech3"}.get(b, b)
        return Build(b, ch)
    if verb == "summon" and len(args) == 1:
        name = cards.lookup(args[0])
        if name is None or not cards.is_hero(name):
            raise InvalidCommand(f"unknown hero {args[0]!r}")
        return Summon(name, ch)
    if verb == "level" and len(args) <= 1:
        hero = board.hero_in_play(state, seat)
        if hero is None:
            raise InvalidCommand("you have no hero in play")
        try:
            n = int(args[0]) if args else 1
        except ValueError:
            raise InvalidCommand(f"level N: {args[0]!r} is not a number") from None
        return Level(hero, n, ch)
    if verb == "play" and len(args) == 1:
        ref = _by_name(state, hand(seat), args[0], "hand")
        value = opts.get("target", "")
        targets = [ref if v.strip().lower() == "self" else parse_target(state, seat, v)
                   for v in value.split(",")] if value else []
        return Play(ref, targets, "top" in flags, ch)
    if verb == "use" and len(args) in (1, 2):
        ref = _thing(state, seat, args[0])
        ability = args[1].lower() if len(args) == 2 else _only_ability(state, ref)
        ab = activated.find(state, ref, ability)
        ch = _choices(state, seat, opts, flags, activated.alt_names(ab) if ab else [])
        return Use(ref, ability, _list(state, seat, opts.get("target", "")), ch)
    if verb == "attack" and len(args) == 2:
        a = _thing(state, seat, args[0])
        t = parse_target(state, seat, args[1] if ":" in args[1] else "opp:" + args[1])
        return Attack(a, t, _list(state, seat, opts.get("with", "")),
                      *(parse_target(state, seat, opts[k]) if opts.get(k) else "" for k in ("spark", "over", "then")),
                      choices=ch)
    if verb == "end" and not args:
        slots = [""] * 5
        for key, value in opts.items():
            if key in _CHOICE_KEYS:
                continue
            i = SLOT_WORDS.index({"squad-leader": "sl", "scav": "scavenger", "tech": "technician"}.get(key, key))
            slots[i] = _thing(state, seat, value)
        return End(slots if any(slots) else [], ch)
    raise InvalidCommand(f"cannot read {text!r} (try: tech, hire, build, summon, level, play, use, attack, end, choose)")


def _only_ability(state: State, ref: str) -> str:
    names = activated.names(state, ref)
    if len(names) != 1:
        raise InvalidCommand(f"use {handle(state, ref)} ABILITY: name one of {', '.join(names) or 'none'}")
    return names[0]


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
    if board.is_structure(target):
        owner, kind = board.structure(target)
        return f"{owner}'s {kind}"
    t = state.things.get(target)
    return f"{t.controller}'s {t.card}" if t else "a card no longer in play"
