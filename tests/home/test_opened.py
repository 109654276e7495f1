"""A seat's opened deliveries kept for the next command (`pbem.home.opened`,
issue #26 target 1): the next process decrypts nothing it opened before,
the file is readable only with the seat's own private key, and what it
holds is still checked against the chain's commitments."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import Pbem, aa_after
from pbem.gamedir import status_memo
from pbem.home import checkpoint_seal, opened
from pbem.home.store import KeyStore
from pbem.protocol import dealer
from pbem.protocol.file_parts import Opening


@pytest.fixture
def opens(monkeypatch) -> list[bytes]:
    """Every delivery or memo decrypted, as a new process sees them (no memory of the last command)."""
    seen: list[bytes] = []
    real = dealer.open_openings

    def counting(envelope, secret, ad):
        seen.append(ad)
        return real(envelope, secret, ad)

    monkeypatch.setattr(dealer, "open_openings", counting)
    monkeypatch.setattr(dealer, "_OPENED", {})
    monkeypatch.setattr(opened, "_KEPT", {})
    monkeypatch.setattr(dealer, "remembered", None)
    monkeypatch.setattr(status_memo, "WHERE_TRUSTED", False)  # every command computed: no words from memory
    return seen


def new_process(monkeypatch) -> None:
    """What a command's end and the next command's start do."""
    opened.save()
    monkeypatch.setattr(dealer, "_OPENED", {})
    monkeypatch.setattr(opened, "_KEPT", {})


@pytest.fixture
def game(pbem: Pbem, tmp_path: Path) -> Path:
    return aa_after(pbem, tmp_path / "g", moves=4, seed=5)


def test_the_next_command_decrypts_nothing_it_opened_before(pbem, game, opens, monkeypatch):
    first = pbem("show", game, "--as", "alice").output
    assert opens  # the hand dealt to alice, opened
    new_process(monkeypatch)
    opens.clear()
    assert pbem("show", game, "--as", "alice").output == first and not opens
    # bob's deliveries are bob's: opened with his key, kept in a file of his own
    pbem("show", game, "--as", "bob")
    assert opens
    opened.save()
    assert len(list((pbem.home / "checkpoints").glob("*.opened"))) == 2


def test_the_file_opens_only_with_its_own_key(pbem, game, opens, monkeypatch):
    hand = pbem("show", game, "--as", "alice").output
    pbem("show", game, "--as", "bob")
    new_process(monkeypatch)
    store = KeyStore(pbem.home)
    alice, bob = store.secret("alice", lambda: ""), store.secret("bob", lambda: "")
    monkeypatch.setenv("PBEM_HOME", str(pbem.home))
    mine, theirs = opened._path(alice), opened._path(bob)
    raw = mine.read_bytes()
    cards = {line.split()[-1] for line in hand.splitlines() if line.strip()}
    assert not any(c.encode() in raw for c in cards if len(c) > 4)
    # bob's file in alice's place: it does not open, and alice's deliveries are opened again
    shutil.copy(theirs, mine)
    opens.clear()
    assert pbem("show", game, "--as", "alice").output == hand and opens
    # doctored, then sealed again with this user's own checkpoint key: refused by its cipher
    new_process(monkeypatch)
    raw = bytearray(mine.read_bytes())
    raw[len(opened.MAGIC) + 40] ^= 1
    checkpoint_seal.sealed_write(mine, bytes(raw[:-32]), light=True)
    opens.clear()
    assert pbem("show", game, "--as", "alice").output == hand and opens


def test_what_the_file_holds_is_still_checked_against_the_commitments(pbem, game, opens, monkeypatch):
    pbem("show", game, "--as", "alice")
    new_process(monkeypatch)
    store = KeyStore(pbem.home)
    alice = store.secret("alice", lambda: "")
    monkeypatch.setenv("PBEM_HOME", str(pbem.home))
    path = opened._path(alice)
    entries = opened._read(alice, path)
    assert entries
    # written with alice's own key (only her pbem could): every card swapped for another
    swapped = {d: [Opening(ref=o.ref, card="Double Agent" if o.card != "Double Agent" else "Codebreaker",
                           salt=o.salt) for o in ops] for d, ops in entries.items()}
    opened._write(alice, path, swapped)
    result = pbem("show", game, "--as", "alice", ok=False)
    assert result.exit_code == 1 and "commit" in result.output.lower()


def test_a_command_that_opened_nothing_new_writes_nothing(pbem, game, opens, monkeypatch):
    pbem("show", game, "--as", "alice")
    new_process(monkeypatch)
    store = KeyStore(pbem.home)
    monkeypatch.setenv("PBEM_HOME", str(pbem.home))
    path = opened._path(store.secret("alice", lambda: ""))
    before = path.stat().st_mtime_ns, path.stat().st_ino
    pbem("show", game, "--as", "alice")
    opened.save()
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == before


def test_no_file_is_left_in_a_home_gone_before_the_process_ends(tmp_path, monkeypatch, opens):
    pbem = Pbem(tmp_path / "home")
    for name in ("alice", "bob"):
        pbem("id", "new", name, "--no-passphrase")
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "5")
    pbem("show", g, "--as", "alice")
    shutil.rmtree(tmp_path / "home")
    opened.save()  # the process's end, after its home went (a test's)
    assert not (tmp_path / "home").exists()


def test_a_broken_file_is_never_an_error(pbem, game, opens, monkeypatch):
    words = pbem("show", game, "--as", "alice").output
    new_process(monkeypatch)
    for path in (pbem.home / "checkpoints").glob("*.opened"):
        path.write_bytes(b"pbem-opened/1\ngarbage")
    assert pbem("show", game, "--as", "alice").output == words
