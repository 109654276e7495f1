"""The conformance harness catches broken games.

Each test breaks one property of Agent Avenue in a subclass and checks that
`check_game` raises an AssertionError naming it.
"""

from __future__ import annotations

import pytest

from pbem.games.agent_avenue import GAME, AgentAvenue
from pbem.games.agent_avenue.commands import Recruit
from pbem.games.agent_avenue.state import known_name
from pbem.games.base import Known, copy_struct
from pbem.games.conformance import check_game

SEATS = ["alice", "bob"]


def run(game: AgentAvenue, seeds: range = range(5), bot: str = "random") -> None:
    for seed in seeds:
        check_game(game, game.options({}), SEATS, seed, bot=bot)


def test_the_real_game_passes():
    run(GAME)


def test_a_view_that_leaks_the_deck_top():
    class Leaky(AgentAvenue):
        def view(self, state, seat):
            v = super().view(state, seat)
            v.prompt += f" (next card: {known_name(state.zones['deck'].items[0])})"
            return v

    with pytest.raises(AssertionError, match="view of the full state differs"):
        run(Leaky())


def test_legal_that_peeks_at_hidden_cards():
    class Peeking(AgentAvenue):
        def legal(self, state, seat):
            out = super().legal(state, seat)
            down = state.zones["centre:down"].items
            if down and isinstance(down[0], Known):  # only the full state knows it
                out = out[::-1]
            return out

    with pytest.raises(AssertionError, match="legal.bob. differs|legal.alice. differs"):
        run(Peeking())


def test_nondeterministic_legal():
    class Shuffled(AgentAvenue):
        calls = 0

        def legal(self, state, seat):
            out = super().legal(state, seat)
            Shuffled.calls += 1
            return out[::-1] if Shuffled.calls % 2 else out

    with pytest.raises(AssertionError, match="not deterministic"):
        run(Shuffled())


def test_notation_that_does_not_round_trip():
    class Sloppy(AgentAvenue):
        def format(self, command, state, seat):
            if isinstance(command, Recruit):
                return "recruit face-up"
            return super().format(command, state, seat)

    with pytest.raises(AssertionError, match="parses to"):
        run(Sloppy())


def test_apply_that_mutates_its_input():
    class Mutating(AgentAvenue):
        def apply(self, state, seat, command, chance):
            out = super().apply(state, seat, command, chance)
            state.turn += 100
            return out

    with pytest.raises(AssertionError, match="mutated"):
        run(Mutating())


def test_rules_that_read_a_hidden_card_without_asking():
    class Cheating(AgentAvenue):
        def advance(self, state, chance):
            out = super().advance(state, chance)
            hand = out.zones[f"hand:{out.active}"].items
            # record whether the active hand holds an Enforcer: public state
            # cannot know, so it silently diverges
            if out.phase == "play" and any(known_name(it) == "Enforcer" for it in hand):
                out = copy_struct(out)
                out.moves = {**out.moves, "peeked": 1}
            return out

    with pytest.raises(AssertionError, match="disagrees with the full state|to_act differs"):
        run(Cheating())


def test_a_game_that_never_ends():
    class Endless(AgentAvenue):
        def advance(self, state, chance):
            out = super().advance(state, chance)
            if out.outcome is not None:
                out = copy_struct(out)
                out.outcome = None  # over, but nobody won: nobody can act
            return out

    with pytest.raises(AssertionError, match="dead end"):
        run(Endless())


def test_max_steps():
    with pytest.raises(AssertionError, match="no outcome after 3 steps"):
        check_game(GAME, GAME.options({}), SEATS, 0, max_steps=3)


def test_unknown_bot():
    with pytest.raises(AssertionError, match="no bot 'clever'"):
        check_game(GAME, GAME.options({}), SEATS, 0, bot="clever")
