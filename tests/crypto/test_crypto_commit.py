"""Commitments: binding, hiding (salted), strict about salts."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.crypto.commit import check_opening, commit, new_salt
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.errors import CommitmentError, FormatError

SALT = bytes(range(32))


def test_known_answer() -> None:
    expected = hashlib.sha256(b"pbem/1 commit" + SALT + b'"Enforcer"').digest()
    assert commit(SALT, canonical("Enforcer")) == b64e(expected)


@given(st.binary(min_size=32, max_size=32), st.binary(max_size=100))
def test_round_trip(salt: bytes, item: bytes) -> None:
    c = commit(salt, item)
    assert len(b64d(c)) == 32
    check_opening(c, salt, item)


def test_wrong_item() -> None:
    c = commit(SALT, b"Enforcer")
    with pytest.raises(CommitmentError):
        check_opening(c, SALT, b"Saboteur")
    with pytest.raises(CommitmentError):
        check_opening(c, SALT, b"Enforcer ")


def test_wrong_salt() -> None:
    c = commit(SALT, b"Enforcer")
    with pytest.raises(CommitmentError):
        check_opening(c, bytes(32), b"Enforcer")


def test_salt_item_boundary_is_fixed() -> None:
    # the salt has a fixed length, so bytes cannot move between salt and item
    c = commit(SALT, b"x")
    with pytest.raises(FormatError):
        check_opening(c, SALT + b"x", b"")
    with pytest.raises(FormatError):
        check_opening(c, SALT[:31], SALT[31:] + b"x")


@pytest.mark.parametrize("salt", [b"", bytes(31), bytes(33), "x" * 32])
def test_salt_must_be_32_bytes(salt: bytes) -> None:
    with pytest.raises(FormatError):
        commit(salt, b"item")  # type: ignore[arg-type]
    with pytest.raises(FormatError):
        check_opening(commit(SALT, b"item"), salt, b"item")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["", "AAAA", "not base64!", b64e(bytes(31)), b64e(bytes(32)) + "="])
def test_malformed_commitment(bad: str) -> None:
    with pytest.raises(FormatError):
        check_opening(bad, SALT, b"item")


def test_salts_are_fresh() -> None:
    salts = {new_salt() for _ in range(20)}
    assert len(salts) == 20
    assert all(len(s) == 32 for s in salts)


def test_same_item_different_salts_hide_it() -> None:
    assert commit(new_salt(), b"Enforcer") != commit(new_salt(), b"Enforcer")
