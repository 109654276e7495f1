"""The verifiable random function (pbem.crypto.vrf): RFC 9381's
ECVRF-EDWARDS25519-SHA512-TAI, against the RFC's own examples and the
known-answer vectors under tests/vectors/vrf/.

The vectors are text files like tests/vectors/poker/ (``expect: ...`` and
``comment: ...`` header lines, a blank line, one JSON object; bytes in
hex, as the RFC prints them). ``rfc9381-b3-*`` are the three examples of
the RFC's appendix B.3; the others were made once by ``generate``
(``PYTHONPATH=.:tests python tests/crypto/test_crypto_vrf.py``), which never
overwrites a file: each is a proof doctored one way, which `verify` must
refuse with the error it names.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pytest
from nacl import bindings as na

from vectorfiles import parse, write
from pbem.crypto import vrf
from pbem.errors import FormatError, ProofError
import paths

VECTORS = paths.VECTORS / "vrf"
ERRORS = {"ok": None, "format": FormatError, "proof": ProofError}
L = 2**252 + 27742317777372353535851937790883648493
P = 2**255 - 19
#: the point of order 2, (0, -1): added to a point, it gives a point of mixed order
ORDER_TWO = (P - 1).to_bytes(32, "little")


def _vectors() -> list[Path]:
    return sorted(VECTORS.glob("*.txt"))


@pytest.mark.parametrize("path", _vectors(), ids=lambda p: p.stem)
def test_vector(path):
    head, v = parse(path.read_text(encoding="utf-8"))
    key, proof, alpha = (bytes.fromhex(v[k]) for k in ("key", "proof", "alpha"))
    error = ERRORS[head["expect"]]
    if error is None:
        assert vrf.verify(key, proof, alpha).hex() == v["beta"]
        if "sk" in v:  # the RFC's examples: proving is deterministic, so it gives their very proof
            sk = bytes.fromhex(v["sk"])
            assert vrf.public_key(sk) == key
            assert vrf.prove(sk, alpha) == proof
            assert vrf.output(sk, alpha).hex() == v["beta"]
    else:
        with pytest.raises(error):
            vrf.verify(key, proof, alpha)


def test_the_vectors_are_all_there():
    names = {p.stem for p in _vectors()}
    assert {"rfc9381-b3-1", "rfc9381-b3-2", "rfc9381-b3-3", "wrong-key", "wrong-input", "doctored-c",
            "doctored-s", "gamma-not-canonical", "gamma-mixed-order", "s-not-reduced", "key-small-order",
            "key-not-canonical"} <= names


def test_completeness_over_random_keys_and_inputs():
    for n in range(40):
        sk = os.urandom(32)
        alpha = os.urandom(n)
        proof = vrf.prove(sk, alpha)
        assert len(proof) == vrf.PROOF_LEN
        assert vrf.verify(vrf.public_key(sk), proof, alpha) == vrf.output(sk, alpha)


def test_a_wrong_key_or_input_is_refused():
    sk, other = os.urandom(32), os.urandom(32)
    proof = vrf.prove(sk, b"game 1 draw 3")
    with pytest.raises(ProofError):
        vrf.verify(vrf.public_key(other), proof, b"game 1 draw 3")
    with pytest.raises(ProofError):
        vrf.verify(vrf.public_key(sk), proof, b"game 1 draw 4")


def test_every_doctored_bit_of_a_proof_is_refused():
    sk, alpha = os.urandom(32), b"a die"
    key, proof = vrf.public_key(sk), vrf.prove(sk, alpha)
    for i in range(vrf.PROOF_LEN * 8):
        doctored = bytearray(proof)
        doctored[i // 8] ^= 1 << (i % 8)
        with pytest.raises((FormatError, ProofError)):
            vrf.verify(key, bytes(doctored), alpha)


def test_one_key_and_input_have_one_output():
    """Uniqueness: proving again gives the same proof and output; another
    key's proof, the same proof under another input, or a proof whose Gamma
    is another point (the same one with a small-order part, which leaves
    the RFC's output unchanged) never verifies to another output."""
    sk, alpha = os.urandom(32), b"draw"
    key = vrf.public_key(sk)
    proof = vrf.prove(sk, alpha)
    assert vrf.prove(sk, alpha) == proof
    beta = vrf.verify(key, proof, alpha)
    assert beta != vrf.output(sk, b"draw 2") and beta != vrf.output(os.urandom(32), alpha)
    mixed = bytes(na.crypto_core_ed25519_add(proof[:32], ORDER_TWO)) + proof[32:]
    with pytest.raises(FormatError, match="Gamma is not a valid point"):
        vrf.verify(key, mixed, alpha)
    other_gamma = vrf.prove(os.urandom(32), alpha)[:32] + proof[32:]
    with pytest.raises(ProofError):
        vrf.verify(key, other_gamma, alpha)


def test_malformed_inputs_are_refused_with_a_clear_error():
    sk = os.urandom(32)
    key, proof = vrf.public_key(sk), vrf.prove(sk, b"")
    with pytest.raises(FormatError, match="80 bytes"):
        vrf.verify(key, proof[:79], b"")
    with pytest.raises(FormatError, match="32 bytes"):
        vrf.verify(key[:31], proof, b"")
    with pytest.raises(FormatError, match="secret key"):
        vrf.prove(sk[:31], b"")
    with pytest.raises(FormatError, match="not a valid point"):
        vrf.verify(bytes(na.crypto_core_ed25519_add(key, ORDER_TWO)), proof, b"")


# --- the vectors, written once -------------------------------------------------------------------------------------

#: RFC 9381, appendix B.3 (ECVRF-EDWARDS25519-SHA512-TAI): the keys are RFC 8032's section 7.1 examples
RFC = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "",
     "8657106690b5526245a92b003bb079ccd1a92130477671f6fc01ad16f26f723f26f8a57ccaed74ee1b190bed1f479d9727d2d0f9b005a6e45"
     "6a35d4fb0daab1268a1b0db10836d9826a528ca76567805",
     "90cf1df3b703cce59e2a35b925d411164068269d7b2d29f3301c03dd757876ff66b71dda49d2de59d03450451af026798e8f81cd2e333de5c"
     "df4f3e140fdd8ae"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "72",
     "f3141cd382dc42909d19ec5110469e4feae18300e94f304590abdced48aed5933bf0864a62558b3ed7f2fea45c92a465301b3bbf5e3e54ddf"
     "2d935be3b67926da3ef39226bbc355bdc9850112c8f4b02",
     "eb4440665d3891d668e7e0fcaf587f1b4bd7fbfe99d0eb2211ccec90496310eb5e33821bc613efb94db5e5b54c70a848a0bef4553a41befc5"
     "7663b56373a5031"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "af82",
     "9bc0f79119cc5604bf02d23b4caede71393cedfbb191434dd016d30177ccbf8096bb474e53895c362d8628ee9f9ea3c0e52c7a5c691b6c18c"
     "9979866568add7a2d41b00b05081ed0f58ee5e31b3a970e",
     "645427e5d00c62a23fb703732fa5d892940935942101e456ecca7bb217c61c452118fec1219202a0edcf038bb6373241578be7217ba85a268"
     "7f7a0310b2df19f"),
]


def generate() -> None:  # pragma: no cover - run by hand, once
    VECTORS.mkdir(parents=True, exist_ok=True)
    for n, (sk, alpha, proof, beta) in enumerate(RFC, 1):
        key = vrf.public_key(bytes.fromhex(sk)).hex()
        write(VECTORS, f"rfc9381-b3-{n}", "ok", f"RFC 9381 appendix B.3, example {15 + n}",
              {"sk": sk, "key": key, "alpha": alpha, "proof": proof, "beta": beta})
    sk = hashlib.sha256(b"pbem vrf vector key").digest()
    key, alpha = vrf.public_key(sk), b"pbem/1 referee chance vector"
    proof = vrf.prove(sk, alpha)

    def put(name: str, expect: str, comment: str, k: bytes = key, p: bytes = proof, a: bytes = alpha) -> None:
        write(VECTORS, name, expect, comment, {"key": k.hex(), "alpha": a.hex(), "proof": p.hex(), "beta": ""})

    put("wrong-key", "proof", "an honest proof checked under another key",
        k=vrf.public_key(hashlib.sha256(b"another key").digest()))
    put("wrong-input", "proof", "an honest proof checked for another input", a=alpha + b"!")
    put("doctored-c", "proof", "the challenge c with one bit flipped", p=proof[:32] + bytes([proof[32] ^ 1]) + proof[33:])
    s = int.from_bytes(proof[48:], "little")
    put("doctored-s", "proof", "s + 1", p=proof[:48] + ((s + 1) % L).to_bytes(32, "little"))
    put("s-not-reduced", "format", "s + L: the same scalar, not reduced", p=proof[:48] + (s + L).to_bytes(32, "little"))
    gamma_y = int.from_bytes(proof[:32], "little") & ((1 << 255) - 1)
    assert gamma_y + P >= 1 << 255  # a real Gamma has no second encoding: use the identity's
    put("gamma-not-canonical", "format", "Gamma spelled p + 1 (a non-canonical encoding of the identity)",
        p=(P + 1).to_bytes(32, "little") + proof[32:])
    put("gamma-mixed-order", "format", "Gamma plus the point of order 2: the RFC's output is the same, the proof is not",
        p=bytes(na.crypto_core_ed25519_add(proof[:32], ORDER_TWO)) + proof[32:])
    put("key-small-order", "format", "the key is the point of order 2", k=ORDER_TWO)
    put("key-not-canonical", "format", "the key's y plus p", k=(P + 1).to_bytes(32, "little"))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(generate())
