"""`pbem show` and `pbem play` in a real pseudo-terminal (80x24), as a
person would meet them: colour within 80 columns, NO_COLOR and --plain
honoured; the last error visible above the prompt, a number out of range,
confirmation yes and no, `?`, quitting with q and with end of input."""

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
        assert "┌" in first and COLOUR.search(first)  # the colour board
        before = snapshot(g)

        term.send(str(n + 5))  # out of range: said so, then the board again
        screen = plain(term.expect("alice>"))
        assert f"there is no command {n + 5}: the menu has 1-{n}" in screen
        assert "Agent Avenue - turn 1" in screen  # redrawn ...
        visible = screen.splitlines()[-24:]  # ... and the error still on the 24-line screen
        assert any(f"there is no command {n + 5}" in line for line in visible)
        assert screen.index("Agent Avenue") < screen.index("there is no command") < screen.index("discard (")

        term.send("play Wizard / Mole")
        screen = plain(term.expect("alice>"))
        assert any("unknown card name 'Wizard'" in line for line in screen.splitlines()[-24:])

        term.send("?")
        screen = plain(term.expect("alice>"))
        assert "Agent Avenue: two spies" in screen and "Notation:" in screen

        term.send("1")
        assert "alice will discard" in plain(term.expect("write it? [y/n]"))
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
        assert "\x1b[" not in screen and "clue (" in screen
        term.eof()
        code, rest = term.wait()
        assert code == 0 and "quit" in plain(rest)
    finally:
        term.close()
    assert snapshot(cn) == before
