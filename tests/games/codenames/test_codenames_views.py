"""What each seat sees: the key only for spymasters, covered cells for all."""

from __future__ import annotations

import msgspec
import pytest

from pbem.games.base import RandomChance, SeatSpec, project
from pbem.games.codenames import GAME

GRID = (
    "horse tiger lemon piano truck apple bridge castle dragon eagle forest glass hammer "
    "island jacket kettle ladder mirror needle orange pencil queen rocket spider tower"
).split()
KEY = "rrrrrrrrr bbbbbbbb nnnnnnn x"
SEATS = [SeatSpec("ann", "red-spymaster"), SeatSpec("bob", "red"),
         SeatSpec("cat", "blue-spymaster"), SeatSpec("dan", "blue"), SeatSpec("eve", "blue")]
COLOUR_WORDS = {"red", "blue", "bystander", "assassin"}


def new(seats=SEATS, **opts):
    options = GAME.options({"grid": GRID, "key": KEY, **opts})
    return GAME.setup(options, GAME.seats(options, seats), RandomChance(0))


def play(state, seat, text):
    state = GAME.apply(state, seat, GAME.presentation.parse(text, state, seat), RandomChance(0))
    return GAME.advance(state, RandomChance(0))


def midgame():
    st = play(new(), "ann", "clue animal 2")
    return play(st, "bob", "guess horse mirror")  # a red agent, then a bystander


@pytest.mark.parametrize("seat", ["bob", "dan", "eve", None])
def test_operatives_and_observers_never_see_the_key(seat):
    st = midgame()
    view = GAME.view(st, seat)  # computed from the FULL state
    assert not view.sees_key
    for cell in view.cells:
        assert (cell.colour is None) == (not cell.covered), cell
    assert {c.word: c.colour for c in view.cells if c.covered} == {"horse": "red", "mirror": "bystander"}
    # nothing in the encoded view names the colour of an uncovered cell
    data = msgspec.json.decode(msgspec.json.encode(view))
    assert all(c["colour"] is None for c in data["cells"] if not c["covered"])
    # and it is the same view as from the seat's own partial state (key hidden)
    public_refs = {it.ref for it in st.zones["covered"].items}
    assert GAME.view(project(st, public_refs), seat) == view


@pytest.mark.parametrize("seat", ["ann", "cat"])
def test_spymasters_see_the_whole_key(seat):
    view = GAME.view(midgame(), seat)
    assert view.sees_key
    expected = ["red"] * 9 + ["blue"] * 8 + ["bystander"] * 7 + ["assassin"]
    assert [c.colour for c in view.cells] == expected
    assert [c.covered for c in view.cells].count(True) == 2


def test_operative_partial_state_holds_no_key():
    st = midgame()
    partial = project(st, {it.ref for it in st.zones["covered"].items})
    assert all(type(it).__name__ == "Hidden" for it in partial.zones["key"].items)
    encoded = msgspec.json.encode(partial)
    assert b'"card"' in encoded  # the covered cells...
    assert encoded.count(b'"card"') == 2  # ...and nothing else


def test_view_content():
    st = midgame()
    view = GAME.view(st, "dan")
    assert view.team == "blue" and view.phase == "clue" and view.to_act == ["cat"]
    assert view.starting == "red"
    teams = {t.team: t for t in view.teams}
    assert teams["red"].left == 8 and teams["red"].agents == 9
    assert teams["blue"].captain == "dan" and teams["blue"].operatives == ["dan", "eve"]
    assert view.turn.clue == "animal" and view.turn.number == 2 and view.turn.end == "miss"
    assert [(g.word, g.colour) for g in view.turn.guesses] == [("horse", "red"), ("mirror", "bystander")]
    assert "cat" in view.prompt and "clue" in view.prompt
    assert [c.word for c in view.cells] == GRID and view.cells[7].row == 1 and view.cells[7].col == 2


def test_view_while_guessing_and_resolving():
    st = play(new(), "ann", "clue animal unlimited")
    view = GAME.view(st, "bob")
    assert view.guesses_left is None and view.turn.number == "unlimited"
    st = play(new(), "ann", "clue animal 2")
    assert GAME.view(st, "bob").guesses_left == 3
    st = GAME.apply(st, "bob", GAME.presentation.parse("guess horse tiger", st, "bob"), RandomChance(0))
    view = GAME.view(st, "bob")
    assert view.phase == "resolve" and view.pending == ["horse", "tiger"] and view.to_act == []


def test_coop_view_key_for_the_one_spymaster():
    seats = [SeatSpec("sam", "red-spymaster"), SeatSpec("oli", "red")]
    st = new(seats=seats, variant="coop")
    assert GAME.view(st, "sam").sees_key and not GAME.view(st, "oli").sees_key
    teams = {t.team: t for t in GAME.view(st, None).teams}
    assert teams["blue"].spymaster is None and teams["blue"].operatives == []


def grid_cells(text):
    """{word: label} read back from the text grid (a wrapped word joined)."""
    out = {}
    block = []
    for line in text.splitlines():
        if line.startswith("|"):
            block.append([part[1:].rstrip() for part in line.strip("|").split("|")])
        elif line.startswith("+") and block:
            for col in range(5):
                parts = [row[col] for row in block]
                out["".join(parts[:-1])] = parts[-1]
            block = []
    return out


def test_render_spymaster_operative_observer():
    st = midgame()
    spy = grid_cells(GAME.presentation.render(GAME.view(st, "ann")))
    op = grid_cells(GAME.presentation.render(GAME.view(st, "bob")))
    obs = GAME.presentation.render(GAME.view(st, None))
    assert spy["horse"] == op["horse"] == "[RED AGENT]" and grid_cells(obs)["mirror"] == "[BYSTANDER]"
    assert spy["tiger"] == "red agent" and spy["tower"] == "!!ASSASSIN!!" and spy["eagle"] == "blue agent"
    assert op["tiger"] == op["tower"] == grid_cells(obs)["tower"] == ""
    assert set(op) == set(GRID) and len(GAME.presentation.render(GAME.view(st, "bob")).splitlines()[2]) == 76
    assert "next: cat (blue spymaster) gives a clue" in obs
    over = play(play(st, "cat", "clue bird 1"), "dan", "guess tower")
    assert "game over" in GAME.presentation.render(GAME.view(over, None))
    assert grid_cells(GAME.presentation.render(GAME.view(over, None)))["tower"] == "[ASSASSIN]"


def test_a_long_word_wraps_inside_its_cell():
    words = ["internationalisation", "ice-cream"] + GRID[2:]
    options = GAME.options({"grid": words, "key": KEY, "hyphen": "true"})
    st = GAME.setup(options, GAME.seats(options, SEATS), RandomChance(0))
    text = GAME.presentation.render(GAME.view(st, "ann"))
    assert max(len(line) for line in text.splitlines()) <= 80
    cells = grid_cells(text)
    assert cells["internationalisation"] == "red agent" and cells["ice-cream"] == "red agent"
    assert "| internationa" in text and "| ice-" in text


def test_observer_view_of_a_swedish_game_renders():
    opts = GAME.options({"language": "sv"})
    st = GAME.setup(opts, GAME.seats(opts, [SeatSpec(n) for n in "abcd"]), RandomChance(5))
    text = GAME.presentation.render(GAME.view(st, None))
    assert all(w in text for w in st.words)
