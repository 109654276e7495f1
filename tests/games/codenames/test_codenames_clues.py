"""The automatic clue checks, in English and Swedish, with real examples."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalCommand
from pbem.games.codenames.clues import Checker, check_clue

EN = ["horse", "truck", "heart", "piano", "ice-cream", "glass"]
SV = ["häst", "bil", "äpple", "båt", "sjö", "stol"]


def problem(word, visible=EN, lang="en", hyphen=False):
    return Checker(visible, lang, hyphen).problem(word)


@pytest.mark.parametrize(
    "clue, lang, collides",
    [
        ("horse", "en", "horse"),  # the visible word itself
        ("HORSE", "en", "horse"),  # case
        ("  Horse ", "en", "horse"),  # trimmed
        ("horses", "en", "horse"),  # plural: same stem
        ("trucks", "en", "truck"),
        ("pianos", "en", "piano"),
        ("firetruck", "en", "truck"),  # compound containing a visible word
        ("sweetheart", "en", "heart"),
        ("ear", "en", "heart"),  # part of a visible word
        ("glasshouse", "en", "glass"),
        ("häst", "sv", "häst"),
        ("HÄST", "sv", "häst"),  # case with å ä ö
        ("ha\u0308st", "sv", "häst"),  # decomposed ä (NFC)
        ("hästar", "sv", "häst"),  # plural: same stem
        ("bilen", "sv", "bil"),  # definite form
        ("bilarna", "sv", "bil"),
        ("brandbil", "sv", "bil"),  # compound
        ("äpplen", "sv", "äpple"),
        ("äppleträd", "sv", "äpple"),
        ("båtar", "sv", "båt"),
        ("segelbåt", "sv", "båt"),
        ("sjöar", "sv", "sjö"),
        ("stolar", "sv", "stol"),
    ],
)
def test_refused_naming_the_visible_word(clue, lang, collides):
    visible = EN if lang == "en" else SV
    msg = problem(clue, visible, lang)
    assert msg is not None, f"{clue!r} should be refused"
    assert repr(collides) in msg
    with pytest.raises(IllegalCommand, match=repr(collides)):
        check_clue(clue, visible, lang)


def test_objectionable_wording():
    assert "objectionable: it may be a compound whose last part is the visible codename 'truck'" in problem("firetruck")
    assert "objectionable: it may be a compound whose last part is the visible codename 'bil'" in problem(
        "brandbil", SV, "sv"
    )
    assert "objectionable: it lies inside the visible codename 'heart'" in problem("ear")
    assert "not allowed: same stem as the visible codename 'horse'" in problem("horses")


@pytest.mark.parametrize(
    "clue, lang",
    [
        ("ocean", "en"),
        ("Animal", "en"),
        ("saddle", "en"),
        ("1066", "en"),  # digits are a token
        ("7", "en"),  # a single digit is not a single letter
        ("hav", "sv"),
        ("fordon", "sv"),
        ("segling", "sv"),
        ("café", "en"),  # é is a letter
        ("up", "en"),  # two letters, part of no visible word
    ],
)
def test_allowed(clue, lang):
    visible = EN if lang == "en" else SV
    assert problem(clue, visible, lang) is None
    assert check_clue(clue, visible, lang) == clue.strip().casefold()


def test_short_visible_words_do_not_restrict_containment():
    # a visible word under 3 letters is not looked for inside clues
    assert problem("board", ["ox", "sea"], "en") is None
    assert problem("ox", ["ox"], "en") is not None  # but equal is still refused


def test_clue_contained_in_a_visible_word_is_refused_even_if_short():
    assert "first part of the visible compound 'heart'" in problem("he")


@pytest.mark.parametrize(
    "clue, why",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("ice cream", "more than one word"),
        ("x", "single letter"),
        ("Ö", "single letter"),
        ("hоrse", "look-alike"),  # a Cyrillic o is not a Latin letter
        ("qu\u0131z", "look-alike"),  # nor is a dotless i
        ("what?", "contains '?'"),
        ("sea-horse", "hyphen"),
    ],
)
def test_malformed(clue, why):
    msg = problem(clue, ["tiger"], "en")
    assert msg is not None and why in msg


def test_hyphen_option():
    assert problem("sea-lion", ["tiger"], "en", hyphen=False) is not None
    assert problem("sea-lion", ["tiger"], "en", hyphen=True) is None
    assert "more than one hyphen" in problem("jack-in-box", ["tiger"], "en", hyphen=True)
    assert "between two parts" in problem("-sea", ["tiger"], "en", hyphen=True)
    assert "between two parts" in problem("sea-", ["tiger"], "en", hyphen=True)
    # a hyphenated clue is still checked against the visible words
    assert "'truck'" in problem("fire-truck", EN, "en", hyphen=True)
    assert "'ice-cream'" in problem("ice-cream", EN, "en", hyphen=True)


def test_covered_words_no_longer_restrict():
    visible = [w for w in EN if w != "horse"]
    assert problem("horses", visible) is None
    assert problem("horse", visible) is None
    assert problem("brandbil", [w for w in SV if w != "bil"], "sv") is None


def test_language_decides_the_stemmer():
    # Swedish stemming joins bil/bilar; English stemming joins horse/horses
    assert problem("bilar", ["bil"], "sv") is not None
    assert problem("horses", ["horse"], "en") is not None


def test_check_returns_normalised():
    assert check_clue("  OCEAN ", EN, "en") == "ocean"
    assert check_clue("Segling", SV, "sv") == "segling"
