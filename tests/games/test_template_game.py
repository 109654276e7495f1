"""The template game (`docs/template-game/`, Crazy Eights): a fifth game in a
package of its own, found by its ``pbem.games`` entry point as an installed
distribution would declare it, played under every dealer.

The rules are tested from the rules text (the game's summary); then bot
playouts through the conformance harness, one game per dealer through the
real writers (`pbem.app.selfplay.check_dealers`), `pbem demo` through the CLI,
and a doctored file re-signed with its writer's key. ``PBEM_LONG=1`` plays
many more seeds."""

from __future__ import annotations

import ast
import os
import tomllib
from collections import Counter
from importlib.metadata import entry_points
from pathlib import Path

import msgspec
import pytest

from pbem import games
from pbem.app import selfplay
from pbem.errors import IllegalCommand, InvalidCommand, InvalidOption, PbemError, UnknownGame
from pbem.games.base import Known, RandomChance, SeatSpec, Zone, project
from pbem.games.conformance import check_game
from tests.system.test_package import FORBIDDEN_IN_GAMES
from paths import ROOT

LONG = os.environ.get("PBEM_LONG") == "1"
TEMPLATE = ROOT / "docs" / "template-game"
PACKAGE = TEMPLATE / "pbem_crazy_eights"


def _distribution(where: Path) -> Path:
    """An installed distribution of the template, as pip would leave it:
    a dist-info whose entry points are the ones its pyproject declares."""
    project = tomllib.loads((TEMPLATE / "pyproject.toml").read_text())["project"]
    dist = where / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    points = project["entry-points"]["pbem.games"]
    (dist / "entry_points.txt").write_text("[pbem.games]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()))
    return where


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The game as pbem finds it: by its entry point, nothing else told
    (the package importable is not enough: the distribution names it)."""
    site = _distribution(tmp_path_factory.mktemp("site"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(games, "_REGISTRY", dict(games._REGISTRY))
        mp.setattr(games, "_plugins_read", False)
        mp.syspath_prepend(str(TEMPLATE))
        if not any(e.name == "crazy-eights" for e in entry_points(group="pbem.games")):  # not installed here
            with pytest.raises(UnknownGame):
                games.get("crazy-eights")
        mp.setattr(games, "_plugins_read", False)
        mp.syspath_prepend(str(site))
        yield games.get("crazy-eights")


@pytest.fixture(scope="module")
def rules(game):
    from pbem_crazy_eights import rules

    return rules


def test_the_entry_point_is_how_pbem_finds_it(game):
    from pbem.app import gameinfo

    import pbem_crazy_eights

    assert game is pbem_crazy_eights.GAME
    assert "crazy-eights" in games.names() and "crazy-eights" not in games.shipped()
    # `pbem info`: an entry point names the game alone, no aliases
    assert gameinfo.lines(gameinfo.describe("crazy-eights"))[0] == "Crazy Eights (crazy-eights), rules 1"


def test_the_package_imports_what_a_game_may_import():
    """As `tests/system/test_package.py` checks the shipped games: no protocol,
    crypto, CLI or terminal code in a game's rules."""
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN_IN_GAMES), (path.name, name)
                assert not name.startswith("pbem.") or name in ("pbem.games.base", "pbem.errors"), (path.name, name)


# --- the rules, from the rules text ---------------------------------------------------


def table(rules, hands: dict[str, list[str]], top: str, deck=(), under=(), named=None, turn=0):
    """A state in the middle of a game: the hands, the discard pile (`top`
    above `under`), the draw pile, every card known (a referee's state)."""
    n = 0

    def items(names):
        nonlocal n
        out = [Known(f"c{n + k:02d}", card) for k, card in enumerate(names)]
        n += len(out)
        return out

    zones = {rules.hand(seat): Zone(items=items(cards), readers=[seat]) for seat, cards in hands.items()}
    zones[rules.DISCARD] = Zone(items=items([top, *under]), public=True)
    zones[rules.DECK] = Zone(items=items(deck))
    return rules.State(zones=zones, next_ref=n, seats=list(hands), named=named, turn=turn)


def ref(state, card: str) -> str:
    return next(it.ref for z in state.zones.values() for it in z.items if isinstance(it, Known) and it.card == card)


def cards_in(state, zone: str) -> list[str]:
    return [it.card for it in state.zones[zone].items]


def test_the_deal_and_the_starter(game, rules):
    for players, size in [(2, 7), (3, 5), (5, 5)]:
        seats = [SeatSpec(n) for n in ("ann", "bob", "cat", "dan", "eve")[:players]]
        state = game.setup(game.options({}), seats, RandomChance(players))
        assert [len(state.zones[rules.hand(s.name)].items) for s in seats] == [size] * players
        assert game.to_act(state) == [] and not state.zones[rules.DISCARD].items
        state = game.advance(state, RandomChance(0))
        assert len(state.zones[rules.DISCARD].items) == 1 and game.to_act(state) == ["ann"]
        assert sorted(it.card for z in state.zones.values() for it in z.items) == sorted(
            rank + suit for suit in "cdhs" for rank in "A23456789TJQK")
    with pytest.raises(InvalidOption, match="does not fit"):
        game.seats(game.options({"hand": "11"}), [SeatSpec(n) for n in "abcde"])


def test_follow_the_suit_or_the_rank_eights_always(game, rules):
    state = table(rules, {"alice": ["7c", "2h", "Kd", "8s"], "bob": ["3c"]}, "7h", deck=["5s"])
    legal = game.legal(state, "alice")
    assert {game.presentation.format(c, state, "alice") for c in legal} == {
        "play 7c", "play 2h", "play 8s clubs", "play 8s diamonds", "play 8s hearts", "play 8s spades"}
    assert game.legal(state, "bob") == []
    with pytest.raises(IllegalCommand, match="follows neither"):
        game.apply(state, "alice", rules.Play(ref(state, "Kd")), RandomChance(0))
    after = game.apply(state, "alice", rules.Play(ref(state, "7c")), RandomChance(0))
    assert cards_in(after, rules.DISCARD) == ["7c", "7h"] and game.to_act(after) == ["bob"]
    assert cards_in(state, rules.DISCARD) == ["7h"]  # the state given is never changed


def test_an_eight_names_the_suit_to_follow(game, rules):
    state = table(rules, {"alice": ["8s", "7c"], "bob": ["Kh", "Ks", "8d", "2s"]}, "7h", deck=["5d"])
    with pytest.raises(IllegalCommand, match="an eight names a suit"):
        game.apply(state, "alice", rules.Play(ref(state, "8s")), RandomChance(0))
    with pytest.raises(IllegalCommand, match="only an eight names a suit"):
        game.apply(state, "alice", rules.Play(ref(state, "7c"), "h"), RandomChance(0))
    after = game.apply(state, "alice", game.presentation.parse("play 8S Hearts", state, "alice"), RandomChance(0))
    assert game.view(after, "bob").suit == "h"
    # hearts, not the eight's spades, and any eight
    assert {game.presentation.format(c, after, "bob") for c in game.legal(after, "bob")} == {
        "play Kh", "play 8d clubs", "play 8d diamonds", "play 8d hearts", "play 8d spades"}
    again = game.apply(after, "bob", rules.Play(ref(after, "Kh")), RandomChance(0))
    assert again.named is None and game.view(again, "alice").suit == "h"


def test_draw_only_when_stuck_then_play_that_card_or_pass(game, rules):
    state = table(rules, {"alice": ["Kd", "3c"], "bob": ["2s"]}, "7h", deck=["9h", "4s"])
    assert game.legal(state, "alice") == [rules.Draw()]
    drawn = game.apply(state, "alice", rules.Draw(), RandomChance(0))
    assert cards_in(drawn, rules.hand("alice")) == ["Kd", "3c", "9h"] and game.to_act(drawn) == ["alice"]
    assert game.view(drawn, "alice").drawn == "9h" and game.view(drawn, "bob").drawn is None
    assert game.legal(drawn, "alice") == [rules.Play(ref(drawn, "9h")), rules.Pass()]
    with pytest.raises(IllegalCommand, match="one draw a turn"):
        game.apply(drawn, "alice", rules.Draw(), RandomChance(0))
    passed = game.apply(drawn, "alice", rules.Pass(), RandomChance(0))
    assert game.to_act(passed) == ["bob"] and len(cards_in(passed, rules.hand("alice"))) == 3

    holding = table(rules, {"alice": ["Kh", "3c"], "bob": ["2s"]}, "7h", deck=["9h"])
    assert rules.Draw() not in game.legal(holding, "alice")
    with pytest.raises(IllegalCommand, match="draw only when none can"):
        game.apply(holding, "alice", rules.Draw(), RandomChance(0))
    # on the public state the hand is hidden: the check is left to those who see it
    public = project(holding, {it.ref for it in holding.zones[rules.DISCARD].items})
    assert len(game.apply(public, "alice", rules.Draw(), RandomChance(0)).zones[rules.hand("alice")].items) == 3


def test_an_empty_draw_pile_is_made_again_from_the_discard_pile(game, rules):
    state = table(rules, {"alice": ["Kd"], "bob": ["2s"]}, "7h", under=["5h", "5c", "Qc"])
    after = game.apply(state, "alice", rules.Draw(), RandomChance(3))
    assert cards_in(after, rules.DISCARD) == ["7h"]  # the top card stays
    moved = cards_in(after, rules.DECK) + cards_in(after, rules.hand("alice"))[1:]
    assert sorted(moved) == ["5c", "5h", "Qc"]
    old = {it.ref for z in state.zones.values() for it in z.items}
    fresh = [it.ref for it in after.zones[rules.DECK].items] + [after.drawn]
    assert not set(fresh) & old and after.next_ref == state.next_ref + 3  # new refs: where a card went is unknown


def test_the_end_is_the_last_card_and_with_nothing_to_draw_the_stuck_pass(game, rules):
    state = table(rules, {"alice": ["8c"], "bob": ["2s", "3s"]}, "7h")
    won = game.apply(state, "alice", rules.Play(ref(state, "8c"), "d"), RandomChance(0))
    assert game.outcome(won).winners == ["alice"] and game.to_act(won) == []
    assert "alice played their last card" == game.outcome(won).reason

    stuck = table(rules, {"alice": ["Kd", "3c"], "bob": ["2s", "8d"]}, "7h")
    assert game.legal(stuck, "alice") == [rules.Pass()]  # nothing to draw, nothing to play
    passed = game.apply(stuck, "alice", rules.Pass(), RandomChance(0))
    assert game.outcome(passed) is None and game.to_act(passed) == ["bob"]
    assert rules.Pass() not in game.legal(passed, "bob")  # who holds an eight plays it
    with pytest.raises(IllegalCommand, match="pass only when none can"):
        game.apply(passed, "bob", rules.Pass(), RandomChance(0))
    drawable = table(rules, {"alice": ["Kd"], "bob": ["2s"]}, "7h", deck=["4c"])
    with pytest.raises(IllegalCommand, match="a card is left to draw"):
        game.apply(drawable, "alice", rules.Pass(), RandomChance(0))


def test_the_notation_reads_what_players_type(game, rules):
    state = table(rules, {"alice": ["Th", "8s"], "bob": ["2s"]}, "7h")
    assert game.presentation.parse("play 10h", state, "alice") == rules.Play(ref(state, "Th"))
    assert game.presentation.parse("play 8s s", state, "alice") == rules.Play(ref(state, "8s"), "s")
    for bad, why in [("play 2s", "no 2s in alice's hand"), ("play 8s stars", "not a suit"), ("jump", "not a Crazy")]:
        with pytest.raises(InvalidCommand, match=why):
            game.presentation.parse(bad, state, "alice")
    # a log never names a card the reader may not see
    public = project(state, {ref(state, "7h")})
    assert game.presentation.describe(rules.Play(ref(state, "Th")), public, "bob") == "plays a card"


# --- bot playouts through the conformance harness ------------------------------------------


def _conserved(state) -> None:
    assert Counter(it.card for z in state.zones.values() for it in z.items) == Counter(
        rank + suit for suit in "cdhs" for rank in "A23456789TJQK"), "a card appeared or vanished"


@pytest.mark.parametrize("players, bot", [(2, "random"), (3, "careful"), (5, "random")] + (
    [(2, "careful"), (3, "random"), (4, "random"), (4, "careful"), (5, "careful")] if LONG else []))
def test_bot_games_end_and_pass_the_harness(game, players, bot):
    seats = [SeatSpec(n) for n in ("ann", "bob", "cat", "dan", "eve")[:players]]
    for seed in range(20 if LONG else 1):
        outcome = check_game(game, game.options({}), seats, seed, bot=bot, invariant=_conserved)
        assert outcome.winners


def test_reshuffles_pass_the_harness(game):
    """Big hands empty the draw pile: the reshuffle, under the harness."""
    seats = [SeatSpec("ann"), SeatSpec("bob")]
    reshuffled = 0
    for seed in range(40 if LONG else 1):
        played = []
        check_game(game, game.options({"hand": "24"}), seats, seed, invariant=lambda s: played.append(s.next_ref))
        reshuffled += played[-1] > 52
    assert reshuffled >= (10 if LONG else 1), reshuffled


# --- through the protocol: every dealer, the CLI, a cheat ------------------------------------

#: two seats, hands that leave one card to draw: the draw pile is made
#: again from the discard pile in all but about one bot game in twenty
DEALT = ("hand=25",)


@pytest.fixture(scope="module")
def dealt(game):
    """One bot game per dealer (`check_dealers`: played through the real
    writers, replayed by a fresh verifier, audited), each game kept: the
    first of a few seeds whose game reshuffles (a referee's and a peer
    game's chance is not the seed's alone, so no seed is sure to)."""
    played = {}
    real = selfplay.play

    def keep(*args, **kw):
        p = real(*args, **kw)
        played[p.mode] = p
        return p

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(selfplay, "play", keep)
        for mode in ("hotseat", "referee", "peer"):
            for seed in range(5, 10):
                assert selfplay.check_dealers("crazy-eights", DEALT, ["alice", "bob"], seed, (mode,))
                if played[mode].chain.public.next_ref > 52:
                    break
    return played


def test_every_dealer_plays_replays_and_audits_it_reshuffles_included(dealt):
    assert set(dealt) == {"hotseat", "referee", "peer"}
    for mode, played in dealt.items():
        assert played.chain.outcome() is not None
        assert played.chain.public.next_ref > 52, f"no reshuffle under {mode}"


@pytest.mark.skipif(not LONG, reason="long mode: PBEM_LONG=1")
@pytest.mark.parametrize("seats", [["alice", "bob"], ["alice", "bob", "carol"], ["a", "b", "c", "d", "e"]])
def test_every_dealer_over_more_seeds_and_tables(game, seats):
    for seed in range(4):
        selfplay.check_dealers("crazy-eights", (), seats, seed=seed)
        selfplay.check_dealers("crazy-eights", (f"hand={50 // len(seats)}",), seats, seed=seed)


def test_pbem_demo_plays_it_by_its_entry_point(game, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from pbem.cli import cli

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    r = CliRunner().invoke(cli, ["demo", "crazy-eights", "--seed", "1", "--dir", str(tmp_path / "game")])
    assert r.exit_code == 0, r.output
    assert "played their last card" in r.output and "audit" in r.output.lower()


def test_a_play_doctored_and_re_signed_by_its_writer_is_refused(dealt):
    """A seat's own file, its play of a plain card changed to name a suit as
    an eight does, signed again with the seat's real key: every verifier
    refuses it and the chain stays as it was."""
    from pbem.protocol import codec
    from pbem.protocol.formats import TurnBody
    from tests import tamper

    played = dealt["referee"]
    table = tamper.Table(played.game, played.mode, played.files, played.secrets)
    for k, data in enumerate(table.files[1:], 1):
        body = codec.decode_body(codec.read_envelope(data), TurnBody)
        commands = [msgspec.json.decode(c) for c in body.commands]
        if commands and commands[0]["t"] == "c8.play" and commands[0].get("suit") is None:
            break
    else:
        raise AssertionError("no plain play in the game")
    chain = tamper.replay(table.files[:k])
    doctored = msgspec.structs.replace(body, commands=[msgspec.Raw(msgspec.json.encode({**commands[0], "suit": "s"}))])
    with pytest.raises(PbemError, match="only an eight names a suit"):
        chain.append(tamper.resign(table, doctored))
    assert chain.seq == k - 1
    chain.append(data)  # the honest file still goes in


def test_a_draw_while_holding_a_card_to_play_is_caught_by_the_audit_naming_its_writer(game, rules, tmp_path):
    """The one rule the public cannot check (the hand is hidden): alice,
    who could play, draws instead, in a file she signs with her real key.
    Every verifier takes it; the audit, which knows every card, names her."""
    from pbem.games.base import RandomChance
    from pbem.protocol import codec, commitments
    from pbem.app.audit import audit
    from pbem.protocol.formats import TurnBody

    cheated = []

    def cheat(chain, data, secrets):
        body = codec.decode_body(codec.read_envelope(data), TurnBody)
        plays = [msgspec.json.decode(c) for c in body.commands]
        if cheated or body.by != "alice" or not plays or plays[0]["t"] != "c8.play" or chain.public.drawn:
            return data
        drawn = game.apply(chain.public, "alice", rules.Draw(), RandomChance(0))
        cheated.append(body.seq)
        return codec.encode_signed("turn", msgspec.structs.replace(
            body, commands=[msgspec.Raw(b'{"t":"c8.draw"}')], reveals=[], state=commitments.state_hash(drawn)),
            secrets["alice"])

    played = selfplay.play("crazy-eights", "referee", ["alice", "bob"], 1, edit=cheat)
    assert cheated and played.chain.outcome() is not None
    failures = audit(selfplay.save(played.files, tmp_path / "game")).failures
    assert failures and "alice" in failures[0] and "draw only when none can" in failures[0], failures
