"""Zero-knowledge proofs that a mental-poker shuffle layer is honest.

What a layer claims
-------------------
A seat's shuffle layer (`pbem.crypto.poker.shuffle_layer`) takes the deck's
points X_0 .. X_ℓ-1 and publishes ``Y_i = k·X_σ(i)``: every point times the
seat's secret scalar k, in a secret order σ, with the key ``K = k·P``
published beside it (P is the standard base G, or for the two-faced deck's
last layer the key of its first). `prove` makes, and `verify` checks, a
proof of exactly that statement that shows nothing of σ or k: a layer that
substitutes a card, swaps a point for another card's, drops or repeats a
point, or mixes two scalars, or whose scalar is not its key's, is refused
when it arrives instead of at the end-of-game audit. `prove_pairs` and
`verify_pairs` (`pairs`) prove the two-faced deck's pair layers the same
way, composed from the same argument.

The construction, and where it comes from
-----------------------------------------
Curdleproofs: "Curdleproofs: A Shuffle Argument Protocol", the Ethereum
Foundation Cryptography Research Team (Kadianakis, Maller, Novakovic,
Chunhapanya), September 2022, doc/curdleproofs.pdf of
github.com/asn-d6/curdleproofs: the same-scalar shuffle argument of
Ethereum's Whisk, a modernised Bayer-Groth (EUROCRYPT 2012) shuffle with
inner product arguments. Its parts, one module each:

* `permutation`: the same-permutation argument (section 5.1, Neff's trick)
  over the grand-product argument (section 5.2);
* `inner_product`: the zero-knowledge discrete-log inner product argument
  (section 5.3; Bootle et al., EUROCRYPT 2016);
* `multiscalar`: the same-multiscalar argument (section 4);
* `argument`: the same-scalar argument (section 3) and the whole shuffle
  argument (section 2), and a plain batched Chaum-Pedersen proof for the
  layers that move nothing (`prove_in_place`).

What we changed, and why:

* **The group** is edwards25519's prime-order subgroup through libsodium
  (`group`), not BLS12-381; nothing in the argument needs a pairing.
* **Columns.** Curdleproofs shuffles pairs of points (R, S) -> (T, U). A
  deck shuffles single points, so the argument takes m columns sharing one
  permutation: m = 1 for a deck (one commitment to k·R, one base G_T), m = 2
  (exactly Curdleproofs) for the two-faced deck's pairs.
* **The key.** Curdleproofs' k is hidden entirely; a mental-poker layer's k
  must be the one of the key its seat published, against which every
  partial decryption is proven. The same-scalar argument gets one more
  equation, ``E + α·K = z_k·P``, so the proof shows ``K = k·P`` too.
* **The permutation commitment** M is part of the proof, made by the
  prover before the challenges (in Whisk it is an input of the statement).
* **Sizes.** Curdleproofs needs ℓ + 4 to be a power of two; here N is the
  smallest power of two >= ℓ + 4 and the N - ℓ bases after the ℓ first are
  all blinder bases (four or more), so any deck size works.
* **Nothing the verifier can derive is sent**: R = a×X (computed by the
  verifier, as the transcript already fixes it), B and D of the
  same-permutation and grand-product arguments (kept as linear combinations
  and checked in the batch).
* **Transparent generators** from libsodium's hash to the group of a public
  label (`group.generators`), and a BLAKE2b transcript (`transcript`)
  instead of Merlin; the prover's random scalars are hedged with its secret
  (`group.Nonces`).
* **Verification** batches every equation of a proof, and of a pair
  layer's several proofs, into one sum with random weights (as the
  Curdleproofs verifier's MSM accumulator does), and on failure names the
  first equation that does not hold.

Proofs are 32-byte fields (`wire`), about 2 KiB for a deck of 60 (the exact
length is `proof_length`). Soundness rests on the discrete-log assumption
in the group (nobody knows relations between the generators), zero knowledge
on DDH, as in Curdleproofs; Fiat-Shamir in the random-oracle model.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.crypto.poker import check_scalar
from pbem.crypto.shuffle import argument
from pbem.crypto.shuffle.group import BASE, Checks, statement_points
from pbem.crypto.shuffle.pairs import pairs_proof_length, prove_pairs, verify_pairs
from pbem.crypto.shuffle.wire import Reader
from pbem.errors import CryptoError, ShuffleProofError

__all__ = ["BASE", "prove", "verify", "proof_length", "prove_pairs", "verify_pairs", "pairs_proof_length"]

WHAT = "the shuffle layer's proof"


def proof_length(n: int) -> int:
    """The exact length in bytes of the proof of a layer of `n` points."""
    return argument.proof_length(n)


def _context(context: bytes) -> bytes:
    if not isinstance(context, (bytes, bytearray)):
        raise TypeError("a proof context is bytes")
    return bytes(context)


def prove(context: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], permutation: Sequence[int],
          scalar: bytes, *, base: bytes = BASE) -> bytes:
    """Prove that ``outputs[i] = scalar·inputs[permutation[i]]`` for every i,
    and that the key ``scalar·base`` is the layer's.

    `context` names the proof's place (game, seq, deck ...): the proof
    verifies under no other. Returns `proof_length(len(inputs))` bytes.
    CryptoError if the statement is false (a bug in the caller), FormatError
    for a bad scalar or point.
    """
    k = int.from_bytes(check_scalar(scalar), "little")
    X = statement_points(inputs, "input", CryptoError)
    Y = statement_points(outputs, "output", CryptoError)
    base = statement_points([base], "the base", CryptoError)[0]
    if not X or len(X) != len(Y):
        raise CryptoError(f"cannot prove a shuffle of {len(X)} points into {len(Y)}")
    sigma = [int(s) for s in permutation]
    argument.check_witness([X], [Y], sigma, k)
    return argument.prove(_context(context), [X], [Y], sigma, k, base)


def verify(context: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: bytes, *, key: bytes,
           base: bytes = BASE) -> None:
    """Check a `prove` proof: ShuffleProofError, naming what failed, unless
    `outputs` is a permutation of `inputs` all multiplied by the one scalar
    k with ``key = k·base``, proven for this `context`.

    Every point of the statement must be a point of the prime-order
    subgroup other than the identity; the proof must be exactly
    `proof_length` bytes, its points canonical elements of the subgroup, its
    scalars reduced. The caller names the seat and the file.
    """
    X = statement_points(inputs, "input")
    Y = statement_points(outputs, "output")
    key = statement_points([key], "the key")[0]
    base = statement_points([base], "the base")[0]
    if not X:
        raise ShuffleProofError(f"{WHAT}: a shuffle of no points")
    if len(Y) != len(X):
        raise ShuffleProofError(f"{WHAT}: the layer has {len(Y)} points, it received {len(X)}")
    reader = Reader(proof, proof_length(len(X)), WHAT)
    checks = Checks()
    argument.verify(checks, _context(context), [X], [Y], reader, key, base)
    reader.end()
    checks.verify(WHAT)
