"""A verifiable random function: chance its holder draws and everyone checks at once.

ECVRF-EDWARDS25519-SHA512-TAI of RFC 9381 ("Verifiable Random Functions
(VRFs)", Goldberg, Reyzin, Papadopoulos and Včelák, IRTF CFRG, August 2023),
section 5 with the suite of section 5.5 (suite_string 0x03): byte for byte
that construction, checked against the RFC's own examples (appendix B.3,
`tests/crypto/test_crypto_vrf.py`). The holder of a secret key `sk` turns an
input `alpha` into an output `beta` and a proof `pi`; anyone with the public
key checks `pi` and gets the same `beta`, and for one key and one input there
is exactly one output a proof can show (the RFC's "full uniqueness"), which
nobody without `sk` can predict. A referee uses it for public chance
(`pbem.protocol.referee_chance`): it cannot pick a die, only compute the one
its committed key gives.

How it maps to libsodium (through PyNaCl's `nacl.bindings`, as
`pbem.crypto.poker` does; nothing here adds, multiplies or hashes to a curve
by hand):

* Keys are RFC 8032's (the RFC's section 5.5): ``h = SHA-512(sk)``, the
  secret scalar ``x`` is ``h[0:32]`` clamped, ``Y = x·B`` (libsodium's
  clamping ``crypto_scalarmult_ed25519_base``: Ed25519's own public key).
* The hash to the curve is the suite's try-and-increment (RFC section
  5.4.1.1): SHA-512 of the key and `alpha` with a counter, its first 32
  bytes decoded as a point (RFC 8032 section 5.1.3: a canonical `y`, on the
  curve, no negative zero), times the cofactor 8. The canonical-`y` and
  zero-`x` tests are comparisons of integers; whether the bytes are on the
  curve, and the three doublings, are libsodium's ``crypto_core_ed25519_add``
  (which takes any point of the curve, not only the subgroup's). The loop's
  time depends on `alpha` only, which is public wherever pbem uses it.
* The nonce is the RFC 8032 one (section 5.4.2.2): a hash of the second half
  of ``h`` and the hashed point, so proving is deterministic and needs no
  randomness (one input, one proof).
* The proof is a Chaum-Pedersen proof (as the partial decryptions of
  `pbem.crypto.poker`) that ``log_B(Y) = log_H(Gamma)`` with the RFC's
  challenge (section 5.4.3: 16 bytes of SHA-512 over the suite, Y, H, Gamma,
  U, V): ``pi = Gamma || c || s`` (80 bytes), and ``beta = SHA-512(0x03 ||
  0x03 || 8·Gamma || 0x00)`` (section 5.2).

Stricter than the RFC, refusing only what an honest prover never makes: the
public key and `Gamma` must be points of the prime-order subgroup
(libsodium's ``is_valid_point``: canonical, on the curve, not of small or
mixed order), where the RFC's verifier takes any point of the curve that is
not of small order. An honest `Gamma` is ``x·H`` with `H` in the subgroup, so
it always is; refusing the rest makes the proof itself unique, not only its
output (a `Gamma` with a small-order part added would give the same output
under another proof about one time in eight). `s` must be below the group
order, as the RFC says.

Why not ristretto255: PyNaCl 1.6 binds none of libsodium's ristretto255
functions, and the rule of this package is that nothing reaches past its
bindings; edwards25519 with the RFC's own suite needs nothing they lack.
"""

from __future__ import annotations

import hashlib
import hmac

from nacl import bindings as _na
from nacl import exceptions as _nacl_exc

from pbem.errors import CryptoError, FormatError, ProofError

__all__ = ["SECRET_LEN", "KEY_LEN", "PROOF_LEN", "OUTPUT_LEN", "public_key", "check_key", "prove", "evaluate",
           "output", "verify"]

SECRET_LEN = 32
KEY_LEN = 32
PROOF_LEN = 80
OUTPUT_LEN = 64

_SUITE = b"\x03"  # ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381, section 5.5)
_C_LEN = 16
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_IDENTITY = b"\x01" + bytes(31)
_EIGHT = b"\x08" + bytes(31)


def _expand(sk: bytes) -> tuple[bytes, bytes]:
    """RFC 8032 section 5.1.5: the secret scalar's 32 bytes (unclamped:
    libsodium's clamping multiplications clamp them) and the nonce prefix."""
    if not isinstance(sk, (bytes, bytearray)) or len(sk) != SECRET_LEN:
        raise FormatError(f"a VRF secret key is {SECRET_LEN} bytes")
    h = hashlib.sha512(bytes(sk)).digest()
    return h[:32], h[32:]


def _scalar(half: bytes) -> bytes:
    """The clamped secret scalar x reduced modulo L, for ``s = k + c·x``."""
    x = bytearray(half)
    x[0] &= 248
    x[31] &= 127
    x[31] |= 64
    return bytes(_na.crypto_core_ed25519_scalar_reduce(bytes(x) + bytes(32)))


def public_key(sk: bytes) -> bytes:
    """``Y = x·B``: the key a holder publishes (Ed25519's public key of `sk`)."""
    half, _ = _expand(sk)
    return bytes(_na.crypto_scalarmult_ed25519_base(half))


def _decodes(s: bytes) -> bool:
    """RFC 8032 section 5.1.3's decoding succeeds: `y` is canonical, the
    point is on the curve, and a zero `x` has no sign bit."""
    y = int.from_bytes(s, "little") & ((1 << 255) - 1)
    if y >= _P:
        return False
    if y in (1, _P - 1) and s[31] & 0x80:  # x = 0 has one encoding only
        return False
    try:
        _na.crypto_core_ed25519_add(s, _IDENTITY)  # refuses bytes that are no point of the curve
    except _nacl_exc.RuntimeError:
        return False
    return True


def _double(p: bytes) -> bytes:
    return bytes(_na.crypto_core_ed25519_add(p, p))


def _hash_to_curve(key: bytes, alpha: bytes) -> bytes:
    """RFC 9381 section 5.4.1.1 (try and increment), cofactor cleared."""
    for ctr in range(256):
        digest = hashlib.sha512(_SUITE + b"\x01" + key + alpha + bytes([ctr]) + b"\x00").digest()
        candidate = digest[:32]
        if not _decodes(candidate):
            continue
        point = _double(_double(_double(candidate)))
        if point != _IDENTITY:
            return point
    raise CryptoError("no point found for this input (probability about 2**-256)")  # pragma: no cover


def _challenge(key: bytes, h: bytes, gamma: bytes, u: bytes, v: bytes) -> bytes:
    """RFC 9381 section 5.4.3: 16 bytes."""
    return hashlib.sha512(_SUITE + b"\x02" + key + h + gamma + u + v + b"\x00").digest()[:_C_LEN]


def _proof_to_hash(gamma: bytes) -> bytes:
    """RFC 9381 section 5.2 (on a `Gamma` already checked)."""
    cleared = bytes(_na.crypto_scalarmult_ed25519_noclamp(_EIGHT, gamma))
    return hashlib.sha512(_SUITE + b"\x03" + cleared + b"\x00").digest()


def prove(sk: bytes, alpha: bytes) -> bytes:
    """The 80-byte proof ``Gamma || c || s`` of the output for `alpha`
    (RFC 9381 section 5.1). Deterministic: one key and input, one proof."""
    half, prefix = _expand(sk)
    alpha = bytes(alpha)
    key = bytes(_na.crypto_scalarmult_ed25519_base(half))
    h = _hash_to_curve(key, alpha)
    gamma = bytes(_na.crypto_scalarmult_ed25519(half, h))
    k = bytes(_na.crypto_core_ed25519_scalar_reduce(hashlib.sha512(prefix + h).digest()))
    u = bytes(_na.crypto_scalarmult_ed25519_base_noclamp(k))
    v = bytes(_na.crypto_scalarmult_ed25519_noclamp(k, h))
    c = _challenge(key, h, gamma, u, v)
    cx = _na.crypto_core_ed25519_scalar_mul(c + bytes(32 - _C_LEN), _scalar(half))
    s = bytes(_na.crypto_core_ed25519_scalar_add(k, cx))
    return gamma + c + s


def evaluate(sk: bytes, alpha: bytes) -> tuple[bytes, bytes]:
    """The 64-byte output `beta` for `alpha` and its proof (what `verify` of
    the proof gives)."""
    proof = prove(sk, alpha)
    return _proof_to_hash(proof[:32]), proof


def output(sk: bytes, alpha: bytes) -> bytes:
    """The 64-byte output `beta` for `alpha`."""
    return evaluate(sk, alpha)[0]


def _check_point(point: bytes, what: str) -> bytes:
    if not isinstance(point, (bytes, bytearray)) or len(point) != KEY_LEN:
        raise FormatError(f"{what} is not a point: expected {KEY_LEN} bytes")
    point = bytes(point)
    if not _na.crypto_core_ed25519_is_valid_point(point):
        raise FormatError(f"{what} is not a valid point",
                          hint="not a canonical point of the prime-order subgroup of edwards25519")
    return point


def check_key(key: bytes) -> bytes:
    """`key` if it is a public key `verify` takes; FormatError otherwise."""
    return _check_point(key, "the VRF key")


def _times(k: bytes, point: bytes) -> bytes:
    """k·point for a checked subgroup point and a scalar below L (0 gives the identity)."""
    if k == bytes(32):
        return _IDENTITY
    if point == _BASE:
        return bytes(_na.crypto_scalarmult_ed25519_base_noclamp(k))
    return bytes(_na.crypto_scalarmult_ed25519_noclamp(k, point))


def verify(key: bytes, proof: bytes, alpha: bytes) -> bytes:
    """Check `proof` for `alpha` under the public `key` (RFC 9381 section
    5.3) and return the 64-byte output. FormatError for a key or proof that
    is not well formed (a wrong length, a point outside the prime-order
    subgroup, `s` not below the group order); ProofError when the proof
    does not verify."""
    key = check_key(key)
    if not isinstance(proof, (bytes, bytearray)) or len(proof) != PROOF_LEN:
        raise FormatError(f"a VRF proof is {PROOF_LEN} bytes")
    proof = bytes(proof)
    gamma = _check_point(proof[:32], "the VRF proof's Gamma")
    c, s = proof[32:32 + _C_LEN], proof[32 + _C_LEN:]
    if int.from_bytes(s, "little") >= _L:
        raise FormatError("the VRF proof's s is not reduced modulo the group order")
    c32 = c + bytes(32 - _C_LEN)
    h = _hash_to_curve(key, bytes(alpha))
    try:
        u = bytes(_na.crypto_core_ed25519_sub(_times(s, _BASE), _times(c32, key)))
        v = bytes(_na.crypto_core_ed25519_sub(_times(s, h), _times(c32, gamma)))
    except _nacl_exc.RuntimeError:  # pragma: no cover - excluded by the checks above
        raise ProofError("the VRF proof does not verify") from None
    if not hmac.compare_digest(_challenge(key, h, gamma, u, v), c):
        raise ProofError("the VRF proof does not verify: it is not this key's output for this input")
    return _proof_to_hash(gamma)


_BASE = bytes(_na.crypto_scalarmult_ed25519_base_noclamp(b"\x01" + bytes(31)))
