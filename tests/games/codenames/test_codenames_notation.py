"""Codenames notation and wire form: every command parses back to itself."""

from __future__ import annotations

import msgspec
import pytest

from pbem.errors import InvalidCommand
from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codenames import GAME
from pbem.games.codenames.commands import Clue, Command, Cover, Guess, Pass, Review, format_command, parse_command

COMMANDS = [
    Clue("ocean", 2),
    Clue("ocean", 0),
    Clue("ocean", "unlimited"),
    Clue("sea-lion", 9),
    Clue("brandbil", 1),
    Guess(("tiger",)),
    Guess(("tiger", "lemon", "piano")),
    Guess(("tiger", "lemon"), then_pass=True),
    Guess(("häst", "ice-cream")),
    Pass(),
    Review("accept"),
    Review("object"),
    Cover("tiger"),
    Cover(None),
]


@pytest.mark.parametrize("command", COMMANDS, ids=format_command)
def test_round_trip(command):
    assert parse_command(format_command(command)) == command
    wire = msgspec.json.encode(command)
    assert msgspec.json.decode(wire, type=Command) == command


@pytest.mark.parametrize(
    "text, command",
    [
        ("clue OCEAN 2", Clue("ocean", 2)),
        ("  Clue   Ocean   2 ", Clue("ocean", 2)),
        ("clue ocean unlimited", Clue("ocean", "unlimited")),
        ("clue ocean UNLIMITED", Clue("ocean", "unlimited")),
        ("clue hav obegränsat", Clue("hav", "unlimited")),
        ("ledtråd hav 3", Clue("hav", 3)),
        ("clue HÄST 1", Clue("häst", 1)),
        ("clue ha\u0308st 1", Clue("häst", 1)),  # decomposed ä
        ("guess TIGER LEMON PIANO", Guess(("tiger", "lemon", "piano"))),
        ("guess tiger lemon pass", Guess(("tiger", "lemon"), then_pass=True)),
        ("gissa häst båt passa", Guess(("häst", "båt"), then_pass=True)),
        ("PASS", Pass()),
        ("passa", Pass()),
        ("accept", Review("accept")),
        ("godta", Review("accept")),
        ("object", Review("object")),
        ("invänd", Review("object")),
        ("cover Tiger", Cover("tiger")),
        ("täck häst", Cover("häst")),
        ("cover none", Cover(None)),
        ("täck ingen", Cover(None)),
    ],
)
def test_parse(text, command):
    assert parse_command(text) == command


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("clue", "clue WORD N"),
        ("clue ocean", "clue WORD N"),
        ("clue ocean many", "number"),
        ("clue ocean -1", "number"),
        ("clue ocean ²", "number"),
        ("guess", "at least one word"),
        ("guess pass", "at least one word"),
        ("accept now", "nothing after"),
        ("pass tiger", "nothing after"),
        ("cover", "cover WORD"),
        ("cover a b", "cover WORD"),
        ("dance", "expected"),
    ],
)
def test_does_not_parse(text, message):
    with pytest.raises(InvalidCommand, match=message) as err:
        parse_command(text)
    assert err.value.hint


def test_wire_tags_are_explicit():
    assert msgspec.json.decode(msgspec.json.encode(Clue("ocean", 2))) == {"t": "cn.clue", "word": "ocean", "number": 2}
    assert msgspec.json.decode(msgspec.json.encode(Guess(("a",))))["t"] == "cn.guess"
    assert msgspec.json.decode(msgspec.json.encode(Pass())) == {"t": "cn.pass"}
    assert msgspec.json.decode(msgspec.json.encode(Review("object"))) == {"t": "cn.review", "verdict": "object"}
    assert msgspec.json.decode(msgspec.json.encode(Cover(None))) == {"t": "cn.cover", "word": None}


@pytest.mark.parametrize("bad", [b'{"t":"cn.clue","word":"x","number":10}', b'{"t":"cn.clue","word":"x","number":"lots"}'])
def test_wire_numbers_are_checked(bad):
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(bad, type=Command)


def test_game_notation_methods():
    opts = GAME.options({})
    st = GAME.setup(opts, GAME.seats(opts, [SeatSpec(n) for n in "abcd"]), RandomChance(0))
    seat = GAME.to_act(st)[0]
    for cmd in GAME.legal(st, seat):
        text = GAME.presentation.format(cmd, st, seat)
        assert GAME.presentation.parse(text, st, seat) == cmd
        assert GAME.presentation.describe(cmd, st, None) == text
