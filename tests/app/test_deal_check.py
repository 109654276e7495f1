"""`pbem.app.deal_check`: a wrong `Dealing` declaration is caught by
`check_dealers`, named, at the peer deal; the right ones pass.

Each flipped declaration below is one a real game makes, taken away: the
Duet's `linked` (that game plays to its end regardless: only its deal is
wrong), Agent Avenue's and Dark Agent's beacon decks, Codex's private decks.
Each fails at the deal, so each costs a set-up, not a game. Codex's
`reshuffle_ahead` taken away is no matter of the deal: the first reshuffle
into a private deck is refused (a few files in). The default run flips the
Duet's, Agent Avenue's and the reshuffle ahead, and checks Codex's right
ones; ``PBEM_LONG=1`` every one."""

from __future__ import annotations

import msgspec
import importlib
import os

import pytest

from pbem import games
from pbem.app import creating, deal_check, selfplay


def _flip(monkeypatch, name: str, **declaration) -> None:
    """The registered game `name` with its `dealing` changed in `declaration`."""
    module, attr, _ = games._REGISTRY[games.canonical(name)]
    package = importlib.import_module(module)
    game = getattr(package, attr)
    real = game.dealing
    monkeypatch.setattr(package, attr, game.replace(dealing=lambda state: msgspec.structs.replace(real(state),
                                                                                              **declaration)))


LONG = os.environ.get("PBEM_LONG") == "1"
DEAL = "the peer deal is not one the rules' set-up makes: .*"
FLIPS = [
    ("codenames", ("variant=duet",), {"linked": ()}, DEAL + r"Dealing\.linked: the items of key-a and key-b"),
    ("agent-avenue", ("mode=advanced",), {"by_beacon": ()},
     DEAL + r"Dealing\.private or Dealing\.by_beacon: deck holds .*, which the rules' set-up deals only to market:deck"),
    ("dark-agent", (), {"by_beacon": ()}, DEAL + r"Dealing\.private or Dealing\.by_beacon: area:deck holds"),
    ("codex", (), {"private": {}}, DEAL + r"Dealing\.private or Dealing\.by_beacon: codex:alice holds"),
    # not the deal: the first reshuffle into a private deck is refused
    ("codex", (), {"reshuffle_ahead": False}, r"a writer's file was refused: deck:\w+: cards reshuffled into "
                                               r"\w+'s private deck must stay in it until \w+ commits to them"),
]
#: the default run's: the Duet's pairs, a beacon deck, a reshuffle ahead
QUICK = (0, 1, 4)


@pytest.mark.parametrize("game, options, declaration, message",
                         [f for i, f in enumerate(FLIPS) if LONG or i in QUICK],
                         ids=[f"{f[0]}-{next(iter(f[2]))}" for i, f in enumerate(FLIPS) if LONG or i in QUICK])
def test_a_declaration_taken_away_is_named_at_the_peer_deal(monkeypatch, game, options, declaration, message):
    _flip(monkeypatch, game, **declaration)
    with pytest.raises(AssertionError, match=rf"{game} under peer \(seed 1.*\): {message}"):
        selfplay.check_dealers(game, options, seed=1, modes=("peer",))


class _Dealt(Exception):
    pass


@pytest.mark.parametrize("game, options", [(f[0], f[1]) for f in FLIPS[1:4] if LONG or f[0] == "codex"])
def test_the_right_declarations_deal_as_the_rules_do(game, options):
    """The same games as they are: their peer deal keeps every invariant of
    the rules' set-up (played up to the deal only; `test_selfplay` plays
    the Duet to its end with this check on)."""
    g = games.get(game)
    opts = g.options(creating.parse_options(list(options)))
    seats = list(g.presentation.demo_seats(opts))
    specs = g.seats(opts, [creating.parse_seat(s) for s in seats])
    seen = []

    def on_deal(chain, keys):
        seen.append(deal_check.differences(g, opts, specs, deal_check.peer_deal(chain, keys)))
        raise _Dealt

    with pytest.raises(_Dealt):
        selfplay.play(game, "peer", seats, 1, options, on_deal=on_deal)
    assert seen == [[]]


def test_the_invariants_are_what_the_rules_always_deal():
    """The Duet key: each face 9 agents, 3 assassins, 13 bystanders, and the
    faces pair cell by cell; no hand-like zone is compared."""
    g = games.get("codenames")
    opts = g.options({"variant": "duet"})
    specs = g.seats(opts, [creating.parse_seat(s) for s in ("alice:a", "bob:b")])
    inv = deal_check.Samples(g, opts, specs).invariants
    assert sorted(inv[("together", "key-a", "key-a")]) == sorted(["agent"] * 9 + ["assassin"] * 3 + ["bystander"] * 13)
    assert ("paired", "key-a", "key-b") in inv
