"""Seeded bot games over the pairings of the playable specs: the
conformance harness (legal answers the same on every seat's knowledge,
views equal and never leaking a hand, exact replay) on hotseat states, and
a sample through the real writers under the referee and peer dealers,
verified from the files and audited. The default run plays every pairing
with one of the two bots; PBEM_LONG=1 plays each with both."""

from __future__ import annotations

import itertools
import os

import msgspec
import pytest

from pbem.games.base import SeatSpec
from pbem.games.codex import GAME, cards
from pbem.games.conformance import check_game

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
LONG = os.environ.get("PBEM_LONG") == "1"
SPECS = [s.lower() for s in cards.playable_specs()]
PAIRS = list(itertools.combinations_with_replacement(SPECS, 2))
#: every pairing in every run (about 0.8 s of CPU a game): one bot each by
#: turns in the default run, so each bot meets half of them; both in the long mode
RUNS = [(pair, bot) for pair in PAIRS for bot in ("random", "greedy")] if LONG else \
    [(pair, ("random", "greedy")[i % 2]) for i, pair in enumerate(PAIRS)]


def test_the_red_and_green_specs_are_playable():
    assert {"anarchy", "blood", "fire", "balance", "feral", "growth"} <= set(SPECS)


@pytest.mark.parametrize("pair, bot", RUNS, ids=[f"{a}-{b}-{bot}" for (a, b), bot in RUNS])
def test_bot_games_of_a_spec_pairing_conform_and_end(pair, bot):
    options = GAME.options({"p1": pair[0], "p2": pair[1]})
    seed = PAIRS.index(pair)
    outcome = check_game(GAME, options, SEATS, seed, bot=bot, max_steps=4000)
    assert outcome.reason.startswith("base destroyed")


@pytest.mark.parametrize("mode, p1, p2", [("peer", "blood", "feral"), ("referee", "fire", "growth"),
                                          ("peer", "anarchy", "balance")])
def test_red_and_green_specs_under_the_peer_and_referee_dealers(mode, p1, p2, tmp_path):
    """A whole bot game through the real writers verifies from its files and audits."""
    from pbem.app import opening
    from pbem.app.audit import audit
    from tests import tamper

    table = tamper.play("codex", mode, ["alice", "bob"], 5, options=(f"p1={p1}", f"p2={p2}"))
    folder = tamper.save(table, tmp_path / "game")
    chain = opening.verify(folder)
    assert chain.over and chain.outcome().reason.startswith("base destroyed")
    assert audit(folder).ok


def _demo(dealer: str, tmp_path):
    """`pbem demo codex --option p1=blood --option p2=feral --dealer D` as a
    real process; returns its output and the folders it kept."""
    import subprocess
    import sys

    folder = tmp_path / "game"
    r = subprocess.run([sys.executable, "-m", "pbem", "demo", "codex", "--option", "p1=blood", "--option", "p2=feral",
                        "--dealer", dealer, "--seed", "1", "--dir", str(folder), "--keys", str(tmp_path / "keys")],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
                       env={**os.environ, "PBEM_HOME": str(tmp_path / "home")})
    assert r.returncode == 0, r.stderr
    return r.stdout, [folder / s for s in ("alice", "bob")] if dealer == "peer" else [folder]


@pytest.mark.parametrize("dealer", ["referee", pytest.param("peer", marks=pytest.mark.skipif(
    not LONG, reason="the peer demo takes about 9 s: PBEM_LONG=1"))])
def test_the_cli_demo_of_blood_against_feral_ends_with_a_destroyed_base_verified_and_audited(dealer, tmp_path):
    """Issue #22's "done when" command, through the CLI: the demo plays to a
    destroyed base, and every folder it leaves verifies and audits here
    again (not only by the demo's own word)."""
    from pbem.app import opening
    from pbem.app.audit import audit

    out, folders = _demo(dealer, tmp_path)
    assert f"({dealer} dealer)" in out.splitlines()[0]
    assert "result: base destroyed" in out
    for folder in folders:
        assert f"pbem verify {folder}: ok" in out and f"pbem audit {folder}: ok" in out
        chain = opening.verify(folder)
        assert chain.over and chain.outcome().reason.startswith("base destroyed")
        options = msgspec.json.decode(chain.genesis.options)
        assert (options["p1"], options["p2"]) == ("blood", "feral")
        assert audit(folder).ok
