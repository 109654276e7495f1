"""Simultaneous secret choices: ballots, their keepers, and their opening.

When the rules name several seats that choose at once
(`Game.simultaneous`), each writes a ballot in turn: a salted commitment to
its command and the command sealed to the ballot's keeper. Nothing of the
state changes until every ballot is in, so a later voter learns nothing but
*that* the others voted. Then the keeper opens them: the dealer all at
once (dealer modes), or each peer voter its own, in seat order (it sealed
its ballot to itself, so it needs no other storage). Every verifier checks
each opening against its commitment, so the keeper cannot change a vote,
and applies the commands in seat order.
"""

from __future__ import annotations

import os

import msgspec

from pbem.crypto.commit import check_opening, commit
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.crypto.limits import check_limits
from pbem.crypto.seal import open_envelope, seal, seal_ad
from pbem.errors import CommitmentError, SealError
from pbem.protocol.formats import Ballot, BallotOpening


class _Sealed(msgspec.Struct, frozen=True):
    command: msgspec.Raw
    salt: str


def ballot_ad(game_id: str, seq: int, seat: str) -> bytes:
    return seal_ad(game_id, seq, f"ballot:{seat}")


def make_ballot(command, keeper: PublicIdentity, game_id: str, seq: int, seat: str) -> Ballot:
    """`seat`'s ballot for `command` at `seq`, sealed to `keeper`."""
    raw = canonical(command)
    salt = os.urandom(32)
    sealed = canonical(_Sealed(command=msgspec.Raw(raw), salt=b64e(salt)))
    # padded so that the size of the envelope says nothing of the choice
    sealed += b" " * (-len(sealed) % 256)
    return Ballot(commitment=commit(salt, raw), envelope=seal(sealed, [keeper], ballot_ad(game_id, seq, seat)))


def open_ballot(ballot: Ballot, keeper: SecretIdentity, game_id: str, seq: int, seat: str) -> BallotOpening:
    """The keeper's opening of `seat`'s ballot written at `seq`."""
    payload = open_envelope(ballot.envelope, keeper, ballot_ad(game_id, seq, seat))
    check_limits(payload, "a ballot")
    try:
        sealed = msgspec.json.decode(payload, type=_Sealed)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise SealError(f"{seat}'s ballot holds garbage") from None
    return BallotOpening(seat=seat, command=sealed.command, salt=sealed.salt)


def check_ballot(commitment: str, opening: BallotOpening) -> None:
    """An opening must be exactly what its seat committed to."""
    try:
        check_opening(commitment, b64d(opening.salt, 32), bytes(opening.command))
    except CommitmentError:
        raise CommitmentError(f"the opening of {opening.seat}'s ballot is not what {opening.seat} committed to") from None
