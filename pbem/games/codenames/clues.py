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

import functools
from collections.abc import Sequence
from typing import Literal

import msgspec

from pbem.errors import IllegalCommand
from pbem.games.codenames.words import Folded, fold, lookalike_problem, normalise, stem, token_problem

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
        self._all = frozenset(self.visible)
        self.language = language
        self.hyphen = hyphen
        self.folded = {}
        self.stems = {}
        for w in self.visible:
            _, self.folded[w], self.stems[w], _ = _read(w, language)

    # -- the verdict --------------------------------------------------------------

    def judge(self, text: str) -> Verdict | None:
        """The clue's verdict, or None if it is clean."""
        word = normalise(text)
        bad = token_problem(word, hyphen=self.hyphen)
        folded, flat, flat_stem, parts = _read(word, self.language)
        if bad and not folded.lookalikes:
            return _invalid(word, bad)
        if len(word) == 1 and not word.isdigit():
            return _invalid(word, "a clue may not be a single letter")
        for v in self.visible:
            if _same(flat, flat_stem, self.folded[v], self.stems[v]):
                if folded.lookalikes:
                    ch, base = folded.lookalikes[0]
                    return _invalid(word, f"it is a look-alike spelling of the visible codename {v!r} ({ch!r} for {base!r})", v)
                if flat == self.folded[v]:
                    same = "the visible codename" if word == v else "another spelling of the visible codename"
                    return _invalid(word, f"it is {same} {v!r}", v)
                return _invalid(word, f"same stem as the visible codename {v!r}", v)
        for v in self.visible:
            if _form(flat, self.folded[v], self.language):
                if folded.lookalikes:
                    ch, base = folded.lookalikes[0]
                    return _invalid(word, f"it is a look-alike spelling of a form of the visible codename {v!r} ({ch!r} for {base!r})", v)
                return _invalid(word, f"it is a form of the visible codename {v!r}", v)
        if folded.lookalikes:
            return _invalid(word, lookalike_problem(folded.lookalikes[0][0]) or "it holds a look-alike letter")
        for v in self.visible:
            reason = _compound(flat, flat_stem, parts, v, self.folded[v], self.stems[v], self.language)
            if reason:
                return Verdict(OBJECTIONABLE, f"clue {word!r} is objectionable: {reason}", v)
        for v in self.visible:
            where = _substring(flat, self.folded[v])
            if where:
                return Verdict(
                    OBJECTIONABLE,
                    f"clue {word!r} is objectionable: {where.format(v=repr(v))} (perhaps a coincidence)",
                    v,
                )
        return None

    def clean(self, text: str) -> bool:
        """``judge(text) is None``, from what is remembered of each pair of
        words: a verdict is either the clue's own (`_word_problem`) or one
        of the pair tests above with some visible word, and a pair's test
        depends only on the two words and the language (`_collides`)."""
        word = normalise(text)
        if _word_problem(word, self.language, self.hyphen):
            return False
        seen, hits = _COLLISIONS.get((self.language, word)) or _remember(self.language, word)
        if not self._all <= seen:
            _, flat, flat_stem, parts = _read(word, self.language)
            for v in self.visible:
                if v not in seen:
                    seen.add(v)
                    if _collides(flat, flat_stem, parts, v, self.folded[v], self.stems[v], self.language):
                        hits.add(v)
        return hits.isdisjoint(self._all)

    # -- convenience ------------------------------------------------------------------

    def problem(self, text: str) -> str | None:
        """Why the clue `text` is refused or open to objection, or None."""
        verdict = self.judge(text)
        return verdict.reason if verdict else None

    def check(self, text: str, *, allow_objectionable: bool = False) -> tuple[str, Verdict | None]:
        """The normalised clue and its objectionable verdict (None if clean);
        `IllegalCommand` if invalid, or objectionable and not allowed."""
        verdict = None if self.clean(text) else self.judge(text)
        if verdict is not None and (verdict.kind == INVALID or not allow_objectionable):
            hint = None
            if verdict.kind == OBJECTIONABLE:
                hint = "with --option clue_review=opponent the opposing spymaster judges such clues"
            raise IllegalCommand(verdict.reason, hint=hint)
        return normalise(text), verdict


def checker(visible: Sequence[str], language: str, hyphen: bool) -> Checker:
    """The `Checker` of these visible words (the last few are kept: `legal`
    and `apply` ask for the same one several times on one state)."""
    return _checker(tuple(visible), language, hyphen)


@functools.lru_cache(maxsize=16)
def _checker(visible: tuple[str, ...], language: str, hyphen: bool) -> Checker:
    return Checker(visible, language, hyphen)


# --- the tests, on folded words -------------------------------------------------------


@functools.lru_cache(maxsize=1 << 14)
def _read(word: str, language: str) -> tuple[Folded, str, str, tuple[str, ...]]:
    """A normalised clue as the tests read it: folded, joined (hyphens
    dropped), the joined form's stem, and its hyphenated parts."""
    folded = fold(word, language)
    flat = _joined(folded.text)
    parts = tuple(folded.text.split("-")) if "-" in folded.text else ()
    return folded, flat, stem(flat, language), parts


@functools.lru_cache(maxsize=1 << 14)
def _word_problem(word: str, language: str, hyphen: bool) -> bool:
    """The clue is refused whatever the visible words: not one token, a
    look-alike letter, or a single letter."""
    folded = _read(word, language)[0]
    return bool(token_problem(word, hyphen=hyphen) or folded.lookalikes or (len(word) == 1 and not word.isdigit()))


def _same(flat: str, flat_stem: str, fv: str, sv: str) -> bool:
    """The same word (folded) or the same stem."""
    return flat == fv or flat_stem == sv


def _form(flat: str, fv: str, language: str) -> bool:
    """The visible word with an inflection ending (`ENDINGS`)."""
    return flat.startswith(fv) and flat[len(fv):] in ENDINGS[language]


def _substring(flat: str, fv: str) -> str | None:
    """How one word (3+ letters) lies inside the other, `{v}` for the visible word."""
    if len(fv) >= MIN_SUBSTRING and fv in flat:
        return "it contains the visible codename {v}"
    if len(flat) >= MIN_SUBSTRING and flat in fv:
        return "it lies inside the visible codename {v}"
    return None


def _collides(flat: str, flat_stem: str, parts: tuple[str, ...], v: str, fv: str, sv: str, language: str) -> bool:
    """One of `Checker.judge`'s pair tests finds the clue and visible word `v` too close."""
    return bool(_same(flat, flat_stem, fv, sv) or _form(flat, fv, language)
                or (_may_compound(flat, flat_stem, parts, fv, sv)
                    and _compound(flat, flat_stem, parts, v, fv, sv, language))
                or _substring(flat, fv))


def _may_compound(flat: str, flat_stem: str, parts: tuple[str, ...], fv: str, sv: str) -> bool:
    """False only where `_compound` finds nothing: with no hyphenated part,
    a compound needs one word (or stem) to start as the other starts or end
    as it ends, in two letters at least (`_leads`, `_trails`). Most pairs
    share neither, and this costs a few slices."""
    if parts:
        return True
    heads, tails = (fv[:2], sv[:2]), (fv[-2:], sv[-2:])
    return flat[:2] in heads or fv[:2] == flat_stem[:2] or flat[-2:] in tails or flat_stem[-2:] in tails


#: (language, clue) -> (visible words the clue was tested against, those it
#: collides with): what `Checker.clean` remembers between states and games
_COLLISIONS: dict[tuple[str, str], tuple[set[str], set[str]]] = {}
#: clues remembered at most (all are forgotten at once beyond it)
_MAX_REMEMBERED = 1 << 14


def _remember(language: str, word: str) -> tuple[set[str], set[str]]:
    if len(_COLLISIONS) >= _MAX_REMEMBERED:
        _COLLISIONS.clear()
    entry: tuple[set[str], set[str]] = (set(), set())
    _COLLISIONS[(language, word)] = entry
    return entry


def _compound(flat: str, flat_stem: str, parts: tuple[str, ...], v: str, fv: str, sv: str, language: str) -> str | None:
    """The compound relation between the clue and the visible word `v`
    (folded `fv`, stem `sv`)."""
    for part in parts:
        if part and (part == fv or stem(part, language) == sv):
            return f"its part {part!r} is the visible codename {v!r}"
    if _leads(flat, fv, sv, language):
        return f"it may be a compound whose first part is the visible codename {v!r}"
    if _trails((flat,), (fv, sv)) or _trails((flat_stem,), (fv, sv), shortest=3):
        return f"it may be a compound whose last part is the visible codename {v!r}"
    if _leads(fv, flat, flat_stem, language):
        return f"it may be the first part of the visible compound {v!r}"
    if _trails((fv,), (flat, flat_stem)):
        return f"it may be the last part of the visible compound {v!r}"
    return None


def _leads(whole: str, word: str, word_stem: str, language: str) -> bool:
    """`word` (or its stem, or without its final vowel) is the first part
    of `whole`, a linking letter allowed between the parts."""
    heads = {word, word_stem}
    if DROPS_VOWEL[language] and len(word) >= 4 and word[-1] in VOWELS:
        heads.add(word[:-1])
    for head in heads:
        if len(head) < 2:
            continue
        for link in LINKS[language]:
            if whole.startswith(head + link) and len(whole) - len(head) - len(link) >= MIN_REST:
                return True
    return False


def _trails(wholes: tuple[str, ...], tails: tuple[str, ...], shortest: int = 2) -> bool:
    """One of `tails` (`shortest` letters or more) is the last part of one
    of `wholes`. A stemmed clue needs a tail of 3: a stemmer that cuts
    ``insekt`` to ``insek`` must not make it end in ``ek``."""
    return any(
        len(tail) >= shortest and whole.endswith(tail) and len(whole) - len(tail) >= MIN_REST
        for whole in wholes
        for tail in tails
    )


def _joined(text: str) -> str:
    return text.replace("-", "")


def _invalid(word: str, why: str, visible: str | None = None) -> Verdict:
    return Verdict(INVALID, f"clue {word!r} is not allowed: {why}", visible)


def check_clue(text: str, visible: Sequence[str], language: str, hyphen: bool = False) -> str:
    """The normalised clue if it passes every check against `visible`;
    otherwise `IllegalCommand` with the reason and the colliding word."""
    return checker(visible, language, hyphen).check(text)[0]
