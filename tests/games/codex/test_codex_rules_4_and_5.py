"""Codex games keep the rules they began under, rules 4 and 5 alike.

``tests/vectors/codex-rules4/game`` was written by pbem under rules 4
(``make.sh`` there says how): in a Two-Headed Dragon carol, the red team's
second player, casts Moment's Peace and bob still attacks the team's one
base, which rules 5 forbid. ``tests/vectors/codex-rules5/dragon`` is the
same position under rules 5: bob attacks alice's Older Brother and carol's
tower hits his Iron Man, which rules 4 did not. Each must keep verifying,
replayed with the rules of its genesis (`pbem.games.codex.GAME_RULES_4`,
`GAME`); replayed with the other edition's readings neither would (the
tests prove each vector meets the difference). ``codex-rules5/hotseat`` is
a whole bot game under rules 5, as ``codex-rules3`` has one under rules 3.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import games
from pbem.cli import cli
from pbem.gamedir import folder
from pbem.games.codex import GAME, GAME_RULES_4, editions
from paths import VECTORS

RULES_4 = VECTORS / "codex-rules4" / "game"
DRAGON_5 = VECTORS / "codex-rules5" / "dragon"
HOTSEAT_5 = VECTORS / "codex-rules5" / "hotseat" / "game"


def run(*args, home: Path):
    return CliRunner().invoke(cli, [str(a) for a in args], env={"PBEM_HOME": str(home)})


def copy(vector: Path, tmp_path: Path) -> Path:
    work = tmp_path / "game"
    shutil.copytree(vector, work)
    return work


def iron_man_damage(chain) -> int:
    return next(t.damage for t in chain.public.things.values() if t.card == "Iron Man")


def test_a_game_begun_under_rules_4_keeps_verifying_with_its_breach(tmp_path):
    work = copy(RULES_4, tmp_path)
    chain = folder.load(work)
    assert chain.genesis.rules_version == "4" and games.get("codex").info.rules_version == "5"
    assert chain.game is GAME_RULES_4
    # Iron Man's 3 on the team's base through carol's Moment's Peace; carol's tower left him alone
    assert [chain.public.players[s].base_damage for s in ("alice", "carol")] == [3, 3]
    assert iron_man_damage(chain) == 0
    r = run("verify", work, "--full", home=tmp_path / "home")
    assert r.exit_code == 0 and r.stdout.startswith("ok: codex game"), r.output
    assert "rules 4" in run("info", work, home=tmp_path / "home").stdout


def test_a_game_begun_under_rules_5_verifies(tmp_path):
    work = copy(DRAGON_5, tmp_path)
    chain = folder.load(work)
    assert chain.genesis.rules_version == "5" and chain.game is GAME
    assert not any(t.card == "Older Brother" for t in chain.public.things.values()), "Iron Man killed it"
    assert iron_man_damage(chain) == 2 + 1, "Older Brother's 2 and carol's tower's 1"
    assert chain.public.players["alice"].base_damage == 0
    r = run("verify", work, "--full", home=tmp_path / "home")
    assert r.exit_code == 0 and r.stdout.startswith("ok: codex game"), r.output


@pytest.mark.parametrize("vector, other, why", [
    (RULES_4, editions.CURRENT, "Iron Man cannot attack alice's base: Moment's Peace forbids it"),
    (DRAGON_5, editions.RULES_4, "the state it claims is not the state its commands produce"),  # no tower damage
])
def test_replayed_with_the_other_editions_readings_neither_would_verify(vector, other, why, tmp_path, monkeypatch):
    monkeypatch.setattr(editions, "current", lambda: other)
    work = copy(vector, tmp_path)
    r = run("verify", work, "--full", home=tmp_path / "home")
    assert r.exit_code == 1 and r.stderr.startswith("pbem: error: 000004-bob.pbem") and why in r.stderr, r.output


def test_a_whole_bot_game_under_rules_5_verifies_and_audits(tmp_path):
    work = copy(HOTSEAT_5, tmp_path)
    assert folder.load(work).genesis.rules_version == "5"
    r = run("verify", work, home=tmp_path / "home")
    assert r.exit_code == 0 and "over: base destroyed" in r.stdout, r.output
    assert run("audit", work, home=tmp_path / "home").exit_code == 0
