"""Keys through the CLI: wrong passphrases, loose permissions, damaged key
files, and a `--as` that names no seat or no key here. Each is one clear
line (exit 1, the game untouched) whose hint never tells the user to make a
key the game or the address book already holds."""

from __future__ import annotations

import os
import shutil

import pytest

from conftest import Pbem, snapshot


@pytest.fixture
def game(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1")
    return g


@pytest.fixture
def alices_machine(pbem, tmp_path):
    """A home with alice's private key and only bob's and rita's public identities."""
    other = Pbem(tmp_path / "alice-only")
    (other.home / "keys").mkdir(parents=True)
    shutil.copytree(pbem.home / "ids", other.home / "ids")
    shutil.copy2(pbem.home / "keys" / "alice.key", other.home / "keys" / "alice.key")
    return other


def no_new_key_hint(stderr: str) -> None:
    assert "id new" not in stderr, stderr


def test_wrong_or_missing_passphrase(pbem, tmp_path):
    pbem("id", "new", "dave", env={"PBEM_PASSPHRASE": "right horse"})
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "dave", "--seat", "bob", "--seed", "3")
    before = snapshot(g)
    r = pbem.fails("legal", g, "--as", "dave", env={"PBEM_PASSPHRASE": "wrong horse"})
    assert "pbem: error: wrong passphrase for key dave" in r.stderr
    r = pbem.fails("sync", g, "--as", "dave")
    assert "a passphrase is needed for dave" in r.stderr and "PBEM_PASSPHRASE" in r.stderr
    assert snapshot(g) == before


def test_a_person_at_a_terminal_has_three_tries_and_a_calm_hint(pbem, tmp_path):
    """Typed at a terminal, a wrong passphrase may be typed again, three
    times in all; then one error whose hint does not talk of damage. A
    script's $PBEM_PASSPHRASE is tried once (above)."""
    from ptyterm import Terminal, pbem_command, plain

    pbem("id", "new", "dave", env={"PBEM_PASSPHRASE": "right horse"})
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "dave", "--seat", "bob", "--seed", "3")
    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}
    env.update(PBEM_HOME=str(pbem.home), TERM="dumb")
    for answers, code in ((["wrong", "still wrong", "right horse"], 0), (["a", "b", "c"], 1)):
        term = Terminal([*pbem_command(), "legal", str(g), "--as", "dave"], env)
        try:
            term.expect("Passphrase for dave")
            for i, answer in enumerate(answers):
                term.send(answer)
                if i < 2:  # said, and asked again
                    assert f"try again ({2 - i} more tr" in plain(term.expect("Passphrase for dave"))
            got, rest = term.wait()
        finally:
            term.close()
        assert got == code, plain(rest)
        if code:
            assert "pbem: error: wrong passphrase for key dave" in plain(rest)
            assert "damaged" not in plain(rest) and "nothing was changed" in plain(rest)
        else:
            assert "discard" in plain(rest)


@pytest.mark.skipif(os.name != "posix", reason="mode bits are POSIX only")
def test_a_key_others_can_read_is_warned_about(pbem, game):
    key = pbem.home / "keys" / "alice.key"
    for mode in (0o644, 0o640):
        os.chmod(key, mode)
        r = pbem("show", game, "--as", "alice")
        warnings = [l for l in r.stderr.splitlines() if "can be read by other users" in l]
        assert len(warnings) == 1 and f"{mode:04o}" in warnings[0] and "chmod 600" in warnings[0], r.stderr
    os.chmod(key, 0o600)
    assert pbem("show", game, "--as", "alice").stderr == ""


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "an identity file", "bob's key", "a folder"])
def test_a_damaged_key_file_is_one_line_naming_it(pbem, game, damage):
    key = pbem.home / "keys" / "alice.key"
    data = key.read_bytes()
    key.unlink()
    if damage == "a folder":
        key.mkdir()
    else:
        key.write_bytes({
            "garbage": b"\x00\xffnot a key",
            "truncated": data[: len(data) // 2],
            "empty": b"",
            "an identity file": (pbem.home / "ids" / "alice.id").read_bytes(),
            "bob's key": (pbem.home / "keys" / "bob.key").read_bytes(),
        }[damage])
    before = snapshot(game)
    r = pbem.fails("submit", game, "--as", "alice", "--cmd", "recruit face-down")
    assert str(key) in r.stderr
    no_new_key_hint(r.stderr)
    assert snapshot(game) == before


def test_a_seat_whose_key_is_elsewhere(alices_machine, game):
    before = snapshot(game)
    r = alices_machine.fails("sync", game, "--as", "bob")
    assert "this machine has only bob's public identity, not bob's private key" in r.stderr
    no_new_key_hint(r.stderr)
    # not even in the address book: the seat's own key is named, not a new one
    (alices_machine.home / "ids" / "bob.id").unlink()
    (alices_machine.home / "ids" / "bob.seen").unlink()
    r = alices_machine.fails("show", game, "--as", "bob")
    assert "no private key of bob" in r.stderr and "bob's key in this game is" in r.stderr
    no_new_key_hint(r.stderr)
    assert snapshot(game) == before


def test_as_a_name_with_no_seat(pbem, alices_machine, game):
    before = snapshot(game)
    for who, p in (("carol", pbem), ("rita", pbem), ("rita", alices_machine)):
        r = p.fails("legal", game, "--as", who)
        assert f"{who} has no seat in this game (seats: alice, bob)" in r.stderr
        assert "your keys here that sit in it: alice" in r.stderr
        no_new_key_hint(r.stderr)
    r = pbem.fails("show", game, "--as", "dealer")
    assert "hotseat game's own dealer" in r.stderr and "dealer.key" in r.stderr
    assert snapshot(game) == before


def test_join_as_a_wrong_name(pbem, alices_machine, tmp_path):
    pbem("new", "aa", tmp_path / "a", "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    genesis = tmp_path / "a" / "000000-genesis.pbem"
    r = pbem.fails("join", tmp_path / "r", genesis, "--as", "rita")
    assert "rita has no seat" in r.stderr
    r = alices_machine.fails("join", tmp_path / "b", genesis, "--as", "bob")
    assert "only bob's public identity" in r.stderr
    no_new_key_hint(r.stderr)
    assert not (tmp_path / "r").exists() and not (tmp_path / "b").exists()
