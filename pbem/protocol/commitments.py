"""What the chain commits to: hidden items and public states.

Kept apart from `chain` so that the dealer, the peer deck and the audit
can use them without importing the chain (and without import cycles).
"""

from __future__ import annotations

from pbem.crypto.commit import check_opening
from pbem.crypto.encoding import b64d, b64e, canonical, sha256
from pbem.errors import CommitmentError, ProtocolError
from pbem.games.base import GameState
from pbem.protocol.file_parts import Opening


def item_bytes(ref: str, card: str) -> bytes:
    """What a commitment commits to: the ref and its card, canonically."""
    return canonical({"card": card, "ref": ref})


def state_hash(state: GameState | None) -> str:
    """The hash a file carries of its public state (None: not dealt yet)."""
    return b64e(sha256(canonical(state)))


def check_openings(openings: list[Opening], commitments: dict[str, str], where: str) -> None:
    seen: set[str] = set()
    for o in openings:
        if o.ref in seen:
            raise ProtocolError(f"{where}: {o.ref} is revealed twice")
        seen.add(o.ref)
        if o.ref not in commitments:
            raise ProtocolError(f"{where}: reveals {o.ref}, which has no commitment")
        try:
            check_opening(commitments[o.ref], b64d(o.salt, 32), item_bytes(o.ref, o.card))
        except CommitmentError:
            raise CommitmentError(
                f"{where}: the opening of {o.ref} ({o.card}) does not match its commitment"
            ) from None
