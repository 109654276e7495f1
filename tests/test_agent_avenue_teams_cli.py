"""The team variant through the CLI and the real file protocol: games to the
end under the hotseat and referee dealers, the recruit choice that either
opposing player may send (a second, conflicting file is a fork, reported and
never applied), and the peer dealer's rule for who starts.

Peer team games to the end are slow (mental poker between 3-4 seats): they
run in long mode only (PBEM_LONG=1).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import snapshot
from pbem.cli import cli
from pbem.games.agent_avenue import GAME
from pbem.games.agent_avenue.commands import Discard, Recruit

LONG = bool(os.environ.get("PBEM_LONG"))


def rush_bot(game, state, seat, rng):
    """A test bot that ends games soon (the suite's time is short): it plays
    a Daredevil face up whenever it can and always recruits the face-up card,
    so each team soon holds three Daredevils. Sees only its own state."""
    legal = [c for c in game.legal(state, seat) if not isinstance(c, Discard)]
    if state.phase == "recruit":
        return Recruit("face-up")
    spelled = {game.format(c, state, seat): c for c in legal}
    for text, command in spelled.items():
        if text.startswith("play Daredevil") and not state.zones["centre:up"].items:
            return command
    return rng.choice(legal)


@pytest.fixture
def rush(monkeypatch):
    monkeypatch.setitem(GAME.bots, "rush", rush_bot)


def demo(tmp_path: Path, dealer: str, seed: int, *options: str, bot: str = "rush") -> str:
    args = ["demo", "agent-avenue", "--dealer", dealer, "--seed", str(seed), "--bot", bot,
            "--dir", str(tmp_path / f"g-{dealer}"), "--keys", str(tmp_path / f"k-{dealer}")]
    for option in options:
        args += ["--option", option]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "result: " in result.output and "FAIL" not in result.output
    assert "pbem verify" in result.output and "pbem audit" in result.output
    return result.output


def test_a_four_player_hotseat_game_in_black_market_mode_plays_to_the_end(tmp_path, rush):
    out = demo(tmp_path, "hotseat", 3, "teams=2v2", "mode=advanced")
    assert "alice, bob, carol, dave (hotseat dealer)" in out
    assert "team green (alice, carol)" in out and "team blue (bob, dave)" in out
    assert "black market:" in out and "take Mind Control" in out  # a team instant


def test_a_three_player_referee_game_plays_to_the_end(tmp_path, rush):
    out = demo(tmp_path, "referee", 4, "teams=2v1")
    assert "alice, bob, carol (referee dealer)" in out
    assert "team green (alice, carol)" in out and "team blue (bob)" in out


@pytest.fixture
def four(pbem):
    for name in ("carol", "dave"):
        pbem("id", "new", name, "--no-passphrase")
    return pbem


def test_either_opponent_recruits_and_a_second_recruit_file_is_a_fork(four, tmp_path):
    pbem = four
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice:green", "--seat", "bob:blue", "--seat", "carol:green",
         "--seat", "dave:blue", "--seed", "3")
    for _ in range(10):  # alice plays face up, carol face down (and any automatic answers)
        who = pbem.json("status", g)["to_act"]
        if [w["seat"] for w in who] == ["bob", "dave"]:
            break
        me = who[0]
        if me["needs"] == "auto":
            pbem("sync", g, "--as", me["seat"])
        else:
            legal = pbem.json("legal", g, "--as", me["seat"])
            assert all(c.startswith("play ") and "/" not in c for c in legal if not c.startswith("discard"))
            pbem("submit", g, "--as", me["seat"], "--cmd", next(c for c in legal if c.startswith("play ")))
    assert pbem.json("status", g)["to_act"] == [
        {"seat": "bob", "needs": "decision"}, {"seat": "dave", "needs": "decision"}
    ]
    before = snapshot(g)
    r = pbem.fails("submit", g, "--as", "carol", "--cmd", "recruit face-up")
    assert "it is not carol's turn: bob must decide; dave must decide" in r.stderr
    assert snapshot(g) == before
    other = tmp_path / "g2"
    shutil.copytree(g, other)
    first = pbem("submit", g, "--as", "bob", "--cmd", "recruit face-up").stdout.split()[0]
    second = pbem("submit", other, "--as", "dave", "--cmd", "recruit face-down").stdout.split()[0]
    seq = Path(first).name.split("-")[0]
    assert Path(second).name == f"{seq}-dave.pbem"
    before = snapshot(g)
    r = pbem.fails("apply", g, second)
    assert f"fork at seq {int(seq)}" in r.stderr and "dave" in r.stderr and "bob" in r.stderr
    assert snapshot(g) == before  # reported, not applied
    # the same two files side by side in one folder: the folder reports the fork
    shutil.copy(second, g / Path(second).name)
    r = pbem.fails("verify", g)
    assert f"fork at seq {int(seq)}" in r.stderr and "signed by bob" in r.stderr and "signed by dave" in r.stderr


def test_a_peer_team_game_must_start_with_the_last_seat(four, tmp_path):
    g = tmp_path / "g"
    r = four.fails("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seat", "carol",
                   "--dealer", "peer", "--as", "alice")
    assert "must start with the last seat listed (carol), not alice" in r.stderr
    assert "--option first=carol" in r.stderr
    assert not g.exists()
    four("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seat", "carol",
         "--dealer", "peer", "--as", "alice", "--option", "first=carol")
    assert (g / "000000-genesis.pbem").exists()


@pytest.mark.skipif(not LONG, reason="long mode: PBEM_LONG=1 (a peer team game takes a minute or more)")
@pytest.mark.parametrize("teams, last", [("2v1", "carol"), ("2v2", "dave")])
def test_a_peer_team_game_plays_to_the_end(tmp_path, teams, last):
    out = demo(tmp_path, "peer", 2, f"teams={teams}", f"first={last}", bot="greedy")
    assert out.count("pbem audit") == sum(map(int, teams.split("v"))) and "(peer dealer)" in out
