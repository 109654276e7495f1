"""Exit 1 leaves everything untouched, and what an interrupted command left
is repaired by the next one: keys and checks come before the first write, a
rerun completes a half-done submit, `state.pbem` is rebuilt, stray temporary
files are removed."""

from __future__ import annotations

import pytest

from conftest import snapshot
from pbem.gamedir import folder, folder_write


@pytest.fixture
def hotseat(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "4")
    return g


def first_legal(pbem, g, who="alice"):
    return pbem.json("legal", g, "--as", who)[0]


def lose_the_dealers_answer(pbem, g) -> str:
    """alice's turn is in, the dealer's answer is not (a kill between them)."""
    cmd = first_legal(pbem, g)
    kept = before_the_kill(pbem)
    written = pbem("submit", g, "--as", "alice", "--cmd", cmd).stdout.split()
    assert written[-1].endswith("-dealer.pbem")
    for path in written[1:]:
        (g / path.rsplit("/", 1)[-1]).unlink()
    kept()
    pbem("verify", g)  # rebuild the cache, so the snapshot below is of a clean folder
    return cmd


def before_the_kill(pbem):
    """Keep this user's checkpoints as they are; the returned function puts
    them back: a command killed after a turn file wrote no checkpoint of it
    (it writes it last), and files it verified are not deleted by anyone."""
    ckpt = pbem.home / "checkpoints"
    saved = {p: p.read_bytes() for p in ckpt.glob("*.ckpt")} if ckpt.exists() else {}

    def put_back():
        for p in ckpt.glob("*.ckpt"):
            p.unlink()
        for p, data in saved.items():
            p.write_bytes(data)

    return put_back


@pytest.mark.parametrize("damage", [lambda b: b[: len(b) // 2], lambda b: b"", lambda b: b[:-3]])
def test_a_damaged_dealer_key_stops_submit_before_any_write(pbem, hotseat, damage):
    key = hotseat / "dealer.key"
    key.write_bytes(damage(key.read_bytes()))
    before = snapshot(hotseat)
    r = pbem.fails("submit", hotseat, "--as", "alice", "--cmd", first_legal(pbem, hotseat))
    assert "internal error" not in r.stderr
    assert snapshot(hotseat) == before


def test_a_damaged_dealer_key_stops_sync_before_any_write(pbem, hotseat):
    lose_the_dealers_answer(pbem, hotseat)
    key = hotseat / "dealer.key"
    key.write_bytes(key.read_bytes()[:40])
    before = snapshot(hotseat)
    pbem.fails("sync", hotseat, "--as", "alice")
    assert snapshot(hotseat) == before


def test_a_refused_command_does_not_write_the_answers_owed_before_it(pbem, hotseat):
    lose_the_dealers_answer(pbem, hotseat)
    before = snapshot(hotseat)
    who, cmd = next_decision(pbem, hotseat)
    pbem.fails("submit", hotseat, "--as", who, "--cmd", "no such command")
    assert snapshot(hotseat) == before
    # and a good one writes the owed answer and the turn together
    written = pbem("submit", hotseat, "--as", who, "--cmd", cmd).stdout.split()
    assert [p.rsplit("-", 1)[-1] for p in written][:2] == ["dealer.pbem", f"{who}.pbem"]


def next_decision(pbem, g):
    """Who decides once the missing answer is in, and a legal command (on a copy)."""
    import shutil

    copy = g.parent / "copy"
    shutil.copytree(g, copy)
    pbem("sync", copy, "--as", "alice")
    who = pbem.json("status", copy)["to_act"][0]["seat"]
    cmd = first_legal(pbem, copy, who)
    shutil.rmtree(copy)
    return who, cmd


def test_rerunning_a_half_done_submit_completes_it(pbem, hotseat, tmp_path):
    import shutil

    done = tmp_path / "done"
    shutil.copytree(hotseat, done)
    legal_before = pbem.json("legal", hotseat, "--as", "alice")
    cmd = legal_before[0]
    pbem("submit", done, "--as", "alice", "--cmd", cmd)
    assert lose_the_dealers_answer(pbem, hotseat) == cmd
    before = snapshot(hotseat)
    legal_after = pbem.json("legal", done, "--as", "alice")
    other = next(c for c in legal_before if c != cmd and c not in legal_after)
    pbem.fails("submit", hotseat, "--as", "alice", "--cmd", other)  # not the turn that is in: refused
    assert snapshot(hotseat) == before
    r = pbem("submit", hotseat, "--as", "alice", "--cmd", cmd)
    assert "pbem: note: alice's turn is already in the chain as 000001-alice.pbem" in r.stderr
    assert r.stdout.split()[0].endswith("000002-dealer.pbem")
    assert pbem.json("status", hotseat) == pbem.json("status", done)


def test_rerunning_a_submit_that_finished_says_so(pbem, tmp_path):
    g = tmp_path / "r"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    cmd = first_legal(pbem, g)
    pbem("submit", g, "--as", "alice", "--cmd", cmd)
    before = snapshot(g)
    r = pbem("submit", g, "--as", "alice", "--cmd", cmd)  # killed before it could print: run again
    assert r.stdout == "" and "already in the chain as 000004-alice.pbem" in r.stderr  # after the joins and deal
    assert snapshot(g) == before


@pytest.mark.parametrize("game, setup, again, error", [
    ("codex", [("alice", "build tower")], "build tower", "you already have a Tower"),
    ("dark-agent", [("bob", "deal"), ("bob", "place A"), ("alice", "place A"), ("bob", "place B"),
                    ("alice", "place F"), ("bob", "place C"), ("alice", "place G"), ("alice", "move F>G A>G"),
                    ("alice", "spot G1")], "spot G1", "G1"),
])
def test_a_refused_new_command_that_repeats_the_last_one_is_refused(pbem, tmp_path, game, setup, again, error):
    """In a game whose turn is several files, the seat is still to act after
    its last file: the same command again is a new command, and refused by
    the rules (exit 1), never reported as the turn already in."""
    g = tmp_path / "g"
    pbem("new", game, g, "--seat", "alice", "--seat", "bob", "--seed", "7", *(["--dealer", "hotseat"] if game == "dark-agent" else []))
    for seat, cmd in setup:
        pbem("submit", g, "--as", seat, "--cmd", cmd)
    before = snapshot(g)
    r = pbem.fails("submit", g, "--as", "alice", "--cmd", again)
    assert error in r.stderr and "already in the chain" not in r.stderr
    assert "pbem: hint: your last file" in r.stderr and "holds these very commands" in r.stderr
    assert snapshot(g) == before


def test_a_submit_killed_before_it_reported_is_completed_when_run_again(pbem, tmp_path):
    """A seat recruits, and is still to act (its own play follows): a run
    killed after writing its file but before saying so left its note in
    $PBEM_HOME, so the same command again reports the file, exit 0."""
    from pbem.home import journal

    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "4")
    while True:  # play (no discards) until a seat is to recruit
        who = pbem.json("status", g)["to_act"][0]["seat"]
        legal = pbem.json("legal", g, "--as", who)
        cmd = next((c for c in legal if c.startswith("recruit")), None)
        if cmd is not None:
            break
        pbem("submit", g, "--as", who, "--cmd", next(c for c in legal if not c.startswith("discard")))
    pbem("submit", g, "--as", who, "--cmd", cmd)
    journal.begin(pbem.home, g, who, [cmd])  # what a run killed once its files were written leaves
    assert who in [w["seat"] for w in pbem.json("status", g)["to_act"]]
    before = snapshot(g)
    r = pbem("submit", g, "--as", who, "--cmd", cmd)
    assert r.stdout == "" and f"{who}'s turn is already in the chain" in r.stderr
    assert snapshot(g) == before
    r = pbem.fails("submit", g, "--as", who, "--cmd", cmd)  # reported now: a new command
    assert "holds these very commands" in r.stderr


def test_stray_temp_files_are_removed_by_the_next_writer(pbem, hotseat):
    ours = [".000001-alice.pbem.k2j4h6g8.tmp", ".state.pbem.abcd_123.tmp", ".dealer.key.zz99yy88.tmp"]
    foreign = [".notes.txt", ".photo.jpg.abcdefgh.tmp", "000001-alice.pbem.abcdefgh.tmp"]
    for name in ours + foreign:
        (hotseat / name).write_bytes(b"half a file")
    r = pbem("submit", hotseat, "--as", "alice", "--cmd", first_legal(pbem, hotseat))
    assert "pbem: note: removed 3 temporary files left by an interrupted command" in r.stderr
    left = {p.name for p in hotseat.iterdir()}
    assert not set(ours) & left and set(foreign) <= left
    assert pbem("verify", hotseat).stderr == ""


def test_verify_removes_stray_temp_files_too(pbem, hotseat):
    (hotseat / ".state.pbem.a1b2c3d4.tmp").write_bytes(b"{")
    r = pbem("verify", hotseat)
    assert r.stdout.startswith("ok:") and "removed 1 temporary file " in r.stderr
    assert not (hotseat / ".state.pbem.a1b2c3d4.tmp").exists()


def test_a_stale_cache_never_fails_a_command(pbem, hotseat):
    good = (hotseat / "state.pbem").read_bytes()
    (hotseat / "state.pbem").write_bytes(good[:-10])
    for args in (["status", hotseat], ["log", hotseat], ["show", hotseat], ["legal", hotseat, "--as", "alice"]):
        pbem(*args)
    assert (hotseat / "state.pbem").read_bytes() == good[:-10]  # readers leave it alone
    r = pbem("sync", hotseat, "--as", "alice")  # a writer with nothing to write still repairs it
    assert r.stderr.count("pbem: note:") == 1 and "state.pbem did not match the chain" in r.stderr
    assert folder_write.state_cache_ok(hotseat, folder.load(hotseat))
    (hotseat / "state.pbem").unlink()
    r = pbem("verify", hotseat, "--repair")
    assert "state.pbem was missing" in r.stderr and (hotseat / "state.pbem").read_bytes() == good
