"""A kill loses nothing: SIGKILL a real `pbem submit`, `sync` or `apply` at a
random moment, and the folder still verifies (after at most one automatic
rebuild of the `state.pbem` cache), and rerunning the command completes the
work: the game reaches the same next state as an uninterrupted run.

CI runs one kill per case (command x dealer mode, ~20 s). Long mode:
``PBEM_LONG=1 python -m pytest tests/system/test_kill.py -q -s`` runs 300 (set
``PBEM_KILLS=N`` for another count; ``PBEM_KILL_SEED`` replays the delays).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from conftest import Pbem
from pbem.gamedir import folder as folder_mod, folder_write
from races import cases, spawn, status_json

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

MODES = ["hotseat", "referee", "peer"]
KILLS = int(os.environ.get("PBEM_KILLS", 300 if os.environ.get("PBEM_LONG") else 9))
SEED = int(os.environ.get("PBEM_KILL_SEED", random.randrange(1 << 30)))
TALLY: dict[str, int] = {}


@pytest.fixture(scope="module")
def all_cases(tmp_path_factory):
    base = tmp_path_factory.mktemp("kill")
    return [c for mode in MODES for c in cases(base / mode, mode)]


def _run_to_end(case, work: Path) -> tuple[float, float]:
    """How long the command runs, and when its first write appears."""
    before = set(os.listdir(work))
    start = time.monotonic()
    proc = spawn(case.home, *case.args(work))
    first = None
    while proc.poll() is None:
        if first is None and set(os.listdir(work)) - before - {".pbem.lock"}:
            first = time.monotonic() - start
        time.sleep(0.001)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, (case.name, out, err)
    duration = time.monotonic() - start
    return duration, duration * 0.8 if first is None else first


def test_kills_lose_nothing(all_cases, tmp_path):
    rng = random.Random(SEED)
    names = [c.name for c in all_cases]
    assert {"hotseat-submit", "hotseat-sync", "hotseat-apply", "referee-submit", "referee-sync",
            "referee-apply", "peer-submit", "peer-sync", "peer-apply"} <= set(names)
    plans = []
    for case in all_cases:
        clean = tmp_path / f"{case.name}-clean"
        shutil.copytree(case.folder, clean)
        duration, writing = _run_to_end(case, clean)
        plans.append((case, duration, writing, status_json(case.home, clean)))
    per_case = max(1, KILLS // len(plans))
    for n in range(per_case):
        for case, duration, writing, expected in plans:
            # random moments across the whole run (start-up included), and
            # more of them from just before the first write to the end
            delay = rng.uniform(0.0, duration * 1.1) if n % 3 == 2 else rng.uniform(writing * 0.9, duration)
            _kill_and_check(case, tmp_path / f"{case.name}-{n}", delay, expected)
    print(f"\nkills: {per_case * len(plans)} (seed {SEED}); after the kill: {dict(sorted(TALLY.items()))}", file=sys.stderr)


def _kill_and_check(case, work: Path, delay: float, expected: dict) -> None:
    where = f"{case.name}, kill after {delay:.3f} s (PBEM_KILL_SEED={SEED})"
    shutil.copytree(case.folder, work)
    before = {p.name for p in work.iterdir()}
    proc = spawn(case.home, *case.args(work))
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    said, _ = proc.communicate(timeout=60)
    after = {p.name for p in work.iterdir()}
    landed = sorted(n for n in after - before if n[0].isdigit())
    temps = [n for n in after if n.endswith(".tmp")]
    TALLY["finished" if proc.returncode == 0 else "killed"] = TALLY.get("finished" if proc.returncode == 0 else "killed", 0) + 1
    if proc.returncode != 0:
        key = f"{len(landed)} file(s) written"
        TALLY[key] = TALLY.get(key, 0) + 1
        if temps:
            TALLY["temp files left"] = TALLY.get("temp files left", 0) + 1
        if not folder_write.state_cache_ok(work, folder_mod.load(work)):
            TALLY["stale cache"] = TALLY.get("stale cache", 0) + 1
    pbem = Pbem(case.home)
    # 1. the folder verifies, repairing the cache at most once
    first = pbem("verify", work, ok=False)
    assert first.exit_code == 0, (where, first.output)
    assert first.stderr.count("state.pbem") <= 1, (where, first.stderr)
    assert not [p for p in work.iterdir() if p.name.endswith(".tmp")], where
    again = pbem("verify", work, ok=False)
    assert again.exit_code == 0 and again.stderr == "", (where, again.output)
    # 2. rerunning the command completes the work; only a submit killed
    # after it had reported what it wrote (its seat still to act: the same
    # command is then a new one, pbem.home.journal) may be refused, saying so
    rerun = pbem(*case.args(work), ok=False)
    if rerun.exit_code == 1 and case.args(work)[0] == "submit" and landed and all(n in said for n in landed):
        TALLY["rerun refused after a full report"] = TALLY.get("rerun refused after a full report", 0) + 1
        assert "holds these very commands" in rerun.stderr, (where, rerun.output)
    else:
        assert rerun.exit_code == 0, (where, rerun.output)
    assert status_json(case.home, work) == expected, where
    assert folder_write.state_cache_ok(work, folder_mod.load(work)), where
    assert all(len(paths) == 1 for paths in folder_mod.chain_files(work).values()), where
    shutil.rmtree(work)
