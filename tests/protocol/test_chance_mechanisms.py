"""Chance during play (issue #14), with the test game Lucky Draw played to
the end by bots through the real file protocol under every dealer mode."""

from __future__ import annotations

import msgspec
import pytest

from pbem import games
from pbem.app import opening, receiving, turns
from pbem.app.demo import run_demo
from pbem.protocol import dealer as dealer_mod
from pbem.app.audit import audit


@pytest.fixture(autouse=True)
def lucky(monkeypatch):
    monkeypatch.setitem(games._REGISTRY, "lucky", ("tests.chancegame", "GAME", ()))


def _play(tmp_path, dealer, seed, bot="drawer", **kw):
    lines: list[str] = []
    folder = run_demo("lucky", tmp_path / "game", seed, dealer, bot, lines.append, keys_dir=tmp_path / "keys",
                      options=["target=200", "rounds=6"], **kw)
    return folder, lines


@pytest.mark.parametrize("dealer", ["hotseat", "referee"])
def test_rolls_draws_and_reshuffles_play_to_the_end(tmp_path, dealer):
    folder, lines = _play(tmp_path, dealer, 7)
    chain = opening.open_game(folder)
    assert chain.outcome() is not None
    assert chain.public.reshuffles >= 1, "the drawer bot empties the deck"
    text = "\n".join(lines)
    assert "draws the chance of" in text and "commits to the order of" in text
    assert audit(folder).ok
    # a roll pauses its file: the seat's file holds the command, the dealer's the result
    paused = [r for r in chain.records if r.resumed is not None]
    assert paused and all(chain.records[r.seq - 1].by == r.resumed[0] for r in paused)


def test_a_dealer_that_supplies_other_dice_is_caught_by_the_audit_before_version_7(tmp_path, monkeypatch):
    """Games begun before protocol version 7 keep the referee's dice of the
    game seed, which only the audit checks (version 7 proves them at once:
    below, and tests/protocol/test_referee_chance.py)."""
    from pbem.protocol import formats

    monkeypatch.setattr(dealer_mod, "PROTOCOL_VERSION", 6)
    monkeypatch.setattr(formats, "PROTOCOL_VERSION", 6)  # what a seat's first file checks
    real = dealer_mod.public_chance_seed
    monkeypatch.setattr(dealer_mod, "public_chance_seed", lambda seed, seq: real(b"\x01" * 32, seq))
    with pytest.raises(Exception, match="audit failed"):
        _play(tmp_path, "referee", 7)
    monkeypatch.setattr(dealer_mod, "public_chance_seed", real)
    assert opening.open_game(tmp_path / "game").genesis.version == 6
    failures = audit(tmp_path / "game").failures
    assert failures and all("signed by referee" in f and "chance it supplied" in f for f in failures)


def test_a_referee_that_supplies_other_dice_is_refused_at_once_from_version_7(tmp_path, monkeypatch):
    """The referee's own pbem refuses to write dice that are not its
    verifiable random function's (it checks its file as every verifier does)."""
    from pbem.protocol import referee_chance

    real = referee_chance.draw

    def other_dice(master, game_id, contributions, name):
        seed, proof = real(master, game_id, contributions, name)
        return (bytes(32), proof) if name != referee_chance.SET_UP else (seed, proof)

    monkeypatch.setattr(referee_chance, "draw", other_dice)
    with pytest.raises(Exception, match="the referee's chance is not the output its key proves for draw 'play 1'"):
        _play(tmp_path, "referee", 7)


def test_a_dealer_that_reshuffles_from_another_seed_is_caught_by_the_audit(tmp_path, monkeypatch):
    real = dealer_mod.secret_chance
    monkeypatch.setattr(dealer_mod, "secret_chance", lambda seed, seq: real(b"\x02" * 32, seq))
    # hotseat: a seeded deal, so the drawer bot surely empties the deck (a
    # referee's seed is its own); its own audit shares the doctored shuffle
    _play(tmp_path, "hotseat", 7)
    assert opening.open_game(tmp_path / "game").public.reshuffles >= 1
    monkeypatch.setattr(dealer_mod, "secret_chance", real)
    failures = audit(tmp_path / "game").failures
    assert failures and any("is not the card the seed's shuffle put there" in f and "signed by dealer" in f
                            for f in failures)


# --- simultaneous secret choices ------------------------------------------------

from pbem.errors import CommitmentError, PbemError, SealError  # noqa: E402
from pbem.protocol import ballots as votes, codec  # noqa: E402
from pbem.protocol.formats import PROTOCOL_VERSION, TurnBody  # noqa: E402
from tests import tamper  # noqa: E402

LUCKY = ("target=200", "rounds=6")


def _table(mode: str, seed: int = 5):
    return tamper.play("lucky", mode, ["alice", "bob"], seed, LUCKY)


def _bodies(table):
    return [codec.decode_body(codec.read_envelope(f), TurnBody) for f in table.files[1:]]


def _resign(table, k: int, body: TurnBody) -> bytes:
    return codec.encode_signed("turn", body, table.secrets[body.by])


@pytest.mark.parametrize("mode", ["hotseat", "referee"])
def test_ballots_are_sealed_to_the_dealer_alone_and_opened_together(mode):
    table = _table(mode)
    bodies = _bodies(table)
    ballots = [(k, b) for k, b in enumerate(bodies, 1) if b.vote is not None]
    tallies = [(k, b) for k, b in enumerate(bodies, 1) if b.tally]
    assert ballots and tallies
    dealer = "dealer" if mode == "hotseat" else "rita"
    for k, body in ballots:
        assert body.commands == [] and body.state == bodies[k - 2].state if k > 1 else True
        for name, secret in table.secrets.items():
            if name == dealer:
                votes.open_ballot(body.vote, secret, tamper.replay(table.files[:1]).game_id, k, body.by)
            else:
                with pytest.raises(SealError):
                    votes.open_ballot(body.vote, secret, tamper.replay(table.files[:1]).game_id, k, body.by)
    for k, body in tallies:
        assert body.by == dealer and [o.seat for o in body.tally] == ["alice", "bob"]


def test_a_dealer_that_opens_another_vote_than_was_cast_is_refused():
    table = _table("referee")
    bodies = _bodies(table)
    k, body = next((k, b) for k, b in enumerate(bodies, 1) if b.tally)
    chain = tamper.replay(table.files[:k])
    first = body.tally[0]
    other = b'{"stop":%s,"t":"lucky.vote"}' % (b"false" if b"true" in bytes(first.command) else b"true")
    doctored = msgspec.structs.replace(body, tally=[msgspec.structs.replace(first, command=msgspec.Raw(other)), *body.tally[1:]])
    with pytest.raises(CommitmentError, match="alice's ballot is not what alice committed to"):
        chain.append(_resign(table, k, doctored))


def test_a_second_ballot_a_ballot_out_of_a_vote_and_commands_during_a_vote_are_refused():
    table = _table("referee")
    bodies = _bodies(table)
    k, body = next((k, b) for k, b in enumerate(bodies, 1) if b.vote is not None)
    assert body.by == "alice"
    chain = tamper.replay(table.files[: k + 1])  # alice has voted
    again = msgspec.structs.replace(body, seq=k + 1, prev=chain.head)
    with pytest.raises(PbemError, match="alice has voted already"):
        chain.append(_resign(table, k + 1, again))
    early = tamper.replay(table.files[:2])
    stray = msgspec.structs.replace(body, seq=2, prev=early.head, state=bodies[0].state, by=early.writers()[0])
    if stray.by in ("alice", "bob"):
        with pytest.raises(PbemError, match="no vote is open"):
            early.append(_resign(table, 2, stray))
    before = tamper.replay(table.files[:k])
    play = msgspec.structs.replace(body, vote=None, commands=[msgspec.Raw(b'{"t":"lucky.pass"}')])
    with pytest.raises(PbemError, match="a vote is open"):
        before.append(_resign(table, k, play))


# --- peer games: chance nobody foresees, votes nobody reads early ---------------


def test_a_peer_roll_is_drawn_from_the_next_seats_link_and_a_withheld_link_is_named(tmp_path):
    from pbem.protocol.chain import Chain

    table = _table("peer")
    chain = Chain(table.files[0])
    seen = 0
    for data in table.files[1:]:
        before = chain.public
        record = chain.append(data)
        if chain.paused is not None:  # a roll: the file ends before it, the state untouched
            seen += 1
            assert record.after.last_roll == before.last_roll and record.commands[-1].__class__.__name__ == "Roll"
            answerer = chain.chance_answerer()
            assert answerer != record.by and chain.writers() == [answerer]
            assert chain.obligations()[0].what == "chance" and chain.obligations()[0].to == record.by
            if seen == 1:  # the answering seat withholds its link: status names it, nothing moves
                lines = turns.status(chain).pending
                assert any(answerer in line and record.by in line for line in lines), lines
    assert seen >= 2


def test_a_peer_seat_that_opens_another_vote_than_it_cast_is_refused():
    table = _table("peer")
    bodies = _bodies(table)
    k, body = next((k, b) for k, b in enumerate(bodies, 1) if b.tally)
    chain = tamper.replay(table.files[:k])
    first = body.tally[0]
    other = b'{"stop":%s,"t":"lucky.vote"}' % (b"false" if b"true" in bytes(first.command) else b"true")
    doctored = msgspec.structs.replace(body, tally=[msgspec.structs.replace(first, command=msgspec.Raw(other))])
    with pytest.raises(CommitmentError, match=f"{body.by}'s ballot is not what {body.by} committed to"):
        chain.append(_resign(table, k, doctored))
    # and a peer ballot is sealed to its voter alone
    for j, b in enumerate(bodies, 1):
        if b.vote is not None:
            for name, secret in table.secrets.items():
                if name != b.by:
                    with pytest.raises(SealError):
                        votes.open_ballot(b.vote, secret, chain.game_id, j, b.by)


def test_join_refuses_a_genesis_of_protocol_version_1(tmp_path):
    """A creator could write a version-1 genesis (chance its writers can
    foresee): verifiers still read old games, but nobody joins a new one."""
    from pbem.home.store import KeyStore
    from pbem.errors import ProtocolError
    from pbem.protocol.formats import GenesisBody

    # a referee genesis of version 1 was dealt in the genesis, as a hotseat one still is
    table = _table("hotseat")
    body = codec.decode_body(codec.read_envelope(table.files[0]), GenesisBody)
    dealer = msgspec.structs.replace(body.dealer, mode="referee")
    old = codec.encode_signed("genesis", msgspec.structs.replace(body, version=1, dealer=dealer),
                              table.secrets[body.dealer.identity.name])
    tamper.Chain(old)  # still a readable game
    (tmp_path / "g.pbem").write_bytes(old)
    store = KeyStore(tmp_path / "home")
    keys = opening.Keys(store, lambda: "")
    with pytest.raises(ProtocolError, match="protocol version 1"):
        receiving.join(tmp_path / "bob", [tmp_path / "g.pbem"], "bob", keys)
    assert not (tmp_path / "bob").exists()


def test_only_the_dealer_answers_a_paused_roll_and_only_the_roller_continues():
    from pbem.errors import WrongWriter

    # k: a seat's paused roll at seq k, answered at k + 1, after which the
    # roller goes on; the seats' contributions make every game another, and
    # one in which no roll left the roller an action is played again
    for seed in range(5, 45):
        table = _table("referee", seed)
        bodies = _bodies(table)
        chains = [tamper.replay(table.files[:1])]
        for data in table.files[1:]:
            chains.append(tamper.clone(chains[-1]))
            chains[-1].append(data)
        k = next((k for k in range(1, len(chains) - 2)
                  if chains[k].paused is not None and chains[k + 1].writers() == [chains[k].paused[0]]), None)
        if k is not None:
            break
    else:
        raise AssertionError("forty games without a roll that lets the roller go on")
    roller = chains[k].paused[0]
    other = next(s for s in chains[k].seat_order if s != roller)
    stray = msgspec.structs.replace(bodies[k], seq=k + 1, prev=chains[k].head, by=other)
    with pytest.raises(WrongWriter, match="waiting for rita"):
        tamper.clone(chains[k]).append(_resign(table, k + 1, stray))
    assert chains[k + 1].records[-1].resumed[0] == roller
    body = msgspec.structs.replace(bodies[k + 1], seq=k + 2, prev=chains[k + 1].head, by=other,
                                   commands=[msgspec.Raw(b'{"t":"lucky.pass"}')], reveals=[])
    with pytest.raises(WrongWriter, match=f"waiting for {roller}"):
        tamper.clone(chains[k + 1]).append(_resign(table, k + 2, body))


def test_info_dir_says_once_who_can_know_which_chance(pbem, tmp_path):
    g, p = tmp_path / "g", tmp_path / "p"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    out = pbem("info", g).stdout
    assert f"protocol version {PROTOCOL_VERSION}, dealer referee (rita)" in out
    assert "note: rita (the referee) knows every hidden card" in out and "contribution" in out
    assert "proven in its file and refused at once otherwise" in out  # version 7: its dice are proven
    pbem("new", "aa", p, "--seat", "alice", "--seat", "bob", "--dealer", "peer", "--as", "alice")
    info = pbem.json("info", p)
    assert info["protocol_version"] == PROTOCOL_VERSION and any("every other seat" in line for line in info["chance"])
    assert any("every seat's first beacon link" in line for line in info["chance"])
    assert "note:" not in pbem("status", p).stdout  # status no longer repeats it
    assert "options" in pbem.json("info", "aa")  # a game name still describes the game
