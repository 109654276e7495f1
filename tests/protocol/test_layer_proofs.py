"""Every shuffle layer of a peer game is proven when its file arrives
(protocol version 5, `pbem.protocol.peer.proofs`).

A cheater re-signs its own join with a doctored layer, with its real key:
the other seat's `pbem apply` refuses it at once, naming the seat and the
file, and leaves the folder as it was. The two-faced deck's and the
reshuffles' layers are tested beside their decks (`test_duet_peer`,
`test_peer_decks_change`); games begun before version 5 keep verifying
without proofs (`tests/vectors`, `test_peer_cheats`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from conftest import snapshot
from pbem.app.opening import Keys
from pbem.cli import cli
from pbem.crypto import poker
from pbem.crypto.encoding import b64d, b64e
from pbem.home.store import KeyStore
from pbem.protocol import codec, versions
from pbem.gamedir import folder
from pbem.app.audit import audit
from pbem.protocol.formats import GenesisBody, TurnBody
from pbem.protocol.peer import proofs
from pbem.protocol.peer.deck import new_layer
from test_peer_game import players  # noqa: F401 - a fixture: alice and bob, each with their own home
from tests import tamper
import paths

VECTORS = paths.VECTORS / "peer-v5"


def _substituted(chain, layer):
    """One point replaced by another card's point of the seat's choosing
    (here: a point times a scalar of its own): the proof kept."""
    points = list(layer.points)
    points[-1] = b64e(poker.encrypt(poker.new_scalar(), b64d(points[-1], 32)))
    return msgspec.structs.replace(layer, points=points)


def _swapped_for_a_received_point(chain, layer):
    """A point replaced by a point of the deck it received (a card copied)."""
    return msgspec.structs.replace(layer, points=[b64e(chain.deck.received()[0]), *layer.points[1:]])


def _no_proof(chain, layer):
    return msgspec.structs.replace(layer, proof=None)


def _proven_for(seq_shift: int, deck: str):
    """A true layer whose proof is for another seq or deck."""
    def remade(chain, layer):
        context = proofs.context_of(chain.game_id, chain.seq + 1 + seq_shift, deck)
        return new_layer(layer.seat, chain.deck.received(), None, context)[1]
    return remade


def _proof_of_another_layer(chain, layer):
    """Another true layer's proof (same seat, seq and deck) beside this one's points."""
    other = new_layer(layer.seat, chain.deck.received(), None, chain.deck.proof_context(chain.seq + 1))[1]
    return msgspec.structs.replace(layer, proof=other.proof)


def _base_key(chain, layer):
    """The scalar 1: the cards laid bare, in an order anyone reads off (its proof would hold)."""
    one = (1).to_bytes(32, "little")
    return new_layer(layer.seat, chain.deck.received(), one, chain.deck.proof_context(chain.seq + 1))[1]


@pytest.mark.parametrize("doctor, message", [
    (_substituted, "bob's shuffle layer is not a shuffle of the deck it received"),
    (_swapped_for_a_received_point, "bob's shuffle layer is not a shuffle of the deck it received"),
    (_no_proof, "bob's shuffle layer carries no shuffle proof"),
    (_proven_for(1, proofs.SHARED), "bob's shuffle layer is not a shuffle of the deck it received"),
    (_proven_for(0, proofs.reshuffle_deck(0)), "bob's shuffle layer is not a shuffle of the deck it received"),
    (_proof_of_another_layer, "bob's shuffle layer is not a shuffle of the deck it received"),
    (_base_key, "under the base point"),
], ids=["substituted", "copied-point", "no-proof", "other-seq", "other-deck", "other-layer", "base-key"])
def test_a_doctored_join_layer_is_refused_by_the_victims_apply(players, tmp_path, doctor, message):
    dirs = {n: tmp_path / f"game-{n}" for n in players}
    players["alice"]("new", "aa", dirs["alice"], "--dealer", "peer", "--seat", "alice", "--seat", "bob",
                     "--as", "alice")
    joined = Path(players["bob"]("join", dirs["bob"], dirs["alice"] / "000000-genesis.pbem", "--as", "bob")
                  .stdout.split()[0])
    chain = folder.load(dirs["alice"])
    assert chain.version.shuffle_proofs
    body = codec.decode_body(codec.read_envelope(joined.read_bytes()), TurnBody)
    bob = Keys(KeyStore(tmp_path / "home-bob"), lambda: "").secret("bob")
    layer = doctor(chain, body.join.layer)
    forged = tmp_path / "mail" / joined.name
    forged.parent.mkdir()
    forged.write_bytes(codec.encode_signed("turn", msgspec.structs.replace(
        body, join=msgspec.structs.replace(body.join, layer=layer)), bob))
    before = snapshot(dirs["alice"])
    result = players["alice"].fails("apply", dirs["alice"], forged)
    assert "000001-bob.pbem" in result.stderr and message in result.stderr, result.stderr
    assert snapshot(dirs["alice"]) == before
    players["alice"]("apply", dirs["alice"], joined)  # the honest join still goes in


def test_a_watcher_names_a_doctored_layer_in_a_shared_folder(players, tmp_path):
    """One shared folder: bob's doctored join lands in it; alice's watcher
    names it and writes nothing (her set-up link included)."""
    shared = tmp_path / "shared"
    players["alice"]("new", "aa", shared, "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    joined = Path(players["bob"]("join", tmp_path / "bob-game", shared / "000000-genesis.pbem", "--as", "bob")
                  .stdout.split()[0])
    body = codec.decode_body(codec.read_envelope(joined.read_bytes()), TurnBody)
    bob = Keys(KeyStore(tmp_path / "home-bob"), lambda: "").secret("bob")
    (shared / joined.name).write_bytes(codec.encode_signed("turn", msgspec.structs.replace(
        body, join=msgspec.structs.replace(body.join, layer=_substituted(None, body.join.layer))), bob))
    before = snapshot(shared)
    out = players["alice"]("watch", shared, "--as", "alice", "--once", ok=False,
                           env={"PBEM_WATCH_SETTLE": "0.05"}).output
    assert "000001-bob.pbem" in out and "bob's shuffle layer is not a shuffle of the deck it received" in out, out
    assert snapshot(shared) == before


def test_a_creators_doctored_layer_is_refused_by_the_joiner(players, tmp_path):
    """The creator's layer sits in the genesis: the joiner's `pbem join`
    refuses a card substituted in it before writing anything."""
    made = tmp_path / "made"
    players["alice"]("new", "aa", made, "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    envelope = codec.read_envelope((made / "000000-genesis.pbem").read_bytes(), "genesis")
    body = codec.decode_body(envelope, GenesisBody)
    alice = Keys(KeyStore(tmp_path / "home-alice"), lambda: "").secret("alice")
    doctored = msgspec.structs.replace(body, peer=msgspec.structs.replace(
        body.peer, layer=_substituted(None, body.peer.layer)))
    forged = tmp_path / "mail" / "000000-genesis.pbem"
    forged.parent.mkdir()
    forged.write_bytes(codec.encode_signed("genesis", doctored, alice))
    result = players["bob"].fails("join", tmp_path / "bob-game", forged, "--as", "bob")
    assert "000000-genesis.pbem: alice's shuffle layer is not a shuffle of the deck it received" in result.stderr, result.stderr
    assert not (tmp_path / "bob-game").exists()


def _layers(table: tamper.Table) -> list:
    """Every shuffle layer of a game's files that has points."""
    genesis = codec.decode_body(codec.read_envelope(table.files[0]), GenesisBody)
    out = [genesis.peer.layer]
    for data in table.files[1:]:
        body = codec.decode_body(codec.read_envelope(data), TurnBody)
        out += [x for x in (body.join and body.join.layer, body.layer, body.reshuffle) if x is not None]
    return [layer for layer in out if layer.points]


@pytest.mark.parametrize("game, seats, options", [
    ("agent-avenue", ["alice", "bob"], ()),
    ("codenames", ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"], ()),
    ("codenames", ["alice", "bob"], ("variant=duet", "timer=1")),
    ("dark-agent", ["alice", "bob", "carol"], ("aims=2",)),
])
def test_every_layer_of_a_new_peer_game_is_proven_and_the_game_audits(game, seats, options, tmp_path):
    table = tamper.play(game, "peer", seats, 1, options)
    chain = tamper.replay(table.files)
    assert chain.genesis.version == versions.NEWEST and chain.version.shuffle_proofs and chain.over
    layers = _layers(table)
    assert len(layers) >= len(seats) and all(layer.proof for layer in layers)
    assert audit(tamper.save(table, tmp_path / "g")).ok


@pytest.mark.parametrize("name, layers", [("agent-avenue", 2), ("duet", 3)])
def test_games_begun_under_version_5_keep_verifying_with_their_proofs(name, layers, tmp_path):
    """Files written once by `vectors/peer-v5/make.sh`: the format of version
    5's proofs cannot change under them."""
    work = tmp_path / "game"
    shutil.copytree(VECTORS / name / "game", work)
    files = [p.read_bytes() for p in sorted(work.glob("0*.pbem"))]
    chain = tamper.replay(files)
    assert chain.genesis.version == 5 and chain.over
    proven = _layers(tamper.Table(name, "peer", files, {}))
    assert len(proven) == layers and all(layer.proof for layer in proven)
    runner = CliRunner()
    for command in ("verify", "audit"):
        result = runner.invoke(cli, [command, str(work)])
        assert result.exit_code == 0, result.output
