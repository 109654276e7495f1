"""`pbem join` makes a player's own folder in every dealer mode (issue 14,
part 1): from the genesis alone, or the genesis and the files after it,
checked before anything is written."""

from __future__ import annotations

import random

import pytest

from conftest import introduced, mail_step
from pbem.app import creating, opening, reading, receiving
from pbem.errors import PbemError
from pbem.gamedir import folder


@pytest.mark.parametrize("game,seats", [("agent-avenue", ["alice", "bob"]),
                                        ("codenames", ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"])])
def test_a_referee_game_played_from_each_players_own_folder(tmp_path, game, seats):
    names = [s.split(":")[0] for s in seats]
    keys = introduced(tmp_path, names + ["rita"])
    dirs = {"rita": tmp_path / "rita"}
    creating.new_game(game, dirs["rita"], seats, keys["rita"], "referee", referee="rita")
    genesis = dirs["rita"] / folder.GENESIS
    joins = []
    for i, n in enumerate(names):
        dirs[n] = tmp_path / n
        joins.append(receiving.join(dirs[n], [genesis], n, keys[n]))
        assert (dirs[n] / folder.GENESIS).read_bytes() == genesis.read_bytes()
    # the first seat's join file at once; the others' by their sync, in turn
    assert joins[0] is not None and joins[1:] == [None] * (len(names) - 1)
    for other in dirs:
        if other != names[0]:
            receiving.apply_files(dirs[other], [joins[0]])
    rng = random.Random(7)
    for _ in range(2000):
        if not mail_step(keys, dirs, rng):
            break
    for path in dirs.values():
        chain = opening.verify(path)
        assert chain.over
    assert reading.audit(dirs["alice"]).ok


def test_join_a_game_in_progress_and_refuse_a_wrong_seat(tmp_path):
    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    dirs = {"rita": tmp_path / "rita", "alice": tmp_path / "alice"}
    creating.new_game("aa", dirs["rita"], ["alice", "bob"], keys["rita"], "referee", referee="rita")
    mine = receiving.join(dirs["alice"], [dirs["rita"] / folder.GENESIS], "alice", keys["alice"])
    receiving.apply_files(dirs["rita"], [mine])
    rng = random.Random(1)
    for _ in range(5):  # nothing moves until bob has joined: the deal waits for his contribution
        if folder.load(dirs["rita"]).writers()[0] not in dirs:
            break
        mail_step(keys, dirs, rng)
    assert folder.load(dirs["rita"]).writers() == ["bob"]
    files = sorted(p for p in dirs["rita"].iterdir() if folder.TURN.match(p.name))
    mine = receiving.join(tmp_path / "bob", files, "bob", keys["bob"])  # late: the genesis and every file so far
    receiving.apply_files(dirs["rita"], [mine])
    assert folder.load(tmp_path / "bob").head == folder.load(dirs["rita"]).head
    with pytest.raises(PbemError, match="no seat"):
        receiving.join(tmp_path / "stranger", [dirs["rita"] / folder.GENESIS], "rita2", keys["rita"])
    assert not (tmp_path / "stranger").exists()


def test_join_through_the_cli_says_what_to_send(pbem, tmp_path):
    pbem("new", "aa", tmp_path / "g", "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    r = pbem("join", tmp_path / "bob", tmp_path / "g" / folder.GENESIS, "--as", "bob")
    assert "comes after alice's" in r.stdout
    r = pbem("join", tmp_path / "alice", tmp_path / "g" / folder.GENESIS, "--as", "alice")
    assert "000001-alice.pbem" in r.stdout
    pbem("verify", tmp_path / "bob")
    pbem("new", "aa", tmp_path / "h", "--seat", "alice", "--seat", "bob", "--dealer", "hotseat")
    r = pbem("join", tmp_path / "h2", tmp_path / "h" / folder.GENESIS, "--as", "bob")
    assert "nothing to send" in r.stdout


def test_a_script_plays_a_peer_game_in_one_shared_folder(pbem, tmp_path):
    """Everyone in one folder (a network drive): a script that only runs
    status, legal, submit and sync joins each seat in place and plays to the end."""
    from conftest import play_to_end

    g = tmp_path / "shared"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "peer", "--as", "alice")
    st = pbem.json("status", g)
    assert st["to_act"] == [{"seat": "bob", "needs": "auto", "join": True}]
    pbem("sync", g, "--as", "bob")  # bob joins in place
    assert pbem.json("status", g)["to_act"][0].get("join") is None
    end = play_to_end(pbem, g)
    assert end["over"]
    pbem("verify", g)
    pbem("audit", g)
