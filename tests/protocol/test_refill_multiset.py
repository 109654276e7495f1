"""A refill committed to other cards than the face-up cards that went in
(issue #20, class 11), in games begun under protocol version 6, whose
refills are hash commitments (from version 7 a refill is a proven layer:
`test_proven_refills.py`).

A Codex peer deck reshuffled from a discard pile whose cards were all
public, committed as eight Withers, passed every check during play, though a
second Wither revealed at seq 49 was impossible: the audit named it at seq
140. When every card that went into a refill was face up, everyone knows the
multiset, so each card of the refill that is opened is checked at once
against what is left of it (`peer_refills.check_opening`). The cheat is
played by the owner's own pbem with its order replaced (and its own check
switched off, as a cheater would); the victim is the real CLI.
"""

from __future__ import annotations

from collections import Counter

import pytest

import tamper
from conftest import Pbem
from tests import chancegame
from pbem import games
from pbem.errors import ProtocolError
from pbem.protocol import formats
from pbem.protocol.peer import refills as peer_refills, writer as peer_writer
from pbem.protocol.chain import Chain

OPTIONS = ("target=200", "rounds=9", "private=1")
games._REGISTRY.setdefault("lucky", ("tests.chancegame", "GAME", ()))


def hoarder(game, state, seat, rng):
    """Fetches from its own deck and plays its own cards first, so that its
    face-up pile fills and is reshuffled into its deck, several at a time."""
    legal = game.legal(state, seat)
    if state.voting:
        return chancegame.Vote(stop=False)
    if chancegame.Fetch() in legal and state.actions < 2:
        return chancegame.Fetch()
    plays = [c for c in legal if isinstance(c, chancegame.Play)]
    own = [c for c in plays if int(chancegame._card(state, c.ref) or 0) >= 7]
    return (own or plays or [chancegame.Pass()])[0]


def _liar_game(seed: int, liar: str) -> tamper.Table:
    """Lucky Draw with private decks: `liar` commits every refill of its own
    deck as copies of one card (the highest that went in)."""
    real = peer_refills.refill_order

    def lying(cards):
        honest = real(cards)
        return [max(cards)] * len(cards) if len(set(cards)) > 1 else honest

    def owner_of(cards):
        return lying(cards) if _writer[0] == liar else real(cards)

    _writer = [""]
    real_commitments = peer_refills._make_commitments

    def make(chain, refill, parts, revealed):
        _writer[0] = refill.owner
        return real_commitments(chain, refill, parts, revealed)

    with pytest.MonkeyPatch.context() as mp:
        _version_6(mp)
        mp.setattr(chancegame.GAME.presentation, "demo_bot", "thief")
        mp.setitem(chancegame.GAME.presentation.bots, "thief", hoarder)
        mp.setattr(peer_refills, "refill_order", owner_of)
        mp.setattr(peer_refills, "_make_commitments", make)
        mp.setattr(peer_refills, "check_opening", lambda deck, ref, card: None, raising=False)  # the cheater's own pbem
        return tamper.play("lucky", "peer", ["alice", "bob"], seed, OPTIONS)


def _version_6(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(peer_writer, "PROTOCOL_VERSION", 6)
    mp.setattr(formats, "PROTOCOL_VERSION", 6)  # what a seat's first file checks


def _first_refused(files: list[bytes]) -> tuple[int, ProtocolError] | None:
    chain = Chain(files[0])
    for k, data in enumerate(files[1:], 1):
        try:
            chain.append(data)
        except ProtocolError as exc:
            return k, exc
    return None


def test_a_refill_opened_as_a_card_that_did_not_go_in_is_refused_at_once(tmp_path):
    pbem = Pbem(tmp_path / "home")  # the game's own keys: an address book that knows none of them
    for seed in range(1, 31):
        table = _liar_game(seed, "alice")
        found = _first_refused(table.files)
        if found is not None:
            break
    else:
        raise AssertionError("in thirty games alice never opened a card of a refill she lied about")
    k, exc = found
    assert "alice's commitments to them are false" in exc.message and "were all face up" in exc.message
    # the refill and its commitments went in long before: caught at the opening, not at the end
    refills = [f for f in tamper.replay(table.files[:k]).deck.changes.refills if f.owner == "alice"]
    assert refills and refills[0].committed < k < len(table.files) - 1
    good = tamper.save(tamper.Table(table.game, table.mode, table.files[:k], table.secrets), tmp_path / "good")
    pbem("verify", good)
    bad = tamper.save(tamper.Table(table.game, table.mode, table.files[:k + 1], table.secrets), tmp_path / "bad")
    result = pbem.fails("verify", bad)
    assert "alice's commitments to them are false" in result.stderr


def test_an_honest_refill_opens_every_card_it_took_in():
    with pytest.MonkeyPatch.context() as mp:
        _version_6(mp)
        mp.setattr(chancegame.GAME.presentation, "demo_bot", "thief")
        mp.setitem(chancegame.GAME.presentation.bots, "thief", hoarder)
        table = tamper.play("lucky", "peer", ["alice", "bob"], 1, OPTIONS)
    chain = tamper.replay(table.files)
    checked = [f for f in chain.deck.changes.refills if f.cards is not None]
    assert checked and any(f.opened for f in checked)
    for f in checked:
        assert not (Counter(f.opened) - Counter(f.cards))
