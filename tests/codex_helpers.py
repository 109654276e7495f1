"""Helpers for Codex tests: fixed positions from scenario lines, commands by notation."""

from __future__ import annotations

from pbem.games.base import RandomChance, SeatSpec
from pbem.games.codex import GAME, engine
from pbem.games.codex.state import State

SEATS = [SeatSpec("alice"), SeatSpec("bob")]


class TopChance(RandomChance):
    """Draws from the top, shuffles keep the order: a scenario stays fixed."""

    def private_draw(self, n: int) -> int:
        return 0

    def shuffle(self, items):
        return list(items)


CH = TopChance(0)


def start(*lines: str, first: str = "bashing") -> State:
    options = GAME.options({"scenario": "\n".join(lines), "first": first})
    state = GAME.setup(options, SEATS, CH)
    return GAME.advance(state, CH)


def do(state: State, text: str, seat: str | None = None) -> State:
    seat = seat or state.active
    cmd = GAME.parse(text, state, seat)
    assert GAME.parse(GAME.format(cmd, state, seat), state, seat) == cmd
    state = GAME.apply(state, seat, cmd, CH)
    return GAME.advance(state, CH)


def thing(state: State, seat: str, name: str) -> str:
    refs = engine.controls(state, seat, name)
    assert refs, f"{seat} controls no {name}"
    return refs[0]


def stats(state: State, seat: str, name: str) -> tuple[int, int, int]:
    """(ATK, HP, damage) of `seat`'s first `name`."""
    ref = thing(state, seat, name)
    return engine.atk(state, ref), engine.hp(state, ref), state.things[ref].damage


def gone(state: State, seat: str, name: str) -> bool:
    return not engine.controls(state, seat, name)


def base(state: State, seat: str) -> int:
    return 20 - state.players[seat].base_damage
