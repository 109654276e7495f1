"""Games begun under protocol version 6 and the Codex rules 4, written once by
`vectors/v6/make.sh` (and a seat handed over, by `vectors/v6/make-handover.py`),
keep verifying and auditing: every file's signed time,
the proofs of the private decks in the joins, the rules-4 states, none may
change under them."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.gamedir import folder
import paths

VECTORS = paths.VECTORS / "v6"


@pytest.mark.parametrize("name", ["codex-peer", "agent-avenue-referee", "agent-avenue-peer-handover"])
def test_a_version_6_game_keeps_verifying_and_auditing(name, tmp_path):
    work = tmp_path / "game"
    shutil.copytree(VECTORS / name / "game", work)
    chain = folder.load(work)
    assert chain.genesis.version == 6 and chain.over
    assert all(r.body.at is not None for r in chain.records[1:]), "every version-6 file carries its time"
    if name == "codex-peer":
        assert chain.genesis.rules_version == "4" and chain.genesis.peer.private_proofs
    if name == "agent-avenue-peer-handover":  # bob's seat to carol on bob's word (`vectors/v6/make-handover.py`)
        seq, carol = chain.handed["bob"]
        assert carol.name == "carol" and chain.records[seq].body.consent is None
        rekey = chain.records[seq + 1].body
        assert rekey.rekey is not None and rekey.beacon is not None  # version 6: the old chain's link
    runner = CliRunner()
    for command in ("verify", "audit"):
        result = runner.invoke(cli, [command, str(work)])
        assert result.exit_code == 0, result.output
