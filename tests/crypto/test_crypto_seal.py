"""Sealed envelopes: readers open them, nobody else does, and they do not move."""

from __future__ import annotations

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.encoding import b64d, b64e
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.crypto.seal import Envelope, Stanza, open_envelope, seal, seal_ad
from pbem.errors import FormatError, NotForMe, SealError

ALICE = SecretIdentity.generate("alice")
BOB = SecretIdentity.generate("bob")
CAROL = SecretIdentity.generate("carol")
AD = seal_ad("game-1", 7, "hand:alice")

# u-coordinates of low-order points on Curve25519 (little-endian): X25519 with
# any of them gives the all-zero shared secret.
LOW_ORDER = [
    bytes(32),
    (1).to_bytes(32, "little"),
    bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
    ((1 << 255) - 19 - 1).to_bytes(32, "little"),
]


def flip(data: bytes, i: int) -> bytes:
    return data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]


def test_every_reader_opens() -> None:
    env = seal(b"the enforcer", [ALICE.public, BOB.public], AD)
    assert len(env.stanzas) == 2
    assert open_envelope(env, ALICE, AD) == b"the enforcer"
    assert open_envelope(env, BOB, AD) == b"the enforcer"


@given(st.binary(max_size=2000), st.integers(1, 3))
@settings(max_examples=25, deadline=None)
def test_round_trip(payload: bytes, readers: int) -> None:
    people = [ALICE, BOB, CAROL][:readers]
    env = seal(payload, [p.public for p in people], AD)
    wire = msgspec.json.encode(env)
    env = msgspec.json.decode(wire, type=Envelope)
    for p in people:
        assert open_envelope(env, p, AD) == payload


def test_third_party_is_not_a_reader() -> None:
    env = seal(b"x", [ALICE.public, BOB.public], AD)
    with pytest.raises(NotForMe, match="not sealed to carol"):
        open_envelope(env, CAROL, AD)


@pytest.mark.parametrize(
    "other",
    [seal_ad("game-2", 7, "hand:alice"), seal_ad("game-1", 8, "hand:alice"), seal_ad("game-1", 7, "hand:bob"), b""],
)
def test_moved_envelope_does_not_open(other: bytes) -> None:
    env = seal(b"x", [ALICE.public], AD)
    with pytest.raises(SealError, match="moved to another game, turn or zone"):
        open_envelope(env, ALICE, other)


def test_damaged_payload_is_not_reported_as_not_for_me() -> None:
    env = seal(b"some payload", [ALICE.public, BOB.public], AD)
    raw = bytearray(b64d(env.payload))
    raw[0] ^= 1
    damaged = Envelope(stanzas=env.stanzas, payload=b64e(bytes(raw)))
    with pytest.raises(SealError) as exc:
        open_envelope(damaged, BOB, AD)
    assert type(exc.value) is SealError
    assert "damaged" in str(exc.value)


def test_payload_swapped_between_envelopes() -> None:
    a = seal(b"one", [ALICE.public], AD)
    b = seal(b"two", [ALICE.public], AD)
    with pytest.raises(SealError):
        open_envelope(Envelope(stanzas=a.stanzas, payload=b.payload), ALICE, AD)


def test_short_payload() -> None:
    env = seal(b"", [ALICE.public], AD)
    assert open_envelope(env, ALICE, AD) == b""
    with pytest.raises(SealError):
        open_envelope(Envelope(stanzas=env.stanzas, payload=b64e(bytes(15))), ALICE, AD)


def test_every_flipped_byte_is_rejected() -> None:
    wire = msgspec.json.encode(seal(b"the saboteur", [ALICE.public], AD))
    for i in range(len(wire)):
        with pytest.raises((msgspec.DecodeError, FormatError, SealError)):
            open_envelope(msgspec.json.decode(flip(wire, i), type=Envelope), ALICE, AD)


def test_another_readers_damaged_stanza_does_not_matter() -> None:
    # Stanzas are independent (no header MAC as in age): the envelope travels
    # inside a signed file, so tampering by anyone but the writer is caught by
    # the signature, and a MAC could not stop the writer from sealing garbage.
    env = seal(b"x", [BOB.public, ALICE.public], AD)
    raw = bytearray(b64d(env.stanzas[0].wrapped))
    raw[0] ^= 1
    broken = Stanza(ephemeral=env.stanzas[0].ephemeral, wrapped=b64e(bytes(raw)))
    env = Envelope(stanzas=[broken, env.stanzas[1]], payload=env.payload)
    assert open_envelope(env, ALICE, AD) == b"x"
    with pytest.raises(NotForMe):
        open_envelope(env, BOB, AD)


def test_envelope_does_not_name_its_readers() -> None:
    wire = msgspec.json.encode(seal(b"x", [ALICE.public, BOB.public], AD))
    for p in (ALICE, BOB):
        assert p.public.seal.encode() not in wire
        assert p.name.encode() not in wire


def test_each_seal_is_fresh() -> None:
    a = seal(b"x", [ALICE.public], AD)
    b = seal(b"x", [ALICE.public], AD)
    assert a.payload != b.payload
    assert a.stanzas[0].ephemeral != b.stanzas[0].ephemeral


def test_no_readers() -> None:
    with pytest.raises(ValueError):
        seal(b"x", [], AD)
    with pytest.raises(NotForMe):
        open_envelope(Envelope(stanzas=[], payload=seal(b"x", [ALICE.public], AD).payload), ALICE, AD)


@pytest.mark.parametrize("point", LOW_ORDER)
def test_low_order_ephemeral_key_is_refused(point: bytes) -> None:
    env = seal(b"x", [BOB.public], AD)
    bad = Stanza(ephemeral=b64e(point), wrapped=env.stanzas[0].wrapped)
    with pytest.raises(SealError, match="low-order") as exc:
        open_envelope(Envelope(stanzas=[bad], payload=env.payload), ALICE, AD)
    assert type(exc.value) is SealError
    # a refused stanza does not stop a reader whose own stanza is fine
    assert open_envelope(Envelope(stanzas=[bad, *env.stanzas], payload=env.payload), BOB, AD) == b"x"


@pytest.mark.parametrize("point", LOW_ORDER)
def test_cannot_seal_to_a_low_order_key(point: bytes) -> None:
    bad = PublicIdentity(name="mallory", sign=ALICE.public.sign, seal=b64e(point))
    with pytest.raises(SealError, match="mallory"):
        seal(b"x", [bad], AD)


def test_malformed_stanza_lengths() -> None:
    env = seal(b"x", [ALICE.public], AD)
    st0 = env.stanzas[0]
    for bad in (
        Stanza(ephemeral=st0.ephemeral[:-2], wrapped=st0.wrapped),
        Stanza(ephemeral=st0.ephemeral, wrapped=st0.wrapped[:-3]),
    ):
        with pytest.raises(FormatError):
            open_envelope(Envelope(stanzas=[bad], payload=env.payload), ALICE, AD)


def test_envelope_rejects_unknown_fields() -> None:
    env = msgspec.to_builtins(seal(b"x", [ALICE.public], AD))
    env["recipients"] = ["alice"]
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(msgspec.json.encode(env), type=Envelope)


def test_wrong_private_key_same_name() -> None:
    # a key store holding a different "alice" cannot open alice's envelopes
    other = SecretIdentity("alice", ALICE._sign, X25519PrivateKey.generate())  # noqa: SLF001
    env = seal(b"x", [ALICE.public], AD)
    with pytest.raises(NotForMe):
        open_envelope(env, other, AD)


def test_seal_ad_is_canonical_and_distinct() -> None:
    assert seal_ad("g", 1, "z") == b'{"format":"pbem/1","game":"g","kind":"seal-ad","seq":1,"zone":"z"}'
    ads = {seal_ad(g, s, z) for g in ("g", "g2", 'g","zone":"x') for s in (0, 1, 10) for z in ("z", "", "1")}
    assert len(ads) == 27
    for bad in (-1, True, "1"):
        with pytest.raises((ValueError, TypeError)):
            seal_ad("g", bad, "z")  # type: ignore[arg-type]
