"""Dark Agent played to the end through the file protocol (issue #9).

Bots write every file with the real writers (`tamper.play`: one in-memory
chain, real keys, real crypto); the files are then saved as a game folder,
verified and audited. CI plays one 3-seat peer game and short referee games
of 1 seat (``aims=2``) and 6 seats (``rounds=2``). ``PBEM_LONG=1`` adds peer games of 2 to 6
seats over more seeds, and the CLI demos (`pbem demo dark-agent`, a referee
game by default, and ``--dealer peer``), which take minutes.
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

import tamper
from pbem.app import creating, opening
from pbem.cli import cli
from pbem.crypto.encoding import canonical
from pbem.games import get
from pbem.games.dark_agent.commands import Attack, Deal
from pbem.protocol import codec
from pbem.gamedir import folder as folder_mod
from pbem.app.audit import audit

LONG = bool(os.environ.get("PBEM_LONG"))
GAME = get("dark-agent")
SEATS = ["alice", "bob", "carol", "dan", "eve", "fay"]


def _played(mode: str, n: int, seed: int, tmp_path, options=("aims=2",)):
    table = tamper.play("dark-agent", mode, SEATS[:n], seed, options)
    path = tmp_path / f"{mode}-{n}-{seed}"
    path.mkdir()
    for k, data in enumerate(table.files):
        name = folder_mod.GENESIS if k == 0 else folder_mod.turn_name(k, codec.read_envelope(data).by)
        (path / name).write_bytes(data)
    chain = opening.verify(path)
    assert chain.over and chain.outcome() is not None
    report = audit(path)
    assert report.ok, report.failures
    return chain


def _check_peer(chain) -> None:
    """The area comes from the first file of play, and every attack's dice
    from a file of every other seat, written after the attack was signed
    (the next seat's last: it draws them)."""
    order = chain.seat_order
    assert not GAME.info.immediate_chance
    decisions = [r for r in chain.records[1:] if r.commands]
    assert decisions[0].by == order[-1] and decisions[0].commands == [Deal()]
    assert not any(z.items for z in decisions[0].before.zones.values() if z.public), "no card shown at set-up"
    attacks = 0
    for i, r in enumerate(chain.records):
        if r.commands and isinstance(r.commands[-1], Attack):
            attacks += 1
            assert canonical(r.after) == canonical(r.before), "the attack waits for its dice"
            others = len(order) - 1
            answers = chain.records[i + 1:i + 1 + others]
            assert sorted(a.by for a in answers) == sorted(set(order) - {r.by}) and not any(a.commands for a in answers)
            nxt = answers[-1]
            assert nxt.by == order[(order.index(r.by) + 1) % len(order)]
            assert nxt.resumed == (r.by, r.commands[-1]) and all(a.body.beacon for a in answers)  # links the attacker could not know
    assert attacks, "a game with no attack checks nothing"


def test_peer_game_of_three_plays_to_the_scoring_and_audits(tmp_path):
    chain = _played("peer", 3, 3, tmp_path)
    _check_peer(chain)
    deck = chain.deck
    assert {zone for zone, _ in deck.own.values()} == {"area:deck"}  # the area deck is the first seat's private deck (its own layer)


def test_referee_games_of_one_and_six_seats_play_to_the_end(tmp_path):
    solo = _played("referee", 1, 2, tmp_path)
    assert solo.outcome().reason.startswith("solo: ") and solo.public.round <= 10 + 2
    six = _played("referee", 6, 2, tmp_path, ("rounds=2",))  # to the scoring after two rounds
    assert set(six.outcome().scores) == set(SEATS) and six.public.round == 2


def test_demo_and_new_default_to_the_referee(monkeypatch):
    """Without --dealer, `pbem demo dark-agent` plays a referee game (the
    game's `default_dealer`); other games keep hotseat."""
    import pbem.app.demo

    seen = []
    monkeypatch.setattr(pbem.app.demo, "run_demo", lambda game, folder, seed, dealer, *a, **k: seen.append((game, dealer)))
    for game in ("dark-agent", "agent-avenue"):
        assert CliRunner().invoke(cli, ["demo", game]).exit_code == 0
    assert seen == [("dark-agent", "referee"), ("agent-avenue", "hotseat")]
    assert creating.dealer_for("agent-avenue", None) == "hotseat"
    assert creating.dealer_for("dark-agent", None, "rita") == "referee"
    assert creating.dealer_for("dark-agent", "peer") == "peer"
    assert "dealer: referee unless --dealer says otherwise" in CliRunner().invoke(cli, ["info", "da"]).stdout


@pytest.mark.skipif(not LONG, reason="more peer games: PBEM_LONG=1")
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(3))
def test_peer_games_of_every_size(n, seed, tmp_path):
    _check_peer(_played("peer", n, seed, tmp_path, ()))


@pytest.mark.skipif(not LONG, reason="the CLI demos take minutes: PBEM_LONG=1")
@pytest.mark.parametrize("dealer", [None, "peer"])
def test_the_demo_plays_three_seats_to_the_scoring(dealer, tmp_path):
    from pbem.app.demo import run_demo

    lines: list[str] = []
    mode = dealer or GAME.info.default_dealer
    run_demo("dark-agent", tmp_path / "g", 4, mode, None, lines.append, keys_dir=tmp_path / "keys",
             options=["rounds=1"])  # to the scoring after a round; verifies and audits every folder
    assert f"alice, bob, carol ({mode} dealer)" in lines[0]
    assert any(line.startswith("result: highest score") for line in lines)
    assert sum(1 for line in lines if line.startswith("pbem audit") and line.endswith("checks)")) == (
        3 if mode == "peer" else 1)
