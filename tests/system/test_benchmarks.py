"""CI hook for the benchmarks (issue #12): `python -m benchmarks --smoke`
(every section once at its smallest; `--quick` in the long mode) runs to
its end and prints its table. Figures are printed, never asserted
(they depend on the machine)."""

from __future__ import annotations

import os
import subprocess
import sys
from paths import ROOT



def test_quick_benchmark_runs_and_prints_the_table(tmp_path):
    mode = "--quick" if os.environ.get("PBEM_LONG") else "--smoke"
    out = subprocess.run([sys.executable, "-m", "benchmarks", mode], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    for heading in ("1. Commands", "1c. Codex spec pairs", "2. Verification from genesis", "3. Growth", "4. Sizes",
                    "5. Mental poker", "6. Bot playouts", "6b. Rules speed", "7. Referee daemon", "8. Shuffle proofs", "9. pbem serve",
                    "10. Demos and peer files", "11. Memory", "Issue #26's targets"):
        assert heading in out.stdout, out.stdout
    assert " status " in out.stdout and "x floor" in out.stdout
    assert "Codex, hotseat" in out.stdout and "until the referee's answer is there" in out.stdout
    assert "issue 25's goals for 60 cards" in out.stdout
    pairs = out.stdout.split("1c. Codex spec pairs")[1].split("\n2. ")[0]
    assert "the slowest pair (" in pairs and ("pass" in pairs or "miss" in pairs), pairs
    targets = out.stdout.split("Issue #26's targets")[1]
    for n in range(1, 7):  # every target, measured (pass or miss) or said not to be
        line = next(line for line in targets.splitlines() if line.strip().startswith(f"{n}. "))
        assert "pass" in line or "miss" in line or "not measured" in line, line
