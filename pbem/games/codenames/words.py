"""Words: normalisation, stemming and the word decks.

One normaliser serves the decks, the grid, the clues and the guesses, so a
word typed in any case or Unicode form means one thing: `normalise` applies
Unicode NFC, casefolds and trims.

A *token* (a codename or a clue) is made of Latin letters (a-z, accented
letters such as é ü å ä ö, and the Nordic and German letters æ ø œ ß þ ð),
digits and at most one internal hyphen.

`fold` gives the form every comparison of the clue checks uses:

* a letter the game's language counts as its own stays (Swedish å ä ö);
* an accented a-z letter loses its accents (Unicode NFKD without the
  combining marks): ``café`` compares as ``cafe``, and in English ``å`` as
  ``a``; æ ø œ ß þ ð become ae o oe ss th d (Swedish: æ ø become ä ö);
* a *look-alike* (a character that Unicode's confusables data pairs with a
  plain letter: dotless ``ı``, Cyrillic ``о``, ``ƚ``, fullwidth ``ｉ``)
  becomes the letter it imitates, and is reported, so the checks can refuse
  it: such a clue only hides a word from the eye. The table is generated
  from Unicode's data (``data/confusables-latin.txt``, made and refreshed by
  ``tools/make_confusables.py``).

Decks ship as data files (``data/words.<lang>.txt``), one word per line;
``#`` starts a comment and a ``#: name`` line names a category, which the
built-in bots use as an association (the category name is a clue for the
words under it). A user's own list (option ``words``) replaces the deck; it
must hold at least 25 distinct words after normalisation.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import unicodedata
from collections.abc import Iterable

import msgspec

from pbem.errors import InvalidOption

LANGUAGES = {"en": "english", "sv": "swedish"}
GRID_SIZE = 25

#: notation keywords that a user's word may not be (they end a guess list or
#: stand for "no cover"); our own decks avoid them too.
RESERVED = frozenset({"pass", "passa", "none", "ingen"})


def _data(name: str) -> str:
    """A data file of the package (through its loader, so a zipped install
    works too; `importlib.resources` would load tempfile and shutil)."""
    data = pkgutil.get_data("pbem.games.codenames", f"data/{name}")
    if data is None:  # pragma: no cover - a loader without get_data
        raise FileNotFoundError(f"pbem.games.codenames: data/{name}")
    return data.decode("utf-8")


def normalise(text: str) -> str:
    """NFC, casefold, trim: the one form every word is compared in."""
    return unicodedata.normalize("NFC", text).casefold().strip()


ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
#: letters beyond a-z that a language counts as letters of its own (never folded)
OWN_LETTERS = {"en": frozenset(), "sv": frozenset("åäö")}
#: Latin letters without a canonical decomposition, and their plain spelling
VARIANTS = {"æ": "ae", "ø": "o", "œ": "oe", "ß": "ss", "þ": "th", "ð": "d"}
#: ... where a language spells them with letters of its own
LANGUAGE_VARIANTS = {"sv": {"æ": "ä", "ø": "ö"}}


@functools.cache
def lookalikes() -> dict[str, str]:
    """Look-alike character -> the a-z letter it imitates (package data)."""
    text = _data("confusables-latin.txt")
    table: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            _, ch, base = line.split("\t")
            table[ch] = base
    return table


def _plain(ch: str, form: str) -> str:
    return "".join(c for c in unicodedata.normalize(form, ch) if not unicodedata.combining(c))


def fold_char(ch: str, language: str) -> tuple[str, bool]:
    """(how `ch` compares, whether it is a look-alike) in `language`.
    A character that is no letter at all is returned as it is."""
    if ch in ASCII_LETTERS or ch in OWN_LETTERS.get(language, ()) or ch.isdigit() or ch == "-":
        return ch, False
    accentless = _plain(ch, "NFD")
    if accentless != ch and accentless and all(c in ASCII_LETTERS for c in accentless):
        return accentless, False  # an accented letter: é ü (and å ä ö outside Swedish)
    variant = LANGUAGE_VARIANTS.get(language, {}).get(ch) or VARIANTS.get(ch)
    if variant:
        return variant, False
    table = lookalikes()
    if ch in table:
        return table[ch], True
    compat = _plain(ch, "NFKD").casefold()
    if compat != ch and compat and all(c in ASCII_LETTERS for c in compat):
        return compat, True  # fullwidth, mathematical and ligature forms
    return ch, False


class Folded(msgspec.Struct, frozen=True):
    """A word as the clue checks compare it, and the look-alikes it held
    (each as the character and the letter it imitates)."""

    text: str
    lookalikes: tuple[tuple[str, str], ...] = ()


@functools.lru_cache(maxsize=1 << 14)
def fold(word: str, language: str) -> Folded:
    """`word` (normalised) folded for comparison (see the module docstring)."""
    out: list[str] = []
    seen: list[tuple[str, str]] = []
    for ch in word:
        base, lookalike = fold_char(ch, language)
        out.append(base)
        if lookalike and (ch, base) not in seen:
            seen.append((ch, base))
    return Folded("".join(out), tuple(seen))


def is_letter(ch: str) -> bool:
    """A letter a token may hold: a-z, an accented Latin letter or one of
    æ ø œ ß þ ð (look-alikes are not letters: see `lookalike_problem`)."""
    if ch in ASCII_LETTERS:
        return True
    base, lookalike = fold_char(ch, "sv")
    return not lookalike and base != ch or ch in OWN_LETTERS["sv"]


def lookalike_problem(ch: str) -> str | None:
    """A message if `ch` is a look-alike of a plain letter, else None."""
    base, lookalike = fold_char(ch, "en")
    if not lookalike:
        return None
    name = unicodedata.name(ch, "")
    return (
        f"it spells {base!r} with the look-alike {ch!r} (U+{ord(ch):04X}{' ' + name if name else ''}): "
        "write plain letters"
    )


def token_problem(word: str, *, hyphen: bool, digits: bool = True) -> str | None:
    """Why `word` (already normalised) is not one token, or None if it is."""
    if not word:
        return "it is empty"
    if any(ch.isspace() for ch in word):
        return "it is more than one word"
    for ch in word:
        if ch == "-":
            continue
        if is_letter(ch) or (digits and "0" <= ch <= "9"):
            continue
        lookalike = lookalike_problem(ch)
        if lookalike:
            return lookalike
        return f"it contains {ch!r} (only letters, digits and a hyphen are allowed)"
    if "-" in word:
        if not hyphen:
            return "it contains a hyphen (allowed only with option hyphen=true)"
        if word.count("-") > 1:
            return "it contains more than one hyphen"
        if word.startswith("-") or word.endswith("-"):
            return "a hyphen must stand between two parts"
    return None


@functools.cache
def _stemmer(language: str):
    """The Snowball stemmer of one language, loaded on first use.

    `import snowballstemmer` executes a package `__init__` that imports the
    stemmers of all its languages (about 20 ms); a game needs one. So the
    package's folder is mounted under a private name (a package module with
    its `__path__` and no `__init__` run) and only that language's module
    (with the two helpers it imports) is loaded from it. The real
    `snowballstemmer` in `sys.modules` is left alone. Should the package
    ever change its layout, the ordinary import is used instead.
    """
    name = LANGUAGES[language]
    try:
        module = importlib.import_module(f"{_mount_snowball()}.{name}_stemmer")
        cls = getattr(module, "".join(part.title() for part in name.split("_")) + "Stemmer")
    except (ImportError, AttributeError):  # pragma: no cover - another layout
        import snowballstemmer

        return snowballstemmer.stemmer(name)
    return cls()


def _mount_snowball() -> str:
    """Register snowballstemmer's folder as the package `_pbem_snowball`
    without running its `__init__` (see `_stemmer`); returns the name."""
    import importlib.util
    import sys
    import types

    name = "_pbem_snowball"
    if name not in sys.modules:
        spec = importlib.util.find_spec("snowballstemmer")  # finds, does not execute
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("snowballstemmer is not installed")
        package = types.ModuleType(name)
        package.__path__ = list(spec.submodule_search_locations)
        package.__package__ = name
        sys.modules[name] = package
    return name


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str, language: str) -> str:
    """The Snowball stem of a normalised word in the game's language
    (cached: replaying a game checks every clue against the grid again)."""
    return _stemmer(language).stemWord(word)


class Deck(msgspec.Struct, frozen=True):
    """A word deck: its words in file order and its categories (name -> words)."""

    words: tuple[str, ...]
    categories: dict[str, tuple[str, ...]]


def parse_deck(text: str) -> Deck:
    """Read a deck file (see the module docstring)."""
    words: list[str] = []
    categories: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#:"):
            name = normalise(line[2:])
            current = categories.setdefault(name, [])
            continue
        if line.startswith("#"):
            continue
        word = normalise(line)
        words.append(word)
        if current is not None:
            current.append(word)
    return Deck(tuple(words), {k: tuple(v) for k, v in categories.items()})


@functools.cache
def deck(language: str) -> Deck:
    """The built-in deck of `language` (read once from the package data)."""
    if language not in LANGUAGES:
        raise InvalidOption(f"unknown language {language!r} (languages: {', '.join(LANGUAGES)})")
    text = _data(f"words.{language}.txt")
    return parse_deck(text)


def user_words(raw: Iterable[str], what: str = "words") -> list[str]:
    """Check and normalise a user's own word list (option ``words``).

    Blank lines and lines starting with ``#`` are skipped, so the CLI may
    pass a file's lines as they are. Each word must be one token of letters
    (one internal hyphen allowed: write ``ice-cream`` for "ice cream"), at
    least two letters long, and not a notation keyword; the list needs at
    least 25 distinct words. Raises `InvalidOption`.
    """
    out: list[str] = []
    seen: set[str] = set()
    for line in raw:
        if not isinstance(line, str):
            raise InvalidOption(f"{what}: expected text, got {line!r}")
        word = normalise(line)
        if not word or word.startswith("#"):
            continue
        problem = token_problem(word, hyphen=True, digits=False)
        if problem:
            hint = " (join the parts with a hyphen)" if " " in word else ""
            raise InvalidOption(f"{what}: {word!r} is not one word: {problem}{hint}")
        if len(word.replace("-", "")) < 2:
            raise InvalidOption(f"{what}: {word!r} is too short (two letters at least)")
        if word in RESERVED:
            raise InvalidOption(
                f"{what}: {word!r} is a notation keyword ({', '.join(sorted(RESERVED))}); leave it out"
            )
        if word in seen:
            raise InvalidOption(f"{what}: {word!r} is listed twice")
        seen.add(word)
        out.append(word)
    if len(out) < GRID_SIZE:
        raise InvalidOption(f"{what}: a word list needs at least {GRID_SIZE} distinct words, got {len(out)}")
    return out
