"""Simultaneous secret choices: ballots, their keepers, their opening, and
the files that carry them (`accept_ballot`, `accept_void`, the openings a
tally runs: `tally_commands`, `tally_resume`).

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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec.structs import replace

from pbem.crypto.commit import check_opening, commit
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.envelope import check_envelope, seal_ad
from pbem.crypto.keys import PublicIdentity, SecretIdentity
from pbem.crypto.limits import check_limits
from pbem.errors import CommitmentError, PbemError, ProtocolError, SealError, WrongWriter
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import TurnBody
from pbem.protocol.turn_parts import Ballot, BallotOpening, VoidBallot
from pbem.protocol.versions import first

if TYPE_CHECKING:
    from pbem.games.base import Game, GameState
    from pbem.protocol.formats import SignedFile
    from pbem.protocol.head import ChainView, Head, Record


class _Sealed(msgspec.Struct, frozen=True):
    command: msgspec.Raw
    salt: str


def ballot_ad(game_id: str, seq: int, seat: str) -> bytes:
    return seal_ad(game_id, seq, f"ballot:{seat}")


def make_ballot(command: Any, keeper: PublicIdentity, game_id: str, seq: int, seat: str) -> Ballot:
    """`seat`'s ballot for `command` at `seq`, sealed to `keeper`."""
    from pbem.crypto.seal import seal  # writers only

    raw = canonical(command)
    salt = os.urandom(32)
    sealed = canonical(_Sealed(command=msgspec.Raw(raw), salt=b64e(salt)))
    # padded so that the size of the envelope says nothing of the choice
    sealed += b" " * (-len(sealed) % 256)
    return Ballot(commitment=commit(salt, raw), envelope=seal(sealed, [keeper], ballot_ad(game_id, seq, seat)))


def open_ballot(ballot: Ballot, keeper: SecretIdentity, game_id: str, seq: int, seat: str) -> BallotOpening:
    """The keeper's opening of `seat`'s ballot written at `seq`."""
    from pbem.crypto.seal import open_envelope  # its keeper only

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


def ballot_problem(game: Game[Any, Any], state: GameState | None, seat: str, command: Any) -> str | None:
    """Why `command` cannot be `seat`'s vote on the public `state` (None: it
    can, as far as the public state tells): the check its voter's own pbem
    makes before it casts the ballot, made again on the opening."""
    from pbem.games.base import NeedsReveal
    from pbem.protocol.chance import NeedsChance, PlayChance, Tape

    try:
        game.apply(state, seat, command, PlayChance(Tape(None, "")))
    except (NeedsReveal, NeedsChance):
        return None
    except PbemError as exc:
        return exc.message
    return None


def voids(chain: ChainView, keeper: SecretIdentity) -> list[VoidBallot]:
    """The keeper's side: the ballots of the complete vote it cannot tally,
    in seat order, each with its opening when it opens to its commitment."""
    out = []
    for seat in [s for s in chain.seat_order if s in chain.ballots]:
        commitment, seq = chain.ballots[seat]
        body = chain.records[seq].body
        assert isinstance(body, TurnBody) and body.vote is not None  # `ballots` names the files of the ballots
        try:
            opening = open_ballot(body.vote, keeper, chain.game_id, seq, seat)
            check_ballot(commitment, opening)
        except PbemError:
            out.append(VoidBallot(seat=seat))
            continue
        if opening_problem(chain, opening) is not None:
            out.append(VoidBallot(seat=seat, opening=opening))
    return out


def opening_problem(chain: ChainView, opening: BallotOpening) -> str | None:
    """Why an opening that matches its commitment is no vote (None: it is one)."""
    try:
        command = chain.decode_command(opening.command)
    except PbemError as exc:
        return f"not a command: {exc.message}"
    return ballot_problem(chain.game, chain.public, opening.seat, command)


def take_void(chain: ChainView, body: TurnBody) -> dict[str, tuple[int, int, str]]:
    """Check a dealer's void file; what it voids: seat -> (its ballot's seq,
    this file's seq, why), for `pbem status` and the audit."""
    if not chain.version.void_ballots:
        raise ProtocolError(f"the dealer voids a ballot, which games begun before protocol version "
                            f"{first('void_ballots')} cannot do")
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


# --- the files of a vote, as the chain takes them ----------------------------------


def accept_ballot(chain: ChainView, outer: SignedFile, body: TurnBody, where: str,
                  cast: Callable[[ChainView, TurnBody], Head]) -> tuple[Head, Record]:
    """A seat's ballot: nothing changes but that it has voted, and what its
    dealer mode takes from the file (`cast`: `Mode.cast`)."""
    voters = chain.voters()
    if not voters:
        raise ProtocolError(f"{body.by} sends a ballot, but no vote is open")
    if body.by in chain.ballots:
        raise ProtocolError(f"{body.by} has voted already (seq {chain.ballots[body.by][1]})")
    if body.by not in voters:
        raise WrongWriter(f"{body.by} does not vote now (voters: {', '.join(voters)})")
    vote = body.vote
    assert vote is not None  # the chain calls this for a file with a ballot
    b64d(vote.commitment, 32)
    check_envelope(vote.envelope, readers=1)
    head = cast(chain, body)
    if state_hash(chain.public) != body.state:
        raise ProtocolError("a ballot changes nothing: its state must be the head's")
    head = replace(head, ballots={**chain.ballots, body.by: (vote.commitment, body.seq)})
    return chain.accepted(outer, body, where, head, before=chain.public, after=chain.public)


def accept_void(chain: ChainView, outer: SignedFile, body: TurnBody, where: str) -> tuple[Head, Record]:
    """The dealer voids the ballots it cannot tally (`take_void`): their
    voters vote again; nothing else changes, nothing is opened."""
    voided = take_void(chain, body)
    if state_hash(chain.public) != body.state:
        raise ProtocolError("a void file changes nothing: its state must be the head's")
    head = replace(chain.now, ballots={s: v for s, v in chain.ballots.items() if s not in voided},
                   voided={**chain.voided, **voided})
    return chain.accepted(outer, body, where, head, before=chain.public, after=chain.public)


def tally_commands(chain: ChainView, tally: Sequence[BallotOpening], seats: list[str]) -> list[tuple[str, Any]]:
    """Check openings of the ballots of `seats` (in seat order, each
    once) against their commitments; their commands."""
    expected = [s for s in chain.seat_order if s in seats]
    if [o.seat for o in tally] != expected:
        raise ProtocolError(f"the ballots must be opened exactly once each, in seat order: {', '.join(expected)}")
    out: list[tuple[str, Any]] = []
    for opening in tally:
        check_ballot(chain.ballots[opening.seat][0], opening)
        problem = opening_problem(chain, opening)
        if problem is not None:  # refused here, in the file that opens it, never in a later opener's
            raise ProtocolError(f"{opening.seat}'s ballot is no vote: {problem}")
        out.append((opening.seat, chain.decode_command(opening.command)))
    return out


def tally_resume(chain: ChainView, by: str, tally: Sequence[BallotOpening], commands: Sequence[Any] = ()
                 ) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    """A peer voter opening its own ballot, once every ballot is in; with
    the last opening every vote's command runs, in seat order. Returns
    the commands to run first and the openings so far."""
    tally = list(tally)
    opened = dict(chain.opened)
    if not tally:
        if chain.tally_due() and by in chain.voters() and by not in opened:
            if [o.by for o in chain.obligations()][:1] == [by]:
                raise ProtocolError(f"{by} must open its ballot in this file")
        return [], list(chain.opened)
    if not chain.tally_due():
        raise ProtocolError(f"{by} opens a ballot, but the vote is not complete")
    if commands:
        raise ProtocolError("a file that opens a ballot carries no commands")
    waiting = [s for s in chain.voters() if s not in opened]
    if len(tally) != 1 or tally[0].seat != by or waiting[:1] != [by]:
        raise ProtocolError(f"each voter opens its own ballot, in seat order: next is {waiting[0]}")
    now = list(chain.opened) + tally_commands(chain, tally, [by])
    return (now if len(now) == len(chain.voters()) else []), now
