"""Peer games: two players, two homes, two folders, only files travel.

Nobody is trusted: the deck is a mental-poker deck, every partial
decryption carries a proof, chance comes from hash-chain beacons, and each
seat publishes its secrets at the end for the audit.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from conftest import Pbem, snapshot


@pytest.fixture
def players(tmp_path) -> dict[str, Pbem]:
    people = {n: Pbem(tmp_path / f"home-{n}") for n in ("alice", "bob")}
    for name, p in people.items():
        p("id", "new", name, "--no-passphrase")
        p("id", "export", name, "-o", tmp_path / f"{name}.id")
    people["alice"]("id", "import", tmp_path / "bob.id")
    people["bob"]("id", "import", tmp_path / "alice.id")
    return people


def start(players, tmp_path, *options: str) -> dict[str, Path]:
    dirs = {n: tmp_path / f"game-{n}" for n in players}
    players["alice"]("new", "aa", dirs["alice"], "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice", *options)
    joined = players["bob"]("join", dirs["bob"], dirs["alice"] / "000000-genesis.pbem", "--as", "bob").stdout.split()
    players["alice"]("apply", dirs["alice"], joined[0])
    while players["alice"].json("status", dirs["alice"])["to_act"][0]["needs"] == "auto":
        step(players, dirs, None)  # alice's set-up link, the decryptions each owes the other
    return dirs


def step(players, dirs, rng, pick=None) -> dict | None:
    """One file by whoever must write, mailed to the other. None at the end."""
    st = players["alice"].json("status", dirs["alice"])
    if not st["to_act"]:
        return None
    who = st["to_act"][0]
    me, other = who["seat"], ("bob" if who["seat"] == "alice" else "alice")
    if who["needs"] == "auto":
        written = players[me]("sync", dirs[me], "--as", me).stdout.split()
    else:
        cmds = players[me].json("legal", dirs[me], "--as", me)
        choice = (pick or (lambda c, r: r.choice(c)))(cmds, rng)
        written = players[me]("submit", dirs[me], "--as", me, "--cmd", choice).stdout.split()
    assert written
    for path in written:
        players[other]("apply", dirs[other], path)
    return st


def test_a_peer_game_to_the_end_between_two_folders(players, tmp_path):
    dirs = start(players, tmp_path)
    st = players["bob"].json("status", dirs["bob"])
    assert st["dealer"]["mode"] == "peer" and any("beacon" in line for line in st["chance"])
    rng = random.Random(7)
    for _ in range(500):
        if step(players, dirs, rng) is None:
            break
    final = players["alice"].json("status", dirs["alice"])
    assert final["over"] and final["outcome"]["winners"]
    assert players["bob"].json("status", dirs["bob"]) == final
    for name in players:
        assert players[name]("verify", dirs[name]).stdout.startswith("ok:")
        assert "audit passed" in players[name]("audit", dirs[name]).stdout
    names = sorted(p.name for p in dirs["alice"].iterdir())
    assert names == sorted(p.name for p in dirs["bob"].iterdir())
    for n in names:
        assert (dirs["alice"] / n).read_bytes() == (dirs["bob"] / n).read_bytes()


def test_discard_waits_for_the_other_players_decryption(players, tmp_path):
    dirs = start(players, tmp_path)
    discard = next(c for c in players["alice"].json("legal", dirs["alice"], "--as", "alice") if c.startswith("discard"))
    players["alice"]("submit", dirs["alice"], "--as", "alice", "--cmd", discard)
    st = players["alice"].json("status", dirs["alice"])
    assert st["to_act"] == [{"seat": "bob", "needs": "auto"}]
    assert players["alice"].json("legal", dirs["alice"], "--as", "alice") == []
    last = sorted(dirs["alice"].glob("0*-alice.pbem"))[-1]
    players["bob"]("apply", dirs["bob"], last)
    written = players["bob"]("sync", dirs["bob"], "--as", "bob").stdout.split()
    players["alice"]("apply", dirs["alice"], written[0])
    hand = next(s for s in players["alice"].json("show", dirs["alice"], "--as", "alice")["seats"] if s["seat"] == "alice")["hand"]
    assert len(hand) == 4 and all(isinstance(c, str) for c in hand)
    assert any(c.startswith("play") for c in players["alice"].json("legal", dirs["alice"], "--as", "alice"))


def test_nobody_reads_another_folder_without_its_key(players, tmp_path):
    dirs = start(players, tmp_path)
    r = players["alice"].fails("show", dirs["bob"], "--as", "bob")
    assert "bob" in r.stderr
    # the observer view of bob's folder holds no hand
    view = players["alice"].json("show", dirs["bob"])
    assert all(s["hand"] is None for s in view["seats"])


def test_each_seat_sees_its_own_hand_only(players, tmp_path):
    from pbem.crypto import poker
    from pbem.crypto.encoding import b64d
    from pbem.home.store import KeyStore
    from pbem.errors import CryptoError
    from pbem.gamedir import folder
    from pbem.protocol.peer import knowledge as peer_knowledge

    dirs = start(players, tmp_path)
    rng = random.Random(3)
    for _ in range(6):
        step(players, dirs, rng)
    chain = folder.load(dirs["alice"])
    alice = KeyStore(players["alice"].home).secret("alice", lambda: "")
    secrets = peer_knowledge.my_secrets(chain, alice)
    scalar = b64d(secrets.scalar, 32)
    deck = chain.deck
    mine = peer_knowledge.cards_known(chain, alice, secrets)
    hidden_from_alice = [r for r in deck.slots if r not in mine]
    assert any(r in hidden_from_alice for r in [it.ref for it in chain.public.zones["hand:bob"].items])
    # everything alice's key can do to every slot: remove her own layer
    for ref in hidden_from_alice:
        point = deck.points[ref]
        for attempt in (point, poker.decrypt(scalar, point) if "alice" in deck.remaining[ref] else point):
            with pytest.raises(CryptoError):
                poker.identify(attempt, deck.table)
    # and every card alice knows is one that is hers, or public (or about to
    # be: her face-down card lies in a play area until she reveals it)
    for ref in mine:
        zone = next(n for n, z in chain.public.zones.items() if any(it.ref == ref for it in z.items))
        assert ref in chain.revealed or zone.endswith(":alice") or zone == "centre:down" or chain.public.zones[zone].public


def test_bad_peer_input_changes_nothing(players, tmp_path):
    dirs = start(players, tmp_path)
    before = snapshot(dirs["alice"])
    again = players["alice"]("apply", dirs["alice"], dirs["bob"] / "000001-bob.pbem")  # already there: skipped
    assert "already in the chain" in again.stderr and again.stdout == ""
    # bob joined already: a join from his own files rebuilds his folder and writes no second join
    rebuilt = players["bob"]("join", tmp_path / "again", dirs["alice"] / "000000-genesis.pbem",
                             dirs["alice"] / "000001-bob.pbem", "--as", "bob")
    assert "rebuilt:" in rebuilt.stdout and sorted(p.name for p in (tmp_path / "again").glob("0*.pbem")) == [
        "000000-genesis.pbem", "000001-bob.pbem"]
    players["alice"].fails("submit", dirs["alice"], "--as", "bob", "--cmd", "recruit face-up")  # no key of bob's
    assert snapshot(dirs["alice"]) == before


def test_log_of_a_peer_game(players, tmp_path):
    dirs = start(players, tmp_path)
    rng = random.Random(2)
    for _ in range(4):
        step(players, dirs, rng)
    lines = players["bob"]("log", dirs["bob"]).stdout.splitlines()
    assert lines[0].split()[1] == "alice" and "set up Agent Avenue" in lines[0]
    assert "joins" in lines[1] and "its first link" in lines[1]
    assert "sets the game up from every seat's first beacon link" in lines[2] and "decrypts 4 cards" in lines[2]
    assert any("(face down)" in line for line in lines)


def test_play_answers_what_is_owed_then_offers_the_menu(players, tmp_path):
    dirs = start(players, tmp_path)
    play = next(c for c in players["alice"].json("legal", dirs["alice"], "--as", "alice") if c.startswith("play"))
    for path in players["alice"]("submit", dirs["alice"], "--as", "alice", "--cmd", play).stdout.split():
        players["bob"]("apply", dirs["bob"], path)
    written = players["bob"]("submit", dirs["bob"], "--as", "bob", "--cmd", "recruit face-up").stdout.split()
    players["alice"]("apply", dirs["alice"], written[0])
    # alice owes the reveal of her face-down card: play writes it, then waits for bob
    r = players["alice"]("play", dirs["alice"], "--as", "alice", input="q\n")
    assert "automatic answer" in r.stdout and "waiting for bob" in r.stdout


@pytest.mark.parametrize("game", ["agent-avenue", pytest.param("codenames", marks=pytest.mark.skipif(
    not os.environ.get("PBEM_LONG"), reason="long mode (PBEM_LONG=1): a Codenames peer game through the CLI is "
    "tests/games/codenames/test_codenames_cli.py's"))])
def test_demo_plays_a_peer_game_between_separate_folders(tmp_path, game):
    from pbem.app.demo import run_demo
    from pbem.gamedir import folder

    lines: list[str] = []
    out = run_demo(game, tmp_path / "g", 3, "peer", None, echo=lines.append, keys_dir=tmp_path / "keys")
    players = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(players) >= 2
    chains = [folder.load(p) for p in players]
    assert all(c.over for c in chains) and len({c.head for c in chains}) == 1
    assert sum(line.startswith("pbem audit") for line in lines) == len(players)
    # each player's key store holds its own private key only
    for p in players:
        assert sorted(k.name for k in (tmp_path / "keys" / p.name / "keys").iterdir()) == [f"{p.name}.key"]
