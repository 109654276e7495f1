"""Cheating in peer games: each attempt fails loudly, at once or at the audit,
naming the seat whose signature covers it; the folder never changes."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from conftest import introduced, mail_step, settle
from pbem.app import creating, opening, reading, receiving, writing
from pbem.crypto import beacon, poker
from pbem.crypto.encoding import b64d, b64e
from pbem.errors import CommitmentError, FormatError, ForkError, ProofError, ProtocolError, StaleTurn, WrongGame
from pbem.protocol import codec, formats
from pbem.gamedir import folder, folder_write
from pbem.protocol.peer import writer as peer_writer
from pbem.app.audit import audit
from pbem.protocol.formats import TurnBody
from pbem.protocol.peer_parts import Join
from pbem.protocol.peer.deck import new_layer
from pbem.protocol.peer.secrets import secret_box


@pytest.fixture
def keys(tmp_path) -> dict[str, opening.Keys]:
    return introduced(tmp_path, ["alice", "bob"])


def new_game(keys, tmp_path, tag="") -> dict[str, Path]:
    dirs = {n: tmp_path / f"{tag}dir-{n}" for n in keys}
    creating.new_game("aa", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    return dirs


def joined(keys, tmp_path, tag="") -> dict[str, Path]:
    dirs = new_game(keys, tmp_path, tag)
    path = receiving.join(dirs["bob"], [dirs["alice"] / "000000-genesis.pbem"], "bob", keys["bob"])
    receiving.apply_file(dirs["alice"], path)
    settle(keys, dirs)  # alice's set-up link, the decryptions each owes the other
    return dirs


def play(keys, dirs, rng, until=None, max_files=400) -> None:
    """Both players honest, mailing each file to the other."""
    for _ in range(max_files):
        if until and until(folder.load(dirs["alice"])):
            return
        if not mail_step(keys, dirs, rng):
            return


def resign(data: bytes, secret, **changes) -> bytes:
    body = msgspec.json.decode(codec.read_envelope(data).body, type=TurnBody)
    return codec.encode_signed("turn", msgspec.structs.replace(body, **changes), secret)


def bobs_next_file(keys, dirs) -> tuple[bytes, object]:
    """Bob's first file after alice's first play, with its partial decryptions."""
    rng = random.Random(1)
    play(keys, dirs, rng, until=lambda c: c.writers() == ["bob"] and c.public.phase == "recruit")
    chain = folder.load(dirs["bob"])
    me = opening.party(chain, "bob", keys["bob"])
    data = me.turn(writing.parse_commands(chain, me, ["recruit face-up"]))
    body = msgspec.json.decode(codec.read_envelope(data).body, type=TurnBody)
    assert body.partials, "bob owes alice her new cards"
    return data, body


def test_a_forged_partial_decryption_is_refused_at_once(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    data, body = bobs_next_file(keys, dirs)
    bob = keys["bob"].secret("bob")
    p = body.partials[0]
    other = poker.encrypt(poker.new_scalar(), b64d(p.point, 32))
    forged = resign(data, bob, partials=[msgspec.structs.replace(p, point=b64e(other))] + body.partials[1:])
    before = {x.name: x.read_bytes() for x in dirs["alice"].iterdir()}
    chain = folder.load(dirs["alice"])
    with pytest.raises(ProofError):
        folder_write.incoming(dirs["alice"], chain, forged)
    assert {x.name: x.read_bytes() for x in dirs["alice"].iterdir()} == before


def test_a_bad_proof_is_refused(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    data, body = bobs_next_file(keys, dirs)
    p = body.partials[0]
    proof = bytearray(b64d(p.proof, 64))
    proof[40] ^= 1
    forged = resign(data, keys["bob"].secret("bob"), partials=[msgspec.structs.replace(p, proof=b64e(bytes(proof)))] + body.partials[1:])
    with pytest.raises((ProofError, FormatError)):
        folder.load(dirs["alice"]).append(forged)


def test_a_beacon_link_that_does_not_hash_to_the_last_one(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    data, body = bobs_next_file(keys, dirs)
    forged = resign(data, keys["bob"].secret("bob"), beacon=b64e(bytes(32)))
    with pytest.raises(CommitmentError, match="beacon link"):
        folder.load(dirs["alice"]).append(forged)
    missing = resign(data, keys["bob"].secret("bob"), beacon=None)
    with pytest.raises(ProtocolError, match="no beacon link"):
        folder.load(dirs["alice"]).append(missing)


def test_withheld_partials_are_refused(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    data, body = bobs_next_file(keys, dirs)
    forged = resign(data, keys["bob"].secret("bob"), partials=body.partials[1:])
    with pytest.raises(ProtocolError, match="owes its partial decryption"):
        folder.load(dirs["alice"]).append(forged)


def test_replayed_file_and_fork_name_the_signers(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    chain = folder.load(dirs["alice"])
    with pytest.raises(StaleTurn):
        folder_write.incoming(dirs["alice"], chain, (dirs["alice"] / "000001-bob.pbem").read_bytes())
    me = opening.party(chain, "alice", keys["alice"])
    plays = [c for c in reading.legal(chain, me) if c.startswith("play")]
    one = me.turn(writing.parse_commands(chain, me, [plays[0]]))
    two = me.turn(writing.parse_commands(chain, me, [plays[-1]]))
    chain_b = folder.load(dirs["bob"])
    folder_write.incoming(dirs["bob"], chain_b, one)
    before = {x.name: x.read_bytes() for x in dirs["bob"].iterdir()}
    with pytest.raises(ForkError) as err:
        folder_write.incoming(dirs["bob"], folder.load(dirs["bob"]), two)
    assert err.value.signers == ("alice", "alice")
    assert {x.name: x.read_bytes() for x in dirs["bob"].iterdir()} == before


def test_a_file_of_another_game_is_refused(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    other = new_game(keys, tmp_path, "other-")
    foreign = receiving.join(other["bob"], [other["alice"] / "000000-genesis.pbem"], "bob", keys["bob"])
    chain = folder.load(dirs["alice"])
    data = foreign.read_bytes()
    body = msgspec.json.decode(codec.read_envelope(data).body, type=TurnBody)
    moved = resign(data, keys["bob"].secret("bob"), seq=2, prev=chain.head)
    with pytest.raises(WrongGame):
        chain.append(moved)
    assert body.game_id != chain.game_id


def dishonest_join(keys, dirs, tamper) -> bytes:
    """Bob's join file with his shuffle layer changed by `tamper(points)`."""
    chain = folder.load(dirs["alice"])
    bob = keys["bob"].secret("bob")
    deck = chain.deck
    scalar, layer = new_layer("bob", [b64d(p, 32) for p in deck.layers[-1].points])
    layer = msgspec.structs.replace(layer, points=tamper(list(layer.points)))
    seed, anchor = beacon.new_chain(deck.beacon_length)
    info = Join(anchor=b64e(anchor), layer=layer, secret_box=secret_box(bob, scalar, seed, chain.genesis.nonce))
    staged = deck.copy()
    staged.add_layer(layer, info.anchor)
    link = b64e(staged.next_link("bob", seed))  # bob joins last: his join opens his first link
    staged.apply_link("bob", link)
    return peer_writer._write(chain, staged, bob, scalar, [], join=info, beacon_link=link)


def test_a_duplicated_card_in_a_shuffle_layer_is_refused_at_once(keys, tmp_path):
    dirs = new_game(keys, tmp_path)

    def duplicate(points):
        points[5] = points[4]
        return points

    with pytest.raises(ProtocolError, match="bob's shuffle layer repeats a card"):
        dishonest_join(keys, dirs, duplicate)


def test_a_substituted_card_in_a_shuffle_layer_is_caught_before_version_5(keys, tmp_path, monkeypatch):
    """In a game begun before protocol version 5 (from which a layer's proof
    refuses it at once: `test_layer_proofs`), a fake card stops the game the
    moment it is dealt; if it is never dealt, the audit finds it and names
    the seat. Bob shuffles last, so he can put his fake at the bottom of the
    deck, which a short game never reaches: we play games until one ends
    that way (most do)."""
    monkeypatch.setattr(peer_writer, "PROTOCOL_VERSION", 4)
    monkeypatch.setattr(formats, "PROTOCOL_VERSION", 4)  # what a seat's first file checks (`opening.check_protocol`)

    def substitute(points):
        points[-1] = b64e(poker.encrypt(poker.new_scalar(), b64d(points[-1], 32)))
        return points

    caught_at_deal = 0
    for attempt in range(6):
        dirs = new_game(keys, tmp_path / str(attempt))
        data = dishonest_join(keys, dirs, substitute)
        dirs["bob"].mkdir()
        (dirs["bob"] / "000000-genesis.pbem").write_bytes((dirs["alice"] / "000000-genesis.pbem").read_bytes())
        folder_write.add_file(dirs["bob"], folder.load(dirs["bob"]), data)
        folder_write.incoming(dirs["alice"], folder.load(dirs["alice"]), data)
        try:
            play(keys, dirs, random.Random(attempt))
        except ProtocolError as exc:
            assert "decrypts to no card" in exc.message
            caught_at_deal += 1
            continue
        assert folder.load(dirs["alice"]).over
        report = audit(dirs["alice"])
        assert not report.ok
        assert any("000001-bob.pbem (signed by bob)" in f and "substituted" in f for f in report.failures), report.failures
        return
    assert caught_at_deal == 6


def test_a_seat_that_never_publishes_is_reported(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    play(keys, dirs, random.Random(4), until=lambda c: c.outcome() is not None and c.writers())
    chain = folder.load(dirs["alice"])
    assert chain.outcome() is not None and not chain.over
    silent = chain.writers()[0]
    report = audit(dirs["alice"])
    assert any(f.startswith(f"{silent} has not published its secrets") for f in report.failures)
