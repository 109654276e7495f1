"""The clocks in words (`pbem status`, the watchers' reminders): who is to
move and how long it has left, pauses, a pending timeout claim, the seats
the referee plays for, and notes on times that go backwards or lie ahead
(`pbem.protocol.clock` computes them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.protocol import clock as clock_mod

if TYPE_CHECKING:
    from pbem.protocol.chain import Chain


def clock_lines(chain: Chain, at: int | None = None) -> list[str]:
    """`pbem status`'s words on the clocks: who is to move and how long
    it has left, the pauses, the pending claim, the seats the referee
    plays for, and notes on times that went backwards or lie ahead."""
    from pbem.protocol import long_games  # only for games with a pace

    clocks = clock_mod.compute(chain)
    if clocks is None:
        return []
    at = clock_mod.now() if at is None else at
    lines = []
    if chain.outcome() is None:
        for seat in sorted(clocks.since, key=chain.seat_order.index):
            left = clocks.left(seat, at)
            if left > 0:
                lines.append(f"{seat} to move, {clock_mod.words(left)} left")
            else:
                lines.append(f"{seat} to move, out of time since {clock_mod.stamp(clocks.deadline(seat))}"
                             + (" (the referee may act: pbem timeout)" if chain.mode.name == "referee" else
                                " (another seat may claim it: pbem timeout)" if chain.mode.name == "peer" else ""))
        for who, start, end in clocks.paused(at):
            lines.append(f"paused by {who} until {clock_mod.stamp(end)}: every clock is stopped")
        claim = chain.now.claim
        if claim is not None:
            lines.append(f"{claim.by} claims {claim.seat}'s time is out (on {claim.at}); {claim.seat} may answer "
                         f"with a move, else waiting for {', '.join(long_games.claim_acceptors(chain))} to accept")
    for seat in sorted(chain.now.absent):
        lines.append(f"{seat} is absent: the referee's bot plays for it")
    return lines + clocks.notes + clock_mod.ahead_notes(clocks, at)


def file_words(record) -> list[str]:
    """What a long-game file did, in `pbem log`'s words."""
    body = record.body
    if record.outer.by != record.by:
        return [f"(played for {record.by} by the referee {record.outer.by}'s bot: {record.by} is absent)"]
    if body.resign is not None:
        return ["resigns" + (f" ({body.resign.note})" if body.resign.note else "")]
    if body.pause is not None:
        return [f"announces a pause from {body.pause.start} to {body.pause.end}: every clock stops"]
    t = body.timeout
    if t is None:
        return []
    return [{
        "claim": f"claims that {t.seat}'s time is out ({t.seat} may answer with a move)",
        "accept": f"accepts the claim that {t.seat}'s time is out",
        "abandon": f"ends the game as abandoned: {t.seat}'s time is out"
                   + (f" (counted from the referee's receipt at {t.since})" if t.since else ""),
    }[t.what]]
