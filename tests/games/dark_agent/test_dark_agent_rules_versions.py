"""A Dark Agent game keeps the rules it began under.

``tests/vectors/dark-agent-rules-1/game`` was written by pbem under Dark
Agent rules 1 (``make.sh`` there says how): its failed attack on an AIM
wounded the attacking spy, which rules 2 no longer do. It must keep
verifying, replayed with the rules of its genesis; replayed with rules 2 it
would not (the test proves the vector exercises the change).
"""

from __future__ import annotations

import msgspec
import shutil
from pathlib import Path

from click.testing import CliRunner

from pbem import games
from pbem.cli import cli
from pbem.gamedir import folder
from paths import VECTORS

VECTOR = VECTORS / "dark-agent-rules-1" / "game"


def run(*args, home: Path):
    return CliRunner().invoke(cli, [str(a) for a in args], env={"PBEM_HOME": str(home)})


def test_a_game_begun_under_rules_1_keeps_verifying(tmp_path):
    work = tmp_path / "game"
    shutil.copytree(VECTOR, work)
    chain = folder.load(work)
    assert chain.genesis.rules_version == "1" and games.get("dark-agent").info.rules_version == "2"
    assert chain.game is games.get("dark-agent", "1")
    assert any("attacks AIM Arsenal" in line and "failure" in line for line in chain.public.log)
    assert chain.public.spy_cell["alice/2"] == -1  # wounded, as rules 1 say
    r = run("verify", work, "--full", home=tmp_path / "home")
    assert r.exit_code == 0 and r.stdout.startswith("ok: dark-agent game"), r.output
    assert "rules 1" in run("info", work, home=tmp_path / "home").stdout


def test_replayed_under_rules_2_the_same_files_would_not_verify(tmp_path, monkeypatch):
    game = games.get("dark-agent")
    monkeypatch.setattr(game, "info", msgspec.structs.replace(game.info, editions={"1": "pbem.games.dark_agent:GAME"}))
    work = tmp_path / "game"
    shutil.copytree(VECTOR, work)
    r = run("verify", work, "--full", home=tmp_path / "home")
    assert r.exit_code == 1 and "pbem: error:" in r.stderr, r.output


def test_new_games_are_begun_under_rules_2(pbem, tmp_path):
    pbem("new", "da", tmp_path / "g", "--seat", "alice", "--seat", "bob", "--dealer", "hotseat")
    assert folder.load(tmp_path / "g").genesis.rules_version == "2"
