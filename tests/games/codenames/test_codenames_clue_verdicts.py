"""Clue verdicts as players judge them: invalid (always refused) and
objectionable (refused under clue_review=auto, judged by the opposing
spymaster under clue_review=opponent), with real Swedish and English words."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalCommand
from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codenames import GAME
from pbem.games.codenames.clues import INVALID, OBJECTIONABLE, Checker
from pbem.games.codenames.words import deck, fold

SV = ["ek", "ko", "ost", "mus", "fotboll", "flicka", "kyrka", "häst", "segelbåt"]
EN = ["hat", "cow", "lizard", "lemon", "sunflower", "firetruck", "horse", "ox"]


def verdict(clue, lang):
    return Checker(SV if lang == "sv" else EN, lang, hyphen=True).judge(clue)


def test_our_swedish_deck_has_the_two_letter_words():
    assert {"ek", "ko", "ost"} <= set(deck("sv").words)
    assert {"hat", "cow"} <= set(deck("en").words)


@pytest.mark.parametrize(
    "clue, lang, collides, why",
    [
        # the same word, in any spelling
        ("ek", "sv", "ek", "the visible codename"),
        ("Häst", "sv", "häst", "the visible codename"),
        ("fot-boll", "sv", "fotboll", "another spelling"),
        ("fire-truck", "en", "firetruck", "another spelling"),
        # the same stem, and forms the stemmer leaves alone
        ("hästarna", "sv", "häst", "same stem"),
        ("fotbollar", "sv", "fotboll", "same stem"),
        ("segelbåtar", "sv", "segelbåt", "same stem"),
        ("kor", "sv", "ko", "a form of"),
        ("eken", "sv", "ek", "a form of"),
        ("ekar", "sv", "ek", "a form of"),
        ("horses", "en", "horse", "same stem"),
        ("oxen", "en", "ox", "a form of"),
        ("lemons", "en", "lemon", "same stem"),
        # look-alike spellings of a visible word
        ("l\u0131zard", "en", "lizard", "look-alike spelling"),  # dotless i
        ("\u019aemon", "en", "lemon", "look-alike spelling"),  # l with bar
        ("h\u0430t", "en", "hat", "look-alike spelling"),  # Cyrillic a
        ("\u0435k", "sv", "ek", "look-alike spelling"),  # Cyrillic e
        ("k\u043er", "sv", "ko", "look-alike spelling of a form"),  # Cyrillic o
    ],
)
def test_invalid(clue, lang, collides, why):
    v = verdict(clue, lang)
    assert v is not None and v.kind == INVALID, v
    assert v.word == collides and why in v.reason and repr(collides) in v.reason


@pytest.mark.parametrize(
    "clue, why",
    [
        ("\u0131ce", "look-alike"),  # no visible word, still a disguise
        ("\uff4fcean", "look-alike"),  # fullwidth o
        ("ice cream", "more than one word"),
        ("x", "single letter"),
        ("å", "single letter"),
    ],
)
def test_invalid_whatever_is_visible(clue, why):
    v = verdict(clue, "en")
    assert v is not None and v.kind == INVALID and why in v.reason


@pytest.mark.parametrize(
    "clue, lang, collides, why",
    [
        # a visible word (two letters too) as the first part, linking letters included
        ("ekollon", "sv", "ek", "first part is the visible codename"),
        ("ekbord", "sv", "ek", "first part is the visible codename"),
        ("koskälla", "sv", "ko", "first part is the visible codename"),  # ko-s-källa
        ("flickskola", "sv", "flicka", "first part is the visible codename"),  # dropped final vowel
        ("kyrkogård", "sv", "kyrka", "first part is the visible codename"),  # kyrk-o-gård
        ("cowbell", "en", "cow", "first part is the visible codename"),
        # ... as the last part
        ("brandbil", "sv", None, None),  # (no bil visible here: clean)
        ("mögelost", "sv", "ost", "last part is the visible codename"),
        ("top-hat", "en", "hat", "its part 'hat'"),
        ("tophats", "en", "hat", "last part is the visible codename"),
        # the clue, or an inflected form of it, as a part of a visible compound
        ("bollar", "sv", "fotboll", "last part of the visible compound"),  # plural of the last part
        ("båtar", "sv", "segelbåt", "last part of the visible compound"),
        ("fötter", "sv", None, None),  # an irregular plural: left to the table
        ("flowers", "en", "sunflower", "last part of the visible compound"),  # plural of the last part
        ("trucks", "en", "firetruck", "last part of the visible compound"),
        ("suns", "en", "sunflower", "first part of the visible compound"),
        # a substring that may be a coincidence
        ("post", "sv", "ost", "contains the visible codename"),
        ("kost", "sv", "ost", "contains the visible codename"),
        ("musik", "sv", "mus", "contains the visible codename"),
        ("what", "en", "hat", "contains the visible codename"),
        ("coward", "en", "cow", "visible codename 'cow'"),
        ("emon", "en", "lemon", "lies inside the visible codename"),
    ],
)
def test_objectionable(clue, lang, collides, why):
    v = verdict(clue, lang)
    if collides is None:
        assert v is None, v
        return
    assert v is not None and v.kind == OBJECTIONABLE, v
    assert v.word == collides and why in v.reason


@pytest.mark.parametrize(
    "clue, lang",
    [
        ("eko", "sv"),  # ek + one letter: no compound, too short for a substring
        ("hav", "sv"),
        ("skog", "sv"),
        ("rektor", "sv"),  # ek inside: a two-letter word is not looked for inside clues
        ("choklad", "sv"),
        ("ocean", "en"),
        ("boxer", "en"),  # ox inside
        ("café", "en"),
        ("1066", "en"),
    ],
)
def test_clean(clue, lang):
    assert verdict(clue, lang) is None


def test_swedish_letters_are_letters_and_accents_are_variants():
    assert fold("åsna", "sv").text == "åsna"
    assert fold("åsna", "en").text == "asna"
    assert fold("armé", "sv").text == "arme"
    assert fold("smørrebrød", "sv").text == "smörrebröd"
    assert fold("l\u0131zard", "en").lookalikes == (("\u0131", "i"),)
    # å ä ö are not variants of a and o in Swedish: hast is not häst
    assert Checker(["häst"], "sv", False).judge("hast") is None
    assert Checker(["hast"], "en", False).judge("häst").kind == INVALID


# --- in play ----------------------------------------------------------------------

GRID = (
    "ek ko ost mus fotboll flicka kyrka häst segelbåt tiger "
    "lejon zebra giraff elefant apa kanin ekorre varg räv kamel "
    "råtta hjort älg utter bäver"
).split()
KEY = "rrrrrrrrr bbbbbbbb nnnnnnn x"
SEATS = [SeatSpec("ann", "red-spymaster"), SeatSpec("bob", "red"),
         SeatSpec("cat", "blue-spymaster"), SeatSpec("dan", "blue")]


def new(**opts):
    options = GAME.options({"grid": GRID, "key": KEY, "language": "sv", **opts})
    return GAME.setup(options, GAME.seats(options, SEATS), RandomChance(0))


def clue(state, text):
    return GAME.apply(state, "ann", GAME.presentation.parse(text, state, "ann"), RandomChance(0))


@pytest.mark.parametrize("text", ["clue ekollon 1", "clue post 2", "clue bollar 1", "clue koskälla 1"])
def test_auto_review_refuses_objectionable_clues_with_a_hint(text):
    st = new()
    with pytest.raises(IllegalCommand) as err:
        clue(st, text)
    assert "objectionable" in err.value.message
    assert "clue_review=opponent" in (err.value.hint or "")


@pytest.mark.parametrize("text", ["clue kor 1", "clue hästar 1", "clue \u0435k 1"])
def test_opponent_review_still_refuses_invalid_clues(text):
    with pytest.raises(IllegalCommand, match="not allowed"):
        clue(new(clue_review="opponent"), text)


def test_opponent_judges_an_objectionable_clue_and_may_accept_it():
    st = clue(new(clue_review="opponent"), "clue post 2")
    turn = st.history[-1]
    assert turn.status == "pending" and "contains the visible codename 'ost'" in turn.concern
    view = GAME.view(st, "cat")
    assert view.to_act == ["cat"] and "'ost'" in view.prompt
    assert "checks: clue 'post' is objectionable" in GAME.presentation.render(view)
    # the operatives see the reason too (it is public), never the key
    assert "'ost'" in GAME.presentation.render(GAME.view(st, "bob"))
    st = GAME.apply(st, "cat", GAME.presentation.parse("accept", st, "cat"), RandomChance(0))
    assert st.phase == "guess" and st.history[-1].status == "accepted"


def test_opponent_may_object_to_it():
    st = clue(new(clue_review="opponent"), "clue ekbord 1")
    st = GAME.apply(st, "cat", GAME.presentation.parse("object", st, "cat"), RandomChance(0))
    assert st.phase == "penalty" and st.history[-1].status == "objected"


def test_a_clean_clue_has_no_concern():
    st = clue(new(clue_review="opponent"), "clue djur 2")
    assert st.history[-1].concern is None


def test_legal_clues_are_clean():
    st = new(clue_review="opponent")
    checker = Checker([w for w in GRID], "sv", False)
    for command in GAME.legal(st, "ann"):
        assert checker.judge(command.word) is None
