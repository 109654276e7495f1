"""Hash-chain beacons (pbem.crypto.beacon) and committed decks
(pbem.crypto.committed). Their known-answer vectors are with the poker ones
in tests/vectors/poker/ (see test_crypto_poker.py)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.beacon import anchor, chance_key, check_link, link, new_chain
from pbem.crypto.committed import check_card, commit_deck, secret_order
from pbem.crypto.encoding import b64d
from pbem.crypto.stream import DeterministicStream
from pbem.errors import CommitmentError, CryptoError, FormatError

LABEL = b"pbem/1 beacon"


def h(x: bytes) -> bytes:
    return hashlib.sha256(LABEL + x).digest()


# --- chains ---------------------------------------------------------------------------


def test_a_chain_is_revealed_backwards_down_to_the_seed():
    seed, end = new_chain(4)
    x1, x2, x3, x4 = (link(seed, 4, i) for i in range(1, 5))
    assert end == h(h(h(h(seed)))) == anchor(seed, 4)
    assert (x1, x2, x3, x4) == (h(h(h(seed))), h(h(seed)), h(seed), seed)
    previous = end
    for x in (x1, x2, x3, x4):
        check_link(previous, x)
        previous = x


def test_chains_are_fresh():
    assert len({new_chain(3)[0] for _ in range(10)}) == 10


@settings(max_examples=30, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), length=st.integers(1, 60), data=st.data())
def test_every_link_hashes_to_the_one_before(seed, length, data):
    i = data.draw(st.integers(1, length))
    previous = anchor(seed, length) if i == 1 else link(seed, length, i - 1)
    check_link(previous, link(seed, length, i))
    if i < length:  # skipping a link, or going the wrong way, is refused
        with pytest.raises(CommitmentError):
            check_link(previous, link(seed, length, i + 1))
    with pytest.raises(CommitmentError):
        check_link(link(seed, length, i), previous)


def test_check_link_rejects_with_the_message_and_checks_sizes():
    seed, end = new_chain(3)
    with pytest.raises(CommitmentError, match="beacon link does not hash to the previous one"):
        check_link(end, bytes(32))
    with pytest.raises(CommitmentError):
        check_link(end, new_chain(3)[0])  # another chain's link
    with pytest.raises(FormatError, match="32 bytes"):
        check_link(end, link(seed, 3, 1)[:31])
    with pytest.raises(FormatError, match="32 bytes"):
        check_link(end[:16], link(seed, 3, 1))


def test_link_bounds():
    seed, _ = new_chain(3)
    with pytest.raises(CryptoError, match="used up"):
        link(seed, 3, 4)
    with pytest.raises(ValueError):
        link(seed, 3, 0)
    with pytest.raises(ValueError):
        new_chain(0)
    with pytest.raises(FormatError):
        link(seed[:8], 3, 1)


def test_a_long_chain_is_quick_enough():
    seed, end = new_chain(2000)
    check_link(end, link(seed, 2000, 1))
    assert link(seed, 2000, 2000) == seed


# --- chance ---------------------------------------------------------------------------


LINKS = {"alice": bytes(range(32)), "bob": bytes(range(32, 64))}


def test_chance_key_is_deterministic_and_order_free():
    key = chance_key(LINKS, "g-1", 7)
    assert len(key) == 32
    assert chance_key(dict(reversed(list(LINKS.items()))), "g-1", 7) == key


@settings(max_examples=30, deadline=None)
@given(seat=st.sampled_from(["alice", "bob"]), i=st.integers(0, 31), bit=st.integers(0, 7))
def test_chance_key_changes_with_any_link_bit(seat, i, bit):
    raw = bytearray(LINKS[seat])
    raw[i] ^= 1 << bit
    assert chance_key({**LINKS, seat: bytes(raw)}, "g-1", 7) != chance_key(LINKS, "g-1", 7)


def test_chance_key_changes_with_every_other_input():
    base = chance_key(LINKS, "g-1", 7)
    variants = [
        chance_key(LINKS, "g-2", 7),
        chance_key(LINKS, "g-1", 8),
        chance_key({"alice": LINKS["bob"], "bob": LINKS["alice"]}, "g-1", 7),  # links swapped between seats
        chance_key({"alicf": LINKS["alice"], "bob": LINKS["bob"]}, "g-1", 7),  # a seat renamed
        chance_key({**LINKS, "carol": bytes(32)}, "g-1", 7),  # a seat more
        chance_key({"alice": LINKS["alice"]}, "g-1", 7),  # a seat less
    ]
    assert len({base, *variants}) == len(variants) + 1


def test_chance_key_arguments():
    with pytest.raises(ValueError):
        chance_key({}, "g", 1)
    with pytest.raises(ValueError):
        chance_key(LINKS, "g", -1)
    with pytest.raises(FormatError):
        chance_key({"alice": bytes(31)}, "g", 1)


def test_two_seats_beacon_game():
    """Each file reveals the writer's next link; everybody checks it and
    derives the same event stream."""
    seats = ["alice", "bob"]
    chains = {s: new_chain(10) for s in seats}
    latest = {s: chains[s][1] for s in seats}  # the anchors, committed at genesis/join
    written = Counter()
    rolls = []
    for seq in range(1, 9):
        writer = seats[seq % 2]
        written[writer] += 1
        revealed = link(chains[writer][0], 10, written[writer])
        check_link(latest[writer], revealed)  # what every verifier does
        latest[writer] = revealed
        stream = DeterministicStream(chance_key(latest, "g-beacon", seq), b"event 0")
        rolls.append(stream.below(6))
        again = DeterministicStream(chance_key(dict(latest), "g-beacon", seq), b"event 0")
        assert again.below(6) == rolls[-1]
    assert all(0 <= r < 6 for r in rolls)


# --- committed decks --------------------------------------------------------------------


DECK = ["ace"] * 4 + ["bell"] * 3 + ["crown"] * 2 + ["dove"]


def test_commit_deck_round_trip():
    cards = secret_order(DECK)
    assert Counter(cards) == Counter(DECK)
    commitments, salts = commit_deck(cards)
    assert len(commitments) == len(salts) == len(DECK)
    assert len(set(commitments)) == len(DECK)  # equal cards, unrelated commitments
    assert all(len(s) == 32 and len(b64d(c, 32)) == 32 for c, s in zip(commitments, salts))
    for c, s, card in zip(commitments, salts, cards):
        check_card(c, s, card)


def test_commit_deck_refuses_a_wrong_opening():
    cards = ["ace", "bell", "ace"]
    commitments, salts = commit_deck(cards)
    with pytest.raises(CommitmentError):
        check_card(commitments[0], salts[0], "bell")  # another card
    with pytest.raises(CommitmentError):
        check_card(commitments[0], salts[2], "ace")  # the same card, another position's salt
    with pytest.raises(CommitmentError):
        check_card(commitments[1], salts[0], "ace")
    with pytest.raises(FormatError):
        check_card(commitments[0], salts[0][:16], "ace")


def test_secret_order_is_a_fresh_permutation():
    orders = {tuple(secret_order(list("abcd"))) for _ in range(200)}
    assert len(orders) > 12
    assert all(sorted(o) == list("abcd") for o in orders)
    deck = list(DECK)
    secret_order(deck)
    assert deck == DECK  # the input is left alone


def test_beacon_draws_from_a_committed_deck():
    """The owner commits; the beacon picks the position; the opening is checked."""
    cards = secret_order(DECK)
    commitments, salts = commit_deck(cards)
    remaining = list(range(len(cards)))
    drawn = []
    seed, end = new_chain(len(cards) + 1)
    for seq in range(1, len(cards) + 1):
        stream = DeterministicStream(chance_key({"owner": link(seed, len(cards) + 1, seq)}, "g-deck", seq), b"draw")
        pos = remaining.pop(stream.below(len(remaining)))
        check_card(commitments[pos], salts[pos], cards[pos])  # what a verifier does with the opening
        drawn.append(cards[pos])
    assert Counter(drawn) == Counter(DECK)
