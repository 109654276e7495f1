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

A ballot that can never be tallied (sealed to another party, holding
garbage, committing to a command that is not a vote) must not stop the
game, nor be blamed on an honest keeper or opener. An opening that is no
vote is refused in the file that opens it (a peer voter opening its own:
its file is refused, and the game waits for it, named). From protocol
version 4 a dealer voids the ballots it cannot tally (`VoidBallot`, in a
file of its own that opens nothing else), naming each voter, who votes
again; `pbem status` and the audit name the voter.
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


#: the first protocol version in which a dealer voids a ballot it cannot tally
VOID_VERSION = 4


def ballot_problem(game, state, seat: str, command) -> str | None:
    """Why `command` cannot be `seat`'s vote on the public `state` (None: it
    can, as far as the public state tells): the check its voter's own pbem
    makes before it casts the ballot, made again on the opening."""
    from pbem.errors import PbemError
    from pbem.games.base import NeedsReveal
    from pbem.protocol.chance import NeedsChance, PlayChance, Tape

    try:
        game.apply(state, seat, command, PlayChance(Tape(None, "")))
    except (NeedsReveal, NeedsChance):
        return None
    except PbemError as exc:
        return exc.message
    return None


def voids(chain, keeper: SecretIdentity) -> list:
    """The keeper's side: the ballots of the complete vote it cannot tally,
    in seat order, each with its opening when it opens to its commitment."""
    from pbem.errors import PbemError
    from pbem.protocol.formats import VoidBallot

    out = []
    for seat in [s for s in chain.seat_order if s in chain.ballots]:
        commitment, seq = chain.ballots[seat]
        try:
            opening = open_ballot(chain.records[seq].body.vote, keeper, chain.game_id, seq, seat)
            check_ballot(commitment, opening)
        except PbemError:
            out.append(VoidBallot(seat=seat))
            continue
        if opening_problem(chain, opening) is not None:
            out.append(VoidBallot(seat=seat, opening=opening))
    return out


def opening_problem(chain, opening: BallotOpening) -> str | None:
    """Why an opening that matches its commitment is no vote (None: it is one)."""
    from pbem.errors import PbemError

    try:
        command = chain.decode_command(opening.command)
    except PbemError as exc:
        return f"not a command: {exc.message}"
    return ballot_problem(chain.game, chain.public, opening.seat, command)


def take_void(chain, body) -> dict[str, tuple[int, int, str]]:
    """Check a dealer's void file; what it voids: seat -> (its ballot's seq,
    this file's seq, why), for `pbem status` and the audit."""
    from pbem.errors import ProtocolError

    if chain.genesis.version < VOID_VERSION:
        raise ProtocolError(f"the dealer voids a ballot, which games begun before protocol version {VOID_VERSION} "
                            "cannot do")
    if not chain.tally_due() or chain.paused is not None:
        raise ProtocolError("the dealer voids a ballot, but no complete vote waits for its tally")
    seats = [v.seat for v in body.void]
    if seats != [s for s in chain.seat_order if s in set(seats)] or len(set(seats)) != len(seats):
        raise ProtocolError("the void ballots must each be named once, in seat order")
    out = {}
    for void in body.void:
        if void.seat not in chain.ballots:
            raise ProtocolError(f"the dealer voids {void.seat}'s ballot, but {void.seat} cast none in this vote")
        commitment, seq = chain.ballots[void.seat]
        if void.opening is None:
            why = f"{chain.dealer_name} could not open it"
        else:
            if void.opening.seat != void.seat:
                raise ProtocolError(f"the dealer voids {void.seat}'s ballot with an opening of {void.opening.seat}'s")
            check_ballot(commitment, void.opening)
            problem = opening_problem(chain, void.opening)
            if problem is None:
                raise ProtocolError(f"the dealer voids {void.seat}'s ballot, which is a vote: it must tally it")
            why = f"it is no vote ({problem})"
        out[void.seat] = (seq, body.seq, why)
    return out
