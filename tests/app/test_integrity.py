"""Tamper evidence: any changed byte in a signed file or the dealer's key
makes `pbem verify` fail; `state.pbem` is only a cache, rebuilt with a note."""

from __future__ import annotations

import random
import shutil

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.app.demo import run_demo


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo") / "game"
    run_demo("agent-avenue", folder, 11, "hotseat", "greedy", echo=lambda line: None)
    return folder


def test_demo_folder_verifies(finished):
    r = CliRunner().invoke(cli, ["verify", str(finished)])
    assert r.exit_code == 0 and r.stdout.startswith("ok:")


@pytest.mark.parametrize("victim", ["000000-genesis.pbem", "000001-*", "000002-dealer.pbem", "last", "dealer.key"])
def test_flipping_any_byte_fails_verify(finished, tmp_path, victim):
    files = sorted(p.name for p in finished.iterdir())
    if victim == "last":
        name = [f for f in files if f[0].isdigit()][-1]
    elif victim.endswith("*"):
        name = next(f for f in files if f.startswith(victim[:-1]))
    else:
        name = victim
    data = (finished / name).read_bytes()
    rng = random.Random(name)
    positions = sorted(set(rng.sample(range(len(data)), min(40, len(data)))) | {0, len(data) - 1})
    runner = CliRunner()
    for pos in positions:
        work = tmp_path / f"w{pos}"
        shutil.copytree(finished, work)
        bad = bytearray(data)
        bad[pos] ^= 1 << rng.randrange(8)
        (work / name).write_bytes(bytes(bad))
        r = runner.invoke(cli, ["verify", str(work)])
        assert r.exit_code == 1, f"flip at {name}:{pos} not detected"
        assert r.stderr.startswith("pbem: error: ") and "internal error" not in r.stderr, r.stderr
        shutil.rmtree(work)


def test_a_damaged_state_cache_is_rebuilt_with_one_note(finished, tmp_path):
    good = (finished / "state.pbem").read_bytes()
    runner = CliRunner()
    for i, damage in enumerate([good[:-1], good[: len(good) // 2], b"", b"{}", None]):
        work = tmp_path / f"w{i}"
        shutil.copytree(finished, work)
        if damage is None:
            (work / "state.pbem").unlink()
        else:
            (work / "state.pbem").write_bytes(damage)
        r = runner.invoke(cli, ["verify", str(work)])
        assert r.exit_code == 0 and r.stdout.startswith("ok:"), r.output
        assert r.stderr.count("pbem: note: state.pbem") == 1 and "rebuilt it from the chain" in r.stderr
        assert (work / "state.pbem").read_bytes() == good
        again = runner.invoke(cli, ["verify", str(work)])  # said once: now it is right
        assert again.exit_code == 0 and "pbem: note:" not in again.stderr
