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


def start(*lines: str, first: str = "bashing", **decks: str) -> State:
    """A fixed position; `decks` are further options (``p1="bashing",
    p1_starter="red"`` ...), given instead of `first`."""
    raw = {"scenario": "\n".join(lines), **decks} if decks else {"scenario": "\n".join(lines), "first": first}
    options = GAME.options(raw)
    state = GAME.setup(options, SEATS, CH)
    return GAME.advance(state, CH)


def red_green(*lines: str) -> State:
    """Alice (Bashing's hero) with the red starter deck, Bob (Finesse's) with the green one."""
    return start(*lines, p1="bashing", p2="finesse", p1_starter="red", p2_starter="green")


def do(state: State, text: str, seat: str | None = None) -> State:
    seat = seat or state.active
    cmd = GAME.presentation.parse(text, state, seat)
    assert GAME.presentation.parse(GAME.presentation.format(cmd, state, seat), state, seat) == cmd
    state = GAME.apply(state, seat, cmd, CH)
    return GAME.advance(state, CH)


def thing(state: State, seat: str, name: str) -> str:
    refs = engine.controls(state, seat, name)
    assert refs, f"{seat} controls no {name}"
    return refs[0]


def next_turn(state: State, text: str = "end") -> State:
    """End the active seat's turn (`text`: the ``end`` command); the next
    seat techs its first codex cards if it must."""
    state = do(state, text)
    if state.phase == "tech":
        cmd = next(c for c in GAME.legal(state, state.active) if not c.choices.first)
        state = GAME.advance(GAME.apply(state, state.active, cmd, CH), CH)
    return state


def hand_names(state: State, seat: str) -> list[str]:
    return sorted(it.card for it in state.zones[f"hand:{seat}"].items)


def legal_texts(state: State, seat: str | None = None) -> list[str]:
    seat = seat or GAME.to_act(state)[0]
    return [GAME.presentation.format(c, state, seat) for c in GAME.legal(state, seat)]


def stats(state: State, seat: str, name: str) -> tuple[int, int, int]:
    """(ATK, HP, damage) of `seat`'s first `name`."""
    ref = thing(state, seat, name)
    return engine.atk(state, ref), engine.hp(state, ref), state.things[ref].damage


def gone(state: State, seat: str, name: str) -> bool:
    return not engine.controls(state, seat, name)


def base(state: State, seat: str) -> int:
    return 20 - state.players[seat].base_damage
