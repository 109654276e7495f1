"""Agent Avenue's advanced mode played whole: the conformance harness over
many seeded games, the demo under every dealer, the ``market=`` scenario
option through the CLI, and the secrecy of the black-market deck.

CI plays 60 seeded games per bot; ``PBEM_LONG=1`` plays 400 per bot.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.games.agent_avenue import GAME, cards
from pbem.games.base import SeatSpec
from pbem.games.conformance import check_game

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
SEEDS = range(400) if os.environ.get("PBEM_LONG") else range(60)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_conformance_over_seeded_advanced_games(bot):
    reasons = Counter()
    for seed in SEEDS:
        first = ["", "bob", "random"][seed % 3]
        outcome = check_game(GAME, GAME.options({"mode": "advanced", "first": first}), SEATS, seed, bot=bot)
        assert len(outcome.winners) == 1
        reasons[outcome.reason] += 1
    assert len(reasons) > 3  # the games end in many ways


def test_conformance_with_scenario_decks():
    for seed in range(10):
        market = list(cards.MARKET_NAMES)[seed:] + list(cards.MARKET_NAMES)[:seed]
        options = GAME.options({"mode": "advanced", "market": ",".join(market)})
        check_game(GAME, options, SEATS, seed, bot="random")


@pytest.mark.parametrize("dealer,seed", [("hotseat", 3), ("referee", 2), ("peer", 9)])
def test_demo_plays_to_the_end_and_verifies(tmp_path, dealer, seed):
    result = CliRunner().invoke(
        cli, ["demo", "agent-avenue", "--option", "mode=advanced", "--dealer", dealer, "--seed", str(seed),
              "--dir", str(tmp_path / "g"), "--keys", str(tmp_path / "k")],
    )
    assert result.exit_code == 0, result.output
    assert "result: " in result.output and "take " in result.output
    assert "pbem verify" in result.output and "pbem audit" in result.output and "FAIL" not in result.output


def test_market_scenario_option_is_for_hotseat_only(tmp_path):
    market = ",".join(cards.MARKET_NAMES)
    ok = CliRunner().invoke(
        cli, ["demo", "agent-avenue", "--option", "mode=advanced", "--option", f"market={market}",
              "--seed", "1", "--dir", str(tmp_path / "h"), "--keys", str(tmp_path / "k")],
    )
    assert ok.exit_code == 0, ok.output
    refused = CliRunner().invoke(
        cli, ["demo", "agent-avenue", "--dealer", "referee", "--option", "mode=advanced",
              "--option", f"market={market}", "--dir", str(tmp_path / "r"), "--keys", str(tmp_path / "k2")],
    )
    assert refused.exit_code == 1 and "pbem: error:" in refused.output and "market" in refused.output
    assert not any((tmp_path / "r").rglob("*.pbem")) if (tmp_path / "r").exists() else True


def test_bad_market_option_is_one_clear_error(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "agent-avenue", "--option", "mode=advanced", "--option", "market=Jetpack"])
    assert result.exit_code == 1 and "unknown black-market card 'Jetpack'" in result.output
