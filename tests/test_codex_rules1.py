"""Codex games begun under rules "1" keep verifying and auditing with the
rules they were begun under (the frozen `pbem.games.codex_v1`), while new
games are made under the current rules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import games
from pbem.cli import cli
from pbem.protocol import folder

VECTORS = Path(__file__).resolve().parent / "vectors" / "codex-rules1"
GAMES = ["hotseat", "peer"]


@pytest.mark.parametrize("mode", GAMES)
def test_a_rules1_game_verifies_and_audits_with_the_rules1_package(mode, tmp_path):
    work = tmp_path / "game"
    shutil.copytree(VECTORS / mode / "game", work)
    chain = folder.load(work)
    assert chain.genesis.rules_version == "1"
    assert type(chain.game).__module__ == "pbem.games.codex_v1"
    runner = CliRunner()
    r = runner.invoke(cli, ["verify", str(work)])
    assert r.exit_code == 0, r.output
    assert "over: base destroyed" in r.stdout
    r = runner.invoke(cli, ["audit", str(work)])
    assert r.exit_code == 0, r.output


def test_new_games_use_the_current_rules_and_rules1_is_only_kept():
    current = games.get("codex")
    assert current.rules_version != "1"
    assert type(current).__module__ == "pbem.games.codex"
    assert games.get("codex", "1").rules_version == "1"
