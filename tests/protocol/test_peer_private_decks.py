"""Private decks (a seat's own deck, as Codex has): in peer games the owner
commits to each card in a secret order and the beacons pick each draw. Tested
with a tiny game until a real game has private decks."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from conftest import introduced, mail_step, settle
from pbem import games
from pbem.app import creating, opening, reading, receiving, writing
from pbem.home.store import KeyStore
from pbem.errors import CommitmentError, ProtocolError
from pbem.protocol import codec
from pbem.gamedir import folder
from pbem.app.audit import audit
from pbem.protocol.formats import TurnBody
from pbem.protocol.party import Party


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(games._REGISTRY, "toy-draw", ("toygame", "GAME", ()))


@pytest.fixture
def hash_commitments(monkeypatch):
    """A game begun under protocol version 5, whose private decks are hash
    commitments opened by their owner (from version 6 they are the owner's
    proven layer, opened by proven partials: tests/protocol/test_late_checks.py)."""
    from pbem.protocol import formats
    from pbem.protocol.peer import writer as peer_writer

    monkeypatch.setattr(peer_writer, "PROTOCOL_VERSION", 5)
    monkeypatch.setattr(formats, "PROTOCOL_VERSION", 5)  # what a seat's first file checks


@pytest.fixture
def keys(tmp_path) -> dict[str, opening.Keys]:
    return introduced(tmp_path, ["alice", "bob"])


def start(keys, tmp_path) -> dict[str, Path]:
    dirs = {n: tmp_path / f"dir-{n}" for n in keys}
    creating.new_game("toy-draw", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    receiving.apply_file(dirs["alice"], receiving.join(dirs["bob"], [dirs["alice"] / "000000-genesis.pbem"], "bob", keys["bob"]))
    settle(keys, dirs)  # alice's set-up link
    return dirs


step = mail_step


def test_a_peer_game_with_private_decks_to_the_end(keys, tmp_path):
    dirs = start(keys, tmp_path)
    rng = random.Random(1)
    while step(keys, dirs, rng):
        pass
    for d in dirs.values():
        chain = opening.verify(d)
        assert chain.over
        report = audit(d)
        assert report.ok, report.failures


def test_the_owner_knows_its_deck_the_other_does_not(keys, tmp_path):
    dirs = start(keys, tmp_path)
    chain = folder.load(dirs["bob"])
    alice = Party(chain, keys["alice"].secret("alice"))
    bob = Party(chain, keys["bob"].secret("bob"))
    alice_deck = {it.ref for it in chain.public.zones["deck:alice"].items}
    assert alice_deck <= set(alice.cards)
    assert sorted(alice.cards[r] for r in alice_deck) == ["1", "2", "3", "4", "5", "6"]
    assert not alice_deck & set(bob.cards)
    # the commitments (from version 6, the points of alice's layer) are public, the places are not
    assert set(chain.genesis.peer.private) == alice_deck


def test_the_beacons_pick_the_draw(keys, tmp_path):
    """Which card of alice's deck she draws is drawn from bob's next link
    (his automatic answer), which alice could not know when she chose to draw."""
    from pbem.crypto import beacon
    from pbem.crypto.stream import DeterministicStream

    dirs = start(keys, tmp_path)
    before = folder.load(dirs["alice"])
    deck = [it.ref for it in before.public.zones["deck:alice"].items]
    path = writing.submit(dirs["alice"], "alice", ["draw"], keys["alice"])[0]
    assert folder.load(dirs["alice"]).paused is not None  # the draw waits
    receiving.apply_file(dirs["bob"], path)
    answer = writing.sync(dirs["bob"], "bob", keys["bob"])[0]
    receiving.apply_file(dirs["alice"], answer)
    after = folder.load(dirs["alice"])
    drawn = after.public.zones["hand:alice"].items[0].ref
    links = dict(after.deck.latest)
    seed = beacon.chance_key(links, after.game_id, after.seq)
    assert deck[DeterministicStream(seed, f"public {after.seq}".encode()).below(len(deck))] == drawn


def test_a_false_opening_of_a_private_card_is_refused(hash_commitments, keys, tmp_path):
    dirs = start(keys, tmp_path)
    path = writing.submit(dirs["alice"], "alice", ["draw"], keys["alice"])[0]
    receiving.apply_file(dirs["bob"], path)  # bob's automatic answer draws the card
    receiving.apply_file(dirs["alice"], writing.sync(dirs["bob"], "bob", keys["bob"])[0])
    chain = folder.load(dirs["alice"])
    me = opening.party(chain, "alice", keys["alice"])
    data = me.turn(writing.parse_commands(chain, me, [reading.legal(chain, me)[0]]))
    body = msgspec.json.decode(codec.read_envelope(data).body, type=TurnBody)
    assert body.reveals, "the played card is opened by its owner"
    o = body.reveals[0]
    lie = msgspec.structs.replace(o, card="6" if o.card != "6" else "5")
    forged = codec.encode_signed("turn", msgspec.structs.replace(body, reveals=[lie]), keys["alice"].secret("alice"))
    with pytest.raises(CommitmentError):
        folder.load(dirs["alice"]).append(forged)
    withheld = codec.encode_signed("turn", msgspec.structs.replace(body, reveals=[]), keys["alice"].secret("alice"))
    with pytest.raises(ProtocolError, match="must reveal"):
        folder.load(dirs["alice"]).append(withheld)


def test_published_places_must_open_the_commitments(hash_commitments, keys, tmp_path):
    dirs = start(keys, tmp_path)
    rng = random.Random(3)
    while True:
        chain = folder.load(dirs["alice"])
        if chain.outcome() is not None:
            break
        step(keys, dirs, rng)
    chain = folder.load(dirs["alice"])
    last = chain.records[-1]
    secrets = last.body.secrets
    swapped = dict(secrets.private)
    a, b = list(swapped)[:2]
    swapped[a], swapped[b] = swapped[b], swapped[a]
    forged_body = msgspec.structs.replace(last.body, secrets=msgspec.structs.replace(secrets, private=swapped))
    data = codec.encode_signed("turn", forged_body, keys[last.by].secret(last.by))
    # replay the chain up to just before the last file, then offer the forgery
    replay = folder.Chain((dirs["alice"] / folder.GENESIS).read_bytes())
    for rec in chain.records[1:-1]:
        replay.append(msgspec.json.encode(rec.outer) + b"\n")
    with pytest.raises(ProtocolError, match="do not open their commitments"):
        replay.append(data)


def test_private_decks_with_a_dealer(tmp_path):
    keys = opening.Keys(KeyStore(tmp_path / "home"), lambda: "")
    for n in ("alice", "bob"):
        keys.store.create(n, None)
    g = tmp_path / "g"
    creating.new_game("toy-draw", g, ["alice", "bob"], keys, "hotseat", None, 5)
    rng = random.Random(5)
    for _ in range(100):
        chain = folder.load(g)
        if not chain.writers():
            break
        me = chain.writers()[0]
        writing.submit(g, me, [rng.choice(reading.legal(chain, opening.party(chain, me, keys)))], keys)
    assert folder.load(g).over and audit(g).ok


@pytest.mark.parametrize("seed", range(10))
def test_the_toy_game_passes_the_conformance_harness(seed):
    from pbem.games.base import SeatSpec
    from pbem.games.conformance import check_game

    game = games.get("toy-draw")
    check_game(game, game.options({}), [SeatSpec("alice"), SeatSpec("bob")], seed)
