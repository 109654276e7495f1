"""Codex notation as people type it: card names with spaces, in any case,
and errors that say what is wrong."""

from __future__ import annotations

import random
import re

import pytest

from pbem.errors import InvalidCommand
from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codex import GAME, cards

SEATS = [SeatSpec("alice"), SeatSpec("bob")]


def humanise(text: str) -> str:
    """`text` as a person types it: every card slug (``timely-messenger``,
    ``iron-man.2``, ``opp:older-brother``) as the printed name, with spaces
    and capitals (``Timely Messenger``, ``Iron Man.2``, ``opp:Older Brother``)."""
    def name(match: re.Match) -> str:
        slug, index = match.group(1), match.group(2) or ""
        found = cards.lookup(slug)
        return (found + index) if found is not None and cards.slug(found) == slug else match.group(0)

    return re.sub(r"(?<![\w-])([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(\.\d+)?(?![\w-])", name, text)


def states(seed: int, steps: int = 120):
    """States along a bot game, each with the seat to act."""
    chance = RandomChance(seed)
    rng = random.Random(seed)
    st = GAME.advance(GAME.setup(GAME.options({}), SEATS, chance), chance)
    for _ in range(steps):
        if GAME.outcome(st) is not None:
            return
        seat = GAME.to_act(st)[0]
        yield st, seat
        st = GAME.advance(GAME.apply(st, seat, GAME.presentation.bots["greedy"](GAME, st, seat, rng), chance), chance)


@pytest.mark.parametrize("seed", range(3))
def test_every_legal_command_typed_with_printed_names_means_the_same(seed):
    typed = 0
    for st, seat in states(seed):
        for cmd in GAME.legal(st, seat):
            text = GAME.presentation.format(cmd, st, seat)
            human = humanise(text)
            for variant in (human, human.upper(), human.lower()):
                assert GAME.presentation.parse(variant, st, seat) == cmd, (text, variant)
            typed += human != text
    assert typed  # names with spaces were typed


def first_turn():
    chance = RandomChance(3)
    return GAME.advance(GAME.setup(GAME.options({}), SEATS, chance), chance)


@pytest.mark.parametrize("typed, error, hint", [
    ("play timely", "no card called 'timely'", "did you mean timely-messenger?"),
    ("play River Montoya", "River Montoya is a hero of the other side", "yours is Troq Bashar: summon troq-bashar"),
    ("play Troq Bashar", "Troq Bashar is a hero: a hero is summoned: summon troq-bashar", None),
    ("hire troq bashar", "Troq Bashar is a hero: a hero is summoned: summon troq-bashar", None),
    ("summon Timely Messenger", "Timely Messenger is not a hero: a card from your hand is played: "
                                "play timely-messenger", None),
    ("hire Iron Man", "there is no Iron Man in your hand", "your hand: "),
    ("frobnicate", "unknown command 'frobnicate'", "Codex commands: tech, hire, build"),
    ("build castle", "build: no building called 'castle'", "build tech1|tech2|tech3|surplus|tower"),
    ("attack troq-bashar", "expected attack THING TARGET", None),
    ("play", "play: which card?", None),
])
def test_errors_say_what_is_wrong(typed, error, hint):
    st = first_turn()
    seat = GAME.to_act(st)[0]
    with pytest.raises(InvalidCommand) as err:
        GAME.presentation.parse(typed, st, seat)
    assert error in err.value.message
    if hint is not None:
        assert hint in (err.value.hint or "")


def test_names_with_spaces_in_options_and_the_tech_step():
    st = first_turn()
    seat = GAME.to_act(st)[0]
    assert GAME.presentation.parse("Play Brick Thief target=opp:Base,me:base", st, seat) == \
        GAME.presentation.parse("play brick-thief target=opp:base,me:base", st, seat)
    names = [n for n in cards.codex_cards(st.players[seat].spec) if " " in n][:2]
    tech = GAME.presentation.parse("tech " + " ".join(names), st, seat)
    assert [c for c in (GAME.presentation.format(tech, st, seat).split()[1:])] == [cards.slug(n) for n in names]
