"""Codex commands and their one-line notation (rules version 2 on; 3 since the Red and Green specs).

Wire form: frozen Structs in a tagged union (``"t": "cx.play"`` ...). They
name cards by ref and buildings as ``SEAT:KIND``; the notation names cards
in hand or codex by name (resolved to a representative copy, which the
writer re-chooses at random before signing: `pbem.games.refchoice`) and
things in play by side and name: ``me:iron-man``, ``opp:base``,
``opp:tech2`` (with several opponents the side is the seat's name:
``carol:base``; in a Two-Headed Dragon a team's one base is its first
player's, and ``dave:player`` names its second player by it, for the
effects on a base's player: Pillage's gold, a worker trashed by Marauder
or Tyrannosaurus Rex); ``opp:sl`` (or ``opp:squad-leader``,
``opp:patrol:squad-leader``) names a patroller by its slot; a second copy
of a name on one side is ``iron-man.2`` (in ref order). ``none``: a part
with no legal target. A bare slot name (``elite``, ``scavenger`` ...) is
the slot itself, for a part that chooses one; ``hand:NAME``,
``codex:NAME``, ``discard:NAME`` a card of one's own there, ``top:NAME``
one of the top of one's draw pile one looked at (`hidden.arrange_top`).

* ``tech NAME NAME`` / ``tech NAME`` / ``tech none`` [``first=me:X,...``]
  start of turn: the cards teched after the last turn, and the upkeep
  effects to resolve first (the active player orders them)
* ``hire NAME``                    a hand card becomes a worker
* ``build tech1|tech2|tech3|surplus|tower`` (3-hero mode: ``build tech2
  SPEC``, ``build techlab SPEC``, ``build hall``)
* ``summon HERO``, ``level N`` (``level HERO N`` with more than one hero
  in play)
* ``play NAME [target=T,T,...] [top]``   (``top``: a card that may go back
  on the draw pile, Appel Stomp; ``target=self``: the unit being played;
  ``codex:NAME``, ``hand:NAME``: a card of yours there; ``t0``: the card
  target 0 named, again)
* ``use THING ABILITY [target=T]``       an activated ability (``use
  bombaster explode target=opp:sl``); the ability's name may be left out
  when the thing has only one
* ``attack THING TARGET [with=T,T] [spark=T] [over=T] [then=T] [doomed=T,T]``
  (`with`: targets of its attack trigger; sparkshot, overpower,
  obliterate's new target and its pick among tied lowest-tech units)
* ``end [sl=X] [elite=X] [scavenger=X] [technician=X] [lookout=X]``
  ``[lend=X@SEAT:SLOT,...]``
  lock the patrol zone and end the main phase (draw phase follows);
  ``lend``: free-for-all, a patroller lent to another seat's open slot
* ``repair N``                     free-for-all: 3 gold per damage healed
  on one's base
* ``choose ANSWER`` answers the question the game asks (`pbem legal` lists
  the answers): a target (``opp:x``, ``none``), ``yes``/``no``, a number

Choices any command may carry (the wire's ``choices``, `Choices`):
``boost`` (pay the boost), ``x=N``, ``mode=1,2`` (the modes chosen),
``split=2,1`` (damage per target, in target order), ``pay=T,T`` (cards
discarded or things sacrificed as a cost: ``hand:NAME`` or ``me:NAME``),
``by=gold|exhaust`` (which of an ability's alternative costs),
``first=me:X,...`` (simultaneous triggers to resolve first),
``choose=A;B`` (answers for questions later in the same command, in order)
and, for ``tech`` on the Mystical Forest map, ``rune=me:X,...`` (exhausted
things that take a +1/+1 rune instead of readying).
"""

# (no postponed annotations: msgspec reads these at once)

import difflib

import msgspec

from pbem.errors import InvalidCommand
from pbem.games.base import Known
from pbem.games.codex import activated, board, cards
from pbem.games.codex.state import State, other, ref_key


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
    #: exhausted things that take a +1/+1 rune instead of readying (a
    #: ``tech`` on the Mystical Forest map)
    runes: list[str] = []


NO_CHOICES = Choices()


class Tech(msgspec.Struct, frozen=True, tag="cx.tech", tag_field="t", omit_defaults=True):
    cards: list[str] = []
    choices: Choices = NO_CHOICES


class Hire(msgspec.Struct, frozen=True, tag="cx.hire", tag_field="t", omit_defaults=True):
    ref: str
    choices: Choices = NO_CHOICES


class Build(msgspec.Struct, frozen=True, tag="cx.build", tag_field="t", omit_defaults=True):
    """`specs`: what a tech II building (first begun) or a tech lab
    declares in 3-hero mode (`modes`)."""

    building: str
    choices: Choices = NO_CHOICES
    specs: list[str] = []


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


class Loan(msgspec.Struct, frozen=True):
    """A patroller lent to another seat (free-for-all): thing, seat, slot index."""

    ref: str
    to: str
    slot: int


class End(msgspec.Struct, frozen=True, tag="cx.end", tag_field="t", omit_defaults=True):
    #: the five slots, squad leader first: refs or ""
    patrol: list[str] = []
    choices: Choices = NO_CHOICES
    #: free-for-all: patrollers lent to other seats' patrol zones
    lend: list[Loan] = []


class Repair(msgspec.Struct, frozen=True, tag="cx.repair", tag_field="t", omit_defaults=True):
    """Free-for-all: pay 3 gold for each damage the base loses."""

    n: int = 1
    choices: Choices = NO_CHOICES


class Choose(msgspec.Struct, frozen=True, tag="cx.choose", tag_field="t"):
    """Answers to the question the game asks (`State.prompt`), in order."""

    answers: list[str]


Command = Tech | Hire | Build | Summon | Level | Play | Use | Attack | End | Choose | Repair

SLOT_WORDS = ("sl", "elite", "scavenger", "technician", "lookout")


# --- names of things -------------------------------------------------------------


def _side(state: State, seat: str, owner: str) -> str:
    """``me``, ``opp`` (the one opponent), or the seat's name where there
    are several opponents (a free-for-all)."""
    if owner == seat:
        return "me"
    return "opp" if len(state.seats) == 2 else owner


def side_owner(state: State, seat: str, side: str) -> str:
    """The seat a side word names (``me``, ``opp``, a seat's name), or ""."""
    if side in ("me", "my"):
        return seat
    if side in ("opp", "their"):
        if len(state.seats) == 2:
            return other(state, seat)
        names = ", ".join(f"{s}:base" for s in state.seats if s != seat)
        raise InvalidCommand(f"{side}: there are several opponents; name one by seat ({names} ...)")
    return next((s for s in state.seats if s.lower() == side), "")


def handle(state: State, ref: str) -> str:
    """``iron-man`` or ``iron-man.2``: unique among one side's things."""
    t = state.things[ref]
    mine = board.things_of(state, t.controller) + board.spells_of(state, t.controller)
    same = sorted((r for r in mine if state.things[r].card == t.card), key=ref_key)
    base = cards.slug(t.card)
    return base if len(same) <= 1 else f"{base}.{same.index(ref) + 1}"


#: zones whose cards a choice may name (``hand:fire-dart``): the seat's own
CARD_ZONES = ("hand", "codex", "discard", "top")


def _card_zone(state: State, ref: str, seat: str | None = None) -> str:
    """The kind of zone (``hand`` ...) among `CARD_ZONES` that holds `ref`
    ("" if none); ``opp-hand`` ... where it is not `seat`'s own."""
    for name, zone in state.zones.items():
        kind, _, owner = name.partition(":")
        if kind in CARD_ZONES and any(it.ref == ref for it in zone.items):
            return kind if seat is None or owner == seat else f"opp-{kind}"
    return ""


def target_text(state: State, seat: str, target: str) -> str:
    if not target:
        return "none"
    if target in cards.SLOTS:  # a slot chosen as such (a patroller shoved there)
        return target
    if target not in state.things and not board.is_structure(target):
        kind = _card_zone(state, target, seat)
        if kind:
            name = known_card(state, target, seat)
            return f"{kind}:{cards.slug(name) if name else 'card'}"
    if board.is_structure(target):
        owner, kind = board.structure(target)
        if kind == "base" and board.base_of(state, owner) != target:
            # a Two-Headed Dragon team's one base named by its second player:
            # the effect is on that player (its gold, its workers)
            return f"{_side(state, seat, owner)}:player"
        return f"{_side(state, seat, owner)}:{kind}"
    if target in state.things:
        return f"{_side(state, seat, state.things[target].controller)}:{handle(state, target)}"
    return target


def parse_target(state: State, seat: str, text: str, taken: set[str] | None = None) -> str:
    """A target in words; ``hand:NAME``, ``codex:NAME``, ``discard:NAME``
    name a card of the writer's own (another copy than those in `taken`,
    which it joins)."""
    text = text.strip().lower()
    if text in ("none", "-", ""):
        return ""
    if text in cards.SLOT_SHORT:  # a patrol slot itself, not the thing in it
        return cards.SLOT_SHORT[text]
    side, _, rest = text.partition(":")
    mine = side in CARD_ZONES
    if (mine or side.removeprefix("opp-") in CARD_ZONES) and rest:  # a card of one's hand ..., or one seen
        taken = set() if taken is None else taken
        kind, owner = side.removeprefix("opp-"), seat if mine else other(state, seat)
        ref = by_name(state, f"{kind}:{owner}", card_name([rest]), kind if mine else f"opponent's {kind}", taken)
        taken.add(ref)
        return ref
    owner = side_owner(state, seat, side) if rest else ""
    if not owner:
        raise InvalidCommand(f"target {text!r}: write me:NAME or opp:NAME (opp:base, opp:sl, me:tech1 ...; "
                             "SEAT:NAME where there are several opponents; "
                             "codex:NAME or hand:NAME for a card of yours there)")
    rest = handle_key(rest.removeprefix("patrol:").strip())
    if rest == "base":
        return board.base_of(state, owner)
    if rest == "player":  # the player by its base (a team's second player: `target_text`)
        return f"{owner}:base"
    if rest in cards.TECH_BUILDINGS + cards.ADDONS:
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
    there = sorted(handle(state, r) for r in board.things_of(state, owner))
    where = "your" if owner == seat else f"{owner}'s"
    raise InvalidCommand(f"nothing called {rest!r} on {where} side",
                         hint=f"{where} side has in play: {', '.join(there)}; and the base" if there
                         else f"{where} side has nothing in play but its base and buildings")


def handle_key(text: str) -> str:
    """A typed name of a thing in play as `handle` writes it: ``Iron Man``,
    ``iron man.2`` -> ``iron-man``, ``iron-man.2``."""
    base, dot, index = text.rpartition(".")
    if dot and index.isdigit():
        return f"{cards.slug(base)}.{index}"
    return cards.slug(text)


def _targets(state: State, seat: str, targets: list[str], self_ref: str = "") -> str:
    """Targets in words: ``self`` for the card played, ``tN`` for a card of
    the codex or hand named by an earlier target N (a boosted Feral Strike
    fetches it, then puts it into play)."""
    out = []
    for i, t in enumerate(targets):
        if t and t == self_ref:
            out.append("self")
        elif t and t in targets[:i] and not (board.is_structure(t) or t in state.things):
            out.append(f"t{targets.index(t)}")
        else:
            out.append(target_text(state, seat, t))
    return ",".join(out)


def known_card(state: State, ref: str, seat: str | None) -> str | None:
    """The name of `ref` if `seat` may see it in this state (never raises)."""
    for name, zone in state.zones.items():
        for it in zone.items:
            if it.ref == ref:
                if isinstance(it, Known) and (zone.public or (seat is not None and seat in zone.readers)):
                    return it.card
                return state.shown.get(ref)
    return state.shown.get(ref)


def by_name(state: State, zone: str, name: str, what: str, taken: set[str] | None = None) -> str:
    """A representative copy of card `name` in `zone`, not among `taken`
    (refchoice re-chooses it before signing)."""
    refs = sorted((it.ref for it in state.zones[zone].items if isinstance(it, Known) and it.card == name
                   and it.ref not in (taken or ())), key=ref_key)
    if not refs:
        held = sorted({it.card for it in state.zones[zone].items if isinstance(it, Known)})
        where = f"the {what}" if what.startswith("opponent") else f"your {what}"
        raise InvalidCommand(f"there is no {name} in {where}",
                             hint=f"{where}: {', '.join(held)}" if held else f"{where} is empty (or unseen)")
    return refs[0]


def card_name(words: list[str]) -> str:
    """The card or hero that `words` name (any case; spaces or hyphens)."""
    text = " ".join(words)
    name = cards.lookup(text)
    if name is None:
        raise InvalidCommand(f"no card called {text!r}", hint=did_you_mean(text))
    return name


def did_you_mean(text: str) -> str | None:
    key = cards.slug(text)
    slugs = [cards.slug(n) for n in (*cards.CARDS, *cards.HEROES)]
    close = [s for s in slugs if key and key in s] or difflib.get_close_matches(key, slugs, n=3, cutoff=0.6)
    return f"did you mean {' or '.join(close[:3])}?" if close else "pbem legal DIR --as NAME lists your commands"


# --- format ------------------------------------------------------------------------


def answer_text(state: State, seat: str, answer: str) -> str:
    if answer == "" or board.is_structure(answer) or answer in state.things or _card_zone(state, answer):
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
    if ch.runes:
        out.append(f"rune={_targets(state, seat, ch.runes)}")
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
            return "hire" + (f" {card_slug(ref)}" if ref else "") + _choices_text(state, seat, ch, card_slug)
        case Build(building=b, choices=ch, specs=specs):
            return f"build {b}" + "".join(f" {s.lower()}" for s in specs) + _choices_text(state, seat, ch, card_slug)
        case Summon(hero=name, choices=ch):
            return f"summon {cards.slug(name)}" + _choices_text(state, seat, ch, card_slug)
        case Level(hero=ref, times=n, choices=ch):
            many = ref in state.things and len(board.heroes_in_play(state, state.things[ref].controller)) > 1
            named = f"{cards.slug(state.things[ref].card)} " if many else ""
            return f"level {named}{n}" + _choices_text(state, seat, ch, card_slug)
        case Play(ref=ref, targets=targets, top=top, choices=ch):
            text = f"play {card_slug(ref)}"
            if targets:
                text += " target=" + _targets(state, seat, targets, ref)
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
        case End(patrol=slots, choices=ch, lend=lent):
            parts = ["end"]
            for word, ref in zip(SLOT_WORDS, slots):
                if ref:
                    parts.append(f"{word}={handle(state, ref)}")
            if lent:
                parts.append("lend=" + ",".join(f"{handle(state, x.ref)}@{x.to}:{SLOT_WORDS[x.slot]}" for x in lent))
            return " ".join(parts) + _choices_text(state, seat, ch, card_slug)
        case Repair(n=n):
            return f"repair {n}"
        case Choose(answers=answers):
            return "choose " + ";".join(answer_text(state, seat, a) for a in answers)
    raise InvalidCommand(f"not a Codex command: {cmd!r}")


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
    if t is not None:
        return f"{t.controller}'s {t.card}"
    return known_card(state, target, seat or None) or "a card out of play"
