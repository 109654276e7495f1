"""Ballots that can never be tallied (issue #20, class 3).

A ballot sealed to the wrong party, committing to a command that is not a
vote, or holding garbage was accepted: the game could never go on, and
`pbem status` blamed an honest keeper (the referee, which cannot open it)
or an honest opener (the peer voter whose opening ran the commands). Now a
dealer voids the ballots it cannot tally, naming each voter, who votes
again (protocol version 4), and a peer voter's opening of no vote is refused
in its own file; `status` and the audit name the voter. Each bad ballot is
made with pbem's own library and signed with alice's real key; the victim
is the real CLI, in one shared folder holding every key.
"""

from __future__ import annotations

import os

import msgspec
import pytest

from conftest import play_to_end
from pbem import games
from pbem.crypto.commit import commit
from pbem.crypto.seal import seal
from pbem.home.store import KeyStore
from pbem.protocol import ballots, codec
from pbem.gamedir import folder
from pbem.protocol.clock import file_time
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import TurnBody
from pbem.protocol.turn_parts import Ballot
from pbem.protocol.party import Party
from tests import chancegame

games._REGISTRY.setdefault("lucky", ("tests.chancegame", "GAME", ()))


def _pick(cmds, seat, rng):
    return "pass" if "pass" in cmds else "vote go" if "vote go" in cmds else cmds[0]


def _until_alice_votes(pbem, g):
    for _ in range(300):
        who = pbem.json("status", g)["to_act"][0]
        if who["needs"] == "auto":
            pbem("sync", g, "--as", who["seat"])
            continue
        cmds = pbem.json("legal", g, "--as", who["seat"])
        if who["seat"] == "alice" and "vote go" in cmds:
            return
        pbem("submit", g, "--as", who["seat"], "--cmd", _pick(cmds, who["seat"], None))
    raise AssertionError("no vote came")


def _bad_ballot(kind: str, chain, alice, keeper, bob) -> Ballot:
    seq = chain.seq + 1
    ad = ballots.ballot_ad(chain.game_id, seq, "alice")
    if kind == "wrong party":
        return ballots.make_ballot(chancegame.Vote(stop=False), bob, chain.game_id, seq, "alice")
    if kind == "no vote":
        return ballots.make_ballot(chancegame.Pass(), keeper, chain.game_id, seq, "alice")
    garbage = os.urandom(256)  # a ballot of no command at all
    return Ballot(commitment=commit(os.urandom(32), garbage), envelope=seal(garbage, [keeper], ad))


def _cast(g, kind, home):
    """alice's bad ballot, signed with her real key, written as her file."""
    store = KeyStore(home)
    alice, bob = (store.secret(n, lambda: "") for n in ("alice", "bob"))
    chain = folder.load(g)
    keeper = chain.genesis.dealer.identity
    body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by="alice",
                    vote=_bad_ballot(kind, chain, alice, keeper, bob.public), at=file_time(chain),
                    state=state_hash(chain.public))
    (g / folder.turn_name(body.seq, "alice")).write_bytes(codec.encode_signed("turn", body, alice))
    return body.seq


@pytest.mark.parametrize("mode", ["referee", "hotseat"])
@pytest.mark.parametrize("kind", ["wrong party", "no vote", "garbage"])
def test_a_ballot_the_dealer_cannot_tally_is_voided_and_its_voter_named(pbem, tmp_path, mode, kind):
    g = tmp_path / "g"
    dealer = ["--dealer", "referee", "--referee", "rita"] if mode == "referee" else ["--dealer", "hotseat"]
    pbem("new", "lucky", g, "--seat", "alice", "--seat", "bob", *dealer, "--option", "rounds=6")
    _until_alice_votes(pbem, g)
    seq = _cast(g, kind, pbem.home)
    pbem("submit", g, "--as", "bob", "--cmd", "vote go")  # hotseat: its dealer answers at once
    if mode == "referee":
        pbem("sync", g, "--as", "rita")
    st = pbem.json("status", g)
    assert st["to_act"] == [{"seat": "alice", "needs": "decision"}]
    why = "could not open it" if kind != "no vote" else "it is no vote"
    assert any(line.startswith(f"alice's ballot (seq {seq}) was void") and why in line for line in st["pending"])
    assert "votes again" in pbem("status", g).stdout
    assert any("voids alice's ballot" in line for line in pbem("log", g).stdout.splitlines())
    pbem("submit", g, "--as", "alice", "--cmd", "vote go")  # her vote again, then the tally
    if mode == "referee":
        pbem("sync", g, "--as", "rita")
    assert play_to_end(pbem, g, pick=_pick)["over"]
    result = pbem("audit", g, ok=False)
    named = [line for line in (result.stdout + result.stderr).splitlines() if "could not be tallied" in line]
    assert len(named) == 1 and f"{folder.turn_name(seq, 'alice')} (signed by alice)" in named[0]


def test_a_dealer_cannot_void_a_true_vote(pbem, tmp_path):
    """A referee voiding an honest ballot with its opening is refused (a
    vote must be tallied); one without an opening is its word, which the
    audit names (docs/security.md)."""
    g = tmp_path / "g"
    pbem("new", "lucky", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    _until_alice_votes(pbem, g)
    pbem("submit", g, "--as", "alice", "--cmd", "vote go")
    pbem("submit", g, "--as", "bob", "--cmd", "vote stop")
    rita = KeyStore(pbem.home).secret("rita", lambda: "")
    chain = folder.load(g)
    opening = ballots.open_ballot(chain.records[chain.ballots["alice"][1]].body.vote, rita, chain.game_id,
                                chain.ballots["alice"][1], "alice")
    from pbem.protocol.turn_parts import VoidBallot

    body = TurnBody(game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by="rita",
                    void=[VoidBallot(seat="alice", opening=opening)], at=file_time(chain), state=state_hash(chain.public))
    (g / folder.turn_name(body.seq, "rita")).write_bytes(codec.encode_signed("turn", body, rita))
    assert "which is a vote: it must tally it" in pbem.fails("verify", g).stderr


def test_a_peer_voter_opening_no_vote_is_refused_in_its_own_file(pbem, tmp_path, monkeypatch):
    """alice's ballot commits to `pass`; her own file opening it is refused,
    so bob, who opens after her, is never blamed, and status names alice."""
    g = tmp_path / "g"
    pbem("new", "lucky", g, "--seat", "alice", "--seat", "bob", "--dealer", "peer", "--as", "alice",
         "--option", "rounds=6")
    _until_alice_votes(pbem, g)
    store = KeyStore(pbem.home)
    alice = store.secret("alice", lambda: "")
    chain = folder.load(g)
    honest = Party(chain, alice).turn([chancegame.Vote(stop=False)])
    body = codec.decode_body(codec.read_envelope(honest), TurnBody)
    ballot = ballots.make_ballot(chancegame.Pass(), alice.public, chain.game_id, body.seq, "alice")
    (g / folder.turn_name(body.seq, "alice")).write_bytes(
        codec.encode_signed("turn", msgspec.structs.replace(body, vote=ballot), alice))
    pbem("submit", g, "--as", "bob", "--cmd", "vote go")
    # alice's own pbem, its check switched off as a cheater's would be, opens it
    with monkeypatch.context() as mp:
        mp.setattr(ballots, "opening_problem", lambda chain, opening: None, raising=False)
        chain = folder.load(g, full=True)
        opening_file = Party(chain, alice).answer()
    bad = g / folder.turn_name(chain.seq + 1, "alice")
    bad.write_bytes(opening_file)
    result = pbem.fails("verify", g)
    assert "alice's ballot is no vote" in result.stderr and bad.name in result.stderr
    bad.unlink()
    st = pbem.json("status", g)
    assert st["to_act"][0]["seat"] == "alice" and "alice must open its own ballot" in st["pending"]
