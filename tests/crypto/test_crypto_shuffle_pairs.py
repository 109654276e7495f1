"""Proofs of the two-faced deck's pair layers (pbem.crypto.shuffle.pairs),
on a deck shaped like the Codenames Duet key and on random decks of pairs.

Each of the deck's three layer kinds (A re-pairs face 1 in place; B
re-pairs face 0 and shuffles the pairs; A shuffles the pairs) and the
fourth combination (nothing moves) is proven and verified; every break of
a layer's rule that `twofaced.check_pair_layer` finds at the audit is
refused at once: a re-pairing across classes, a moved fixed face, split
pairs, another scalar, and a proof that is not this layer's. A cheater's
proof is our prover run on its false layer (`forge`: the prover's checks
that the layer holds are switched off).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto import poker, twofaced
from pbem.crypto.shuffle import argument, pairs, pairs_proof_length, prove_pairs, verify_pairs
from pbem.crypto.shuffle.group import mul
from pbem.errors import CryptoError, ShuffleProofError
from test_crypto_poker import fixed_scalar

LONG = bool(os.environ.get("PBEM_LONG"))
GAME = "g-two-faced-test"
CTX = b"pbem/1 two-faced layer test"

# 25 cells like a Duet key: each side 9 agents, 3 assassins, 13 bystanders
SIDE_A = ["agent"] * 9 + ["assassin"] * 3 + ["bystander"] * 13
SIDE_B = (["agent"] * 3 + ["assassin"] + ["bystander"] * 5 + ["agent"] + ["assassin"] + ["bystander"]
          + ["agent"] * 5 + ["assassin"] + ["bystander"] * 7)
#: the three layers: (re-paired face, pairs shuffled), as `peer_faces.PLAN`
PLAN = ((1, False), (0, True), (None, True))


class Deck:
    """The three honest layers of a two-faced deck, their scalars, bases and keys."""

    def __init__(self, cards: list[tuple[str, str]], rng: random.Random | None = None) -> None:
        draw = (lambda n: rng.randrange(n)) if rng else None
        self.cards = sorted(cards)
        self.start = twofaced.unflatten(list(twofaced.face_table(GAME, self.cards, ("a", "b"))))
        k_a, k_b = fixed_scalar(f"A {len(cards)}"), fixed_scalar(f"B {len(cards)}")
        k1 = twofaced.first_scalar(k_a)
        k1_key = poker.public_key(k1)
        self.scalars = [k1, k_b, twofaced.second_scalar(k_a, k1)]
        self.bases = [poker.BASE, poker.BASE, k1_key]
        self.keys = [k1_key, poker.public_key(k_b), poker.public_key(k_a)]
        self.decks = [self.start]
        for step, k in enumerate(self.scalars):
            self.decks.append(twofaced.pair_layer(k, self.decks[-1], rng=draw, **self.how(step)))

    def how(self, step: int) -> dict:
        repair, shuffle = PLAN[step]
        return {"repair": repair, "shuffle": shuffle,
                "classes": None if repair is None else [pair[repair] for pair in self.cards]}

    def prove(self, step: int, after=None, **kw) -> bytes:
        return prove_pairs(CTX, self.decks[step], self.decks[step + 1] if after is None else after,
                           self.scalars[step], base=self.bases[step], **{**self.how(step), **kw})

    def verify(self, step: int, proof: bytes, after=None, *, ctx=CTX, key=None, **kw) -> None:
        verify_pairs(ctx, self.decks[step], self.decks[step + 1] if after is None else after, proof,
                     key=key or self.keys[step], base=self.bases[step], **{**self.how(step), **kw})


DUET = Deck(list(zip(SIDE_A, SIDE_B)), random.Random(5))


@pytest.fixture
def forge(monkeypatch):
    """A cheater's prover: ours, without its checks that the layer holds
    (a point it cannot place is said to come from any place left)."""
    def origin(k, points, outputs):
        where = {mul(k, p): i for i, p in enumerate(points)}
        found = [where.get(p) for p in outputs]
        left = iter(sorted(set(range(len(points))) - set(found)))
        return [next(left) if i is None else i for i in found]

    monkeypatch.setattr(argument, "check_witness", lambda *a: None)
    monkeypatch.setattr(pairs, "_origin", origin)
    return DUET.prove


# --- completeness -------------------------------------------------------------------


@pytest.mark.parametrize("step", [0, 1, 2], ids=["A re-pairs face 1", "B re-pairs face 0 and shuffles", "A shuffles"])
def test_each_layer_of_the_duet_key_proves_and_verifies(step):
    proof = DUET.prove(step)
    assert len(proof) == pairs_proof_length(25, **DUET.how(step))
    DUET.verify(step, proof)


def test_a_layer_that_moves_nothing_proves_and_verifies():
    k = fixed_scalar("in place")
    after = twofaced.pair_layer(k, DUET.start)
    proof = prove_pairs(CTX, DUET.start, after, k)
    assert len(proof) == 96
    verify_pairs(CTX, DUET.start, after, proof, key=poker.public_key(k))


@settings(max_examples=30 if LONG else 2, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("xyz"), st.sampled_from("pq")), min_size=2, max_size=12),
       st.integers(min_value=0, max_value=2**32))
def test_random_decks_of_pairs_prove_and_verify(cards, seed):
    deck = Deck(cards, random.Random(seed))
    for step in range(3):
        deck.verify(step, deck.prove(step))


def test_the_proof_sizes_of_the_duet_key():
    sizes = [pairs_proof_length(25, **DUET.how(step)) for step in range(3)]
    assert sizes == [len(DUET.prove(step)) for step in range(3)]
    assert max(sizes) <= 9 * 1024


# --- soundness: the layer's rule ----------------------------------------------------


def _swap(deck, i: int, j: int, face: int):
    """`deck` with face `face` of pairs i and j exchanged."""
    out = [list(pair) for pair in deck]
    out[i][face], out[j][face] = out[j][face], out[i][face]
    return [tuple(pair) for pair in out]


def _cross_class(step: int, face: int) -> tuple[int, int]:
    """Two places of layer `step`'s output whose face `face` shows cards of
    other classes (the audit's view: every scalar known)."""
    k = 1
    for scalar in DUET.scalars[:step + 1]:
        k = k * int.from_bytes(scalar, "little")
    card = {mul(k, pair[face]): DUET.cards[i][face] for i, pair in enumerate(DUET.start)}
    classes = [card[pair[face]] for pair in DUET.decks[step + 1]]
    return 0, next(i for i, c in enumerate(classes) if c != classes[0])


@pytest.mark.parametrize("step,face", [(0, 1), (1, 0)], ids=["A's first layer", "B's layer"])
def test_a_re_pairing_across_classes_is_refused(step, face, forge):
    """The key's standard overlap broken: caught at once, not at the audit."""
    i, j = _cross_class(step, face)
    after = _swap(DUET.decks[step + 1], i, j, face)
    with pytest.raises(CryptoError, match="re-paired across classes"):
        twofaced.check_pair_layer(DUET.scalars[step], DUET.decks[step], after, **DUET.how(step))
    with pytest.raises(ShuffleProofError, match="does not verify"):
        DUET.verify(step, DUET.prove(step), after)
    with pytest.raises(ShuffleProofError, match="does not verify"):
        DUET.verify(step, forge(step, after), after)


def test_a_moved_fixed_face_in_the_first_layer_is_refused(forge):
    after = _swap(DUET.decks[1], 0, 1, 0)
    with pytest.raises(ShuffleProofError, match="does not verify"):
        DUET.verify(0, forge(0, after), after)


def test_split_pairs_in_the_last_layer_are_refused(forge):
    """A's second layer shuffles the pairs and must move both faces together."""
    after = _swap(DUET.decks[3], 3, 17, 1)
    with pytest.raises(CryptoError, match="joins faces"):
        twofaced.check_pair_layer(DUET.scalars[2], DUET.decks[2], after, **DUET.how(2))
    with pytest.raises(ShuffleProofError, match="does not verify"):
        DUET.verify(2, forge(2, after), after)


@pytest.mark.parametrize("step", [0, 1, 2])
def test_a_layer_under_another_scalar_than_its_key_s_is_refused(step):
    other = fixed_scalar(f"another scalar {step}")
    after = twofaced.pair_layer(other, DUET.decks[step], **DUET.how(step))
    proof = prove_pairs(CTX, DUET.decks[step], after, other, base=DUET.bases[step], **DUET.how(step))
    with pytest.raises(ShuffleProofError, match="does not verify"):
        DUET.verify(step, proof, after)


def test_the_last_layer_must_follow_the_first_layer_s_key():
    """A's second layer is published under A's join key, which is ``k2·K1``:
    a layer whose key is its scalar times G is refused."""
    with pytest.raises(ShuffleProofError, match="does not verify"):
        verify_pairs(CTX, DUET.decks[2], DUET.decks[3], DUET.prove(2), key=poker.public_key(DUET.scalars[2]),
                     shuffle=True)


def test_the_prover_refuses_a_layer_that_breaks_its_rule():
    after = _swap(DUET.decks[1], *_cross_class(0, 1), 1)
    with pytest.raises(CryptoError, match="false statement"):
        DUET.prove(0, after)


# --- soundness: the proof's place and bytes ------------------------------------------------


@pytest.mark.parametrize("step", [0, 1, 2])
def test_a_proof_is_refused_in_another_context_or_for_another_layer(step):
    proof = DUET.prove(step)
    with pytest.raises(ShuffleProofError, match="does not verify"):
        DUET.verify(step, proof, ctx=CTX + b" seq 8")
    other = (step + 1) % 3
    if len(proof) == pairs_proof_length(25, **DUET.how(other)):  # pragma: no cover - the layouts differ
        with pytest.raises(ShuffleProofError):
            DUET.verify(other, proof)
    else:
        with pytest.raises(ShuffleProofError, match="bytes"):
            DUET.verify(other, proof)


def test_the_classes_are_the_verifier_s_own():
    """A proof made with the classes the cheater likes fails against the public ones."""
    cards = [("x", "p"), ("x", "q"), ("y", "p"), ("y", "q")]
    deck = Deck(cards, random.Random(2))
    k = deck.scalars[0]
    after = _swap(deck.decks[1], 0, 1, 1)  # face 1 across its classes p and q
    proof = prove_pairs(CTX, deck.decks[0], after, k, repair=1, classes=["c"] * 4)
    with pytest.raises(ShuffleProofError):
        deck.verify(0, proof, after)


def test_the_deck_between_the_two_steps_is_checked():
    proof = DUET.prove(1)
    for at in (0, 32 * 7):  # its key, then one of its points
        with pytest.raises(ShuffleProofError, match="the deck between its two steps"):
            DUET.verify(1, proof[:at] + bytes(32) + proof[at + 32:])
        other = poker.card_point(GAME, "elsewhere", 0)
        with pytest.raises(ShuffleProofError, match="does not verify"):
            DUET.verify(1, proof[:at] + other + proof[at + 32:])


@pytest.mark.parametrize("step", [0, 1, 2])
def test_a_truncated_pair_proof_is_refused(step):
    proof = DUET.prove(step)
    with pytest.raises(ShuffleProofError, match=f"{len(proof) - 32} bytes, not {len(proof)}"):
        DUET.verify(step, proof[:-32])
