"""The automatic clue checks (rules notes, "Decision (engine checks)").

A clue is normalised (`words.normalise`) and then refused when it is:

* empty, more than one token, or holds anything but letters, digits and (with
  option ``hyphen``) one internal hyphen;
* a single letter;
* equal to a visible (uncovered) codename;
* of the same Snowball stem (the game's language) as a visible codename;
* "objectionable": it contains a visible codename of 3+ letters, or a visible
  codename of 3+ letters contains it (``brandbil`` / ``bil``,
  ``firetruck`` / ``truck``).

Covered codenames no longer restrict clues. Every refusal names the visible
word it collides with. What the checks cannot see (meaning, irregular forms
such as knives / knife, translations) is left to the table: with option
``clue_review=opponent`` the opposing spymaster judges each clue.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.errors import IllegalCommand
from pbem.games.codenames.words import normalise, stem, token_problem

MIN_CONTAINED = 3  # a visible word this long or longer may not be part of a clue, nor contain it


class Checker:
    """Checks clues against one set of visible words (stems computed once)."""

    def __init__(self, visible: Sequence[str], language: str, hyphen: bool) -> None:
        self.visible = [normalise(w) for w in visible]
        self.language = language
        self.hyphen = hyphen
        self.stems = {w: stem(w, language) for w in self.visible}

    def problem(self, text: str) -> str | None:
        """Why the clue `text` is not allowed, or None if it is."""
        word = normalise(text)
        bad = token_problem(word, hyphen=self.hyphen)
        if bad:
            return f"clue {word!r} is not allowed: {bad}"
        if len(word) == 1 and not word.isdigit():
            return f"clue {word!r} is not allowed: a clue may not be a single letter"
        for v in self.visible:
            if word == v:
                return f"clue {word!r} is not allowed: it is the visible codename {v!r}"
        clue_stem = stem(word, self.language)
        for v in self.visible:
            if clue_stem == self.stems[v]:
                return f"clue {word!r} is not allowed: same stem as the visible codename {v!r}"
        for v in self.visible:
            if len(v) >= MIN_CONTAINED and v in word:
                return f"clue {word!r} is objectionable: contains the visible codename {v!r}"
            if len(v) >= MIN_CONTAINED and word in v:
                return f"clue {word!r} is objectionable: part of the visible codename {v!r}"
        return None

    def check(self, text: str) -> str:
        """The normalised clue, or `IllegalCommand` naming the collision."""
        bad = self.problem(text)
        if bad:
            raise IllegalCommand(bad)
        return normalise(text)


def check_clue(text: str, visible: Sequence[str], language: str, hyphen: bool = False) -> str:
    """The normalised clue if it passes every check against `visible`;
    otherwise `IllegalCommand` with the reason and the colliding word."""
    return Checker(visible, language, hyphen).check(text)
