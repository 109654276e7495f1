"""Whom a file must reach (`submit`, `sync`, `join`), what each party still
lacks (`pbem outbox`), and taking files in (`pbem apply`): already-known
files skipped, early files kept pending, bad files named while the good ones
are applied. Last, a whole peer game where files travel only as armored text."""

from __future__ import annotations

import random
import shutil
import textwrap
from pathlib import Path

import pytest

from conftest import Pbem, snapshot
from pbem.transport import armor


def names(out: str) -> list[str]:
    return [Path(p).name for p in out.split()]


def first_play(pbem, folder, who="alice"):
    return next(c for c in pbem.json("legal", folder, "--as", who) if c.startswith("play "))


@pytest.fixture
def referee_game(pbem, tmp_path):
    g = tmp_path / "g"
    # not dealt: the joins (seq 1, 2) and the deal (seq 3) are among the files the tests move
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita", deal=False)
    return g


# --- whom to send to, and what each lacks -----------------------------------------------


def test_referee_game_send_lines_and_outbox(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita", deal=False)
    out = pbem("outbox", g, "--as", "rita")
    assert "alice (has written nothing yet): 1 file" in out.stdout
    assert names(pbem("outbox", g, "--as", "rita", "--to", "bob").stdout) == ["000000-genesis.pbem"]
    pbem.deal(g)  # alice's and bob's joins (seq 1, 2), rita's deal (seq 3)
    r = pbem("submit", g, "--as", "alice", "--cmd", first_play(pbem, g))
    assert "pbem: send 000004-alice.pbem to rita and bob" in r.stderr
    assert names(r.stdout) == ["000004-alice.pbem"]  # stdout still lists only the files
    assert names(pbem("outbox", g, "--as", "alice", "--to", "rita").stdout) == ["000004-alice.pbem"]
    assert names(pbem("outbox", g, "--as", "alice", "--to", "bob").stdout) == ["000003-rita.pbem", "000004-alice.pbem"]
    r = pbem("sync", g, "--as", "rita")
    assert "to alice and bob" in r.stderr
    # alice wrote seq 4: she lacks only rita's answer; bob lacks all since his join
    assert names(pbem("outbox", g, "--as", "rita", "--to", "alice").stdout) == ["000005-rita.pbem"]
    assert len(names(pbem("outbox", g, "--as", "rita", "--to", "bob").stdout)) == 3
    bundle = pbem("outbox", g, "--as", "rita", "--armor")
    assert bundle.stdout.count(armor.BEGIN) == 3  # the union, as one bundle
    assert "for alice: 1 file" in bundle.stderr and "for bob: 3 files" in bundle.stderr
    assert pbem("outbox", g, "--as", "rita", "--to", "alice", "--armor").stdout.count(armor.BEGIN) == 1
    assert "is yourself" in pbem.fails("outbox", g, "--as", "rita", "--to", "rita").stderr
    assert "not another party" in pbem.fails("outbox", g, "--as", "rita", "--to", "zoe").stderr
    assert "not a party" in pbem.fails("outbox", g, "--as", "zoe").stderr


def test_hotseat_sends_nothing(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "3")
    r = pbem("submit", g, "--as", "alice", "--cmd", first_play(pbem, g))
    assert r.stderr == ""  # nothing to send, and nothing said about it
    r = pbem("outbox", g, "--as", "alice")
    assert r.stdout == "" and "nobody" in r.stderr
    assert "hotseat game sends nothing" in pbem.fails("outbox", g, "--as", "alice", "--to", "bob").stderr


@pytest.mark.parametrize("mark", [".stfolder", ".dropbox.cache", ".sync_1a2b3c.db"])
@pytest.mark.parametrize("dealer", ["referee", "peer"])
def test_a_shared_folder_says_what_each_runs_instead_of_send(pbem, tmp_path, mark, dealer):
    """In a folder a sync tool shares (its mark in the folder above), new
    and submit never say "send": the tool brings the files, and each
    player's pbem watch (the referee's referee watch) picks them up."""
    sync = tmp_path / "Sync"
    (sync / mark).mkdir(parents=True) if not mark.endswith(".db") else (sync.mkdir(), (sync / mark).touch())
    g = sync / "avenue"
    extra = ["--referee", "rita"] if dealer == "referee" else ["--as", "alice"]
    r = pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", dealer, *extra, deal=False)
    assert "send " not in r.output.replace("nothing to send", "") and "nothing to send" in r.stdout
    assert f"pbem watch {g} --as NAME" in r.stdout
    assert (f"rita runs pbem referee watch {sync} --as rita" in r.stdout) == (dealer == "referee")
    if dealer == "referee":
        pbem.deal(g)
        r = pbem("submit", g, "--as", "alice", "--cmd", first_play(pbem, g))
        assert "pbem: nothing to send: " in r.stderr and "to rita and bob (their pbem watch picks it up)" in r.stderr
        assert "pbem: send" not in r.stderr


@pytest.fixture
def players(tmp_path) -> dict[str, Pbem]:
    people = {n: Pbem(tmp_path / f"home-{n}") for n in ("alice", "bob")}
    for name, p in people.items():
        p("id", "new", name, "--no-passphrase")
        p("id", "export", name, "-o", tmp_path / f"{name}.id")
    people["alice"]("id", "import", tmp_path / "bob.id")
    people["bob"]("id", "import", tmp_path / "alice.id")
    return people


def test_peer_game_send_lines_and_outbox(players, tmp_path):
    alice, bob = players["alice"], players["bob"]
    a, b = tmp_path / "a", tmp_path / "b"
    alice("new", "aa", a, "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    assert names(alice("outbox", a, "--as", "alice", "--to", "bob").stdout) == ["000000-genesis.pbem"]
    r = bob("join", b, a / "000000-genesis.pbem", "--as", "bob")
    assert "pbem: send 000001-bob.pbem to alice" in r.stderr
    assert names(bob("outbox", b, "--as", "bob", "--to", "alice").stdout) == ["000001-bob.pbem"]
    alice("apply", a, b / "000001-bob.pbem")
    # alice created the game (seq 0) and has written nothing since
    out = bob("outbox", b, "--as", "bob").stdout
    assert out.startswith("alice (has seen up to seq 0): 1 file\n") and out.rstrip().endswith("000001-bob.pbem")


# --- taking files in --------------------------------------------------------------------


@pytest.fixture
def four_files(pbem, referee_game, tmp_path):
    """Four turn files of a referee game, and bob's folder with only the genesis."""
    g = referee_game
    files = []
    while len(files) < 4:
        st = pbem.json("status", g)
        who = st["to_act"][0]
        if who["needs"] == "auto":
            out = pbem("sync", g, "--as", who["seat"]).stdout
        else:
            out = pbem("submit", g, "--as", who["seat"], "--cmd", pbem.json("legal", g, "--as", who["seat"])[0]).stdout
        files += [Path(p) for p in out.split()]
    b = tmp_path / "bob"
    b.mkdir()
    shutil.copy(g / "000000-genesis.pbem", b)
    return g, b, files[:4]


def test_early_files_wait_in_pending_until_their_predecessor_arrives(pbem, four_files):
    g, b, files = four_files
    r = pbem("apply", b, files[2], files[3])
    assert r.stdout == ""
    assert "kept in pending/ until seq 1 arrives" in r.stderr
    assert sorted(p.name for p in b.glob("0*.pbem")) == ["000000-genesis.pbem"]
    assert len(list((b / "pending").iterdir())) == 2
    pbem("verify", b)  # the pending area is not part of the chain
    again = pbem("apply", b, files[3])  # twice: harmless
    assert "already waiting in pending/" in again.stderr
    r = pbem("apply", b, files[0])
    assert names(r.stdout) == [files[0].name]  # seq 2 is still missing: 3 and 4 wait
    r = pbem("apply", b, files[1])
    assert names(r.stdout) == [f.name for f in files[1:]]
    assert "which was waiting for seq 2" in r.stderr
    assert list((b / "pending").iterdir()) == []
    for f in files:
        assert (b / f.name).read_bytes() == f.read_bytes()
    before = snapshot(b)
    r = pbem("apply", b, *files)  # everything again: harmless
    assert r.stdout == "" and r.stderr == "pbem: note: skipped 4 files already in the chain\n"  # one line
    assert snapshot(b) == before


def test_a_writing_command_applies_pending_files_first(pbem, four_files):
    g, b, files = four_files
    pbem("apply", b, files[1])  # early: pending
    shutil.copy(files[0], b)  # seq 1 arrives by other means (a sync tool)
    who = pbem.json("status", b)["to_act"][0]["seat"]
    r = pbem("sync", b, "--as", "rita") if who != "rita" else pbem("sync", b, "--as", "alice")
    assert "which was waiting for seq 1" in r.stderr
    assert (b / files[1].name).read_bytes() == files[1].read_bytes()
    assert not any((b / "pending").iterdir())


def test_a_bad_file_among_good_ones_is_named_and_the_rest_applied(pbem, four_files, tmp_path):
    g, b, files = four_files
    garbled = tmp_path / "garbled.pbem"
    garbled.write_bytes(files[1].read_bytes()[:-30])
    other = tmp_path / "other"
    pbem("new", "aa", other, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    stranger = pbem("submit", other, "--as", "alice", "--cmd", first_play(pbem, other)).stdout.split()[0]
    r = pbem.fails("apply", b, files[0], garbled, stranger, files[1])
    assert "pbem: refused: garbled.pbem" in r.stderr
    assert f"{Path(stranger).name}: belongs to another game" in r.stderr
    assert "2 files were refused" in r.stderr
    assert names(r.stdout) == [files[0].name, files[1].name]
    one = pbem.fails("apply", b, garbled)  # one bad file: its own error line
    assert one.stderr.startswith("pbem: error: garbled.pbem")
    pbem("verify", b)


def test_a_bad_pending_file_is_moved_aside_when_its_turn_comes(pbem, four_files, tmp_path):
    g, b, files = four_files
    # a file signed by a party of the game, but not the one for seq 2
    # (a fork of seq 2 written in another copy of the folder)
    fork = tmp_path / "fork"
    shutil.copytree(g, fork)
    for f in files[1:]:
        (fork / f.name).unlink()
    (fork / "state.pbem").unlink()
    pbem("verify", fork)
    forked = [Path(p) for p in pbem("sync", fork, "--as", pbem.json("status", fork)["to_act"][0]["seat"]).stdout.split()]
    assert forked[0].read_bytes() != files[1].read_bytes()
    pbem("apply", b, files[1])  # the true seq 2: pending
    pbem("apply", b, forked[0])  # another seq 2: pending too
    r = pbem.fails("apply", b, files[0])
    assert "fork at seq 2" in r.stderr or "already in the chain" in r.stderr
    assert (b / files[1].name).exists()
    assert len(list((b / "pending" / "refused").iterdir())) == 1
    pbem("verify", b)


# --- a whole game by armored text ---------------------------------------------------------


def mangle(text: str, rng: random.Random) -> str:
    """What the way through mail does to a pasted block, picked at random."""
    how = rng.choice(["quote", "rewrap", "crlf", "strip", "plain"])
    if how == "quote":
        depth = rng.randint(1, 3)
        text = "\n".join(("> " * depth + line).rstrip() for line in text.split("\n"))
    elif how == "rewrap":
        text = "\n\n".join(textwrap.fill(p, rng.choice([50, 72])) for p in text.split("\n\n"))
    elif how == "crlf":
        text = text.replace("\n", "\r\n")
    elif how == "strip":
        text = "\n".join(line.rstrip() for line in text.split("\n"))
    return f"Hi,\n\nmy move:\n\n{text}\n\nBye\n-- \nsent from my phone\n"


def test_apply_mine_theirs_star_skips_their_state_cache(players, tmp_path):
    """The first thing people type, `pbem apply mine theirs/*.pbem`, also
    hands over the other folder's state.pbem: skipped with a note."""
    alice, bob = players["alice"], players["bob"]
    a, b = tmp_path / "a", tmp_path / "b"
    alice("new", "aa", a, "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    bob("join", b, a / "000000-genesis.pbem", "--as", "bob")
    assert (b / "state.pbem").exists()
    r = alice("apply", a, *sorted(b.glob("*.pbem")))
    assert r.exit_code == 0 and names(r.stdout) == ["000001-bob.pbem"]
    assert r.stderr == ("pbem: note: skipped 1 file already in the chain; and state.pbem: a folder's cache of its "
                        "state, not a file of the chain (each folder rebuilds its own)\n")  # one line


def test_a_whole_peer_game_by_armored_text(players, tmp_path):
    rng = random.Random(11)
    dirs = {n: tmp_path / f"game-{n}" for n in players}
    mails = tmp_path / "mails"
    mails.mkdir()
    count = [0]

    def mail(sender: str, to: str) -> Path:
        """The sender's outbox for `to`, armored, through a mangling mail."""
        text = players[sender]("outbox", dirs[sender], "--as", sender, "--to", to, "--armor").stdout
        assert armor.BEGIN in text
        count[0] += 1
        path = mails / f"{count[0]:04d}.txt"
        path.write_bytes(mangle(text, rng).encode())
        return path

    players["alice"]("new", "aa", dirs["alice"], "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    inbox = tmp_path / "bob-inbox"
    players["bob"]("dearmor", mail("alice", "bob"), "--into", inbox)
    players["bob"]("join", dirs["bob"], inbox / "000000-genesis.pbem", "--as", "bob")
    players["alice"]("apply", dirs["alice"], mail("bob", "alice"))
    for _ in range(400):
        st = players["alice"].json("status", dirs["alice"])
        if not st["to_act"]:
            break
        me = st["to_act"][0]["seat"]
        other = "bob" if me == "alice" else "alice"
        if st["to_act"][0]["needs"] == "auto":
            players[me]("sync", dirs[me], "--as", me)
        else:
            cmds = players[me].json("legal", dirs[me], "--as", me)
            players[me]("submit", dirs[me], "--as", me, "--cmd", rng.choice(cmds))
        players[other]("apply", dirs[other], mail(me, other))
    final = players["alice"].json("status", dirs["alice"])
    assert final["over"] and final["outcome"]["winners"]
    assert players["bob"].json("status", dirs["bob"]) == final
    assert snapshot(dirs["alice"]) == snapshot(dirs["bob"])
    assert "audit passed" in players["bob"]("audit", dirs["bob"]).stdout


def test_log_and_verify_take_json(pbem, referee_game):
    g = referee_game
    pbem.deal(g)
    pbem("submit", g, "--as", "alice", "--cmd", first_play(pbem, g))
    log = pbem.json("log", g)
    assert [f["name"] for f in log["files"]] == ["000000-genesis.pbem", "000001-alice.pbem", "000002-bob.pbem",
                                                 "000003-rita.pbem", "000004-alice.pbem"]
    assert log["files"][4]["by"] == "alice" and log["files"][4]["what"] and log["outcome"] is None
    lines = pbem("log", g).stdout.splitlines()
    assert lines[4].split()[:2] == ["4", "alice"]
    v = pbem.json("verify", g)
    assert v["ok"] and v["files"] == 5 and v["next"] == ["rita"]
