"""The rules' quick paths (issue #26) say what the slow definitions say.

Each quick path is held to the definition it stands for, over states from
bot playouts and over every candidate the definition filters:

* Codenames: `Checker.clean` (remembered pair tests) is ``judge(...) is None``,
  whatever checkers asked before;
* Dark Agent: `is_move` and `can_move` are membership in and emptiness of
  `moves`; `_uses` lists exactly the candidates `use_problem` passes;
* every game's `thaw` shares nothing the rules change in place with the state
  it copies (only frozen values, fields the rules replace whole, and zones
  until `own_zone` copies them), and a playout never changes a state it has
  left behind.
"""

from __future__ import annotations

import random
from itertools import product

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies

from pbem.games import agent_avenue, codenames, dark_agent
from pbem.games.base import RandomChance, SeatSpec, Zone, own_zone, settle_zones, share_zones
from pbem.games.codenames import clues
from pbem.games.codenames import state as cn_state
from pbem.games.codenames.clues import Checker
from pbem.games.codenames.words import deck, normalise
from pbem.games.dark_agent import legal as da_legal
from pbem.games.dark_agent import problems as da_problems
from pbem.games.dark_agent import readers as da_readers
from pbem.games.dark_agent import satellites as da_satellites
from pbem.games.dark_agent.commands import Move, Swap, Use
from pbem.games.dark_agent.state import CELLS, LINES, SLOTS

AA, CN, DA = agent_avenue.GAME, codenames.GAME, dark_agent.GAME


def _states(game, options, seats, seeds, bot="random"):
    """(state, seat to act) at every step of seeded playouts."""
    options = game.options(options)
    specs = game.seats(options, [SeatSpec(*(s.split(":") + [None])[:2]) for s in seats])
    for seed in seeds:
        chance, rng = RandomChance(random.Random(seed)), random.Random(seed)
        st = game.advance(game.setup(options, specs, chance), chance)
        while game.outcome(st) is None:
            who = game.to_act(st)[0]
            yield st, who
            st = game.advance(game.apply(st, who, game.presentation.bots[bot](game, st, who, rng), chance), chance)
        yield st, None


# --- Codenames: remembered pair tests ------------------------------------------------


TRICKY = {
    "en": ["horses", "oxen", "l\u0131zard", "h\u0430t", "fire-truck", "firetrucks", "sunflowers", "what",
           "cowboy", "lemonade", "7", "x", "10", "ice-cream", "sea-horse", "horse-shoe", "-ice", "a-b-c"],
    "sv": ["kor", "eken", "hästarna", "fotbollar", "kosskälla", "flickskola", "kyrkogård", "post", "kost",
           "musik", "bollar", "segelbåtar", "\u0435k", "k\u043er", "ost-bit", "3"],
}


#: visible words that are parts of the tricky clues (tests/games/codenames/test_codenames_clue_verdicts.py)
COMPOUNDS = {"en": ["hat", "cow", "lizard", "lemon", "sunflower", "firetruck", "horse", "ox", "ice", "sea"],
             "sv": ["ek", "ko", "ost", "mus", "fotboll", "flicka", "kyrka", "häst", "segelbåt", "källa", "skola"]}


@pytest.mark.parametrize("language", ["en", "sv"])
@pytest.mark.parametrize("hyphen", [False, True])
def test_clean_is_judge_finding_nothing(language, hyphen):
    d = deck(language)
    words = list(d.words)
    rng = random.Random(f"{language}{hyphen}")
    clues = list(d.categories) + rng.sample(words, 60) + TRICKY[language]
    for _ in range(6):  # several visible sets, so remembered pairs are reused across checkers
        visible = rng.sample(words, 25) + TRICKY[language][:3] + COMPOUNDS[language]
        for shown in (visible, visible[:9]):
            checker = Checker(shown, language, hyphen)
            for clue in clues + shown[:5]:
                assert checker.clean(clue) == (checker.judge(clue) is None), (clue, shown)


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_compound_prefilter_lets_every_compound_through(language):
    """`_may_compound` is False only where `_compound` finds nothing: over
    every pair of a deck word (or a tricky clue) and a deck word."""
    d = deck(language)
    visible = list(d.words) + COMPOUNDS[language]
    found = 0
    for clue in list(d.words) + TRICKY[language] + COMPOUNDS[language]:
        _, flat, flat_stem, parts = clues._read(normalise(clue), language)
        for v in visible:
            _, fv, sv, _ = clues._read(v, language)
            if clues._compound(flat, flat_stem, parts, v, fv, sv, language):
                found += 1
                assert clues._may_compound(flat, flat_stem, parts, fv, sv), (clue, v)
    assert found > 20


_letters = strategies.text("abeo", max_size=7)


@settings(max_examples=400, deadline=None)
@given(strategies.sampled_from(["en", "sv"]), _letters, _letters, _letters, _letters)
@example("en", "aaa", "bb", "bbeee", "oo")  # the visible word starts as the clue's stem, not as the clue
def test_the_compound_prefilter_holds_for_any_words_and_stems(language, flat, flat_stem, fv, sv):
    """The same over arbitrary strings: a real stem keeps its word's first
    letters, so over deck words the prefilter's two tests of first letters
    stand in for each other; here a stem may be any string."""
    if clues._compound(flat, flat_stem, (), "v", fv, sv, language):
        assert clues._may_compound(flat, flat_stem, (), fv, sv)


# --- Dark Agent: moves without listing them, uses by kind -----------------------------


class _Sats:
    def __init__(self, sats):
        self.sats = sats


def _configurations(n: int, rng: random.Random):
    owners = ["ann", "bob", "cat", ""]
    for _ in range(n):
        lines = [[] for _ in range(LINES)]
        for _ in range(rng.randrange(1, LINES * SLOTS + 1)):
            room = [i for i in range(LINES) if len(lines[i]) < SLOTS]
            lines[rng.choice(room)].append(rng.choice(owners))
        yield lines


def test_is_move_and_can_move_agree_with_the_list_of_moves():
    rng = random.Random(5)
    span = range(-1, LINES + 1)
    fixed = ([Move([(a, b)]) for a, b in product(span, span)] + [Move([]), Move([(0, 1), (1, 2), (2, 3)])]
             + [Swap(a, b, o) for a, b in product(span, span) for o in ("ann", "bob", "cat", "")])
    twos = [Move([(a, b), (c, d)]) for a, b, c, d in product(range(LINES), repeat=4)]
    for sats in _configurations(80, rng):
        state = _Sats(sats)
        for seat in ("ann", "bob"):
            listed = da_satellites.moves(state, seat)
            assert da_satellites.can_move(state, seat) == bool(listed)
            listed_wire = {msgspec.json.encode(cmd) for cmd in listed}  # equal commands, equal bytes
            for cmd in fixed + listed + rng.sample(twos, 150):
                assert da_satellites.is_move(state, seat, cmd) == (msgspec.json.encode(cmd) in listed_wire), (sats, seat, cmd)


def _uses_by_definition(state, seat):
    """Every candidate of the old enumeration that `use_problem` passes."""
    out, seen = [], set()
    for it in sorted(state.zones[f"hand:{seat}"].items, key=lambda i: (len(i.ref), i.ref)):
        card = it.card
        if card in seen:
            continue
        seen.add(card)
        kind = da_readers.idx(state).entry[card].effect.kind
        mine = sorted(c for s, c in state.spy_cell.items() if c >= 0 and s.rpartition("/")[0] == seat)
        args = {"adrenaline": [[c] for c in mine], "investigate": [[c] for c in range(CELLS)],
                "jetpack": [[m, o] for m in mine for o in range(CELLS) if o != m]}.get(kind, [[]])
        out += [Use(it.ref, a) for a in args if da_problems.use_problem(state, seat, Use(it.ref, a)) is None]
    return out


@pytest.mark.parametrize("seats", [2, 4])
def test_uses_are_the_candidates_use_problem_passes(seats):
    checked = 0
    for st, who in _states(DA, {"rounds": "12"}, ["ann", "bob", "cat", "dan"][:seats], range(3)):
        if who is None or st.phase != "act":
            continue
        doctored = [st, msgspec.structs.replace(st, adrenaline=list(st.spy_cell)[::2], star_used=not st.star_used)]
        for seat, state in product(st.seats, doctored):  # every seat, whatever its hand
            assert da_legal._uses(state, seat) == _uses_by_definition(state, seat)
            checked += bool(state.zones[f"hand:{seat}"].items)
    assert checked > 50


# --- copies that share only what nobody changes --------------------------------------------


def _mutables(value, skip_fields=frozenset(), out=None, top=True):
    """ids of every list, dict and unfrozen Struct reachable from `value`
    (a frozen Struct is a value: what it holds is never changed)."""
    out = {} if out is None else out
    if isinstance(value, msgspec.Struct) and value.__struct_config__.frozen:
        return out
    if isinstance(value, (list, dict, msgspec.Struct)):
        out[id(value)] = value
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            if not (top and name in skip_fields):
                _mutables(getattr(value, name), skip_fields, out, False)
    elif isinstance(value, dict):
        for v in value.values():
            _mutables(v, skip_fields, out, False)
    elif isinstance(value, list):
        for v in value:
            _mutables(v, skip_fields, out, False)
    return out


CASES = [
    (AA, agent_avenue.state, {"mode": "advanced"}, ["ann:green", "bob:blue", "cat:green", "dan:blue"], {"zones"}),
    (AA, agent_avenue.state, {}, ["ann", "bob"], {"zones"}),
    (DA, dark_agent.state, {"rounds": "6"}, ["ann", "bob", "cat"], {"zones"}),
    (CN, cn_state, {}, ["ann:red-spymaster", "bob:red", "cat:blue-spymaster", "dan:blue"], {"history"}),
    (CN, cn_state, {"variant": "duet"}, ["ann:a", "bob:b"], {"history"}),
]


@pytest.mark.parametrize("game, module, options, seats, apart", CASES, ids=lambda v: getattr(v, "name", None))
def test_thaw_shares_nothing_the_rules_change(game, module, options, seats, apart):
    """`apart`: fields whose sharing is checked on their own (zones: until
    owned; Codenames' history: every turn but the current one)."""
    replaced = getattr(module, "REPLACED", frozenset())
    for st, _ in _states(game, options, seats, range(2)):
        copy = module.thaw(st)
        assert msgspec.json.encode(copy) == msgspec.json.encode(st)
        shared = set(_mutables(st, replaced | apart)) & set(_mutables(copy, replaced | apart))
        assert not shared, [type(_mutables(st)[i]).__name__ for i in shared]
        if "history" in apart and st.history:
            assert copy.history is not st.history and copy.history[-1] is not st.history[-1]
            assert copy.history[-1].guesses is not st.history[-1].guesses
        if "zones" in apart:
            name = next(iter(st.zones))
            before = msgspec.json.encode(st)
            own_zone(copy, name).items.append(st.zones[name].items[0] if st.zones[name].items else None)
            own_zone(copy, name).readers.append("someone")
            assert msgspec.json.encode(st) == before
            settle_zones(copy)
            assert type(copy.zones) is dict


def test_own_zone_copies_once_and_leaves_unshared_zones_alone():
    zones = {"a": Zone(items=[], readers=["x"]), "b": Zone()}

    class S:
        pass

    s = S()
    s.zones = share_zones(zones)
    mine = own_zone(s, "a")
    assert mine is not zones["a"] and own_zone(s, "a") is mine and s.zones["b"] is zones["b"]
    mine.readers.append("y")
    assert zones["a"].readers == ["x"]
    plain = S()
    plain.zones = zones
    assert own_zone(plain, "a") is zones["a"]


PLAYOUTS = [
    (AA, {}, ["ann", "bob"]),
    (AA, {"mode": "advanced"}, ["ann", "bob"]),
    (AA, {"mode": "advanced"}, ["ann:green", "bob:blue", "cat:green"]),
    (CN, {"clue_review": "opponent"}, ["ann:red-spymaster", "bob:red", "cat:blue-spymaster", "dan:blue"]),
    (CN, {"variant": "duet"}, ["ann:a", "bob:b"]),
    (DA, {"rounds": "8"}, ["ann", "bob", "cat"]),
    (DA, {}, ["ann"]),
]


@pytest.mark.parametrize("game, options, seats", PLAYOUTS, ids=lambda v: getattr(v, "name", None))
def test_a_playout_never_changes_a_state_it_left_behind(game, options, seats):
    """States share their unchanged parts: a change made in place to one of
    them would show in the states before it."""
    for bot in sorted(game.presentation.bots):
        seen = [(st, msgspec.json.encode(st)) for st, _ in _states(game, options, seats, range(2), bot)]
        for st, data in seen:
            assert msgspec.json.encode(st) == data
