"""Who acts in a Codenames game (`to_act`), how many guesses are left,
and each seat's legal commands (`legal`), with the clues the engine
offers: a sample of the vocabulary and the deck's categories, each
passing the clue checks (`clue_commands`, which Duet offers too). Apart
from `apply` because bots and `pbem legal` list commands far more often
than a command is applied, and the view reads `to_act` and
`guesses_left` without the rest of the rules.
"""

from __future__ import annotations

import functools

from pbem.games.codenames import clues
from pbem.games.codenames import words as wordmod
from pbem.games.codenames.commands import Clue, Command, Cover, Guess, Pass, Review
from pbem.games.codenames.state import (
    CLUE, GHOST, GUESS, PENALTY, REVIEW, UNLIMITED, State, captain, covered_cells, current_turn, guess_cap, key_items,
    known_colour, other, ref_cell, spymaster, uncovered_words,
)


def to_act(state: State) -> list[str]:
    if state.phase == CLUE:
        seat = spymaster(state, state.team)
    elif state.phase == REVIEW:
        seat = spymaster(state, other(state.team))
    elif state.phase == PENALTY:
        seat = spymaster(state, state.team)  # the objector, whose team plays next
    elif state.phase == GUESS:
        seat = captain(state, state.team)
    elif state.phase == GHOST:
        seat = spymaster(state, state.team)
    else:  # resolve (waits for reveals) or over
        return []
    return [seat] if seat else []


def guesses_left(state: State) -> int | None:
    """Guesses the team may still make this turn (None: no cap)."""
    turn = current_turn(state)
    if turn is None:
        return None
    cap = guess_cap(turn.number)
    return None if cap is None else max(cap - len(turn.guesses), 0)


CLUE_SAMPLE = 5  # clue words offered by `legal` (each with number 1)


def clue_vocabulary(language: str) -> list[str]:
    """Words the engine may offer as clues: the deck's category names, then
    the deck's words."""
    return list(_vocabulary(language))


@functools.cache
def _vocabulary(language: str) -> tuple[str, ...]:
    deck = wordmod.deck(language)
    return (*deck.categories, *deck.words)


@functools.cache
def _category_index(language: str) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
    """The deck's category names, and for each deck word the indices of the
    categories listing it (once per listing)."""
    categories = wordmod.deck(language).categories
    where: dict[str, list[int]] = {}
    for i, members in enumerate(categories.values()):
        for w in members:
            where.setdefault(w, []).append(i)
    return tuple(categories), {w: tuple(ix) for w, ix in where.items()}


def legal_clue_words(state: State, limit: int = CLUE_SAMPLE, visible: list[str] | None = None) -> list[str]:
    """Up to `limit` clue words that pass the checks, starting at a place in
    the vocabulary that moves with each turn (deterministic). Digits-only
    words close the list if the vocabulary runs dry (a user's codenames are
    letters only, so they always pass): a bot can always give a clue.
    `visible`: the words that restrict clues (default: the uncovered ones)."""
    checker = clues.checker(uncovered_words(state) if visible is None else visible, state.language, state.hyphen)
    vocab = _vocabulary(state.language)
    start = (7 * len(state.history)) % len(vocab)
    out: list[str] = []
    for i in range(len(vocab)):
        word = vocab[(start + i) % len(vocab)]
        if checker.clean(word):
            out.append(word)
            if len(out) >= limit:
                return out
    n = 10
    while len(out) < limit:
        if checker.clean(str(n)):
            out.append(str(n))
        n += 1
    return out


def category_clues(state: State, visible_words: list[str] | None = None) -> list[Clue]:
    """Clues naming a category of the deck (the ``#:`` lines of the word
    file) that passes the checks, numbered 1..k where k is the number of its
    words still visible on the grid (k at most 9). They depend on the grid
    only, so every seat computes the same list; the spymaster bot picks among
    them with the key. `visible_words`: as in `legal_clue_words`."""
    shown = uncovered_words(state) if visible_words is None else visible_words
    checker = clues.checker(shown, state.language, state.hyphen)
    names, listed = _category_index(state.language)
    counts = [0] * len(names)
    for w in set(shown):
        for i in listed.get(w, ()):
            counts[i] += 1
    out: list[Clue] = []
    for name, k in zip(names, counts):
        if k and checker.clean(name):
            out += _numbered(name, min(k, 9))
    return out


@functools.lru_cache(maxsize=1 << 10)
def _numbered(word: str, k: int) -> tuple[Clue, ...]:
    """``clue WORD 1`` .. ``clue WORD k`` (frozen values, made once)."""
    return tuple(Clue(word, n) for n in range(1, k + 1))


def clue_commands(state: State, visible: list[str] | None = None) -> list[Command]:
    """The clues `legal` offers: five words with number 1, the first of
    them with 2, 0 and unlimited, then the category clues. `visible`: the
    words that restrict clues (default: the uncovered ones)."""
    shown = uncovered_words(state) if visible is None else visible
    sample = legal_clue_words(state, visible=shown)
    offered: list[Clue] = [Clue(w, 1) for w in sample]
    offered += [Clue(sample[0], 2), Clue(sample[0], 0), Clue(sample[0], UNLIMITED)]
    offered += category_clues(state, shown)
    return list(dict.fromkeys(offered))


def legal(state: State, seat: str) -> list[Command]:
    """The seat's legal commands in a deterministic order.

    Clues are a bounded sample, each passing the checks: five words with
    number 1, the first of them with 2, 0 and unlimited, then the category
    clues (`category_clues`). Guesses are listed one word each (a captain may
    send longer lists). Covers need the key, so they are listed from the
    state as `seat` knows it."""
    if seat not in to_act(state):
        return []
    if state.phase == CLUE:
        return clue_commands(state)
    if state.phase == REVIEW:
        return [Review("accept"), Review("object")]
    if state.phase == GUESS:
        out: list[Command] = [Guess((w,)) for w in uncovered_words(state)]
        turn = current_turn(state)
        if turn is not None and turn.guesses:
            out.append(Pass())
        return out
    if state.phase in (PENALTY, GHOST):
        wanted = state.team if state.phase == PENALTY else other(state.team)
        done = covered_cells(state)
        covers: list[Command] = [
            Cover(state.words[ref_cell(it.ref)])
            for it in key_items(state)
            if ref_cell(it.ref) not in done and known_colour(it) == wanted
        ]
        if state.phase == PENALTY:
            covers.append(Cover(None))
        return covers
    return []
