"""Which file stands when two valid files claim the same place in the chain,
where a rule can say so (otherwise it is a fork, reported with both signers).

Some files may be written while another seat is to write: an undo request
(`pbem.protocol.undo`), a resignation, a pause, a peer seat's timeout claim
or its acceptance (`pbem.protocol.long_games`). Each can meet the file of the
seat that was to write on the same predecessor. Every verifier applies the
same rules (`settle`), whichever file arrives first:

1. **The seat that was to write stands over a file written out of turn.**
   An undo request, a resignation or a pause written out of turn is set
   aside (its writer may write it again on the new head); a timeout claim,
   or an acceptance of one, is answered by the accused's own move: the
   accused "answers with its own move before the others accept", and a
   move on the same predecessor is such an answer.
2. **A seat's resignation stands over its own other file on the same
   predecessor.** Both are signed by one seat, which made the fork itself;
   their signed times are both its own word, so "the first signed time"
   would let it pick the one it likes after the fact. A resignation cannot
   favour its writer (its side loses), so it is the one that stands.
3. **In a referee game the referee's timeout stands over the late seat's
   move**: the referee's time of receipt is the game's clock, and a move
   that reached the referee after its timeout came too late by it.

What is set aside (and every file that follows it) is read over, named in
a note and moved to ``DIR/set-aside/`` by the next writer
(`pbem.gamedir.set_aside`); nothing is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.protocol.formats import TurnBody
    from pbem.protocol.head import ChainView


def _out_of_turn(chain: ChainView, body: TurnBody, writers: list[str]) -> bool:
    """Whether `body` is a file rule 1 sets aside when a seat to write
    (`writers`) writes on the same predecessor: one by a seat not to write."""
    if body.by in writers:
        return False
    if body.undo is not None:
        return body.undo.what == "request" and chain.undo_pending is None
    if body.timeout is not None:
        return body.timeout.what in ("claim", "accept")
    return body.resign is not None or body.pause is not None


def _referee_timeout(chain: ChainView, body: TurnBody) -> bool:
    return chain.dealer_mode == "referee" and body.by == chain.dealer_name and body.timeout is not None


def settle(chain: ChainView, candidates: list[tuple[object, TurnBody]]) -> list[int] | None:
    """Of several signed files `(outer, body)` that claim the place after
    the head, the indices the rules set aside (the others: exactly one
    stands). None when no rule settles them (a fork)."""
    if any(body.prev != chain.head for _, body in candidates):
        return None
    writers = chain.writers()
    bodies = [body for _, body in candidates]
    aside = {i for i, body in enumerate(bodies) if _out_of_turn(chain, body, writers)}
    rest = [i for i in range(len(bodies)) if i not in aside]
    if len(rest) == 2:
        a, b = (bodies[i] for i in rest)
        if a.by == b.by and a.by in writers and (a.resign is None) != (b.resign is None):  # rule 2
            aside.add(rest[0] if a.resign is None else rest[1])
        elif _referee_timeout(chain, a) != _referee_timeout(chain, b):  # rule 3
            timeout, move = (a, b) if _referee_timeout(chain, a) else (b, a)
            assert timeout.timeout is not None  # `_referee_timeout` checked it
            if move.by == timeout.timeout.seat:
                aside.add(rest[0] if move is a else rest[1])
        rest = [i for i in rest if i not in aside]
    if not aside or len(rest) != 1 or (bodies[rest[0]].by not in writers and not _referee_timeout(chain, bodies[rest[0]])):
        return None
    return sorted(aside)


def note(chain: ChainView, lost: TurnBody, lost_name: str, stands: TurnBody, stands_name: str) -> str:
    """Why the file `lost_name` is set aside for `stands_name`, in a line."""
    if lost.by == stands.by:
        return (f"{lost_name} is set aside: {stands_name}, {stands.by}'s resignation on the same seq "
                f"{lost.seq}, stands over its own other file")
    if _referee_timeout(chain, stands):
        return (f"{lost_name} is set aside: {stands_name}, the referee's timeout of {lost.by}, stands over it "
                f"on seq {lost.seq} (the move reached the referee after it)")
    # set aside by rule 1 (`_out_of_turn`): an undo, a resignation, a pause or a timeout
    what = ("undo request" if lost.undo is not None else "resignation" if lost.resign is not None else
            "pause" if lost.pause is not None else
            "timeout claim" if lost.timeout is not None and lost.timeout.what == "claim" else
            "acceptance of a timeout claim")
    return (f"{lost_name}: {lost.by}'s {what}, written out of turn, is set aside: {stands_name} by {stands.by}, "
            f"who was to write, stands over it on seq {lost.seq}")
