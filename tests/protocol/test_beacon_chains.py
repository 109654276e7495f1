"""Beacon chains of pbem's length, renewed before they run out (issue #20,
class 9; `pbem.protocol.peer.renewal`).

The creator chose the chains' length and no joiner was told: with four links
a game died at seq 8 ("the beacon chain is used up"), never to be audited;
and pbem's own 1,000 links were a hard cap a long Dark Agent game could
reach. Now a joiner refuses any other length, every verifier of a version-4
game too, and a seat renews its chain (a new anchor committed in an earlier
file) before it runs out. The long games here play with chains of a few
links (the length patched in writers and verifiers alike) so that they run
out, and renew, many times.
"""

from __future__ import annotations

import msgspec
import pytest

import tamper
from conftest import Pbem, play_to_end
from pbem import games
from pbem.crypto import beacon
from pbem.crypto.encoding import b64e
from pbem.protocol import codec
from pbem.protocol.peer import deck as peer, renewal as peer_renewal, writer as peer_writer
from pbem.protocol.peer import knowledge as peer_knowledge
from pbem.protocol.formats import TurnBody
from pbem.protocol.peer_parts import BeaconRenewal
from test_downgrade import _keys, _resigned, _seats, _shared

games._REGISTRY.setdefault("lucky", ("tests.chancegame", "GAME", ()))


@pytest.fixture
def short_chains(monkeypatch):
    """Chains of five links, renewed when two are left."""
    monkeypatch.setattr(peer, "BEACON_LENGTH", 5)
    monkeypatch.setattr(peer_renewal, "RENEW_WHEN_LEFT", 3)


def test_a_chain_length_the_creator_chose_is_refused(pbem, tmp_path):
    secrets = _keys(pbem.home)
    game, opts, seats = _seats(secrets)
    short = peer_writer.make_genesis(game, opts, seats, secrets["alice"], beacon_length=4)
    (tmp_path / "g.pbem").write_bytes(short)
    result = pbem.fails("join", tmp_path / "bob", tmp_path / "g.pbem", "--as", "bob")
    assert "beacon chains have 4 links" in result.stderr
    g = _shared(tmp_path, short)
    assert "beacon chains have 4 links" in pbem.fails("sync", g, "--as", "bob").stderr
    # an older version's genesis with a short chain: refused even when the old version is allowed
    old = _resigned(short, secrets["alice"], version=3)
    (tmp_path / "old.pbem").write_bytes(old)
    result = pbem.fails("join", tmp_path / "bob3", tmp_path / "old.pbem", "--as", "bob", "--allow-old-protocol")
    assert "4 links, which its creator chose" in result.stderr
    assert not (tmp_path / "bob3").exists()


def test_long_games_renew_their_chains_and_end(pbem, tmp_path, short_chains):
    g = tmp_path / "g"
    pbem("id", "new", "carol", "--no-passphrase")
    pbem("new", "lucky", g, "--seat", "alice", "--seat", "bob", "--seat", "carol", "--dealer", "peer", "--as", "alice",
         "--option", "rounds=4")
    st = play_to_end(pbem, g)
    assert st["over"]
    pbem("verify", g, "--full")
    assert "ok" in pbem("audit", g).stdout.lower()
    renewed = {}
    for path in sorted(g.glob("0*.pbem"))[1:]:
        body = codec.decode_body(codec.read_envelope(path.read_bytes()), TurnBody)
        if body.renewal is not None:
            renewed[body.by] = renewed.get(body.by, 0) + 1
    assert sorted(renewed) == ["alice", "bob", "carol"] and min(renewed.values()) >= 2, renewed


def _game(short_chains):
    table = tamper.play("lucky", "peer", ["alice", "bob"], seed=3)
    bodies = [codec.decode_body(codec.read_envelope(d), TurnBody) for d in table.files[1:]]
    return table, bodies


def _refused(tmp_path, table, k, body, match):
    """Files 0..k-1 honest and a doctored file k, re-signed by its writer:
    the real CLI refuses the folder (of a user who knows none of its keys)."""
    pbem = Pbem(tmp_path / "home")
    g = tmp_path / f"g{len(list(tmp_path.iterdir()))}"
    tamper.save(tamper.Table(table.game, table.mode, table.files[:k] + [tamper.resign(table, body)], table.secrets), g)
    result = pbem.fails("verify", g)
    assert match in result.stderr, result.stderr


def test_renewals_that_break_the_rules_are_refused(tmp_path, short_chains):
    table, bodies = _game(short_chains)
    k = next(i for i, b in enumerate(bodies, 1) if b.renewal is not None)
    body = bodies[k - 1]
    # a second renewal while the first is still to be started
    j = next(i for i, b in enumerate(bodies, 1) if i > k and b.by == body.by)
    again = msgspec.structs.replace(bodies[j - 1], renewal=body.renewal)
    _refused(tmp_path, table, j, again, "renews its beacon chain again")
    # the first link after the chain ran out is not of the renewed chain
    first = next(i for i, b in enumerate(bodies, 1) if i > k and b.by == body.by and _starts_renewed(table, i))
    wrong = msgspec.structs.replace(bodies[first - 1], beacon=b64e(beacon.link(bytes(32), 5, 1)))
    _refused(tmp_path, table, first, wrong, "does not hash to the previous one")
    # its box must hold the seed of its anchor: the writer's own client finds out
    seed, anchor = beacon.new_chain(5)
    other = msgspec.structs.replace(body.renewal, anchor=b64e(anchor))
    chain = tamper.replay(table.files[:k])
    chain.append(tamper.resign(table, msgspec.structs.replace(body, renewal=other)))
    with pytest.raises(Exception, match="does not lead to the anchor"):
        peer_knowledge.my_secrets(chain, table.secrets[body.by])
    # at the end each renewed seed is published and must lead to its anchor
    end = next(i for i, b in enumerate(bodies, 1) if b.secrets is not None and b.secrets.renewals)
    secrets = bodies[end - 1].secrets
    forged = msgspec.structs.replace(secrets, renewals=[b64e(seed), *secrets.renewals[1:]])
    _refused(tmp_path, table, end, msgspec.structs.replace(bodies[end - 1], secrets=forged),
             "does not lead to its anchor")
    dropped = msgspec.structs.replace(secrets, renewals=secrets.renewals[:-1])
    _refused(tmp_path, table, end, msgspec.structs.replace(bodies[end - 1], secrets=dropped),
             "renewed beacon seeds")


def _starts_renewed(table, k: int) -> bool:
    """File k is the first of its writer's renewed chain."""
    before = tamper.replay(table.files[:k])
    by = codec.read_envelope(table.files[k]).by
    return before.deck.links_used[by] >= before.deck.beacon_length


def test_a_game_of_an_older_version_cannot_renew(tmp_path, short_chains, monkeypatch):
    """A renewal in a game begun before version 4 is refused: a version-3
    game played until alice's third file, which she re-signs with a renewal."""
    from pbem.crypto.seal import seal

    monkeypatch.setattr(peer_writer, "PROTOCOL_VERSION", 3)
    files: list[bytes] = []

    class Forged(Exception):
        pass

    def edit(chain, data, secrets):
        if not files:
            files.append(msgspec.json.encode(chain.records[0].outer) + b"\n")
        body = codec.decode_body(codec.read_envelope(data), TurnBody)
        if chain.dealt and body.by == "alice" and sum(codec.read_envelope(f).by == "alice" for f in files) >= 2:
            seed, anchor = beacon.new_chain(5)
            box = seal(seed, [secrets["alice"].public], peer_renewal.renewal_ad(chain.game_id, body.seq))
            files.append(codec.encode_signed("turn", msgspec.structs.replace(
                body, renewal=BeaconRenewal(anchor=b64e(anchor), box=box)), secrets["alice"]))
            raise Forged
        files.append(data)
        return data

    with pytest.raises(Forged):
        tamper.play("lucky", "peer", ["alice", "bob"], seed=3, edit=edit)
    g = tmp_path / "g"
    g.mkdir()
    for k, data in enumerate(files):
        (g / ("000000-genesis.pbem" if k == 0 else f"{k:06d}-{codec.read_envelope(data).by}.pbem")).write_bytes(data)
    assert "games begun before protocol version 4 cannot do" in Pbem(tmp_path / "home").fails("verify", g).stderr


def test_without_a_renewal_a_used_up_chain_stops_its_seat_with_a_true_hint(short_chains):
    from pbem.errors import CryptoError

    deck = peer.PeerDeck(game_id="g", nonce="n", slots=[], table={}, join_order=["a"], beacon_length=5)
    deck.links_used["a"] = 5
    with pytest.raises(CryptoError) as refused:
        deck.next_link("a", bytes(32), [])
    assert "before protocol version 4" in refused.value.hint
    deck.renewable = True
    with pytest.raises(CryptoError) as refused:
        deck.next_link("a", bytes(32), [])
    assert "renews a chain before it runs out" in refused.value.hint
