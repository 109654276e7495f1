"""Hash-chain beacons: chance that no seat can bias, with no third party.

Each seat makes a chain of SHA-256 links from a secret random seed::

    x_0 = seed,   x_i = SHA-256("pbem/1 beacon" || x_{i-1}),   anchor = x_length

and commits to the anchor (in the genesis, or in its join file). It then
reveals the chain *backwards*, one link per file it writes: first
x_{length-1}, then x_{length-2}, ... (`link`). Every verifier checks that the
new link hashes to the one revealed before, or to the anchor (`check_link`).
The chance of an event is drawn from `chance_key`: HKDF over every seat's
latest link, the game id and the seq; the protocol keys a
`pbem.crypto.stream.DeterministicStream` with it and a label naming the event.

Why nobody can bias it: every link is fixed the moment its anchor is
committed (finding another value that hashes to the previous link would need
a SHA-256 preimage), and nobody can compute another seat's next link before
it is revealed (that is also a preimage). So the chance at a turn depends on
values that no seat can choose and, until the turn's own link is revealed, no
other seat can know.

Limits, honestly:

* **The writer of a file can compute the chance inside that file before
  writing it**: it knows every seat's latest link, its own next one included.
  It cannot change the result, but it can choose among its own legal options
  knowing what each one would draw, or decline to write at all (which
  everybody sees as a stalled game). Where that matters, the referee mode is
  the answer.
* A chain must be committed in a file *before* any chance that uses it:
  a seat that picks a new seed in the very file whose chance it feeds could
  try seeds until the draw suits it. The protocol must not draw chance from
  a link in the file that commits its anchor.
* A chain of `length` links serves `length` files; the seat needs a new chain
  (committed in an earlier file) before it runs out.
* At the end the seed is published and the audit re-derives the chain; until
  then the seed is a secret like a private key.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from pbem.crypto.encoding import FORMAT, b64e, canonical
from pbem.crypto.stream import derive
from pbem.errors import CommitmentError, CryptoError, FormatError

__all__ = ["LINK_LEN", "new_chain", "anchor", "link", "check_link", "chance_key"]

LINK_LEN = 32
_LABEL = FORMAT.encode("ascii") + b" beacon"


def _step(x: bytes) -> bytes:
    return hashlib.sha256(_LABEL + x).digest()


def _forward(x: bytes, times: int) -> bytes:
    for _ in range(times):
        x = _step(x)
    return x


def _check_bytes(x: bytes, what: str) -> bytes:
    if not isinstance(x, (bytes, bytearray)) or len(x) != LINK_LEN:
        raise FormatError(f"a beacon {what} must be {LINK_LEN} bytes")
    return bytes(x)


def _check_length(length: int) -> int:
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        raise ValueError("a beacon chain needs a length >= 1")
    return length


def new_chain(length: int) -> tuple[bytes, bytes]:
    """A fresh chain of `length` links: ``(seed, anchor)``.

    Keep the seed secret until the end of the game; publish the anchor.
    """
    seed = os.urandom(LINK_LEN)
    return seed, anchor(seed, length)


def anchor(seed: bytes, length: int) -> bytes:
    """The anchor ``x_length`` of the chain grown from `seed` (the audit re-derives it)."""
    return _forward(_check_bytes(seed, "seed"), _check_length(length))


def link(seed: bytes, length: int, index: int) -> bytes:
    """The `index`-th link to reveal, counting from 1: ``x_{length-index}``.

    Link 1 hashes to the anchor, link i+1 to link i; link `length` is the
    seed itself. CryptoError when the chain is used up. Costs at most
    `length` SHA-256 calls (about 1 ms for 2000).
    """
    _check_length(length)
    if not isinstance(index, int) or isinstance(index, bool) or index < 1:
        raise ValueError("beacon links are numbered from 1")
    if index > length:
        raise CryptoError(
            f"the beacon chain is used up ({length} links)",
            hint="a seat needs a new chain, committed in an earlier file, before its old one runs out",
        )
    return _forward(_check_bytes(seed, "seed"), length - index)


def check_link(previous: bytes, revealed: bytes) -> None:
    """CommitmentError unless `revealed` hashes to `previous` (the anchor, or
    the link this seat revealed before). FormatError if either is not 32 bytes."""
    previous = _check_bytes(previous, "link")
    revealed = _check_bytes(revealed, "link")
    if not hmac.compare_digest(_step(revealed), previous):
        raise CommitmentError(
            "beacon link does not hash to the previous one",
            hint="the seat revealed a link that is not the next one of the chain it committed to",
        )


def chance_key(links: dict[str, bytes], game_id: str, seq: int) -> bytes:
    """The 32-byte key of the chance at `seq`: HKDF-SHA256 over every seat's
    latest link (with its seat name, sorted by name), the game id and the seq.

    Build the event stream with ``DeterministicStream(key, label)``, the label
    naming the event (an event counter), so each event gets its own stream.
    """
    if not links:
        raise ValueError("chance needs at least one seat's link")
    if not isinstance(game_id, str):
        raise TypeError("game_id must be str")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise ValueError("seq must be an int >= 0")
    pairs = []
    for seat in sorted(links):
        if not isinstance(seat, str):
            raise TypeError("seat names must be str")
        pairs.append([seat, b64e(_check_bytes(links[seat], "link"))])
    material = canonical([game_id, seq, pairs])
    return derive(material, b"beacon chance")
