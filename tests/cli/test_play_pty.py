"""`pbem show` and `pbem play` in a real pseudo-terminal (80x24), as a
person would meet them: colour within 80 columns, NO_COLOR and --plain
honoured; in every game the whole screen of `pbem play` (a compact board,
whose turn it is, the menu, the last error) within 24 lines, the full
board a key away; a number out of range, confirmation yes and no, `?`,
quitting with q and with end of input."""

from __future__ import annotations

import os

import pytest
from rich.cells import cell_len

from conftest import snapshot
from ptyterm import COLOUR, Terminal, pbem_command, plain, run


@pytest.fixture
def env(pbem):
    out = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")}
    out.update(PBEM_HOME=str(pbem.home), TERM="xterm-256color")
    return out


@pytest.fixture
def cn(pbem, tmp_path):
    for n in ("carol", "dave"):
        pbem("id", "new", n, "--no-passphrase")
    g = tmp_path / "cn"
    seats = ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"]
    pbem("new", "cn", g, *[a for s in seats for a in ("--seat", s)], "--seed", "4", "--option", "language=sv")
    return g


def test_show_in_colour_within_80_columns_and_plain_without(cn, env):
    cmd = [*pbem_command(), "show", str(cn), "--as", "alice"]
    coloured = run(cmd, env)
    assert COLOUR.search(coloured) and "┌" in coloured and "!!ASSASSIN!!" in plain(coloured)
    lines = plain(coloured).splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    no_colour = run(cmd, {**env, "NO_COLOR": "1"})
    assert not COLOUR.search(no_colour)
    assert "┌" in no_colour and "!!ASSASSIN!!" in plain(no_colour)  # the words say it all
    text = run([*cmd, "--plain"], env)
    assert "\x1b[" not in text and "+--------------+" in text and "!!ASSASSIN!!" in text
    assert max(cell_len(line) for line in plain(text).splitlines()) <= 80


def test_play_in_a_terminal(pbem, tmp_path, env):
    g = tmp_path / "aa"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "9")
    n = len(pbem.json("legal", g, "--as", "alice"))
    term = Terminal([*pbem_command(), "play", str(g), "--as", "alice"], env)
    try:
        first = term.expect("alice>")
        assert COLOUR.search(first) and "meeple" in plain(first)  # the compact board, in colour
        before = snapshot(g)

        term.send("b")  # the whole board
        assert "┌" in term.expect("alice>")

        term.send(str(n + 5))  # out of range: said so, then the board again
        screen = plain(term.expect("alice>"))
        assert f"there is no command {n + 5}: the menu has 1-{n}" in screen
        visible = screen.splitlines()[-24:]  # redrawn, and all of it on the 24-line screen
        assert "meeple" in "\n".join(visible) and any("Agent Avenue, seq 0: alice to play" in v for v in visible)
        assert any(f"there is no command {n + 5}" in line for line in visible)
        assert screen.index("meeple") < screen.index("Agent Avenue, seq 0") < screen.index("discard (")
        assert screen.index("discard (") < screen.index("there is no command")  # the error right above the prompt

        term.send("play Wizard / Mole")
        screen = plain(term.expect("alice>"))
        assert any("unknown card name 'Wizard'" in line for line in screen.splitlines()[-24:])

        term.send("?")
        screen = plain(term.expect("alice>"))
        assert "Agent Avenue: two spies" in screen and "Notation:" in screen

        term.send("1")
        assert "alice: discard" in plain(term.expect("write it? [y/n]"))
        term.send("n")
        assert "not written: discard" in plain(term.expect("alice>"))
        assert snapshot(g) == before

        term.send("1")
        term.expect("write it? [y/n]")
        term.send("y")
        assert "wrote 000001-alice.pbem" in plain(term.expect("alice>"))

        term.send("q")
        code, _ = term.wait()
        assert code == 0
    finally:
        term.close()
    assert pbem.json("status", g)["seq"] == 2  # her discard and the dealer's card


def test_end_of_input_quits_play(pbem, cn, env):
    before = snapshot(cn)
    first = pbem.json("status", cn)["to_act"][0]["seat"]
    term = Terminal([*pbem_command(), "play", str(cn), "--as", first, "--plain"], env)
    try:
        screen = term.expect(f"{first}>")
        assert "\x1b[" not in screen and "clue in two steps" in screen
        term.eof()
        code, rest = term.wait()
        assert code == 0 and "quit" in plain(rest)
    finally:
        term.close()
    assert snapshot(cn) == before


def _codex(pbem, g):
    pbem("new", "codex", g, "--seat", "alice", "--seat", "bob", "--seed", "3")
    return "alice", "play timely", "no card called 'timely'", "your hand: "


def _codenames(pbem, g):
    for n in ("carol", "dave"):
        pbem("id", "new", n, "--no-passphrase")
    seats = ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"]
    pbem("new", "cn", g, *[a for s in seats for a in ("--seat", s)], "--seed", "4")
    first = pbem.json("status", g)["to_act"][0]["seat"]
    pbem("submit", g, "--as", first, "--cmd", pbem.json("legal", g, "--as", first)[0])
    captain = pbem.json("status", g)["to_act"][0]["seat"]
    return captain, "guess nonsuchword", "nonsuchword", "[R] [B] [N] [X]"


def _dark_agent(pbem, g):
    pbem("id", "new", "carol", "--no-passphrase")
    pbem("new", "da", g, "--seat", "alice", "--seat", "bob", "--seat", "carol", "--dealer", "hotseat", "--seed", "2")
    for _ in range(20):  # the deal and the satellites placed
        st = pbem.json("status", g)["to_act"][0]
        if pbem.json("legal", g, "--as", st["seat"])[0].startswith("move"):
            return st["seat"], "spot Z9", "Z9", "* spotted"
        pbem("submit", g, "--as", st["seat"], "--cmd", pbem.json("legal", g, "--as", st["seat"])[0])
    raise AssertionError("no move phase")


@pytest.mark.parametrize("make", [_codex, _codenames, _dark_agent], ids=["codex", "codenames", "dark-agent"])
def test_every_game_fits_an_80x24_terminal(pbem, tmp_path, env, make):
    """The first screen and the screen after an error each fit 24 lines:
    the compact board, whose turn it is (the heading), the menu, the error
    above the prompt; `b` shows the whole board."""
    g = tmp_path / "g"
    who, bad, error, board_mark = make(pbem, g)
    term = Terminal([*pbem_command(), "play", str(g), "--as", who], env)
    try:
        first = plain(term.expect(f"{who}>")).splitlines()
        screen = first[first.index("") + 1 if "" in first else 0 :]  # from the blank line before the board
        assert len(screen) <= 24, "\n".join(screen)
        assert any(board_mark in line for line in screen) and any(", seq " in line and who in line for line in screen)
        term.send(bad)
        after = plain(term.expect(f"{who}>")).splitlines()[-24:]
        text = "\n".join(after)
        assert error in text and board_mark in text and any(", seq " in v and who in v for v in after), text
        assert max(cell_len(line) for line in after) <= 80
        term.send("b")
        full = plain(term.expect(f"{who}>"))
        assert len(full.splitlines()) > 12 and any(", seq " in v and who in v for v in full.splitlines()[-6:])
        term.send("q")
        assert term.wait()[0] == 0
    finally:
        term.close()
