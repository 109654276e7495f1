"""Size and speed of the shuffle proofs (pbem.crypto.shuffle), against issue 25's goals.

A plain script (no pytest): it prints figures and asserts nothing.

    python benchmarks/bench_shuffle_proof.py [--runs N]

For decks of 8, 24, 60 and 128 cards, and for the three pair layers of a
Codenames Duet key (25 pairs): the proof's exact size, and the median CPU
time (user + system of this process: the machine is shared, and CPU time is
what a busy machine inflates least) of proving and of verifying, over N
runs after one warm-up. Beside each time: the libsodium scalar
multiplications it makes, and that count times one multiplication timed in
the same run (the floor no pure-Python prover over PyNaCl can go under,
since libsodium has no multi-scalar multiplication). Goals (issue 25), for
a 60-card deck: a proof of at most 8 KiB, proving in at most 1 s,
verifying in at most 250 ms.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

import msgspec
from nacl import bindings

from pbem.crypto import poker, twofaced
from pbem.crypto.encoding import b64d
from pbem.crypto.shuffle import pairs_proof_length, proof_length, prove, prove_pairs, verify, verify_pairs

GAME = "g-bench"
SIZES = (8, 24, 60, 128)
#: issue 25's goals for a 60-card deck
GOAL_CARDS, GOAL_BYTES, GOAL_PROVE_S, GOAL_VERIFY_S = 60, 8 * 1024, 1.0, 0.25
DUET_SIDES = (["agent"] * 9 + ["assassin"] * 3 + ["bystander"] * 13,
              ["agent"] * 3 + ["assassin"] + ["bystander"] * 5 + ["agent"] + ["assassin"] + ["bystander"]
              + ["agent"] * 5 + ["assassin"] + ["bystander"] * 7)


class _Counted:
    """Counts libsodium's variable-base scalar multiplications while it is on."""

    def __init__(self) -> None:
        self.calls = 0
        self._real = bindings.crypto_scalarmult_ed25519_noclamp

    def __enter__(self) -> "_Counted":
        def counted(n, p):
            self.calls += 1
            return self._real(n, p)
        bindings.crypto_scalarmult_ed25519_noclamp = counted
        return self

    def __exit__(self, *exc) -> None:
        bindings.crypto_scalarmult_ed25519_noclamp = self._real


def cpu_median(fn: Callable[[], object], runs: int) -> tuple[float, int]:
    """(median CPU seconds of `fn` over `runs` calls after a warm-up, its scalar multiplications)."""
    with _Counted() as counter:
        fn()
    samples = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        samples.append(time.process_time() - t)
    return statistics.median(samples), counter.calls


def one_multiplication(runs: int = 400) -> float:
    """CPU seconds of one libsodium scalar multiplication, now."""
    k, p = poker.new_scalar(), poker.card_point(GAME, "floor", 0)
    t = time.process_time()
    for _ in range(runs):
        bindings.crypto_scalarmult_ed25519_noclamp(k, p)
    return (time.process_time() - t) / runs


def deck_rows(runs: int, sizes=SIZES) -> list[dict]:
    rows = []
    for n in sizes:
        inputs = [poker.card_point(GAME, "card", i) for i in range(n)]
        k = poker.new_scalar()
        outputs, order = poker.shuffle_layer_witness(k, inputs)
        proof = prove(b"bench", inputs, outputs, order, k)
        assert len(proof) == proof_length(n)
        key = poker.public_key(k)
        prove_s, prove_ops = cpu_median(lambda: prove(b"bench", inputs, outputs, order, k), runs)
        verify_s, verify_ops = cpu_median(lambda: verify(b"bench", inputs, outputs, proof, key=key), runs)
        rows.append({"what": f"{n} cards", "n": n, "bytes": len(proof), "prove": prove_s, "prove ops": prove_ops,
                     "verify": verify_s, "verify ops": verify_ops})
    return rows


def duet_rows(runs: int) -> list[dict]:
    cards = sorted(zip(*DUET_SIDES))
    rng = random.Random(1)
    deck = [twofaced.unflatten(list(twofaced.face_table(GAME, cards, ("a", "b"))))]
    k_a, k_b = poker.new_scalar(), poker.new_scalar()
    k1 = twofaced.first_scalar(k_a)
    scalars, bases = [k1, k_b, twofaced.second_scalar(k_a, k1)], [poker.BASE, poker.BASE, poker.public_key(k1)]
    keys = [poker.public_key(k1), poker.public_key(k_b), poker.public_key(k_a)]
    plan = [{"repair": 1, "classes": [c[1] for c in cards], "shuffle": False},
            {"repair": 0, "classes": [c[0] for c in cards], "shuffle": True},
            {"repair": None, "classes": None, "shuffle": True}]
    names = ["Duet key, A re-pairs face 1", "Duet key, B re-pairs, shuffles", "Duet key, A shuffles pairs"]
    rows = []
    for step, (name, how) in enumerate(zip(names, plan)):
        deck.append(twofaced.pair_layer(scalars[step], deck[-1], rng=lambda m: rng.randrange(m), **how))
        before, after, k, base, key = deck[step], deck[step + 1], scalars[step], bases[step], keys[step]
        proof = prove_pairs(b"bench", before, after, k, base=base, **how)
        assert len(proof) == pairs_proof_length(len(cards), **how)
        prove_s, prove_ops = cpu_median(lambda: prove_pairs(b"bench", before, after, k, base=base, **how), runs)
        verify_s, verify_ops = cpu_median(
            lambda: verify_pairs(b"bench", before, after, proof, key=key, base=base, **how), runs)
        rows.append({"what": name, "n": len(cards), "bytes": len(proof), "prove": prove_s, "prove ops": prove_ops,
                     "verify": verify_s, "verify ops": verify_ops})
    return rows


def game_lines(runs: int, indent: str = "") -> list[str]:
    """What a proof costs a peer game, per layer (protocol version 5): a
    4-seat Agent Avenue game (teams 2v2) is created and joined through the
    real writers; for its shared deck, the CPU time of writing a layer
    without and with its proof, and of checking the proof when the file
    arrives (`peer.proofs.check`, nothing remembered); and its biggest
    join file, with the share of the proof in it."""
    from pbem import games
    from pbem.crypto.keys import SecretIdentity
    from pbem.games.base import SeatSpec
    from pbem.protocol.chain import Chain
    from pbem.protocol.codec import read_envelope
    from pbem.protocol.peer import proofs, writer
    from pbem.protocol.peer.deck import new_layer

    game = games.get("agent-avenue")
    options = game.options({"teams": "2v2"})
    names = ["alice", "bob", "carol", "dave"]
    secrets = {n: SecretIdentity.generate(n) for n in names}
    specs = game.seats(options, [SeatSpec(n, team) for n, team in zip(names, ["green", "blue"] * 2)])
    chain = Chain(writer.make_genesis(game, options, [(s, secrets[s.name].public) for s in specs], secrets["alice"]))
    deck = chain.deck
    before, context = deck.received(), deck.proof_context(1)
    layer = new_layer("bob", before, None, context)[1]
    after = [b64d(p, 32) for p in layer.points]

    def check() -> None:
        proofs._CHECKED.clear()
        proofs.check(deck, 1, proofs.SHARED, layer, before, after, "bob's layer")

    plain = cpu_median(lambda: new_layer("bob", before), runs)[0]
    proven = cpu_median(lambda: new_layer("bob", before, None, context), runs)[0]
    checked = cpu_median(check, runs)[0]
    joins = []
    for name in names[1:]:
        data = writer.join(chain, secrets[name])
        chain.append(data)
        joins.append(data)
    biggest = max(joins, key=len)
    proof = len(msgspec.json.decode(read_envelope(biggest).body)["join"]["layer"]["proof"])
    return [f"{indent}per layer of Agent Avenue's shared deck ({len(before)} cards), median CPU ms of {runs} runs: "
            f"writing {plain * 1000:.0f} without a proof, {proven * 1000:.0f} with; checking the proof on arrival "
            f"{checked * 1000:.0f}",
            f"{indent}biggest join file of a 4-seat peer game (Agent Avenue, teams): {len(biggest)} bytes, "
            f"of which the layer's proof {proof} (goal: under 64 KiB)"]


def report(runs: int, indent: str = "", quick: bool = False) -> list[str]:
    """The table's lines (also printed by `python -m benchmarks`; `quick`:
    decks of 8 and 60 cards only)."""
    floor = one_multiplication()
    rows = deck_rows(runs, (8, GOAL_CARDS)) if quick else deck_rows(runs) + duet_rows(runs)
    lines = [f"{indent}median CPU ms of {runs} runs; one libsodium scalar multiplication now: {floor * 1e6:.0f} us "
             "(floor ms: the count times that)",
             f"{indent}{'layer':<31} {'bytes':>6} {'prove ms':>9} {'mults':>6} {'floor ms':>9} "
             f"{'verify ms':>10} {'mults':>6} {'floor ms':>9}"]
    for r in rows:
        lines.append(f"{indent}{r['what']:<31} {r['bytes']:>6} {r['prove'] * 1000:9.0f} {r['prove ops']:>6} "
                     f"{r['prove ops'] * floor * 1000:9.0f} {r['verify'] * 1000:10.1f} {r['verify ops']:>6} "
                     f"{r['verify ops'] * floor * 1000:9.1f}")
    goal = next(r for r in rows if r["n"] == GOAL_CARDS and "cards" in r["what"])
    verdicts = [("proof", f"{goal['bytes']} bytes", f"<= {GOAL_BYTES} bytes", goal["bytes"] <= GOAL_BYTES),
                ("proving", f"{goal['prove'] * 1000:.0f} ms CPU", f"<= {GOAL_PROVE_S * 1000:.0f} ms",
                 goal["prove"] <= GOAL_PROVE_S),
                ("verifying", f"{goal['verify'] * 1000:.0f} ms CPU", f"<= {GOAL_VERIFY_S * 1000:.0f} ms",
                 goal["verify"] <= GOAL_VERIFY_S)]
    lines.append(f"{indent}issue 25's goals for {GOAL_CARDS} cards: " + "; ".join(
        f"{what} {value} ({target}): {'pass' if ok else 'miss'}" for what, value, target, ok in verdicts))
    return lines + game_lines(runs, indent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    runs = parser.parse_args().runs
    print(f"pbem shuffle proofs, Python {platform.python_version()} on {platform.machine()}")
    for line in report(runs):
        print(line)


if __name__ == "__main__":
    main()
