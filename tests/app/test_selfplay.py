"""`pbem.app.selfplay.check_dealers`: every game and variant played by its bots
through the real writers under every dealer it takes, replayed by a fresh
verifier and audited; a game's wrong declaration to the protocol is found
there, without a demo. The default run plays a sample (Agent Avenue and
the Duet's two-faced deck); ``PBEM_LONG=1`` every variant of
`tests/render/test_every_picture.py`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pbem import games
from pbem.app import selfplay
from tests.render.test_every_picture import VARIANTS
from paths import ROOT

LONG = os.environ.get("PBEM_LONG") == "1"
SAMPLE = {"aa", "cn-duet"}


@pytest.mark.parametrize("label, game, seats, options",
                         [v for v in VARIANTS if LONG or v[0] in SAMPLE], ids=[v[0] for v in VARIANTS
                                                                                if LONG or v[0] in SAMPLE])
def test_every_variant_plays_replays_and_audits_under_every_dealer_it_takes(label, game, seats, options):
    sizes = selfplay.check_dealers(game, tuple(options), seats, seed=1)
    g = games.get(game)
    expected = {"hotseat", "referee"} | ({"peer"} if len(seats) > 1 or g.info.name != "dark-agent" else set())
    assert set(sizes) == expected, sizes
    assert all(n > len(seats) for n in sizes.values())  # a real game, not a genesis alone


def test_an_audit_failure_is_named(monkeypatch):
    """A dealer whose recorded deal is not its seed's: the audit's failure
    comes back with the mode."""
    from pbem.app import audit as audit_mod

    real = audit_mod.audit

    def failing(folder):
        report = real(folder)
        report.failures.append("doctored for the test")
        return report

    monkeypatch.setattr(audit_mod, "audit", failing)
    with pytest.raises(AssertionError, match=r"agent-avenue under referee .*: the audit fails: doctored for the test"):
        selfplay.check_dealers("agent-avenue", modes=("referee",))


def test_the_command_line_for_a_game_being_written():
    r = subprocess.run([sys.executable, "-m", "pbem.app.selfplay", "agent-avenue", "--dealer", "peer", "--seed", "2"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("agent-avenue under peer: ") and "played, replayed and audited" in r.stdout


def test_a_game_in_a_package_of_its_own_is_found_by_its_entry_point(tmp_path):
    """A distribution declaring ``lucky = "..."`` in the entry-point group
    ``pbem.games`` (here the test game of `tests/chancegame.py`, as an
    installed package would declare it): the CLI knows it (`pbem demo
    --help` lists it), and its declarations are checked under every dealer."""
    dist = tmp_path / "lucky_game-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: lucky-game\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[pbem.games]\nlucky = tests.chancegame:GAME\n")
    root = str(ROOT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), root]), "PBEM_GAMES": ""}
    r = subprocess.run([sys.executable, "-m", "pbem.app.selfplay", "lucky", "--seed", "3"],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert [line.split(":")[0] for line in r.stdout.splitlines()] == [
        "lucky under hotseat", "lucky under referee", "lucky under peer"]
    r = subprocess.run([sys.executable, "-m", "pbem", "info", "lucky"], capture_output=True, text=True, timeout=60,
                       env=env)
    assert r.returncode == 0 and r.stdout.strip(), r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "pbem", "demo", "--help"], capture_output=True, text=True, timeout=60,
                       env=env)
    assert r.returncode == 0 and "Games: agent-avenue, codenames, codex, dark-agent, lucky." in r.stdout, r.stdout
    env["PYTHONPATH"] = root
    r = subprocess.run([sys.executable, "-m", "pbem", "info", "lucky"], capture_output=True, text=True, timeout=60,
                       env=env)
    assert r.returncode == 1 and "unknown game 'lucky'" in r.stderr  # without the distribution, no such game
