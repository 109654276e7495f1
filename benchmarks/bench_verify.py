"""How long it takes to verify whole games from genesis, per dealer mode.

Plays one Agent Avenue game per mode with random bots through the real
protocol (peer: two key stores and two folders exchanging files), then times
`pbem verify`'s work (replaying and checking every file) on the finished
folder. Prints figures; asserts nothing.

    python benchmarks/bench_verify.py [--runs N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from pbem.app import creating, opening, reading, receiving, writing
from pbem.home.store import KeyStore
from pbem.gamedir import folder
from pbem.app.audit import audit


def keys_for(base: Path, names: list[str]) -> dict[str, opening.Keys]:
    out = {n: opening.Keys(KeyStore(base / f"home-{n}"), lambda: "") for n in names}
    for n, k in out.items():
        k.store.create(n, None)
    for n, k in out.items():
        for o in out:
            if o != n:
                k.store.import_identity(out[o].store.export(o))
    return out


def play(dirs: dict[str, Path], keys: dict[str, opening.Keys], rng: random.Random) -> None:
    while True:
        chain = folder.load(next(iter(dirs.values())))
        writers = chain.writers()
        if not writers:
            return
        me = writers[0]
        home = dirs.get(me, next(iter(dirs.values())))
        if chain.needs(me) == "auto":
            written = writing.sync(home, me, keys[me])
        else:
            c = folder.load(home)
            cmd = rng.choice(reading.legal(c, opening.party(c, me, keys[me])))
            written = writing.submit(home, me, [cmd], keys[me])
        for other, d in dirs.items():
            if d != home:
                for p in written:
                    receiving.apply_file(d, p)


def make(mode: str, base: Path, seed: int) -> Path:
    rng = random.Random(seed)
    if mode == "peer":
        keys = keys_for(base, ["alice", "bob"])
        dirs = {n: base / f"game-{n}" for n in keys}
        creating.new_game("aa", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
        receiving.apply_file(dirs["alice"], receiving.join(dirs["bob"], [dirs["alice"] / "000000-genesis.pbem"], "bob", keys["bob"]))
        play(dirs, keys, rng)
        return dirs["alice"]
    names = ["alice", "bob"] + (["rita"] if mode == "referee" else [])
    keys = opening.Keys(KeyStore(base / "home"), lambda: "")  # one machine holds every key
    for n in names:
        keys.store.create(n, None)
    g = base / "game"
    referee = "rita" if mode == "referee" else None
    creating.new_game("aa", g, ["alice", "bob"], keys, mode, referee, seed if mode == "hotseat" else None)
    play({"": g}, {n: keys for n in [*names, "dealer"]}, rng)
    return g


def fresh(fn, folder: Path):
    """As a new `pbem` process would: nothing remembered from earlier runs."""
    from pbem.crypto import poker

    poker._CHECKED.clear()
    return fn(folder)


def timed(fn, runs: int) -> tuple[float, float]:
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.mean(times), min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    print(f"{'game verified from genesis':<44} {'files':>5} {'mean ms':>9} {'best ms':>9}")
    for mode in ("hotseat", "referee", "peer"):
        with tempfile.TemporaryDirectory() as tmp:
            g = make(mode, Path(tmp), args.seed)
            files = len(folder.load(g).records)
            mean, best = timed(lambda: fresh(opening.verify, g), args.runs)
            print(f"{'Agent Avenue, ' + mode + ' (pbem verify)':<44} {files:>5} {mean:>9.1f} {best:>9.1f}")
            mean, best = timed(lambda: fresh(audit, g), max(1, args.runs // 2))
            print(f"{'Agent Avenue, ' + mode + ' (pbem audit)':<44} {files:>5} {mean:>9.1f} {best:>9.1f}")


if __name__ == "__main__":
    main()
