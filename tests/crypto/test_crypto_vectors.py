"""Known-answer vectors under tests/vectors/crypto/, as age does it.

Each vector is a text file: header lines (``expect: ...``, ``comment: ...``),
a blank line, then one JSON object whose ``"vector"`` field says what it
holds. Secret keys are stored inside the vectors, so the files are read, never
regenerated, and a change to any format or label makes a test fail here.

``generate`` wrote them once (``PYTHONPATH=.:tests python tests/crypto/test_crypto_vectors.py``);
it refuses to overwrite existing files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import pytest

from vectorfiles import parse, write
from pbem.crypto.commit import check_opening, commit
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.keys import (
    IDENTITY_DOMAIN, IdentityFile, SecretIdentity, identity_file, read_identity_file,
    read_secret_key_file, secret_key_file,
)
from pbem.crypto.seal import Envelope, open_envelope, seal, seal_ad
from pbem.crypto.sign import domain, sign, verify
from pbem.crypto.stream import DeterministicStream, derive
from pbem.errors import CommitmentError, FormatError, NotForMe, PassphraseError, SealError, SignatureError
import paths

VECTORS = paths.VECTORS / "crypto"

EXPECT: dict[str, type[Exception] | None] = {
    "ok": None,
    "bad signature": SignatureError,
    "not for me": NotForMe,
    "damaged": SealError,
    "wrong passphrase": PassphraseError,
    "commitment mismatch": CommitmentError,
    "bad format": FormatError,
}



def clamped(values) -> bytes:
    """A fixed X25519 private key in the clamped form pbem stores."""
    k = bytearray(values)
    k[0] &= 248
    k[31] = (k[31] & 127) | 64
    return bytes(k)

def run(v: dict) -> None:
    """Do what the vector describes; raise whatever pbem raises."""
    match v["vector"]:
        case "identity":
            public = read_identity_file(v["file"].encode())
            assert public.fingerprint() == v["fingerprint"]
        case "identity-from-keys":
            secret = SecretIdentity.from_private_bytes(v["name"], b64d(v["sign_seed"]), b64d(v["seal_private"]))
            assert identity_file(secret) == v["file"].encode()
            assert secret.public.fingerprint() == v["fingerprint"]
            assert read_identity_file(v["file"].encode()) == secret.public
        case "signature":
            public = read_identity_file(v["identity"].encode())
            verify(public, v["domain"].encode(), b64d(v["data"]), v["sig"])
        case "secret-key":
            secret = read_secret_key_file(v["file"].encode(), lambda: v["passphrase"])
            assert secret.fingerprint() == v["fingerprint"]
        case "envelope":
            secret = read_secret_key_file(v["secret_key"].encode(), lambda: "")
            ad = seal_ad(v["ad"]["game"], v["ad"]["seq"], v["ad"]["zone"])
            env = msgspec.convert(v["envelope"], type=Envelope)
            assert open_envelope(env, secret, ad) == b64d(v["payload"])
        case "commitment":
            assert len(b64d(v["salt"])) == 32
            check_opening(v["commitment"], b64d(v["salt"]), b64d(v["item"]))
        case "stream":
            key = b64d(v["key"])
            assert b64e(derive(key, v["label"].encode())) == v["derived"]
            s = DeterministicStream(key, v["label"].encode())
            assert [s.below(n) for n, _ in v["below"]] == [x for _, x in v["below"]]
            assert s.shuffle(range(len(v["shuffle"]))) == v["shuffle"]
        case other:
            raise ValueError(f"unknown vector kind {other!r}")


def vector_files() -> list[Path]:
    return sorted(VECTORS.glob("*.txt"))


def test_vectors_exist() -> None:
    names = {p.stem.split("-")[0] for p in vector_files()}
    assert {"identity", "signature", "secret", "envelope", "commitment", "stream"} <= names


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.stem)
def test_vector(path: Path) -> None:
    headers, v = parse(path.read_text(encoding="utf-8"))
    expected = EXPECT[headers["expect"]]
    if expected is None:
        run(v)
    else:
        with pytest.raises(expected) as exc:
            run(v)
        if expected is SealError:  # "damaged" must not be mistaken for "not for me"
            assert type(exc.value) is SealError


# --- the generator (run once; its output is committed) ----------------------------


def _write(name: str, expect: str, comment: str, obj: dict) -> None:
    write(VECTORS, name, expect, comment, obj)


def _flip_sig(sig: str) -> str:
    raw = bytearray(b64d(sig))
    raw[0] ^= 1
    return b64e(bytes(raw))


def generate() -> None:
    VECTORS.mkdir(parents=True, exist_ok=True)
    # fixed private keys so the identity vectors are known answers
    alice = SecretIdentity.from_private_bytes("alice", bytes(range(32)), clamped(range(32, 64)))
    bob = SecretIdentity.from_private_bytes("bob", bytes(range(64, 96)), clamped(range(96, 128)))
    alice_id = identity_file(alice).decode()
    bob_id = identity_file(bob).decode()

    _write("identity-from-keys", "ok", "identity file and fingerprint rebuilt from fixed private keys", {
        "vector": "identity-from-keys", "name": "alice",
        "sign_seed": b64e(bytes(range(32))), "seal_private": b64e(clamped(range(32, 64))),
        "file": alice_id, "fingerprint": alice.fingerprint(),
    })
    _write("identity-ok", "ok", "a self-signed identity file", {
        "vector": "identity", "file": bob_id, "fingerprint": bob.fingerprint(),
    })
    f = msgspec.json.decode(alice_id.encode(), type=IdentityFile)
    flipped = msgspec.json.encode(IdentityFile(f.format, f.kind, f.by, f.body, _flip_sig(f.sig))).decode() + "\n"
    _write("identity-flipped-signature", "bad signature", "first signature byte flipped", {
        "vector": "identity", "file": flipped, "fingerprint": alice.fingerprint(),
    })
    mallory_body = canonical(bob.public).replace(b'"bob"', b'"mal"')
    renamed = msgspec.json.encode(IdentityFile(f.format, f.kind, "mal", msgspec.Raw(mallory_body), bob.sign(IDENTITY_DOMAIN, canonical(bob.public)))).decode() + "\n"
    _write("identity-renamed", "bad signature", "bob's keys and signature under the name mal", {
        "vector": "identity", "file": renamed, "fingerprint": "",
    })
    _write("identity-truncated", "bad format", "the file cut short", {
        "vector": "identity", "file": alice_id[:100], "fingerprint": "",
    })

    data = "turn body".encode()
    sig = sign(alice, domain("turn"), data)
    _write("signature-ok", "ok", "a turn signature", {
        "vector": "signature", "identity": alice_id, "domain": "pbem/1 turn\n", "data": b64e(data), "sig": sig,
    })
    _write("signature-other-domain", "bad signature", "a turn signature checked as a genesis signature", {
        "vector": "signature", "identity": alice_id, "domain": "pbem/1 genesis\n", "data": b64e(data), "sig": sig,
    })
    _write("signature-other-signer", "bad signature", "alice's signature checked against bob", {
        "vector": "signature", "identity": bob_id, "domain": "pbem/1 turn\n", "data": b64e(data), "sig": sig,
    })

    enc = secret_key_file(alice, "correct horse battery staple", scrypt_n=2**10).decode()
    _write("secret-key-ok", "ok", "scrypt-protected key file (n=2**10 to keep the test fast)", {
        "vector": "secret-key", "file": enc, "passphrase": "correct horse battery staple",
        "fingerprint": alice.fingerprint(),
    })
    _write("secret-key-wrong-passphrase", "wrong passphrase", "the same file, a wrong passphrase", {
        "vector": "secret-key", "file": enc, "passphrase": "Correct horse battery staple",
        "fingerprint": alice.fingerprint(),
    })
    _write("secret-key-plain", "ok", "unprotected key file", {
        "vector": "secret-key", "file": secret_key_file(bob, None).decode(), "passphrase": "",
        "fingerprint": bob.fingerprint(),
    })

    place = {"game": "g-0001", "seq": 4, "zone": "hand:alice"}
    ad = seal_ad(place["game"], place["seq"], place["zone"])
    payload = canonical(["Enforcer", "Saboteur"])
    env = msgspec.to_builtins(seal(payload, [bob.public, alice.public], ad))
    alice_key = secret_key_file(alice, None).decode()
    carol = SecretIdentity.from_private_bytes("carol", bytes(range(128, 160)), clamped(range(160, 192)))
    _write("envelope-ok", "ok", "sealed to bob and alice, opened by alice", {
        "vector": "envelope", "secret_key": alice_key, "ad": place, "envelope": env, "payload": b64e(payload),
    })
    _write("envelope-third-party", "not for me", "carol is not a reader", {
        "vector": "envelope", "secret_key": secret_key_file(carol, None).decode(), "ad": place,
        "envelope": env, "payload": b64e(payload),
    })
    _write("envelope-moved", "not for me", "opened as if it were in turn 5: the stanzas are bound to the place too", {
        "vector": "envelope", "secret_key": alice_key, "ad": {**place, "seq": 5}, "envelope": env,
        "payload": b64e(payload),
    })
    raw = bytearray(b64d(env["payload"]))
    raw[3] ^= 0x80
    _write("envelope-damaged", "damaged", "a payload byte flipped: alice's stanza opens, the payload does not", {
        "vector": "envelope", "secret_key": alice_key, "ad": place,
        "envelope": {**env, "payload": b64e(bytes(raw))}, "payload": b64e(payload),
    })

    salt = bytes(range(200, 232))
    item = canonical({"ref": "a07", "card": "Enforcer"})
    _write("commitment-ok", "ok", "a card committed with a fixed salt", {
        "vector": "commitment", "commitment": commit(salt, item), "salt": b64e(salt), "item": b64e(item),
    })
    _write("commitment-mismatch", "commitment mismatch", "the same commitment opened with another card", {
        "vector": "commitment", "commitment": commit(salt, item), "salt": b64e(salt),
        "item": b64e(canonical({"ref": "a07", "card": "Saboteur"})),
    })

    key = bytes(range(32))
    s = DeterministicStream(key, b"deal 1")
    below = [[n, s.below(n)] for n in (1, 2, 6, 52, 1000, 2**32, 3 * 2**62, 2**64)]
    _write("stream-ok", "ok", "below() results then a shuffle of range(20), from one stream", {
        "vector": "stream", "key": b64e(key), "label": "deal 1", "derived": b64e(derive(key, b"deal 1")),
        "below": below, "shuffle": s.shuffle(range(20)),
    })


if __name__ == "__main__":
    generate()
    sys.exit(0)
