"""Terminal views over many bot games: every game, variant, language and
viewer (each seat and an observer), text and colour pictures.

* At most 80 terminal cells on every line (measured with rich's
  `cell_len`), for the text picture and for the colour picture printed on
  an 80-column console (the dispatcher holds it to 80 columns on a wider
  one, so that is the same picture).
* No picture of one seat depends on a card it may not see: changing every
  card in the zones the viewer may not read leaves its pictures (text, and
  colour with the escape codes) byte for byte the same.
* The words say what colour says (NO_COLOR), and the grid of the longest
  words of each deck and of a user's word list stays whole.

PBEM_LONG=1 plays more games per case.
"""

from __future__ import annotations

import io
import os
import random

import pytest
from rich.cells import cell_len
from rich.console import Console

from pbem.games import get
from pbem.games.base import COMPACT_ROWS, Known, RandomChance, SeatSpec, copy_struct
from pbem.games.codenames import words as cn_words
from pbem.render import terminal

SEEDS = range(12 if os.environ.get("PBEM_LONG") else 1)
LONG_A, LONG_B = "a" * 31 + "1", "b" * 30 + "-2"  # names are at most 32 characters
ROLES4 = ["red-spymaster", "red", "blue-spymaster", "blue"]
#: a user's word list of long words (letters, and one hyphen with hyphen=true)
LONG_WORDS = [
    "internationalisation", "photosynthesis", "incomprehensibility", "counterrevolutionary",
    "ice-cream", "sea-horse", "extraordinarily-long", "characteristically", "electroencephalograph",
    "uncharacteristically", "telecommunications", "misunderstandings", "thermodynamically",
    "responsibilities", "overcompensation", "entrepreneurships", "disproportionately",
    "interchangeability", "unconstitutionally", "multidimensionality", "hypersensitivities",
    "crystallographers", "indistinguishable", "institutionalising", "deinstitutionalised",
    "supercalifragilistic", "antidisestablishment",
]
CASES = {
    "aa": ("agent-avenue", {}, ["alice", "bob"]),
    "aa-long-names": ("agent-avenue", {}, [LONG_A, LONG_B]),
    "aa-advanced": ("agent-avenue", {"mode": "advanced"}, ["alice", "bob"]),
    "aa-advanced-long-names": ("agent-avenue", {"mode": "advanced"}, [LONG_A, LONG_B]),
    "cn-standard-en": ("codenames", {}, ["ann", "bob", "cat", "dan"]),
    "cn-standard-sv": ("codenames", {"language": "sv"}, ["ann", "bob", "cat", "dan"]),
    "cn-review-long-names": (
        "codenames", {"clue_review": "opponent", "language": "sv"},
        [SeatSpec(LONG_A, "red-spymaster"), SeatSpec(LONG_B, "red"), SeatSpec("c" * 32, "red"),
         SeatSpec("d" * 32, "blue-spymaster"), SeatSpec("e" * 32, "blue"), SeatSpec("f" * 32, "blue")],
    ),
    "cn-coop-en": ("codenames", {"variant": "coop"}, ["sam", "oli"]),
    "cn-coop-sv": ("codenames", {"variant": "coop", "language": "sv"}, ["sam", "oli", "ida"]),
    "cn-three-en": ("codenames", {"variant": "three"}, ["rex", "bo", "op"]),
    "cn-three-sv-review": ("codenames", {"variant": "three", "language": "sv", "clue_review": "opponent"}, ["rex", "bo", "op"]),
    "cn-user-long-words": ("codenames", {"words": LONG_WORDS, "hyphen": "true"}, ["ann", "bob", "cat", "dan"]),
    "cn-duet-en": ("codenames", {"variant": "duet"}, ["ann", "bob"]),
    "cn-duet-sv-long-names": ("codenames", {"variant": "duet", "language": "sv"}, [LONG_A, LONG_B]),
    "da-3": ("dark-agent", {"rounds": "1"}, ["ann", "bob", "cat"]),
    "da-solo-long-name": ("dark-agent", {"rounds": "3"}, [LONG_A]),
    "da-6-long-names": ("dark-agent", {"rounds": "1"}, [LONG_A, LONG_B, "c" * 32, "d", "e", "f"]),
    "cx-long-names": ("codex", {"first": "finesse"}, [LONG_A, LONG_B]),
}


def states(game, raw, seats, seed, bot):
    """Every state of one bot game, full knowledge (a view is computed from
    it exactly as from the seat's own state: the conformance harness checks
    that), with the names of the seats."""
    options = game.options(raw)
    specs = game.seats(options, [s if isinstance(s, SeatSpec) else SeatSpec(s) for s in seats])
    rng = random.Random(seed)
    st = game.advance(game.setup(options, specs, RandomChance(seed)), RandomChance(seed))
    names = [s.name for s in specs]
    for _ in range(400):
        yield st, names
        if game.outcome(st) is not None:
            return
        who = game.to_act(st)[0]
        command = game.presentation.bots[bot](game, st, who, rng)
        st = game.advance(game.apply(st, who, command, RandomChance(rng.random())), RandomChance(rng.random()))
    raise AssertionError("the bot game did not end")


def bot_for(game, seed):
    if game.info.name == "codex":
        return "greedy"  # random Codex games run past the 400 states looked at
    return "spymaster" if game.info.name == "codenames" and seed % 2 else "random"


def rich_text(game, view, width=80, styles=False) -> str:
    con = Console(width=width, record=True, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    con.print(terminal.renderable(game, view))
    return con.export_text(styles=styles)


def too_wide(text: str, limit: int = 80) -> list[str]:
    return [line for line in text.splitlines() if cell_len(line) > limit]


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_view_fits_80_columns(case, seeds=SEEDS):
    name, raw, seats = CASES[case] if isinstance(case, str) else case
    game = get(name)
    seen = 0
    for seed in seeds:
        for i, (st, names) in enumerate(states(game, raw, seats, seed, bot_for(game, seed))):
            for viewer in [*names, None]:
                view = game.view(st, viewer)
                text = game.presentation.render(view)
                assert not too_wide(text), (case, seed, viewer, too_wide(text))
                small = game.presentation.compact(view)  # `pbem play`'s board: a dozen lines at most
                assert not too_wide(small) and len(small.splitlines()) <= COMPACT_ROWS, (case, viewer, small)
                if i % 3 and game.outcome(st) is None:
                    continue  # the colour picture on every third state (and the last): it is slower
                coloured = rich_text(game, view)
                assert not too_wide(coloured), (case, seed, viewer, too_wide(coloured))
                seen += 1
    assert seen


#: the team variant (3-4 seats: more viewers, longer games): one game each
#: in CI, a dozen in long mode
TEAM_SEEDS = range(12 if os.environ.get("PBEM_LONG") else 1)


def test_team_views_fit_80_columns_with_long_names():
    test_every_view_fits_80_columns(("agent-avenue", {"mode": "advanced"}, [LONG_A, LONG_B, "c" * 32]), TEAM_SEEDS)


def test_no_team_view_shows_a_teammates_cards():
    test_no_terminal_view_shows_a_card_its_viewer_may_not_see(
        ("agent-avenue", {"teams": "2v2"}, ["alice", "bob", "carol", "dave"]), TEAM_SEEDS
    )


@pytest.mark.parametrize("language", sorted(cn_words.LANGUAGES))
def test_the_longest_words_of_each_deck_keep_the_grid_whole(language):
    game = get("codenames")
    longest = sorted(cn_words.deck(language).words, key=lambda w: (-len(w), w))[:25]
    options = game.options({"language": language, "grid": longest})
    st = game.setup(options, game.seats(options, [SeatSpec(n) for n in "abcd"]), RandomChance(0))
    for viewer in ("a", "b", None):
        view = game.view(st, viewer)
        for text in (game.presentation.render(view), rich_text(game, view, width=200)):
            assert not too_wide(text)
            grid = [line for line in text.splitlines() if line[:1] in "+|┌├└│"]
            assert len({cell_len(line) for line in grid}) == 1  # every border lines up
            assert all(w in text for w in longest)  # never cut


def _unreadable_changed(state, viewer):
    """`state` with every card the viewer may not read replaced by another."""
    out = copy_struct(state)
    cards = sorted({it.card for z in out.zones.values() for it in z.items if isinstance(it, Known)})
    other = {c: cards[(i + 1) % len(cards)] for i, c in enumerate(cards)}
    changed = 0
    # Agent Avenue's black market puts public cards into a hand (Mind
    # Control, Spycation, Double Trouble's kept card): everyone knows those
    market = getattr(out, "market", None)
    public_in_hands = set(getattr(market, "revealed", None) or ())
    for zone in out.zones.values():
        if zone.public or (viewer is not None and viewer in zone.readers):
            continue
        zone.items = [
            Known(it.ref, other[it.card]) if isinstance(it, Known) and it.ref not in public_in_hands else it
            for it in zone.items
        ]
        changed += len(zone.items)
    return out, changed


@pytest.mark.parametrize("case", ["aa", "aa-long-names", "aa-advanced", "cn-standard-en", "cn-coop-sv", "cn-three-sv-review"])
def test_no_terminal_view_shows_a_card_its_viewer_may_not_see(case, seeds=SEEDS):
    name, raw, seats = CASES[case] if isinstance(case, str) else case
    game = get(name)
    changed_any = 0
    for seed in seeds:
        for i, (st, names) in enumerate(states(game, raw, seats, seed, bot_for(game, seed))):
            if i % 3:
                continue
            for viewer in [*names, None]:
                other, changed = _unreadable_changed(st, viewer)
                changed_any += changed
                a, b = game.view(st, viewer), game.view(other, viewer)
                assert game.presentation.render(a) == game.presentation.render(b), (case, seed, viewer)
                assert rich_text(game, a, styles=True) == rich_text(game, b, styles=True), (case, seed, viewer)
    assert changed_any  # the test changed something it could have shown


def test_operatives_never_see_key_labels():
    from pbem.games.codenames.render import KEY_LABEL

    game = get("codenames")
    _, raw, seats = CASES["cn-standard-en"]
    checked = set()
    for st, names in states(game, raw, seats, 1, "spymaster"):
        for viewer in [*names, None]:
            view = game.view(st, viewer)
            if view.sees_key:
                continue
            checked.add(viewer)
            for text in (game.presentation.render(view), rich_text(game, view)):
                assert not any(KEY_LABEL[c] in text for c in ("red", "blue", "assassin")), viewer
    assert checked == {"cat", "dan", None}  # the operatives (roles in order) and an observer


def test_no_color_keeps_every_word_and_drops_the_colours(monkeypatch):
    game = get("codenames")
    _, raw, seats = CASES["cn-standard-en"]
    *_, (st, _names) = states(game, raw, seats, 0, "spymaster")
    view = game.view(st, "ann")

    def printed() -> str:
        out = io.StringIO()
        con = Console(file=out, force_terminal=True, color_system="truecolor", width=80)
        con.print(terminal.renderable(game, view))
        return out.getvalue()

    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = printed()
    monkeypatch.setenv("NO_COLOR", "1")
    bare = printed()
    from ptyterm import COLOUR, plain

    assert COLOUR.search(coloured) and not COLOUR.search(bare)
    assert plain(coloured) == plain(bare)  # the same words and layout
    assert "[ASSASSIN]" in bare or "!!ASSASSIN!!" in bare


def test_show_plain_and_json(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "9")
    r = pbem("show", g, "--as", "alice")  # not a terminal: text
    assert "\x1b[" not in r.stdout and "space " in r.stdout and "hand: " in r.stdout
    assert pbem("show", g, "--as", "alice", "--plain").stdout == r.stdout
    assert "4 cards (hidden)" in pbem("show", g, "--as", "alice").stdout
    assert pbem.json("show", g, "--as", "alice")["viewer"] == "alice"


def test_game_summaries_fit_and_are_short():
    from pbem.games import shipped as names  # the test game of issue #14 is not shipped

    for n in names():
        game = get(n)
        lines = game.presentation.summary.strip().splitlines()
        assert 8 <= len(lines) <= 18, n
        assert max(len(line) for line in lines) <= 80, n


@pytest.mark.parametrize("case", ["aa", "aa-advanced", "cn-standard-sv", "cn-coop-en", "cn-three-sv-review", "cx-long-names"])
def test_every_legal_command_is_explained_in_words(case):
    name, raw, seats = CASES[case]
    game = get(name)
    for st, _names in states(game, raw, seats, 0, bot_for(game, 0)):
        for seat in game.to_act(st):
            for command in game.legal(st, seat):
                words = game.presentation.explain(command, st, seat)
                assert words and words != game.presentation.format(command, st, seat) and len(words) < 160


def test_recruiting_does_not_name_the_face_down_card():
    game = get("aa")
    for st, _names in states(game, *CASES["aa"][1:], 0, "random"):
        if st.phase == "recruit":
            seat = game.to_act(st)[0]
            down = [game.presentation.explain(c, st, seat) for c in game.legal(st, seat) if c.which == "face-down"]
            assert down == ["recruit the face-down card; your opponent takes the other one"]
            return
    raise AssertionError("no recruit step")


def test_the_dark_agent_boards_say_what_their_marks_mean():
    """The area's marks and labels ([12n.], *, #, Sen 16 L1, AIM 20 +1,
    KARA, bob:3) are explained under it, in text and in colour."""
    game = get("dark-agent")
    st, names = next(iter(states(game, {}, ["ann", "bob"], 0, "random")))
    view = game.view(st, "ann")
    for text in (game.presentation.render(view), rich_text(game, view)):
        assert "the line's satellites: seat numbers, n neutral, . a free slot; * spotted" in text
        assert "Sen 16 L1: sentry, defence 16, level 1; AIM 20 +1: defence 20, 1 investigation" in text
    assert "* spotted  # protected AIM" in game.presentation.compact(view)
