"""Dark Agent commands and their one-line notation.

Wire form: frozen Structs in a tagged union (``"t": "da.spot"``). Cells
are indices on the wire and ``A1``..``G5`` in the notation (line letter,
then the position counted from the satellites). Equipment is named by its
card name (the lowest ref of that card in the hand is a representative;
the writer re-chooses it among equal copies before signing).

* ``deal``                       set-up: lay out the operation area from its deck
* ``place C``                    set-up: a satellite on line C
* ``move A>C B>D``               phase 1: move two satellites (one if only one can move)
* ``swap A C bob``               phase 1: my satellite on A with bob's on C (``neutral``)
* ``spot C2`` / ``spot C5 super`` / ``spot C5 far``   select a cell
* ``attack C3 with C1 C2``       attack the card or spy in C3 with the spies in C1, C2
* ``double C2``                  use the double-spy token on the enemy spy in C2
* ``use Rifle`` / ``use Adrenaline C1`` / ``use Jet-pack C1 D3``
* ``power NAME``                 a once-per-turn nation power (or AIM)
* ``deploy C2``                  put the deployed spy on that empty cell
* ``jacket`` / ``jacket none``   your spy is hit: a bulletproof jacket saves it, or it goes
* ``end``                        end the turn (skip)
* ``media A1 B2 C3 > B2 C3 A1``  Media: the card from A1 goes to B2 ...; ``media pass``
* ``vote yes`` / ``vote no``     the UN vote
"""

# (no postponed annotations: msgspec reads these at once)

import msgspec

from pbem.errors import InvalidCommand
from pbem.games.dark_agent import catalogue as catmod
from pbem.games.dark_agent.state import (
    LINE_NAMES,
    NEUTRAL,
    State,
    cell_name,
    hand,
    known,
    parse_cell,
)


class Deal(msgspec.Struct, frozen=True, tag="da.deal", tag_field="t"):
    """Lay out the 35 cells from the shuffled operation-area deck, face up:
    the first file of play, so that in a peer game the area comes from a
    deck nobody knows the order of (the cards are revealed as they land)."""


class Place(msgspec.Struct, frozen=True, tag="da.place", tag_field="t"):
    line: int


class Move(msgspec.Struct, frozen=True, tag="da.move", tag_field="t"):
    """Satellite moves (from line, to line), made in order."""

    moves: list[tuple[int, int]]


class Swap(msgspec.Struct, frozen=True, tag="da.swap", tag_field="t"):
    mine: int
    other: int
    owner: str  # "" = neutral


class Spot(msgspec.Struct, frozen=True, tag="da.spot", tag_field="t"):
    cell: int
    reach: str = ""  # "", "super" (the super-satellite token) or "far" (a far_sight power)


class Attack(msgspec.Struct, frozen=True, tag="da.attack", tag_field="t"):
    target: int
    spies: list[int]  # cells of the attacking spies


class Double(msgspec.Struct, frozen=True, tag="da.double", tag_field="t"):
    cell: int


class Use(msgspec.Struct, frozen=True, tag="da.use", tag_field="t"):
    ref: str
    cells: list[int] = []


class Power(msgspec.Struct, frozen=True, tag="da.power", tag_field="t"):
    source: str  # power id or AIM card id


class Deploy(msgspec.Struct, frozen=True, tag="da.deploy", tag_field="t"):
    cell: int


class End(msgspec.Struct, frozen=True, tag="da.end", tag_field="t"):
    pass


class Jacket(msgspec.Struct, frozen=True, tag="da.jacket", tag_field="t"):
    """The answer of a hit spy's owner: the bulletproof jacket it discards
    (its ref), or ``""``: it holds none and the spy goes back to its board.
    Only the owner knows its hand, so the owner answers (the rules allow
    ``""`` only without a jacket, checked wherever the hand is known)."""

    ref: str = ""


class Media(msgspec.Struct, frozen=True, tag="da.media", tag_field="t"):
    take: list[int] = []  # empty: pass
    put: list[int] = []


class Vote(msgspec.Struct, frozen=True, tag="da.vote", tag_field="t"):
    yes: bool


Command = Deal | Place | Move | Swap | Spot | Attack | Double | Use | Power | Deploy | End | Jacket | Media | Vote


def _line(i: int) -> str:
    return LINE_NAMES[i]


def _owner(owner: str) -> str:
    return "neutral" if owner == NEUTRAL else owner


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def card_name(state: State, card: str) -> str:
    return catmod.index(state.catalogue).name(card)


def format_command(cmd: Command, state: State, seat: str) -> str:
    match cmd:
        case Deal():
            return "deal"
        case Place(line):
            return f"place {_line(line)}"
        case Move(moves):
            return "move " + " ".join(f"{_line(a)}>{_line(b)}" for a, b in moves)
        case Swap(mine, other, owner):
            return f"swap {_line(mine)} {_line(other)} {_owner(owner)}"
        case Spot(cell, reach):
            return f"spot {cell_name(cell)}" + (f" {reach}" if reach else "")
        case Attack(target, spies):
            return f"attack {cell_name(target)} with " + " ".join(cell_name(c) for c in spies)
        case Double(cell):
            return f"double {cell_name(cell)}"
        case Use(ref, cells):
            name = _hand_card_name(state, seat, ref)
            return " ".join(["use", name] + [cell_name(c) for c in cells])
        case Power(source):
            return f"power {_source_name(state, source)}"
        case Deploy(cell):
            return f"deploy {cell_name(cell)}"
        case End():
            return "end"
        case Jacket(ref):
            return "jacket" if ref else "jacket none"
        case Media(take, put):
            if not take:
                return "media pass"
            return "media " + " ".join(map(cell_name, take)) + " > " + " ".join(map(cell_name, put))
        case Vote(yes):
            return "vote yes" if yes else "vote no"
    raise InvalidCommand(f"not a Dark Agent command: {cmd!r}")


def _hand_card_name(state: State, seat: str, ref: str) -> str:
    for it in state.zones[hand(seat)].items:
        if it.ref == ref:
            card = known(it)
            return card_name(state, card) if card else ref
    return ref


def _source_name(state: State, source: str) -> str:
    idx = catmod.index(state.catalogue)
    if source in idx.power:
        return idx.power[source].name
    return idx.name(source)


def _cell(text: str) -> int:
    cell = parse_cell(text)
    if cell is None:
        raise InvalidCommand(f"not a cell: {text!r} (cells are A1..G5: line letter, then 1-5)")
    return cell


def _line_arg(text: str) -> int:
    t = text.strip().upper()
    if len(t) != 1 or t not in LINE_NAMES:
        raise InvalidCommand(f"not a line: {text!r} (lines are A..G)")
    return LINE_NAMES.index(t)


def parse_command(text: str, state: State, seat: str) -> Command:
    words = text.split()
    if not words:
        raise InvalidCommand("empty command", hint="try: spot A1, attack A2 with A1, end")
    verb, args = words[0].lower(), words[1:]
    if verb == "deal" and not args:
        return Deal()
    if verb == "place" and len(args) == 1:
        return Place(_line_arg(args[0]))
    if verb == "move" and 1 <= len(args) <= 2:
        moves = []
        for a in args:
            src, sep, dst = a.partition(">")
            if not sep:
                raise InvalidCommand(f"move: expected FROM>TO lines, got {a!r} (e.g. move A>C B>D)")
            moves.append((_line_arg(src), _line_arg(dst)))
        return Move(moves)
    if verb == "swap" and len(args) == 3:
        owner = NEUTRAL if args[2].lower() == "neutral" else args[2]
        return Swap(_line_arg(args[0]), _line_arg(args[1]), owner)
    if verb == "spot" and 1 <= len(args) <= 2:
        reach = args[1].lower() if len(args) == 2 else ""
        if reach not in ("", "super", "far"):
            raise InvalidCommand(f"spot: unknown reach {args[1]!r} (super or far)")
        return Spot(_cell(args[0]), reach)
    if verb == "attack" and len(args) >= 3 and args[1].lower() == "with":
        return Attack(_cell(args[0]), [_cell(a) for a in args[2:]])
    if verb == "double" and len(args) == 1:
        return Double(_cell(args[0]))
    if verb == "use" and args:
        cells: list[int] = []
        rest = list(args)
        while rest and parse_cell(rest[-1]) is not None and len(rest) > 1:
            cells.insert(0, _cell(rest.pop()))
        return Use(_hand_ref(state, seat, " ".join(rest)), cells)
    if verb == "power" and args:
        return Power(_source(state, " ".join(args)))
    if verb == "deploy" and len(args) == 1:
        return Deploy(_cell(args[0]))
    if verb in ("end", "skip") and not args:
        return End()
    if verb == "jacket" and len(args) <= 1:
        if args and args[0].lower() not in ("none", "no"):
            raise InvalidCommand("jacket: expected 'jacket' or 'jacket none'")
        return Jacket("" if args else _jacket_ref(state, seat))
    if verb == "media":
        if [a.lower() for a in args] == ["pass"]:
            return Media()
        if len(args) == 7 and args[3] == ">":
            return Media([_cell(a) for a in args[:3]], [_cell(a) for a in args[4:]])
        raise InvalidCommand("media: expected 'media A1 B2 C3 > B2 C3 A1' or 'media pass'")
    if verb == "vote" and len(args) == 1 and args[0].lower() in ("yes", "no"):
        return Vote(args[0].lower() == "yes")
    raise InvalidCommand(
        f"cannot read {text.strip()!r}",
        hint="commands: deal, place, move, swap, spot, attack, double, use, power, deploy, jacket, end, media, vote",
    )


def _hand_ref(state: State, seat: str, name: str) -> str:
    idx = catmod.index(state.catalogue)
    want = _key(name)
    ids = {e.id for e in state.catalogue.equipment if _key(e.name) == want or _key(e.id) == want}
    if not ids:
        names = ", ".join(e.name for e in state.catalogue.equipment)
        raise InvalidCommand(f"no equipment called {name!r}", hint=f"equipment: {names}")
    refs = sorted(
        (it.ref for it in state.zones[hand(seat)].items if known(it) in ids), key=lambda r: (len(r), r)
    )
    if not refs:
        raise InvalidCommand(f"you hold no {idx.name(next(iter(ids)))}")
    return refs[0]


def jacket_refs(state: State, seat: str) -> list[str]:
    """The refs of the bulletproof jackets the seat sees in its hand (lowest first)."""
    idx = catmod.index(state.catalogue)
    out = []
    for it in state.zones[hand(seat)].items:
        card = known(it)
        if card is not None and idx.family.get(card) == "equipment" and idx.entry[card].effect.kind == "jacket":  # type: ignore[attr-defined]
            out.append(it.ref)
    return sorted(out, key=lambda r: (len(r), r))


def _jacket_ref(state: State, seat: str) -> str:
    refs = jacket_refs(state, seat)
    if not refs:
        raise InvalidCommand("you hold no bulletproof jacket", hint="answer: jacket none")
    return refs[0]


def _source(state: State, name: str) -> str:
    want = _key(name)
    for p in state.catalogue.powers:
        if want in (_key(p.name), _key(p.id)):
            return p.id
    for a in state.catalogue.aims:
        if want in (_key(a.name), _key(a.id)):
            return a.id
    raise InvalidCommand(f"no power or AIM called {name!r}")


def describe_command(cmd: Command, state: State, seat: str | None) -> str:
    """The notation, except that a Vote is not spelled out (secret until all are in)."""
    if isinstance(cmd, Vote):
        return "vote (secret)"
    if isinstance(cmd, Use):
        return "use " + " ".join([_public_card(state, cmd.ref)] + [cell_name(c) for c in cmd.cells])
    return format_command(cmd, state, seat or "")


def _public_card(state: State, ref: str) -> str:
    """The name of a used equipment card: it is face up once used."""
    for name, zone in state.zones.items():
        for it in zone.items:
            if it.ref == ref and zone.public:
                card = known(it)
                return card_name(state, card) if card else "equipment"
    return "equipment"


def explain_command(cmd: Command, state: State, seat: str) -> str:
    text = format_command(cmd, state, seat)
    match cmd:
        case Attack():
            return f"{text}: declare the attack; the dice are rolled as it is sent, and a failure ends your turn"
        case Deal():
            return "deal: lay out the operation area, face up, from its shuffled deck"
        case End():
            return "end your turn now"
        case Jacket(ref):
            return ("jacket: discard your bulletproof jacket; your spy stays" if ref
                    else "jacket none: you hold no jacket, your spy goes back to your board")
        case Vote(yes):
            return f"vote {'yes (shift the area)' if yes else 'no (leave the area)'}; nobody sees it before every vote is in"
    return text
