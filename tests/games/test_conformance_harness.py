"""The conformance harness catches broken games.

Each test breaks one property of Agent Avenue in a copy of the game
(`Game.replace`) and checks that `check_game` raises an AssertionError
naming it.
"""

from __future__ import annotations

import pytest

from pbem.games.agent_avenue import GAME
from pbem.games.agent_avenue.commands import Recruit
from pbem.games.agent_avenue.state import known_name
from pbem.games.base import Game, Known, copy_struct
from pbem.games.conformance import check_game

SEATS = ["alice", "bob"]


def run(game: Game, seeds: range = range(5), bot: str = "random") -> None:
    for seed in seeds:
        check_game(game, game.options({}), SEATS, seed, bot=bot)


def test_the_real_game_passes():
    run(GAME)


def test_a_view_that_leaks_the_deck_top():
    def leaky(state, seat):
        v = GAME.view(state, seat)
        v.prompt += f" (next card: {known_name(state.zones['deck'].items[0])})"
        return v

    with pytest.raises(AssertionError, match="view of the full state differs"):
        run(GAME.replace(view=leaky))


def test_legal_that_peeks_at_hidden_cards():
    def peeking(state, seat):
        out = GAME.legal(state, seat)
        down = state.zones["centre:down"].items
        if down and isinstance(down[0], Known):  # only the full state knows it
            out = out[::-1]
        return out

    with pytest.raises(AssertionError, match="legal.bob. differs|legal.alice. differs"):
        run(GAME.replace(legal=peeking))


def test_nondeterministic_legal():
    calls = []

    def shuffled(state, seat):
        out = GAME.legal(state, seat)
        calls.append(1)
        return out[::-1] if len(calls) % 2 else out

    with pytest.raises(AssertionError, match="not deterministic"):
        run(GAME.replace(legal=shuffled))


def test_notation_that_does_not_round_trip():
    def format_command(command, state, seat):
        if isinstance(command, Recruit):
            return "recruit face-up"
        return GAME.presentation.format(command, state, seat)

    with pytest.raises(AssertionError, match="parses to"):
        run(GAME.replace(presentation=GAME.presentation.replace(format=format_command)))


def test_apply_that_mutates_its_input():
    def mutating(state, seat, command, chance):
        out = GAME.apply(state, seat, command, chance)
        state.turn += 100
        return out

    with pytest.raises(AssertionError, match="mutated"):
        run(GAME.replace(apply=mutating))


def test_rules_that_read_a_hidden_card_without_asking():
    def cheating(state, chance):
        out = GAME.advance(state, chance)
        hand = out.zones[f"hand:{out.active}"].items
        # record whether the active hand holds an Enforcer: public state
        # cannot know, so it silently diverges
        if out.phase == "play" and any(known_name(it) == "Enforcer" for it in hand):
            out = copy_struct(out)
            out.moves = {**out.moves, "peeked": 1}
        return out

    with pytest.raises(AssertionError, match="disagrees with the full state|to_act differs"):
        run(GAME.replace(advance=cheating))


def test_a_game_that_never_ends():
    def endless(state, chance):
        out = GAME.advance(state, chance)
        if out.outcome is not None:
            out = copy_struct(out)
            out.outcome = None  # over, but nobody won: nobody can act
        return out

    with pytest.raises(AssertionError, match="dead end"):
        run(GAME.replace(advance=endless))


def test_max_steps():
    with pytest.raises(AssertionError, match="no outcome after 3 steps"):
        check_game(GAME, GAME.options({}), SEATS, 0, max_steps=3)


def test_unknown_bot():
    with pytest.raises(AssertionError, match="no bot 'clever'"):
        check_game(GAME, GAME.options({}), SEATS, 0, bot="clever")
