"""`pbem play`: the view, a numbered menu, and a command typed or chosen."""

from __future__ import annotations


def test_play_by_number_and_by_notation(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "9")
    menu = pbem.json("legal", g, "--as", "alice")
    choice = next(i for i, c in enumerate(menu, 1) if c.startswith("play "))
    r = pbem("play", g, "--as", "alice", input=f"{choice}\n")
    assert f"{choice:3d}. {menu[choice - 1]}" in r.stdout
    assert "wrote" in r.stdout and "000001-alice.pbem" in r.stdout
    assert "waiting for bob" in r.stdout  # after her move the menu is empty
    r = pbem("play", g, "--as", "bob", input="recruit face-up\nq\n")
    assert "000003-bob.pbem" in r.stdout
    assert pbem.json("status", g)["seq"] >= 4


def test_play_reports_a_bad_command_and_asks_again(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "9")
    r = pbem("play", g, "--as", "alice", input="play Wizard / Mole\nq\n")
    assert "pbem: error:" in r.stderr
    assert pbem.json("status", g)["seq"] == 0
