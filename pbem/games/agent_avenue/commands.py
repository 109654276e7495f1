"""Agent Avenue commands and their one-line notation.

Wire form: frozen msgspec Structs in a tagged union (``"t": "aa.play"`` ...).
Commands name cards by ref; the notation names them by agent name and is
resolved against the hand *as the seat knows it* (the lowest ref of that
name, a mere representative: before the turn is written the writer
re-chooses it uniformly among its cards of that name, `pbem.games.refchoice`,
so which copy is played says nothing), so a player never needs to see a ref:

* ``discard NAME``                  e.g. ``discard Saboteur``
* ``play FACEUP / FACEDOWN``        e.g. ``play Enforcer / Double Agent``
* ``recruit face-up``, ``recruit face-down``

Team variant, a player of a pair (each plays one card of the two):

* ``play NAME``       the face-up card, or the face-down one when the
  teammate has played face up this turn

Advanced mode (the black market):

* ``take NAME``       take that black-market card from the supply
* ``choose NAME``     answer an instant: the agent (from your hand, your play
  area or the opponent's, as the card says; Double Trouble: the name of the
  pair), or Spycation's "recruit it again"
* ``pass``            decline Spycation's second recruit, or say that an
  instant cannot be carried out (the dealer and the audit check it)

Parsing ignores case and extra whitespace (and spaces or hyphens inside
names: ``double-agent``, ``DoubleAgent``).
"""

# (no postponed annotations: msgspec reads these at once)

from collections.abc import Callable

from typing import Literal

import msgspec

from pbem.errors import IllegalCommand, InvalidCommand
from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.state import (
    FACE_DOWN,
    FACE_UP,
    State,
    find,
    hand,
    known_name,
    ref_key,
)


class Discard(msgspec.Struct, frozen=True, tag="aa.discard", tag_field="t"):
    """Discard a hand card face down (out of the game) and draw a replacement."""

    ref: str


class Play(msgspec.Struct, frozen=True, tag="aa.play", tag_field="t"):
    """Play two hand cards to the centre, one face up and one face down."""

    face_up: str
    face_down: str


class PlayOne(msgspec.Struct, frozen=True, tag="aa.play-one", tag_field="t"):
    """Team variant: a player of a pair plays one hand card, face up if the
    centre is empty, else face down next to the teammate's face-up card."""

    ref: str


class Recruit(msgspec.Struct, frozen=True, tag="aa.recruit", tag_field="t"):
    """The opponent recruits one of the two played cards."""

    which: Literal["face-up", "face-down"]


class Take(msgspec.Struct, frozen=True, tag="aa.take", tag_field="t"):
    """Take a black-market card from the supply (advanced mode)."""

    ref: str


class Choose(msgspec.Struct, frozen=True, tag="aa.choose", tag_field="t", omit_defaults=True):
    """Answer an instant black-market card: the agent it acts on (`keep`:
    Double Trouble's second, revealed card, which stays in the hand)."""

    ref: str
    keep: str | None = None


class Pass(msgspec.Struct, frozen=True, tag="aa.pass", tag_field="t"):
    """Decline (Spycation's second recruit) or say an instant cannot be done."""


Command = Discard | Play | PlayOne | Recruit | Take | Choose | Pass

EXPECTED = "expected 'discard NAME', 'play FACEUP / FACEDOWN', 'recruit face-up' or 'recruit face-down'"
EXPECTED_MARKET = "expected 'take NAME' (a supply card), 'choose NAME' or 'pass'"


# --- format -----------------------------------------------------------------


def _name_of(state: State, ref: str) -> str:
    found = find(state, ref)
    name = known_name(found[1]) if found else None
    return name if name is not None else f"(hidden {ref})"


def _spell(command: Command, name: Callable[[str, bool], str]) -> str:
    """The one-line form of `command`, with `name(ref, face_up)` for cards."""
    match command:
        case Discard(ref=ref):
            return f"discard {name(ref, False)}"
        case Play(face_up=up, face_down=down):
            return f"play {name(up, True)} / {name(down, False)}"
        case PlayOne(ref=ref):
            return f"play {name(ref, False)}"
        case Recruit(which=which):
            return f"recruit {which}"
        case Take(ref=ref):
            return f"take {name(ref, True)}"
        case Choose(ref=ref):
            return f"choose {name(ref, True)}"
        case Pass():
            return "pass"
    raise TypeError(f"not an Agent Avenue command: {command!r}")


def format_command(command: Command, state: State, seat: str) -> str:
    """The notation of `command`; names come from `state` as `seat` knows it."""
    return _spell(command, lambda ref, face_up: _name_of(state, ref))


def describe_command(command: Command, state: State, seat: str | None) -> str:
    """A log line for `command` as `seat` (None: the public) may read it.

    A card is named only if the reader may see the zone it lies in in `state`
    (the face-up card of a play is public by nature) and `state` knows it;
    otherwise it reads ``(face down)``.
    """

    def shown(ref: str, public_by_nature: bool = False) -> str:
        found = find(state, ref)
        if found is None:
            return "(face down)"
        zone_name, item = found
        zone = state.zones[zone_name]
        visible = public_by_nature or zone.public or (seat is not None and seat in zone.readers)
        name = known_name(item) if visible else None
        return name if name is not None else "(face down)"

    return _spell(command, shown)


def explain_command(command: Command, state: State, seat: str) -> str:
    """`command` in words for `seat`, who is about to send it (its own
    cards are named; the other seat's face-down card is not)."""

    def shown(ref: str) -> str:
        return describe_command(Discard(ref), state, seat).removeprefix("discard ")

    match command:
        case Discard(ref=ref):
            return f"discard {shown(ref)} face down (out of the game) and draw a new card"
        case Play(face_up=up, face_down=down):
            return f"play {shown(up)} face up and {shown(down)} face down for your opponent to choose from"
        case PlayOne(ref=ref):
            face = "face up" if not state.zones["centre:up"].items else "face down"
            return f"play {shown(ref)} {face} (your teammate plays the other card)"
        case Recruit(which=which):
            return f"recruit the {which} card; your opponent takes the other one"
        case Take(ref=ref):
            return f"take {shown(ref)} from the black market"
        case Choose(ref=ref, keep=keep):
            if keep is not None:
                return f"reveal two {shown(ref)}: recruit one, keep the other"
            return f"choose {shown(ref)} for the black-market card"
        case Pass():
            return "pass (decline, or the card cannot be carried out)"
    raise TypeError(f"not an Agent Avenue command: {command!r}")


# --- parse ------------------------------------------------------------------


def _hand_refs(state: State, seat: str, name: str, exclude: str | None = None) -> list[str]:
    zone = state.zones.get(hand(seat))
    if zone is None:
        raise IllegalCommand(f"{seat!r} is not a seat of this game")
    refs = [it.ref for it in zone.items if it.ref != exclude and known_name(it) == name]
    return sorted(refs, key=ref_key)


def _resolve(state: State, seat: str, text: str, exclude: str | None = None) -> str:
    name = cards.canonical(text)
    refs = _hand_refs(state, seat, name, exclude)
    if not refs:
        if exclude is not None and _hand_refs(state, seat, name):
            raise IllegalCommand(f"you have only one {name} in hand")
        raise IllegalCommand(f"you have no {name} in hand")
    return refs[0]


def _plays_one(state: State, seat: str) -> bool:
    """Team variant: `seat` is one of a pair (each plays one card)."""
    teams = state.teams
    return isinstance(teams, dict) and any(seat in who and len(who) > 1 for who in teams.values())


def parse_command(text: str, state: State, seat: str) -> Command:
    """Parse the notation (see the module docstring) against `seat`'s hand."""
    words = text.split()
    if not words:
        raise InvalidCommand(f"empty command: {EXPECTED}", hint=EXPECTED)
    verb = words[0].lower()
    rest = " ".join(words[1:])
    if verb in ("take", "choose", "pass"):
        from pbem.games.agent_avenue.market import parse_market

        return parse_market(verb, rest, text, state, seat)
    if verb == "discard":
        if not rest:
            raise InvalidCommand(
                "discard needs a card name, e.g. 'discard Saboteur'", hint=EXPECTED
            )
        return Discard(_resolve(state, seat, rest))
    if verb == "play" and "/" not in rest and rest.strip() and _plays_one(state, seat):
        cards.canonical(rest)
        return PlayOne(_resolve(state, seat, rest))
    if verb == "play":
        parts = rest.split("/")
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            raise InvalidCommand(
                f"cannot read {text.strip()!r}: expected 'play FACEUP / FACEDOWN', "
                "e.g. 'play Enforcer / Double Agent'",
                hint=EXPECTED,
            )
        # both names are checked before either is looked up in the hand
        cards.canonical(parts[0])
        cards.canonical(parts[1])
        up = _resolve(state, seat, parts[0])
        down = _resolve(state, seat, parts[1], exclude=up)
        return Play(up, down)
    if verb == "recruit":
        key = "".join(ch for ch in rest.lower() if ch.isalnum())
        if key == "faceup":
            return Recruit(FACE_UP)
        if key == "facedown":
            return Recruit(FACE_DOWN)
        raise InvalidCommand(
            f"cannot read {text.strip()!r}: expected 'recruit face-up' or 'recruit face-down'",
            hint=EXPECTED,
        )
    raise InvalidCommand(f"cannot read {text.strip()!r}: {EXPECTED}", hint=EXPECTED)
