"""A UTC time in a file or on the command line (`clock.parse_stamp`) reads
exactly as `time.strptime` reads it: its quick path for the zero-padded
stamps pbem writes must not accept or refuse anything differently."""

from __future__ import annotations

import calendar
import time

from hypothesis import given, strategies as st

from pbem.errors import PbemError
from pbem.protocol.clock import STAMP, parse_stamp, stamp


def by_strptime(text: str) -> int | None:
    try:
        return calendar.timegm(time.strptime(text, STAMP))
    except ValueError:
        return None


def by_pbem(text: str) -> int | None:
    try:
        return parse_stamp(text)
    except PbemError:
        return None


FIELD = st.integers(0, 99).map(lambda n: f"{n:02d}") | st.sampled_from(["1", "7", "٣", "00", "60", "61", "62"])
YEAR = st.integers(0, 9999).map(lambda n: f"{n:04d}") | st.sampled_from(["0000", "1", "99999", "٢٠٢٦"])


@given(YEAR, FIELD, FIELD, FIELD, FIELD, FIELD)
def test_every_shape_of_stamp_reads_as_strptime_reads_it(y, mo, d, h, mi, s):
    text = f"{y}-{mo}-{d}T{h}:{mi}:{s}Z"
    assert by_pbem(text) == by_strptime(text), text


@given(st.integers(0, 253402300799))
def test_every_stamp_pbem_writes_reads_back(t):
    assert parse_stamp(stamp(t)) == t


def test_leap_days_and_the_ends_of_months():
    assert by_pbem("2024-02-29T12:00:00Z") == by_strptime("2024-02-29T12:00:00Z") is not None
    assert by_pbem("2023-02-29T12:00:00Z") is None and by_pbem("2026-04-31T00:00:00Z") is None
