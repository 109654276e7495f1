"""The team variant through the CLI and the real file protocol: games to the
end under the hotseat and referee dealers, the recruit choice that either
opposing player may send (a second, conflicting file is a fork, reported and
never applied), and a peer team game that any seat may start.

Peer team games to the end through `pbem demo` are slow (mental poker between
3-4 seats, one folder each): they run in long mode only (PBEM_LONG=1); CI
plays the same games in memory, then verifies and audits their files.
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
    spelled = {game.presentation.format(c, state, seat): c for c in legal}
    for text, command in spelled.items():
        if text.startswith("play Daredevil") and not state.zones["centre:up"].items:
            return command
    return rng.choice(legal)


@pytest.fixture
def rush(monkeypatch):
    monkeypatch.setitem(GAME.presentation.bots, "rush", rush_bot)


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


@pytest.mark.parametrize("dealer", ["hotseat", "referee", "peer"])
def test_the_four_player_demo_plays_to_the_end_and_verifies(tmp_path, rush, dealer):
    """`pbem demo agent-avenue --option teams=2v2` under every dealer. Under
    peer the demo keeps four folders, each checking and checkpointing every
    file: 15-45 s, so CI plays the same game in memory instead (below)."""
    if dealer == "peer" and not LONG:
        pytest.skip("long mode: PBEM_LONG=1 (a four-folder peer demo takes 15-45 s)")
    out = demo(tmp_path, dealer, 2, "teams=2v2")
    assert f"alice, bob, carol, dave ({dealer} dealer)" in out
    assert out.count("pbem verify") == (4 if dealer == "peer" else 1)


@pytest.mark.parametrize("teams, options", [("2v2", ()), ("2v1", ("mode=advanced", "first=bob"))])
def test_a_peer_team_game_plays_to_the_end_in_memory_and_audits(tmp_path, teams, options):
    """The peer demo's game without its folders: the real writers, one
    chain, the default first player (the first seat, who joined first);
    then `pbem verify` and `pbem audit` on the files."""
    import tamper
    from conftest import Pbem
    from pbem.gamedir import folder

    seats = list(GAME.presentation.demo_seats(GAME.options({"teams": teams})))
    table = tamper.play("agent-avenue", "peer", seats, 3, (f"teams={teams}", *options))
    g = tmp_path / "g"
    g.mkdir()
    for seq, data in enumerate(table.files):
        (g / (folder.GENESIS if seq == 0 else folder.turn_name(seq, tamper.decode(data)[0].by))).write_bytes(data)
    chain = folder.load(g)
    assert chain.over and chain.outcome() is not None and len(chain.seat_order) == len(seats)
    pbem = Pbem(tmp_path / "home")  # knows none of the players: keys are taken as they come
    assert "ok" in pbem("verify", g).stdout
    assert "ok: audit passed" in pbem("audit", g).stdout


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


@pytest.mark.parametrize("first, waits", [("alice", True), ("bob", False)])
def test_a_peer_team_game_may_start_with_any_seat(four, tmp_path, first, waits):
    """The first player's hand needs every other seat's decryptions, and
    the seats that joined before the last one give theirs only after the
    deal is complete. A first player that owes decryptions too is first in
    line: it sends them alone (`auto`), and decides once the others' are in,
    with its whole hand readable."""
    g = tmp_path / "g"
    four("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seat", "carol",
         "--dealer", "peer", "--as", "alice", "--option", f"first={first}")
    seen = []
    for _ in range(12):
        st = four.json("status", g)
        who = st["to_act"][0]
        if who["seat"] == first and who["needs"] == "decision":
            break
        seen.append((who["seat"], who["needs"]))
        assert who["needs"] == "auto"
        if who["seat"] == first and not who.get("join"):  # it cannot read its hand yet: no command taken
            assert four.json("legal", g, "--as", first) == []
            assert "owes an automatic answer" in four("legal", g, "--as", first).stdout
            before = snapshot(g)
            r = four.fails("submit", g, "--as", first, "--cmd", "discard Mole")
            assert "first owes an automatic answer" in r.stderr and snapshot(g) == before
        four("sync", g, "--as", who["seat"])
    else:
        raise AssertionError(f"{first} never came to decide: {seen}")
    # bob and carol join; alice and bob then open their set-up links (carol
    # opened hers in her join) and give their decryptions: whoever starts
    # sends its own alone first when it still waits for another seat's
    assert seen[:2] == [("bob", "auto"), ("carol", "auto")], seen
    assert ("alice", "auto") in seen[2:] and ("bob", "auto") in seen[2:], seen
    assert waits or first == "bob"
    assert {seat for seat, _ in seen} >= {"bob", "carol"}
    shown = four("show", g, "--as", first).stdout
    hand = next(line for line in shown.splitlines() if line.strip().startswith(f"{first}: hand"))
    assert "?" not in hand and "hidden" not in hand, shown
    legal = four.json("legal", g, "--as", first)
    play = next(c for c in legal if c.startswith("play "))
    four("submit", g, "--as", first, "--cmd", play)
    assert four("verify", g).exit_code == 0


@pytest.mark.skipif(not LONG, reason="long mode: PBEM_LONG=1 (a peer team game takes a minute or more)")
@pytest.mark.parametrize("teams, first", [("2v1", "alice"), ("2v2", "bob")])
def test_a_peer_team_game_plays_to_the_end(tmp_path, teams, first):
    out = demo(tmp_path, "peer", 2, f"teams={teams}", f"first={first}", bot="greedy")
    assert out.count("pbem audit") == sum(map(int, teams.split("v"))) and "(peer dealer)" in out
