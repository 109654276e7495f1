"""Bad input: one clear line, exit 1, and the game folder byte-for-byte unchanged."""

from __future__ import annotations

import shutil
from collections import Counter

import msgspec
import pytest

from conftest import snapshot
from pbem.games.agent_avenue.cards import full_deck


def deck_starting_with(*cards: str) -> str:
    """A whole scenario deck whose top cards are `cards`, the rest in table order."""
    rest = Counter(full_deck())
    rest.subtract(cards)
    assert min(rest.values()) >= 0
    return ",".join(list(cards) + list(rest.elements()))


@pytest.fixture
def game(pbem, tmp_path):
    g = tmp_path / "g"
    deck = deck_starting_with(
        "Enforcer", "Enforcer", "Saboteur", "Sentinel",  # alice
        "Mole", "Sidekick", "Codebreaker", "Daredevil",  # bob
    )
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1", "--option", f"deck={deck}")
    return g


def test_illegal_command_says_why(pbem, game):
    before = snapshot(game)
    r = pbem.fails("submit", game, "--as", "alice", "--cmd", "play Enforcer / Enforcer")
    assert "both cards are named Enforcer" in r.stderr
    assert snapshot(game) == before


def test_unparseable_and_unknown_cards(pbem, game):
    before = snapshot(game)
    pbem.fails("submit", game, "--as", "alice", "--cmd", "dance wildly")
    pbem.fails("submit", game, "--as", "alice", "--cmd", "play Wizard / Enforcer")
    pbem.fails("submit", game, "--as", "alice", "--cmd", "play Mole / Enforcer")  # not in her hand
    assert snapshot(game) == before


def test_wrong_seat(pbem, game):
    before = snapshot(game)
    r = pbem.fails("submit", game, "--as", "bob", "--cmd", "play Mole / Sidekick")
    assert "bob" in r.stderr and "alice" in r.stderr
    assert snapshot(game) == before


def test_key_not_in_store_and_not_a_seat(pbem, game):
    before = snapshot(game)
    r = pbem.fails("submit", game, "--as", "carol", "--cmd", "play Enforcer / Saboteur")
    assert "carol" in r.stderr
    pbem.fails("submit", game, "--as", "rita", "--cmd", "play Enforcer / Saboteur")
    pbem.fails("show", game, "--as", "carol")
    assert snapshot(game) == before


def test_passphrase_missing_or_wrong(pbem, tmp_path):
    pbem("id", "new", "dave", env={"PBEM_PASSPHRASE": "right horse"})
    pbem("id", "new", "erin", "--no-passphrase")
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "dave", "--seat", "erin", "--seed", "3")
    before = snapshot(g)
    legal = pbem("legal", g, "--as", "dave", "--json", env={"PBEM_PASSPHRASE": "right horse"}).stdout
    cmd = msgspec.json.decode(legal)[-1]
    r = pbem.fails("submit", g, "--as", "dave", "--cmd", cmd, env={"PBEM_PASSPHRASE": "wrong"})
    assert "passphrase" in r.stderr
    r = pbem.fails("submit", g, "--as", "dave", "--cmd", cmd)  # none given, no terminal
    assert "passphrase" in r.stderr
    assert snapshot(g) == before
    pbem("submit", g, "--as", "dave", "--cmd", cmd, env={"PBEM_PASSPHRASE": "right horse"})


def test_unknown_option_and_bad_new(pbem, tmp_path):
    g = tmp_path / "g"
    r = pbem.fails("new", "aa", g, "--seat", "alice", "--seat", "bob", "--option", "speed=fast")
    assert "speed" in r.stderr
    pbem.fails("new", "aa", g, "--seat", "alice")  # one seat
    pbem.fails("new", "aa", g, "--seat", "alice", "--seat", "carol")  # unknown identity
    pbem.fails("new", "chess", g, "--seat", "alice", "--seat", "bob")
    pbem.fails("new", "aa", g, "--seat", "alice", "--seat", "bob", "--option", "deck=Mole")
    r = pbem.fails("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita",
                   "--option", "deck=" + ",".join(full_deck()))
    assert "hotseat" in r.stderr
    assert not g.exists()
    pbem.fails("new", "aa", g, "--seat", "alice", "--seat", "bob", "--bogus", code=2)


def test_garbled_truncated_and_resigned_files(pbem, game, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(game, other)
    path = pbem("submit", other, "--as", "alice", "--cmd", "play Enforcer / Saboteur").stdout.split()[0]
    data = open(path, "rb").read()
    before = snapshot(game)
    # (spaces or line endings around the object are repaired, not refused:
    # tests/protocol/test_file_copies.py)
    for i, bad in enumerate([data[: len(data) // 2], b"", b"{}", data.replace(b'"alice"', b'"bob"', 1), data[:-2] + b' }\n']):
        f = tmp_path / f"bad{i}.pbem"
        f.write_bytes(bad)
        pbem.fails("apply", game, f)
        assert snapshot(game) == before
    # a flipped bit in the signature
    outer = msgspec.json.decode(data)
    sig = outer["sig"]
    outer["sig"] = ("A" if sig[0] != "A" else "B") + sig[1:]
    f = tmp_path / "badsig.pbem"
    f.write_bytes(msgspec.json.encode(outer) + b"\n")
    r = pbem.fails("apply", game, f)
    assert "signature" in r.stderr
    assert snapshot(game) == before
    # and the genuine file applies
    pbem("apply", game, path)


def test_file_from_another_game(pbem, game, tmp_path):
    twin = tmp_path / "twin"
    deck = deck_starting_with("Enforcer", "Enforcer", "Saboteur", "Sentinel", "Mole", "Sidekick", "Codebreaker", "Daredevil")
    pbem("new", "aa", twin, "--seat", "alice", "--seat", "bob", "--seed", "1", "--option", f"deck={deck}")
    path = pbem("submit", twin, "--as", "alice", "--cmd", "play Enforcer / Saboteur").stdout.split()[0]
    before = snapshot(game)
    r = pbem.fails("apply", game, path)
    assert "another game" in r.stderr
    assert snapshot(game) == before


def test_stale_and_replayed_turns(pbem, game, tmp_path):
    first = pbem("submit", game, "--as", "alice", "--cmd", "play Enforcer / Saboteur").stdout.split()[0]
    before = snapshot(game)
    # a second delivery of a file already in the chain is skipped, not an error
    # (so rerunning an interrupted `apply` completes it)
    r = pbem("apply", game, first)
    assert "pbem: note: 000001-alice.pbem is already in the chain as 000001-alice.pbem" in r.stderr
    assert r.stdout == ""
    stale = tmp_path / "stale.pbem"
    shutil.copy(first, stale)
    r = pbem("apply", game, stale)
    assert "stale.pbem is already in the chain" in r.stderr
    assert snapshot(game) == before
    # the game's own genesis (the outbox sends it to who has seen nothing) is skipped too
    r = pbem("apply", game, game / "000000-genesis.pbem")
    assert "000000-genesis.pbem is already in the chain" in r.stderr
    assert snapshot(game) == before


def test_fork_names_both_signers(pbem, game, tmp_path):
    """Two copies of one folder; alice writes different turns in each."""
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(game, a)
    shutil.copytree(game, b)
    pa = pbem("submit", a, "--as", "alice", "--cmd", "play Enforcer / Saboteur").stdout.split()[0]
    pbem("submit", b, "--as", "alice", "--cmd", "play Sentinel / Enforcer")
    before = snapshot(b)
    r = pbem.fails("apply", b, pa)
    assert "fork" in r.stderr and "alice" in r.stderr
    assert snapshot(b) == before
    # the same conflict inside one synced folder: the sync tool keeps a copy
    shutil.copy(pa, b / "000001-alice.sync-conflict-20261129-120000-ABCDEFG.pbem")
    r = pbem.fails("verify", b)
    assert "fork at seq 1" in r.stderr and r.stderr.count("signed by alice") == 2


def test_dealer_key_is_checked(pbem, game):
    pbem("verify", game)
    data = (game / "dealer.key").read_bytes()
    (game / "dealer.key").write_bytes(data.replace(b'"none"', b'"nonf"'))
    pbem.fails("verify", game)
