"""Dark Agent through the CLI: a user's catalogue file, solo and 6-seat
games, the referee as the default dealer, bad input. Whole games through
the protocol: tests/protocol/test_dark_agent_protocol.py."""

from __future__ import annotations

import json

import msgspec

from conftest import Pbem, snapshot
from pbem.games.dark_agent import catalogue


def _players(p: Pbem, names) -> None:
    for name in names:
        p("id", "new", name, "--no-passphrase")


def test_user_catalogue_file_and_bad_input(tmp_path):
    p = Pbem(tmp_path / "h")
    _players(p, ["ann", "bob", "cat", "rita"])
    raw = msgspec.to_builtins(catalogue.reference())
    raw["name"] = "my own copy"
    raw["sentries"] = [{"id": "guard", "name": "Guard", "level": 2, "defence": 15, "count": 12}]
    mine = tmp_path / "copy.json"
    mine.write_text(json.dumps(raw, indent=2), encoding="utf-8")
    g = tmp_path / "g"
    p("new", "dark-agent", g, "--seat", "ann", "--seat", "bob", "--seat", "cat", "--seed", "4", "--dealer", "hotseat",
      "--option", f"catalogue={mine}", "--option", "aims=2")
    view = p.json("show", g, "--as", "ann")
    assert view["phase"] == "deal" and view["to_act"] == ["cat"] and {c["label"] for c in view["cells"]} == {""}
    p.fails("submit", g, "--as", "cat", "--cmd", "place A")  # the area first
    p("submit", g, "--as", "cat", "--cmd", "deal")
    view = p.json("show", g, "--as", "ann")
    assert view["catalogue"] == "my own copy"
    assert "Sen 15 L2" in {c["label"] for c in view["cells"]}
    assert view["to_act"] == ["cat"]  # the last player places first
    before = snapshot(g)
    p.fails("submit", g, "--as", "ann", "--cmd", "place A")  # not ann's turn
    p.fails("submit", g, "--as", "cat", "--cmd", "place Q")  # no such line
    p.fails("submit", g, "--as", "cat", "--cmd", "vote yes")  # not now
    assert snapshot(g) == before
    for _ in range(9):
        who = p.json("status", g)["to_act"][0]["seat"]
        p("submit", g, "--as", who, "--cmd", p.json("legal", g, "--as", who)[0])
    assert p.json("show", g, "--as", "ann")["phase"] == "move"

    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "half a file"', encoding="utf-8")
    r = p.fails("new", "dark-agent", tmp_path / "g2", "--seat", "ann", "--option", f"catalogue={bad}", "--referee", "rita")
    assert "catalogue" in r.stderr and not (tmp_path / "g2").exists()


def test_solo_and_six_seat_games_start(tmp_path):
    p = Pbem(tmp_path / "h")
    names = ["ann", "bob", "cat", "dan", "eve", "fay"]
    _players(p, names + ["rita"])
    # the referee is this game's default dealer: a new game without --dealer names one
    r = p.fails("new", "dark-agent", tmp_path / "solo", "--seat", "ann")
    assert "played with a referee by default: add --referee NAME" in r.stderr and "pbem: hint:" in r.stderr
    assert not (tmp_path / "solo").exists()
    r = p.fails("new", "dark-agent", tmp_path / "solo", "--seat", "ann", "--dealer", "peer", "--as", "ann")
    assert "solo game of dark-agent cannot be a peer game" in r.stderr and not (tmp_path / "solo").exists()
    p("new", "dark-agent", tmp_path / "solo", "--seat", "ann", "--referee", "rita")
    p.deal(tmp_path / "solo")
    status = p.json("status", tmp_path / "solo")
    assert status["dealer"]["mode"] == "referee" and status["to_act"][0]["seat"] == "ann"
    p("new", "dark-agent", tmp_path / "six", *[a for n in names for a in ("--seat", n)], "--dealer", "referee",
      "--referee", "rita")
    assert len(p.json("show", tmp_path / "six")["seats"]) == 6
    r = p.fails("new", "dark-agent", tmp_path / "seven", *[a for n in names + ["ann"] for a in ("--seat", n)],
                "--referee", "rita")
    assert "referee" not in r.stderr.splitlines()[0]  # refused for its seats
