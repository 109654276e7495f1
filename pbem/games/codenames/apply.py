"""The state after a Codenames command (`apply`): a clue checked by
`clues`, the opposing spymaster's review, the captain's list of guesses
(resolved later by `resolve.advance`, as each needs its cell revealed) and
a spymaster's cover; and the one-line refusal of a command out of turn or
of the wrong kind.
"""

from __future__ import annotations

from pbem.errors import IllegalCommand
from pbem.games.base import identity
from pbem.games.codenames import clues
from pbem.games.codenames import words as wordmod
from pbem.games.codenames.commands import Clue, Command, Cover, Guess, Pass, Review
from pbem.games.codenames.legal import guesses_left, to_act
from pbem.games.codenames.resolve import check_wins, end_turn, finish, key_item, move_to_covered
from pbem.games.codenames.state import (
    CLUE, GHOST, GUESS, OVER, PENALTY, RESOLVE, REVIEW, UNLIMITED, State, Turn, agents_total, cell_of_word,
    covered_cells, covered_count, current_turn, guess_cap, other, thaw, uncovered_words,
)


def _not_your_turn(state: State, seat: str) -> IllegalCommand:
    waiting = to_act(state)
    if state.phase == OVER:
        return IllegalCommand("the game is over")
    if not waiting:
        return IllegalCommand("nobody may act now: the guesses are being revealed", hint="pbem sync")
    who = waiting[0]
    what = {
        CLUE: f"the {state.team} spymaster ({who}) to give a clue",
        REVIEW: f"the {other(state.team)} spymaster ({who}) to accept or object to the clue",
        PENALTY: f"the {state.team} spymaster ({who}) to cover one of their agents or none",
        GUESS: f"the {state.team} captain ({who}) to guess",
        GHOST: f"the spymaster ({who}) to cover a ghost agent",
    }[state.phase]
    return IllegalCommand(f"{seat} may not act now: waiting for {what}")


def _wrong_command(state: State, command: Command) -> IllegalCommand:
    expected = {
        CLUE: "a clue ('clue WORD N')",
        REVIEW: "'accept' or 'object'",
        PENALTY: "'cover WORD' (one of your own agents) or 'cover none'",
        GUESS: "'guess WORD ...' or 'pass'",
        GHOST: "'cover WORD' (an agent of the ghost team)",
    }[state.phase]
    return IllegalCommand(f"not now: expected {expected}")


def apply(state: State, seat: str, command: Command) -> State:
    if seat not in to_act(state):
        raise _not_your_turn(state, seat)
    phase = state.phase
    if phase == CLUE and isinstance(command, Clue):
        return _clue(state, command)
    if phase == REVIEW and isinstance(command, Review):
        return _review(state, command)
    if phase == GUESS and isinstance(command, Guess):
        return _guess(state, command)
    if phase == GUESS and isinstance(command, Pass):
        turn = current_turn(state)
        if turn is None or not turn.guesses:
            raise IllegalCommand("a team must make at least one guess before it passes")
        new = thaw(state)
        end_turn(new, "pass")
        return new
    if phase in (PENALTY, GHOST) and isinstance(command, Cover):
        return _cover(state, command)
    raise _wrong_command(state, command)


def _clue(state: State, command: Clue) -> State:
    number = command.number
    if not (number == UNLIMITED or (isinstance(number, int) and not isinstance(number, bool) and 0 <= number <= 9)):
        raise IllegalCommand(f"a clue's number must be 0-9 or unlimited, not {number!r}")
    review = state.clue_review == "opponent"
    word, verdict = clues.checker(uncovered_words(state), state.language, state.hyphen).check(
        command.word, allow_objectionable=review
    )
    new = thaw(state)
    new.history.append(
        Turn(
            team=new.team, word=word, number=number, status="pending" if review else "accepted",
            concern=verdict.reason if verdict else None,
        )
    )
    new.phase = REVIEW if review else GUESS
    return new


def _review(state: State, command: Review) -> State:
    new = thaw(state)
    turn = new.history[-1]
    if command.verdict == "accept":
        turn.status = "accepted"
        new.phase = GUESS
        return new
    turn.status = "objected"
    turn.end = "objected"
    new.team = other(new.team)
    new.phase = PENALTY
    return new


def _guess(state: State, command: Guess) -> State:
    guessed = [wordmod.normalise(w) for w in command.words]
    if not guessed:
        raise IllegalCommand("guess at least one word")
    done = covered_cells(state)
    cells: list[int] = []
    for word in guessed:
        cell = cell_of_word(state, word)
        if cell is None:
            raise IllegalCommand(f"{word!r} is not a codename on the grid")
        if cell in done:
            raise IllegalCommand(f"{word!r} is already covered")
        if cell in cells:
            raise IllegalCommand(f"{word!r} is guessed twice")
        cells.append(cell)
    left = guesses_left(state)
    if left is not None and len(cells) > left:
        turn = current_turn(state)
        made = len(turn.guesses) if turn else 0
        raise IllegalCommand(
            f"too many guesses: {len(cells)} given, {left} left "
            f"(the clue allows {guess_cap(turn.number) if turn else 0}, {made} made)"
        )
    new = thaw(state)
    new.pending = cells
    new.then_pass = command.then_pass
    new.phase = RESOLVE
    return new


def _cover(state: State, command: Cover) -> State:
    penalty = state.phase == PENALTY
    wanted = state.team if penalty else other(state.team)
    if command.word is None:
        if not penalty:
            raise IllegalCommand("the ghost team must have one agent covered: 'cover WORD'")
        new = thaw(state)
        new.phase = CLUE
        return new
    word = wordmod.normalise(command.word)
    cell = cell_of_word(state, word)
    if cell is None:
        raise IllegalCommand(f"{word!r} is not a codename on the grid")
    if cell in covered_cells(state):
        raise IllegalCommand(f"{word!r} is already covered")
    item = key_item(state, cell)
    colour = identity(item)  # the writer (a spymaster) reveals it if needed
    if colour != wanted:
        whose = "one of your own agents" if penalty else f"an agent of the ghost team ({wanted})"
        raise IllegalCommand(f"{word!r} is not {whose}")
    new = thaw(state)
    move_to_covered(new, cell, item)
    # the cover belongs to the turn just ended (coop) or the objected one
    new.history[-1].cover = word
    if penalty:
        if not check_wins(new, covered_by=None):
            new.phase = CLUE
        return new
    if covered_count(new, wanted) >= agents_total(new, wanted):
        finish(new, None, f"the ghost team ({wanted}) has all its agents covered")
    else:
        new.phase = CLUE
    return new
