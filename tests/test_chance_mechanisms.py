"""Chance during play (issue #14), with the test game Lucky Draw played to
the end by bots through the real file protocol under every dealer mode."""

from __future__ import annotations

import pytest

from pbem import actions, games
from pbem.demo import run_demo
from pbem.protocol import dealer as dealer_mod
from pbem.protocol.audit import audit


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
    chain = actions.open_game(folder)
    assert chain.outcome() is not None
    assert chain.public.reshuffles >= 1, "the drawer bot empties the deck"
    text = "\n".join(lines)
    assert "draws the chance of" in text and "commits to the order of" in text
    assert audit(folder).ok
    # a roll pauses its file: the seat's file holds the command, the dealer's the result
    paused = [r for r in chain.records if r.resumed is not None]
    assert paused and all(chain.records[r.seq - 1].by == r.resumed[0] for r in paused)


def test_a_dealer_that_supplies_other_dice_is_caught_by_the_audit(tmp_path, monkeypatch):
    real = dealer_mod.public_chance_seed
    monkeypatch.setattr(dealer_mod, "public_chance_seed", lambda seed, seq: real(b"\x01" * 32, seq))
    with pytest.raises(Exception, match="audit failed"):
        _play(tmp_path, "referee", 7)
    monkeypatch.setattr(dealer_mod, "public_chance_seed", real)
    failures = audit(tmp_path / "game").failures
    assert failures and all("signed by referee" in f and "chance it supplied" in f for f in failures)


def test_a_dealer_that_reshuffles_from_another_seed_is_caught_by_the_audit(tmp_path, monkeypatch):
    real = dealer_mod.secret_chance
    monkeypatch.setattr(dealer_mod, "secret_chance", lambda seed, seq: real(b"\x02" * 32, seq))
    _play(tmp_path, "referee", 7)  # its own audit shares the doctored shuffle
    monkeypatch.setattr(dealer_mod, "secret_chance", real)
    failures = audit(tmp_path / "game").failures
    assert failures and any("is not the card the seed's shuffle put there" in f for f in failures)
