"""Memory: a 1,000-file game verified by a fresh process (issue #26, part 5).

    python -m benchmarks.bench_memory [--files N] [--seed S]   # hotseat and peer (minutes)
    python -m benchmarks.bench_memory --quick                  # the hotseat game only

Builds a seeded Dark Agent game of three seats and N files (default 1,000)
per dealer mode with the benchmarks' helpers (`seeded.make`): played by
the random bot through the real protocol and cut at N files (its
three-seat games run well past 1,000; the next seed is tried if one ends
sooner). Hotseat, and peer in the full run: a peer game's heads carry its
deck, the heaviest records there are. Then runs `pbem verify DIR` and
`pbem verify --full DIR` as real processes, each with an empty
`$PBEM_HOME` (nothing remembered: the whole chain is replayed and held,
and the checkpoint written), and reads each process's peak resident set
size (VmHWM, from /proc as it exits). Goal: under 100 MiB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import seeded

#: issue #26, target 5
GOAL_MIB = 100.0
FILES = 1000
#: the dealer modes of the full run: a peer game's heads hold its deck
MODES = ("hotseat", "peer")


def build(base: Path, seed: int, mode: str = "hotseat", files: int = FILES) -> tuple[Path, int]:
    """A seeded Dark Agent game of `files` files in dealer `mode` (or the
    longest of five seeds if none lasts that long): a folder of it and its
    length."""
    best: tuple[Path, int] | None = None
    for s in range(seed, seed + 5):
        where = base / f"{mode}-{s}"
        shutil.rmtree(where, ignore_errors=True)
        game = seeded.make("da", mode, where, s, stop=files)
        if best is None or game.files > best[1]:
            best = game.folder(), game.files
        if game.files >= files:
            break
    assert best is not None
    return best


#: runs `python -m pbem ARGS` and, at its exit, writes the process's own
#: peak resident set (VmHWM, KiB) to the file named by the first argument.
#: Not `ru_maxrss` from `wait4`: Linux carries a process's peak across
#: `exec`, so a child forked from this (large) benchmark would report the
#: benchmark's own size.
_PROBE = """
import atexit, runpy, sys
out = sys.argv.pop(1)
def _hwm():
    with open("/proc/self/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    with open(out, "w") as f:
        f.write(str(kib))
atexit.register(_hwm)
sys.argv[0] = "pbem"
runpy.run_module("pbem", run_name="__main__", alter_sys=True)
"""


def peak(folder: Path, *flags: str) -> tuple[float, float]:
    """(peak RSS in MiB, CPU seconds) of `pbem verify FLAGS FOLDER` in a
    fresh process with an empty $PBEM_HOME (Linux: the peak is read from
    /proc)."""
    with tempfile.TemporaryDirectory(prefix="pbem-bench-mem-") as home:
        env = {**os.environ, "PBEM_HOME": home}
        out = Path(home) / "hwm"
        proc = subprocess.Popen([sys.executable, "-c", _PROBE, str(out), "verify", *flags, str(folder)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = proc.stderr.read() if proc.stderr else b""
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.stderr:
            proc.stderr.close()
        if proc.returncode != 0:
            raise RuntimeError(f"pbem verify {' '.join(flags)} failed: {err.decode(errors='replace').strip()}")
        kib = float(out.read_text())
    return kib / 1024, usage.ru_utime + usage.ru_stime


def report(work: Path, seed: int = 4, files: int = FILES, modes: tuple[str, ...] = ("hotseat",),
           indent: str = "   ", verdicts: dict | None = None) -> list[str]:
    """The memory section's lines, a game per dealer mode of `modes`;
    `verdicts` gets target 5's line (the worst of them)."""
    lines = []
    worst, shortest = 0.0, files
    for mode in modes:
        folder, n = build(work, seed, mode, files)
        shortest = min(shortest, n)
        for flags in ((), ("--full",)):
            mib, cpu = peak(folder, *flags)
            worst = max(worst, mib)
            cmd = " ".join(("pbem verify", *flags))
            lines.append(f"{indent}Dark Agent, {mode}, 3 seats, {n} files: {cmd:<18} peak {mib:6.1f} MiB, "
                         f"{cpu:5.2f} s CPU (goal < {GOAL_MIB:.0f} MiB): {'pass' if mib < GOAL_MIB else 'miss'}")
    if verdicts is not None:
        ok = worst < GOAL_MIB and shortest >= files
        verdicts["5. memory"] = (f"a {shortest}-file game ({', '.join(modes)}) verified by a fresh process, peak "
                                 f"{worst:.1f} MiB (goal < {GOAL_MIB:.0f} MiB): {'pass' if ok else 'miss'}")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_memory", description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=FILES)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="the hotseat game only (the peer game takes minutes to play)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-memory-") as tmp:
        os.environ["PBEM_HOME"] = str(Path(tmp) / "bench-home")
        for line in report(Path(tmp), args.seed, args.files, ("hotseat",) if args.quick else MODES):
            print(line)


if __name__ == "__main__":
    main()
