"""The quick look of `check_limits` (issue #12): whatever it lets through
the exact scan lets through too, and files at the edges of each limit
still meet the exact scan."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto import limits
from pbem.crypto.limits import MAX_DEPTH, MAX_INT, MAX_ITEMS, check_limits
from pbem.errors import FormatError


def exact(data: bytes) -> bool:
    """The scan without the quick look."""
    saved = limits._within_at_a_glance
    limits._within_at_a_glance = lambda d: False
    try:
        check_limits(data)
        return True
    except FormatError:
        return False
    finally:
        limits._within_at_a_glance = saved


#: JSON-ish bytes rich in what the limits are about
PIECES = [b"[", b"]", b"{", b"}", b",", b'"', b"\\", b"1", b"-", b".", b"e", b"+", b"9" * 16, b'"a"', b":", b" "]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=120))
def test_the_quick_look_never_passes_what_the_scan_refuses(parts):
    data = b"".join(parts)
    if limits._within_at_a_glance(data):
        assert exact(data), data


@pytest.mark.parametrize("data, ok", [
    (b"[" * MAX_DEPTH + b"]" * MAX_DEPTH, True),
    (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), False),
    (b"{[" * (MAX_DEPTH // 2) + b"]}" * (MAX_DEPTH // 2), True),
    (b"[{" * (MAX_DEPTH // 2) + b"[]" + b"}]" * (MAX_DEPTH // 2), False),
    (b"[" + b"0," * (MAX_ITEMS - 1) + b"0]", True),
    (b"[" + b"0," * MAX_ITEMS + b"0]", False),
    (b"[%d]" % MAX_INT, True),
    (b"[%d]" % (MAX_INT + 1), False),
    (b"[1.0]", False),
    (b"[1e3]", False),
    (b'["[[[[1.5e9", 2]', True),  # brackets and numbers inside a string do not count
])
def test_edges_of_every_limit(data, ok):
    assert exact(data) == ok
    try:
        check_limits(data)
        assert ok
    except FormatError:
        assert not ok
