"""The coverage-guided fuzzer (fuzz/run.py) for a few seconds over every
parser: no input may crash pbem. Skipped where atheris is not installed
(it has wheels for Linux x86_64 only: ``pip install atheris``).
``PBEM_LONG=1`` fuzzes for five minutes."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

import fuzzing
from paths import ROOT

RUN = ROOT / "fuzz" / "run.py"
SECONDS = 300 if os.environ.get("PBEM_LONG") == "1" else 4


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris is not installed (optional: pip install atheris; Linux x86_64 wheels only; .ci/run tries)")
def test_no_input_crashes_pbem(tmp_path):
    # libFuzzer reads its memory from getrusage's peak RSS, which Linux
    # carries across fork and exec: started from this (possibly large)
    # pytest worker, the fuzzer would begin "over the limit" and stop at
    # once. A small intermediate process starts it with a peak of its own.
    fresh = [sys.executable, "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"]
    out = subprocess.run([*fresh, sys.executable, str(RUN), f"-max_total_time={SECONDS}", "-rss_limit_mb=1024"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=SECONDS + 120)
    assert out.returncode == 0, out.stderr[-3000:]
    runs = re.search(r"Done (\d+) runs in (\d+) second", out.stderr)
    assert runs and int(runs.group(1)) > 100, out.stderr[-2000:]
    fuzzing.SUMMARY.append(f"atheris: {runs.group(1)} inputs over every parser in {runs.group(2)} s, no crash")
    assert not list(tmp_path.glob("crash-*"))
