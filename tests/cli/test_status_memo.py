"""`pbem status` answered from memory (`pbem.gamedir.status_memo`, issue
#26 target 1): an unchanged game prints the words of the last full status
without loading the chain, and any change to what those words depend on
(a chain file, the address book, pbem's code, the memo itself) makes the
next status compute them in full, exactly as before."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import Pbem
from pbem.gamedir import status_memo
from pbem.home import checkpoint_seal


@pytest.fixture
def game(pbem: Pbem, tmp_path: Path) -> Path:
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "5")
    return g


def status(pbem: Pbem, g: Path, *more: str, ok: bool = True):
    return pbem("status", g, *more, ok=ok)


def memo_of(pbem: Pbem, g: Path, monkeypatch) -> Path:
    monkeypatch.setenv("PBEM_HOME", str(pbem.home))
    return status_memo.path_for(g)


def test_an_unchanged_game_is_answered_from_memory_with_the_same_words(pbem, game, memo_settled, chain_loads):
    first = status(pbem, game).output
    first_json = status(pbem, game, "--json").output
    assert len(chain_loads) == 1  # computed once, both forms remembered ...
    assert status(pbem, game).output == first and status(pbem, game, "--json").output == first_json
    assert len(chain_loads) == 1  # ... and answered from memory
    assert json.loads(first_json)["seq"] == 0 and "alice must decide" in first
    # the JSON form is what `pbem status --json` prints in full
    os.utime(sorted(game.glob("0*.pbem"))[-1])  # a change: computed afresh
    assert status(pbem, game, "--json").output == first_json and len(chain_loads) == 2


def test_status_all_reads_each_game_from_memory_with_the_same_rows(pbem, game, memo_settled, tmp_path, monkeypatch):
    from pbem.gamedir import folder as folder_mod

    other = tmp_path / "h"
    pbem("new", "aa", other, "--seat", "alice", "--seat", "bob", "--seed", "6")
    fresh = pbem("status", "--all", tmp_path).output  # no memo yet: every folder loaded
    for g in (game, other):
        status(pbem, g)
    loaded: list[Path] = []
    load = folder_mod.load
    monkeypatch.setattr(folder_mod, "load", lambda f, *a, **k: loaded.append(Path(f)) or load(f, *a, **k))
    assert pbem("status", "--all", tmp_path).output == fresh and loaded == []
    pbem("status", "--all", tmp_path, "--json")
    assert loaded == []


def test_every_change_it_depends_on_computes_it_again(pbem, game, memo_settled, chain_loads, tmp_path):
    words = status(pbem, game).output
    # a new file: new words
    pbem("submit", game, "--as", "alice", "--cmd", pbem.json("legal", game, "--as", "alice")[0])
    chain_loads.clear()
    after = status(pbem, game).output
    assert chain_loads and after != words and "seq 2" in after
    # the same bytes written again over a file (a sync tool's copy): computed again, same words
    last = sorted(game.glob("0*.pbem"))[-1]
    data = last.read_bytes()
    os.unlink(last)
    last.write_bytes(data)
    chain_loads.clear()
    assert status(pbem, game).output == after and chain_loads
    # a conflict copy beside a file
    shutil.copy(last, game / (last.stem + " (conflicted copy).pbem"))
    chain_loads.clear()
    status(pbem, game)
    assert chain_loads
    os.unlink(game / (last.stem + " (conflicted copy).pbem"))
    # the address book: another identity imported
    status(pbem, game)
    other = Pbem(tmp_path / "other-home")
    other("id", "new", "carol", "--no-passphrase")
    exported = tmp_path / "carol.id"
    other("id", "export", "carol", "-o", exported)
    pbem("id", "import", exported)
    chain_loads.clear()
    assert status(pbem, game).output == after and chain_loads
    # an identity gone from the book (no file changed, one fewer)
    status(pbem, game)
    for gone in (pbem.home / "ids").glob("carol.*"):
        os.unlink(gone)
    chain_loads.clear()
    assert status(pbem, game).output == after and chain_loads
    # pbem's code
    status(pbem, game)
    chain_loads.clear()
    checkpoint_seal._CODE = "another pbem"
    try:
        assert status(pbem, game).output == after and chain_loads
    finally:
        checkpoint_seal._CODE = None


def test_a_file_doctored_in_place_is_refused_as_before(pbem, game, memo_settled, chain_loads):
    status(pbem, game)
    first = sorted(game.glob("0*.pbem"))[-1]
    data = bytearray(first.read_bytes())
    data[len(data) // 2] ^= 1
    with open(first, "r+b") as fh:  # in place: the same inode
        fh.write(bytes(data))
    result = status(pbem, game, ok=False)
    assert result.exit_code == 1 and chain_loads


def test_a_doctored_or_foreign_memo_is_not_believed(pbem, game, memo_settled, chain_loads, tmp_path, monkeypatch):
    words = status(pbem, game).output
    memo = memo_of(pbem, game, monkeypatch)
    raw = memo.read_bytes()
    assert b"alice must decide" in raw
    memo.write_bytes(raw.replace(b"alice must decide", b"bob   must decide"))
    chain_loads.clear()
    assert status(pbem, game).output == words and chain_loads
    # another folder's memo (of another game) put in this folder's place
    other = tmp_path / "h"
    pbem("new", "aa", other, "--seat", "alice", "--seat", "bob", "--seed", "6")
    status(pbem, other)
    shutil.copy(memo_of(pbem, other, monkeypatch), memo)
    chain_loads.clear()
    assert status(pbem, game).output == words and chain_loads


def test_files_changed_within_the_last_second_are_not_trusted(pbem, game, chain_loads):
    status(pbem, game)
    chain_loads.clear()
    status(pbem, game)
    assert chain_loads  # the files are younger than a second: computed again


def test_a_game_with_a_clock_or_a_warning_is_never_remembered(pbem, tmp_path, memo_settled, chain_loads):
    paced = tmp_path / "paced"
    pbem("new", "aa", paced, "--seat", "alice", "--seat", "bob", "--pace", "3d")
    status(pbem, paced)
    chain_loads.clear()
    assert "clock: " in status(pbem, paced).output and chain_loads
    # a reader whose address book knows none of the game's keys is warned each time
    stranger = Pbem(tmp_path / "stranger-home")
    for _ in range(2):
        result = stranger("status", paced)
        assert "seat alice's key is not in your address book" in result.stderr
    unpaced = tmp_path / "unpaced"
    pbem("new", "aa", unpaced, "--seat", "alice", "--seat", "bob")
    for _ in range(2):
        result = stranger("status", unpaced)
        assert "seat alice's key is not in your address book" in result.stderr
    assert not list((tmp_path / "stranger-home").rglob("*.status"))


def test_a_status_from_memory_imports_neither_the_chain_nor_cryptography(pbem, game):
    """The real thing, in a process of its own: a second after the files'
    last change, a full status remembers; the next imports none of it."""
    time.sleep(1.1)
    env = {**os.environ, "PBEM_HOME": str(pbem.home)}
    run = [sys.executable, "-X", "importtime", "-m", "pbem", "status", str(game)]
    full = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
    quick = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
    assert quick.stdout == full.stdout and "alice must decide" in quick.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in quick.stderr.splitlines() if "|" in line}
    assert "pbem.protocol.chain" in {line.rsplit("|", 1)[-1].strip() for line in full.stderr.splitlines()}
    heavy = {m for m in imported if m.split(".")[0] in ("cryptography", "nacl", "msgspec", "json")
             or m.startswith(("pbem.protocol.", "pbem.games.", "pbem.app"))}
    assert heavy == set()


def test_where_a_change_time_can_be_set_back_nothing_is_remembered(pbem, game, memo_settled, chain_loads, monkeypatch):
    monkeypatch.setattr(status_memo, "WHERE_TRUSTED", False)  # as on Windows, whose st_ctime is the creation time
    status(pbem, game)
    chain_loads.clear()
    status(pbem, game)
    assert chain_loads and not list((pbem.home / "checkpoints").glob("*.status"))
