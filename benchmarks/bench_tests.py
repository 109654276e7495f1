"""Target 6 of issue #26: how long the test suite and its quick subset take,
measured by running them (`python -m benchmarks` in the full mode; the
quick and smoke modes leave it out, and the test suite's own run of the
benchmarks never runs the suite inside itself).

    python -m benchmarks.bench_tests        # both, as the README gives them

The commands are the README's: ``python -m pytest -m "not slow"`` and
``python -m pytest``, from the source tree's root, in this Python. The
goal is for `.ci/run` on a clean clone (which adds the installs and the
lint, about 20 s); the suite is what takes the time.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: issue #26, target 6: the whole suite, and a quick subset of it, in seconds
GOALS = {"quick": 120.0, "all": 600.0}
COMMANDS = {"quick": ["-m", "not slow"], "all": []}


def run(which: str) -> tuple[float, bool, str]:
    """Wall seconds, whether it passed, and pytest's last line."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", *COMMANDS[which]], cwd=ROOT,
                          capture_output=True, text=True)
    took = time.perf_counter() - started
    tail = [line for line in done.stdout.splitlines() if line.strip()]
    return took, done.returncode == 0, tail[-1] if tail else ""


def report(verdicts: dict[str, str] | None = None, indent: str = "   ") -> list[str]:
    """One line per run, and target 6's verdict."""
    if not (ROOT / "tests").is_dir():
        line = "not measured: no test suite beside this copy of the benchmarks"
        if verdicts is not None:
            verdicts["6. tests"] = line
        return [indent + line]
    lines, words = [], []
    for which in ("quick", "all"):
        took, ok, last = run(which)
        met = ok and took <= GOALS[which]
        name = 'python -m pytest -m "not slow"' if which == "quick" else "python -m pytest"
        lines.append(f"{indent}{name:<32} {took:6.0f} s wall (goal <= {GOALS[which]:.0f} s): "
                     f"{'pass' if met else 'miss'}{'' if ok else ' (tests failed: ' + last + ')'}")
        words.append(f"{'quick subset' if which == 'quick' else 'whole suite'} {took:.0f} s "
                     f"(<= {GOALS[which]:.0f}) {'pass' if met else 'miss'}")
    if verdicts is not None:
        verdicts["6. tests"] = "; ".join(words) + " (.ci/run adds its installs and the lint)"
    return lines


if __name__ == "__main__":
    for line in report():
        print(line)
