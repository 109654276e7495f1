"""Mental poker (pbem.crypto.poker): commutative layers, shuffles, deals with
Chaum-Pedersen proofs, point validation, the shuffle audit, and the
known-answer vectors under tests/vectors/poker/.

The vectors are text files like tests/vectors/crypto/: header lines
(``expect: ...``, ``comment: ...``), a blank line, one JSON object. They hold
fixed scalars, so they are read, never regenerated; ``generate`` wrote them
once (``PYTHONPATH=.:tests python tests/crypto/test_crypto_poker.py``) and refuses to
overwrite existing files.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl import bindings as na

from vectorfiles import parse, write
from pbem.crypto import poker
from pbem.crypto.beacon import anchor, chance_key, check_link, link
from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.poker import (
    BASE, card_point, card_table, check_key, check_layer, check_partial, decrypt, encrypt, identify,
    new_scalar, partial_decrypt, prove_dleq, public_key, shuffle_layer, verify_dleq,
)
from pbem.crypto.stream import DeterministicStream
from pbem.errors import CommitmentError, CryptoError, FormatError, ProofError
import paths

VECTORS = paths.VECTORS / "poker"

# a 38-card deck of 8 names with copies (neutral names: this module knows no game)
DECK = [name for name, n in [("ace", 8), ("bell", 6), ("crown", 6), ("dove", 5), ("eel", 4),
                             ("fox", 4), ("gem", 3), ("harp", 2)] for _ in range(n)]
GAME = "g-test-0001"

# every point of small order (1, 2, 4, 8) in its canonical encoding
SMALL_ORDER = [bytes.fromhex(h) for h in (
    "0100000000000000000000000000000000000000000000000000000000000000",  # identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",  # order 4
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
)]
ORDER_8 = SMALL_ORDER[4]
NOT_ON_CURVE = (2).to_bytes(32, "little")  # y = 2 has no x on edwards25519
NON_CANONICAL = bytes.fromhex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # y = p + 1


def fixed_scalar(name: str) -> bytes:
    """A reproducible scalar for tests and vectors."""
    return na.crypto_core_ed25519_scalar_reduce(hashlib.sha512(b"pbem test scalar " + name.encode()).digest())


def mixed_order(point: bytes) -> bytes:
    """`point` plus a point of order 8: on the curve, outside the prime-order subgroup."""
    return na.crypto_core_ed25519_add(point, ORDER_8)


def bad_points() -> list[bytes]:
    p = card_point(GAME, "ace", 0)
    return [*SMALL_ORDER, mixed_order(p), NOT_ON_CURVE, NON_CANONICAL, p[:31], p + b"\0"]


def flip(data: bytes, i: int, bit: int = 1) -> bytes:
    raw = bytearray(data)
    raw[i] ^= bit
    return bytes(raw)


# --- cards -------------------------------------------------------------------------


def test_card_points_are_distinct_valid_and_bound_to_the_game():
    table = card_table(GAME, DECK)
    assert len(table) == 38
    assert all(na.crypto_core_ed25519_is_valid_point(p) for p in table)
    assert Counter(card for card, _ in table.values()) == Counter(DECK)
    assert not set(table) & set(card_table("g-other", DECK))
    assert card_point(GAME, "ace", 0) != card_point(GAME, "ace", 1)


def test_copies_are_numbered_per_name_in_list_order():
    table = card_table(GAME, ["b", "a", "b", "c", "b"])
    assert list(table.values()) == [("b", 0), ("a", 0), ("b", 1), ("c", 0), ("b", 2)]
    assert list(table) == [card_point(GAME, c, n) for c, n in table.values()]


def test_card_point_arguments():
    with pytest.raises(ValueError):
        card_point(GAME, "ace", -1)
    with pytest.raises(ValueError):
        card_point(GAME, "ace", True)
    with pytest.raises(TypeError):
        card_point(GAME, b"ace", 0)  # type: ignore[arg-type]


def test_identify_refuses_a_point_that_is_no_card():
    table = card_table(GAME, DECK)
    p = next(iter(table))
    assert identify(p, table) == ("ace", 0)
    with pytest.raises(CryptoError, match="not a card of this deck"):
        identify(encrypt(new_scalar(), p), table)


# --- layers -------------------------------------------------------------------------


scalars = st.binary(min_size=64, max_size=64).map(na.crypto_core_ed25519_scalar_reduce).filter(lambda k: any(k))


@settings(max_examples=25, deadline=None)
@given(a=scalars, b=scalars, copy=st.integers(0, 50))
def test_layers_commute_and_undo(a, b, copy):
    p = card_point(GAME, "crown", copy)
    assert encrypt(a, encrypt(b, p)) == encrypt(b, encrypt(a, p))
    assert decrypt(a, encrypt(a, p)) == p
    assert decrypt(b, decrypt(a, encrypt(b, encrypt(a, p)))) == p


def test_new_scalars_are_fresh_and_valid():
    ks = {new_scalar() for _ in range(20)}
    assert len(ks) == 20
    for k in ks:
        assert poker.check_scalar(k) == k


@pytest.mark.parametrize("bad", [bytes(32), b"\xff" * 32, bytes(31), "k" * 32, poker.BASE[:16]])
def test_bad_scalars_are_refused(bad):
    p = card_point(GAME, "ace", 0)
    with pytest.raises(FormatError, match="not a valid scalar"):
        encrypt(bad, p)
    with pytest.raises(FormatError, match="not a valid scalar"):
        public_key(bad)


def test_check_key():
    k = fixed_scalar("check key")
    check_key(k, public_key(k))
    with pytest.raises(CryptoError, match="does not match the published key"):
        check_key(k, public_key(fixed_scalar("another")))


@pytest.mark.parametrize("i", range(13))
def test_invalid_and_small_order_points_are_refused_everywhere(i):
    bad = bad_points()[i]
    k = fixed_scalar("validation")
    key = public_key(k)
    good = card_point(GAME, "bell", 0)
    calls = [
        lambda: encrypt(k, bad),
        lambda: decrypt(k, bad),
        lambda: shuffle_layer(k, [good, bad]),
        lambda: partial_decrypt(k, key, bad, b"c"),
        lambda: check_partial(bad, good, good, bytes(64), b"c"),
        lambda: check_partial(key, bad, good, bytes(64), b"c"),
        lambda: check_partial(key, good, bad, bytes(64), b"c"),
        lambda: verify_dleq(bytes(64), bad, key, good, good, b"c"),
        lambda: check_layer(k, [good, bad], [good, good]),
    ]
    for call in calls:
        with pytest.raises(FormatError, match="not a valid point"):
            call()


def test_mixed_order_points_are_on_the_curve_but_refused():
    p = card_point(GAME, "gem", 2)
    m = mixed_order(p)
    assert m != p and na.crypto_core_ed25519_sub(m, ORDER_8) == p  # really p + T
    with pytest.raises(FormatError, match="not a valid point"):
        poker.check_point(m)


# --- shuffles and their audit ---------------------------------------------------------


def counter_rng(label: bytes):
    return DeterministicStream(bytes(32), label).below


def test_shuffle_layer_encrypts_and_permutes():
    k = fixed_scalar("shuffle")
    deck = list(card_table(GAME, DECK))
    out = shuffle_layer(k, deck, counter_rng(b"s"))
    assert out == shuffle_layer(k, deck, counter_rng(b"s"))  # deterministic with a given rng
    assert sorted(out) == sorted(encrypt(k, p) for p in deck)
    assert out != [encrypt(k, p) for p in deck]
    check_layer(k, deck, out)
    assert shuffle_layer(k, []) == []


def test_shuffle_layer_permutations_look_uniform():
    deck = [card_point(GAME, "eel", n) for n in range(3)]
    k = fixed_scalar("uniform")
    enc = [encrypt(k, p) for p in deck]
    seen = Counter(tuple(enc.index(x) for x in shuffle_layer(k, deck)) for _ in range(240))
    assert len(seen) == 6 and min(seen.values()) > 10


def test_shuffle_layer_checks_its_rng():
    deck = [card_point(GAME, "eel", n) for n in range(3)]
    with pytest.raises(ValueError, match="rng"):
        shuffle_layer(fixed_scalar("x"), deck, lambda n: n)


def test_check_layer_names_a_duplicated_card():
    k = fixed_scalar("dup")
    deck = list(card_table(GAME, DECK))
    out = shuffle_layer(k, deck)
    out[17] = out[3]
    with pytest.raises(CryptoError, match=r"position 17 repeats position 3 \(a duplicated card\).*1 card it received went missing"):
        check_layer(k, deck, out)


def test_check_layer_names_a_substituted_card():
    k = fixed_scalar("sub")
    deck = list(card_table(GAME, DECK))
    out = shuffle_layer(k, deck)
    out[5] = encrypt(k, card_point(GAME, "ace", 99))  # a card that is not in the deck
    with pytest.raises(CryptoError, match=r"position 5 is not the encryption of any card it received \(a substituted card\)"):
        check_layer(k, deck, out)


def test_check_layer_other_failures():
    k = fixed_scalar("other")
    deck = list(card_table(GAME, DECK))
    out = shuffle_layer(k, deck)
    with pytest.raises(CryptoError, match="has 37 cards, it received 38"):
        check_layer(k, deck, out[:-1])
    with pytest.raises(CryptoError, match="substituted"):  # made with another scalar than published
        check_layer(fixed_scalar("not it"), deck, out)
    with pytest.raises(CryptoError, match="substituted"):  # garbage bytes
        check_layer(k, deck, [*out[:-1], b"\0" * 32])
    # a deck that already holds a duplicate: the layer may keep it, not add another
    dup_deck = [*deck[:-1], deck[0]]
    check_layer(k, dup_deck, shuffle_layer(k, dup_deck))


# --- proofs ---------------------------------------------------------------------------


def statement():
    k = fixed_scalar("dleq")
    b2 = card_point(GAME, "fox", 1)
    return k, BASE, public_key(k), b2, encrypt(k, b2)


def test_dleq_accepts_an_honest_proof():
    k, b1, p1, b2, p2 = statement()
    proof = prove_dleq(k, b1, p1, b2, p2, b"ctx")
    assert len(proof) == 64
    verify_dleq(proof, b1, p1, b2, p2, b"ctx")
    assert prove_dleq(k, b1, p1, b2, p2, b"ctx") != proof  # the nonce is randomised


def test_dleq_refuses_to_prove_a_false_statement():
    k, b1, p1, b2, p2 = statement()
    with pytest.raises(CryptoError, match="false statement"):
        prove_dleq(k, b1, p1, b2, encrypt(k, p2), b"ctx")


def test_dleq_rejects_swapped_bases_and_wrong_context():
    k, b1, p1, b2, p2 = statement()
    proof = prove_dleq(k, b1, p1, b2, p2, b"ctx")
    for args in [(b2, p1, b1, p2, b"ctx"), (b1, p2, b2, p1, b"ctx"), (b2, p2, b1, p1, b"ctx"),
                 (b1, p1, b2, p2, b"ctx2"), (b1, p1, b2, p2, b"")]:
        with pytest.raises(ProofError):
            verify_dleq(proof, *args)


def test_dleq_rejects_a_proof_made_with_another_scalar():
    k, b1, p1, b2, p2 = statement()
    wrong = fixed_scalar("wrong")
    forged = poker._prove(wrong, b1, p1, b2, encrypt(wrong, b2), b"ctx")
    with pytest.raises(ProofError):
        verify_dleq(forged, b1, p1, b2, encrypt(wrong, b2), b"ctx")


@settings(max_examples=40, deadline=None)
@given(i=st.integers(0, 63), bit=st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128]))
def test_dleq_rejects_any_flipped_bit(i, bit):
    k, b1, p1, b2, p2 = statement()
    proof = prove_dleq(k, b1, p1, b2, p2, b"ctx")
    with pytest.raises(ProofError):
        verify_dleq(flip(proof, i, bit), b1, p1, b2, p2, b"ctx")


def test_dleq_rejects_malformed_proofs():
    k, b1, p1, b2, p2 = statement()
    proof = prove_dleq(k, b1, p1, b2, p2, b"ctx")
    for bad in [proof[:32] + b"\xff" * 32, b"\xff" * 32 + proof[32:], bytes(32) + proof[32:], proof[:32] + bytes(32)]:
        with pytest.raises(ProofError, match="not a pair of non-zero reduced scalars"):
            verify_dleq(bad, b1, p1, b2, p2, b"ctx")
    with pytest.raises(FormatError, match="64 bytes"):
        verify_dleq(proof[:63], b1, p1, b2, p2, b"ctx")


@settings(max_examples=15, deadline=None)
@given(k=scalars, context=st.binary(max_size=80), copy=st.integers(0, 9))
def test_partial_decryption_round_trip(k, context, copy):
    point = encrypt(k, card_point(GAME, "dove", copy))
    key = public_key(k)
    result, proof = partial_decrypt(k, key, point, context)
    assert result == card_point(GAME, "dove", copy)
    check_partial(key, point, result, proof, context)


def partial_case():
    k = fixed_scalar("seat b")
    key = public_key(k)
    deck = shuffle_layer(k, list(card_table(GAME, DECK)), counter_rng(b"p"))
    result, proof = partial_decrypt(k, key, deck[0], b"slot 0")
    return k, key, deck, result, proof


def test_check_partial_rejects_every_kind_of_cheat():
    k, key, deck, result, proof = partial_case()
    check_partial(key, deck[0], result, proof, b"slot 0")
    other = fixed_scalar("seat c")
    cheats = {
        "wrong k": (key, deck[0], decrypt(other, deck[0]), poker._prove(other, BASE, key, decrypt(other, deck[0]), deck[0], b"slot 0"), b"slot 0"),
        "another card as result": (key, deck[0], decrypt(k, deck[1]), proof, b"slot 0"),
        "proof of another slot": (key, deck[1], decrypt(k, deck[1]), proof, b"slot 0"),
        "wrong key": (public_key(other), deck[0], result, proof, b"slot 0"),
        "wrong context": (key, deck[0], result, proof, b"slot 1"),
        "tampered c": (key, deck[0], result, flip(proof, 0), b"slot 0"),
        "tampered s": (key, deck[0], result, flip(proof, 40), b"slot 0"),
        "result and point swapped": (key, result, deck[0], proof, b"slot 0"),
    }
    for name, args in cheats.items():
        with pytest.raises(ProofError):
            check_partial(*args)


def test_partial_decrypt_checks_the_key():
    k, key, deck, _, _ = partial_case()
    with pytest.raises(CryptoError, match="does not belong to the published key"):
        partial_decrypt(fixed_scalar("seat c"), key, deck[0], b"slot 0")


# --- whole deals ----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [["alice", "bob"], ["alice", "bob", "carol"]])
def test_shuffle_deal_reveal_round_trip(seats):
    table = card_table(GAME, DECK)
    deck = list(table)
    scalar = {s: new_scalar() for s in seats}
    key = {s: public_key(scalar[s]) for s in seats}
    layers = [deck]
    for s in seats:  # every seat re-encrypts and shuffles in turn
        layers.append(shuffle_layer(scalar[s], layers[-1]))
    final = layers[-1]
    assert not set(final) & set(deck)

    hands: dict[str, list[tuple[str, int]]] = {s: [] for s in seats}
    for slot, point in enumerate(final):
        owner = seats[slot % len(seats)]
        context = f"{GAME} shuffle 1 slot {slot}".encode()
        for s in seats:  # every other seat publishes its partial decryption with a proof
            if s == owner:
                continue
            result, proof = partial_decrypt(scalar[s], key[s], point, context)
            check_partial(key[s], point, result, proof, context)
            point = result
        with pytest.raises(CryptoError):  # still under the owner's layer: no card for anyone else
            identify(point, table)
        hands[owner].append(identify(decrypt(scalar[owner], point), table))
        if slot % 7 == 0:  # the owner reveals it: its last layer comes off in public, with a proof
            reveal = context + b" reveal"
            shown, proof = partial_decrypt(scalar[owner], key[owner], point, reveal)
            check_partial(key[owner], point, shown, proof, reveal)
            assert identify(shown, table) == hands[owner][-1]

    dealt = [c for hand in hands.values() for c in hand]
    assert sorted(dealt) == sorted(table.values())  # every copy once
    assert [len(h) for h in hands.values()] == [len(range(i, 38, len(seats))) for i in range(len(seats))]

    for s, before, after in zip(seats, layers, layers[1:]):  # the audit, with every scalar published
        check_key(scalar[s], key[s])
        check_layer(scalar[s], before, after)


# --- vectors ---------------------------------------------------------------------------


EXPECT: dict[str, type[Exception] | None] = {
    "ok": None,
    "bad proof": ProofError,
    "not a valid point": FormatError,
    "bad layer": CryptoError,
    "commitment mismatch": CommitmentError,
}


def run(v: dict) -> None:
    """Do what the vector describes; raise whatever pbem raises."""
    match v["vector"]:
        case "cards":
            table = card_table(v["game"], v["cards"])
            assert [b64e(p) for p in table] == v["points"]
        case "encrypt":
            k, point = b64d(v["k"]), b64d(v["point"])
            assert b64e(public_key(k)) == v["key"]
            assert b64e(encrypt(k, point)) == v["encrypted"]
            assert decrypt(k, b64d(v["encrypted"])) == point
        case "layer":
            k = b64d(v["k"])
            before, after = [b64d(p) for p in v["before"]], [b64d(p) for p in v["after"]]
            check_key(k, b64d(v["key"]))
            check_layer(k, before, after)
        case "dleq":
            verify_dleq(b64d(v["proof"]), *(b64d(v[n]) for n in ("base1", "pub1", "base2", "pub2")), v["context"].encode())
        case "partial":
            check_partial(*(b64d(v[n]) for n in ("key", "point", "result", "proof")), v["context"].encode())
            if "card" in v:
                assert identify(b64d(v["result"]), card_table(v["game"], v["cards"])) == tuple(v["card"])
        case "beacon":
            seed, length = b64d(v["seed"]), v["length"]
            assert b64e(anchor(seed, length)) == v["anchor"]
            previous = b64d(v["anchor"])
            for i, text in enumerate(v["links"], 1):
                assert link(seed, length, i) == b64d(text)
                check_link(previous, b64d(text))
                previous = b64d(text)
            links = {seat: b64d(x) for seat, x in v["chance"]["links"].items()}
            assert b64e(chance_key(links, v["chance"]["game"], v["chance"]["seq"])) == v["chance"]["key"]
        case "beacon-link":
            check_link(b64d(v["previous"]), b64d(v["revealed"]))
        case other:
            raise ValueError(f"unknown vector kind {other!r}")


def vector_files() -> list[Path]:
    return sorted(VECTORS.glob("*.txt"))


def test_vectors_exist():
    kinds = {parse(p.read_text(encoding="utf-8"))[1]["vector"] for p in vector_files()}
    assert {"cards", "encrypt", "layer", "dleq", "partial", "beacon"} <= kinds
    assert {parse(p.read_text(encoding="utf-8"))[0]["expect"] for p in vector_files()} == set(EXPECT)


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.stem)
def test_vector(path: Path):
    headers, v = parse(path.read_text(encoding="utf-8"))
    expected = EXPECT[headers["expect"]]
    if expected is None:
        run(v)
    else:
        with pytest.raises(expected) as exc:
            run(v)
        if expected is CryptoError:  # a bad layer is neither a format nor a proof problem
            assert type(exc.value) is CryptoError


# --- the generator (run once; its output is committed) ----------------------------------


def _write(name: str, expect: str, comment: str, obj: dict) -> None:
    write(VECTORS, name, expect, comment, obj)


def generate() -> None:
    VECTORS.mkdir(parents=True, exist_ok=True)
    game = "g-vector-0001"
    cards = ["ace", "bell", "ace", "crown"]
    table = card_table(game, cards)
    points = list(table)
    _write("cards-ok", "ok", "card points of a small multiset (copies numbered per name from 0)", {
        "vector": "cards", "game": game, "cards": cards, "points": [b64e(p) for p in points],
    })
    ka, kb = fixed_scalar("vector alice"), fixed_scalar("vector bob")
    _write("encrypt-ok", "ok", "public key, one layer and its removal, with a fixed scalar", {
        "vector": "encrypt", "k": b64e(ka), "key": b64e(public_key(ka)), "point": b64e(points[0]),
        "encrypted": b64e(encrypt(ka, points[0])),
    })
    _write("encrypt-small-order", "not a valid point", "a point of order 8 is refused", {
        "vector": "encrypt", "k": b64e(ka), "key": b64e(public_key(ka)), "point": b64e(ORDER_8), "encrypted": "",
    })
    _write("encrypt-mixed-order", "not a valid point", "a card point plus a point of order 8 is refused", {
        "vector": "encrypt", "k": b64e(ka), "key": b64e(public_key(ka)), "point": b64e(mixed_order(points[0])),
        "encrypted": "",
    })
    layer_a = shuffle_layer(ka, points, DeterministicStream(bytes(32), b"vector a").below)
    layer_b = shuffle_layer(kb, layer_a, DeterministicStream(bytes(32), b"vector b").below)
    _write("layer-ok", "ok", "alice's shuffle layer of the four cards, audited with her scalar", {
        "vector": "layer", "k": b64e(ka), "key": b64e(public_key(ka)),
        "before": [b64e(p) for p in points], "after": [b64e(p) for p in layer_a],
    })
    dup = [layer_a[0], layer_a[1], layer_a[2], layer_a[1]]
    _write("layer-duplicated", "bad layer", "the layer repeats one card in place of another", {
        "vector": "layer", "k": b64e(ka), "key": b64e(public_key(ka)),
        "before": [b64e(p) for p in points], "after": [b64e(p) for p in dup],
    })
    sub = [layer_a[0], layer_a[1], encrypt(ka, card_point(game, "ace", 2)), layer_a[3]]
    _write("layer-substituted", "bad layer", "the layer holds a third ace that was never in the deck", {
        "vector": "layer", "k": b64e(ka), "key": b64e(public_key(ka)),
        "before": [b64e(p) for p in points], "after": [b64e(p) for p in sub],
    })

    b2 = points[1]
    proof = prove_dleq(kb, BASE, public_key(kb), b2, encrypt(kb, b2), b"vector dleq")
    dleq = {"vector": "dleq", "base1": b64e(BASE), "pub1": b64e(public_key(kb)), "base2": b64e(b2),
            "pub2": b64e(encrypt(kb, b2)), "context": "vector dleq", "proof": b64e(proof)}
    _write("dleq-ok", "ok", "a Chaum-Pedersen proof that log_G(pub1) = log_base2(pub2)", dleq)
    _write("dleq-swapped-bases", "bad proof", "the same proof with the two bases swapped", {
        **dleq, "base1": dleq["base2"], "base2": dleq["base1"],
    })
    _write("dleq-tampered-c", "bad proof", "the first challenge bit flipped", {**dleq, "proof": b64e(flip(proof, 0))})
    _write("dleq-small-order-base", "not a valid point", "the second base is a point of order 8", {
        **dleq, "base2": b64e(ORDER_8),
    })

    # bob deals slot 0 of the two-layer deck to alice: he removes his layer in public
    context = f"{game} shuffle 1 slot 0".encode()
    result, proof = partial_decrypt(kb, public_key(kb), layer_b[0], context)
    partial = {"vector": "partial", "key": b64e(public_key(kb)), "point": b64e(layer_b[0]), "result": b64e(result),
               "proof": b64e(proof), "context": context.decode()}
    _write("partial-ok", "ok", "bob's partial decryption of slot 0 for alice", partial)
    _write("partial-wrong-context", "bad proof", "the same answer offered for slot 1", {
        **partial, "context": f"{game} shuffle 1 slot 1"})
    _write("partial-other-card", "bad proof", "the proof of slot 0 with the result of slot 1", {
        **partial, "result": b64e(decrypt(kb, layer_b[1]))})
    _write("partial-tampered-s", "bad proof", "a response bit flipped", {**partial, "proof": b64e(flip(proof, 33))})
    _write("partial-identity", "not a valid point", "the identity offered as the result", {
        **partial, "result": b64e(SMALL_ORDER[0])})
    shown, proof = partial_decrypt(ka, public_key(ka), result, context + b" reveal")
    _write("partial-reveal-ok", "ok", "alice then reveals the card: her layer off in public, the card named", {
        "vector": "partial", "key": b64e(public_key(ka)), "point": b64e(result), "result": b64e(shown),
        "proof": b64e(proof), "context": (context + b" reveal").decode(), "game": game, "cards": cards,
        "card": list(identify(shown, table)),
    })

    seed = hashlib.sha256(b"pbem test beacon seed").digest()
    length = 5
    links = [link(seed, length, i) for i in range(1, length + 1)]
    other = anchor(hashlib.sha256(b"pbem test beacon other").digest(), 9)
    chance = {"game": game, "seq": 3, "links": {"alice": b64e(links[2]), "bob": b64e(other)}}
    _write("beacon-ok", "ok", "a chain of 5 links revealed backwards, then a chance key", {
        "vector": "beacon", "seed": b64e(seed), "length": length, "anchor": b64e(anchor(seed, length)),
        "links": [b64e(x) for x in links],
        "chance": {**chance, "key": b64e(chance_key({"alice": links[2], "bob": other}, game, 3))},
    })
    _write("beacon-skipped-link", "commitment mismatch", "link 2 offered right after the anchor", {
        "vector": "beacon-link", "previous": b64e(anchor(seed, length)), "revealed": b64e(links[1]),
    })


if __name__ == "__main__":
    generate()
    sys.exit(0)


def test_a_remembered_partial_does_not_vouch_for_another():
    """check_partial remembers statements that verified; a different one
    (even built from the same bytes split differently) is checked afresh."""
    from pbem.crypto import poker as pk
    from pbem.errors import ProofError

    k = pk.new_scalar()
    key = pk.public_key(k)
    point = pk.card_point("g", "Mole", 0)
    result, proof = pk.partial_decrypt(k, key, point, b"ctx")
    pk.check_partial(key, point, result, proof, b"ctx")
    pk.check_partial(key, point, result, proof, b"ctx")  # remembered
    with pytest.raises(ProofError):
        pk.check_partial(key, point, result, proof, b"ctx2")
    other = pk.card_point("g", "Mole", 1)
    with pytest.raises((ProofError, FormatError)):
        pk.check_partial(key, point, other, proof, b"ctx")
