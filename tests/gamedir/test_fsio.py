"""Atomic, exclusive writes: a reader never sees half a file, and two writers
racing for one turn number cannot overwrite each other."""

from __future__ import annotations

import os
import stat

import pytest

from pbem.errors import StaleTurn
from pbem.fsio import atomic_write
from pbem.gamedir import folder, folder_write


def test_atomic_write_replaces_and_sets_mode(tmp_path):
    p = tmp_path / "f"
    atomic_write(p, b"one", mode=0o600)
    atomic_write(p, b"two", mode=0o600)
    assert p.read_bytes() == b"two"
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    assert [x.name for x in tmp_path.iterdir()] == ["f"]  # no temp files left


def test_exclusive_write_refuses_an_existing_file(tmp_path):
    p = tmp_path / "f"
    atomic_write(p, b"first", exclusive=True)
    with pytest.raises(FileExistsError):
        atomic_write(p, b"second", exclusive=True)
    assert p.read_bytes() == b"first"
    assert [x.name for x in tmp_path.iterdir()] == ["f"]


def test_a_racing_second_writer_is_told_and_changes_nothing(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    chain_a = folder.load(g)
    chain_b = folder.load(g)  # a second process that loaded the same head
    from pbem.app import opening, reading, writing
    from pbem.home.store import KeyStore

    keys = opening.Keys(KeyStore(pbem.home), lambda: "")
    alice = opening.party(chain_a, "alice", keys)
    cmds = reading.legal(chain_a, alice)
    first = alice.turn(writing.parse_commands(chain_a, alice, [cmds[-1]]))
    second = alice.turn(writing.parse_commands(chain_a, alice, [cmds[-2]]))
    folder_write.add_file(g, chain_a, first)
    before = {p.name: p.read_bytes() for p in g.iterdir()}
    with pytest.raises(StaleTurn, match="at the same time"):
        folder_write.add_file(g, chain_b, second)
    assert {p.name: p.read_bytes() for p in g.iterdir()} == before


def test_exclusive_write_without_hard_links(tmp_path, monkeypatch):
    def no_links(src, dst):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    p = tmp_path / "f"
    atomic_write(p, b"first", exclusive=True)
    with pytest.raises(FileExistsError):
        atomic_write(p, b"second", exclusive=True)
    assert p.read_bytes() == b"first"
    assert [x.name for x in tmp_path.iterdir()] == ["f"]
