"""Codex through the CLI (hotseat): a human's first turns with `legal`,
`submit` and `show`, bad input refused, and a scenario file."""

from __future__ import annotations

from conftest import snapshot

SCENARIO = """\
# alice's opening hand, bob's fixed deck
p1.hand = Tenderfoot, Older Brother, Spark, Bloom, Wither
p2.deck = Timely Messenger, Tenderfoot, Older Brother, Spark, Bloom
"""


def test_first_turns_through_the_cli(pbem, tmp_path):
    g = tmp_path / "g"
    sc = tmp_path / "scenario.txt"
    sc.write_text(SCENARIO)
    pbem("new", "codex", g, "--seat", "alice", "--seat", "bob", "--seed", "3", "--option", f"scenario={sc}")
    legal = pbem.json("legal", g, "--as", "alice")
    assert "end" in legal and "summon troq-bashar" in legal and "hire spark" in legal
    pbem("submit", g, "--as", "alice", "--cmd", "hire spark")
    before = snapshot(g)
    r = pbem.fails("submit", g, "--as", "alice", "--cmd", "hire bloom")
    assert "already hired" in r.stderr and snapshot(g) == before
    pbem.fails("submit", g, "--as", "alice", "--cmd", "attack tenderfoot opp:base")
    pbem.fails("submit", g, "--as", "alice", "--cmd", "play spark target=opp:sl")
    assert snapshot(g) == before
    pbem("submit", g, "--as", "alice", "--cmd", "play older-brother")
    mine = pbem("show", g, "--as", "alice", "--plain").stdout
    assert "your hand: Bloom, Tenderfoot, Wither" in mine
    theirs = pbem("show", g, "--as", "bob", "--plain").stdout
    assert "Wither" not in theirs and "older-brother" in theirs
    pbem("submit", g, "--as", "alice", "--cmd", "end sl=older-brother")
    status = pbem.json("status", g)
    assert status["to_act"][0]["seat"] == "bob"
    log = pbem("log", g).stdout
    assert "hire a worker (a card face down)" in log and "Spark" not in log
    assert pbem("verify", g).stdout.startswith("ok")


def test_scenario_needs_the_hotseat_dealer(pbem, tmp_path):
    sc = tmp_path / "scenario.txt"
    sc.write_text(SCENARIO)
    r = pbem.fails("new", "codex", tmp_path / "g", "--seat", "alice", "--seat", "bob", "--dealer", "referee",
                   "--referee", "rita", "--option", f"scenario={sc}")
    assert "hotseat" in r.stderr
    sc.write_text("p1.hand = Iron Maiden\n")
    pbem.fails("new", "codex", tmp_path / "h", "--seat", "alice", "--seat", "bob", "--option", f"scenario={sc}")


def test_a_human_plays_a_turn_through_pbem_play(pbem, tmp_path):
    """`pbem play`: the menu lists the legal commands; one chosen by number,
    one typed in the notation, and the end of the main phase, each
    described in words and confirmed before it is written."""
    g = tmp_path / "g"
    sc = tmp_path / "scenario.txt"
    sc.write_text(SCENARIO)
    pbem("new", "codex", g, "--seat", "alice", "--seat", "bob", "--seed", "3", "--option", f"scenario={sc}")
    legal = pbem.json("legal", g, "--as", "alice")
    choice = legal.index("hire spark") + 1
    r = pbem("play", g, "--as", "alice", input=f"m\n{choice}\ny\nplay older-brother\ny\nend sl=older-brother\ny\n")
    assert f"{choice:>2}. hire spark" in r.stdout, "the whole menu shows the legal commands, numbered"
    assert r.stdout.count("write it? [y/n]") == 3
    assert "wrote 000001-alice.pbem" in r.stdout and "wrote 000003-alice.pbem" in r.stdout
    assert "waiting for bob" in r.stdout
    log = pbem("log", g).stdout
    assert "hire a worker" in log and "play Older Brother" in log and "end sl=older-brother" in log
    assert pbem.json("status", g)["to_act"][0]["seat"] == "bob"
    before = snapshot(g)
    r = pbem("play", g, "--as", "bob", input="attack tenderfoot opp:base\nq\n")
    assert "pbem: error:" in r.stderr and snapshot(g) == before, "an illegal command writes nothing"
