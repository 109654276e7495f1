"""What a proven refill costs (protocol version 7, `pbem.protocol.peer.proven_refills`).

A plain script (no pytest): it prints figures and asserts nothing.

    python benchmarks/bench_refill.py [--runs N]

A Codex refill (a discard pile reshuffled into its owner's deck) is about
10 to 30 cards, most of them the owner's own face-down cards, each under
another key. For refills of 10, 20 and 30 such cards: the bytes the layer
adds to its file (its JSON, as the file carries it), and the median CPU
time (this process's user + system: the machine is shared) of laying it
(every card re-encrypted to one fresh key with its Chaum-Pedersen proof,
then the proven shuffle) and of checking it when the file arrives
(`proven_refills.take`, nothing remembered), over N runs after a warm-up.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import msgspec

from pbem.crypto import poker
from pbem.crypto.keys import SecretIdentity
from pbem.protocol.peer import proofs, proven_refills
from pbem.protocol.peer.deck import PeerDeck
from pbem.protocol.peer.refills import Refill

SIZES = (10, 20, 30)


def _cpu(fn, runs: int) -> float:
    fn()
    samples = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        samples.append(time.process_time() - t)
    return statistics.median(samples)


def row(n: int, runs: int) -> dict[str, float]:
    """One refill of `n` hidden cards, each under a key of its own."""
    owner = SecretIdentity.generate("bench")
    deck = PeerDeck(game_id="g-bench", nonce="n-bench", slots=[], table={}, join_order=["bench"], beacon_length=1000,
                    proven=True, proven_refills=True)
    scalars = [poker.new_scalar() for _ in range(n)]
    went = [(poker.encrypt(k, poker.card_point("g-bench", "card", i)), poker.public_key(k))
            for i, k in enumerate(scalars)]
    refs = [f"r{i}" for i in range(n)]

    def fresh() -> Refill:
        deck.changes.refills = [Refill(zone="deck:bench", owner="bench", refs=refs, gone=[f"g{i}" for i in range(n)],
                                       seq=7)]
        return deck.changes.refills[0]

    refill = fresh()
    layer, _ = proven_refills.lay(deck.game_id, deck, refill, 7, went, scalars, owner.public)

    def check() -> None:
        proofs._CHECKED.clear()
        proven_refills.take(deck.game_id, deck, fresh(), layer, 7, went)

    return {"n": n, "bytes": len(msgspec.json.encode(layer)),
            "lay": _cpu(lambda: proven_refills.lay(deck.game_id, deck, fresh(), 7, went, scalars, owner.public), runs),
            "check": _cpu(check, runs)}


def lines(runs: int, indent: str = "", sizes: tuple[int, ...] = SIZES) -> list[str]:
    out = [f"{indent}proven refill (version 7) of N face-down cards under N keys, median CPU ms of {runs} runs:"]
    for r in (row(n, runs) for n in sizes):
        out.append(f"{indent}  {r['n']:>3} cards: {r['bytes']:>6} bytes in its file, laying {r['lay'] * 1000:5.0f} ms, "
                   f"checking on arrival {r['check'] * 1000:5.0f} ms")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    runs = parser.parse_args().runs
    print(f"pbem proven refills, Python {platform.python_version()} on {platform.machine()}")
    for line in lines(runs):
        print(line)


if __name__ == "__main__":
    main()
