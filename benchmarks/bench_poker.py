"""Timings of the peer-dealer crypto: mental-poker layers and proofs, beacon steps.

A plain script (no pytest): it prints figures and asserts nothing.

    python benchmarks/bench_poker.py [--runs N]

Each figure is the mean and the best of N runs, in milliseconds. See
benchmarks/README.md for what each one measures and the goals.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

from pbem.crypto import beacon, poker

DECK = [name for name, n in [("ace", 8), ("bell", 6), ("crown", 6), ("dove", 5), ("eel", 4),
                             ("fox", 4), ("gem", 3), ("harp", 2)] for _ in range(n)]  # 38 cards
GAME = "g-bench"
CHAIN = 2000


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """(mean, best) wall time of `fn` in ms over `runs` calls, after one warm-up."""
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.fmean(times), min(times)


def figures(runs: int) -> list[tuple[str, float, float]]:
    """(name, mean ms, best ms) of every figure, `runs` calls each (also
    used by `python -m benchmarks`)."""
    table = poker.card_table(GAME, DECK)
    deck = list(table)
    ka, kb = poker.new_scalar(), poker.new_scalar()
    key_b = poker.public_key(kb)
    layer_a = poker.shuffle_layer(ka, deck)
    layer_b = poker.shuffle_layer(kb, layer_a)
    context = b"g-bench shuffle 1 slot 0"
    result, proof = poker.partial_decrypt(kb, key_b, layer_b[0], context)
    seed, anchor = beacon.new_chain(CHAIN)
    links = {"alice": beacon.link(seed, CHAIN, 1), "bob": anchor}

    def beacon_step() -> None:
        # the writer computes its next link; a verifier checks it and derives the chance key
        x = beacon.link(seed, CHAIN, 1)
        beacon.check_link(anchor, x)
        beacon.chance_key({**links, "alice": x}, GAME, 1)

    named = [
        ("card table, 38 cards (once per game)", lambda: poker.card_table(GAME, DECK)),
        ("shuffle layer, 38 cards (one seat)", lambda: poker.shuffle_layer(ka, layer_a)),
        ("partial decryption with proof", lambda: poker.partial_decrypt(kb, key_b, layer_b[0], context)),
        # a first check (check_partial remembers statements that verified)
        ("proof check (check_partial)", lambda: (poker._CHECKED.clear(), poker.check_partial(key_b, layer_b[0], result, proof, context))),
        ("proof check, remembered (a replay)", lambda: poker.check_partial(key_b, layer_b[0], result, proof, context)),
        ("deal one card: decrypt + proof + check", lambda: poker.check_partial(
            key_b, layer_b[0], *poker.partial_decrypt(kb, key_b, layer_b[0], context), context)),
        ("audit of one layer, 38 cards (check_layer)", lambda: poker.check_layer(ka, deck, layer_a)),
        (f"beacon step, chain of {CHAIN} (link + check + key)", beacon_step),
        ("beacon check only (check_link)", lambda: beacon.check_link(anchor, links["alice"])),
    ]
    return [(name, *timed(fn, runs)) for name, fn in named]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="runs per figure (default 50)")
    runs = parser.parse_args().runs
    print(f"pbem peer-dealer crypto, {runs} runs each, Python {platform.python_version()} on {platform.machine()}")
    print(f"{'':46} {'mean ms':>9} {'best ms':>9}")
    for name, mean, best in figures(runs):
        print(f"{name:46} {mean:9.3f} {best:9.3f}")


if __name__ == "__main__":
    main()
