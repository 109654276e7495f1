"""The automatic clue checks, as players judge clues (rules notes,
"Decision (engine checks)").

Every check compares *folded* words (`words.fold`: look-alike letters become
the letter they imitate, accents go where the language does not count the
letter as its own; hyphens are ignored), so ``lızard`` meets ``lizard`` and
``Café`` meets ``cafe``. A clue gets one of two verdicts, or none:

**invalid**, always refused:

* empty, more than one token, a character that is no letter, digit or
  (with option ``hyphen``) one internal hyphen; a single letter;
* a look-alike letter anywhere (it only hides a word from the eye); named as
  a look-alike spelling of the visible codename it spells, if any;
* the same word as a visible (uncovered) codename, in another spelling too;
* the same Snowball stem (the game's language) as a visible codename, or
  the codename with an inflection ending (`ENDINGS`: ``kor`` for ``ko``).

**objectionable**, refused under ``clue_review=auto``; under
``clue_review=opponent`` the opposing spymaster, whom the rulebook makes the
judge, sees the reason and accepts or objects:

* *compound*: a visible codename (or its stem) is the first or the last part
  of the clue (``ek`` in ``ekbord``, ``truck`` in ``firetrucks``), or the
  clue (or its stem) is the first or last part of a visible compound
  (``bollar`` with ``fotboll``). Swedish joins parts with a linking letter
  (-s-, -e-, -a-, -u-, -o-: ``ko-s-källa``) and may drop the first part's
  final vowel (``flick-skola``, ``kyrk-o-gård``); both are allowed for. A
  part must leave at least `MIN_REST` letters for the other part, so a short
  visible word (``ek``, ``ko``, ``ox``) still blocks its compounds;
* *substring*: a visible codename of 3+ letters inside the clue, or the clue
  (3+ letters) inside a visible codename, where no compound is in sight
  (``post`` or ``kost`` with ``ost``, ``what`` with ``hat``, ``musik`` with
  ``mus``): perhaps a coincidence, for the judge to say. Without a
  dictionary the checks cannot tell ``cowboy`` from ``coward``: both read
  as ``cow`` + a part of 3+ letters, a possible compound.

Covered codenames no longer restrict clues. Every refusal names the visible
word it collides with. What the checks cannot see (meaning, irregular forms
such as knives / knife, translations) is left to the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from pbem.errors import IllegalCommand
from pbem.games.codenames.words import fold, lookalike_problem, normalise, stem, token_problem

MIN_SUBSTRING = 3  # a word this long or longer may not lie inside the other (substring verdict)
MIN_REST = 3  # the other part of a compound has at least this many letters
#: linking letters between the parts of a compound, and whether the first
#: part may drop its final vowel
LINKS = {"en": ("",), "sv": ("", "s", "e", "a", "u", "o")}
DROPS_VOWEL = {"en": False, "sv": True}
VOWELS = frozenset("aeiouyåäö")
#: inflection endings checked by hand, because the Snowball stemmers leave
#: words of two or three letters alone (``kor`` and ``kon`` are forms of ``ko``)
ENDINGS = {
    "en": ("s", "es", "en"),
    "sv": ("n", "r", "t", "s", "na", "ns", "rs", "rna", "en", "et", "ar", "er", "or", "arna", "erna", "orna", "ens", "ets"),
}

INVALID = "invalid"
OBJECTIONABLE = "objectionable"


class Verdict(msgspec.Struct, frozen=True):
    """Why a clue is refused (`kind` invalid) or open to objection (`kind`
    objectionable): `reason` is a whole sentence naming the visible word."""

    kind: Literal["invalid", "objectionable"]
    reason: str
    word: str | None = None  # the visible codename it collides with


class Checker:
    """Checks clues against one set of visible words (folds and stems
    computed once)."""

    def __init__(self, visible: Sequence[str], language: str, hyphen: bool) -> None:
        self.visible = [normalise(w) for w in visible]
        self.language = language
        self.hyphen = hyphen
        self.folded = {w: _joined(fold(w, language).text) for w in self.visible}
        self.stems = {w: stem(self.folded[w], language) for w in self.visible}

    # -- the verdict --------------------------------------------------------------

    def judge(self, text: str) -> Verdict | None:
        """The clue's verdict, or None if it is clean."""
        word = normalise(text)
        bad = token_problem(word, hyphen=self.hyphen)
        folded = fold(word, self.language)
        if bad and not folded.lookalikes:
            return _invalid(word, bad)
        if len(word) == 1 and not word.isdigit():
            return _invalid(word, "a clue may not be a single letter")
        flat = _joined(folded.text)
        flat_stem = stem(flat, self.language)
        for v in self.visible:
            if flat == self.folded[v] or flat_stem == self.stems[v]:
                if folded.lookalikes:
                    ch, base = folded.lookalikes[0]
                    return _invalid(word, f"it is a look-alike spelling of the visible codename {v!r} ({ch!r} for {base!r})", v)
                if flat == self.folded[v]:
                    same = "the visible codename" if word == v else "another spelling of the visible codename"
                    return _invalid(word, f"it is {same} {v!r}", v)
                return _invalid(word, f"same stem as the visible codename {v!r}", v)
        for v in self.visible:
            fv = self.folded[v]
            if flat.startswith(fv) and flat[len(fv):] in ENDINGS[self.language]:
                if folded.lookalikes:
                    ch, base = folded.lookalikes[0]
                    return _invalid(word, f"it is a look-alike spelling of a form of the visible codename {v!r} ({ch!r} for {base!r})", v)
                return _invalid(word, f"it is a form of the visible codename {v!r}", v)
        if folded.lookalikes:
            return _invalid(word, lookalike_problem(folded.lookalikes[0][0]) or "it holds a look-alike letter")
        parts = folded.text.split("-") if "-" in folded.text else []
        for v in self.visible:
            reason = self._compound(flat, flat_stem, parts, v)
            if reason:
                return Verdict(OBJECTIONABLE, f"clue {word!r} is objectionable: {reason}", v)
        for v in self.visible:
            fv = self.folded[v]
            if len(fv) >= MIN_SUBSTRING and fv in flat:
                return Verdict(
                    OBJECTIONABLE,
                    f"clue {word!r} is objectionable: it contains the visible codename {v!r} (perhaps a coincidence)",
                    v,
                )
            if len(flat) >= MIN_SUBSTRING and flat in fv:
                return Verdict(
                    OBJECTIONABLE,
                    f"clue {word!r} is objectionable: it lies inside the visible codename {v!r} (perhaps a coincidence)",
                    v,
                )
        return None

    def _compound(self, flat: str, flat_stem: str, parts: list[str], v: str) -> str | None:
        """The compound relation between the clue and the visible word `v`."""
        fv, sv = self.folded[v], self.stems[v]
        for part in parts:
            if part and (part == fv or stem(part, self.language) == sv):
                return f"its part {part!r} is the visible codename {v!r}"
        if self._leads(flat, fv, sv):
            return f"it may be a compound whose first part is the visible codename {v!r}"
        if self._trails((flat,), (fv, sv)) or self._trails((flat_stem,), (fv, sv), shortest=3):
            return f"it may be a compound whose last part is the visible codename {v!r}"
        if self._leads(fv, flat, flat_stem):
            return f"it may be the first part of the visible compound {v!r}"
        if self._trails((fv,), (flat, flat_stem)):
            return f"it may be the last part of the visible compound {v!r}"
        return None

    def _leads(self, whole: str, word: str, word_stem: str) -> bool:
        """`word` (or its stem, or without its final vowel) is the first part
        of `whole`, a linking letter allowed between the parts."""
        heads = {word, word_stem}
        if DROPS_VOWEL[self.language] and len(word) >= 4 and word[-1] in VOWELS:
            heads.add(word[:-1])
        for head in heads:
            if len(head) < 2:
                continue
            for link in LINKS[self.language]:
                if whole.startswith(head + link) and len(whole) - len(head) - len(link) >= MIN_REST:
                    return True
        return False

    @staticmethod
    def _trails(wholes: tuple[str, ...], tails: tuple[str, ...], shortest: int = 2) -> bool:
        """One of `tails` (`shortest` letters or more) is the last part of one
        of `wholes`. A stemmed clue needs a tail of 3: a stemmer that cuts
        ``insekt`` to ``insek`` must not make it end in ``ek``."""
        return any(
            len(tail) >= shortest and whole.endswith(tail) and len(whole) - len(tail) >= MIN_REST
            for whole in wholes
            for tail in tails
        )

    # -- convenience ------------------------------------------------------------------

    def problem(self, text: str) -> str | None:
        """Why the clue `text` is refused or open to objection, or None."""
        verdict = self.judge(text)
        return verdict.reason if verdict else None

    def check(self, text: str, *, allow_objectionable: bool = False) -> tuple[str, Verdict | None]:
        """The normalised clue and its objectionable verdict (None if clean);
        `IllegalCommand` if invalid, or objectionable and not allowed."""
        verdict = self.judge(text)
        if verdict is not None and (verdict.kind == INVALID or not allow_objectionable):
            hint = None
            if verdict.kind == OBJECTIONABLE:
                hint = "with --option clue_review=opponent the opposing spymaster judges such clues"
            raise IllegalCommand(verdict.reason, hint=hint)
        return normalise(text), verdict


def _joined(text: str) -> str:
    return text.replace("-", "")


def _invalid(word: str, why: str, visible: str | None = None) -> Verdict:
    return Verdict(INVALID, f"clue {word!r} is not allowed: {why}", visible)


def check_clue(text: str, visible: Sequence[str], language: str, hyphen: bool = False) -> str:
    """The normalised clue if it passes every check against `visible`;
    otherwise `IllegalCommand` with the reason and the colliding word."""
    return Checker(visible, language, hyphen).check(text)[0]
