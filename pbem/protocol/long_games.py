"""Resignations, pauses and timeouts: the files of games that last weeks
(protocol version 6, issue #24; docs/protocol.md, "Long games").

Each is a turn file that carries nothing else but its writer's time, and
may be written out of turn (a seat resigns or pauses whenever it likes;
a claimant writes while the late seat is to move). What every verifier
checks, here, for the writer and for everyone else alike:

* **resign**, by a seat: the game ends; its side (`Game.sides`: a team,
  or the whole table in a co-operative game) loses. With one other side
  left, that side wins; with none (co-operative, solo) nobody wins; with
  two or more (a free-for-all of three or more) nobody wins either: the
  game ends, as the rules of these games do not say how the rest would
  play on (a documented decision).
* **pause**, by a seat: its dates lie after the file's own time, and the
  seat's pauses together stay within the genesis's `Pace.pause_limit`.
  Every clock stops meanwhile (`clock`).
* **timeout**: a seat's clock has run out (`clock.Clocks.deadline`), as
  the file's own signed time says. In a referee game the referee's word
  is the clock: its file names its time of receipt of the file that began
  the seat's turn (`Timeout.since`), and, as the genesis agreed
  (`Pace.absent`), ends the game as abandoned, or plays the seat's moves
  with the game's bot from then on (`bot_seat`: its file then carries the
  seat's commands). In a peer game nobody's time is more than a claim:
  a seat claims, the seat accused answers with its own move (the claim
  lapses), or every other seat accepts in seat order, the claimant too,
  a day at least after its claim; then the game ends as abandoned,
  "claimed by" its claimant, never as a win.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from pbem.errors import FormatError, PbemError, ProtocolError, WrongWriter
from pbem.games.base import Outcome
from pbem.protocol import clock as clock_mod
from pbem.protocol.commitments import state_hash
from pbem.protocol.head import TimeClaim
from pbem.protocol.modes.base import check_parts
from pbem.protocol.versions import first

if TYPE_CHECKING:
    from pbem.protocol.formats import SignedFile, TurnBody
    from pbem.protocol.head import ChainView, Head, Record

#: how long a peer claimant waits after its claim before it accepts it
#: itself: the accused's time to answer with a move
GRACE = clock_mod.DAY
KINDS = ("resign", "pause", "timeout")


def kind(body: TurnBody) -> str | None:
    """Which long-game file `body` is (a bot's move is a move: None)."""
    if body.timeout is not None and body.timeout.what == "bot":
        return None
    return next((k for k in KINDS if getattr(body, k) is not None), None)


def check_version(chain: ChainView, body: TurnBody) -> None:
    """Files of games begun before version 6 carry no time and none of
    these parts; from version 6 every turn file carries its writer's time
    (the clocks are read from it), and a time must be a real one."""
    if body.at is None and chain.version.long_games:
        raise ProtocolError("a file of a game begun under protocol version 6 or later carries its writer's "
                            "time (at)")
    if body.at is None and body.resign is None and body.pause is None and body.timeout is None:
        return
    if not chain.version.long_games:
        raise ProtocolError(f"games begun before protocol version {first('long_games')} carry no time, "
                            "resignation, pause or timeout")
    if body.at is not None:
        try:
            clock_mod.parse_stamp(body.at)
        except PbemError as exc:
            raise FormatError(f"its time: {exc.message}") from None


def accept(chain: ChainView, outer: SignedFile, body: TurnBody, where: str) -> tuple[Head, Record]:
    """A resignation, a pause or a timeout: the head after it and its record."""
    what = kind(body)
    assert what is not None  # the chain calls this for a file `kind` names
    check_parts(body, {what}, chain.dealer_mode)
    if chain.public is None:
        raise ProtocolError(f"the game has not begun: there is nothing to {what} yet")
    if chain.outcome() is not None:
        raise ProtocolError(f"the game is over: there is nothing to {what}")
    if chain.undo_pending is not None:
        raise ProtocolError("an undo request is pending: it is answered first")
    if state_hash(chain.public) != body.state:
        raise ProtocolError(f"a {what} file changes no state: its state must be the head's")
    if body.at is None:
        raise ProtocolError(f"a {what} file carries its writer's time")
    at = clock_mod.parse_stamp(body.at)
    now = chain.now
    ends = False
    if what == "resign":
        if body.by not in chain.seats:
            raise WrongWriter(f"{body.by} has no seat: only a seat resigns")
        head = replace(now, ended=resign_outcome(chain, body.by), claim=None)
        ends = True
    else:
        clocks = _clocks(chain, what)
        if what == "pause":
            _check_pause(chain, body, clocks, at)
            head = now
        else:
            head = _timeout(chain, body, clocks, at)
            ends = head.ended is not None
    return chain.accepted(outer, body, where, head, before=chain.public, after=chain.public, ends=ends)


def resign_outcome(chain: ChainView, seat: str) -> Outcome:
    sides = chain.game.sides(chain.options, chain.seat_specs())
    mine = next(side for side in sides if seat in side)
    others = [side for side in sides if side is not mine]
    who = seat if mine == [seat] else f"{seat} (for {', '.join(mine)})"
    if len(others) == 1:
        return Outcome(winners=list(others[0]), reason=f"{who} resigned")
    if not others:
        return Outcome(winners=[], reason=f"{who} resigned: the game is lost")
    return Outcome(winners=[], reason=f"{who} resigned: the game ends with no winner")


def _clocks(chain: ChainView, what: str) -> clock_mod.Clocks:
    clocks = clock_mod.compute(chain)
    if clocks is None:
        raise ProtocolError(f"this game has no agreed pace: there is no clock to {what}",
                            hint="a pace is agreed when the game is made: pbem new ... --pace 3d")
    return clocks


def _check_pause(chain: ChainView, body: TurnBody, clocks: clock_mod.Clocks, at: int) -> None:
    if body.by not in chain.seats:
        raise WrongWriter(f"{body.by} has no seat: only a seat announces a pause")
    pause = body.pause
    assert pause is not None  # a pause file (`kind`)
    start, end = clock_mod.parse_stamp(pause.start), clock_mod.parse_stamp(pause.end)
    if start < max(at, clocks.last) or end <= start:
        raise ProtocolError(f"a pause runs forward from its file's time ({clock_mod.stamp(max(at, clocks.last))}): "
                            f"{pause.start} to {pause.end} does not")
    limit, taken = clocks.pace.pause_limit, clocks.paused_by(body.by)
    if taken + end - start > limit:
        raise ProtocolError(
            f"{body.by}'s pause of {clock_mod.words(end - start)} is longer than agreed: "
            f"{clock_mod.words(max(0, limit - taken))} of its {clock_mod.words(limit)} of pauses is left")


def _timeout(chain: ChainView, body: TurnBody, clocks: clock_mod.Clocks, at: int) -> Head:
    t = body.timeout
    # a timeout file (`kind`), whose time `accept` checked
    assert t is not None and body.at is not None
    now = chain.now
    if t.what == "accept":
        return _accept_claim(chain, body, at)
    _check_out_of_time(chain, body, clocks, at)
    if t.what == "claim":
        if chain.dealer_mode != "peer":
            raise ProtocolError(f"only in a peer game does a seat claim a timeout; here the "
                                f"{'referee' if chain.dealer_mode == 'referee' else 'dealer'} keeps the clock")
        if body.by not in chain.seats:
            raise WrongWriter(f"{body.by} has no seat: only a seat claims a timeout")
        if now.claim is not None:
            raise ProtocolError(f"{now.claim.by}'s claim against {now.claim.seat} is pending already")
        return replace(now, claim=TimeClaim(body.by, t.seat, body.at))
    # "abandon"
    _check_referee(chain, body, "abandon")
    return replace(now, ended=Outcome(
        winners=[], reason=f"abandoned: {t.seat}'s time ran out (by the referee {body.by}, {body.at[:10]})"))


def _check_referee(chain: ChainView, body: TurnBody, what: str) -> None:
    if chain.dealer_mode != "referee" or body.by != chain.dealer_name:
        raise WrongWriter(f"only the referee of a referee game may {'end a game as abandoned' if what == 'abandon' else 'play for an absent seat'}")
    pace = chain.genesis.pace
    agreed = pace.absent if pace is not None else "none"  # no pace, no powers over absent seats
    if agreed != what:
        raise ProtocolError(f"the genesis does not let the referee {'abandon the game' if what == 'abandon' else 'play for a seat'} "
                            f"(agreed: {'nothing' if agreed == 'none' else agreed})")


def _check_out_of_time(chain: ChainView, body: TurnBody, clocks: clock_mod.Clocks, at: int) -> None:
    timeout = body.timeout
    assert timeout is not None  # a timeout file
    seat = timeout.seat
    if seat not in chain.seats:
        raise ProtocolError(f"{seat!r} is not a seat of this game")
    if body.by == seat:
        raise ProtocolError(f"{seat} cannot time itself out (pbem resign)")
    if seat not in clocks.since:
        raise ProtocolError(f"{seat}'s clock is not running: the game waits for {', '.join(chain.writers()) or 'nobody'}")
    since = timeout.since
    if since is not None and chain.dealer_mode != "referee":
        raise ProtocolError("only a referee's timeout names its time of receipt")
    deadline = clocks.deadline(seat, clock_mod.parse_stamp(since) if since else None)
    if at < deadline:
        raise ProtocolError(f"{seat}'s time is not out: it runs out at {clock_mod.stamp(deadline)}, "
                            f"{clock_mod.words(deadline - at)} after this file's time")


def _accept_claim(chain: ChainView, body: TurnBody, at: int) -> Head:
    now = chain.now
    claim = now.claim
    if claim is None:
        raise ProtocolError("no timeout claim is pending")
    assert body.timeout is not None  # a timeout file
    if body.timeout.seat != claim.seat:
        raise ProtocolError(f"the pending claim is against {claim.seat}, not {body.timeout.seat}")
    waiting = claim_acceptors(chain)
    if body.by != waiting[0]:
        raise WrongWriter(f"{body.by} may not accept the claim now (waiting for {waiting[0]})")
    if body.by == claim.by and at < clock_mod.parse_stamp(claim.at) + GRACE:
        raise ProtocolError(f"{claim.by} accepts its own claim a day at least after making it "
                            f"(from {clock_mod.stamp(clock_mod.parse_stamp(claim.at) + GRACE)}): "
                            f"{claim.seat} may answer with a move meanwhile")
    claim = replace(claim, accepted=(*claim.accepted, body.by))
    if len(waiting) > 1:
        return replace(now, claim=claim)
    also = [s for s in claim.accepted if s != claim.by]
    reason = (f"abandoned: {claim.seat}'s time ran out, claimed by {claim.by} on {claim.at[:10]}"
              + (f", accepted by {', '.join(also)}" if also else ""))
    return replace(now, claim=None, ended=Outcome(winners=[], reason=reason))


def claim_acceptors(chain: ChainView) -> list[str]:
    """The seats that still have to accept the pending claim, in seat
    order: every seat but the accused, the claimant last."""
    claim = chain.now.claim
    if claim is None:
        return []
    order = [s for s in chain.seat_order if s not in (claim.seat, claim.by)] + [claim.by]
    return [s for s in order if s not in claim.accepted]


def bot_seat(chain: ChainView, body: TurnBody) -> str:
    """The seat a referee's bot file plays for, checked: the genesis lets
    the referee play for absent seats, the seat is to move, and it is
    absent already or its time is out."""
    _check_referee(chain, body, "bot")
    assert body.timeout is not None  # the chain calls this for a file with a timeout
    seat = body.timeout.seat
    if seat not in chain.game.to_act(chain.public) or chain.obligations() or chain.outcome() is not None:
        raise WrongWriter(f"the referee may play for {seat} only when {seat} is to move "
                          f"(waiting for {', '.join(chain.writers()) or 'nobody'})")
    if seat not in chain.now.absent:
        if body.at is None:
            raise ProtocolError("the referee's first move for an absent seat carries its time")
        _check_out_of_time(chain, body, _clocks(chain, "time out"), clock_mod.parse_stamp(body.at))
    return seat


def after_move(head: Head, writer: str, moved: bool) -> Head:
    """A pending claim lapses when the seat accused answers with a move."""
    if head.claim is not None and moved and head.claim.seat == writer:
        return replace(head, claim=None)
    return head
