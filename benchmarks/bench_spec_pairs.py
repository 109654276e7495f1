"""A 300-file Codex game of several spec pairs, verified in a fresh process
(issue #22: "a 300-file game of any spec pair still verifies in a fresh
process in under 2 s").

    python -m benchmarks.bench_spec_pairs            # the pairs of `PAIRS`, 3 runs each
    python -m benchmarks.bench_spec_pairs --all      # all 36 pairings of the 8 playable specs, 1 run each

Section 1c of `python -m benchmarks`. Each pair's game is seeded and
played through the real writers as the long Codex game of section 1 is
(`seeded.py`: a calm build-up by the random bot without attacks, then the
greedy bot, stopped a few files past 300; the next seed while a game ends
before 300 files);
its first 300-odd files (up to a seat's decision) are copied into a folder
of their own and `pbem verify --full` runs on it as a real process (a
replay of every file from genesis, nothing remembered): the median of N
runs, wall and CPU (user + system of the child). Pass when the wall time is
under 2 s; "CPU only" when only the CPU time is (a busy machine).

`PAIRS` holds the slowest pairings `--all` found (2 Dec 2026, after the
values were kept within one computation: benchmarks/README.md, the pairs
ordered by CPU time of their 300-file verify) beside the default one;
`--all` measures every pairing again, to find them after a change of the
rules or the cards.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks import seeded
from pbem.gamedir import folder as folder_mod

#: the goal of issue #22 (and #8 before it), in seconds
GOAL_S = 2.0
#: the length of the game verified
FILES = 300
#: the calm build-up's files before the greedy bot attacks (as section 1's)
CALM = 260
#: pairs section 1c measures: the slowest `--all` found, and the default
PAIRS = [("bashing", "balance"), ("balance", "growth"), ("balance", "balance"), ("bashing", "finesse")]


def all_pairs() -> list[tuple[str, str]]:
    """The 36 pairings (with repetition) of the playable specs."""
    from pbem.games.codex import cards

    specs = [s.lower() for s in cards.playable_specs()]
    return list(itertools.combinations_with_replacement(specs, 2))


def long_game(pair: tuple[str, str], base: Path, seed: int, files: int = FILES, calm: int = CALM) -> seeded.Seeded:
    """A hotseat game of `pair` played to a few files past `files` (no
    further: only its prefix is verified): the first of the seeds `seed`,
    `seed` + 1, ... whose game lasts that long, else one whose build-up
    alone is that long."""
    options = (f"p1={pair[0]}", f"p2={pair[1]}")
    for s in range(seed, seed + 4):
        shutil.rmtree(base, ignore_errors=True)
        game = seeded.make("cx", "hotseat", base, s, calm=calm, stop=files + 8, options=options)
        if game.files > files:
            return game
    shutil.rmtree(base, ignore_errors=True)
    return seeded.make("cx", "hotseat", base, seed, calm=files + 10, stop=files + 8, options=options)


def verify_fresh(folder: Path, home: Path, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `pbem verify --full FOLDER` as a real process."""
    env = {**os.environ, "PBEM_HOME": str(home)}
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = _timed([sys.executable, "-m", "pbem", "verify", "--full", str(folder)], env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        walls.append(wall)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def _timed(args: list[str], env: dict[str, str]) -> float:
    import time

    t = time.perf_counter()
    out = subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {out.stderr.decode(errors='replace').strip()}")
    return time.perf_counter() - t


def verdict(wall: float, cpu: float, goal: float = GOAL_S) -> str:
    return "pass" if wall < goal else "pass in CPU only" if cpu < goal else "miss"


def measure(pairs: list[tuple[str, str]], work: Path, seed: int, runs: int, files: int = FILES,
            calm: int = CALM, echo: Callable[[tuple[str, int, float, float]], None] | None = None) -> list[tuple[str, int, float, float]]:
    """(pair, files verified, wall s, CPU s) for each pair (each also given
    to `echo` as it is measured)."""
    rows = []
    for a, b in pairs:
        base = work / f"{a}-{b}"
        game = long_game((a, b), base, seed, files, calm)
        at = seeded.decision_point(game.folder(), files) or game.files
        here = seeded.prefix(game.folder(), base / "prefix", at)
        n = len(folder_mod.load(here).records)
        wall, cpu = verify_fresh(here, game.home(), runs)
        rows.append((f"{a} v {b}", n, wall, cpu))
        if echo is not None:
            echo(rows[-1])
        shutil.rmtree(base, ignore_errors=True)
    return rows


def report(work: Path, seed: int, runs: int, smoke: bool = False, pairs: list[tuple[str, str]] | None = None,
           indent: str = "   ", echo: Callable[[tuple[str, int, float, float]], None] | None = None) -> list[str]:
    """Section 1c's lines: one row a pair, then the worst against the goal.
    `smoke`: one pair, 20 files (figures that mean nothing; the tests' run)."""
    files, calm = (20, 10) if smoke else (FILES, CALM)
    chosen = pairs or (PAIRS[:1] if smoke else PAIRS)
    rows = measure(chosen, work, seed, runs, files, calm, echo)
    out = [f"{indent}{'specs':<22} {'files':>5} {'wall s':>7} {'cpu s':>6}  goal < {GOAL_S:.0f} s"]
    for title, n, wall, cpu in sorted(rows, key=lambda r: -r[3]):
        short = f" (every seed's game ended at {n} files)" if n < files else ""
        out.append(f"{indent}{title:<22} {n:>5} {wall:7.2f} {cpu:6.2f}  {verdict(wall, cpu)}{short}")
    worst = max(rows, key=lambda r: r[3])
    out.append(f"{indent}the slowest pair ({worst[0]}, by CPU): {verdict(worst[2], worst[3])}"
               + (" (smoke: 20 files, not the goal's 300)" if smoke else ""))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_spec_pairs", description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="every pairing of the playable specs (1 run each)")
    ap.add_argument("--runs", type=int, help="fresh processes per pair (default 3; --all 1)")
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args(argv)
    runs = args.runs or (1 if args.all else 3)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-pairs-") as tmp:
        os.environ["PBEM_HOME"] = str(Path(tmp) / "bench-home")
        progress = (lambda row: print("measured", *row, file=sys.stderr, flush=True)) if args.all else None
        for line in report(Path(tmp), args.seed, runs, pairs=all_pairs() if args.all else None, indent="",
                           echo=progress):
            print(line, flush=True)


if __name__ == "__main__":
    main()
