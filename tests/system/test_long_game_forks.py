"""A resignation or a timeout claim that meets the mover's own file on the
same predecessor (issue #24): every verifier settles it by the rules of
`pbem.protocol.forks`, whichever file arrives first (`pbem apply` in both
orders) and in a shared folder holding both; it is no longer a fork.

* the seat that was to write stands over a timeout claim (the accused
  answers with its own move) and over another seat's resignation written
  out of turn;
* a seat's resignation stands over its own move on the same predecessor;
* in a referee game the referee's timeout stands over the late seat's move.

Each file is written by the real CLI in a copy of its writer's folder,
signed with its writer's real key."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pbem.app import opening, reading, receiving
from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod
from test_long_games import DAY, bob_to_move, referee_table


def written(t, who: str, *args) -> Path:
    """The file `who` writes on the head with `pbem ARGS`, in a copy of its
    folder (the table's folders stay at the head)."""
    copy = t.dirs[who].parent / f"{who}-{os.urandom(4).hex()}"
    shutil.copytree(t.dirs[who], copy)
    seq = folder_mod.load(copy).seq + 1
    t.cli[who](args[0], copy, "--as", who, *args[1:], deal=False)
    path, = copy.glob(f"{seq:06d}-*.pbem")
    return path


def move(t, who: str) -> Path:
    chain = folder_mod.load(t.dirs[who])
    return written(t, who, "submit", "--cmd", reading.legal(chain, opening.party(chain, who, t.keys[who]))[0])


def stands(t, reader: str, first: Path, second: Path) -> str:
    """The file that stands at its seq once `first`, then `second`, reach a
    copy of `reader`'s folder (the other is set aside with a note): the
    name of its writer, and the same in a shared folder holding both."""
    seq = int(first.name[:6])
    out = []
    for i, order in enumerate([(first, second), (second, first)]):
        folder = t.dirs[reader].parent / f"{reader}-{os.urandom(4).hex()}"
        shutil.copytree(t.dirs[reader], folder)
        notes: list[str] = []
        for path in order:
            receiving.receive(folder, [path], notes=notes)
        assert any("set aside" in n for n in notes), notes
        out.append(folder_mod.load(folder).records[seq])
    shared = t.dirs[reader].parent / f"{reader}-{os.urandom(4).hex()}"
    shutil.copytree(t.dirs[reader], shared)
    shutil.copy(first, shared / first.name)
    shutil.copy(second, shared / (second.name if second.name != first.name else f"{second.stem}.2.pbem"))
    out.append(folder_mod.load(shared).records[seq])
    assert len({r.hash for r in out}) == 1
    return out[0]


def test_a_move_stands_over_a_claim_and_over_a_resignation_out_of_turn_but_not_over_its_own(tmp_path, monkeypatch):
    t, _ = bob_to_move(tmp_path, monkeypatch)
    t.now(t.t + 2 * DAY + 5)  # bob's time is out
    mine = move(t, "bob")
    claim = written(t, "alice", "timeout")
    assert stands(t, "alice", claim, mine).body.commands  # bob answers the claim with his move
    resigned = written(t, "alice", "resign")
    assert stands(t, "alice", resigned, mine).body.commands  # alice resigned out of turn: bob was to write
    own = written(t, "bob", "resign")
    assert stands(t, "alice", mine, own).body.resign is not None  # bob's own resignation over his own move
    # a fork no rule settles is still a fork: two moves of bob's
    other = written(t, "bob", "submit", "--cmd", reading.legal(t.chain("bob"), opening.party(
        t.chain("bob"), "bob", t.keys["bob"]))[-1])
    if other.read_bytes() != mine.read_bytes():
        shutil.copy(other, t.dirs["alice"] / f"{other.stem}.2.pbem")
        shutil.copy(mine, t.dirs["alice"] / mine.name)
        with pytest.raises(PbemError, match="fork"):
            folder_mod.load(t.dirs["alice"])


def test_the_referees_timeout_stands_over_the_late_seats_move(tmp_path, monkeypatch):
    t = referee_table(tmp_path, monkeypatch, "aa", "abandon", pace="2d")
    late = t.chain().writers()[0]
    t.now(t.t + 2 * DAY + 1)
    timeout = written(t, "rita", "timeout")
    mine = move(t, late)
    other = next(n for n in ("alice", "bob") if n != late)
    assert stands(t, other, mine, timeout).body.timeout is not None
