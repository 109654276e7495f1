"""A seat's own secrets in a peer game, sealed to itself: its scalar, its
beacon seed and the places of its private-deck cards (`PeerSecrets`), and
its commitments to those cards.

The secret box rides in the seat's join (the creator's genesis), sealed to
the seat's own key, so that the seat needs no storage of its own. Each
private-deck card's salt derives from the beacon seed, so that publishing
the seed at the end lets the audit redo every commitment.
"""

from __future__ import annotations

import msgspec

from pbem.crypto.commit import commit
from pbem.crypto.encoding import b64e, canonical
from pbem.crypto.keys import SecretIdentity
from pbem.crypto.limits import check_limits
from pbem.crypto.envelope import Envelope
from pbem.crypto.seal import open_envelope, seal
from pbem.crypto.stream import derive
from pbem.protocol.commitments import item_bytes
from pbem.protocol.peer_parts import PeerSecrets

SECRET_BOX_AD = b"pbem/1 peer secrets\n"


def private_salt(beacon_seed: bytes, ref: str) -> bytes:
    """The salt of a private-deck card's commitment, derived from the
    owner's beacon seed so that publishing the seed lets the audit redo it."""
    return derive(beacon_seed, b"private " + ref.encode())


def commit_private(beacon_seed: bytes, mapping: dict[str, str]) -> dict[str, str]:
    return {ref: commit(private_salt(beacon_seed, ref), item_bytes(ref, card)) for ref, card in mapping.items()}


def secret_box(owner: SecretIdentity, scalar: bytes, beacon_seed: bytes, nonce: str, private: dict[str, str] | None = None) -> Envelope:
    payload = canonical(PeerSecrets(scalar=b64e(scalar), beacon_seed=b64e(beacon_seed), private=private or {}))
    return seal(payload, [owner.public], SECRET_BOX_AD + nonce.encode())


def open_secret_box(envelope: Envelope, owner: SecretIdentity, nonce: str) -> PeerSecrets:
    payload = open_envelope(envelope, owner, SECRET_BOX_AD + nonce.encode())
    check_limits(payload, "a secret box")
    return msgspec.json.decode(payload, type=PeerSecrets)

