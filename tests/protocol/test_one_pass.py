"""One pass per writing command (issue #12): a hotseat `submit` or a
referee's `sync` replays the chain once, knowing the dealer's cards, and
that one pass still stops what only the dealer can see."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from pbem.app import opening, reading, writing
from pbem.home import checkpoint, checkpoint_seal
from pbem.errors import IllegalCommand
from pbem.gamedir import folder, folder_write
from pbem.protocol.chain import Chain
from test_protocol_cheats import keys, new, two_enforcers  # noqa: F401 - fixture and helpers


@pytest.fixture
def counted(monkeypatch) -> list[bool]:
    """One entry per file checked into any chain: True when checked knowing the dealer's cards."""
    seen: list[bool] = []
    append = Chain.append

    def counting(self, data, name="", private_openings=None):
        seen.append(private_openings is not None)
        return append(self, data, name, private_openings)

    monkeypatch.setattr(Chain, "append", counting)
    return seen


def play_some(g: Path, keys: opening.Keys, turns: int, seed: int = 2) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        chain = folder.load(g)
        me = chain.writers()[0]
        choice = rng.choice(reading.legal(chain, opening.party(chain, me, keys)))
        writing.submit(g, me, [choice], keys)


def test_a_hotseat_submit_replays_the_chain_once(tmp_path, keys, counted):
    g = new(tmp_path, keys)
    play_some(g, keys, 6)
    chain = folder.load(g)
    files = len(chain.records) - 1  # every file after the genesis
    me = chain.writers()[0]
    choice = reading.legal(chain, opening.party(chain, me, keys))[0]
    counted.clear()
    written = writing.submit(g, me, [choice], keys)
    assert len(written) >= 2  # the turn and the dealer's answer
    # from the checkpoint the last submit left, only the new files are checked
    assert len(counted) == len(written) and all(counted)
    # without it (a new $PBEM_HOME): one pass, not two (2 * files + ...)
    chain = folder.load(g)
    me = chain.writers()[0]
    choice = reading.legal(chain, opening.party(chain, me, keys))[0]
    files = len(chain.records) - 1
    shutil.rmtree(checkpoint_seal.home())
    counted.clear()
    written = writing.submit(g, me, [choice], keys)
    assert len(counted) == files + len(written)
    assert all(counted)  # every file checked as the dealer sees it


def test_the_one_pass_still_refuses_a_hidden_illegal_play(tmp_path, keys):
    g = new(tmp_path, keys)
    folder_write.add_file(g, folder.load(g), two_enforcers(g, keys))
    before = sorted(p.name for p in g.iterdir())
    with pytest.raises(IllegalCommand, match="both cards are named Enforcer"):
        writing.submit(g, "bob", ["recruit"], keys)
    assert sorted(p.name for p in g.iterdir()) == before


def test_a_referee_sync_replays_once(tmp_path, keys, counted):
    g = new(tmp_path, keys, "referee")
    writing.sync(g, "rita", keys)
    chain = folder.load(g)
    checked = chain.seq  # by the referee, knowing the cards
    me = chain.writers()[0]
    writing.submit(g, me, [reading.legal(chain, opening.party(chain, me, keys))[0]], keys)
    seats = folder.load(g).seq - checked
    counted.clear()
    written = writing.sync(g, "rita", keys)
    assert written  # this process checked up to `checked` as the referee: from there
    assert len(counted) == seats + len(written) and all(counted)
    chain = folder.load(g)
    me = chain.writers()[0]
    writing.submit(g, me, [reading.legal(chain, opening.party(chain, me, keys))[0]], keys)
    files = len(folder.load(g).records) - 1
    checkpoint.forget_memory()  # a new process: the checkpoint is the seat's, public
    counted.clear()
    written = writing.sync(g, "rita", keys)
    assert written
    assert len(counted) == files + len(written) and all(counted)
