"""Picking specs and starter decks (``--option p1=... p2=... p1_starter=``),
what `pbem info codex` lists, and seeded bot games with the red and green
starter decks through the conformance harness (every game ends; views
never leak a hand). PBEM_LONG=1 plays many more seeds."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from pbem import games
from pbem.errors import InvalidOption
from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codex import GAME, cards
from pbem.games.conformance import check_game

SEATS = [SeatSpec("alice"), SeatSpec("bob")]
LONG = os.environ.get("PBEM_LONG") == "1"


def decks(options: dict) -> dict[str, tuple[str, str, Counter]]:
    st = GAME.setup(GAME.options(options), SEATS, RandomChance(1))
    return {s: (p.spec, p.colour, Counter(it.card for it in st.zones[f"deck:{s}"].items))
            for s, p in st.players.items()}


def test_specs_and_starter_decks_from_the_options():
    got = decks({"p1": "Finesse", "p2": "bashing"})
    assert got["alice"][:2] == ("Finesse", "neutral") and got["bob"][:2] == ("Bashing", "neutral")
    got = decks({"p1": "bashing", "p1_starter": "red", "p2_starter": "green"})
    assert got["alice"] == ("Bashing", "red", Counter(cards.starter("red")))
    assert got["bob"] == ("Finesse", "green", Counter(cards.starter("green")))
    assert decks({"first": "finesse"})["alice"][0] == "Finesse", "the older option still reads"
    assert decks({})["alice"][0] == "Bashing"


@pytest.mark.parametrize("options, words", [
    ({"p1": "truth"}, "not playable yet"),
    ({"p2": "chess"}, "no such spec"),
    ({"p1_starter": "blue"}, "not written yet"),
    ({"p1_starter": "mauve"}, "no such colour"),
    ({"first": "finesse", "p1": "bashing"}, "give p1= and p2= instead"),
    ({"first": "red"}, "bashing or finesse"),
])
def test_specs_not_offered_are_refused(options, words):
    with pytest.raises(InvalidOption, match=words):
        GAME.options(options)


def test_pbem_info_lists_specs_heroes_and_starter_decks(pbem):
    out = pbem("info", "codex").stdout
    assert "bashing      hero Troq Bashar" in out and "finesse      hero River Montoya" in out
    assert "not offered): " in out and "truth" in out.split("not offered): ")[1].splitlines()[0]
    assert "starter decks (p1_starter=, p2_starter=; default: the spec's colour): neutral, red, green" in out
    assert f"rules {games.get('codex').info.rules_version}" in out


def test_a_new_game_with_chosen_specs_through_the_cli(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "codex", g, "--seat", "alice", "--seat", "bob", "--option", "p1=finesse", "--option", "p2=bashing",
         "--option", "p1_starter=green", "--option", "p2_starter=red")
    mine = pbem("show", g, "--as", "alice", "--plain").stdout
    assert "alice (you) - Finesse" in mine and "bob - Bashing" in mine
    assert any(name in mine for name in cards.starter("green"))
    r = pbem.fails("new", "codex", tmp_path / "h", "--seat", "alice", "--seat", "bob", "--option", "p1=truth")
    assert r.stderr.startswith("pbem: error: p1=truth: the Truth spec is not playable yet")


PAIRS = [("bashing", "red", "finesse", "green"), ("finesse", "green", "bashing", "red"),
         ("bashing", "red", "bashing", "red"), ("finesse", "green", "finesse", "neutral")]


@pytest.mark.parametrize("seed", range(24 if LONG else 4))
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bot_games_with_the_red_and_green_starters_conform_and_end(seed, bot):
    p1, s1, p2, s2 = PAIRS[seed % len(PAIRS)]
    options = GAME.options({"p1": p1, "p1_starter": s1, "p2": p2, "p2_starter": s2})
    outcome = check_game(GAME, options, SEATS, seed, bot=bot, max_steps=4000)
    assert outcome.reason.startswith("base destroyed")


@pytest.mark.parametrize("mode, starters", [("peer", ("red", "green")), ("referee", ("green", "red"))])
def test_red_and_green_starters_under_the_peer_and_referee_dealers(mode, starters, tmp_path):
    """A whole bot game through the real writers verifies from its files and audits."""
    from pbem.app import opening
    from pbem.app.audit import audit
    from tests import tamper

    table = tamper.play("codex", mode, ["alice", "bob"], 3,
                        options=(f"p1_starter={starters[0]}", f"p2_starter={starters[1]}"))
    folder = tamper.save(table, tmp_path / "game")
    chain = opening.verify(folder)
    assert chain.over and chain.outcome().reason.startswith("base destroyed")
    assert audit(folder).ok


QUESTIONS = """\
# cards whose triggers ask questions (targets after a death, you may, a hero to level), for the bots
p1.deck = Crash Bomber, Potent Basilisk, Crash Bomber, Marauder, Time Spiral, Bloodburn
p1.buildings = tech1, tech2
p1.heroes = Jaina Stormborne 2
p2.deck = Crash Bomber, Crash Bomber, Fading Argonaut, Spectral Hound, Sentry, Brave Knight
p2.buildings = tech1, tech2
p2.heroes = Argagarg Garg 1
"""


def test_bot_games_that_answer_questions_conform_and_end():
    """The harness checks every prompt like any state: legal answers the same
    on every seat's knowledge, views equal, replay exact."""
    options = GAME.options({"scenario": QUESTIONS, "p1_starter": "red", "p2_starter": "green"})
    asked: list[str] = []

    def watch(state):
        if state.prompt is not None:
            asked.append(state.prompt.kind)

    for seed in range(12 if LONG else 4):
        outcome = check_game(GAME, options, SEATS, seed, bot="random", max_steps=4000, invariant=watch)
        assert outcome.reason.startswith("base destroyed")
    assert asked, "the bots met no question: the position no longer tests prompts"
