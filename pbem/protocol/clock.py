"""The clocks of a game with an agreed pace, as far as signed files prove them.

There is no server, so there is no trusted time. Every file of a protocol
version 6 game carries its writer's signed time (`TurnBody.at`): what the
writer claims, no more. The clocks are computed from those claims alone,
the same way by every verifier (never from the machine's own clock, which
differs from one verifier to the next); only `pbem status` and the
watchers compare them with "now" (`now`, which tests set with
``PBEM_NOW``). A time that goes backwards counts as the time before it,
with a note; nothing is lost. What a referee or a claimant may conclude
from them is `pbem.protocol.long_games`'s business (docs/security.md,
"Time and absence").

The clock of each seat (`Pace`): it starts with `start` seconds; it runs
while the rules wait for the seat's move, from the time of the file that
made it the seat's move, until the file after which they wait for it no
longer (a turn of several files, in Codex, is one turn); then it has the
time it had less the time used, and `increment` more, never above `cap`.
Announced pauses stop every clock. (A seat alone at the table is always
to move: its clock never stops.)
"""

from __future__ import annotations

import os
import re
import time
from typing import TYPE_CHECKING, Literal, cast

import msgspec

from pbem.errors import InvalidOption, PbemError

if TYPE_CHECKING:
    from pbem.protocol.long_parts import Pace
    from pbem.games.base import GameState
    from pbem.protocol.formats import TurnBody
    from pbem.protocol.head import ChainView

STAMP = "%Y-%m-%dT%H:%M:%SZ"
DAY = 86400
#: a file dated more than this after the reader's clock gets a note
AHEAD = DAY
_UNITS = {"w": 7 * DAY, "d": DAY, "h": 3600, "m": 60}


def now() -> int:
    """The time now, in seconds: ``PBEM_NOW`` (a UTC time or seconds since
    1970) when set, so that tests and examples never sleep."""
    fixed = os.environ.get("PBEM_NOW")
    if fixed:
        try:
            return int(fixed) if fixed.isdigit() else parse_stamp(fixed)
        except PbemError:
            raise InvalidOption(f"PBEM_NOW={fixed!r} is neither a UTC time (2026-12-02T09:00:00Z) nor seconds") from None
    return int(time.time())


def stamp(t: int) -> str:
    return time.strftime(STAMP, time.gmtime(t))


_PADDED = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z", re.ASCII)


def parse_stamp(text: str) -> int:
    # every stamp pbem writes is zero-padded: read at once with `datetime`
    # (`time.strptime` costs a writing command 1.3 ms to import its parser,
    # `calendar` half a millisecond); anything else (a leap second, an
    # unpadded field) `strptime` accepts or refuses exactly as before
    m = _PADDED.fullmatch(text)
    if m is not None:
        from datetime import datetime, timezone

        y, mo, d, h, mi, s = map(int, m.groups())
        if s <= 59:
            try:
                return int(datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc).timestamp())
            except (ValueError, OverflowError):
                pass  # refused below, in strptime's words
    import calendar

    try:
        return calendar.timegm(time.strptime(text, STAMP))
    except ValueError:
        raise InvalidOption(f"{text!r} is not a UTC time like 2026-12-02T09:00:00Z") from None


def parse_when(text: str, base: int) -> int:
    """A time given on the command line: a UTC time, a date (midnight
    UTC), or a duration from `base` ("3d", "12h")."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return parse_stamp(text + "T00:00:00Z")
    if "T" in text:
        return parse_stamp(text)
    return base + parse_duration(text)


def parse_duration(text: str) -> int:
    """ "3d", "12h", "1d12h", "90m", "2w" -> seconds."""
    parts = re.findall(r"(\d+)([wdhm])", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise InvalidOption(f"{text!r} is not a duration like 3d, 12h, 1d12h or 90m")
    return sum(int(n) * _UNITS[u] for n, u in parts)


def parse_pace(text: str, pause: str | None = None, absent: Literal["none", "bot", "abandon"] = "none") -> Pace:
    """``--pace``: "3d" (3 days to each move), or START+INCREMENT/CAP
    ("72h+12h/120h": 72 hours to begin with, 12 more per move, 120 at
    most; the cap may be left out)."""
    from pbem.protocol.long_parts import Pace

    m = re.fullmatch(r"([0-9wdhm]+)(?:\+([0-9wdhm]+)(?:/([0-9wdhm]+))?)?", text)
    if m is None:
        raise InvalidOption(f"--pace {text!r}: give 3d (3 days to each move) or START+INCREMENT/CAP like 72h+12h/120h")
    start = parse_duration(m[1])
    cap: int | None
    if m[2] is None:
        increment, cap = start, start
    else:
        increment, cap = parse_duration(m[2]), parse_duration(m[3]) if m[3] else None
    if start < 60 or (cap is not None and cap < start):
        raise InvalidOption(f"--pace {text!r}: a clock starts with a minute at least, and its cap is no less than its start")
    return Pace(start=start, increment=increment, cap=cap,
                pause_limit=parse_duration(pause) if pause else 0, absent=absent)


def words(seconds: int) -> str:
    """ "2 days 4 hours", "3 hours 10 minutes", "5 minutes"."""
    seconds = (max(0, seconds) + 30) // 60 * 60  # to the nearest minute: "3 days" a second after it began
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60

    def n(k: int, unit: str) -> str:
        return f"{k} {unit}{'s' if k != 1 else ''}"

    if days:
        return n(days, "day") + (f" {n(hours, 'hour')}" if hours else "")
    if hours:
        return n(hours, "hour") + (f" {n(minutes, 'minute')}" if minutes else "")
    return n(minutes, "minute")


class Clocks(msgspec.Struct):
    """The clocks at the head of a chain (`compute`)."""

    pace: Pace
    #: seconds left on each seat's clock when its turn began (or now, for
    #: a seat not to move)
    bank: dict[str, int]
    #: the seats whose clocks run, and the time their turn began
    since: dict[str, int]
    #: every announced pause: (seat, start, end)
    pauses: list[tuple[str, int, int]]
    #: the time of the last file (its writer's claim, never earlier than
    #: the one before)
    last: int
    #: what a reader should be told (a time that went backwards)
    notes: list[str] = msgspec.field(default_factory=list)
    #: (seq, writer, its time) of every file with a time
    stamps: list[tuple[int, str, int]] = msgspec.field(default_factory=list)

    def stopped(self, start: int, end: int) -> int:
        """Seconds of [start, end) during which a pause stopped the clocks."""
        spans = sorted((max(s, start), min(e, end)) for _, s, e in self.pauses if e > start and s < end)
        total, reach = 0, start
        for s, e in spans:
            s = max(s, reach)
            if e > s:
                total, reach = total + e - s, e
        return total

    def used(self, seat: str, at: int) -> int:
        return max(0, at - self.since[seat]) - self.stopped(self.since[seat], at)

    def left(self, seat: str, at: int) -> int:
        """Seconds `seat` has left at `at` (negative: its time is out)."""
        if seat not in self.since:
            return self.bank[seat]
        return self.bank[seat] - self.used(seat, at)

    def deadline(self, seat: str, since: int | None = None) -> int:
        """When `seat`'s clock runs out (its turn counted from `since`, a
        referee's time of receipt, when that is later than the file's own)."""
        start = max(self.since[seat], since or 0)
        end = start + self.bank[seat]
        for s, e in sorted((s, e) for _, s, e in self.pauses):
            if e > start and s < end:
                end += e - max(s, start)
        return end

    def paused(self, at: int) -> list[tuple[str, int, int]]:
        return [p for p in self.pauses if p[1] <= at < p[2]]

    def paused_by(self, seat: str) -> int:
        return sum(e - s for who, s, e in self.pauses if who == seat)


def movers(chain: ChainView, state: GameState | None) -> set[str]:
    """The seats whose move the rules wait for in `state` (a vote: its voters)."""
    if state is None or chain.game.outcome(state) is not None:
        return set()
    return set(chain.game.to_act(state)) | set(chain.game.simultaneous(state))


def compute(chain: ChainView) -> Clocks | None:
    """The clocks at the head of `chain`; None when it has no agreed pace."""
    pace = chain.genesis.pace
    if pace is None:
        return None
    last = parse_stamp(chain.genesis.created_at)
    clocks = Clocks(pace, {s: pace.start for s in chain.seat_order}, {}, [], last)
    moving = movers(chain, chain.records[0].after)
    clocks.since = {s: last for s in moving}
    ended = False
    for rec in chain.records[1:]:
        body = cast("TurnBody", rec.body)  # only the genesis, records[0], is not a turn
        t = clocks.last
        if body.at is not None:
            t = parse_stamp(body.at)
            clocks.stamps.append((rec.seq, rec.by, t))
            if t < clocks.last:
                clocks.notes.append(f"seq {rec.seq} by {rec.by} is dated {body.at}, before the file it follows "
                                    f"({stamp(clocks.last)}): counted as {stamp(clocks.last)}, nothing else changes")
                t = clocks.last
        clocks.last = t
        if body.pause is not None:
            clocks.pauses.append((rec.by, parse_stamp(body.pause.start), parse_stamp(body.pause.end)))
        ended = ended or rec.ends
        now_moving = set() if ended else (movers(chain, rec.after) if rec.after is not None else set(clocks.since))
        for seat in list(clocks.since):
            if seat not in now_moving:
                left = clocks.left(seat, t)
                top = max(0, left) + pace.increment
                clocks.bank[seat] = top if pace.cap is None else min(pace.cap, top)
                del clocks.since[seat]
        for seat in now_moving - set(clocks.since):
            clocks.since[seat] = t
    return clocks


def ahead_notes(clocks: Clocks, at: int) -> list[str]:
    """Notes on files dated well after `at` (the reader's clock): a
    writer's claim, which this reader cannot believe."""
    return [f"seq {seq} by {by} is dated {stamp(t)}, {words(t - at)} after this machine's clock: "
            "a time is only its writer's claim" for seq, by, t in clocks.stamps if t > at + AHEAD]


def file_time(chain: ChainView) -> str | None:
    """The time a writer signs into its file (`TurnBody.at`): now, in a
    game of protocol version 6 or later; None (no field) before."""
    return stamp(now()) if chain.version.long_games else None
