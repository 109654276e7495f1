"""A peer game's public set-up chance (issue #14 part 2, protocol version 3).

Who starts and the Codenames grid come from every seat's first beacon link,
each committed at its join and opened after the last join, never from the
creator's nonce. Each doctored file is signed again with its writer's real
key, so only the new checks can refuse it."""

from __future__ import annotations


import msgspec
import pytest

from conftest import introduced
from pbem import games
from pbem.app import creating, opening, reading, receiving, turns, writing
from pbem.crypto import beacon
from pbem.crypto.encoding import b64d, b64e, canonical
from pbem.crypto.keys import SecretIdentity
from pbem.errors import InvalidOption, PbemError, ProtocolError
from pbem.games.base import SeatSpec, project
from pbem.protocol import codec
from pbem.gamedir import folder
from pbem.protocol.peer import writer as peer_writer
from pbem.protocol.chain import Chain
from pbem.protocol.formats import GenesisBody, TurnBody
from pbem.protocol.party import Party
from pbem.protocol.setup import peer_setup_chance, peer_setup_seed

import chancegame
from paths import ROOT


class Uneven(chancegame.LuckyDraw):
    """Lucky Draw whose deck loses a card chosen by public set-up chance:
    which cards are hidden depends on the set-up's chance, so a peer game
    shuffles its deck only after the set-up (a late deck)."""

    info = msgspec.structs.replace(chancegame.LuckyDraw.info, name="uneven")
    steady = False  # a test switch: lose no card

    def setup(self, options, seats, chance):
        state = super().setup(options, seats, chance)
        deck = state.zones["deck"]
        if not self.steady:
            del deck.items[chance.public.below(len(deck.items))]
        return state


UNEVEN = Uneven()


@pytest.fixture(autouse=True)
def test_games(monkeypatch):
    monkeypatch.setitem(games._REGISTRY, "lucky", ("tests.chancegame", "GAME", ()))
    monkeypatch.setitem(games._REGISTRY, "uneven", (__name__, "UNEVEN", ()))  # this very module: its switches


def _secrets(names):
    return {n: SecretIdentity.generate(n) for n in names}


def _genesis(game_name, secrets, options=()):
    game = games.get(game_name)
    opts = game.options(creating.parse_options(list(options)))
    specs = game.seats(opts, [SeatSpec(n) for n in secrets])
    return peer_writer.make_genesis(game, opts, [(s, secrets[s.name].public) for s in specs], secrets[specs[0].name])


def _body(data: bytes) -> TurnBody:
    return msgspec.json.decode(codec.read_envelope(data).body, type=TurnBody)


def _resign(data: bytes, secret, **changes) -> bytes:
    return codec.encode_signed("turn", msgspec.structs.replace(_body(data), **changes), secret)


def _set_up(game_name, secrets, options=()):
    """Genesis, joins and set-up links, in memory: (chain, files)."""
    chain = Chain(_genesis(game_name, secrets, options))
    files = []
    while not chain.dealt:
        who = chain.writers()[0]
        data = peer_writer.join(chain, secrets[who]) if not chain.deck.all_joined else Party(chain, secrets[who]).answer()
        chain.append(data)
        files.append(data)
    return chain, files


def test_the_genesis_holds_no_set_up_and_the_creator_opens_the_last_link(tmp_path):
    keys = introduced(tmp_path, ["alice", "bob"])
    dirs = {n: tmp_path / n for n in keys}
    creating.new_game("lucky", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    genesis = msgspec.json.decode(codec.read_envelope((dirs["alice"] / folder.GENESIS).read_bytes()).body, type=GenesisBody)
    assert genesis.version >= 3 and bytes(genesis.initial) == b"null"
    joined = receiving.join(dirs["bob"], [dirs["alice"] / folder.GENESIS], "bob", keys["bob"])
    assert _body(joined.read_bytes()).beacon is not None, "the last seat to join opens its first link in its join"
    receiving.apply_file(dirs["alice"], joined)
    info = turns.status(folder.load(dirs["alice"]))
    assert msgspec.to_builtins(info.to_act) == [{"seat": "alice", "needs": "auto"}] and not info.dealt
    assert info.pending == ["alice must open its beacon link, which sets the game up (every seat has joined)"]
    written = writing.sync(dirs["alice"], "alice", keys["alice"])
    chain = folder.load(dirs["alice"])
    assert chain.dealt and chain.public is not None and len(written) >= 1
    log = "\n".join(line for e in reading.log_entries(chain)["files"] for line in e["what"])
    assert "sets the game up from every seat's first beacon link" in log


def test_every_verifier_rebuilds_the_set_up_from_the_links():
    secrets = _secrets(["alice", "bob"])
    chain, files = _set_up("lucky", secrets)
    links = {"bob": b64d(_body(files[0]).beacon, 32), "alice": b64d(_body(files[1]).beacon, 32)}
    game = chain.game
    full = game.setup(chain.options, chain.seat_specs(), peer_setup_chance(peer_setup_seed(links, chain.game_id)))
    assert canonical(project(full, set())) == canonical(chain.records[2].after)


def test_one_genesis_gives_set_ups_the_creator_cannot_choose():
    """The creator's genesis fixes nothing public: the same genesis, joined
    by bob with different (random) beacon chains, gives either first player."""
    secrets = _secrets(["alice", "bob"])
    genesis = _genesis("lucky", secrets)
    first = set()
    for _ in range(16):
        chain = Chain(genesis)
        chain.append(peer_writer.join(chain, secrets["bob"]))
        chain.append(Party(chain, secrets["alice"]).answer())
        first.add(chain.public.turn)
    assert first == {0, 1}


def test_three_seats_open_their_links_in_join_order():
    secrets = _secrets(["alice", "bob", "carol"])
    chain, files = _set_up("lucky", secrets)
    bodies = [_body(f) for f in files]
    assert [b.by for b in bodies] == ["bob", "carol", "alice", "bob"]
    assert bodies[0].join is not None and bodies[0].beacon is None  # bob's anchor binds him; carol is still to come
    assert bodies[1].join is not None and bodies[1].beacon is not None  # the last to join opens at once
    assert [r.after is None for r in chain.records[1:]] == [True, True, True, False]


# --- doctored files, re-signed with the writer's real key ------------------------------------------------------


def _refused(chain: Chain, data: bytes, match: str) -> None:
    before = (chain.seq, chain.head)
    with pytest.raises(PbemError, match=match):
        chain.append(data)
    assert (chain.seq, chain.head) == before


def test_a_last_join_without_its_link_or_with_a_wrong_one_is_refused():
    secrets = _secrets(["alice", "bob"])
    chain = Chain(_genesis("lucky", secrets))
    join = peer_writer.join(chain, secrets["bob"])
    _refused(chain, _resign(join, secrets["bob"], beacon=None), "reveals no beacon link")
    _refused(chain, _resign(join, secrets["bob"], beacon=b64e(bytes(32))), "link")


def test_an_earlier_join_may_not_open_a_link():
    secrets = _secrets(["alice", "bob", "carol"])
    chain = Chain(_genesis("lucky", secrets))
    join = peer_writer.join(chain, secrets["bob"])
    link = b64e(beacon.link(bytes(32), 1000, 1))
    _refused(chain, _resign(join, secrets["bob"], beacon=link), "no beacon link")


def test_a_set_up_file_that_lies_is_refused():
    secrets = _secrets(["alice", "bob"])
    chain = Chain(_genesis("lucky", secrets))
    chain.append(peer_writer.join(chain, secrets["bob"]))
    honest = Party(chain, secrets["alice"]).answer()
    alice = secrets["alice"]
    _refused(chain, _resign(honest, alice, beacon=None), "reveals no beacon link")
    _refused(chain, _resign(honest, alice, state=b64e(bytes(32))), "state")
    _refused(chain, _resign(honest, alice, commands=[msgspec.Raw(b'{"kind":"lucky.pass"}')]), "no command|commands|set-up|carries")
    chain.append(honest)
    assert chain.dealt


def test_a_file_before_the_set_up_carries_nothing_else():
    secrets = _secrets(["alice", "bob", "carol"])
    chain = Chain(_genesis("lucky", secrets))
    chain.append(peer_writer.join(chain, secrets["bob"]))
    chain.append(peer_writer.join(chain, secrets["carol"]))
    honest = Party(chain, secrets["alice"]).answer()
    assert chain.writers() == ["alice"]
    _refused(chain, _resign(honest, secrets["alice"], state=b64e(bytes(32))), "empty one")
    _refused(chain, _resign(honest, secrets["alice"], commands=[msgspec.Raw(b'{"kind":"lucky.pass"}')]), "carr")
    chain.append(honest)
    assert not chain.dealt and chain.writers() == ["bob"]


def _resign_genesis(data: bytes, secret, **changes) -> bytes:
    body = msgspec.json.decode(codec.read_envelope(data, "genesis").body, type=GenesisBody)
    return codec.encode_signed("genesis", msgspec.structs.replace(body, **changes), secret)


def test_a_doctored_peer_genesis_is_refused():
    secrets = _secrets(["alice", "bob"])
    data = _genesis("lucky", secrets)
    body = msgspec.json.decode(codec.read_envelope(data, "genesis").body, type=GenesisBody)
    alice = secrets["alice"]
    # a set-up of the creator's choosing, as version 2 had it
    other = Chain(_genesis("lucky", secrets))
    with pytest.raises(ProtocolError, match="holds no set-up"):
        Chain(_resign_genesis(data, alice, initial=msgspec.Raw(canonical(project(
            games.get("lucky").setup(other.options, other.seat_specs(), peer_setup_chance(bytes(32))), set())))))
    deck = list(body.peer.deck)
    deck[0] = "2" if deck[0] != "2" else "3"  # one card for another
    peer = msgspec.structs.replace(body.peer, deck=sorted(deck))
    with pytest.raises(PbemError, match="cards of the rules' set-up"):
        Chain(_resign_genesis(data, alice, peer=peer))
    with pytest.raises(PbemError):
        Chain(_resign_genesis(data, alice, version=2))


def test_a_late_deck_is_shuffled_after_the_set_up_and_plays_to_the_end(tmp_path):
    from pbem.app.demo import run_demo
    from pbem.app.audit import audit

    lines: list[str] = []
    game = run_demo("uneven", tmp_path / "game", 3, "peer", "drawer", lines.append, keys_dir=tmp_path / "keys",
                    options=["target=200", "rounds=3"])
    chain = opening.open_game(game / "alice")
    assert chain.genesis.peer.late and not chain.genesis.peer.deck and chain.over
    assert audit(game / "alice").ok
    words = [line for e in reading.log_entries(chain)["files"] for line in e["what"]]
    assert sum("adds its shuffle layer" in w for w in words) == 2


def test_a_game_whose_hidden_cards_the_probes_found_fixed_wrongly_stops_at_the_set_up(monkeypatch):
    secrets = _secrets(["alice", "bob"])
    monkeypatch.setattr(Uneven, "steady", True)  # the probes at `pbem new` all agree
    chain = Chain(_genesis("uneven", secrets))
    monkeypatch.setattr(Uneven, "steady", False)
    chain.append(peer_writer.join(chain, secrets["bob"]))
    with pytest.raises(ProtocolError, match="not those its genesis dealt"):
        Party(chain, secrets["alice"]).answer()


def test_a_late_deck_with_private_decks_is_refused_for_peers():
    secrets = _secrets(["alice", "bob"])
    with pytest.raises(InvalidOption, match="private decks"):
        _genesis("uneven", secrets, ["private=1"])


def test_a_late_layer_out_of_turn_or_under_another_key_is_refused():
    secrets = _secrets(["alice", "bob"])
    chain = Chain(_genesis("uneven", secrets))
    chain.append(peer_writer.join(chain, secrets["bob"]))
    honest = Party(chain, secrets["alice"]).answer()
    body = _body(honest)
    assert body.layer is not None and body.layer.seat == "alice"  # the set-up file carries the first layer
    alice = secrets["alice"]
    _refused(chain, _resign(honest, alice, layer=None), "owes its shuffle layer")
    from pbem.protocol.peer.deck import new_layer

    _, other = new_layer("alice", [b64d(p, 32) for p in body.layer.points])
    _refused(chain, _resign(honest, alice, layer=msgspec.structs.replace(other, points=body.layer.points)),
             "not under the key of its join")
    chain.append(honest)
    assert chain.writers() == ["bob"] and chain.obligations()[0].what == "layer"
    bobs = Party(chain, secrets["bob"]).answer()
    _refused(chain, _resign(bobs, secrets["bob"], layer=None), "owes its shuffle layer")
    chain.append(bobs)
    assert chain.deck.complete


def test_join_refuses_a_peer_game_of_an_older_version(tmp_path):
    keys = introduced(tmp_path, ["alice", "bob"])
    example = folder.GENESIS

    genesis = ROOT / "examples" / "agent-avenue-peer" / "alice" / example
    with pytest.raises(PbemError, match="version"):
        receiving.join(tmp_path / "mine", [genesis], "bob", keys["bob"])
    assert not (tmp_path / "mine").exists() or not any((tmp_path / "mine").iterdir())


@pytest.mark.parametrize("dealer", ["referee", "peer"])
def test_show_before_the_set_up_says_so(pbem, tmp_path, dealer):
    g = tmp_path / "g"
    extra = ["--referee", "rita"] if dealer == "referee" else ["--as", "alice"]
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", dealer, *extra, deal=False)
    for args in (["show", g], ["show", g, "--json"]):
        r = pbem.fails(*args)
        assert r.stderr.startswith("pbem: error: Agent Avenue is not set up yet") and "Traceback" not in r.stderr
