"""Bots: ``bot(game, state, seat, rng) -> command``, given the seat's own
partial state (a spymaster's holds the key; an operative's does not).

* ``random``: any legal command, uniformly. Its games end: every turn
  covers at least one cell, except an objected clue followed by
  ``cover none``, which a uniform choice cannot repeat for long.
* ``spymaster``: a simple player for every role. As a spymaster it clues a
  category of the deck (the ``#:`` lines of the word file) whose uncovered
  words, in grid order, start with its own agents, numbering that run (see
  `best_clue`), and falls back to the first legal clue (number 1); it
  accepts every clue it reviews and covers the first agent it may. As an operative it guesses the uncovered words of the clue's
  category one at a time (at most the clue's number), then passes; with an
  unknown clue it makes one random guess and passes.

In Duet the spymaster bot plays both parts the same way: as the clue giver
it says ``done`` when its side has no agent left, else clues a category
whose words in play start with its own side's agents; as the guesser it
follows the clue's category, then passes; in sudden death it guesses the
words of the last clue's category it has not tried, and gives up (passes)
when it has no such word.

Both bots choose only among the game's `legal` commands (every clue there
passes `clues.Checker`), so a bot never stalls on a rejected command.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.errors import IllegalCommand
from pbem.games.codenames import words as wordmod
from pbem.games.codenames import duet
from pbem.games.codenames.commands import Clue, Command, Cover, Done, Guess, Pass, Review
from pbem.games.codenames.legal import category_clues, legal
from pbem.games.codenames.state import (
    CLUE,
    GUESS,
    PENALTY,
    REVIEW,
    UNLIMITED,
    State,
    current_turn,
    key_items,
    known_colour,
    ref_cell,
    uncovered_words,
)


def random_bot(game: Any, state: State, seat: str, rng: random.Random) -> Command:
    choices = game.legal(state, seat)
    if not choices:
        raise IllegalCommand(f"{seat} has nothing to do now")
    return rng.choice(choices)


def best_clue(state: State, rng: random.Random) -> Clue | None:
    """The best category clue for the team to move, from the key in `state`.

    The operative bot guesses a category's uncovered words in grid order, so
    a category is worth as many guesses as its leading run of the team's own
    agents; the number is that run (the guesses stop before any other
    colour). Chosen among `legal.category_clues`, so it is always legal.
    None when no legal category starts with an own agent."""
    team = state.team
    colours = {state.words[ref_cell(it.ref)]: known_colour(it) for it in key_items(state)}
    visible = uncovered_words(state)
    offered = {(c.word, c.number) for c in category_clues(state)}
    return _best_category(state, visible, lambda word: colours.get(word) == team, offered, rng)


def _best_category(state: State, words: list[str], own, offered: set, rng: random.Random) -> Clue | None:
    """The category clue worth most guesses: the longest leading run of
    `words` (in grid order) that are `own`, among the `offered` clues."""
    best: list[tuple[int, str]] = []
    for name, members in wordmod.deck(state.language).categories.items():
        run = 0
        for word in (w for w in words if w in members):
            if not own(word):
                break
            run += 1
        if run and (name, run) in offered:
            best.append((run, name))
    if not best:
        return None
    top = max(n for n, _ in best)
    return Clue(rng.choice(sorted(w for n, w in best if n == top)), top)


def _operative_guess(state: State, rng: random.Random) -> Command:
    """One guess at a time (each is a `legal` command): the clue's category
    words in grid order up to the clue's number, then pass; for a clue it
    does not know, one random guess, then pass."""
    turn = current_turn(state)
    visible = uncovered_words(state)
    if turn is None:
        return Guess((rng.choice(visible),))
    members = wordmod.deck(state.language).categories.get(turn.word, ())
    wanted = len(visible) if turn.number in (0, UNLIMITED) else int(turn.number)
    on_topic = all(w in members for w in turn.guesses)
    picks = [w for w in visible if w in members]
    if on_topic and picks and len(turn.guesses) < wanted:
        return Guess((picks[0],))
    if turn.guesses:
        return Pass()
    return Guess((rng.choice(visible),))


def _duet_clue(state: State, rng: random.Random) -> Clue | None:
    """Like `best_clue`, on the giver's own side of the Duet key."""
    side = state.team
    mine = {state.words[duet.ref_cell(it.ref)]: known_colour(it) for it in state.zones[duet.key_zone(side)].items}
    in_play = duet.visible_words(state)
    guessable = duet.guessable(state, side)
    offered = {(c.word, c.number) for c in category_clues(state, in_play)}
    return _best_category(state, guessable, lambda word: mine.get(word) == duet.AGENT, offered, rng)


def _duet_bot(game: Any, state: State, seat: str, rng: random.Random) -> Command:
    choices = game.legal(state, seat)
    if not choices:
        raise IllegalCommand(f"{seat} has nothing to do now")
    if state.phase == CLUE:
        if Done() in choices:
            return Done()
        clue = _duet_clue(state, rng)
        return clue if clue is not None and clue in choices else next(c for c in choices if isinstance(c, Clue))
    turn = current_turn(state)
    words = duet.guessable(state, state.team)
    clues = [t for t in state.history if t.word and t.team == state.team]
    topic = clues[-1].word if clues else ""
    members = wordmod.deck(state.language).categories.get(topic, ())
    picks = [w for w in words if w in members]
    if state.phase == "sudden":
        return Guess((picks[0],)) if picks else Guess((_safest(state, words, rng),))
    wanted = len(words) if turn is None or turn.number in (0, UNLIMITED) else int(turn.number)
    made = len(turn.guesses) if turn else 0
    if picks and made < wanted and Guess((picks[0],)) in choices:
        return Guess((picks[0],))
    if Pass() in choices:
        return Pass()
    return Guess((_safest(state, words, rng),))


def _safest(state: State, words: list[str], rng: random.Random) -> str:
    """A blind guess with the best odds the guesser's own side gives: a word
    that is a bystander on my side is an agent of my partner's 5 times in 13
    and an assassin once (an agent of mine: 3 and 1 in 9)."""
    mine = duet.other_side(state.team)
    colour = {state.words[duet.ref_cell(it.ref)]: known_colour(it) for it in state.zones[duet.key_zone(mine)].items}
    colour.update({state.words[c]: k for c, k in duet.opened(state, mine).items()})
    for wanted in (duet.BYSTANDER, duet.AGENT):
        best = [w for w in words if colour.get(w) == wanted]
        if best:
            return rng.choice(best)
    return rng.choice(words)


def spymaster_bot(game: Any, state: State, seat: str, rng: random.Random) -> Command:
    if state.variant == "duet":
        return _duet_bot(game, state, seat, rng)
    choices = legal(state, seat)
    if not choices:
        raise IllegalCommand(f"{seat} has nothing to do now")
    if state.phase == CLUE:
        clue = best_clue(state, rng)
        return clue if clue is not None else choices[0]
    if state.phase == REVIEW:
        return Review("accept")
    if state.phase == PENALTY:
        covers = [c for c in choices if isinstance(c, Cover) and c.word is not None]
        return covers[0] if covers else Cover(None)
    if state.phase == GUESS:
        return _operative_guess(state, rng)
    return rng.choice(choices)


__all__ = ["random_bot", "spymaster_bot", "best_clue"]
