"""`python -m benchmarks`: how fast pbem is, against its floors, in one run.

    python -m benchmarks            # the full run, by hand (a few minutes)
    python -m benchmarks --quick    # fewer games and repetitions
    python -m benchmarks --smoke    # every section once, smallest sizes (the test suite's run)

Prints one table of figures and ratios, all measured in this run, side by
side, so that a busy machine slows numerator and denominator alike:

* every common command as a real subprocess on seeded games of each game
  and dealer mode, at several lengths: the median of N runs, as a ratio to
  the import floor (`python -c "import click, msgspec,
  cryptography.hazmat.primitives.asymmetric.ed25519"`) run just before
  each of its runs (the ratio of the two medians: a machine whose load
  changes during the run changes both);
* verification from genesis per file, as a ratio to that file's crypto
  floor (`benchmarks/cryptofloor.py`), and how it grows with the length;
* turn-file and `state.pbem` sizes; mental-poker figures
  (`benchmarks/bench_poker.py`); bot playouts per second, and per CPU
  second for every mode and variant against the goal of issue #26
  (`benchmarks/bench_playouts.py`);
* the referee daemon's time to answer one new file in a tree of 1,000
  games (`benchmarks/bench_daemon.py`; 100 in the quick mode);
* shuffle proofs (`benchmarks/bench_shuffle_proof.py`): size, proving and
  verifying CPU time against issue #25's goals (decks of 8 and 60 cards
  in the quick mode), and a proven refill of 10 to 30 face-down cards
  (`benchmarks/bench_refill.py`: its bytes, laying and checking it);
* every `pbem demo GAME --dealer D` as a real process, the Dark Agent peer
  game's CPU and a peer file's cost beyond its crypto
  (`benchmarks/bench_demos.py`; Agent Avenue's hotseat demo only in the
  quick mode);
* the peak memory of a fresh process verifying a 1,000-file game
  (`benchmarks/bench_memory.py`); in the full mode the README's two test
  commands, timed (`benchmarks/bench_tests.py`); then every target of
  issue #26 with pass/miss.

Codex: the full mode plays one long hotseat game of more than 300 files
(`seeded.py` says how: a calm build-up, then the greedy bot), whose
300-file prefix is timed beside the whole game, including `pbem verify
--full` in a fresh process (the figure of issue #8), plus a greedy game per
other dealer mode. The quick mode plays 40 files of a Codex hotseat game.
Section 1c times the same 300-file verify for several spec pairs
(`benchmarks/bench_spec_pairs.py`: the slowest pairings found; the quick
mode the slowest one, the smoke mode one pair at 20 files).

Bytecode is compiled first (as an installed package has it). Nothing is
asserted: the goals of issue #12 are printed beside the figures.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pbem
from benchmarks import (
    bench_daemon, bench_demos, bench_memory, bench_playouts, bench_poker, bench_refill, bench_serve,
    bench_shuffle_proof, bench_spec_pairs, bench_tests, cryptofloor, goals, in_process, seeded,
)
from pbem.app import watching
from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod, safe_read, status_memo

FLOOR = "import click, msgspec, cryptography.hazmat.primitives.asymmetric.ed25519"
READERS = ("status", "status --json", "legal --json", "show")
#: runs of each reader from memory (`command_rows`; one in the smoke mode)
READER_REPS = 15
#: the length of the long Codex game's figures (issue #8 and #12)
CODEX_FILES = 300
#: files of the long Codex game's calm build-up (`seeded.py`)
LONG_CALM = 260


def long_game(g: str, m: str, base: Path, seed: int, how: dict) -> seeded.Seeded:
    """The long Codex game: with `calm`, the first of seeds `seed`, `seed` + 1, ...
    whose game lasts more than CODEX_FILES files (seed 4 does)."""
    for s in range(seed, seed + 5):
        shutil.rmtree(base, ignore_errors=True)
        game = seeded.make(g, m, base, s, **how)
        if "calm" not in how or game.files > CODEX_FILES:
            return game
    return game


def run(args: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """Wall seconds of one process (its CPU seconds, user + system, appended to `cpu`)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {out.stderr.decode(errors='replace').strip()}")
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return took


class Figure(float):
    """A median in wall seconds, with the median of the import floor's runs
    interleaved with its own (`floor`): on a shared machine whose load
    changes during a run, a ratio to the floor of the same moments. `cpu`
    and `floor_cpu`: the same in CPU seconds (user + system), which a busy
    machine inflates much less than wall time. `least_cpu` and
    `least_floor_cpu`: the least of the runs, which other work on the machine
    can only add to (what issue #26's verdicts compare: a median of a
    command that costs about the floor moves by a tenth from run to run)."""

    floor: float
    cpu: float
    floor_cpu: float
    least_cpu: float
    least_floor_cpu: float


class Timer:
    """Medians of subprocess runs, with the import floor run before each one."""

    def __init__(self, reps: int) -> None:
        self.reps = reps
        self.floor: list[float] = []
        self.env = {k: v for k, v in os.environ.items() if k != "PBEM_HOME"}

    def pbem(self, home: Path | None, args: list[str], before=None, reps: int | None = None) -> float:
        env = {**self.env, **({"PBEM_HOME": str(home)} if home else {})}
        samples, floors, cpu, floor_cpu = [], [], [], []
        for _ in range(reps or self.reps):
            floors.append(run([sys.executable, "-c", FLOOR], env, floor_cpu))
            if before is not None:
                before()
            samples.append(run([sys.executable, "-m", "pbem", *args], env, cpu))
        self.floor += floors
        out = Figure(statistics.median(samples))
        out.floor, out.cpu, out.floor_cpu = (statistics.median(x) for x in (floors, cpu, floor_cpu))
        out.least_cpu, out.least_floor_cpu = min(cpu), min(floor_cpu)
        return out

    @property
    def floor_median(self) -> float:
        return statistics.median(self.floor)


def first_legal(home: Path, folder: Path, seat: str) -> str:
    import json

    env = {**os.environ, "PBEM_HOME": str(home)}
    out = subprocess.run([sys.executable, "-m", "pbem", "legal", str(folder), "--as", seat, "--json"],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)[0]


def command_rows(game: seeded.Seeded, lengths: list[int], timer: Timer, work: Path) -> list[tuple]:
    """(game, files, command, median seconds) for each command and length."""
    rows = []
    src_any = game.folder()
    for n in lengths:
        full = n >= game.files
        if full:
            writer = None
        else:
            writer = folder_mod.load(src_any).records[n].by
        src = game.folder(writer)
        home = game.home(writer)
        here = seeded.prefix(src, work / f"{game.game}-{game.mode}-{n}", n)
        files = len(folder_mod.load(here).records)
        viewer = writer or next(iter(folder_mod.load(here).seat_order))
        if game.mode == "peer":
            home = game.home(viewer)
            here = seeded.prefix(game.folder(viewer), here, n)
        status = ["status", str(here)]
        # files a second old, as a game between two turns: a status answered from memory
        # (`pbem.gamedir.status_memo`) trusts no file changed within the last second
        time.sleep(status_memo.SETTLED_NS / 1e9 + 0.1)
        run(status_cmd(here), {**timer.env, "PBEM_HOME": str(home)})  # this user's checkpoint, warm
        run([*status_cmd(here), "--json"], {**timer.env, "PBEM_HOME": str(home)})  # each form remembered
        for cmd in READERS:
            args = cmd.split()
            extra = ["--as", viewer] if args[0] in ("legal", "show") else []
            if args[0] == "legal" and full:
                continue  # nobody to act
            argv = [args[0], str(here), *args[1:], *extra]
            if args[0] != "status":  # its words remembered (`pbem.gamedir.seat_memo`), as after a first look
                run([sys.executable, "-m", "pbem", *argv], {**timer.env, "PBEM_HOME": str(home)})
            # words from memory cost about the floor itself, and a process's CPU time is counted
            # in ticks of a few ms: a median of three would judge that noise against the goal
            # (1.0x for status), so these take more runs
            rows.append((game.title, files, cmd, timer.pbem(home, argv, reps=READER_REPS if timer.reps > 1 else 1)))
            if args[0] != "status":  # the first look after a change: computed, from the checkpoint
                rows.append((game.title, files, f"{args[0]}, computed", timer.pbem(
                    home, argv, before=lambda: [p.unlink() for p in (home / "checkpoints").glob("*.seat")])))
        if full:  # the same folder never seen before, and with one file not seen before
            ckpt = home / "checkpoints"
            rows.append((game.title, files, "status, cold", timer.pbem(
                home, status, before=lambda: shutil.rmtree(ckpt, ignore_errors=True))))
            newer = one_new_file(here, work / "one-new", home, n)
            rows.append((game.title, files, "status, +1 file", timer.pbem(home, ["status", str(newer[0])],
                                                                          before=newer[1])))
        if not full:
            text = first_legal(home, here, writer)
            scratch = work / "scratch"

            seeded.prefix(here, scratch, n)
            run(status_cmd(scratch), {**timer.env, "PBEM_HOME": str(home)})  # checkpointed
            # and checked as the writer checks, as the writer's last command in this folder left
            # it: a hotseat seat's submit checks as the dealer does, and replays every file unless
            # they were (`pbem sync` loads as a writer; here it owes a decision, so writes nothing)
            run([sys.executable, "-m", "pbem", "sync", str(scratch), "--as", writer],
                {**timer.env, "PBEM_HOME": str(home)})
            if sorted(scratch.glob("0*.pbem")) != sorted(scratch / f.name for f in here.glob("0*.pbem")):
                raise RuntimeError(f"pbem sync wrote into {scratch}: the submit figure would start elsewhere")
            ckpts = {p: p.read_bytes() for p in (home / "checkpoints").glob("*.ckpt")}

            def fresh() -> None:  # the folder and this user's checkpoint as they were before
                seeded.prefix(here, scratch, n)
                for p, data in ckpts.items():
                    p.write_bytes(data)

            rows.append((game.title, files, "submit",
                         timer.pbem(home, ["submit", str(scratch), "--as", writer, "--cmd", text], before=fresh)))
            # sync: the writer owes a decision, so it writes nothing and says so (a hotseat seat's
            # sync also checks what the dealer owes)
            rows.append((game.title, files, "sync",
                         timer.pbem(home, ["sync", str(scratch), "--as", writer], before=fresh)))
        rows.append((game.title, files, "verify", timer.pbem(home, ["verify", str(here)])))
        if game.game == "cx":
            rows.append((game.title, files, "verify --full", timer.pbem(home, ["verify", "--full", str(here)])))
        if full and game.over:
            rows.append((game.title, files, "audit", timer.pbem(home, ["audit", str(here)])))
    return rows


def serve_figures(made: list[seeded.Seeded], work: Path, runs: int) -> list[str]:
    """The page of the Codex hotseat game at CODEX_FILES files (or as long as it is), as its seat to act sees it."""
    game = next((g for g in made if (g.game, g.mode) == ("cx", "hotseat")), None)
    if game is None:
        return ["   not measured: no Codex hotseat game was made"]
    n = seeded.decision_point(game.folder(), min(CODEX_FILES, game.files)) or game.files
    here = seeded.prefix(game.folder(), work / "serve" / "cx", n)
    chain = folder_mod.load(here)
    seat = (chain.writers() or chain.seat_order)[0]
    run(status_cmd(here), {**os.environ, "PBEM_HOME": str(game.home())})  # this user's checkpoint, warm
    m = bench_serve.measure(here, game.home(), seat, runs, work / "serve" / "profile")
    return bench_serve.lines(game.title, len(chain.records), m)


def status_cmd(folder: Path) -> list[str]:
    return [sys.executable, "-m", "pbem", "status", str(folder)]


def one_new_file(src: Path, dst: Path, home: Path, n: int):
    """A copy of the first `n` files of `src` whose checkpoint (in `home`)
    covers the first n - 1, and a function that puts that checkpoint back."""
    seeded.prefix(src, dst, n - 1)
    env = {k: v for k, v in os.environ.items() if k != "PBEM_HOME"}
    run(status_cmd(dst), {**env, "PBEM_HOME": str(home)})  # checkpointed at n - 1 files
    last = max(p for p in src.glob("[0-9]*.pbem") if int(p.name[:6]) < n)
    shutil.copy2(last, dst / last.name)
    ckpts = {p: p.read_bytes() for p in (home / "checkpoints").glob("*.ckpt")}

    def put_back() -> None:
        for p, data in ckpts.items():
            p.write_bytes(data)

    return dst, put_back


def last_decision(folder: Path) -> int:
    """The number of files up to and with the last seat's decision."""
    chain = folder_mod.load(folder)
    return max(r.seq for r in chain.records if r.commands and r.by in chain.seats) + 1


def chain_datas(folder: Path) -> list[bytes]:
    return [safe_read.read(p) for p in sorted(folder.glob("[0-9]*.pbem"))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games, lengths and repetitions")
    ap.add_argument("--smoke", action="store_true",
                    help="every section once at the smallest size: figures that mean little, for the test suite")
    ap.add_argument("--reps", type=int, help="subprocess runs per figure (default 3, quick 2)")
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args(argv)
    args.quick = args.quick or args.smoke
    reps = args.reps or (1 if args.smoke else 2 if args.quick else 3)
    inner = 1 if args.smoke else 3 if args.quick else 9  # in-process repetitions
    compileall.compile_dir(str(Path(pbem.__file__).parent), quiet=1)
    started = time.perf_counter()
    print(f"pbem {pbem.__version__} benchmarks ({'smoke' if args.smoke else 'quick' if args.quick else 'full'}), Python "
          f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"{reps} runs per subprocess figure (median)")
    pairs = ([("aa", "hotseat"), ("aa", "referee"), ("aa", "peer"), ("cn", "hotseat"), ("cx", "hotseat")]
             if args.quick else [(g, m) for g in seeded.GAMES for m in seeded.MODES])
    if args.smoke:
        pairs = [("aa", "hotseat"), ("aa", "referee"), ("cx", "hotseat")]
    long_codex = {"calm": LONG_CALM} if not args.quick else {"stop": 20 if args.smoke else 40}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        work = Path(tmp)
        # checkpoints of what this process loads go here, never to the user's own home
        os.environ["PBEM_HOME"] = str(work / "bench-home")
        made: list[seeded.Seeded] = []
        skipped: list[str] = []
        made_in: dict[tuple[str, str], float] = {}
        for g, m in pairs:
            t = time.perf_counter()
            try:
                made.append(long_game(g, m, work / f"{g}-{m}", args.seed, long_codex)
                            if (g, m) == ("cx", "hotseat") else seeded.make(g, m, work / f"{g}-{m}", args.seed))
            except PbemError as exc:
                skipped.append(f"{seeded.GAMES[g][0]}, {m}: {exc.message}")
            made_in[(g, m)] = time.perf_counter() - t
        timer = Timer(reps)

        # --- commands against the import floor ----------------------------------
        help_s = timer.pbem(None, ["--help"])
        rows = []
        for game in made:
            mid = seeded.decision_point(game.folder(), game.files // 2)
            if args.quick:  # the commands on the first game only, at two lengths
                if game is not made[0]:
                    continue
                lengths = [mid, game.files] if mid else [game.files]
            elif game.game == "cx" and game.files > CODEX_FILES:  # the 300-file game, and the whole
                at = seeded.decision_point(game.folder(), CODEX_FILES)
                lengths = sorted({n for n in (at,) if n} | {game.files})
            else:  # growth over more lengths is section 3's
                lengths = sorted({n for n in (mid,) if n} | {game.files})
            rows += command_rows(game, lengths, timer, work / "cmd")
        floor = timer.floor_median
        print()
        print(f"1. Commands (real processes), ratio to the import floor (median of all its runs {floor * 1000:.0f} ms;")
        print(f"   python -c \"{FLOOR}\"),")
        print("   each figure against the floor's runs interleaved with its own; goal: status, legal, show <= 1.3x")
        print("   (cpu: the same ratio in CPU seconds, user + system: steadier on a busy machine; least: the least")
        print("   CPU of the command's runs against the least of the floor's, which issue #26's verdicts use)")
        print(f"   {'game':<26} {'files':>5}  {'command':<14} {'ms':>7} {'floor ms':>9} {'x floor':>8} {'cpu x':>6} "
              f"{'least':>6}")
        for title, files, cmd, s in [("(none)", "", "--help", help_s), *rows]:
            print(f"   {title:<26} {files:>5}  {cmd:<14} {s * 1000:7.0f} {s.floor * 1000:9.0f} {s / s.floor:8.2f} "
                  f"{s.cpu / s.floor_cpu:6.2f} {s.least_cpu / s.least_floor_cpu:6.2f}")
        full_300 = [(files, s) for title, files, cmd, s in rows
                    if title == "Codex, hotseat" and cmd == "verify --full" and files >= CODEX_FILES]
        if full_300:
            files, s = min(full_300)
            print(f"   Codex, {files} files: pbem verify --full in a fresh process {float(s):.2f} s wall, "
                  f"{s.cpu:.2f} s CPU (issue #8's goal: a 300-file game under 2 s: "
                  f"{'met' if s < 2 else 'met in CPU time, missed in wall time' if s.cpu < 2 else 'missed'})")
        elif not args.quick:
            print(f"   Codex, 300 files: not measured (the long Codex game: {skipped or 'shorter than 300 files'})")
        print()
        print(f"1c. Codex spec pairs (benchmarks/bench_spec_pairs.py): a {bench_spec_pairs.FILES}-file hotseat game of "
              "each pair, pbem verify --full")
        print(f"   in a fresh process, median of {reps} (issue #22's goal: any spec pair under "
              f"{bench_spec_pairs.GOAL_S:.0f} s){'; the slowest pair only' if args.quick and not args.smoke else ''}")
        for line in bench_spec_pairs.report(work / "spec-pairs", args.seed, reps, smoke=args.smoke,
                                            pairs=bench_spec_pairs.PAIRS[:1] if args.quick and not args.smoke else None):
            print(line)

        # --- verification per file against its crypto floor ---------------------
        print()
        print("2. Verification from genesis, in process, per file against its crypto floor")
        print("   (the distinct signature verifies, hashes, HKDF/HMAC, curve operations and proof")
        print("   checks that file needs, timed alone); goal: <= 2x hotseat and referee, <= 3x peer")
        print(f"   {'game':<26} {'files':>5} {'ms':>8} {'floor ms':>9} {'x floor':>8} {'worst file':>11} {'ms/file':>8}")
        measured = {}
        for game in made:
            m = cryptofloor.measure(chain_datas(game.folder()), inner)
            measured[game.title] = m
            ratios = [o / f for o, f in zip(m["ours"], m["floor"]) if f > 0]
            print(f"   {game.title:<26} {game.files:>5} {sum(m['ours']) * 1000:8.1f} {sum(m['floor']) * 1000:9.1f} "
                  f"{sum(m['ours']) / sum(m['floor']):8.2f} {max(ratios):10.1f}x {sum(m['ours']) * 1000 / game.files:8.2f}")
        print()
        print("2b. From this user's verified checkpoint, in process: the folder unchanged (every file")
        print("   hashed, the chain unpickled), and with one new file (a seat's last decision), whose")
        print("   extra cost is set against that file's crypto floor; goal: extra <= 2x")
        print(f"   {'game':<26} {'files':>5} {'unchanged ms':>13} {'+1 file ms':>11} {'extra ms':>9} "
              f"{'floor ms':>9} {'x floor':>8}")
        for game in made:
            k = last_decision(game.folder())
            datas = chain_datas(game.folder())[:k]
            same, newer, i = in_process.from_checkpoint(datas, work / "ckpt" / f"{game.game}-{game.mode}", inner)
            floor_s = measured[game.title]["floor"][i]
            extra = newer - same
            print(f"   {game.title:<26} {k:>5} {same * 1000:13.2f} {newer * 1000:11.2f} {extra * 1000:9.2f} "
                  f"{floor_s * 1000:9.3f} {extra / floor_s if floor_s else float('nan'):8.2f}")

        # --- growth with length ---------------------------------------------------
        print()
        print("3. Growth with game length (replay from genesis, in process): ms for the first N files")
        for game in made:
            m = measured[game.title]
            cuts = sorted({n for n in (10, 20, 30, 40, 50, 100, 200, 300) if n <= game.files} | {game.files})
            parts = "  ".join(f"{n}: {sum(m['ours'][:n]) * 1000:.1f}" for n in cuts)
            print(f"   {game.title:<26} {parts}")

        # --- sizes ------------------------------------------------------------------
        print()
        print("4. Sizes in bytes; goal: turn files median < 1 KiB (Agent Avenue, Codenames), < 4 KiB (Codex),")
        print("   none > 16 KiB")
        print(f"   {'game':<26} {'turn median':>11} {'turn max':>9} {'state.pbem':>11}  goal")
        for game in made:
            median, most = statistics.median(game.turn_sizes), max(game.turn_sizes)
            met = median < (4096 if game.game == "cx" else 1024) and most <= 16384
            print(f"   {game.title:<26} {median:11.0f} {most:9d} {game.state_size:11d}  {'met' if met else 'missed'}")

        for line in skipped:
            print(f"   not measured: {line}")
        print("   (seeded games played in: " + ", ".join(
            f"{seeded.GAMES[g][0]} {m} {s:.0f} s" for (g, m), s in made_in.items()) + ")")

        # --- the referee daemon (printed last) -------------------------------------------
        trees = 10 if args.smoke else 100 if args.quick else 1000
        referee = next((g for g in sorted(made, key=lambda g: g.game != "aa") if g.mode == "referee"), None)
        daemon = None if referee is None else bench_daemon.measure(
            referee.folder(), referee.home(), "rita", trees, work / "daemon", tries=1 if args.smoke else 2 if args.quick else 3)

        # --- the local page (pbem serve) ---------------------------------------------------------
        served = serve_figures(made, work, 1 if args.smoke else 2 if args.quick else 5)
        commands = goals.command_verdicts(rows)

    # --- mental poker, bots, daemon ------------------------------------------------
    print()
    poker_runs = 1 if args.smoke else 5 if args.quick else 30
    print(f"5. Mental poker (benchmarks/bench_poker.py, {poker_runs} runs)")
    print(f"   {'':46} {'mean ms':>9} {'best ms':>9}")
    for name, mean, best in bench_poker.figures(poker_runs):
        print(f"   {name:46} {mean:9.3f} {best:9.3f}")
    print()
    print("6. Bot playouts (random bot, full state, no protocol)")
    for title, per_s, moves in in_process.playouts(0.05 if args.smoke else 0.3 if args.quick else 2.0):
        print(f"   {title:<26} {per_s:8.1f} playouts/s ({moves:.0f} commands each)")
    print()
    print("6b. Rules speed (benchmarks/bench_playouts.py): random playouts per CPU second, every mode and")
    print(f"   variant, best of the runs; goal (issue #26): {bench_playouts.TARGET}x the figure before (benchmarks/README.md)")
    rules = bench_playouts.figures(args.quick, reps=1 if args.smoke else None)
    bench_playouts.print_table(rules)
    print()
    print(f"7. Referee daemon (pbem referee watch, a real process), one new file in a tree of {trees:,} games")
    if daemon is None:
        print("   not measured: no referee game was made")
    else:
        print(f"   {referee.title} ({referee.files} files) copied {trees:,} times: the daemon's first look at "
              f"every game {daemon['first look s']:.1f} s")
        print(f"   a seat's file dropped into one game, until the referee's answer is there: "
              f"{daemon['answer s'] * 1000:.0f} ms (median of " + ", ".join(f"{a * 1000:.0f}" for a in daemon["answers"])
              + f"), of which {watching.SETTLE * 1000:.0f} ms is the daemon's settle time")
    print()
    print("8. Shuffle proofs (benchmarks/bench_shuffle_proof.py): size, proving and verifying one layer")
    for line in bench_shuffle_proof.report(1 if args.quick else 5, indent="   ", quick=args.quick):
        print(line)
    for line in bench_refill.lines(1 if args.quick else 5, indent="   ", sizes=(10, 30) if args.quick else bench_refill.SIZES):
        print(line)
    print()
    print("9. pbem serve: a game's page opened on a fresh server (benchmarks/bench_serve.py); goal: first paint")
    print(f"   under {bench_serve.GOAL_MS} ms for a 300-file Codex game")
    for line in served:
        print(line)
    print()
    print("10. Demos and peer files (benchmarks/bench_demos.py): each pbem demo a real process")
    verdicts = {"1. commands": commands}
    for line in bench_demos.report(args.quick, verdicts=verdicts):
        print(line)
    verdicts["4. bots and rules"] = goals.rules_verdict(rules)
    print()
    print(f"11. Memory (benchmarks/bench_memory.py): a {bench_memory.FILES:,}-file game verified by a fresh process, "
          f"peak resident set; goal < {bench_memory.GOAL_MIB:.0f} MiB")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        modes = ("hotseat",) if args.quick else bench_memory.MODES  # a peer game of 1,000 files: minutes
        for line in bench_memory.report(Path(tmp), modes=modes, verdicts=verdicts):
            print(line)
    print()
    if args.quick:
        verdicts["6. tests"] = "not measured in the quick mode (python -m benchmarks.bench_tests)"
    else:
        print("12. Tests (benchmarks/bench_tests.py): the README's two pytest commands, wall time")
        for line in bench_tests.report(verdicts=verdicts):
            print(line)
    print()
    print("Issue #26's targets, from this run:")
    for target, line in sorted(verdicts.items()):
        print(f"   {target:<18} {line}")
    print()
    print(f"done in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
