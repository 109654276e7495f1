"""Codenames commands and their one-line notation.

Wire form: frozen msgspec Structs in a tagged union (``"t": "cn.clue"`` ...).
Words are stored normalised (`words.normalise`). Notation (case and extra
spaces ignored; Swedish keywords in brackets are accepted too):

* ``clue WORD N``            N = 0..9 or ``unlimited`` (``obegränsat``) [ledtråd]
* ``guess W1 W2 ...``        an ordered list; may end with ``pass`` [gissa, passa]
* ``pass``                   end the turn (after at least one guess) [passa]
* ``accept`` / ``object``    review a clue (clue_review=opponent) [godta / invänd]
* ``cover WORD``             cover a cell (coop: the ghost's agent; after an
                             objection: one of your own agents) [täck]
* ``cover none``             after an objection: cover nothing [ingen]
* ``done``                   Duet: all my side's agents are found, my partner
                             gives the clues from now on [klar]
"""

# (no postponed annotations: msgspec reads these at once)

from typing import Literal

import msgspec

from pbem.errors import InvalidCommand
from pbem.games.codenames.state import UNLIMITED, Number
from pbem.games.codenames.words import normalise


class Clue(msgspec.Struct, frozen=True, tag="cn.clue", tag_field="t"):
    """A spymaster's clue: one word and a number (0-9 or "unlimited")."""

    word: str
    number: Number


class Guess(msgspec.Struct, frozen=True, tag="cn.guess", tag_field="t"):
    """The captain's ordered guesses, resolved in order until the first miss
    or the cap; `then_pass` ends the turn after the list."""

    words: tuple[str, ...]
    then_pass: bool = False


class Pass(msgspec.Struct, frozen=True, tag="cn.pass", tag_field="t"):
    """End the team's turn (allowed after its first guess)."""


class Review(msgspec.Struct, frozen=True, tag="cn.review", tag_field="t"):
    """The opposing spymaster's verdict on a clue (clue_review=opponent)."""

    verdict: Literal["accept", "object"]


class Cover(msgspec.Struct, frozen=True, tag="cn.cover", tag_field="t"):
    """A spymaster covers a cell: in coop an agent of the ghost team; after
    an objection one of their own agents, or nothing (`word` None)."""

    word: str | None


class Done(msgspec.Struct, frozen=True, tag="cn.done", tag_field="t"):
    """Duet: the clue giver's side has no agent left to find, so the partner
    gives every clue from now on (checked against the giver's key)."""


Command = Clue | Guess | Pass | Review | Cover | Done

EXPECTED = (
    "expected 'clue WORD N' (N = 0-9 or unlimited), 'guess WORD ... [pass]', "
    "'pass', 'accept', 'object', 'cover WORD|none' or 'done'"
)

_VERBS = {
    "clue": "clue", "ledtråd": "clue",
    "guess": "guess", "gissa": "guess",
    "pass": "pass", "passa": "pass",
    "accept": "accept", "godta": "accept", "acceptera": "accept",
    "object": "object", "invänd": "object", "protestera": "object",
    "cover": "cover", "täck": "cover",
    "done": "done", "klar": "done",
}
_UNLIMITED = {"unlimited", "obegränsat", "obegransat"}
_PASS = {"pass", "passa"}
_NONE = {"none", "ingen"}


def format_number(number: int | str) -> str:
    return str(number)


def format_command(command: Command) -> str:
    """The canonical notation of `command` (parses back to the same Struct)."""
    match command:
        case Clue(word=word, number=number):
            return f"clue {word} {format_number(number)}"
        case Guess(words=words, then_pass=then_pass):
            return " ".join(["guess", *words, *(["pass"] if then_pass else [])])
        case Pass():
            return "pass"
        case Review(verdict=verdict):
            return verdict
        case Cover(word=word):
            return f"cover {word if word is not None else 'none'}"
        case Done():
            return "done"
    raise TypeError(f"not a Codenames command: {command!r}")


def parse_number(text: str) -> int | str:
    key = normalise(text)
    if key in _UNLIMITED:
        return UNLIMITED
    if key.isdigit() and key.isascii():
        return int(key)
    raise InvalidCommand(
        f"cannot read the clue's number {text!r}: expected 0-9 or 'unlimited'",
        hint="e.g. 'clue ocean 2' or 'clue ocean unlimited'",
    )


def parse_command(text: str) -> Command:
    """Parse the notation (see the module docstring); `InvalidCommand` if it
    does not parse. Legality (the clue checks, the grid) is `apply`'s job."""
    tokens = normalise(text).split()
    if not tokens:
        raise InvalidCommand(f"empty command: {EXPECTED}", hint=EXPECTED)
    verb = _VERBS.get(tokens[0])
    rest = tokens[1:]
    if verb == "clue":
        if len(rest) < 2:
            raise InvalidCommand(
                f"cannot read {text.strip()!r}: expected 'clue WORD N', e.g. 'clue ocean 2'",
                hint=EXPECTED,
            )
        # several words before the number parse, and `apply` explains that a
        # clue is one word
        return Clue(" ".join(rest[:-1]), parse_number(rest[-1]))  # type: ignore[arg-type]
    if verb == "guess":
        then_pass = bool(rest) and rest[-1] in _PASS
        words = rest[:-1] if then_pass else rest
        if not words:
            raise InvalidCommand(
                f"cannot read {text.strip()!r}: 'guess' needs at least one word, e.g. 'guess tiger lemon'",
                hint=EXPECTED,
            )
        return Guess(tuple(words), then_pass)
    if verb in ("pass", "accept", "object", "done"):
        if rest:
            raise InvalidCommand(f"cannot read {text.strip()!r}: '{tokens[0]}' takes nothing after it", hint=EXPECTED)
        if verb == "done":
            return Done()
        return Pass() if verb == "pass" else Review(verb)  # type: ignore[arg-type]
    if verb == "cover":
        if len(rest) != 1:
            raise InvalidCommand(
                f"cannot read {text.strip()!r}: expected 'cover WORD' or 'cover none'", hint=EXPECTED
            )
        return Cover(None if rest[0] in _NONE else rest[0])
    raise InvalidCommand(f"cannot read {text.strip()!r}: {EXPECTED}", hint=EXPECTED)


def explain_command(command: Command) -> str:
    """`command` in words, for the seat about to send it."""
    match command:
        case Clue(word=word, number=number):
            if number == UNLIMITED:
                return f"give the clue {word!r}, unlimited (no cap on the guesses)"
            if number == 0:
                return f"give the clue {word!r} for 0 (none of your words; no cap on the guesses)"
            return f"give the clue {word!r} for {number} word{'s' if number != 1 else ''}"
        case Guess(words=words, then_pass=then_pass):
            if len(words) == 1:
                text = f"guess the word {words[0]}"
            else:
                text = "guess " + ", then ".join(words) + " (stopping at the first miss)"
            return text + (", then end the turn" if then_pass else "")
        case Pass():
            return "stop guessing and end your team's turn"
        case Review(verdict=verdict):
            return "accept the clue" if verdict == "accept" else "object to the clue (it is refused)"
        case Cover(word=None):
            return "cover none of your agents"
        case Cover(word=word):
            return f"put a cover on {word}"
    raise TypeError(f"not a Codenames command: {command!r}")
