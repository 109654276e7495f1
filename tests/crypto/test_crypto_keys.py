"""Encoding, names, identities, signatures, identity files and secret key files."""

from __future__ import annotations

import base64
import re
import unicodedata

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.encoding import FORMAT, b64d, b64e, canonical, decode_file, sha256
from pbem.crypto.keys import (
    IDENTITY_DOMAIN, IdentityFile, PublicIdentity, SecretIdentity, check_name,
    identity_file, read_identity_file, read_secret_key_file, secret_key_file, valid_name,
)
from pbem.crypto.sign import check_domain, domain, sign, verify
from pbem.errors import FormatError, KeyStoreError, PassphraseError, SignatureError

FAST = 2**10  # cheap scrypt for tests; the default cost is tested once


def flip(data: bytes, i: int, bit: int = 1) -> bytes:
    return data[:i] + bytes([data[i] ^ bit]) + data[i + 1:]


def never_called() -> str:
    raise AssertionError("the passphrase callable must not be called")


@pytest.fixture(scope="module")
def alice() -> SecretIdentity:
    return SecretIdentity.generate("alice")


@pytest.fixture(scope="module")
def bob() -> SecretIdentity:
    return SecretIdentity.generate("bob")


# --- encoding ----------------------------------------------------------------


@given(st.binary(max_size=200))
def test_b64_round_trip(data: bytes) -> None:
    text = b64e(data)
    assert re.fullmatch(r"[A-Za-z0-9_-]*", text)
    assert b64d(text) == data
    assert b64d(text, len(data)) == data


@pytest.mark.parametrize("text", ["AA==", "AAA=", "A", "AB+/", "AB/C", "AA AA", "AA\n", "é", "AB"])
def test_b64d_rejects_bad_text(text: str) -> None:
    # "AB" decodes to one byte with non-zero trailing bits: a second spelling of "AA"
    with pytest.raises(FormatError):
        b64d(text)


def test_b64d_checks_length_and_type() -> None:
    assert b64d(b64e(bytes(32)), 32) == bytes(32)
    with pytest.raises(FormatError, match="expected 31 bytes"):
        b64d(b64e(bytes(32)), 31)
    with pytest.raises(FormatError):
        b64d(b"AAAA")  # type: ignore[arg-type]


def test_b64e_is_unpadded_urlsafe() -> None:
    assert b64e(b"\xfb\xff") == "-_8"
    assert b64e(b"") == ""


@given(st.dictionaries(st.text(max_size=5), st.integers(), max_size=6))
def test_canonical_ignores_insertion_order(d: dict) -> None:
    assert canonical(d) == canonical(dict(reversed(list(d.items()))))


def test_canonical_sorts_struct_fields() -> None:
    p = PublicIdentity(name="x", sign=b64e(bytes(32)), seal=b64e(bytes(32)))
    assert canonical(p).startswith(b'{"name":"x","seal":')


def test_sha256() -> None:
    assert sha256(b"abc").hex().startswith("ba7816bf")


class _Thing(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: str
    kind: str
    x: int


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "not a pbem thing file"),
        (b"[1]", "not a pbem thing file"),
        (b'{"kind":"thing","x":1}', "not a pbem file"),
        (b'{"format":"pbem/2","kind":"thing","x":1}', "unknown file format 'pbem/2'"),
        (b'{"format":"pbem/1","kind":"turn","x":1}', "'turn' file, not a 'thing' file"),
        (b'{"format":"pbem/1","kind":"thing","x":1,"x":2}', "not in the form"),
        (b'{"format":"pbem/1", "kind":"thing","x":1}', "not in the form"),
        (b'{"kind":"thing","format":"pbem/1","x":1}', "not in the form"),
        (b'{"format":"pbem/1","kind":"thing","x":1,"y":2}', "bad thing file"),
        (b'{"format":"pbem/1","kind":"thing","x":1.5}', "carry no floats"),
    ],
)
def test_decode_file_is_strict(data: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=re.escape(message)):
        decode_file(data, _Thing, "thing")


def test_decode_file_accepts_trailing_newline() -> None:
    for tail in (b"", b"\n", b"\r\n"):
        assert decode_file(b'{"format":"pbem/1","kind":"thing","x":1}' + tail, _Thing, "thing").x == 1


# --- names -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a", "alice", "bob-2", "0", "x_y", "a" * 32, "referee"])
def test_valid_names(name: str) -> None:
    assert valid_name(name)
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["", "Alice", "-a", "_a", "a" * 33, "a b", "a\n", "al.ice", "ä", "a/b", None, 3])
def test_invalid_names(name: object) -> None:
    assert not valid_name(name)
    with pytest.raises(KeyStoreError) as exc:
        check_name(name)
    assert exc.value.hint and "lowercase" in exc.value.hint


# --- identities and signatures -----------------------------------------------


def test_public_identity_keys(alice: SecretIdentity) -> None:
    pub = alice.public
    assert pub.name == "alice"
    assert len(pub.sign_key_bytes()) == 32
    assert len(pub.seal_key_bytes()) == 32
    assert pub.seal_key_bytes() == alice.x25519_private().public_key().public_bytes_raw()


def test_fingerprint_format(alice: SecretIdentity) -> None:
    fp = alice.public.fingerprint()
    assert re.fullmatch(r"[A-Z2-7]{4}( [A-Z2-7]{4}){7}", fp)
    digest = sha256(alice.public.sign_key_bytes() + alice.public.seal_key_bytes())
    assert base64.b32decode(fp.replace(" ", "")) == digest[:20]
    assert alice.fingerprint() == fp


def test_fingerprints_differ(alice: SecretIdentity, bob: SecretIdentity) -> None:
    assert alice.public.fingerprint() != bob.public.fingerprint()


def test_secret_repr_hides_keys(alice: SecretIdentity) -> None:
    text = repr(alice)
    assert "alice" in text
    assert b64e(alice.private_bytes()[:32]) not in text


def test_from_private_bytes_rebuilds(alice: SecretIdentity) -> None:
    raw = alice.private_bytes()
    again = SecretIdentity.from_private_bytes("alice", raw[:32], raw[32:])
    assert again.public == alice.public
    with pytest.raises(FormatError):
        SecretIdentity.from_private_bytes("alice", raw[:31], raw[32:])


def test_generate_checks_name() -> None:
    with pytest.raises(KeyStoreError):
        SecretIdentity.generate("Not Valid")


def test_public_identity_validates_when_decoded() -> None:
    good = {"name": "x", "sign": b64e(bytes(32)), "seal": b64e(bytes(32))}
    assert msgspec.json.decode(msgspec.json.encode(good), type=PublicIdentity).name == "x"
    for bad in (
        {**good, "sign": b64e(bytes(31))},
        {**good, "seal": b64e(bytes(33))},
        {**good, "name": "X"},
        {**good, "name": "x\n"},
        {**good, "extra": 1},
    ):
        with pytest.raises(msgspec.ValidationError):
            msgspec.json.decode(msgspec.json.encode(bad), type=PublicIdentity)


def test_domain() -> None:
    assert domain("turn") == b"pbem/1 turn\n"
    for bad in (b"turn", b"pbem/1 turn", b"pbem/1 \n", b"pbem/1 a\nb\n", b"pbem/2 turn\n", "pbem/1 turn\n"):
        with pytest.raises(ValueError):
            check_domain(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        domain("two\nlines")


@given(st.binary(max_size=300))
@settings(max_examples=30)
def test_sign_verify_round_trip(data: bytes) -> None:
    signer = _SIGNER
    sig = sign(signer, domain("turn"), data)
    verify(signer.public, domain("turn"), data, sig)
    assert len(b64d(sig)) == 64


_SIGNER = SecretIdentity.generate("signer")


def test_verify_rejects(alice: SecretIdentity, bob: SecretIdentity) -> None:
    d = domain("turn")
    sig = sign(alice, d, b"body")
    with pytest.raises(SignatureError, match="alice"):
        verify(alice.public, d, b"body!", sig)
    with pytest.raises(SignatureError, match="alice"):
        verify(alice.public, domain("genesis"), b"body", sig)
    with pytest.raises(SignatureError, match="bob"):
        verify(bob.public, d, b"body", sig)
    raw = bytearray(b64d(sig))
    raw[10] ^= 1
    with pytest.raises(SignatureError):
        verify(alice.public, d, b"body", b64e(bytes(raw)))
    with pytest.raises(FormatError):
        verify(alice.public, d, b"body", sig[:-2])
    with pytest.raises(ValueError):
        alice.sign(b"no domain", b"body")


# --- identity files ----------------------------------------------------------


def test_identity_file_round_trip(alice: SecretIdentity) -> None:
    data = identity_file(alice)
    assert data.startswith(b'{"format":"pbem/1","kind":"identity","by":"alice","body":{')
    assert data.endswith(b"}\n")
    assert read_identity_file(data) == alice.public
    assert identity_file(alice) == data  # Ed25519 is deterministic, the body canonical


def _spans(data: bytes, alice: SecretIdentity) -> tuple[range, range]:
    f = msgspec.json.decode(data, type=IdentityFile)
    body = bytes(f.body)
    start = data.index(body)
    sig_start = data.index(f.sig.encode())
    return range(start, start + len(body)), range(sig_start, sig_start + len(f.sig))


def test_identity_file_every_flipped_byte_is_rejected(alice: SecretIdentity) -> None:
    data = identity_file(alice)
    body, sig = _spans(data, alice)
    bad_signatures = 0
    for i in range(len(data)):
        with pytest.raises((FormatError, SignatureError)) as exc:
            read_identity_file(flip(data, i))
        if i not in body and i not in sig:
            assert exc.type is FormatError, (i, chr(data[i]), exc.value)
        bad_signatures += exc.type is SignatureError
    assert bad_signatures > 50  # tampering inside what is signed is caught by the signature


def test_identity_file_truncated(alice: SecretIdentity) -> None:
    data = identity_file(alice)
    for n in range(len(data) - 1):  # the last byte is the optional newline
        with pytest.raises(FormatError):
            read_identity_file(data[:n])


def _forge(body: bytes, by: str, signer: SecretIdentity) -> bytes:
    sig = signer.sign(IDENTITY_DOMAIN, body)
    return msgspec.json.encode(IdentityFile(FORMAT, "identity", by, msgspec.Raw(body), sig))


def test_identity_file_signed_by_another_key(alice: SecretIdentity, bob: SecretIdentity) -> None:
    # bob publishes alice's keys under his own signature: no proof of possession
    forged = _forge(canonical(alice.public), "alice", bob)
    with pytest.raises(SignatureError, match="alice"):
        read_identity_file(forged)
    # bob's keys under the name alice, signed by bob: a valid signature, a new name
    renamed = PublicIdentity(name="alice", sign=bob.public.sign, seal=bob.public.seal)
    with pytest.raises(FormatError, match="by 'bob'"):
        read_identity_file(_forge(canonical(renamed), "bob", bob))


def test_identity_file_body_must_be_canonical(alice: SecretIdentity) -> None:
    body = msgspec.json.encode(alice.public)  # declared field order, not sorted
    assert body != canonical(alice.public)
    with pytest.raises(FormatError, match="canonical"):
        read_identity_file(_forge(body, "alice", alice))
    spaced = canonical(alice.public).replace(b",", b", ")
    with pytest.raises(FormatError, match="canonical"):
        read_identity_file(_forge(spaced, "alice", alice))


def test_identity_file_seal_key_is_signed(alice: SecretIdentity, bob: SecretIdentity) -> None:
    # swapping in another sealing key (to read alice's mail) breaks the signature
    data = identity_file(alice)
    swapped = data.replace(alice.public.seal.encode(), bob.public.seal.encode())
    with pytest.raises(SignatureError):
        read_identity_file(swapped)


def test_identity_file_wrong_kind(alice: SecretIdentity) -> None:
    with pytest.raises(FormatError, match="'secret-key' file, not a 'identity' file"):
        read_identity_file(secret_key_file(alice, None))
    with pytest.raises(FormatError, match="unknown file format"):
        read_identity_file(identity_file(alice).replace(b"pbem/1", b"pbem/9", 1))


# --- secret key files ----------------------------------------------------------


def test_secret_key_file_with_passphrase(alice: SecretIdentity) -> None:
    data = secret_key_file(alice, "correct horse", scrypt_n=FAST)
    assert b'"protection":"scrypt"' in data
    assert b64e(alice.private_bytes()) not in data.decode()
    calls = []

    def ask() -> str:
        calls.append(1)
        return "correct horse"

    again = read_secret_key_file(data, ask)
    assert calls == [1]
    assert again.public == alice.public
    assert again.private_bytes() == alice.private_bytes()


def test_secret_key_file_default_cost(alice: SecretIdentity) -> None:
    data = secret_key_file(alice, "pw")
    f = msgspec.json.decode(data)
    assert f["scrypt"]["n"] == 2**15 and f["scrypt"]["r"] == 8 and f["scrypt"]["p"] == 1
    assert len(b64d(f["scrypt"]["salt"])) == 16
    assert len(b64d(f["nonce"])) == 12
    assert read_secret_key_file(data, lambda: "pw").public == alice.public


def test_secret_key_files_are_salted(alice: SecretIdentity) -> None:
    assert secret_key_file(alice, "pw", scrypt_n=FAST) != secret_key_file(alice, "pw", scrypt_n=FAST)


def test_secret_key_file_wrong_passphrase(alice: SecretIdentity) -> None:
    data = secret_key_file(alice, "correct horse", scrypt_n=FAST)
    for wrong in ("Correct horse", "", "correct horse "):
        with pytest.raises(PassphraseError, match="^wrong passphrase for key alice$"):
            read_secret_key_file(data, lambda: wrong)  # noqa: B023


def test_secret_key_file_without_passphrase(alice: SecretIdentity) -> None:
    data = secret_key_file(alice, None)
    assert b'"protection":"none"' in data and b"scrypt" not in data.split(b'"protection"')[1]
    assert read_secret_key_file(data, never_called).private_bytes() == alice.private_bytes()


def test_empty_passphrase_refused(alice: SecretIdentity) -> None:
    with pytest.raises(PassphraseError):
        secret_key_file(alice, "")


def test_passphrase_is_unicode_normalised(alice: SecretIdentity) -> None:
    composed = unicodedata.normalize("NFC", "crème brûlée")
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    data = secret_key_file(alice, composed, scrypt_n=FAST)
    assert read_secret_key_file(data, lambda: decomposed).public == alice.public


@given(st.text(min_size=1, max_size=40))
@settings(max_examples=15, deadline=None)
def test_secret_key_file_round_trip_any_passphrase(passphrase: str) -> None:
    data = secret_key_file(_SIGNER, passphrase, scrypt_n=FAST)
    assert read_secret_key_file(data, lambda: passphrase).private_bytes() == _SIGNER.private_bytes()


def test_encrypted_key_file_every_flipped_byte_is_rejected(alice: SecretIdentity) -> None:
    data = secret_key_file(alice, "pw", scrypt_n=FAST)
    for i in range(len(data) - 1):  # the trailing newline is not part of the object
        with pytest.raises((FormatError, PassphraseError)):
            read_secret_key_file(flip(data, i), lambda: "pw")


def test_plain_key_file_every_flipped_byte_is_rejected(alice: SecretIdentity) -> None:
    data = secret_key_file(alice, None)
    for i in range(len(data) - 1):
        with pytest.raises(FormatError):
            read_secret_key_file(flip(data, i), never_called)


def test_plain_key_file_with_other_private_keys(alice: SecretIdentity, bob: SecretIdentity) -> None:
    data = secret_key_file(alice, None).replace(
        b64e(alice.private_bytes()).encode(), b64e(bob.private_bytes()).encode()
    )
    with pytest.raises(FormatError, match="do not match"):
        read_secret_key_file(data, never_called)


def test_ciphertext_is_bound_to_the_name(alice: SecretIdentity) -> None:
    # alice's encrypted keys pasted into a file that claims another name
    raw = alice.private_bytes()
    mallory = SecretIdentity.from_private_bytes("mallory", raw[:32], raw[32:])
    a = msgspec.json.decode(secret_key_file(alice, "pw", scrypt_n=FAST))
    m = msgspec.json.decode(secret_key_file(mallory, "pw", scrypt_n=FAST))
    m.update(scrypt=a["scrypt"], nonce=a["nonce"], keys=a["keys"])
    with pytest.raises(PassphraseError):
        read_secret_key_file(msgspec.json.encode(m), lambda: "pw")


@pytest.mark.parametrize(
    "change",
    [
        {"protection": "none"},
        {"scrypt": None},
        {"nonce": None},
        {"name": "bob"},
    ],
)
def test_inconsistent_key_file(alice: SecretIdentity, change: dict) -> None:
    f = msgspec.json.decode(secret_key_file(alice, "pw", scrypt_n=FAST))
    f.update(change)
    f = {k: v for k, v in f.items() if v is not None}
    with pytest.raises(FormatError):
        read_secret_key_file(msgspec.json.encode(f), lambda: "pw")


@pytest.mark.parametrize("n, r, p", [(2**21, 8, 1), (1000, 8, 1), (2**9, 8, 1), (2**15, 0, 1), (2**15, 8, 0), (2**20, 32, 1)])
def test_scrypt_cost_is_bounded(alice: SecretIdentity, n: int, r: int, p: int) -> None:
    f = msgspec.json.decode(secret_key_file(alice, "pw", scrypt_n=FAST))
    f["scrypt"].update(n=n, r=r, p=p)
    with pytest.raises(FormatError):
        read_secret_key_file(msgspec.json.encode(f), never_called)
