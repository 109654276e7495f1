"""Figures measured inside the benchmark's own process: a folder loaded
from a warm checkpoint as a fresh process would load it, and bot playouts
per second on the full state (sections 2 and 6 of `python -m benchmarks`)."""

from __future__ import annotations

import os
import random
import shutil
import statistics
import time
from pathlib import Path

from benchmarks import seeded
from pbem.gamedir import folder as folder_mod


def from_checkpoint(datas: list[bytes], work: Path, runs: int) -> tuple[float, float, int]:
    """In process, as a fresh process would (nothing remembered but the
    checkpoint): seconds to load the folder of `datas` from a warm checkpoint,
    unchanged and with the last file new; and that file's index."""
    from pbem.home import checkpoint
    from pbem.crypto import keys, poker
    from pbem.gamedir import file_memory

    old = os.environ.get("PBEM_HOME")
    os.environ["PBEM_HOME"] = str(work / "home")
    try:
        g = work / "game"
        shutil.rmtree(g, ignore_errors=True)
        g.mkdir(parents=True)
        names = []
        for i, data in enumerate(datas):
            by = "genesis" if i == 0 else folder_mod.codec.read_envelope(data).by
            names.append(g / (folder_mod.GENESIS if i == 0 else folder_mod.turn_name(i, by)))
        for path, data in zip(names[:-1], datas[:-1]):
            path.write_bytes(data)
        folder_mod.load(g, save=True)
        before = checkpoint.path_for(g).read_bytes()
        names[-1].write_bytes(datas[-1])
        folder_mod.load(g, save=True)
        after = checkpoint.path_for(g).read_bytes()

        def timed(ckpt: bytes) -> float:
            samples = []
            for _ in range(runs):
                checkpoint.path_for(g).write_bytes(ckpt)
                poker._CHECKED.clear()
                keys._VERIFY_KEYS.clear()
                checkpoint.forget_memory()  # as a fresh process: only the checkpoint on disk
                file_memory.forget()
                t = time.perf_counter()
                folder_mod.load(g)
                samples.append(time.perf_counter() - t)
            return statistics.median(samples)

        return timed(after), timed(before), len(datas) - 1
    finally:
        if old is None:
            os.environ.pop("PBEM_HOME", None)
        else:
            os.environ["PBEM_HOME"] = old


def playouts(seconds: float) -> list[tuple[str, float, float]]:
    """(game, playouts per second, files per playout) with the random bot on the full state."""
    from pbem import games
    from pbem.games.base import RandomChance, SeatSpec

    out = []
    for key, (title, seats) in seeded.GAMES.items():
        game = games.get(key)
        options = game.options({})
        specs = game.seats(options, [SeatSpec(*(s.split(":") + [None])[:2]) for s in seats])
        rng = random.Random(1)
        n = moves = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds or n == 0:
            st = game.advance(game.setup(options, specs, RandomChance(rng.random())), RandomChance(rng.random()))
            while game.outcome(st) is None:
                who = game.to_act(st)[0]
                cmd = game.presentation.bots["random"](game, st, who, rng)
                st = game.advance(game.apply(st, who, cmd, RandomChance(rng.random())), RandomChance(rng.random()))
                moves += 1
            n += 1
        took = time.perf_counter() - start
        out.append((title, n / took, moves / n))
    return out
