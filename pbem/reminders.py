"""Reminders of the clock (`pbem watch`, `pbem referee watch`, `pbem
referee mail`): a seat is reminded to move once a set share of the time
it had when its turn began is gone, and everyone is told when a seat's
deadline passes.

Each reminder has a key naming the seat, the start of its turn and the
kind, so a watcher gives it once per seat per turn however often it
looks (the mail referee keeps the keys it mailed in its home: once per
seat per turn across its runs), and none once the seat has moved (its
turn, and so the key, is over). Seats the referee plays for are reminded
of nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.protocol import clock as clock_mod

if TYPE_CHECKING:
    from pbem.protocol.chain import Chain

#: the share of its time a seat has used when it is reminded, by default
SHARE = 75


@dataclass(frozen=True)
class Reminder:
    seat: str
    #: True: the seat's deadline passed (for everyone); False: a reminder to the seat
    late: bool
    key: str
    line: str


def due(chain: Chain, at: int | None = None, share: int = SHARE) -> list[Reminder]:
    """The reminders due at `at` (now by default) in `chain`."""
    clocks = clock_mod.compute(chain)
    if clocks is None or chain.outcome() is not None:
        return []
    at = clock_mod.now() if at is None else at
    out = []
    for seat in sorted(clocks.since, key=chain.seat_order.index):
        if seat in chain.now.absent or clocks.paused(at):
            continue
        left, bank, since = clocks.left(seat, at), clocks.bank[seat], clocks.since[seat]
        if left <= 0:
            out.append(Reminder(seat, True, f"late {seat} {since}",
                                f"{seat}'s time ran out at {clock_mod.stamp(clocks.deadline(seat))}"))
        elif (bank - left) * 100 >= share * bank:
            out.append(Reminder(seat, False, f"remind {seat} {since}",
                                f"{seat} to move in {chain.game.info.title}: {clock_mod.words(left)} left"))
    return out
