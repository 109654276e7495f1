"""Mental poker: a deck that no single seat can see, shuffled by every seat.

SRA-style commutative encryption in the prime-order subgroup of edwards25519,
with every group operation done by libsodium through PyNaCl's bindings
(nothing here computes on a curve or hashes by hand).

How a deck is used (the protocol layer does the bookkeeping)
------------------------------------------------------------
* Every copy of every card gets its own public point, `card_point`:
  libsodium's hash-to-curve (``from_uniform``) of a hash of the game id, the
  card name and the copy number. `card_table` builds the reverse map.
* Each seat in turn draws a fresh secret scalar k for this shuffle
  (`new_scalar`), publishes ``K = k·G`` (`public_key`), and passes the deck on
  through `shuffle_layer`: every point multiplied by k, then permuted.
  Encryption commutes (``a·(b·P) = b·(a·P)``), so the layers can be peeled in
  any order.
* To deal slot i to a seat, every *other* seat publishes its partial
  decryption of that slot with a Chaum-Pedersen proof (`partial_decrypt`),
  checked by everybody at once (`check_partial`); the receiving seat then
  strips its own layer in private (`decrypt`) and looks the point up
  (`identify`). To reveal a card, its holder publishes its own partial
  decryption with a proof too, so the reveal is checked at once.
* When the game ends every scalar is published: the audit checks each one
  against its published key (`check_key`) and each shuffle layer against the
  deck it received (`check_layer`).

Why this is secure enough
-------------------------
* Hiding rests on the decisional Diffie-Hellman assumption in the
  prime-order subgroup of edwards25519 (about 2**126 work to break): given
  ``P``, ``k·P`` and another card ``Q``, nobody can tell ``k·Q`` from a random
  point. So a card under at least one layer whose scalar one does not know
  looks like any other card.
* Every seat uses a fresh scalar per shuffle; a scalar published at an audit,
  or learnt by a seat about its own cards, never helps with another shuffle.
* Every point received from another party is checked with libsodium's
  ``is_valid_point`` (canonical encoding, on the curve, in the prime-order
  subgroup, not of small order) and the identity is refused. Without this a
  cheater could send a point of small order (which ``k·`` maps onto a handful
  of values, leaking ``k mod 8``) or a mixed-order point to learn bits of a
  scalar. Scalars must be canonical (below the group order L) and non-zero.
* Card points come from hash-to-curve, so nobody knows a discrete-log
  relation between two cards (such a relation would let one test a layer
  for a card). Each *copy* gets its own point, so two copies of a card are
  different ciphertexts and a reveal says which copy it was, and a duplicated
  ciphertext is always visible as a duplicate.
* Proofs are Fiat-Shamir Chaum-Pedersen (DLEQ) proofs: ``c = H(label ||
  context || statement || commitments)`` mod L, ``s = r + c·k`` mod L. They are
  sound (a false decryption would need a SHA-512 preimage or a discrete log)
  and zero-knowledge (they show nothing of k). The context binds a proof to
  its place in the game, so it cannot be replayed elsewhere. The nonce r is a
  hash of k, the statement, the context and 32 fresh random bytes: if the
  random generator fails (repeats or is predictable) r is still secret and
  differs between statements, so the proof does not leak k (a repeated r on
  two different challenges would).

Honest limits
-------------
* A layer made here alone is **not proven**: a seat could duplicate, drop or
  substitute a ciphertext, or shuffle with another scalar than the one whose
  key it published, and `check_layer` catches it only once the scalar is
  published. `pbem.crypto.shuffle` proves a layer when it is made
  (`shuffle_layer_witness` gives the permutation it needs), and from
  protocol version 5 every peer layer carries that proof, checked when its
  file arrives (`pbem.protocol.peer.proofs`); in games begun before, such a
  layer shows during play only as a card that decrypts to no card of the
  deck (`identify` fails) or as a duplicate, and the audit blames its seat.
* A card stays hidden while any one seat whose scalar it still carries keeps
  quiet; seats that pool *all* their scalars see everything. The scheme
  protects each seat from the others, not from everybody together.
* Proofs show a decryption is right; they do not stop a seat from refusing to
  answer. A seat that never publishes stalls the game and is reported.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections import Counter
from collections.abc import Callable, Iterable

from nacl import bindings as _na
from nacl import exceptions as _nacl_exc

from pbem.crypto.encoding import FORMAT, canonical
from pbem.errors import CryptoError, FormatError, ProofError

__all__ = [
    "POINT_LEN", "SCALAR_LEN", "PROOF_LEN", "BASE",
    "check_point", "check_scalar",
    "card_point", "card_table", "identify",
    "new_scalar", "public_key", "check_key", "times",
    "encrypt", "decrypt", "shuffle_layer", "shuffle_layer_witness", "check_layer",
    "prove_dleq", "verify_dleq", "partial_decrypt", "check_partial",
]

POINT_LEN = 32
SCALAR_LEN = 32
PROOF_LEN = 2 * SCALAR_LEN

_LABEL = FORMAT.encode("ascii")
_CARD_LABEL = _LABEL + b" poker card\n"
_DLEQ_LABEL = _LABEL + b" dleq\n"
_NONCE_LABEL = _LABEL + b" dleq nonce\n"

_ZERO = bytes(SCALAR_LEN)
_ONE = b"\x01" + bytes(SCALAR_LEN - 1)
_IDENTITY = b"\x01" + bytes(POINT_LEN - 1)

BASE: bytes = _na.crypto_scalarmult_ed25519_base_noclamp(_ONE)
"""The standard generator G of the prime-order subgroup (public keys are k·G)."""

Rng = Callable[[int], int]
"""``rng(n)`` returns an integer in ``range(n)`` (like `secrets.randbelow`)."""


# --- validation --------------------------------------------------------------


def check_point(point: bytes, what: str = "point") -> bytes:
    """Return `point` if it is a valid element of the prime-order subgroup.

    FormatError ("not a valid point") if it is not 32 bytes, not canonical, not
    on the curve, of small or mixed order, or the identity. Call it on every
    point that comes from another party; every function here does.
    """
    if not isinstance(point, (bytes, bytearray)) or len(point) != POINT_LEN:
        raise FormatError(f"{what} is not a valid point: expected {POINT_LEN} bytes")
    point = bytes(point)
    if point == _IDENTITY or not _na.crypto_core_ed25519_is_valid_point(point):
        raise FormatError(
            f"{what} is not a valid point",
            hint="it is not a point of the prime-order subgroup of edwards25519 (or is the identity)",
        )
    return point


def _is_canonical_scalar(x: bytes) -> bool:
    return _na.crypto_core_ed25519_scalar_reduce(x + _ZERO) == x


def check_scalar(k: bytes, what: str = "scalar") -> bytes:
    """Return `k` if it is a canonical non-zero scalar (32 bytes, below L).

    FormatError otherwise. A published scalar is checked with this at the
    audit; one's own scalars come from `new_scalar` and always pass.
    """
    if not isinstance(k, (bytes, bytearray)) or len(k) != SCALAR_LEN:
        raise FormatError(f"{what} is not a valid scalar: expected {SCALAR_LEN} bytes")
    k = bytes(k)
    if not _is_canonical_scalar(k):
        raise FormatError(f"{what} is not a valid scalar: not reduced modulo the group order")
    if k == _ZERO:
        raise FormatError(f"{what} is not a valid scalar: zero")
    return k


def _mul(k: bytes, point: bytes) -> bytes:
    """k·point for an already checked scalar and point."""
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(k, point)
    except _nacl_exc.RuntimeError:  # pragma: no cover - excluded by the checks
        raise CryptoError("scalar multiplication failed") from None


def _reduce(data64: bytes) -> bytes:
    return _na.crypto_core_ed25519_scalar_reduce(data64)


# --- cards -------------------------------------------------------------------


def card_point(game_id: str, card: str, copy: int) -> bytes:
    """The public point of copy number `copy` (0, 1, ...) of `card` in this game.

    ``from_uniform(SHA-512("pbem/1 poker card\\n" || canonical([game_id, card,
    copy]))[:32])``: distinct for every game, card and copy, in the
    prime-order subgroup, with no known discrete log.
    """
    if not isinstance(game_id, str) or not isinstance(card, str):
        raise TypeError("game_id and card must be str")
    if not isinstance(copy, int) or isinstance(copy, bool) or copy < 0:
        raise ValueError("copy must be an int >= 0")
    h = hashlib.sha512(_CARD_LABEL + canonical([game_id, card, copy])).digest()
    point = _na.crypto_core_ed25519_from_uniform(h[:32])
    if point == _IDENTITY or not _na.crypto_core_ed25519_is_valid_point(point):  # pragma: no cover
        raise CryptoError(f"card {card!r} copy {copy} does not map to a usable point")
    return point


def card_table(game_id: str, cards: Iterable[str]) -> dict[bytes, tuple[str, int]]:
    """Map the point of every card in the multiset `cards` to ``(card, copy)``.

    Copies are numbered per name in list order, from 0: ``["a", "b", "a"]``
    gives ``a``/0, ``b``/0, ``a``/1. The initial deck of a shuffle is
    ``list(table)`` (dicts keep insertion order).
    """
    table: dict[bytes, tuple[str, int]] = {}
    seen: Counter[str] = Counter()
    for card in cards:
        copy = seen[card]
        seen[card] += 1
        table[card_point(game_id, card, copy)] = (card, copy)
    return table


def identify(point: bytes, table: dict[bytes, tuple[str, int]]) -> tuple[str, int]:
    """The ``(card, copy)`` a fully decrypted point stands for.

    CryptoError if it is no card of the table: a layer was not removed, or
    some seat's shuffle layer or decryption was not honest.
    """
    try:
        return table[bytes(point)]
    except KeyError:
        raise CryptoError(
            "the decrypted point is not a card of this deck",
            hint="a layer is still on it, or a seat's shuffle was dishonest (the audit will say whose)",
        ) from None


# --- keys, encryption, shuffle -------------------------------------------------


def new_scalar() -> bytes:
    """A fresh secret scalar: 64 random bytes reduced mod L, never zero.

    Use a new one for every seat and every shuffle.
    """
    while True:
        k = _reduce(os.urandom(64))
        if k != _ZERO:
            return k


def public_key(k: bytes) -> bytes:
    """The public key ``K = k·G`` that a seat publishes for its scalar."""
    return _na.crypto_scalarmult_ed25519_base_noclamp(check_scalar(k))


def check_key(k: bytes, key: bytes) -> None:
    """CryptoError unless the published scalar `k` belongs to the published `key`."""
    if not hmac.compare_digest(public_key(k), bytes(key)):
        raise CryptoError("the published scalar does not match the published key")


def times(a: bytes, b: bytes) -> bytes:
    """The scalar ``a·b mod L``: a layer under `b` re-keyed by the factor
    `a` is a layer under this one (a seat handed over in a peer game)."""
    return _na.crypto_core_ed25519_scalar_mul(check_scalar(a), check_scalar(b))


def quotient(a: bytes, b: bytes) -> bytes:
    """The scalar ``a·b⁻¹ mod L``: it takes a layer under `b` to one under
    `a` (a card re-encrypted to another key, proven with `prove_dleq`)."""
    inverse = _na.crypto_core_ed25519_scalar_invert(check_scalar(b))
    return _na.crypto_core_ed25519_scalar_mul(check_scalar(a), inverse)


def encrypt(k: bytes, point: bytes) -> bytes:
    """Add a layer: ``k·point``. FormatError for a bad scalar or point."""
    return _mul(check_scalar(k), check_point(point))


def decrypt(k: bytes, point: bytes) -> bytes:
    """Remove a layer: ``k⁻¹·point``. FormatError for a bad scalar or point."""
    inverse = _na.crypto_core_ed25519_scalar_invert(check_scalar(k))
    return _mul(inverse, check_point(point))


def shuffle_layer(k: bytes, points: list[bytes], rng: Rng | None = None) -> list[bytes]:
    """One seat's shuffle layer: every point encrypted with `k`, then permuted.

    The permutation is uniform (Fisher-Yates) with `secrets.randbelow`;
    `rng` replaces it in tests (``rng(n)`` must return an int in ``range(n)``,
    e.g. ``DeterministicStream.below``). Nobody, not even the seat, needs to
    keep the permutation: the audit checks the layer with `check_layer`.
    """
    return shuffle_layer_witness(k, points, rng)[0]


def shuffle_layer_witness(k: bytes, points: list[bytes], rng: Rng | None = None) -> tuple[list[bytes], list[int]]:
    """`shuffle_layer`, with its permutation: ``layer[i] = k·points[order[i]]``
    (the witness `pbem.crypto.shuffle.prove` needs to prove the layer)."""
    k = check_scalar(k)
    encrypted = [_mul(k, check_point(p, f"card {i}")) for i, p in enumerate(points)]
    order = list(range(len(points)))
    draw = rng or secrets.randbelow
    for i in range(len(order) - 1, 0, -1):
        j = draw(i + 1)
        if not isinstance(j, int) or not 0 <= j <= i:
            raise ValueError(f"rng({i + 1}) returned {j!r}, not an int in range({i + 1})")
        order[i], order[j] = order[j], order[i]
    return [encrypted[i] for i in order], order


def check_layer(k: bytes, before: list[bytes], after: list[bytes]) -> None:
    """Audit a shuffle layer: `after` must be a permutation of ``k·before``.

    Raises CryptoError naming what is wrong: a wrong number of cards, a
    position that repeats another (a duplicated card), a position that is the
    encryption of no card it received (a substituted card), and the cards that
    went missing. Check the scalar against the seat's key with `check_key`.
    """
    k = check_scalar(k)
    if len(after) != len(before):
        raise CryptoError(f"the shuffle layer has {len(after)} cards, it received {len(before)}")
    expected = Counter(_mul(k, check_point(p, f"card {i} before the layer")) for i, p in enumerate(before))
    remaining = expected.copy()
    first: dict[bytes, int] = {}
    problems: list[str] = []
    for i, p in enumerate(after):
        p = bytes(p)
        if remaining[p] > 0:
            remaining[p] -= 1
            first.setdefault(p, i)
        elif p in expected:
            problems.append(f"position {i} repeats position {first[p]} (a duplicated card)")
        else:
            problems.append(f"position {i} is not the encryption of any card it received (a substituted card)")
    if problems:
        missing = sum(remaining.values())
        if missing:
            problems.append(f"{missing} card{'s' if missing > 1 else ''} it received went missing")
        raise CryptoError("bad shuffle layer: " + "; ".join(problems))


# --- Chaum-Pedersen proofs ---------------------------------------------------


def _challenge(context: bytes, b1: bytes, p1: bytes, b2: bytes, p2: bytes, r1: bytes, r2: bytes) -> bytes:
    # context is the only field of variable length and every field after it
    # is 32 bytes, so the hashed string is unambiguous
    data = _DLEQ_LABEL + bytes(context) + b1 + p1 + b2 + p2 + r1 + r2
    return _reduce(hashlib.sha512(data).digest())


def _prove(k: bytes, b1: bytes, p1: bytes, b2: bytes, p2: bytes, context: bytes) -> bytes:
    """The proof, without checking that the statement is true (tests forge with it)."""
    while True:
        seed = _NONCE_LABEL + k + os.urandom(32) + b1 + p1 + b2 + p2 + bytes(context)
        r = _reduce(hashlib.sha512(seed).digest())
        if r != _ZERO:
            break
    c = _challenge(context, b1, p1, b2, p2, _mul(r, b1), _mul(r, b2))
    s = _na.crypto_core_ed25519_scalar_add(r, _na.crypto_core_ed25519_scalar_mul(c, k))
    return c + s


def prove_dleq(k: bytes, base1: bytes, pub1: bytes, base2: bytes, pub2: bytes, context: bytes) -> bytes:
    """Prove ``pub1 = k·base1`` and ``pub2 = k·base2`` without showing k.

    Returns 64 bytes, ``c || s``. `context` names the place of the proof (game,
    shuffle, slot, seat ...) so it cannot be replayed elsewhere. CryptoError if
    the statement is false (a bug in the caller).
    """
    k = check_scalar(k)
    b1, p1, b2, p2 = (check_point(x, n) for x, n in
                      ((base1, "base1"), (pub1, "pub1"), (base2, "base2"), (pub2, "pub2")))
    if _mul(k, b1) != p1 or _mul(k, b2) != p2:
        raise CryptoError("cannot prove a false statement: pub1 and pub2 are not k·base1 and k·base2")
    return _prove(k, b1, p1, b2, p2, _context(context))


def verify_dleq(proof: bytes, base1: bytes, pub1: bytes, base2: bytes, pub2: bytes, context: bytes) -> None:
    """Check a `prove_dleq` proof; ProofError if it does not verify.

    FormatError if a point is not valid or the proof is not 64 bytes.
    """
    if not isinstance(proof, (bytes, bytearray)) or len(proof) != PROOF_LEN:
        raise FormatError(f"a proof is {PROOF_LEN} bytes")
    b1, p1, b2, p2 = (check_point(x, n) for x, n in
                      ((base1, "base1"), (pub1, "pub1"), (base2, "base2"), (pub2, "pub2")))
    context = _context(context)
    c, s = bytes(proof[:SCALAR_LEN]), bytes(proof[SCALAR_LEN:])
    if c == _ZERO or s == _ZERO or not _is_canonical_scalar(c) or not _is_canonical_scalar(s):
        raise ProofError("bad proof: not a pair of non-zero reduced scalars")
    try:
        # R = s·B - c·P; libsodium refuses a product that is the identity
        r1 = _na.crypto_core_ed25519_sub(_na.crypto_scalarmult_ed25519_noclamp(s, b1),
                                         _na.crypto_scalarmult_ed25519_noclamp(c, p1))
        r2 = _na.crypto_core_ed25519_sub(_na.crypto_scalarmult_ed25519_noclamp(s, b2),
                                         _na.crypto_scalarmult_ed25519_noclamp(c, p2))
    except _nacl_exc.RuntimeError:
        raise ProofError("bad proof") from None
    if not hmac.compare_digest(_challenge(context, b1, p1, b2, p2, r1, r2), c):
        raise ProofError("bad proof: the decryption is not the one the seat's key allows")


def _context(context: bytes) -> bytes:
    if not isinstance(context, (bytes, bytearray)):
        raise TypeError("a proof context is bytes")
    return bytes(context)


def partial_decrypt(k: bytes, key: bytes, point: bytes, context: bytes) -> tuple[bytes, bytes]:
    """Remove this seat's layer from `point` in public: ``(k⁻¹·point, proof)``.

    `key` is the seat's published ``K = k·G`` for this shuffle (CryptoError if
    it is not). The proof shows ``log_G(K) = log_result(point)``, i.e. ``point
    = k·result``: the result is exactly this seat's layer removed.
    """
    k = check_scalar(k)
    key = check_point(key, "key")
    if not hmac.compare_digest(public_key(k), key):
        raise CryptoError("this scalar does not belong to the published key (another shuffle's?)")
    point = check_point(point)
    result = _mul(_na.crypto_core_ed25519_scalar_invert(k), point)
    return result, _prove(k, BASE, key, result, point, _context(context))


_CHECKED: set[bytes] = set()  # digests of partials that verified in this process
_CHECKED_MAX = 1 << 16


def check_partial(key: bytes, point: bytes, result: bytes, proof: bytes, context: bytes) -> None:
    """Check a partial decryption: ProofError unless `result` is ``k⁻¹·point``
    for the k behind the seat's published `key`; FormatError for a bad point.

    A statement that verified once is remembered (by the SHA-256 of all its
    inputs): every load of a game folder replays every file, and this is
    its costliest check. Only successes are remembered.
    """
    fields = (key, point, result, proof, context)
    digest = hashlib.sha256(b"".join(len(f).to_bytes(4, "big") + bytes(f) for f in fields)).digest()
    if digest in _CHECKED:
        return
    verify_dleq(proof, BASE, key, result, point, context)
    if len(_CHECKED) >= _CHECKED_MAX:
        _CHECKED.clear()
    _CHECKED.add(digest)
