"""The verified checkpoint in `$PBEM_HOME` (issue #12, part 2): an unchanged
folder is only hashed, a new file costs its own check, any change to a file
already verified is caught at once by every command, and a checkpoint that
is not this user's own, for this folder and this code, is ignored."""

from __future__ import annotations

import os
import shutil
import stat
import time
from pathlib import Path

import pytest

from conftest import Pbem, snapshot
from pbem.home import checkpoint, checkpoint_pickle, checkpoint_seal
from pbem.gamedir import folder
from pbem.protocol.chain import Chain


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """The name of every file checked into any chain."""
    seen: list[str] = []
    append = Chain.append

    def counting(self, data, name="", private_openings=None):
        seen.append(name)
        return append(self, data, name, private_openings)

    monkeypatch.setattr(Chain, "append", counting)
    return seen


def play(pbem: Pbem, g: Path, turns: int) -> None:
    for _ in range(turns):
        who = pbem.json("status", g)["to_act"][0]["seat"]
        pbem("submit", g, "--as", who, "--cmd", pbem.json("legal", g, "--as", who)[0])


@pytest.fixture
def game(pbem: Pbem, tmp_path: Path) -> Path:
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "5")
    play(pbem, g, 4)
    return g


def chain_names(g: Path) -> list[str]:
    return sorted(p.name for p in g.iterdir() if p.name[0].isdigit())


def the_checkpoint(pbem: Pbem) -> Path:
    (path,) = (pbem.home / "checkpoints").glob("*.ckpt")
    return path


def test_an_unchanged_folder_is_hashed_not_replayed_and_a_new_file_costs_its_own_check(pbem, game, counted):
    head = folder.load(game).seq
    assert counted == []  # the submits left the checkpoint at the head
    assert pbem.json("status", game)["seq"] == head and counted == []
    # one more file, written by another copy of the game (as if received)
    other = game.parent / "other"
    shutil.copytree(game, other)
    play(pbem, other, 1)
    new = sorted(set(chain_names(other)) - set(chain_names(game)))
    for name in new:
        shutil.copy(other / name, game / name)
    counted.clear()
    assert folder.load(game).seq == head + len(new)
    assert counted == new
    # `pbem verify --full` replays all of it, and the audit always does
    counted.clear()
    pbem("verify", "--full", game)
    assert len(counted) == head + len(new)


def test_checkpoint_files_are_private(pbem, game):
    path = the_checkpoint(pbem)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((path.parent / "key").stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert not list(path.parent.glob(".*.tmp"))


def _edit_keeping_size_and_time(path: Path) -> None:
    """Change one signature character; keep the size and the times."""
    st = path.stat()
    data = path.read_bytes()
    at = data.index(b'"sig":"') + 9
    path.write_bytes(data[:at] + (b"A" if data[at:at + 1] != b"A" else b"B") + data[at + 1:])
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _remove_last(g: Path) -> None:
    (g / chain_names(g)[-1]).unlink()


def _swap_two(g: Path) -> None:
    a, b = (g / n for n in chain_names(g)[2:4])
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.unlink(), b.unlink()
    (g / f"{b.name[:6]}{a.name[6:]}").write_bytes(data_a)
    (g / f"{a.name[:6]}{b.name[6:]}").write_bytes(data_b)


CHANGES = {
    "edited (same size and time)": lambda g: _edit_keeping_size_and_time(g / chain_names(g)[3]),
    "edited genesis": lambda g: _edit_keeping_size_and_time(g / folder.GENESIS),
    "removed": _remove_last,
    "reordered": _swap_two,
    "replaced by a file of another seq": lambda g: shutil.copy(g / chain_names(g)[1], g / chain_names(g)[3]),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_to_a_verified_file_is_caught_by_every_command(pbem, game, change):
    CHANGES[change](game)
    before = snapshot(game)
    ckpt = the_checkpoint(pbem).read_bytes()
    for args in (["status"], ["legal", "--as", "alice"], ["show", "--as", "bob"],
                 ["submit", "--as", "alice", "--cmd", "anything"], ["verify"]):
        pbem.fails(args[0], game, *args[1:])
    assert snapshot(game) == before
    assert the_checkpoint(pbem).read_bytes() == ckpt  # nothing learnt from a refused folder


def test_a_valid_replacement_of_a_verified_file_is_caught_until_verify_full(pbem, game):
    """A second valid version of the last turn (its writer changed its mind,
    or the folder was rolled back): a replay from genesis accepts it, this
    user's checkpoint says it saw another file there."""
    before = game.parent / "before"
    shutil.copytree(game, before)
    play(pbem, game, 1)  # alice's or bob's turn and the dealer's answer
    names = sorted(set(chain_names(game)) - set(chain_names(before)))
    other = game.parent / "other"
    shutil.copytree(before, other)
    who = pbem.json("status", other)["to_act"][0]["seat"]
    choices = pbem.json("legal", other, "--as", who)
    pbem("submit", other, "--as", who, "--cmd", choices[-1])
    assert choices[-1] != choices[0]
    for name in names:
        (game / name).unlink()
    for name in sorted(set(chain_names(other)) - set(chain_names(before))):
        shutil.copy(other / name, game / name)
    r = pbem.fails("status", game)
    assert "is not the file you verified at seq" in r.stderr and "verify --full" in r.stderr
    pbem("verify", "--full", game)
    assert pbem.json("status", game)["seq"] == pbem.json("status", other)["seq"]


def test_a_copy_of_a_verified_file_is_still_one_file(pbem, game, counted):
    name = chain_names(game)[2]
    shutil.copy(game / name, game / (name[:-5] + " (1).pbem"))
    info = pbem.json("status", game)
    assert any("is a copy of" in n for n in info["notes"])
    assert counted == []


def test_a_checkpoint_of_another_folder_is_ignored(pbem, game, tmp_path):
    other = tmp_path / "other"
    pbem("new", "aa", other, "--seat", "alice", "--seat", "bob", "--seed", "6")
    mine = checkpoint.path_for(game)
    shutil.copy(mine, checkpoint.path_for(other))  # authentic, but of `game`
    assert pbem.json("status", other)["seq"] == 0
    assert checkpoint.read(other).header.folder == str(other.absolute())
    # the same game copied to another folder: checked there from genesis
    copy = tmp_path / "copy"
    shutil.copytree(game, copy)
    shutil.copy(mine, checkpoint.path_for(copy))
    assert checkpoint.read(copy) is None
    _edit_keeping_size_and_time(copy / chain_names(copy)[3])
    pbem.fails("status", copy)


@pytest.mark.parametrize("doctor", ["payload", "header", "mac", "truncated", "another home's key", "garbage"])
def test_a_doctored_checkpoint_is_ignored_and_rebuilt(pbem, game, doctor, tmp_path, counted):
    path = the_checkpoint(pbem)
    data = path.read_bytes()
    at = {"payload": len(data) - 200, "header": len(checkpoint.MAGIC) + 10, "mac": len(data) - 1}
    if doctor in at:
        data = data[:at[doctor]] + bytes([data[at[doctor]] ^ 1]) + data[at[doctor] + 1:]
    elif doctor == "truncated":
        data = data[: len(data) // 2]
    elif doctor == "garbage":
        data = b"\x80\x05garbage"
    else:  # authentic for someone else: another user's key
        (path.parent / "key").write_bytes(os.urandom(32))
    path.write_bytes(data)
    head = chain_names(game)
    last = game / head[-1]
    honest = last.read_bytes()
    _edit_keeping_size_and_time(last)  # what a trusted checkpoint would not see
    pbem.fails("status", game)
    last.write_bytes(honest)
    counted.clear()
    assert pbem.json("status", game)["seq"] == len(head) - 1
    assert len(counted) == len(head) - 1  # replayed from genesis, and remembered again
    counted.clear()
    pbem("status", game)
    assert counted == []


def test_another_version_of_pbem_ignores_the_checkpoint(pbem, game, monkeypatch, counted):
    assert checkpoint.read(game) is not None
    monkeypatch.setattr(checkpoint_seal, "_CODE", "another pbem")
    assert checkpoint.read(game) is None
    pbem("status", game)
    assert counted  # replayed
    assert checkpoint.read(game).header.code == checkpoint_seal.code_version()


def test_a_dealer_continues_only_from_files_checked_as_the_dealer_checks(pbem, game, counted):
    """A public check (here after a file from elsewhere) is no dealer's
    check: the hotseat dealer's next answer replays knowing every card."""
    other = game.parent / "other"
    shutil.copytree(game, other)
    play(pbem, other, 1)
    new = sorted(set(chain_names(other)) - set(chain_names(game)))
    for name in new:
        shutil.copy(other / name, game / name)
    pbem("verify", game)  # a public check, remembered
    head = folder.load(game).seq
    checkpoint.forget_memory()  # a new process
    counted.clear()
    play(pbem, game, 1)
    assert len(counted) >= head + 2  # all of it again, as the dealer
    counted.clear()
    play(pbem, game, 1)
    assert len(counted) == 2  # then from the checkpoint: the turn and its answer
    # the same process remembers the chain its dealer checked: from there
    other = game.parent / "again"
    shutil.copytree(game, other)
    play(pbem, other, 1)
    new = sorted(set(chain_names(other)) - set(chain_names(game)))
    for name in new:
        shutil.copy(other / name, game / name)
    pbem("verify", game)
    counted.clear()
    play(pbem, game, 1)
    assert counted[:len(new)] == new and len(counted) == len(new) + 2


def test_a_new_game_in_the_same_folder_is_checked_as_new(pbem, game, tmp_path):
    shutil.rmtree(game)
    pbem("new", "aa", game, "--seat", "alice", "--seat", "bob", "--seed", "7")
    assert pbem.json("status", game)["seq"] == 0
    assert checkpoint.read(game).header.seq == 0


def test_a_killed_writers_temporary_checkpoint_is_removed_later(pbem, game):
    path = the_checkpoint(pbem)
    old, fresh = path.parent / f".{path.name}.aaaaaaaaaaaa.tmp", path.parent / f".{path.name}.bbbbbbbbbbbb.tmp"
    old.write_bytes(b"half"), fresh.write_bytes(b"half")
    os.utime(old, (0, 0))
    pbem("verify", "--full", game)
    assert not old.exists() and fresh.exists()  # a live writer's is left alone


def test_a_new_file_adds_a_segment_and_keeps_the_records_already_saved(pbem, game, monkeypatch):
    """Writing the checkpoint after a submit (whose party read every
    record) pickles the new file's record, and merges the last segments
    only while the newer is as long as the one before it: the segments
    saved before are kept byte for byte but for that tail, the lengths
    halve towards the end, and the restored chain is the replayed one."""
    import pickle

    monkeypatch.setenv("PBEM_HOME", str(pbem.home))

    def segments() -> tuple[list[bytes], list[int]]:
        saved = checkpoint.read(game)
        assert saved is not None
        return pickle.loads(saved.payload)[1:]

    folder.load(game, save=True)
    for _ in range(6):
        before, _ = segments()
        play(pbem, game, 1)  # `legal` and `submit` read every record (the seat's deliveries)
        after, counts = segments()
        assert after[:-1] == before[:len(after) - 1], "only the last segment is new (the new file and a merged tail)"
        assert all(a > b for a, b in zip(counts, counts[1:])), counts
        assert sum(counts) == len(chain_names(game))
    restored, replayed = folder.load(game), folder.load(game, full=True)
    assert [r.hash for r in restored.records] == [r.hash for r in replayed.records]
    assert restored.head == replayed.head and restored.public == replayed.public


def test_restored_records_hold_their_states_and_save_again_whole(pbem, game, monkeypatch):
    """A restored chain's records keep their states apart from their bodies
    (a seat's own secrets and deliveries need only the bodies): each state
    asked for is the replayed one, and a checkpoint that merges restored
    segments again (after many files) still holds every state."""
    monkeypatch.setenv("PBEM_HOME", str(pbem.home))
    monkeypatch.setattr(checkpoint_pickle, "_MAX_SEGMENTS", 2)  # merge at once
    folder.load(game, save=True)
    play(pbem, game, 3)
    for _ in range(2):
        restored, replayed = folder.load(game), folder.load(game, full=True)
        assert len(restored.records) == len(replayed.records)
        for mine, fresh in zip(restored.records, replayed.records):
            assert mine.body == fresh.body and mine.hash == fresh.hash
            assert (mine.before, mine.after) == (fresh.before, fresh.after), f"seq {mine.seq}"
            assert mine.prior == fresh.prior, f"seq {mine.seq}: the head before it, which an undo returns to"
        assert restored.now == replayed.now
        play(pbem, game, 1)


def test_a_checkpoint_of_an_earlier_layout_is_ignored_not_misread(pbem, game, monkeypatch, counted):
    """A checkpoint whose first bytes name an earlier layout (3: the chain's
    head as attributes changed in place, an undo's tuple) is never
    unpickled, even with this user's MAC: the folder is replayed and the
    checkpoint written anew."""
    monkeypatch.setenv("PBEM_HOME", str(pbem.home))
    path = the_checkpoint(pbem)
    signed = checkpoint_seal.authentic(path, checkpoint.MAGIC)
    assert signed is not None
    assert checkpoint_seal.sealed_write(path, b"pbem-checkpoint/3\n" + signed[len(checkpoint.MAGIC):])
    assert checkpoint.read(game) is None
    counted.clear()
    assert pbem.json("status", game)["seq"] == len(chain_names(game)) - 1
    assert len(counted) == len(chain_names(game)) - 1  # from genesis
    assert checkpoint.read(game) is not None


def test_a_killed_writers_temporary_file_goes_once_an_hour_old(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    target = checkpoint_seal.home() / "abc.ckpt"
    target.parent.mkdir(parents=True)
    old, young, other = (target.parent / n for n in (".abc.ckpt.1f2e.tmp", ".abc.ckpt.3c4d.tmp", ".abd.ckpt.5e6f.tmp"))
    for stray in (old, young, other):
        stray.write_bytes(b"half")
    hours_ago = time.time() - 7200
    os.utime(old, (hours_ago, hours_ago))
    os.utime(other, (hours_ago, hours_ago))
    assert checkpoint_seal.sealed_write(target, b"pbem-test\n0123456789")
    assert not old.exists() and young.exists() and other.exists()  # another checkpoint's file is its own business
