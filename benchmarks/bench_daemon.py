"""The referee daemon's time to answer one new file in a tree of many games.

The tree is cheap to build: one seeded referee game, cut just before a
seat's file that the referee answers (a draw it deals), copied N times
under distinct folder names (each copy is a valid game folder: the daemon
judges each folder by its own files, and the referee's checkpoint is kept
per folder). `pbem referee watch TREE --as REFEREE` then runs as a real
process with the referee's `$PBEM_HOME`. Once it has looked at every game
(one "waiting" line each), the seat's file is moved into one game (a rename,
as a sync tool finishes a file) and the clock runs until the referee's answer
file appears there. Repeated in a few games; the median is reported, with
the time of the daemon's first look at the whole tree.

The answer time includes the daemon's settle time (`pbem.app.watching.SETTLE`:
a folder's files must stay unchanged that long before they are read, since
a sync tool may still be writing), which does not depend on the tree.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from pbem.gamedir import folder as folder_mod


def answered_place(src: Path) -> int:
    """The first seq whose file is a seat's decision answered by the referee's next file."""
    chain = folder_mod.load(src)
    records = chain.records
    for n in range(1, len(records) - 1):
        if records[n].by in chain.seats and records[n].commands and records[n + 1].by == chain.dealer_name:
            return n
    raise RuntimeError("no seat file in this game is answered by the referee")


def build_tree(src: Path, tree: Path, games: int) -> tuple[int, Path]:
    """`games` copies of `src` cut before a referee-answered seat file; that file's path."""
    from benchmarks.seeded import prefix

    n = answered_place(src)
    one = prefix(src, tree.parent / "one-game", n)
    tree.mkdir(parents=True)
    for i in range(games):
        shutil.copytree(one, tree / f"game-{i:04d}")
    (new,) = [p for p in src.glob(f"{n:06d}-*.pbem")]
    return n, new


def measure(src: Path, home: Path, referee: str, games: int, work: Path, tries: int = 3) -> dict:
    """{'games', 'first look s', 'answer s' (median), 'answers' (each)}."""
    tree = work / "tree"
    n, new = build_tree(src, tree, games)
    env = {**os.environ, "PBEM_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "referee", "watch", str(tree), "--as", referee],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines: list[str] = []
    waiting = threading.Semaphore(0)

    def listen() -> None:
        for line in proc.stdout:
            lines.append(line)
            if "waiting" in line:
                waiting.release()

    threading.Thread(target=listen, daemon=True).start()
    started = time.perf_counter()
    try:
        for _ in range(games):
            if not waiting.acquire(timeout=600):
                raise RuntimeError(f"the daemon did not look at every game: {''.join(lines[-5:])}")
        first_look = time.perf_counter() - started
        time.sleep(1.0)  # let it go idle, waiting for events
        answers = []
        for k in range(tries):
            game = tree / f"game-{(games // 2 + k * 7) % games:04d}"
            staged = work / f"staged-{new.name}"
            shutil.copy2(new, staged)
            t = time.perf_counter()
            os.replace(staged, game / new.name)
            while not any(game.glob(f"{n + 1:06d}-*.pbem")):
                if proc.poll() is not None:
                    raise RuntimeError(f"the daemon stopped: {''.join(lines[-5:])}")
                if time.perf_counter() - t > 120:
                    raise RuntimeError("the daemon did not answer within 2 minutes")
                time.sleep(0.002)
            answers.append(time.perf_counter() - t)
            time.sleep(0.5)  # its report of the answer, and idle again
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {"games": games, "first look s": first_look, "answer s": statistics.median(answers), "answers": answers}
