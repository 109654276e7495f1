"""Undo by agreement: when a seat may take back its last file.

A seat asks (`Undo(what="request")`), every other seat answers in seat
order, and once all have accepted the head returns to the state (and the
knowledge of every seat) before the file taken back. The files stay in the
chain: an undo is two or more signed files, never a rewrite of history.

An undo is refused whenever it would leak: a card that was revealed or dealt
(delivered, decrypted, sealed) since, and including, the file taken back
cannot be un-learnt, and in a peer game chance drawn from the beacons was
seen by everyone. The same checks run for the writer (to refuse at once,
with a clear reason) and for every verifier (so a doctored request is
refused whoever signed it).

The undo files change no card and no seat's knowledge (`accept`): the
last acceptance returns the chain to the head recorded before the file
taken back (`Record.prior`), with the undo's own seq and hash.

A request may be written out of turn (its writer's move was the last, and
another seat is to write), so it can meet that seat's file on the same
predecessor: a fork its writer could make at will, after seeing the reply.
The rule every verifier applies (`pbem.protocol.forks`): **the seat that was
to write stands over an out-of-turn request on the same predecessor**; the
request, and any file that follows it, is set aside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from pbem.errors import ProtocolError
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import TurnBody
from pbem.protocol.head import ChainView, Head, Record, UndoPending

if TYPE_CHECKING:
    from pbem.protocol.formats import SignedFile


def answerers(chain: ChainView, pending: UndoPending) -> list[str]:
    """The seats that still have to answer, in seat order."""
    return [s for s in chain.seat_order if s != pending.by and s not in pending.accepted]


def leaks(record: Record) -> str | None:
    """What in one file makes an undo across it leak, if anything."""
    body = record.body
    assert isinstance(body, TurnBody)  # a move, and the files after it, are turns
    if record.revealed or body.reveals:
        return "reveals a card"
    if body.deliveries:
        return "deals a card"
    if body.partials or body.sealed:
        return "decrypts a card"
    if record.chance:
        return "draws chance"
    if body.handover is not None:
        return "hands a seat over"
    return None


def refusal(chain: ChainView, by: str, target: int | None = None) -> str | None:
    """Why `by` may not ask to take back seq `target` now (None: it may).
    `target` None asks about its last decision file, whatever its seq."""
    if by not in chain.seats:
        return f"{by} has no seat: only a seat may ask for an undo"
    if chain.undo_pending is not None:
        return f"{chain.undo_pending.by}'s undo request of seq {chain.undo_pending.target} is still pending"
    if chain.outcome() is not None:
        return "the game is over"
    if chain.ballots or chain.voters():
        return "a vote is open: its ballots cannot be taken back"
    if chain.obligations():
        return "cards or answers are still owed since the last move: the undo would leak them"
    if not chain.moves:
        return "there is no move to take back"
    last = chain.moves[-1]
    owner = chain.records[last].by
    if owner != by:
        return f"the last move is {owner}'s (seq {last}): {by} may only take back its own last move"
    if target is not None and target != last:
        return f"seq {target} is not {by}'s last move (seq {last})"
    for record in chain.records[last:]:
        why = leaks(record)
        if why is not None:
            return f"seq {record.seq} {why}: taking back seq {last} would leak it"
    return None


def accept(chain: ChainView, outer: SignedFile, body: TurnBody, where: str) -> tuple[Head, Record]:
    """An undo request or answer: the head after it, and its record."""
    u = body.undo
    assert u is not None  # the chain calls this for a file with an undo
    pending = chain.undo_pending
    restore = None
    if u.what == "request":
        why = refusal(chain, body.by, u.target)
        if why is not None:
            raise ProtocolError(f"{body.by} may not ask to take back seq {u.target}: {why}")
        pending = UndoPending(body.by, u.target)
    else:
        if pending is None:
            raise ProtocolError(f"{body.by} answers an undo request, but none is pending")
        if body.by == pending.by:
            raise ProtocolError(f"{body.by} cannot answer its own undo request")
        if u.target != pending.target:
            raise ProtocolError(f"{body.by} answers an undo of seq {u.target}, but the request is of seq {pending.target}")
        if u.what == "refuse":
            pending = None
        else:
            pending = UndoPending(pending.by, pending.target, (*pending.accepted, body.by))
            if not answerers(chain, pending):
                restore, pending = chain.records[u.target].prior, None
    after = restore.public if restore is not None else chain.public
    if state_hash(after) != body.state:
        raise ProtocolError("the state it claims is not the state the undo leaves")
    # an undo goes back to a decision: no chance was waiting, no vote was open
    head = replace(restore, undo_pending=None, chance_answered=()) if restore is not None else \
        replace(chain.now, undo_pending=pending)
    return chain.accepted(outer, body, where, head, before=chain.public, after=head.public,
                          undone=u.target if restore is not None else None)
