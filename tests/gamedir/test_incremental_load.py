"""A folder loaded again by the same process (issue #26): only the files it
has not read are read, and what it remembers (the files' bytes, the
checkpoint, the chain) never changes a verdict. Each doctored folder is
loaded twice from the same checkpoint on disk, once by a process that
remembers the folder and once by one that does not, and both must say the
same: the same head, or the same error."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from conftest import Pbem
from pbem.home import checkpoint, checkpoint_seal
from pbem.errors import PbemError
from pbem.gamedir import file_memory
from pbem.gamedir import folder


def play(pbem: Pbem, g: Path, turns: int, pick: int = 0) -> None:
    for _ in range(turns):
        who = pbem.json("status", g)["to_act"][0]["seat"]
        cmds = pbem.json("legal", g, "--as", who)
        pbem("submit", g, "--as", who, "--cmd", cmds[pick % len(cmds)])


@pytest.fixture(autouse=True)
def settled(monkeypatch):
    """Every file counts as settled (written long before it is read), so
    that the memory is used for all of them; each test waits a tick of the
    file-system clock before it doctors a file, as time would."""
    real = time.time_ns
    monkeypatch.setattr(file_memory.time, "time_ns", lambda: real() + 10 * file_memory.SETTLED_NS)
    yield
    file_memory.forget()
    checkpoint.forget_memory()


@pytest.fixture
def game(pbem: Pbem, tmp_path: Path) -> Path:
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "5")
    play(pbem, g, 2)
    return g


def chain_names(g: Path) -> list[str]:
    return sorted(p.name for p in g.iterdir() if p.name[0].isdigit())


def verdict(g: Path) -> tuple:
    try:
        chain = folder.load(g)
    except PbemError as exc:
        return type(exc).__name__, exc.message
    return chain.seq, chain.head, sorted(chain.notes)


def same_verdict_remembered_or_not(g: Path, doctor) -> tuple:
    """Load (remembered), doctor, then the verdict of a load that remembers
    and of one that does not, from the same checkpoint on disk."""
    folder.load(g)
    folder.load(g)  # the checkpoint and every file remembered now
    ckpts = checkpoint_seal.home()
    kept = ckpts.parent / "kept"
    shutil.copytree(ckpts, kept)
    time.sleep(0.05)  # a tick of the file-system clock
    doctor(g)
    remembered = verdict(g)
    shutil.rmtree(ckpts)
    shutil.copytree(kept, ckpts)
    file_memory.forget()
    checkpoint.forget_memory()
    fresh = verdict(g)
    shutil.rmtree(kept)
    assert remembered == fresh
    return fresh


def _edit_in_place(name_at: int):
    def doctor(g: Path) -> None:
        path = g / chain_names(g)[name_at]
        st = path.stat()
        data = bytearray(path.read_bytes())
        at = data.index(b'"sig":"') + 10
        data[at] = ord("A") if data[at] != ord("A") else ord("B")
        with open(path, "r+b") as fh:  # the same inode and size
            fh.write(bytes(data))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # its time set back
    return doctor


def test_a_file_edited_in_place_with_its_time_set_back_is_seen(game):
    kind, message = same_verdict_remembered_or_not(game, _edit_in_place(2))
    assert "not the file you verified" in message or "signature" in message


def test_a_file_replaced_removed_or_added_is_seen_as_a_fresh_load_sees_it(pbem, game, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(game, other)
    play(pbem, other, 1, pick=0)
    second = tmp_path / "second"  # another valid version of the same turn
    shutil.copytree(game, second)
    play(pbem, second, 1, pick=1)
    new = sorted(set(chain_names(other)) - set(chain_names(game)))
    differ = [n for n in new if (second / n).exists() and (second / n).read_bytes() != (other / n).read_bytes()]
    assert differ

    def add(g: Path) -> None:
        for name in new:
            shutil.copy(other / name, g / name)
    assert same_verdict_remembered_or_not(game, add)[0] == folder.load(other).seq

    def replace(g: Path) -> None:  # a writer's second version of the files verified
        for name in new:
            if (second / name).exists():
                shutil.copy(second / name, g / "swap.tmp")
                os.replace(g / "swap.tmp", g / name)
            else:
                (g / name).unlink()
    kind, message = same_verdict_remembered_or_not(game, replace)
    assert "is not the file you verified" in message

    def remove(g: Path) -> None:
        (g / chain_names(g)[-1]).unlink()
    game2 = tmp_path / "g2"
    shutil.copytree(other, game2)
    kind, message = same_verdict_remembered_or_not(game2, remove)
    assert "is not the file you verified" in message


def test_a_copy_beside_a_file_is_noted_as_a_fresh_load_notes_it(game):
    def copy(g: Path) -> None:
        name = chain_names(g)[-1]
        shutil.copy(g / name, g / name.replace(".pbem", " (1).pbem"))
    seq, _, notes = same_verdict_remembered_or_not(game, copy)
    assert any("is a copy of" in n for n in notes)


def test_a_folder_loaded_again_reads_only_its_new_files(pbem, game, monkeypatch, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(game, other)
    play(pbem, other, 1)
    new = sorted(set(chain_names(other)) - set(chain_names(game)))
    want = folder.load(other).seq
    folder.load(game)
    folder.load(game)
    read = []
    real = folder.read
    monkeypatch.setattr(folder, "read", lambda path, follow=False: read.append(path.name) or real(path, follow))
    folder.load(game)
    assert read == []
    for name in new:
        shutil.copy(other / name, game / name)
    assert folder.load(game).seq == want
    assert read == new


def test_a_checkpoint_written_now_and_then_still_refuses_a_replaced_file(pbem, game, monkeypatch, tmp_path):
    """A process that writes a folder again and again writes its checkpoint
    only now and then (`checkpoint.due`): what it verified since is
    remembered all the same, so a new process refuses a file it verified
    that was replaced by another valid one."""
    monkeypatch.setattr(checkpoint, "LAZY_SHARE", 1)  # every file behind is a share: never due again here
    monkeypatch.setattr(checkpoint, "LAZY_FROM", 0)  # lazy in a short game too
    play(pbem, game, 2)
    before = tmp_path / "before"
    shutil.copytree(game, before)
    play(pbem, game, 1, pick=0)
    assert checkpoint.read(game).header.seq < folder.load(game).seq  # the checkpoint on disk lags
    play(pbem, before, 1, pick=1)
    assert chain_names(game) == chain_names(before)
    differ = [n for n in chain_names(game) if (before / n).read_bytes() != (game / n).read_bytes()]
    assert differ
    for name in differ:
        shutil.copy(before / name, game / name)
    checkpoint.forget_memory()  # a new process: only what is on disk
    file_memory.forget()
    with pytest.raises(PbemError, match="is not the file you verified"):
        folder.load(game)
