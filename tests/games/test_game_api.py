"""The game API: what a game declares (`GameInfo`, `Dealing`), what the
protocol finds out instead of asking, and the presentation the protocol never
reads."""

from __future__ import annotations

import ast
import msgspec

import pytest

from pbem import games
from pbem.errors import InvalidOption
from pbem.games.base import Game, SeatSpec
from pbem.protocol.dealing import check_dealer
from pbem.protocol.peer.writer import fixed_hidden_cards
from pbem.protocol.setup import peer_setup_chance, peer_shape, probe_seed
from paths import ROOT

PROTOCOL = ROOT / "pbem" / "protocol"

#: game, options, seats, whether the set-up's hidden cards are fixed (what
#: the games used to declare as `fixed_hidden_cards`, and Codenames' coop,
#: whose key never depends on chance, though Codenames declared False)
SETUPS = [
    ("agent-avenue", {}, ["a", "b"], True),
    ("agent-avenue", {"mode": "advanced"}, ["a", "b"], True),
    ("agent-avenue", {"teams": "2v2"}, ["a:green", "b:blue", "c:green", "d:blue"], True),
    ("codex", {}, ["a", "b"], True),
    ("codex", {"mode": "ffa"}, ["a", "b", "c"], True),
    ("dark-agent", {}, ["a", "b", "c"], True),
    ("codenames", {}, ["a:red-spymaster", "b:red", "c:blue-spymaster", "d:blue"], False),
    ("codenames", {"variant": "three"}, ["a:red-spymaster", "c:blue-spymaster", "b:shared"], False),
    ("codenames", {"variant": "coop"}, ["a:red-spymaster", "b:red"], True),
]


@pytest.mark.parametrize("name, options, seats, fixed", SETUPS)
def test_the_protocol_finds_whether_the_hidden_cards_at_set_up_are_fixed(name, options, seats, fixed):
    game = games.get(name)
    opts = game.options(options)
    specs = game.seats(opts, [SeatSpec(*s.split(":")) for s in seats])
    for nonce in ("one", "two"):  # whatever the creator's nonce
        full = game.setup(opts, specs, peer_setup_chance(probe_seed(nonce)))
        shape = peer_shape(game, full, [s.name for s in specs])
        assert fixed_hidden_cards(game, opts, specs, nonce, shape) is fixed


def test_a_solo_game_is_refused_a_peer_dealer_by_the_protocol_not_the_game():
    game = games.get("dark-agent")
    with pytest.raises(InvalidOption, match="a solo game of dark-agent cannot be a peer game"):
        check_dealer(game, [SeatSpec("alice")], "peer")
    check_dealer(game, [SeatSpec("alice")], "referee")
    check_dealer(game, [SeatSpec("alice"), SeatSpec("bob")], "peer")
    harmless = game.replace(msgspec.structs.replace(game.info, immediate_chance=True))
    check_dealer(harmless, [SeatSpec("alice")], "peer")


def test_a_game_is_made_of_rules_functions_and_nothing_else():
    game = games.get("agent-avenue")
    with pytest.raises(TypeError, match="'render' is not a rules function"):
        Game(game.info, render=lambda view: "")
    with pytest.raises(TypeError, match="'private_decks' is not a rules function"):
        game.replace(private_decks=lambda state: {})
    with pytest.raises(AttributeError):
        game.info.rules_version = "9"  # type: ignore[misc]


def test_earlier_rules_are_the_editions_the_game_names():
    for name in games.shipped():
        game = games.get(name)
        for version, target in game.info.editions.items():
            older = games.get(name, version)
            assert older.info.rules_version == version and older is not game, target


def _reads_presentation(tree: ast.AST) -> list[str]:
    """``X.game.NAME`` / ``game.NAME`` attribute reads of a presentation name."""
    shown = {"presentation", "render", "compact", "svg", "parse", "describe", "explain", "bots", "demo_bot",
             "demo_seats", "demo_seats_for", "summary", "rich_view", "catalogue"}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in shown:
            owner = node.value
            owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if owner_name in ("game", "GAME"):
                out.append(f"{owner_name}.{node.attr}")
    return out


def test_the_protocol_never_reads_a_game_s_presentation():
    found = {str(path.relative_to(PROTOCOL)): _reads_presentation(ast.parse(path.read_text()))
             for path in PROTOCOL.rglob("*.py")}
    assert not {path: names for path, names in found.items() if names}
