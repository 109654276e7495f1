"""Codenames rules: seats, set-up, clues, ordered guesses, caps, the end,
review and the variants."""

from __future__ import annotations

import msgspec
import pytest

from pbem.errors import IllegalCommand, InvalidOption
from pbem.games.base import Hidden, Known, NeedsReveal, RandomChance, SeatSpec, overlay, project
from pbem.games.codenames import GAME
from pbem.games.codenames.clues import Checker
from pbem.games.codenames.commands import Clue, Cover, Guess, Pass, Review
from pbem.games.codenames.legal import legal_clue_words
from pbem.games.codenames.words import deck

GRID = (
    "horse tiger lemon piano truck "
    "apple bridge castle dragon eagle "
    "forest glass hammer island jacket "
    "kettle ladder mirror needle orange "
    "pencil queen rocket spider tower"
).split()
KEY = "rrrrrrrrr bbbbbbbb nnnnnnn x"  # cells 0-8 red, 9-16 blue, 17-23 bystanders, 24 assassin
RED_W, BLUE_W, NEUTRAL_W, ASSASSIN_W = GRID[:9], GRID[9:17], GRID[17:24], GRID[24]

SEATS = [
    SeatSpec("ann", "red-spymaster"),
    SeatSpec("bob", "red"),  # red captain: the first red operative listed
    SeatSpec("cat", "blue-spymaster"),
    SeatSpec("dan", "blue"),  # blue captain
    SeatSpec("bea", "red"),
]


def new(seats=SEATS, **opts):
    options = GAME.options({"grid": GRID, "key": KEY, **opts})
    return GAME.setup(options, GAME.seats(options, seats), RandomChance(0))


def play(state, seat, text):
    command = GAME.presentation.parse(text, state, seat)
    state = GAME.apply(state, seat, command, RandomChance(0))
    return GAME.advance(state, RandomChance(0))


def covered(state):
    return {state.words[int(it.ref[1:])]: it.card for it in state.zones["covered"].items}


# --- seats and roles ----------------------------------------------------------------


def test_roles_are_assigned_in_order_when_none_given():
    opts = GAME.options({})
    seats = GAME.seats(opts, [SeatSpec(n) for n in "a b c d e".split()])
    assert [s.role for s in seats] == ["red-spymaster", "blue-spymaster", "red", "blue", "red"]
    coop = GAME.options({"variant": "coop"})
    assert [s.role for s in GAME.seats(coop, [SeatSpec("a"), SeatSpec("b")])] == ["red-spymaster", "red"]
    three = GAME.options({"variant": "three"})
    assert [s.role for s in GAME.seats(three, [SeatSpec(n) for n in "abc"])] == [
        "red-spymaster", "blue-spymaster", "shared",
    ]


def test_role_aliases_and_case():
    opts = GAME.options({})
    seats = GAME.seats(opts, [SeatSpec("a", "Red-Spy"), SeatSpec("b", "red-operative"),
                              SeatSpec("c", "BLUE-SPYMASTER"), SeatSpec("d", "blue")])
    assert [s.role for s in seats] == ["red-spymaster", "red", "blue-spymaster", "blue"]


@pytest.mark.parametrize(
    "variant, roles, message",
    [
        ("standard", ["red-spymaster", "red", "blue-spymaster"], "4 or more"),
        ("standard", ["red-spymaster", "red-spymaster", "blue-spymaster", "blue"], "exactly one red-spymaster"),
        ("standard", ["red-spymaster", "red", "blue-spymaster", "red"], "blue team needs at least one operative"),
        ("standard", ["red-spymaster", "red", "blue-spymaster", "shared"], "only for"),
        ("standard", ["red-spymaster", "red", "blue-spymaster", None], "every seat a role"),
        ("standard", ["red-spymaster", "red", "blue-spymaster", "green"], "unknown role"),
        ("coop", ["red-spymaster", "red", "red", "red"], "2-3 players"),
        ("coop", ["red-spymaster", "blue"], "operative of the spymaster's team"),
        ("coop", ["red-spymaster", "blue-spymaster"], "exactly one spymaster"),
        ("three", ["red-spymaster", "blue-spymaster", "red"], "shared"),
        ("three", ["red-spymaster", "blue-spymaster", "shared", "shared"], "exactly 3"),
    ],
)
def test_bad_roles(variant, roles, message):
    opts = GAME.options({"variant": variant})
    seats = [SeatSpec(f"p{i}", r) for i, r in enumerate(roles)]
    with pytest.raises(InvalidOption, match=message):
        GAME.seats(opts, seats)


def test_captain_survives_the_canonical_encoding():
    # canonical encodings sort mapping keys: the seat order must not be a mapping
    seats = [SeatSpec("zed", "red-spymaster"), SeatSpec("oli", "red"), SeatSpec("ida", "red"),
             SeatSpec("cat", "blue-spymaster"), SeatSpec("bo", "blue")]
    st = play(new(seats=seats), "zed", "clue animal 1")
    back = msgspec.json.decode(msgspec.json.encode(st, order="sorted"), type=GAME.info.State)
    assert GAME.to_act(back) == ["oli"]
    assert GAME.view(back, None).teams[0].operatives == ["oli", "ida"]


def test_duplicate_seat_names():
    with pytest.raises(InvalidOption, match="different name"):
        GAME.seats(GAME.options({}), [SeatSpec("a"), SeatSpec("a"), SeatSpec("b"), SeatSpec("c")])


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"variant": "octet"}, "unknown variant"),
        ({"variant": "duet", "clue_review": "opponent"}, "opposing spymaster"),
        ({"timer": "5"}, "variant=duet"),
        ({"variant": "duet", "timer": "0"}, "timer must be"),
        ({"variant": "duet", "guess_cap": "two"}, "guess_cap"),
        ({"variant": "duet", "first": "red"}, "a, b or empty"),
        ({"language": "de"}, "unknown language"),
        ({"clue_review": "maybe"}, "clue_review"),
        ({"variant": "coop", "clue_review": "opponent"}, "opposing spymaster"),
        ({"first": "green"}, "first"),
        ({"key": "rrrrrrrrrbbbbbbbbnnnnnnnn"}, "9 agents"),
        ({"key": "rrrrrrrrrbbbbbbbbnnnnnnnq"}, "unknown letters"),
        ({"key": "rrrr"}, "exactly 25"),
        ({"key": KEY, "first": "blue"}, "contradicts"),
        ({"grid": GRID[:24]}, "at least 25"),
        ({"grid": GRID + ["unicorn"]}, "exactly 25"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options(raw, message):
    with pytest.raises(InvalidOption, match=message):
        GAME.options(raw)


def test_coop_first_must_be_the_players_team():
    opts = GAME.options({"variant": "coop", "first": "blue"})
    with pytest.raises(InvalidOption, match="always starts"):
        GAME.seats(opts, [SeatSpec("a", "red-spymaster"), SeatSpec("b", "red")])


# --- set-up -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_setup_from_chance(seed):
    opts = GAME.options({})
    seats = GAME.seats(opts, [SeatSpec(n) for n in "abcd"])
    st = GAME.setup(opts, seats, RandomChance(seed))
    assert len(st.words) == 25 and len(set(st.words)) == 25
    assert set(st.words) <= set(deck("en").words)
    key = st.zones["key"]
    assert [it.ref for it in key.items] == [f"k{i:02d}" for i in range(25)]
    assert sorted(key.readers) == ["a", "b"] and not key.public
    assert st.zones["covered"].public and not st.zones["covered"].items
    colours = [it.card for it in key.items]
    assert colours.count(st.starting) == 9
    other = "blue" if st.starting == "red" else "red"
    assert colours.count(other) == 8 and colours.count("bystander") == 7 and colours.count("assassin") == 1
    assert st.team == st.starting
    assert GAME.to_act(st) == ["a" if st.starting == "red" else "b"]
    # the same seed gives the same game
    assert GAME.setup(opts, seats, RandomChance(seed)) == st


def test_setup_varies_with_chance():
    opts = GAME.options({})
    seats = GAME.seats(opts, [SeatSpec(n) for n in "abcd"])
    games = [GAME.setup(opts, seats, RandomChance(s)) for s in range(8)]
    assert len({tuple(g.words) for g in games}) == 8
    assert {g.starting for g in games} == {"red", "blue"}


def test_first_option_and_swedish_deck():
    opts = GAME.options({"first": "blue", "language": "sv"})
    seats = GAME.seats(opts, [SeatSpec(n) for n in "abcd"])
    st = GAME.setup(opts, seats, RandomChance(3))
    assert st.starting == "blue" and st.team == "blue"
    assert set(st.words) <= set(deck("sv").words)


def test_user_words_are_the_deck():
    words = [f"{w}x" for w in deck("en").words[:30]]
    opts = GAME.options({"words": words})
    st = GAME.setup(opts, GAME.seats(opts, [SeatSpec(n) for n in "abcd"]), RandomChance(1))
    assert set(st.words) <= set(words)


def test_scenario_key_and_grid():
    st = new()
    assert st.words == GRID and st.starting == "red"
    assert [it.card for it in st.zones["key"].items] == ["red"] * 9 + ["blue"] * 8 + ["bystander"] * 7 + ["assassin"]
    assert GAME.info.scenario_options == {"key"}
    blue = new(key="bbbbbbbbb rrrrrrrr nnnnnnn x")
    assert blue.starting == "blue" and GAME.to_act(blue) == ["cat"]


# --- clues ------------------------------------------------------------------------


def test_clue_by_the_spymaster_then_captain_guesses():
    st = play(new(), "ann", "clue animal 2")
    assert st.phase == "guess" and GAME.to_act(st) == ["bob"]
    assert st.history[-1].word == "animal" and st.history[-1].number == 2


def test_illegal_clue_names_the_word_and_changes_nothing():
    st = new()
    with pytest.raises(IllegalCommand, match="'horse'"):
        GAME.apply(st, "ann", Clue("Horses", 2), RandomChance(0))
    with pytest.raises(IllegalCommand, match="objectionable.*'truck'"):
        GAME.apply(st, "ann", Clue("firetruck", 1), RandomChance(0))
    with pytest.raises(IllegalCommand, match="one word"):
        GAME.apply(st, "ann", GAME.presentation.parse("clue big cat 1", st, "ann"), RandomChance(0))
    with pytest.raises(IllegalCommand, match="0-9 or unlimited"):
        GAME.apply(st, "ann", Clue("animal", 10), RandomChance(0))
    assert st == new()


def test_clue_hyphen_option():
    with pytest.raises(IllegalCommand, match="hyphen"):
        play(new(), "ann", "clue sea-lion 1")
    st = play(new(hyphen="true"), "ann", "clue sea-lion 1")
    assert st.history[-1].word == "sea-lion"


def test_covered_words_free_clues():
    st = play(new(), "ann", "clue animal 1")
    st = play(st, "bob", "guess horse pass")
    st = play(st, "cat", "clue bird 1")
    st = play(st, "dan", "guess eagle pass")
    st = play(st, "ann", "clue horses 1")  # horse is covered now
    assert st.history[-1].word == "horses"


def test_wrong_seat_and_wrong_command():
    st = new()
    with pytest.raises(IllegalCommand, match="waiting for the red spymaster \\(ann\\)"):
        GAME.apply(st, "cat", Clue("animal", 1), RandomChance(0))
    with pytest.raises(IllegalCommand, match="expected a clue"):
        GAME.apply(st, "ann", Guess(("horse",)), RandomChance(0))
    st = play(st, "ann", "clue animal 2")
    for seat in ("bea", "dan", "ann"):  # not the captain, the wrong team, a spymaster
        with pytest.raises(IllegalCommand, match="red captain \\(bob\\)"):
            GAME.apply(st, seat, Guess(("horse",)), RandomChance(0))


# --- guesses ------------------------------------------------------------------------


def test_guesses_resolve_in_order_and_stop_at_the_first_miss():
    st = play(new(), "ann", "clue animal 2")
    st = play(st, "bob", "guess horse eagle tiger")
    assert covered(st) == {"horse": "red", "eagle": "blue"}  # tiger dropped
    assert st.history[-1].guesses == ["horse", "eagle"] and st.history[-1].end == "miss"
    assert st.team == "blue" and st.phase == "clue" and GAME.to_act(st) == ["cat"]


def test_bystander_ends_the_turn():
    st = play(new(), "ann", "clue animal 3")
    st = play(st, "bob", "guess mirror horse")
    assert covered(st) == {"mirror": "bystander"}
    assert st.team == "blue"


def test_cap_is_number_plus_one():
    st = play(new(), "ann", "clue animal 2")
    with pytest.raises(IllegalCommand, match="too many guesses: 4 given, 3 left"):
        play(st, "bob", "guess horse tiger lemon piano")
    st = play(st, "bob", "guess horse tiger lemon")
    assert st.history[-1].end == "cap" and st.team == "blue"


def test_turn_goes_on_after_a_list_of_hits_below_the_cap():
    st = play(new(), "ann", "clue animal 3")
    st = play(st, "bob", "guess horse")
    assert st.phase == "guess" and GAME.to_act(st) == ["bob"]
    assert GAME.view(st, "bob").guesses_left == 3
    with pytest.raises(IllegalCommand, match="3 left"):
        play(st, "bob", "guess tiger lemon piano truck")
    st = play(st, "bob", "guess tiger lemon")
    assert st.phase == "guess" and GAME.view(st, "bob").guesses_left == 1
    st = play(st, "bob", "pass")
    assert st.team == "blue" and st.history[-1].end == "pass"
    assert st.history[-1].guesses == ["horse", "tiger", "lemon"]


def test_list_ending_with_pass_ends_the_turn():
    st = play(new(), "ann", "clue animal 3")
    st = play(st, "bob", "guess horse tiger pass")
    assert st.team == "blue" and st.history[-1].end == "pass"


def test_pass_needs_a_guess_first():
    st = play(new(), "ann", "clue animal 1")
    assert Pass() not in GAME.legal(st, "bob")
    with pytest.raises(IllegalCommand, match="at least one guess"):
        play(st, "bob", "pass")
    st = play(st, "bob", "guess horse")
    assert Pass() in GAME.legal(st, "bob")


@pytest.mark.parametrize("number", ["0", "unlimited"])
def test_zero_and_unlimited_lift_the_cap(number):
    st = play(new(), "ann", f"clue animal {number}")
    assert GAME.view(st, "bob").guesses_left is None
    st = play(st, "bob", "guess " + " ".join(RED_W[:8]))
    assert st.phase == "guess"
    st = play(st, "bob", f"guess {RED_W[8]}")
    assert GAME.outcome(st).winners == ["ann", "bob", "bea"]
    assert GAME.outcome(st).reason == "red found all its agents"


@pytest.mark.parametrize(
    "text, message",
    [
        ("guess unicorn", "not a codename"),
        ("guess horse horse", "twice"),
    ],
)
def test_bad_guesses(text, message):
    st = play(new(), "ann", "clue animal 2")
    with pytest.raises(IllegalCommand, match=message):
        play(st, "bob", text)


def test_guessing_a_covered_word():
    st = play(new(), "ann", "clue animal 2")
    st = play(st, "bob", "guess horse")
    with pytest.raises(IllegalCommand, match="already covered"):
        play(st, "bob", "guess HORSE")


def test_apply_never_mutates():
    st = play(new(), "ann", "clue animal 2")
    before = GAME.view(st, "ann")
    snapshot = project(st, {it.ref for z in st.zones.values() for it in z.items})
    GAME.advance(GAME.apply(st, "bob", Guess(("horse", "eagle")), RandomChance(0)), RandomChance(0))
    assert st == snapshot and GAME.view(st, "ann") == before


def test_assassin_loses_at_once():
    st = play(new(), "ann", "clue animal 2")
    st = play(st, "bob", f"guess horse {ASSASSIN_W} tiger")
    out = GAME.outcome(st)
    assert out.winners == ["cat", "dan"] and "assassin" in out.reason
    assert covered(st) == {"horse": "red", ASSASSIN_W: "assassin"}
    assert GAME.to_act(st) == [] and st.history[-1].end == "assassin"
    for seat in ("ann", "bob", "cat", "dan", "bea"):
        assert GAME.legal(st, seat) == []
    with pytest.raises(IllegalCommand, match="over"):
        GAME.apply(st, "cat", Clue("bird", 1), RandomChance(0))


def test_win_on_the_other_teams_turn():
    st = play(new(), "ann", "clue animal 0")
    st = play(st, "bob", "guess " + " ".join(RED_W[:8]) + " pass")  # red has one agent left: dragon
    st = play(st, "cat", "clue bird 1")
    st = play(st, "dan", f"guess {RED_W[8]}")  # blue uncovers red's last agent
    out = GAME.outcome(st)
    assert out.winners == ["ann", "bob", "bea"]
    assert out.reason == "blue uncovered the last red agent: red wins"


def test_own_agents_found_by_the_other_team_count():
    st = play(new(), "ann", "clue animal 1")
    st = play(st, "bob", "guess eagle")  # a blue agent, found by red
    view = GAME.view(st, None)
    assert {t.team: t.left for t in view.teams} == {"red": 9, "blue": 7}


# --- reveals: what advance needs, in order ---------------------------------------


def test_advance_needs_each_cell_in_order_and_no_more():
    full = play(new(), "ann", "clue animal 2")
    full = GAME.apply(full, "bob", Guess(("horse", "eagle", "tiger")), RandomChance(0))
    public = project(full, set())
    asked = []
    while True:
        try:
            public = GAME.advance(public, RandomChance(0))
            break
        except NeedsReveal as need:
            asked.append(need.ref)
            public = overlay(public, {need.ref: "red" if need.ref == "k00" else "blue"})
    assert asked == ["k00", "k09"]  # tiger (k01) is never revealed
    assert public == project(GAME.advance(full, RandomChance(0)), {"k00", "k09"})
    assert all(isinstance(it, Hidden) for it in public.zones["key"].items)
    assert all(isinstance(it, Known) for it in public.zones["covered"].items)


def test_a_spymasters_cover_needs_the_reveal_from_the_writer():
    st = play(new(clue_review="opponent"), "ann", "clue animal 1")
    st = play(st, "cat", "object")
    public = project(st, set())
    with pytest.raises(NeedsReveal) as need:
        GAME.apply(public, "cat", Cover("eagle"), RandomChance(0))
    assert need.value.ref == "k09"
    after = GAME.apply(overlay(public, {"k09": "blue"}), "cat", Cover("eagle"), RandomChance(0))
    assert [it.ref for it in after.zones["covered"].items] == ["k09"]


def test_to_act_is_empty_while_guesses_wait_for_reveals():
    st = play(new(), "ann", "clue animal 1")
    st = GAME.apply(st, "bob", Guess(("horse",)), RandomChance(0))
    assert st.phase == "resolve" and GAME.to_act(st) == []
    with pytest.raises(IllegalCommand, match="being revealed"):
        GAME.apply(st, "bob", Pass(), RandomChance(0))


# --- review (clue_review=opponent) ----------------------------------------------------


def test_review_accept():
    st = play(new(clue_review="opponent"), "ann", "clue animal 2")
    assert st.phase == "review" and GAME.to_act(st) == ["cat"]
    assert GAME.legal(st, "cat") == [Review("accept"), Review("object")]
    with pytest.raises(IllegalCommand, match="blue spymaster \\(cat\\) to accept or object"):
        GAME.apply(st, "bob", Guess(("horse",)), RandomChance(0))
    st = play(st, "cat", "accept")
    assert st.phase == "guess" and st.history[-1].status == "accepted" and GAME.to_act(st) == ["bob"]


def test_review_object_then_cover_own_agent():
    st = play(new(clue_review="opponent"), "ann", "clue animal 2")
    st = play(st, "cat", "object")
    assert st.history[-1].status == "objected" and st.history[-1].end == "objected"
    assert st.team == "blue" and st.phase == "penalty" and GAME.to_act(st) == ["cat"]
    legal = GAME.legal(st, "cat")
    assert legal == [Cover(w) for w in BLUE_W] + [Cover(None)]
    with pytest.raises(IllegalCommand, match="not one of your own agents"):
        play(st, "cat", "cover horse")
    st = play(st, "cat", "cover eagle")
    assert covered(st) == {"eagle": "blue"} and st.history[-1].cover == "eagle"
    assert st.phase == "clue" and GAME.to_act(st) == ["cat"]


def test_review_object_then_cover_none():
    st = play(new(clue_review="opponent"), "ann", "clue animal 2")
    st = play(play(st, "cat", "object"), "cat", "cover none")
    assert covered(st) == {} and st.phase == "clue" and st.team == "blue"


def test_penalty_cover_of_the_last_agent_wins():
    st = new(clue_review="opponent", key="bbbbbbbbb rrrrrrrr nnnnnnn x")  # blue starts
    st = play(st, "cat", "clue animal 0")
    st = play(st, "ann", "accept")
    st = play(st, "dan", "guess " + " ".join(GRID[:8]) + " pass")  # blue: 1 left
    st = play(st, "ann", "clue bird 1")
    st = play(st, "cat", "object")
    st = play(st, "cat", f"cover {GRID[8]}")
    assert GAME.outcome(st).winners == ["cat", "dan"]


# --- legal -------------------------------------------------------------------------


def test_legal_guesses_and_clues():
    st = new()
    clues = GAME.legal(st, "ann")
    assert clues and all(isinstance(c, Clue) for c in clues)
    assert GAME.legal(st, "bob") == [] and GAME.legal(st, "cat") == []
    for clue in clues:  # every offered clue is accepted
        after = GAME.apply(st, "ann", clue, RandomChance(0))
        assert after.history[-1].word == clue.word
    numbers = {c.number for c in clues}
    assert {0, 1, 2, "unlimited"} <= numbers
    st = play(st, "ann", "clue animal 1")
    assert GAME.legal(st, "bob") == [Guess((w,)) for w in GRID]


def test_legal_clue_words_always_find_enough():
    st = new()
    checker = Checker(GRID, "en", False)
    words = legal_clue_words(st, limit=2000)  # more than the vocabulary holds
    assert len(words) == 2000 and words[-1].isdigit()
    assert all(checker.problem(w) is None for w in words)


# --- coop ---------------------------------------------------------------------------

COOP = [SeatSpec("sam", "red-spymaster"), SeatSpec("oli", "red"), SeatSpec("ida", "red")]


def coop(**opts):
    return new(seats=COOP, variant="coop", **opts)


def test_coop_turn_then_ghost_cover():
    st = play(coop(), "sam", "clue animal 1")
    assert GAME.to_act(st) == ["oli"]
    with pytest.raises(IllegalCommand):
        play(st, "ida", "guess horse")  # only the captain guesses
    st = play(st, "oli", "guess horse pass")
    assert st.phase == "ghost" and GAME.to_act(st) == ["sam"]
    assert GAME.legal(st, "sam") == [Cover(w) for w in BLUE_W]
    with pytest.raises(IllegalCommand, match="ghost team"):
        play(st, "sam", "cover tiger")
    with pytest.raises(IllegalCommand, match="must have one agent covered"):
        play(st, "sam", "cover none")
    st = play(st, "sam", "cover eagle")
    assert covered(st) == {"horse": "red", "eagle": "blue"}
    assert st.phase == "clue" and st.team == "red" and GAME.to_act(st) == ["sam"]


def test_coop_lost_when_the_ghost_has_all_agents_covered():
    st = coop()
    for i in range(8):
        st = play(st, "sam", "clue animal 1")
        st = play(st, "oli", f"guess {NEUTRAL_W[i % 7] if i < 7 else RED_W[0]} pass")
        st = play(st, "sam", f"cover {BLUE_W[i]}")
    out = GAME.outcome(st)
    assert out.winners == [] and "ghost" in out.reason
    assert out.scores == {"sam": 0, "oli": 0, "ida": 0}


def test_coop_win_scores_the_uncovered_ghost_agents():
    st = play(coop(), "sam", "clue animal 0")
    st = play(st, "oli", "guess " + " ".join(RED_W[:4]) + " pass")
    st = play(st, "sam", f"cover {BLUE_W[0]}")
    st = play(st, "sam", "clue animal 0")
    st = play(st, "oli", "guess " + " ".join(RED_W[4:]))
    out = GAME.outcome(st)
    assert out.winners == ["sam", "oli", "ida"]
    assert out.scores == {"sam": 7, "oli": 7, "ida": 7} and "score 7" in out.reason


def test_coop_assassin_loses():
    st = play(coop(), "sam", "clue animal 1")
    st = play(st, "oli", f"guess {ASSASSIN_W}")
    assert GAME.outcome(st).winners == [] and GAME.outcome(st).scores == {"sam": 0, "oli": 0, "ida": 0}


def test_coop_guessing_the_ghosts_last_agent_loses():
    st = coop()
    for i in range(7):
        st = play(st, "sam", "clue animal 1")
        st = play(st, "oli", f"guess {NEUTRAL_W[i]} pass")
        st = play(st, "sam", f"cover {BLUE_W[i]}")
    st = play(st, "sam", "clue animal 1")
    st = play(st, "oli", f"guess {BLUE_W[7]}")
    assert GAME.outcome(st).winners == [] and "ghost" in GAME.outcome(st).reason


def test_coop_two_players_and_blue_team():
    seats = [SeatSpec("sam", "blue-spymaster"), SeatSpec("oli", "blue")]
    st = new(seats=seats, variant="coop", key="bbbbbbbbb rrrrrrrr nnnnnnn x")
    assert st.starting == "blue" and GAME.to_act(st) == ["sam"]
    assert st.zones["key"].readers == ["sam"]
    with pytest.raises(InvalidOption, match="players' team"):
        new(seats=seats, variant="coop")  # KEY gives red the 9 agents


# --- three players ---------------------------------------------------------------------

THREE = [SeatSpec("rex", "red-spymaster"), SeatSpec("bo", "blue-spymaster"), SeatSpec("op", "shared")]


def test_three_the_shared_operative_guesses_for_both():
    st = new(seats=THREE, variant="three")
    st = play(st, "rex", "clue animal 1")
    assert GAME.to_act(st) == ["op"]
    st = play(st, "op", "guess horse pass")
    assert GAME.to_act(st) == ["bo"]
    st = play(st, "bo", "clue bird 1")
    assert GAME.to_act(st) == ["op"]
    st = play(st, "op", f"guess {ASSASSIN_W}")
    out = GAME.outcome(st)
    assert out.winners == ["rex"]  # only the spymasters compete


def test_three_with_review():
    st = new(seats=THREE, variant="three", clue_review="opponent")
    st = play(st, "rex", "clue animal 1")
    assert GAME.to_act(st) == ["bo"]
    st = play(st, "bo", "accept")
    assert GAME.to_act(st) == ["op"]
