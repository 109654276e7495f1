"""Codex games begun under rules "1", "2" and "3" keep verifying and
auditing with the rules they were begun under (the frozen
`pbem.games.codex_v1`, `codex_v2` and `codex_v3`), while new games are made
under the current rules."""

from __future__ import annotations

import importlib
import shutil

import pytest
from click.testing import CliRunner

from pbem import games
from pbem.cli import cli
from pbem.gamedir import folder
from paths import VECTORS

GAMES = [(rules, mode) for rules in ("1", "2", "3") for mode in ("hotseat", "peer")]


@pytest.mark.parametrize("rules, mode", GAMES)
def test_an_earlier_rules_game_verifies_and_audits_with_its_own_package(rules, mode, tmp_path):
    work = tmp_path / "game"
    shutil.copytree(VECTORS / f"codex-rules{rules}" / mode / "game", work)
    chain = folder.load(work)
    assert chain.genesis.rules_version == rules
    assert chain.game is importlib.import_module(f"pbem.games.codex_v{rules}").GAME
    runner = CliRunner()
    r = runner.invoke(cli, ["verify", str(work)])
    assert r.exit_code == 0, r.output
    assert "over: base destroyed" in r.stdout
    r = runner.invoke(cli, ["audit", str(work)])
    assert r.exit_code == 0, r.output


def test_new_games_use_the_current_rules_and_rules1_is_only_kept():
    current = games.get("codex")
    assert current.info.rules_version not in ("1", "2", "3")
    assert current is importlib.import_module("pbem.games.codex").GAME
    assert games.get("codex", "1").info.rules_version == "1"
    assert games.get("codex", "2").info.rules_version == "2"
    assert games.get("codex", "3").info.rules_version == "3"
    assert games.get("codex", "4").info.rules_version == "4"  # this package under `codex.editions.RULES_4`
