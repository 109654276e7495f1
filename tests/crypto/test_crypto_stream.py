"""Deterministic streams: reproducible, label-separated and unbiased."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from itertools import permutations

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from hypothesis import given
from hypothesis import strategies as st

from pbem.crypto.stream import DeterministicStream, derive

KEY = bytes(range(32))


def chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_derive_is_hkdf_with_prefixed_label() -> None:
    ref = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"pbem/1 deck").derive(KEY)
    assert derive(KEY, b"deck") == ref
    assert derive(KEY, b"deck") != derive(KEY, b"dice")
    assert len(derive(KEY, b"deck", 64)) == 64
    with pytest.raises(ValueError):
        derive(b"short", b"deck")


def test_stream_matches_its_definition() -> None:
    # HMAC-SHA256(key, label || counter as 8 bytes big-endian), 8-byte blocks
    s = DeterministicStream(KEY, b"roll")
    blocks = []
    for counter in range(2):
        digest = hmac.new(KEY, b"roll" + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        blocks += [int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8)]
    assert [s.below(2**64) for _ in range(8)] == blocks


def test_same_key_and_label_same_sequence() -> None:
    def draws(key: bytes, label: bytes) -> list[int]:
        s = DeterministicStream(key, label)
        return [s.below(1000) for _ in range(50)]

    ref = draws(KEY, b"turn 3")
    assert draws(KEY, b"turn 3") == ref
    assert draws(KEY, b"turn 4") != ref
    assert draws(bytes(32), b"turn 3") != ref


@given(st.integers(1, 2**64), st.binary(max_size=8))
def test_below_in_range(n: int, label: bytes) -> None:
    s = DeterministicStream(KEY, label)
    assert all(0 <= s.below(n) < n for _ in range(5))


def test_below_one_is_zero() -> None:
    s = DeterministicStream(KEY, b"x")
    assert [s.below(1) for _ in range(10)] == [0] * 10


@pytest.mark.parametrize("n", [0, -1, 2**64 + 1, 1.0, True, "3"])
def test_below_rejects_bad_n(n: object) -> None:
    with pytest.raises(ValueError):
        DeterministicStream(KEY, b"x").below(n)  # type: ignore[arg-type]


def test_short_key_refused() -> None:
    with pytest.raises(ValueError):
        DeterministicStream(b"k" * 15, b"x")


def test_die_is_fair() -> None:
    s = DeterministicStream(KEY, b"d6")
    total = 6000
    counts = Counter(s.below(6) for _ in range(total))
    assert chi_square(counts, list(range(6)), total) < 20.5  # p = 0.001, 5 degrees of freedom


def test_rejection_removes_modulo_bias() -> None:
    # n = 3 * 2**62: plain x % n would give the lowest third of the range half
    # of all results; rejection sampling gives each third a third.
    n = 3 * 2**62
    s = DeterministicStream(KEY, b"big")
    total = 3000
    counts = Counter(s.below(n) // 2**62 for _ in range(total))
    assert chi_square(counts, [0, 1, 2], total) < 13.8  # p = 0.001, 2 degrees of freedom


def test_shuffle_is_a_deterministic_permutation() -> None:
    deck = [f"card{i}" for i in range(40)]
    a = DeterministicStream(KEY, b"deck").shuffle(deck)
    assert sorted(a) == sorted(deck)
    assert a != deck
    assert DeterministicStream(KEY, b"deck").shuffle(deck) == a
    assert DeterministicStream(KEY, b"deck2").shuffle(deck) != a
    assert deck[0] == "card0"  # the input is not shuffled in place
    assert DeterministicStream(KEY, b"x").shuffle([]) == []
    assert DeterministicStream(KEY, b"x").shuffle(iter("a")) == ["a"]


def test_shuffle_is_uniform() -> None:
    s = DeterministicStream(KEY, b"three")
    perms = list(permutations("abc"))
    total = 6000
    counts = Counter(tuple(s.shuffle("abc")) for _ in range(total))
    assert set(counts) == set(perms)
    assert chi_square(counts, perms, total) < 20.5
