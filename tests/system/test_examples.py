"""The shipped examples keep verifying and auditing, release after release."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.crypto.keys import read_identity_file
from pbem.gamedir import folder
from paths import ROOT

EXAMPLES = ROOT / "examples"
GAMES = sorted(p.parent for p in EXAMPLES.glob("*/*/000000-genesis.pbem"))


def name(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"


def test_there_are_examples_for_every_dealer():
    assert {name(p) for p in GAMES} == {
        "agent-avenue-hotseat/game", "agent-avenue-referee/game", "agent-avenue-peer/alice", "agent-avenue-peer/bob",
    }


def test_peer_example_folders_hold_the_same_chain():
    a, b = EXAMPLES / "agent-avenue-peer" / "alice", EXAMPLES / "agent-avenue-peer" / "bob"
    assert {p.name: p.read_bytes() for p in a.iterdir()} == {p.name: p.read_bytes() for p in b.iterdir()}


@pytest.mark.parametrize("game", GAMES, ids=name)
def test_example_verifies_and_audits(game, tmp_path):
    work = tmp_path / "game"
    shutil.copytree(game, work)  # verify must not need to write
    runner = CliRunner()
    r = runner.invoke(cli, ["verify", str(work)])
    assert r.exit_code == 0, r.output
    assert "over:" in r.stdout
    r = runner.invoke(cli, ["audit", str(work)])
    assert r.exit_code == 0, r.output
    assert {p.name: p.read_bytes() for p in work.iterdir()} == {p.name: p.read_bytes() for p in game.iterdir()}


@pytest.mark.parametrize("game", GAMES, ids=name)
def test_example_identities_are_the_seats(game):
    chain = folder.load(game)
    ids = {p.stem: read_identity_file(p.read_bytes()) for p in (game.parent / "ids").glob("*.id")}
    for name, seat in chain.seats.items():
        assert ids[name] == seat.identity
    if chain.dealer_mode == "referee":
        assert ids[chain.dealer_name] == chain.genesis.dealer.identity


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_walkthrough_script_runs(tmp_path):
    exe_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": exe_dir + os.pathsep + os.environ["PATH"], "TMPDIR": str(tmp_path)}
    if not (Path(exe_dir) / "pbem").exists():
        pytest.skip("pbem is not installed as a script")
    out = subprocess.run(["bash", str(EXAMPLES / "walkthrough.sh")], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "ok: agent-avenue game" in out.stdout
