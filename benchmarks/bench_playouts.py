"""Random playouts in process, per game and variant (issue #26, part 4).

A playout goes through the Game API only: `setup`, `advance`, `to_act`,
the game's bot (which calls `legal`), `apply`, `advance`, `outcome`, with
a seeded `RandomChance`; no protocol, no views. The figure is playouts
per second of **CPU time** (`time.process_time`, this process only),
the best of a few repetitions: a machine shared with other work slows
wall time far more than CPU time, and the best repetition is the one the
others disturbed least.

Each case's target is ten times its figure on `main` before the rules
were made faster (`BEFORE`, recorded in benchmarks/README.md with the date
and the machine): a searching bot needs playouts at least that cheap.

    python -m benchmarks.bench_playouts             # every case, 3 repetitions
    python -m benchmarks.bench_playouts --quick     # fewer playouts
    python -m benchmarks.bench_playouts --bot greedy
    python -m benchmarks.bench_playouts --before main~5   # against older rules, same run

`playout` is also what tests/games/test_playout_golden.py replays: the final
state of each seeded playout must keep its canonical encoding, so a
speed-up that changes what the rules do fails there.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from pbem import games
from pbem.games.base import Game, RandomChance, SeatSpec


@dataclass(frozen=True)
class Case:
    """One game and variant: options as `--option` strings, seats as NAME[:ROLE];
    `goal`, playouts per CPU second the issue names outright (instead of
    `TARGET` times the figure before)."""

    game: str
    variant: str
    options: dict[str, str] = field(default_factory=dict)
    seats: tuple[str, ...] = ("alice", "bob")
    goal: float | None = None

    @property
    def title(self) -> str:
        return f"{games.get(self.game).info.title.split(':')[0]}, {self.variant}"  # Codex without its subtitle


CASES = [
    Case("agent-avenue", "simple"),
    Case("agent-avenue", "black market", {"mode": "advanced"}),
    Case("agent-avenue", "teams 2v2", {}, ("ann:green", "bob:blue", "cat:green", "dan:blue")),
    Case("agent-avenue", "teams 2v1", {}, ("ann:green", "bob:blue", "cat:green")),
    Case("agent-avenue", "teams 2v2, black market", {"mode": "advanced"},
         ("ann:green", "bob:blue", "cat:green", "dan:blue")),
    Case("codenames", "standard", {}, ("ann:red-spymaster", "bob:red", "cat:blue-spymaster", "dan:blue")),
    Case("codenames", "standard, review", {"clue_review": "opponent"},
         ("ann:red-spymaster", "bob:red", "cat:blue-spymaster", "dan:blue")),
    Case("codenames", "coop", {"variant": "coop"}, ("ann:red-spymaster", "bob:red")),
    Case("codenames", "three", {"variant": "three"}, ("ann:red-spymaster", "cat:blue-spymaster", "bob:shared")),
    Case("codenames", "duet", {"variant": "duet"}, ("ann:a", "bob:b")),
    # a random Dark Agent game runs to hundreds of rounds (the greedy bot's,
    # 10 to 25): 20 at most (a solo game ends after 10 + aims anyway)
    *(Case("dark-agent", f"{n} seat{'s' * (n > 1)}", {"rounds": "20"}, ("ann", "bob", "cat", "dan", "eve", "fay")[:n])
      for n in range(1, 7)),
    # the issue names Codex's goal outright; its rules 2 came after the
    # figures before, so their figure before is main's when they landed
    Case("codex", "bashing v finesse", goal=250),
    Case("codex", "red v green starters", {"p1_starter": "red", "p2_starter": "green"}, goal=250),
]

#: playouts per CPU second of the random bot on main before issue #26's
#: part 4 (1be3156), measured beside the faster rules in one run
#: (``--before 1be3156``; benchmarks/README.md: the date, the machine)
BEFORE: dict[str, float] = {
    "Agent Avenue, simple": 671.8,
    "Agent Avenue, black market": 446.1,
    "Agent Avenue, teams 2v2": 612.4,
    "Agent Avenue, teams 2v1": 771.6,
    "Agent Avenue, teams 2v2, black market": 486.1,
    "Codenames, standard": 55.6,
    "Codenames, standard, review": 36.1,
    "Codenames, coop": 62.5,
    "Codenames, three": 36.1,
    "Codenames, duet": 76.6,
    "Dark Agent, 1 seat": 70.6,
    "Dark Agent, 2 seats": 23.2,
    "Dark Agent, 3 seats": 14.8,
    "Dark Agent, 4 seats": 10.3,
    "Dark Agent, 5 seats": 8.6,
    "Dark Agent, 6 seats": 7.5,
}
#: how many times faster than BEFORE each case must be
TARGET = 10
ROOT = Path(__file__).resolve().parent.parent


def prepared(case: Case) -> tuple[Game, Any, list[SeatSpec]]:
    game = games.get(case.game)
    options = game.options(dict(case.options))
    specs = game.seats(options, [SeatSpec(*(s.split(":") + [None])[:2]) for s in case.seats])
    return game, options, specs


def playout(game: Game, options: Any, specs: list[SeatSpec], seed: int, bot: str = "random",
            limit: int = 20000) -> tuple[Any, int]:
    """One whole game from `seed` by `bot` for every seat: (final state, commands)."""
    chance = RandomChance(random.Random(f"{seed}:chance"))
    rng = random.Random(f"{seed}:bot")
    choose: Callable[..., Any] = game.presentation.bots[bot]
    state = game.advance(game.setup(options, specs, chance), chance)
    moves = 0
    while game.outcome(state) is None:
        if moves >= limit:
            raise RuntimeError(f"{game.info.name}: no outcome after {limit} commands (seed {seed})")
        who = game.to_act(state)
        if not who:
            raise RuntimeError(f"{game.info.name}: nobody to act and no outcome (seed {seed})")
        seat = who[0]
        state = game.advance(game.apply(state, seat, choose(game, state, seat, rng), chance), chance)
        moves += 1
    return state, moves


def digest(state: Any) -> str:
    """SHA-256 of the state's canonical encoding (sorted keys), in hex."""
    return hashlib.sha256(msgspec.json.encode(state, order="sorted")).hexdigest()


def measure(case: Case, n: int, reps: int, bot: str = "random") -> tuple[float, float, float]:
    """(best playouts per CPU second, median, commands per playout) over
    `reps` runs of `n` playouts (seeds 0..n-1 each time)."""
    game, options, specs = prepared(case)
    warm = game.advance(game.setup(options, specs, RandomChance(0)), RandomChance(0))
    game.presentation.bots[bot](game, warm, game.to_act(warm)[0], random.Random(0))  # imports, caches, the catalogue
    rates, moves = [], 0
    for _ in range(reps):
        moves = 0
        start = time.process_time()
        for seed in range(n):
            moves += playout(game, options, specs, seed, bot)[1]
        took = time.process_time() - start
        rates.append(n / took if took > 0 else float("inf"))
    return max(rates), statistics.median(rates), moves / n


def figures(quick: bool = False, reps: int | None = None, bot: str = "random", only: str = "",
            before: str | None = None) -> list[tuple[Case, float, float, float, float | None]]:
    """(case, best, median, commands per playout, the figure before) for
    every case whose title contains `only`. The figure before is `BEFORE`
    (random bot), or with `before` (a git revision of this repository) the
    best of the same playouts by the rules of that revision, measured in
    turn with each case (a loaded machine slows both alike)."""
    reps = reps or (2 if quick else 3)
    old = _Elsewhere(before) if before else None
    out = []
    try:
        for i, case in enumerate(CASES):
            if only.lower() not in case.title.lower():
                continue
            n = _playouts(case, quick)
            then = old.best(i, n, reps, bot) if old else (BEFORE.get(case.title) if bot == "random" else None)
            out.append((case, *measure(case, n, reps, bot), then))
    finally:
        if old:
            old.close()
    return out


class _Elsewhere:
    """The pbem package of another revision, in a temporary folder beside a
    copy of this module, measured in a process of its own."""

    def __init__(self, rev: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-before-"))
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "pbem"], capture_output=True, check=True)
        with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as archive:
            archive.extractall(self.dir, filter="data")
        (self.dir / "benchmarks").mkdir()
        for name in ("__init__.py", "bench_playouts.py"):
            shutil.copy(Path(__file__).with_name(name), self.dir / "benchmarks" / name)

    def best(self, index: int, n: int, reps: int, bot: str) -> float | None:
        out = subprocess.run([sys.executable, "-m", "benchmarks.bench_playouts", "--case", str(index), "--playouts",
                              str(n), "--reps", str(reps), "--bot", bot], cwd=self.dir, capture_output=True,
                             text=True)
        return float(out.stdout) if out.returncode == 0 else None  # a case those rules cannot play

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _playouts(case: Case, quick: bool) -> int:
    """Playouts per repetition: about a second on main (a tenth quick)."""
    base = {"agent-avenue": 60, "codenames": 20, "dark-agent": 10, "codex": 20}[case.game]
    return max(1, base // 10) if quick else base


def print_table(rows: list[tuple[Case, float, float, float, float | None]], indent: str = "   ") -> None:
    print(f"{indent}{'game, variant':<38} {'cmds':>5} {'best/s':>9} {'median/s':>9} "
          f"{'before/s':>9} {'target/s':>9}  result")
    for case, best, median, moves, before in rows:
        target = case.goal or (before * TARGET if before else None)
        if target is None:
            tail = f"{'-':>9} {'-':>9}  (no figure from before)"
        else:
            then = f"{before:9.1f}" if before else f"{'-':>9}"
            tail = (f"{then} {target:9.1f}  {'pass' if best >= target else 'miss'}"
                    + (f" ({best / before:.1f}x)" if before else ""))
        print(f"{indent}{case.title:<38} {moves:5.0f} {best:9.1f} {median:9.1f} {tail}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_playouts", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the playouts, 2 repetitions")
    ap.add_argument("--reps", type=int, help="repetitions per case (best and median are printed)")
    ap.add_argument("--bot", default="random", help="the bot every seat plays (default random)")
    ap.add_argument("--only", default="", help="only cases whose title contains this text")
    ap.add_argument("--before", metavar="REV", help="measure the rules of git revision REV too, case by case "
                    "(instead of the recorded figures)")
    ap.add_argument("--case", type=int, help=argparse.SUPPRESS)  # with --playouts: one case, its best alone
    ap.add_argument("--playouts", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.case is not None:
        print(measure(CASES[args.case], args.playouts, args.reps or 3, args.bot)[0])
        return
    print(f"Random playouts in process, playouts per CPU second ({args.bot} bot; target {TARGET}x before"
          + (f", measured at {args.before})" if args.before else ")"))
    print_table(figures(args.quick, args.reps, args.bot, args.only, args.before))


if __name__ == "__main__":
    main()
