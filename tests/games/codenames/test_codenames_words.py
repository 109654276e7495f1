"""Codenames word decks and user word lists."""

from __future__ import annotations

import re

import pytest

from pbem.errors import InvalidOption
from pbem.games.codenames import GAME
from pbem.games.codenames.clues import Checker
from pbem.games.codenames.words import (
    RESERVED,
    deck,
    normalise,
    parse_deck,
    stem,
    user_words,
)

LANGS = ["en", "sv"]
LETTERS = re.compile(r"[a-zåäöé]+")


@pytest.mark.parametrize("lang", LANGS)
def test_deck_size_and_letters(lang):
    words = deck(lang).words
    assert len(words) >= 390
    assert len(set(words)) == len(words), "duplicate words"
    for w in words:
        assert LETTERS.fullmatch(w), f"{w!r} has characters other than a-z å ä ö é"
        assert w == normalise(w)
        assert w not in RESERVED


@pytest.mark.parametrize("lang", LANGS)
def test_deck_has_no_two_words_with_one_stem(lang):
    seen: dict[str, str] = {}
    for w in deck(lang).words:
        s = stem(w, lang)
        assert s not in seen, f"{w!r} and {seen[s]!r} share the stem {s!r}"
        seen[s] = w


@pytest.mark.parametrize("lang", LANGS)
def test_deck_has_no_word_inside_another(lang):
    words = [w for w in deck(lang).words if len(w) >= 3]
    clashes = [(a, b) for a in words for b in words if a != b and a in b]
    assert not clashes


@pytest.mark.parametrize("lang", LANGS)
def test_categories_cover_the_deck_and_are_clean_clues(lang):
    d = deck(lang)
    members = [w for ws in d.categories.values() for w in ws]
    assert sorted(members) == sorted(d.words)
    checker = Checker(d.words, lang, hyphen=False)
    for name, ws in d.categories.items():
        assert ws, name
        # a category name collides with no word of its deck
        assert checker.problem(name) is None, checker.problem(name)


def test_real_stems():
    assert stem("horses", "en") == stem("horse", "en")
    assert stem("hästar", "sv") == stem("häst", "sv")
    assert stem("bilarna", "sv") == stem("bil", "sv")


def test_parse_deck_reads_categories_and_comments():
    d = parse_deck("# a comment\n#: Animal\nHorse\n\n  tiger \n#: fruit\nlemon\n")
    assert d.words == ("horse", "tiger", "lemon")
    assert d.categories == {"animal": ("horse", "tiger"), "fruit": ("lemon",)}


# --- a user's own list ----------------------------------------------------------------

WORDS25 = [f"word{chr(97 + i)}x" for i in range(25)]


def test_user_words_normalised():
    raw = ["  HÄST ", "# comment", "", *WORDS25[1:]]
    out = user_words(raw)
    assert out[0] == "häst"
    assert len(out) == 25


def test_user_words_nfc_duplicates_are_refused():
    raw = ["häst", "ha\u0308st", *WORDS25[2:]]
    with pytest.raises(InvalidOption, match="listed twice"):
        user_words(raw)


@pytest.mark.parametrize(
    "bad, message",
    [
        ("ice cream", "hyphen"),
        ("r2d2", "not one word"),
        ("x", "too short"),
        ("pass", "notation keyword"),
        ("a-b-c", "more than one hyphen"),
    ],
)
def test_user_words_refused(bad, message):
    with pytest.raises(InvalidOption, match=message):
        user_words([bad, *WORDS25])


def test_user_words_need_25():
    with pytest.raises(InvalidOption, match="at least 25"):
        user_words(WORDS25[:24])


def test_user_words_allow_one_hyphen():
    assert user_words(["ice-cream", *WORDS25])[0] == "ice-cream"


def test_words_option_as_list_and_as_text():
    assert GAME.options({"words": WORDS25}).words == WORDS25
    assert GAME.options({"words": "\n".join(WORDS25)}).words == WORDS25
    assert GAME.options({"words": ",".join(WORDS25)}).words == WORDS25
    with pytest.raises(InvalidOption, match="expected a list") as err:
        GAME.options({"words": "my-words.txt"})
    assert "FILE" in (err.value.hint or "")
