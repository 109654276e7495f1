"""A downgrade to an older protocol version (issue #20, class 1).

`pbem join` refused a genesis of an older protocol version, but in a shared
folder nobody runs `join`: a referee wrote a version-1 genesis (its seed
alone decides the deal, so it can try seeds until a friend's hand suits it)
and alice played it; a version-2 peer genesis (set-up chance from the
creator's nonce) was joined in place by `pbem sync`. Now a seat's first
file of any kind in a game below the current version is refused as `join`
refuses it, whichever command writes it, unless its user adds
`--allow-old-protocol`; a seat that is in already goes on, and old games
still verify. Each attack genesis is made with pbem's own library and signed
with the attacker's real key; the victim is the real CLI.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from pbem import games
from pbem.crypto import beacon, poker
from pbem.crypto.encoding import b64e, canonical
from pbem.home.store import KeyStore
from pbem.games.base import Known, SeatSpec, project
from pbem.protocol import codec, dealer as dealer_mod, versions
from pbem.protocol.peer import writer as peer_writer
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import PROTOCOL_VERSION, GenesisBody
from pbem.protocol.peer.deck import new_layer
from pbem.protocol.peer.secrets import secret_box
from pbem.protocol.setup import nonce_setup_seed, peer_setup_chance

GAME = "agent-avenue"


def _keys(home):
    store = KeyStore(home)
    return {n: store.secret(n, lambda: "") for n in ("alice", "bob", "rita")}


def _seats(secrets):
    game = games.get(GAME)
    opts = game.options({})
    specs = game.seats(opts, [SeatSpec("alice", None), SeatSpec("bob", None)])
    return game, opts, [(spec, secrets[spec.name].public) for spec in specs]


def _resigned(data: bytes, secret, **changes) -> bytes:
    body = codec.decode_body(codec.read_envelope(data, "genesis"), GenesisBody)
    return codec.encode_signed("genesis", msgspec.structs.replace(body, **changes), secret)


def referee_genesis(home, version: int) -> bytes:
    """rita's referee genesis of `version`: version 1 was dealt in the
    genesis from rita's seed alone, as a hotseat genesis still is."""
    secrets = _keys(home)
    game, opts, seats = _seats(secrets)
    master = random.Random(7).randbytes(32)
    if version >= 2:
        data = dealer_mod.make_genesis(game, opts, seats, "referee", secrets["rita"], master)
        if versions.of(version).proven_chance:
            return _resigned(data, secrets["rita"], version=version)
        body = codec.decode_body(codec.read_envelope(data, "genesis"), GenesisBody)  # as older pbems wrote it:
        return _resigned(data, secrets["rita"], version=version,  # no key for the referee's chance
                         dealer=msgspec.structs.replace(body.dealer, chance_key=None))
    data = dealer_mod.make_genesis(game, opts, seats, "hotseat", secrets["rita"], master)
    body = codec.decode_body(codec.read_envelope(data, "genesis"), GenesisBody)
    return _resigned(data, secrets["rita"], version=1, dealer=msgspec.structs.replace(body.dealer, mode="referee"))


def peer_genesis(home, version: int) -> bytes:
    """alice's peer genesis of `version`: before version 3 it carried its
    set-up, drawn from alice's own nonce (which she could try until it
    suited her)."""
    secrets = _keys(home)
    game, opts, seats = _seats(secrets)
    data = peer_writer.make_genesis(game, opts, seats, secrets["alice"])
    if version >= 3:
        return _resigned(data, secrets["alice"], version=version)
    body = codec.decode_body(codec.read_envelope(data, "genesis"), GenesisBody)
    full = game.setup(opts, [s for s, _ in seats], peer_setup_chance(nonce_setup_seed(body.nonce)))
    hidden = project(full, set())
    cards = {it.ref: it.card for z in full.zones.values() for it in z.items if isinstance(it, Known)}
    deck = [cards[ref] for ref in body.peer.slots]  # in the order of the refs, not sorted
    scalar, layer = new_layer("alice", list(poker.card_table(body.nonce, deck)))
    seed, anchor = beacon.new_chain(body.peer.beacon_length)
    peer = msgspec.structs.replace(body.peer, deck=deck, layer=layer, anchor=b64e(anchor),
                                   secret_box=secret_box(secrets["alice"], scalar, seed, body.nonce))
    return _resigned(data, secrets["alice"], version=version, initial=msgspec.Raw(canonical(hidden)),
                     state=state_hash(hidden), peer=peer)


def _shared(tmp_path, genesis: bytes):
    g = tmp_path / "g"
    g.mkdir()
    (g / "000000-genesis.pbem").write_bytes(genesis)
    return g


def _first_seat_file(pbem, g, *extra):
    """The command that writes the next seat's first file: `sync` (a join in
    place, a contribution) or, when it must decide, `submit`."""
    st = pbem.json("status", g)
    who = st["to_act"][0]
    if who["seat"] == "rita":  # the referee's own files are not a seat's
        pbem("sync", g, "--as", "rita")
        return _first_seat_file(pbem, g, *extra)
    if who["needs"] == "auto":
        return who["seat"], ("sync", g, "--as", who["seat"], *extra)
    cmd = pbem.json("legal", g, "--as", who["seat"])[0]
    return who["seat"], ("submit", g, "--as", who["seat"], "--cmd", cmd, *extra)


@pytest.mark.parametrize("mode,version", [("referee", 1), ("referee", 2), ("peer", 1), ("peer", 2), ("peer", 3)])
def test_a_seats_first_file_in_an_old_game_is_refused_in_a_shared_folder(pbem, tmp_path, mode, version):
    make = referee_genesis if mode == "referee" else peer_genesis
    g = _shared(tmp_path, make(pbem.home, version))
    pbem("verify", g)  # an old game still reads
    seat, args = _first_seat_file(pbem, g)
    before = sorted(p.name for p in g.iterdir())
    result = pbem.fails(*args)
    assert f"protocol version {version}" in result.stderr and "--allow-old-protocol" in result.stderr
    assert sorted(p.name for p in g.iterdir()) == before  # nothing written
    pbem(*args, "--allow-old-protocol")  # knowingly
    assert any(p.name.endswith(f"-{seat}.pbem") for p in g.iterdir())
    # in already: its next files need no flag; another seat's first one does
    st = pbem.json("status", g)
    nxt = st["to_act"][0]["seat"] if st["to_act"] else None
    if nxt == seat:
        _, args = _first_seat_file(pbem, g)
        pbem(*args)


@pytest.mark.parametrize("mode,version", [("referee", 1), ("referee", 2), ("peer", 2), ("peer", 3)])
def test_pbem_join_refuses_an_old_genesis_unless_allowed(pbem, tmp_path, mode, version):
    make = referee_genesis if mode == "referee" else peer_genesis
    (tmp_path / "g.pbem").write_bytes(make(pbem.home, version))
    result = pbem.fails("join", tmp_path / "mine", tmp_path / "g.pbem", "--as", "bob")
    assert f"protocol version {version}" in result.stderr
    assert not (tmp_path / "mine").exists()
    pbem("join", tmp_path / "mine", tmp_path / "g.pbem", "--as", "bob", "--allow-old-protocol")


def test_games_of_this_version_need_no_flag(pbem, tmp_path):
    for mode in ("referee", "peer"):
        g = _shared(tmp_path / mode if (tmp_path / mode).mkdir() is None else None,
                    (referee_genesis if mode == "referee" else peer_genesis)(pbem.home, PROTOCOL_VERSION))
        _, args = _first_seat_file(pbem, g)
        pbem(*args)


def test_pbem_new_writes_the_current_version(pbem, tmp_path):
    pbem("new", "aa", tmp_path / "r", "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    pbem("new", "aa", tmp_path / "p", "--seat", "alice", "--seat", "bob", "--dealer", "peer", "--as", "alice")
    pbem("new", "aa", tmp_path / "h", "--seat", "alice", "--seat", "bob")
    for name in "rph":
        assert pbem.json("info", tmp_path / name)["protocol_version"] == PROTOCOL_VERSION
