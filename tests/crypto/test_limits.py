"""No input crashes pbem: every file is checked against the limits of the
format before any decoder sees it, and bad paths are one-line errors.

Each crash found while attacking pbem (issue 7, part 5) has a test here
through the CLI; none of them may end in the bridge's "internal error".
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import introduced, snapshot
from doctor import hotseat_dealer_key, resign_genesis
from pbem.app import creating
from pbem.crypto.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_INT, MAX_ITEMS, MAX_STRING, check_limits
from pbem.errors import FormatError
from paths import ROOT

DEEP = b'{"format":"pbem/1","kind":"turn","by":"a","body":' + b"[" * 1000 + b"]" * 1000 + b',"sig":""}\n'


def one_line_error(result, *words: str) -> str:
    """The CLI refused with exit 1 and one `pbem: error:` line that is not
    the bridge's last-resort 'internal error', naming what is wrong."""
    assert result.exit_code == 1, (result.exit_code, result.output)
    errors = [line for line in result.stderr.splitlines() if line.startswith("pbem: error:")]
    assert len(errors) == 1, result.stderr
    assert "internal error" not in errors[0] and "Traceback" not in result.output
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]


@pytest.fixture
def game(pbem, tmp_path) -> Path:
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1")
    return g


# --- the limits themselves --------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"[" * MAX_DEPTH + b"]" * MAX_DEPTH,
        b"[" + b"1," * (MAX_ITEMS - 1) + b"1]",
        b"{" + b'"a":1,' * (MAX_ITEMS - 1) + b'"b":1}',
        b'"' + b"a" * MAX_STRING + b'"',
        b"[%d,-%d]" % (MAX_INT, MAX_INT),
        b'["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "1.5", "\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]',  # inside strings: text
    ],
)
def test_within_the_limits(data: bytes) -> None:
    check_limits(data)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "nested more than"),
        (b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1), "nested more than"),
        (b'["\\\\",' + b"[" * MAX_DEPTH, "nested more than"),  # an escaped backslash ends the string
        (b"[" + b"1," * MAX_ITEMS + b"1]", f"more than {MAX_ITEMS} items"),
        (b"{" + b'"a":1,' * MAX_ITEMS + b'"b":1}', f"more than {MAX_ITEMS} items"),
        (b'"' + b"a" * (MAX_STRING + 1) + b'"', "string longer"),
        (b"[%d]" % (MAX_INT + 1), "integer out of range"),
        (b"[-%d]" % (MAX_INT + 1), "integer out of range"),
        (b"[" + b"9" * 400 + b"]", "integer out of range"),
        (b"[1.5]", "no floats"),
        (b"[1e3]", "no floats"),
        (b" " * (MAX_FILE_BYTES + 1), "too large"),
    ],
)
def test_beyond_the_limits(data: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        check_limits(data)


# --- deep nesting: apply, id import, verify, status ---------------------------------


def test_a_deeply_nested_file_is_refused_by_every_command(pbem, game, tmp_path):
    before = snapshot(game)
    deep = tmp_path / "deep.pbem"
    deep.write_bytes(DEEP)
    one_line_error(pbem("apply", game, deep, ok=False), "deep.pbem", "nested")
    assert snapshot(game) == before
    ident = tmp_path / "deep.id"
    ident.write_bytes(b'{"format":"pbem/1","kind":"identity","body":' + b"[" * 1000 + b"]" * 1000 + b"}")
    one_line_error(pbem("id", "import", ident, ok=False), "nested")
    (game / "000001-alice.pbem").write_bytes(DEEP)
    for command in ("verify", "status", "log"):
        one_line_error(pbem(command, game, ok=False), "000001-alice.pbem", "nested")


def test_a_huge_file_is_refused(pbem, game, tmp_path):
    big = tmp_path / "big.pbem"
    big.write_bytes(b"{" + b" " * MAX_FILE_BYTES + b"}")
    before = snapshot(game)
    one_line_error(pbem("apply", game, big, ok=False), "too large")
    one_line_error(pbem("id", "import", big, ok=False), "too large")
    assert snapshot(game) == before


def test_a_deep_file_in_a_folder_through_a_real_process(pbem, game):
    (game / "000001-alice.pbem").write_bytes(DEEP)
    env = {**os.environ, "PBEM_HOME": str(pbem.home)}
    env.pop("PBEM_DEBUG", None)
    r = subprocess.run([sys.executable, "-m", "pbem", "status", str(game)], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith("pbem: error: ") and "nested" in r.stderr and "internal" not in r.stderr, r.stderr


# --- a re-signed genesis: a huge integer, a missing zone ------------------------------


@pytest.mark.parametrize("field", ["turn", "next_ref", "home", "position"])
def test_join_refuses_a_genesis_with_a_huge_integer(tmp_path, field):
    keys = introduced(tmp_path, ["alice", "bob"])
    # a hotseat genesis holds its set-up (peer and referee games are set up after their joins)
    creating.new_game("aa", tmp_path / "a", ["alice", "bob"], keys["alice"], "hotseat")
    genesis = (tmp_path / "a" / "000000-genesis.pbem").read_bytes()

    def huge(initial):
        value = initial[field]
        initial[field] = {k: 10**30 for k in value} if isinstance(value, dict) else 10**30

    bad = tmp_path / "bad.pbem"
    bad.write_bytes(resign_genesis(genesis, hotseat_dealer_key(tmp_path / "a"), huge, rehash=False))
    from conftest import Pbem

    run = Pbem(tmp_path / "home-bob")
    one_line_error(run("join", tmp_path / "b", bad, "--as", "bob", ok=False), "integer out of range")
    assert not (tmp_path / "b").exists()


def test_a_genesis_with_a_huge_integer_in_a_folder(pbem, game):
    data = resign_genesis((game / "000000-genesis.pbem").read_bytes(), hotseat_dealer_key(game),
                          lambda i: i.update(turn=10**30), rehash=False)
    (game / "000000-genesis.pbem").write_bytes(data)
    for args in (("status", game), ("show", game, "--as", "alice"), ("legal", game, "--as", "alice"), ("verify", game)):
        one_line_error(pbem(*args, ok=False), "integer out of range")


def test_a_genesis_with_a_missing_zone(pbem, game):
    data = resign_genesis((game / "000000-genesis.pbem").read_bytes(), hotseat_dealer_key(game),
                          lambda i: i["zones"].pop("play:alice"))
    (game / "000000-genesis.pbem").write_bytes(data)
    (game / "state.pbem").unlink()
    for args in (("status", game), ("show", game, "--as", "alice"), ("legal", game, "--as", "bob")):
        one_line_error(pbem(*args, ok=False), "not the rules' set-up", "zones.play:alice")


# --- paths: a file where a folder is expected, a folder where a file is -------------


def test_a_file_where_a_folder_is_expected(pbem, game, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    one_line_error(pbem("new", "aa", afile / "g", "--seat", "alice", "--seat", "bob", ok=False), "cannot create the folder")
    for args in (("status", afile / "g"), ("verify", afile / "g"), ("apply", afile / "g", game / "000000-genesis.pbem")):
        one_line_error(pbem(*args, ok=False), "not a game folder")
    one_line_error(pbem("id", "import", afile / "x", ok=False), "cannot read")


def test_a_state_file_that_is_a_folder(pbem, game):
    (game / "state.pbem").unlink()
    (game / "state.pbem").mkdir()
    one_line_error(pbem("verify", game, ok=False), "state.pbem", "folder")
    one_line_error(pbem("verify", game, "--repair", ok=False), "state.pbem", "folder")
    assert (game / "state.pbem").is_dir()
    assert not [p for p in game.iterdir() if p.name.endswith(".tmp")]


def test_a_chain_file_that_is_a_folder(pbem, game):
    (game / "000001-alice.pbem").mkdir()
    one_line_error(pbem("status", game, ok=False), "000001-alice.pbem is a folder")


def test_the_real_files_are_far_within_the_limits():
    """The limits leave room: every example and vector file is well inside."""
    root = ROOT
    files = [p for d in ("examples", "tests/vectors") for p in (root / d).rglob("*.pbem")]
    assert files
    for path in files:
        check_limits(path.read_bytes(), path.name)
