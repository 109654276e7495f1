"""Codex with more than two seats under the referee and peer dealers: whole
games by bots through the real writers, verified from their files and
audited; each seat's hand readable by that seat alone, in the chain's
zones and in every seat's view. One referee free-for-all of four in the
default run; PBEM_LONG=1 adds peer games of 3 to 5, Two-Headed Dragon
games under both dealers and `pbem demo` of both modes under every dealer."""

from __future__ import annotations

import os

import pytest

from pbem.app import opening
from pbem.app.demo import run_demo
from pbem.app.audit import audit
from pbem.protocol.party import Party
from tests import tamper

LONG = os.environ.get("PBEM_LONG") == "1"
NAMES = ["alice", "bob", "carol", "dave", "erin"]

GAMES = [("referee", 4, ("mode=ffa",))]
LONG_GAMES = [("peer", 4, ("mode=ffa",)), ("peer", 3, ("mode=ffa",)), ("peer", 5, ("mode=ffa",)),
              ("referee", 5, ("mode=ffa",)), ("referee", 4, ("mode=2v2",)), ("peer", 4, ("mode=2v2",))]


def _hands_sealed(table: tamper.Table, seats: list[str]) -> None:
    """Every seat's hand zone has that seat alone as reader, and no other
    seat's view of the final state names its cards."""
    chain = tamper.replay(table.files)
    state = chain.records[-1].after
    for seat in seats:
        assert state.zones[f"hand:{seat}"].readers == [seat]
        mine = Party(chain, table.secrets[seat]).state()
        view = chain.game.view(mine, seat)
        for side in view.sides:
            assert (side.my_hand is not None) == (side.seat == seat)


@pytest.mark.parametrize("dealer,n,options", GAMES + (LONG_GAMES if LONG else []))
def test_a_multiplayer_game_verifies_and_audits(dealer, n, options, tmp_path):
    seats = NAMES[:n]
    teams = ["red", "blue"] * 2 if "mode=2v2" in options else []
    table = tamper.play("codex", dealer, [f"{s}:{t}" for s, t in zip(seats, teams)] or seats, 3, options)
    folder = tamper.save(table, tmp_path / "game")
    chain = opening.verify(folder)
    assert chain.over and chain.outcome().winners
    report = audit(folder)
    assert report.ok, report.failures
    _hands_sealed(table, seats)


@pytest.mark.skipif(not LONG, reason="the whole CLI demo under every dealer: PBEM_LONG=1")
@pytest.mark.parametrize("dealer", ["hotseat", "referee", "peer"])
@pytest.mark.parametrize("options", [("mode=ffa", "players=4"), ("mode=2v2",)])
def test_the_multiplayer_demo_plays_to_the_end(dealer, options, tmp_path):
    folder = run_demo("codex", tmp_path / "game", 1, dealer, None, lambda line: None, keys_dir=tmp_path / "keys",
                      options=list(options))
    seats = NAMES[:4] if dealer == "peer" else [""]
    for seat in seats:
        assert audit(folder / seat).ok


def test_the_owner_of_the_deck_a_paused_attack_draws_from_answers_last():
    """Protocol 6: alice's attack kills carol's technician patroller, and
    carol draws; carol, not the next seat bob, must run the paused attack
    (its deck may reshuffle). Version 5 kept bob last."""
    from types import SimpleNamespace

    from pbem.games.codex import GAME
    from pbem.protocol import versions
    from pbem.protocol.modes.peer import MODE
    from tests.games.codex.test_codex_ffa import ffa

    state = ffa("p1.units = Older Brother", "p3.units = Timely Messenger", "p3.patrol = technician=timely-messenger",
                n=3)
    attack = GAME.presentation.parse("attack older-brother carol:timely-messenger", state, "alice")
    quiet = GAME.presentation.parse("attack older-brother bob:base", state, "alice")

    def answerers(version: int, command) -> list[str]:
        chain = SimpleNamespace(paused=("alice", command), public=state, game=GAME, chance_answered=(),
                                seat_order=["alice", "bob", "carol"], version=versions.of(version),
                                chance_by=lambda: "alice")
        return MODE.chance_answerers(chain)

    assert answerers(6, attack) == ["bob", "carol"]
    assert answerers(5, attack) == ["carol", "bob"]
    assert answerers(6, quiet) == ["carol", "bob"]
