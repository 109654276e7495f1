"""The chain's head is a frozen value (`pbem.protocol.head.Head`): each
accepted file makes a new one, its record keeps the one before it, a refused
file leaves the head as it was, and a head once made never changes, the
peer deck in it included (changed only on a staged copy)."""

from __future__ import annotations

import pickle
from pathlib import Path

import msgspec
import pytest

from pbem.errors import PbemError
from pbem.gamedir import folder
from pbem.protocol.chain import Chain
from pbem.protocol.head import Head
from test_undo import cli, new_cli_game, others  # noqa: F401 - cli: every seat's key
from paths import ROOT

EXAMPLES = ROOT / "examples"
GAMES = ["agent-avenue-hotseat/game", "agent-avenue-referee/game", "agent-avenue-peer/alice"]


def files(g: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted(g.glob("[0-9]*.pbem"))]


@pytest.mark.parametrize("game", GAMES)
def test_a_head_never_changes_once_made(game):
    """Every head of a replay pickles to the same bytes at the end as when
    it was made: no later file changed it (or its deck) in place."""
    datas = files(EXAMPLES / game)
    chain = Chain(datas[0])
    heads = [(chain.now, pickle.dumps(chain.now))]
    for data in datas[1:]:
        before = chain.now
        record = chain.append(data)
        assert record.prior is before and chain.now is not before
        assert (chain.now.seq, chain.now.hash) == (record.seq, record.hash) == (chain.seq, chain.head)
        heads.append((chain.now, pickle.dumps(chain.now)))
    for head, made in heads:
        assert pickle.dumps(head) == made, f"the head at seq {head.seq} was changed in place"
    with pytest.raises(AttributeError):
        chain.now.public = None  # frozen
    with pytest.raises(AttributeError):
        chain.public = None  # the chain's head attributes are read-only


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_file_leaves_the_head_as_it_was(game):
    datas = files(EXAMPLES / game)
    chain = Chain(datas[0])
    for data in datas[1:-1]:
        chain.append(data)
    before, made, count = chain.now, pickle.dumps(chain.now), len(chain.records)
    doctored = datas[-1].replace(b'"state":"', b'"state":"A', 1)
    with pytest.raises(PbemError):
        chain.append(doctored)
    assert chain.now is before and pickle.dumps(chain.now) == made and len(chain.records) == count
    chain.append(datas[-1])  # and the real file still goes in


def test_an_accepted_undo_returns_to_the_head_recorded_before_the_move(cli, tmp_path):
    g = tmp_path / "g"
    sp = new_cli_game(cli, g)
    cli("submit", g, "--as", sp, "--cmd", cli.json("legal", g, "--as", sp)[0])
    target = folder.load(g).moves[-1]
    cli("undo", "request", g, "--as", sp)
    for name in others(sp):
        cli("undo", "accept", g, "--as", name)
    after = folder.load(g)
    prior = after.records[target].prior
    assert isinstance(prior, Head) and after.records[-1].undone == target
    assert after.now == msgspec.structs.replace(prior, seq=after.seq, hash=after.head)
