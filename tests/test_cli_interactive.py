"""`pbem play` through CliRunner (stdout is not a terminal: plain text): the
view, a compact numbered menu, a command typed or chosen, shown in words
and confirmed before it is written. `test_play_pty.py` drives it in a real
pseudo-terminal."""

from __future__ import annotations

import pytest

from pbem.games import get
from pbem.play import FOLD_ROWS, Menu

from conftest import snapshot


@pytest.fixture
def aa(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "9")
    return g


def test_play_by_number_confirmed_and_by_notation(pbem, aa):
    menu = pbem.json("legal", aa, "--as", "alice")
    choice = next(i for i, c in enumerate(menu, 1) if c.startswith("play "))
    r = pbem("play", aa, "--as", "alice", input=f"{choice}\ny\n")
    assert f"{choice:>2}. {menu[choice - 1]}" in r.stdout
    up, down = menu[choice - 1].removeprefix("play ").split(" / ")
    assert f"alice will play {up} face up and {down} face down" in r.stdout
    assert "write it? [y/n]" in r.stdout
    assert "wrote 000001-alice.pbem" in r.stdout
    assert "waiting for bob" in r.stdout  # after her move the menu is empty
    r = pbem("play", aa, "--as", "bob", input="recruit face-up\ny\nq\n")
    assert "bob will recruit the face-up card" in r.stdout and "000003-bob.pbem" in r.stdout
    assert pbem.json("status", aa)["seq"] >= 4


def test_no_is_not_written_and_yes_skips_the_question(pbem, aa):
    before = snapshot(aa)
    r = pbem("play", aa, "--as", "alice", input="1\nn\nq\n")
    assert "not written: discard" in r.stdout and snapshot(aa) == before
    r = pbem("play", aa, "--as", "alice", "--yes", input="1\nq\n")
    assert "write it?" not in r.stdout and "wrote 000001-alice.pbem" in r.stdout


def test_a_bad_command_stays_visible_above_the_menu(pbem, aa):
    before = snapshot(aa)
    r = pbem("play", aa, "--as", "alice", input="play Wizard / Mole\nq\n")
    assert "pbem: error: unknown card name 'Wizard'" in r.stderr
    out = r.output
    error = out.rindex("pbem: error:")
    assert out.rindex("Agent Avenue - turn") < error < out.rindex("discard (4):")  # board, error, menu
    assert out.count("Agent Avenue - turn") == 2  # redrawn once, after the error
    assert snapshot(aa) == before


def test_a_number_out_of_range_says_so(pbem, aa):
    n = len(pbem.json("legal", aa, "--as", "alice"))
    before = snapshot(aa)
    r = pbem("play", aa, "--as", "alice", input=f"{n + 1}\n0\nq\n")
    assert f"pbem: error: there is no command {n + 1}: the menu has 1-{n}" in r.stderr
    assert f"there is no command 0: the menu has 1-{n}" in r.stderr
    assert "cannot read" not in r.stderr  # never taken for notation
    assert snapshot(aa) == before


@pytest.mark.parametrize("answers", ["q\n", "quit\n", ""])  # "": end of input
def test_quitting_writes_nothing(pbem, aa, answers):
    before = snapshot(aa)
    r = pbem("play", aa, "--as", "alice", input=answers)
    assert r.exit_code == 0 and r.stdout.rstrip().endswith("quit")
    assert snapshot(aa) == before


def test_question_mark_shows_the_rules_and_m_the_whole_menu(pbem, aa):
    r = pbem("play", aa, "--as", "alice", input="?\nm\nq\n")
    game = get("aa")
    assert game.summary.splitlines()[0] in r.stdout and "Notation:" in r.stdout
    legal = pbem.json("legal", aa, "--as", "alice")
    head, more = r.stdout.split("alice> ", 1)[0], r.stdout
    assert "more (m shows them)" in head and legal[-1] not in head  # folded at first
    assert f"{len(legal)}. {legal[-1]}" in more  # m shows everything, same numbers
    assert r.stdout.count("Agent Avenue - turn") == 1  # neither redraws the board


def test_a_codenames_spymaster_and_captain_play(pbem, tmp_path):
    for n in ("carol", "dave"):
        pbem("id", "new", n, "--no-passphrase")
    g = tmp_path / "cn"
    seats = ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"]
    pbem("new", "cn", g, *[a for s in seats for a in ("--seat", s)], "--seed", "3")
    first = pbem.json("status", g)["to_act"][0]["seat"]
    captain = {"alice": "bob", "carol": "dave"}[first]
    clue = pbem.json("legal", g, "--as", first)[0]
    r = pbem("play", g, "--as", first, input="1\ny\n")
    assert f"{first} will give the clue {clue.split()[1]!r} for 1 word" in r.stdout
    r = pbem("play", g, "--as", captain, input="1\ny\nq\n")
    assert "guess (25):" in r.stdout and "more (m shows them)" in r.stdout
    assert f"{captain} will guess " in r.stdout and "wrote " in r.stdout


def test_play_as_someone_without_a_seat_fails_cleanly(pbem, aa):
    pbem.fails("play", aa, "--as", "rita")


# --- the menu ---------------------------------------------------------------------------


def test_menu_groups_numbers_and_folds():
    commands = [f"guess word{i}" for i in range(25)] + ["pass"] + [f"clue w{i} 1" for i in range(3)]
    menu = Menu(commands)
    assert [kind for kind, _ in menu.groups] == ["guess", "pass", "clue"]
    folded, hidden = menu.lines()
    full, more = menu.lines(folded=False)
    assert hidden and not more
    assert all(len(line) <= 80 for line in folded + full)
    assert " 1. guess word0" in folded[1] and "26. pass" in "".join(folded)
    assert "25. guess word24" in "".join(full) and "25. guess word24" not in "".join(folded)
    guess_rows = [l for l in folded[1:] if "guess" in l]
    assert len(guess_rows) == FOLD_ROWS
    assert menu.pick("26") == "pass"
    with pytest.raises(Exception, match="there is no command 30: the menu has 1-29"):
        menu.pick("30")
