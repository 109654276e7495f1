"""The cost of a referee's proven chance (protocol version 7, issue 25): one VRF draw.

A plain script (no pytest): it prints figures and asserts nothing.

    python benchmarks/bench_vrf.py [--runs N]

Median CPU time (user + system of this process: the machine is shared, and
CPU time is what a busy machine inflates least) over N runs, after one
warm-up, of what each draw costs: the referee proving it
(`referee_chance.draw`: the key derived from its seed, the hash to the
curve, the proof), every verifier checking it when the file arrives
(`referee_chance.check`), and the try-and-increment hash to the curve alone
(a part of both), and the proof's size.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from pbem.crypto import vrf
from pbem.crypto.encoding import b64e
from pbem.protocol import referee_chance


def cpu_ms(fn: Callable[[], object], runs: int) -> float:
    """The median CPU time of `fn` in ms over `runs` calls, after one warm-up."""
    fn()
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def report(runs: int, indent: str = "") -> list[str]:
    master, game_id = os.urandom(32), "g-bench"
    contributions = [os.urandom(32) for _ in range(4)]
    key = referee_chance.public_key(master)
    seed, proof = referee_chance.draw(master, game_id, contributions, "play 1")
    alpha = referee_chance.alpha(game_id, contributions, "play 1")
    pk = vrf.public_key(referee_chance.secret_key(master))
    figures = [
        ("referee's draw: key, proof, output (referee_chance.draw)",
         cpu_ms(lambda: referee_chance.draw(master, game_id, contributions, "play 1"), runs)),
        ("a verifier's check of one draw (referee_chance.check)",
         cpu_ms(lambda: referee_chance.check(key, game_id, contributions, "play 1", seed, b64e(proof), "chance"), runs)),
        ("  of which the hash to the curve", cpu_ms(lambda: vrf._hash_to_curve(pk, alpha), runs)),
    ]
    lines = [f"{indent}{name:58} {ms:7.2f} ms CPU" for name, ms in figures]
    lines.append(f"{indent}{'proof size':58} {vrf.PROOF_LEN:7d} bytes ({len(b64e(proof))} in a file)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per figure (default 200)")
    runs = parser.parse_args().runs
    print(f"pbem referee chance (RFC 9381 ECVRF), {runs} runs each, Python {platform.python_version()} "
          f"on {platform.machine()}")
    for line in report(runs):
        print(line)


if __name__ == "__main__":
    main()
