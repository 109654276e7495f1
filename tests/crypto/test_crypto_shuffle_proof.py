"""Shuffle proofs (pbem.crypto.shuffle): a layer is a permutation of the
points it received, all multiplied by the one scalar of its key.

Completeness over random decks of 1 to 128 cards; soundness against every
cheat a seat can make in a layer (a substituted card, another card's point,
two scalars, a dropped or repeated point, another key), each refused both
with the honest proof of the real layer and with a proof the cheater makes
by running the prover on its false layer (`forge`); proofs refused in
another context (game, seq, deck) or for other inputs; strict decoding of
the proof's bytes. The two-faced deck's pair layers: `test_crypto_shuffle_pairs.py`.

Known-answer vectors under tests/vectors/shuffle/ (the format of
tests/vectors/poker/) freeze the proof's bytes and transcript: once turn
files hold proofs, a change here would break every game begun before it.
They were written once (``PYTHONPATH=.:tests python tests/crypto/test_crypto_shuffle_proof.py``,
which keeps existing files) and are read, never regenerated.

Proving a 60-card deck takes a few tenths of a second, so most tests use
small decks; ``PBEM_LONG=1`` tries many more random decks.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto import poker, shuffle
from pbem.crypto import twofaced
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.shuffle import argument
from pbem.crypto.shuffle.group import L
from pbem.errors import CryptoError, FormatError, PbemError, ShuffleProofError
from test_crypto_poker import NON_CANONICAL, NOT_ON_CURVE, SMALL_ORDER, fixed_scalar, mixed_order
from vectorfiles import parse, write
import paths

LONG = bool(os.environ.get("PBEM_LONG"))
GAME = "g-shuffle-proof-test"
VECTORS = paths.VECTORS / "shuffle"


def context(game: str = GAME, seq: int = 7, deck: str = "deck") -> bytes:
    return canonical(["pbem/1 shuffle layer", game, seq, deck])


def cards(n: int, name: str = "card", game: str = GAME) -> list[bytes]:
    return [poker.card_point(game, name, i) for i in range(n)]


class Layer:
    """An honest layer of `n` cards and its proof."""

    def __init__(self, n: int, seed: int = 1, scalar: bytes | None = None) -> None:
        self.inputs = cards(n)
        self.scalar = scalar or fixed_scalar(f"layer {n} {seed}")
        self.key = poker.public_key(self.scalar)
        rng = random.Random(seed)
        self.outputs, self.order = poker.shuffle_layer_witness(self.scalar, self.inputs, lambda m: rng.randrange(m))
        self.proof = shuffle.prove(context(), self.inputs, self.outputs, self.order, self.scalar)

    def verify(self, outputs=None, proof=None, *, ctx=None, inputs=None, key=None) -> None:
        shuffle.verify(context() if ctx is None else ctx, self.inputs if inputs is None else inputs,
                       self.outputs if outputs is None else outputs, self.proof if proof is None else proof,
                       key=key or self.key)


def forge(inputs, outputs, order, scalar, ctx=None) -> bytes:
    """What a cheater sends: our own prover run on its false layer (it
    skips the check that the statement holds)."""
    return argument.prove(ctx or context(), [inputs], [outputs], order, int.from_bytes(scalar, "little"))


def refused(layer: Layer, outputs, order, scalar=None, **kw) -> None:
    """The cheating layer is refused with the real layer's proof and with a forged one."""
    with pytest.raises(ShuffleProofError, match="does not verify|points|valid"):
        layer.verify(outputs, **kw)
    with pytest.raises(ShuffleProofError, match="does not verify"):
        layer.verify(outputs, forge(layer.inputs, outputs, order, scalar or layer.scalar), **kw)


# --- completeness ------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 12, 13, 29])
def test_a_layer_of_any_small_size_proves_and_verifies(n):
    layer = Layer(n)
    assert len(layer.proof) == shuffle.proof_length(n)
    layer.verify()


@settings(max_examples=40 if LONG else 3, deadline=None)
@given(st.integers(min_value=2, max_value=128), st.integers(min_value=0, max_value=2**32))
def test_random_decks_of_2_to_128_cards_prove_and_verify(n, seed):
    Layer(n, seed).verify()


def test_the_largest_deck_and_the_issue_s_size():
    layer = Layer(128)
    layer.verify()
    assert shuffle.proof_length(60) <= 8 * 1024  # issue 25: a 60-card proof is at most 8 KiB
    assert shuffle.proof_length(128) < 3 * 1024  # logarithmic: two more rounds than 24 cards


def test_a_proof_can_follow_another_base_than_g():
    """The two-faced deck's last layer is published under ``k·K1``."""
    base = poker.public_key(fixed_scalar("first layer"))
    k = fixed_scalar("second layer")
    inputs = cards(6)
    outputs, order = poker.shuffle_layer_witness(k, inputs)
    proof = shuffle.prove(context(), inputs, outputs, order, k, base=base)
    shuffle.verify(context(), inputs, outputs, proof, key=poker.encrypt(k, base), base=base)
    with pytest.raises(ShuffleProofError, match="does not verify"):
        shuffle.verify(context(), inputs, outputs, proof, key=poker.public_key(k))


def test_two_proofs_of_one_layer_differ_and_both_verify():
    layer = Layer(8)
    again = shuffle.prove(context(), layer.inputs, layer.outputs, layer.order, layer.scalar)
    assert again != layer.proof
    layer.verify(proof=again)


def test_the_prover_refuses_a_false_statement():
    layer = Layer(6)
    with pytest.raises(CryptoError, match="false statement"):
        shuffle.prove(context(), layer.inputs, layer.outputs, list(reversed(layer.order)), layer.scalar)
    with pytest.raises(CryptoError, match="not a permutation"):
        shuffle.prove(context(), layer.inputs, layer.outputs, [0] * 6, layer.scalar)
    with pytest.raises(CryptoError, match="false statement"):
        shuffle.prove(context(), layer.inputs, layer.outputs, layer.order, fixed_scalar("another"))
    with pytest.raises(FormatError):
        shuffle.prove(context(), layer.inputs, layer.outputs, layer.order, bytes(32))


# --- soundness: cheating layers ------------------------------------------------------


def test_a_substituted_card_is_refused():
    layer = Layer(8)
    outputs = list(layer.outputs)
    outputs[3] = poker.encrypt(layer.scalar, poker.card_point(GAME, "forged", 0))
    refused(layer, outputs, layer.order)


def test_a_card_of_the_game_that_was_not_in_the_layer_is_refused():
    """A reshuffle's layer swaps in the point of a card that was not reshuffled."""
    layer = Layer(8)
    outputs = list(layer.outputs)
    outputs[0] = poker.encrypt(layer.scalar, poker.card_point(GAME, "card", 8))
    refused(layer, outputs, layer.order)


def test_another_card_s_point_in_place_of_one_is_refused():
    layer = Layer(8)
    outputs = list(layer.outputs)
    outputs[2] = outputs[5]  # one card twice, one card gone
    order = list(layer.order)
    order[2] = order[5]
    refused(layer, outputs, order)


def test_a_layer_under_two_scalars_is_refused():
    layer = Layer(8)
    other = fixed_scalar("second scalar")
    outputs = list(layer.outputs)
    outputs[4] = poker.encrypt(other, layer.inputs[layer.order[4]])
    refused(layer, outputs, layer.order)
    refused(layer, outputs, layer.order, scalar=other)


def test_a_point_made_from_a_card_is_refused(monkeypatch):
    """``2·card`` in place of a card decrypts to no card. A cheater can
    satisfy every equation but one, by committing to half that card's weight
    in place of a permutation of the weights: the grand product refuses it."""
    layer = Layer(8)
    outputs = list(layer.outputs)
    outputs[3] = poker.encrypt(layer.scalar, poker.encrypt((2).to_bytes(32, "little"), layer.inputs[layer.order[3]]))
    half = pow(2, -1, L)
    monkeypatch.setattr(argument, "_permuted", lambda a, sigma: [a[s] * (half if i == 3 else 1) % L
                                                                   for i, s in enumerate(sigma)])
    with pytest.raises(ShuffleProofError, match="grand-product argument"):
        layer.verify(outputs, forge(layer.inputs, outputs, layer.order, layer.scalar))


def test_a_dropped_point_is_refused():
    layer = Layer(8)
    with pytest.raises(ShuffleProofError, match="7 points, it received 8"):
        layer.verify(layer.outputs[:-1])
    with pytest.raises(ShuffleProofError, match="7 points, it received 8"):  # whatever the proof
        layer.verify(layer.outputs[:-1], forge(layer.inputs[:-1], layer.outputs[:-1], list(range(7)), layer.scalar))


def test_a_repeated_point_is_refused():
    layer = Layer(8)
    outputs = layer.outputs[:-1] + [layer.outputs[0]]
    order = layer.order[:-1] + [layer.order[0]]
    refused(layer, outputs, order)


def test_outputs_reordered_after_the_proof_are_refused():
    layer = Layer(8)
    outputs = list(layer.outputs)
    outputs[0], outputs[1] = outputs[1], outputs[0]
    with pytest.raises(ShuffleProofError, match="does not verify"):
        layer.verify(outputs)


def test_a_layer_under_another_scalar_than_its_key_s_is_refused():
    """The partial decryptions are proven against the key: a layer under
    another scalar would decrypt to no card."""
    layer = Layer(8)
    published = poker.public_key(fixed_scalar("the published one"))
    with pytest.raises(ShuffleProofError, match="does not verify"):
        layer.verify(key=published)
    forged = argument.prove(context(), [layer.inputs], [layer.outputs], layer.order,
                            int.from_bytes(layer.scalar, "little"), key=published)
    with pytest.raises(ShuffleProofError, match="key's equation"):
        layer.verify(proof=forged, key=published)
    other = fixed_scalar("the layer's own")
    outputs = [poker.encrypt(other, layer.inputs[i]) for i in layer.order]
    with pytest.raises(ShuffleProofError, match="does not verify"):
        layer.verify(outputs, shuffle.prove(context(), layer.inputs, outputs, layer.order, other))


@pytest.mark.parametrize("ctx", [context(game="g-another-game"), context(seq=8), context(deck="discard"), b""])
def test_a_proof_is_refused_in_another_context(ctx):
    with pytest.raises(ShuffleProofError, match="does not verify"):
        Layer(8).verify(ctx=ctx)


def test_a_proof_is_refused_for_other_inputs():
    layer = Layer(8)
    with pytest.raises(ShuffleProofError, match="does not verify"):
        layer.verify(inputs=cards(8, "other"))
    with pytest.raises(ShuffleProofError, match="does not verify"):
        layer.verify(inputs=layer.inputs[1:] + layer.inputs[:1])  # the same cards in another order


def test_a_layer_of_the_identity_or_of_bad_points_is_refused():
    """A layer under the scalar 0 would be all identities; small-order or
    mixed-order outputs would leak the next seat's scalar bits."""
    layer = Layer(4)
    for bad in [*SMALL_ORDER, mixed_order(layer.outputs[0]), NOT_ON_CURVE, NON_CANONICAL, b"short"]:
        with pytest.raises(ShuffleProofError, match="output 1 is not a valid point"):
            layer.verify([layer.outputs[0], bad, *layer.outputs[2:]])
    with pytest.raises(ShuffleProofError, match="the key 0 is not a valid point"):
        layer.verify(key=SMALL_ORDER[0])


# --- strict decoding -------------------------------------------------------------------


@pytest.mark.parametrize("change", ["truncated", "padded", "empty", "doubled"])
def test_a_proof_of_the_wrong_length_is_refused(change):
    layer = Layer(4)
    proof = {"truncated": layer.proof[:-1], "padded": layer.proof + b"\0", "empty": b"",
             "doubled": layer.proof * 2}[change]
    with pytest.raises(ShuffleProofError, match=f"the proof is {len(proof)} bytes, not {len(layer.proof)}"):
        layer.verify(proof=proof)


def _with_field(proof: bytes, at: int, value: bytes) -> bytes:
    return proof[:at] + value + proof[at + 32:]


# the proof's first fields: M, A, the grand product's C, then its scalar r_p
R_P_AT = 96


@pytest.mark.parametrize("at", [R_P_AT, -32], ids=["r_p", "last scalar"])
def test_a_non_canonical_scalar_is_refused(at):
    layer = Layer(4)
    at %= len(layer.proof)
    value = int.from_bytes(layer.proof[at:at + 32], "little") + L  # the same scalar mod L
    assert value < 2**256
    with pytest.raises(ShuffleProofError, match=f"byte {at}.* not a reduced scalar"):
        layer.verify(proof=_with_field(layer.proof, at, value.to_bytes(32, "little")))


@pytest.mark.parametrize("bad", [*SMALL_ORDER[1:], "mixed order", NOT_ON_CURVE, NON_CANONICAL],
                         ids=lambda b: b if isinstance(b, str) else b.hex()[:8])
def test_a_proof_point_outside_the_prime_order_subgroup_is_refused(bad):
    layer = Layer(4)
    bad = mixed_order(layer.proof[:32]) if bad == "mixed order" else bad
    with pytest.raises(ShuffleProofError, match="M \\(byte 0\\) is not a point of the prime-order subgroup"):
        layer.verify(proof=_with_field(layer.proof, 0, bad))


def test_every_field_of_the_proof_is_checked():
    """Each 32-byte field changed (one bit, or the identity, or another
    valid point) makes the proof fail: nothing in it goes unchecked."""
    layer = Layer(3)
    other = poker.card_point(GAME, "elsewhere", 0)
    for at in range(0, len(layer.proof), 32):
        for value in (bytes([layer.proof[at] ^ 1]) + layer.proof[at + 1:at + 32], SMALL_ORDER[0], other):
            with pytest.raises(ShuffleProofError):
                layer.verify(proof=_with_field(layer.proof, at, value))


def test_a_proof_that_is_not_bytes_is_refused():
    with pytest.raises(PbemError, match="bytes"):
        Layer(2).verify(proof="not bytes")


# --- known-answer vectors ---------------------------------------------------------------


def run(v: dict) -> None:
    """Verify what the vector holds; raise whatever pbem raises."""
    def points(name: str) -> list[bytes]:
        return [b64d(p) for p in v[name]]

    def pairs_of(name: str) -> list[tuple[bytes, bytes]]:
        return twofaced.unflatten(points(name))

    match v["vector"]:
        case "shuffle":
            shuffle.verify(v["context"].encode(), points("inputs"), points("outputs"), b64d(v["proof"]),
                           key=b64d(v["key"]), base=b64d(v["base"]))
        case "pairs":
            shuffle.verify_pairs(v["context"].encode(), pairs_of("before"), pairs_of("after"), b64d(v["proof"]),
                                 key=b64d(v["key"]), base=b64d(v["base"]), repair=v["repair"],
                                 classes=v["classes"], shuffle=v["shuffle"])
        case other:
            raise ValueError(f"unknown vector kind {other!r}")


def vector_files() -> list[Path]:
    return sorted(VECTORS.glob("*.txt"))


def test_vectors_exist():
    found = [parse(p.read_text(encoding="utf-8")) for p in vector_files()]
    assert {v["vector"] for _, v in found} == {"shuffle", "pairs"}
    assert {h["expect"] for h, _ in found} == {"ok", "refused"}


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.stem)
def test_vector(path: Path):
    headers, v = parse(path.read_text(encoding="utf-8"))
    if headers["expect"] == "ok":
        run(v)
    else:
        with pytest.raises(ShuffleProofError):
            run(v)


def generate() -> None:
    VECTORS.mkdir(parents=True, exist_ok=True)
    layer = Layer(6, seed=3, scalar=fixed_scalar("vector layer"))
    ok = {"vector": "shuffle", "context": context().decode(), "base": b64e(shuffle.BASE), "key": b64e(layer.key),
          "inputs": [b64e(p) for p in layer.inputs], "outputs": [b64e(p) for p in layer.outputs],
          "proof": b64e(layer.proof)}
    write(VECTORS, "shuffle-ok", "ok", "a layer of six cards and its proof", ok)
    write(VECTORS, "shuffle-other-seq", "refused", "the same proof in the context of the next file",
          {**ok, "context": context(seq=8).decode()})
    swapped = [ok["outputs"][1], ok["outputs"][0], *ok["outputs"][2:]]
    write(VECTORS, "shuffle-reordered", "refused", "the layer's first two points swapped after the proof",
          {**ok, "outputs": swapped})
    cards = [("x", "p"), ("x", "p"), ("x", "q"), ("y", "p"), ("y", "q"), ("y", "q")]
    start = twofaced.unflatten(list(twofaced.face_table(GAME, cards, ("a", "b"))))
    k_a, k_b = fixed_scalar("vector A"), fixed_scalar("vector B")
    k1 = twofaced.first_scalar(k_a)
    steps = [(k1, shuffle.BASE, 1, False), (k_b, shuffle.BASE, 0, True),
             (twofaced.second_scalar(k_a, k1), poker.public_key(k1), None, True)]
    rng = random.Random(4)
    before = start
    for step, (k, base, repair, shuffled) in enumerate(steps):
        classes = None if repair is None else [c[repair] for c in cards]
        after = twofaced.pair_layer(k, before, repair=repair, classes=classes, shuffle=shuffled,
                                    rng=lambda m: rng.randrange(m))
        proof = shuffle.prove_pairs(b"vector pairs", before, after, k, base=base, repair=repair, classes=classes,
                                    shuffle=shuffled)
        write(VECTORS, f"pairs-layer-{step + 1}-ok", "ok", f"layer {step + 1} of a two-faced deck of six pairs", {
            "vector": "pairs", "context": "vector pairs", "base": b64e(base), "key": b64e(poker.encrypt(k, base)),
            "repair": repair, "classes": classes, "shuffle": shuffled,
            "before": [b64e(p) for p in twofaced.flatten(before)], "after": [b64e(p) for p in twofaced.flatten(after)],
            "proof": b64e(proof)})
        before = after


if __name__ == "__main__":
    sys.exit(generate())
