"""`pbem legal` and `pbem show` answered from memory
(`pbem.gamedir.seat_memo`, issue #26 target 1): an unchanged game prints
the words of the last full command; a seat's words are kept encrypted
under a key only that seat's private key gives, so neither another seat of
the same home, nor a doctored or foreign memo, nor a key locked again,
ever yields them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import Pbem
from pbem.gamedir import seat_memo
from pbem.home import checkpoint_seal
from pbem.home.agent import Client
from pbem.home.store import KeyStore


@pytest.fixture
def game(pbem: Pbem, tmp_path: Path) -> Path:
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "5")
    return g


FORMS = (("legal", "--as", "alice"), ("legal", "--as", "alice", "--json"), ("show", "--as", "alice"),
         ("show", "--as", "alice", "--json"), ("show",), ("show", "--json"), ("legal", "--as", "bob"))


def test_each_form_is_computed_once_then_answered_from_memory(pbem, game, memo_settled, chain_loads):
    first = {form: pbem(*form[:1], game, *form[1:]).output for form in FORMS}
    assert len(chain_loads) == len(FORMS)
    again = {form: pbem(*form[:1], game, *form[1:]).output for form in FORMS}
    assert again == first and len(chain_loads) == len(FORMS)  # every form from memory, word for word
    assert "play " in first[FORMS[0]] and "bob has nothing to do now" in first[FORMS[-1]]
    # a new file: every form computed afresh, with new words
    pbem("submit", game, "--as", "alice", "--cmd", pbem.json("legal", game, "--as", "alice")[0])
    chain_loads.clear()
    after = {form: pbem(*form[:1], game, *form[1:]).output for form in FORMS}
    assert len(chain_loads) == len(FORMS) and after[FORMS[2]] != first[FORMS[2]]


def test_a_seats_words_are_not_in_its_memo_in_clear_nor_open_to_another_seat(pbem, game, memo_settled, chain_loads,
                                                                                 monkeypatch):
    hand = pbem("show", game, "--as", "alice").output
    monkeypatch.setenv("PBEM_HOME", str(pbem.home))
    memo = seat_memo.path_for(game, "alice")
    raw = memo.read_bytes()
    assert hand.encode() not in raw and b"alice" not in raw and b"play " not in raw
    # alice's memo in bob's place (the same home: a hotseat): bob's key does not open it
    pbem("show", game, "--as", "bob")
    bobs = seat_memo.path_for(game, "bob")
    shutil.copy(memo, bobs)
    chain_loads.clear()
    bob_sees = pbem("show", game, "--as", "bob").output
    assert chain_loads and bob_sees != hand
    # a doctored memo sealed again with this user's own checkpoint key: refused by its cipher
    raw = bytearray(memo.read_bytes())
    raw[len(seat_memo.MAGIC) + 30] ^= 1
    checkpoint_seal.sealed_write(memo, bytes(raw[:-32]), light=True)
    chain_loads.clear()
    assert pbem("show", game, "--as", "alice").output == hand and chain_loads
    # another folder's memo for the same seat put in this folder's place
    other = game.parent / "h"
    pbem("new", "aa", other, "--seat", "alice", "--seat", "bob", "--seed", "6")
    pbem("show", other, "--as", "alice")
    shutil.copy(seat_memo.path_for(other, "alice"), memo)
    chain_loads.clear()
    assert pbem("show", game, "--as", "alice").output == hand and chain_loads


def test_a_key_given_a_passphrase_is_never_answered_from_its_old_memo(pbem, game, memo_settled, chain_loads, monkeypatch):
    words = pbem("legal", game, "--as", "alice").output
    store = KeyStore(pbem.home)
    secret = store.secret("alice", lambda: "")
    from pbem.crypto.keys import secret_key_file

    store.key_path("alice").write_bytes(secret_key_file(secret, "a long passphrase", scrypt_n=2**10))
    chain_loads.clear()
    assert "a passphrase is needed" in pbem.fails("legal", game, "--as", "alice").stderr
    assert pbem("legal", game, "--as", "alice", env={"PBEM_PASSPHRASE": "a long passphrase"}).output == words
    chain_loads.clear()
    pbem("legal", game, "--as", "alice", env={"PBEM_PASSPHRASE": "a long passphrase"})
    assert chain_loads  # no agent holds it: nothing remembered for a locked key, the passphrase asked each time


def test_with_the_agent_holding_a_locked_key_its_words_come_from_memory(tmp_path, memo_settled, chain_loads, monkeypatch):
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    home = tmp_path / "h"
    for n in ("alice", "bob"):
        KeyStore(home).create(n, "pass-" + n)
    run = Pbem(home)
    g = tmp_path / "g"
    run("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1")
    started = subprocess.run([sys.executable, "-m", "pbem", "agent", "--timeout", "10m"], capture_output=True,
                             text=True, env={**os.environ, "PBEM_HOME": str(home)}, stdin=subprocess.DEVNULL,
                             timeout=60)
    assert started.returncode == 0, started.stderr
    try:
        words = run("legal", g, "--as", "alice", env={"PBEM_PASSPHRASE": "pass-alice"}).output
        chain_loads.clear()
        assert run("legal", g, "--as", "alice").output == words and not chain_loads
        run("agent", "forget", "alice")  # locked again: neither the memo nor the key without the passphrase
        assert "a passphrase is needed" in run.fails("legal", g, "--as", "alice").stderr
    finally:
        Client(home).stop()


def test_colour_pictures_and_svg_files_are_never_remembered(pbem, game, memo_settled, chain_loads, monkeypatch):
    from pbem import render

    monkeypatch.setattr(render, "wants_rich", lambda plain, stream=None: not plain)
    for _ in range(2):
        pbem("show", game, "--as", "alice")
        pbem("show", game, "--svg", game.parent / "board.svg")
    assert len(chain_loads) == 4
    assert not list((pbem.home / "checkpoints").glob("*.seat"))


def test_a_game_with_a_clock_or_a_warning_is_never_remembered(pbem, tmp_path, memo_settled, chain_loads):
    paced = tmp_path / "paced"
    pbem("new", "aa", paced, "--seat", "alice", "--seat", "bob", "--pace", "3d")
    for _ in range(2):
        pbem("legal", paced, "--as", "alice")
    assert len(chain_loads) == 2
    stranger = Pbem(tmp_path / "stranger-home")
    unpaced = tmp_path / "unpaced"
    pbem("new", "aa", unpaced, "--seat", "alice", "--seat", "bob")
    for _ in range(2):
        assert "seat alice's key is not in your address book" in stranger("show", unpaced).stderr
    assert not list((pbem.home / "checkpoints").glob("*.seat"))
    assert not list((tmp_path / "stranger-home").rglob("*.seat"))


def test_words_from_memory_import_neither_the_chain_nor_cryptography(pbem, game):
    """The real thing, in processes of their own: a second after the files'
    last change, a full `legal` remembers; the next imports none of it."""
    time.sleep(1.1)
    env = {**os.environ, "PBEM_HOME": str(pbem.home)}
    for form in (["legal", "--as", "alice"], ["show", "--as", "alice"], ["show"]):
        run = [sys.executable, "-X", "importtime", "-m", "pbem", *form, str(game)]
        full = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
        quick = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
        assert quick.stdout == full.stdout and quick.stdout
        imported = {line.rsplit("|", 1)[-1].strip() for line in quick.stderr.splitlines() if "|" in line}
        assert "pbem.protocol.chain" in {line.rsplit("|", 1)[-1].strip() for line in full.stderr.splitlines()}
        heavy = {m for m in imported if m.split(".")[0] in ("cryptography", "msgspec")
                 or m.startswith(("pbem.protocol.", "pbem.games.", "pbem.app", "pbem.crypto"))}
        assert heavy == set(), form


def test_words_kept_before_the_files_settled_do_not_hold_back_the_next(pbem, game, chain_loads):
    """A first look within a second of a change keeps words that are not
    trusted yet; a look once the files have settled must not keep them (nor
    their time), or no later look would ever be answered from memory."""
    pbem("legal", game, "--as", "alice")  # the files are younger than a second
    time.sleep(1.1)
    pbem("show", game, "--as", "alice")  # settled now: remembered
    chain_loads.clear()
    pbem("show", game, "--as", "alice")
    assert not chain_loads
