"""`pbem play` through CliRunner (stdout is not a terminal: plain text): a
compact board, whose turn it is, a compact numbered menu, a command typed
or chosen (in two steps for big groups), shown in words and confirmed
before it is written. `test_play_pty.py` drives it in a real 80x24
pseudo-terminal."""

from __future__ import annotations

import pytest

from pbem.games import get
from pbem.app.play import MENU_ROWS, STEP_AT, Menu

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
    assert f"alice: play {up} face up and {down} face down" in r.stdout
    assert "write it? [y/n]" in r.stdout
    assert "wrote 000001-alice.pbem" in r.stdout
    assert "waiting for bob" in r.stdout  # after her move the menu is empty
    r = pbem("play", aa, "--as", "bob", input="recruit face-up\ny\nq\n")
    assert "bob: recruit the face-up card" in r.stdout and "000003-bob.pbem" in r.stdout
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
    # board, whose turn, menu, then the error right above the prompt
    assert out.rindex("meeple") < out.rindex("Agent Avenue, seq 0") < out.rindex("discard (4):") < error
    assert error < out.rindex("alice>")
    assert out.count("Agent Avenue, seq 0") == 2  # redrawn once, after the error
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
    assert game.presentation.summary.splitlines()[0] in r.stdout and "Notation:" in r.stdout
    legal = pbem.json("legal", aa, "--as", "alice")
    more = r.stdout
    assert f"{len(legal)}. {legal[-1]}" in more.split("alice> ", 2)[2]  # m shows everything, same numbers
    assert r.stdout.count("space     0   1") == 1  # neither redraws the board


def test_a_codenames_spymaster_and_captain_play(pbem, tmp_path):
    for n in ("carol", "dave"):
        pbem("id", "new", n, "--no-passphrase")
    g = tmp_path / "cn"
    seats = ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"]
    pbem("new", "cn", g, *[a for s in seats for a in ("--seat", s)], "--seed", "3")
    first = pbem.json("status", g)["to_act"][0]["seat"]
    captain = {"alice": "bob", "carol": "dave"}[first]
    clue = pbem.json("legal", g, "--as", first)[0]
    r = pbem("play", g, "--as", first, input=f"{clue}\ny\n")
    assert f"{first}: give the clue {clue.split()[1]!r} for 1 word" in r.stdout
    r = pbem("play", g, "--as", captain, input="1\ny\nq\n")
    assert "guess (25):" in r.stdout
    assert f"{captain}: guess " in r.stdout and "wrote " in r.stdout


def test_play_as_someone_without_a_seat_fails_cleanly(pbem, aa):
    pbem.fails("play", aa, "--as", "rita")


# --- the menu ---------------------------------------------------------------------------


def test_menu_groups_numbers_and_folds():
    commands = [f"guess word{i}" for i in range(25)] + ["pass"] + [f"clue w{i} 1" for i in range(3)]
    menu = Menu(commands)
    assert [kind for kind, _ in menu.groups] == ["guess", "pass", "clue"]
    folded, hidden = menu.lines()
    full, more = menu.lines(folded=False)
    assert hidden and not more and len(folded) <= MENU_ROWS
    assert all(len(line) <= 80 for line in folded + full)
    assert folded[0].startswith("guess (25):   1. guess word0") and "26. pass" in "".join(folded)
    assert "25. guess word24" in "".join(full) and "25. guess word24" not in "".join(folded)
    assert "(m)" in "".join(folded)
    assert menu.pick("26") == "pass"
    with pytest.raises(Exception, match="there is no command 30: the menu has 1-29"):
        menu.pick("30")


def test_many_groups_fold_into_the_menu_rows():
    commands = [f"verb{k} thing{i}" for k in range(9) for i in range(3)]
    folded, hidden = Menu(commands).lines()
    assert hidden and len(folded) == MENU_ROWS and folded[-1].startswith("... ")


def test_a_big_group_of_pairs_is_chosen_in_two_steps(pbem, tmp_path):
    """Codex's tech step (two codex cards of 12 kinds: more than a menu can
    show): first a card, then the second from a short list."""
    menu = Menu([f"tech c{a} c{b}" for a in range(12) for b in range(a, 12)] + ["end"])
    assert len(menu.entries) == 13 and menu.step("tech c3") == "tech c3" and menu.steps["tech c3"][0] == "tech c3 c3"
    assert len(menu.commands) > STEP_AT and menu.lines()[0][0].startswith("tech in two steps, first:")
    g = tmp_path / "cx"
    pbem("new", "codex", g, "--seat", "alice", "--seat", "bob", "--seed", "3")
    pbem("submit", g, "--as", "alice", "--cmd", "end")
    pbem("submit", g, "--as", "bob", "--cmd", "end")
    legal = pbem.json("legal", g, "--as", "alice")
    firsts = list(dict.fromkeys(" ".join(c.split()[:2]) for c in legal))
    second = [c for c in legal if c.startswith(firsts[2] + " ")]
    r = pbem("play", g, "--as", "alice", input="3\n2\ny\nq\n")
    assert "tech in two steps, first:" in r.stdout and f"{firsts[2]} ... then one of:" in r.stdout
    from pbem.games.codex import cards

    names = [cards.lookup(n) for n in second[1].split()[1:]]  # the second choice of the second list
    assert f"wrote 000006-alice.pbem: tech {', '.join(names)} into your discard" in r.stdout
