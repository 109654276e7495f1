"""Reading the Codex notation (its forms: `pbem.games.codex.commands`).

Apart from the commands and their written form because reading is where
people's typing meets the rules: names in any case, with spaces or hyphens
(``play Timely Messenger``, ``end sl=Older Brother``, ``attack Troq Bashar
opp:base``), and an error that says what is wrong (no such card, with the
names it might mean; not in your hand, with the hand; a hero to summon; the
form expected).
"""

from __future__ import annotations

from pbem.errors import InvalidCommand
from pbem.games.codex import activated, board, cards, hidden, maps
from pbem.games.codex.commands import (
    SLOT_WORDS, Attack, Build, Choices, Choose, Command, End, Hire, Level, Loan, Play, Repair, Summon, Tech, Use,
    by_name, card_name, did_you_mean, handle, parse_target,
)
from pbem.games.codex.state import State, codex, hand

_FLAGS = ("top", "boost")
_CHOICE_KEYS = {"x", "mode", "split", "pay", "by", "doomed", "first", "choose", "rune"}

#: each command's shape, for the error that says what was expected
FORMS = {
    "tech": "tech NAME NAME (the cards teched after your last turn), tech NAME or tech none",
    "hire": "hire NAME (a card in your hand)",
    "build": "build tech1|tech2|tech3|surplus|tower (3-hero mode: build tech2 SPEC, techlab SPEC, hall)",
    "summon": "summon HERO",
    "level": "level [HERO] [N]",
    "play": "play NAME [target=T,...] [top] [boost] (a card in your hand)",
    "use": "use THING [ABILITY] [target=T]",
    "attack": "attack THING TARGET, e.g. attack troq-bashar opp:base",
    "end": "end [sl=X] [elite=X] [scavenger=X] [technician=X] [lookout=X] [lend=X@SEAT:SLOT,...]",
    "repair": "repair [N] (free-for-all: 3 gold a damage)",
    "choose": "choose ANSWER (pbem legal lists the answers)",
}
#: the options each command takes beyond the choices any command may carry
OPTIONS = {"play": {"target"}, "use": {"target"}, "attack": {"with", "spark", "over", "then"},
           "end": set(SLOT_WORDS) | {"squad-leader", "scav", "tech", "lend"}}
VERBS_HINT = "Codex commands: " + ", ".join(FORMS) + " (pbem legal DIR --as NAME lists yours)"


def _split(text: str) -> tuple[list[str], dict[str, str], set[str]]:
    """The words before the first option, the options (``KEY=VALUE``; a
    value goes on over the next words up to the next option, so a name may
    hold spaces: ``sl=Older Brother``) and the flags (``top``, ``boost``)."""
    words: list[str] = []
    opts: dict[str, str] = {}
    flags: set[str] = set()
    key = None
    for tok in text.split():
        if "=" in tok:
            k, _, v = tok.partition("=")
            key = k.lower()
            opts[key] = v
        elif tok.lower() in _FLAGS:
            flags.add(tok.lower())
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
    if not ref or board.is_structure(ref):
        raise InvalidCommand(f"{text!r} is not one of your cards in play")
    return ref


def _list(state: State, seat: str, value: str, self_ref: str = "") -> list[str]:
    """Targets separated by commas (``self``: `self_ref`, the card being
    played; ``tN``: the card an earlier target N names)."""
    taken: set[str] = set()
    out: list[str] = []
    for v in value.split(",") if value else []:
        word = v.strip().lower()
        if self_ref and word == "self":
            out.append(self_ref)
        elif word[:1] == "t" and word[1:].isdigit():
            if int(word[1:]) >= len(out):
                raise InvalidCommand(f"target {word}: it names an earlier target of this command (t0, t1 ...)")
            out.append(out[int(word[1:])])
        else:
            out.append(parse_target(state, seat, v, taken))
    return out


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
    raise InvalidCommand(f"no card called {' '.join(words)!r}", hint=did_you_mean(" ".join(words)))


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
    return (_thing(state, seat, " ".join(args[:cut])),
            parse_target(state, seat, target if ":" in target else "opp:" + target))


def _hand_card(state: State, seat: str, words: list[str], taken: set[str] | None = None) -> str:
    name = card_name(words)
    if cards.is_hero(name):
        raise _not_a_card(state, seat, name)
    return by_name(state, hand(seat), name, "hand", taken)


def _hand_or_top_card(state: State, seat: str, words: list[str]) -> str:
    """A card of the hand, or the top card of the draw pile where the
    command may play it (Vir Garbarean's level 5) and none is in the hand."""
    top = hidden.top_card(state, seat) if state.players[seat].flags.get(hidden.PLAY_TOP) == state.turn else None
    try:
        return _hand_card(state, seat, words)
    except InvalidCommand:
        if top is None:
            raise
        return by_name(state, top[0], card_name(words), "top of the draw pile")


def _free_hire(state: State) -> bool:
    return maps.has(state, "daggerfall-prison-camp")


def _build(state: State, seat: str, args: list[str], ch) -> Build:
    """``build KIND [SPEC ...]``: the specs a tech II building or tech lab declares (3-hero mode)."""
    specs = []
    while args and cards.lookup_spec(args[-1]):
        specs.insert(0, cards.lookup_spec(args.pop()))
    b = "".join(args).lower().replace("-", "").replace("'", "")
    b = {"techi": "tech1", "techii": "tech2", "techiii": "tech3", "heroeshall": "hall"}.get(b, b)
    if b not in cards.TECH_BUILDINGS + cards.ADDONS:
        raise InvalidCommand(f"build: no building called {' '.join(args)!r}", hint=f"expected {FORMS['build']}")
    return Build(b, ch, specs)


def _level(state: State, seat: str, args: list[str], ch) -> Level:
    """``level [HERO] [N]``: without a name, the first hero in play (the
    only one in 1-hero mode)."""
    n = 1
    if args and args[-1].isdigit():
        n = int(args.pop())
    if args:
        name = card_name(args)
        hero = next((r for r in board.heroes_in_play(state, seat) if state.things[r].card == name), None)
        if hero is None:
            raise InvalidCommand(f"level: {name} is not a hero of yours in play")
        return Level(hero, n, ch)
    heroes = board.heroes_in_play(state, seat)
    if not heroes:
        raise InvalidCommand("you have no hero in play")
    return Level(heroes[0], n, ch)


def _not_a_card(state: State, seat: str, hero: str) -> InvalidCommand:
    mine = state.players[seat].heroes
    if hero in mine:
        return InvalidCommand(f"{hero} is a hero: a hero is summoned: summon {cards.slug(hero)}")
    if len(mine) == 1:
        only = next(iter(mine))
        return InvalidCommand(f"{hero} is a hero of the other side", hint=f"yours is {only}: summon {cards.slug(only)}")
    yours = ", ".join(cards.slug(h) for h in mine)
    return InvalidCommand(f"{hero} is a hero of the other side", hint=f"yours: {yours} (summon HERO)")


def parse_answer(state: State, seat: str, text: str, taken: set[str] | None = None) -> str:
    """One answer; `taken`: cards the earlier answers of the same command named
    (``hand:spark;hand:spark`` names two copies)."""
    text = text.strip()
    low = text.lower()
    if ":" in low or low in ("none", "-") or low in cards.SLOT_SHORT:
        return parse_target(state, seat, low, taken)
    return low


def _answers(state: State, seat: str, text: str) -> list[str]:
    taken: set[str] = set()
    return [parse_answer(state, seat, a, taken) for a in text.split(";")]


def _numbers(key: str, value: str) -> list[int]:
    try:
        return [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise InvalidCommand(f"{key}=: write numbers separated by commas") from None


def _first(state: State, seat: str, value: str) -> list[str]:
    return [f"{seat}:surplus" if f.strip().lower() in ("me:surplus", "surplus") else _thing(state, seat, f)
            for f in value.split(",")]


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
            v = v.strip()
            if v.lower().startswith("hand:"):
                pay.append(_hand_card(state, seat, v[5:].split(), set(pay)))
            else:
                pay.append(_thing(state, seat, v))
        fields["pay"] = pay
    if "by" in opts and alts is not None:
        by = opts["by"].strip().lower()
        if by.isdigit() and 1 <= int(by) <= len(alts):
            fields["alt"] = int(by) - 1
        elif by in alts:
            fields["alt"] = alts.index(by)
        else:
            raise InvalidCommand("by=: " + (f"pay it by {' or '.join(alts)}" if alts else "this has one cost only"))
    if "doomed" in opts:
        fields["doomed"] = _list(state, seat, opts["doomed"])
    if opts.get("first"):
        fields["first"] = _first(state, seat, opts["first"])
    if "choose" in opts:
        fields["answers"] = _answers(state, seat, opts["choose"])
    if "rune" in opts:
        fields["runes"] = _list(state, seat, opts["rune"])
    return Choices(**fields)


def _slot_word(word: str) -> str:
    return {"squad-leader": "sl", "scav": "scavenger", "tech": "technician"}.get(word, word)


def _loan(state: State, seat: str, text: str) -> Loan:
    """``X@SEAT:SLOT``: a patroller of yours lent to SEAT's slot."""
    thing, at, place = text.strip().rpartition("@")
    to, _, slot = place.partition(":")
    to = next((s for s in state.seats if s.lower() == to.strip().lower()), "")
    if not at or not to or _slot_word(slot.strip().lower()) not in SLOT_WORDS:
        raise InvalidCommand(f"lend={text.strip()}: write lend=NAME@SEAT:SLOT (slot: {', '.join(SLOT_WORDS)})")
    return Loan(_thing(state, seat, thing), to, SLOT_WORDS.index(_slot_word(slot.strip().lower())))


def _only_ability(state: State, ref: str) -> str:
    names = activated.names(state, ref)
    if len(names) != 1:
        raise InvalidCommand(f"use {handle(state, ref)} ABILITY: name one of {', '.join(names) or 'none'}")
    return names[0]


def _use(state: State, seat: str, args: list[str], opts: dict[str, str], flags: set[str]) -> Use:
    """``use THING [ABILITY]``: the thing's name may hold spaces; the last
    word is the ability when it names one of the thing's."""
    ref, ability = None, None
    if len(args) >= 2:
        try:
            ref = _thing(state, seat, " ".join(args[:-1]))
            ability = args[-1].lower()
        except InvalidCommand:
            ref = None
    if ref is None:
        ref = _thing(state, seat, " ".join(args))
        ability = _only_ability(state, ref)
    ab = activated.find(state, ref, ability)
    ch = _choices(state, seat, opts, flags, activated.alt_names(ab) if ab else [])
    return Use(ref, ability, _list(state, seat, opts.get("target", "")), ch)


def parse_command(text: str, state: State, seat: str) -> Command:
    """Read the notation (`pbem.games.codex.commands`'s docstring). Names
    may be typed in any case, with spaces or hyphens."""
    words, opts, flags = _split(text.strip())
    if not words:
        raise InvalidCommand("empty command", hint=VERBS_HINT)
    verb, args = words[0].lower(), words[1:]
    if verb not in FORMS:
        raise InvalidCommand(f"unknown command {words[0]!r}", hint=VERBS_HINT)
    for key in opts:
        if key not in OPTIONS.get(verb, set()) | _CHOICE_KEYS:
            raise InvalidCommand(f"{verb}: unknown option {key}=", hint=f"expected {FORMS[verb]}")
    if "top" in flags and verb != "play":
        raise InvalidCommand(f"{verb}: unexpected word 'top'", hint=f"expected {FORMS[verb]}")
    if "by" in opts and verb != "use":
        raise InvalidCommand(f"{verb}: by= chooses how to pay an ability's cost (use ... by=gold)")
    if verb == "choose":
        if not args:
            raise InvalidCommand(f"expected {FORMS['choose']}")
        return Choose(_answers(state, seat, " ".join(args)))
    if verb in ("hire", "play", "summon", "use") and not args and not (verb == "hire" and _free_hire(state)):
        which = {"use": "which card in play", "summon": "which hero"}.get(verb, "which card")
        raise InvalidCommand(f"{verb}: {which}? expected {FORMS[verb]}")
    if verb == "use":
        return _use(state, seat, args, opts, flags)
    ch = _choices(state, seat, opts, flags)
    if verb == "tech":
        refs: list[str] = []
        for name in _tech_names(args) if args else []:
            try:
                refs.append(by_name(state, codex(seat), name, "codex", set(refs)))
            except InvalidCommand:
                raise InvalidCommand(f"no {name} left in your codex") from None
        return Tech(cards=refs, choices=ch)
    if verb == "hire":
        return Hire(_hand_card(state, seat, args) if args else "", ch)
    if verb == "build":
        return _build(state, seat, args, ch)
    if verb == "summon":
        name = card_name(args)
        if not cards.is_hero(name):
            raise InvalidCommand(f"{name} is not a hero: a card from your hand is played: play {cards.slug(name)}")
        return Summon(name, ch)
    if verb == "level":
        return _level(state, seat, args, ch)
    if verb == "play":
        ref = _hand_or_top_card(state, seat, args)
        return Play(ref, _list(state, seat, opts.get("target", ""), ref), "top" in flags, ch)
    if verb == "attack" and len(args) >= 2:
        a, t = _attacker_and_target(state, seat, args)
        return Attack(a, t, _list(state, seat, opts.get("with", "")),
                      *(parse_target(state, seat, opts[k]) if opts.get(k) else "" for k in ("spark", "over", "then")),
                      choices=ch)
    if verb == "end" and not args:
        slots = [""] * 5
        for key, value in opts.items():
            if key in _CHOICE_KEYS or key == "lend":
                continue
            i = SLOT_WORDS.index(_slot_word(key))
            slots[i] = _thing(state, seat, value)
        lent = [_loan(state, seat, v) for v in opts.get("lend", "").split(",") if v.strip()]
        return End(slots if any(slots) else [], ch, lent)
    if verb == "repair" and len(args) <= 1:
        try:
            return Repair(int(args[0]) if args else 1)
        except ValueError:
            raise InvalidCommand(f"repair N: {args[0]!r} is not a number") from None
    raise InvalidCommand(f"cannot read {text.strip()!r}: expected {FORMS[verb]}")
