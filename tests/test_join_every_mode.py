"""`pbem join` makes a player's own folder in every dealer mode (issue 14,
part 1): from the genesis alone, or the genesis and the files after it,
checked before anything is written."""

from __future__ import annotations

import random

import pytest

from conftest import introduced, mail_step
from pbem import actions
from pbem.errors import PbemError
from pbem.protocol import folder


@pytest.mark.parametrize("game,seats", [("agent-avenue", ["alice", "bob"]),
                                        ("codenames", ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"])])
def test_a_referee_game_played_from_each_players_own_folder(tmp_path, game, seats):
    names = [s.split(":")[0] for s in seats]
    keys = introduced(tmp_path, names + ["rita"])
    dirs = {"rita": tmp_path / "rita"}
    actions.new_game(game, dirs["rita"], seats, keys["rita"], "referee", referee="rita")
    genesis = dirs["rita"] / folder.GENESIS
    for n in names:
        dirs[n] = tmp_path / n
        assert actions.join(dirs[n], [genesis], n, keys[n]) is None  # no join file in a dealer's game
        assert (dirs[n] / folder.GENESIS).read_bytes() == genesis.read_bytes()
    rng = random.Random(7)
    for _ in range(2000):
        if not mail_step(keys, dirs, rng):
            break
    for path in dirs.values():
        chain = actions.verify(path)
        assert chain.over
    assert actions.audit(dirs["alice"]).ok


def test_join_a_game_in_progress_and_refuse_a_wrong_seat(tmp_path):
    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    dirs = {"rita": tmp_path / "rita", "alice": tmp_path / "alice"}
    actions.new_game("aa", dirs["rita"], ["alice", "bob"], keys["rita"], "referee", referee="rita")
    actions.join(dirs["alice"], [dirs["rita"] / folder.GENESIS], "alice", keys["alice"])
    rng = random.Random(1)
    for _ in range(5):  # alice and rita play on while bob has not joined yet
        if folder.load(dirs["rita"]).writers()[0] not in dirs:
            break
        mail_step(keys, dirs, rng)
    assert folder.load(dirs["rita"]).seq >= 2
    files = sorted(p for p in dirs["rita"].iterdir() if folder._TURN.match(p.name))
    actions.join(tmp_path / "bob", files, "bob", keys["bob"])  # late: the genesis and every file so far
    assert folder.load(tmp_path / "bob").head == folder.load(dirs["rita"]).head
    with pytest.raises(PbemError, match="no seat"):
        actions.join(tmp_path / "stranger", [dirs["rita"] / folder.GENESIS], "rita2", keys["rita"])
    assert not (tmp_path / "stranger").exists()


def test_join_through_the_cli_says_there_is_nothing_to_send(pbem, tmp_path):
    pbem("new", "aa", tmp_path / "g", "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    r = pbem("join", tmp_path / "mine", tmp_path / "g" / folder.GENESIS, "--as", "bob")
    assert "nothing to send" in r.stdout
    pbem("verify", tmp_path / "mine")


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
