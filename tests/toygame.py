"""A tiny game with private decks, to test them until a real game has some.

Each seat owns a deck of six cards numbered 1 to 6 (a private deck: nobody
sees its order, its owner knows what it holds). On your turn you `draw` a
card (chance picks which) and `play N` a card from your hand face up; it
scores its number. After `rounds` rounds the highest score wins.

It imports only pbem.games.base, like every game.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from pbem.games.base import (
    Dealing,
    Game,
    GameInfo,
    GameState,
    IllegalCommand,
    InvalidCommand,
    Known,
    Outcome,
    Presentation,
    SeatSpec,
    Zone,
    copy_struct,
    draw_private,
    identity,
)

CARDS = [str(n) for n in range(1, 7)]


class Options(msgspec.Struct, kw_only=True):
    rounds: int = 3


class State(GameState, kw_only=True):
    seats: list[str]
    rounds: int
    round: int = 1
    active: int = 0
    phase: Literal["draw", "play", "score", "over"] = "draw"
    scores: dict[str, int] = {}


class Draw(msgspec.Struct, frozen=True, tag="toy.draw", tag_field="t"):
    pass


class Play(msgspec.Struct, frozen=True, tag="toy.play", tag_field="t"):
    ref: str


Command = Draw | Play


class View(msgspec.Struct):
    viewer: str | None
    phase: str
    active: str
    scores: dict[str, int]
    hand: list[str] | None
    decks: dict[str, int]
    table: list[str]


class DrawGame(Game):
    info = GameInfo(name="toy-draw", title="Draw and play (a test game)", rules_version="1", min_seats=2,
                    max_seats=3, Options=Options, State=State, Command=Command)

    def __init__(self) -> None:
        super().__init__(presentation=Presentation(
            render=self.render, format=self.format, parse=self.parse, describe=self.describe,
            bots={"random": lambda game, state, seat, rng: rng.choice(game.legal(state, seat))},
        ))

    def dealing(self, state: State) -> Dealing:
        return Dealing(private={f"deck:{s}": s for s in state.seats})

    def setup(self, options, seats: list[SeatSpec], chance) -> State:
        names = [s.name for s in seats]
        state = State(seats=names, rounds=options.rounds, scores={n: 0 for n in names})
        zones = {"table": Zone(public=True)}
        for n in names:
            cards = chance.shuffle(CARDS)
            items = []
            for card in cards:
                items.append(Known(f"t{state.next_ref:03d}", card))
                state.next_ref += 1
            zones[f"deck:{n}"] = Zone(items=items)
            zones[f"hand:{n}"] = Zone(readers=[n])
        state.zones = zones
        return state

    def to_act(self, state: State) -> list[str]:
        return [state.seats[state.active]] if state.phase in ("draw", "play") else []

    def legal(self, state: State, seat: str) -> list:
        if seat not in self.to_act(state):
            return []
        if state.phase == "draw":
            return [Draw()]
        out, seen = [], set()
        for it in state.zones[f"hand:{seat}"].items:
            card = identity(it)
            if card not in seen:
                seen.add(card)
                out.append(Play(it.ref))
        return out

    def apply(self, state: State, seat: str, command, chance) -> State:
        if seat not in self.to_act(state):
            raise IllegalCommand(f"it is not {seat}'s turn")
        s = copy_struct(state)
        if isinstance(command, Draw):
            if s.phase != "draw":
                raise IllegalCommand("draw first, then play")
            s.zones[f"hand:{seat}"].items.append(draw_private(s, f"deck:{seat}", chance))
            s.phase = "play"
            return s
        if s.phase != "play":
            raise IllegalCommand("draw before you play")
        hand = s.zones[f"hand:{seat}"].items
        item = next((it for it in hand if it.ref == command.ref), None)
        if item is None:
            raise IllegalCommand("that card is not in your hand")
        hand.remove(item)
        s.zones["table"].items.append(item)
        s.phase = "score"
        return s

    def advance(self, state: State, chance) -> State:
        if state.phase != "score":
            return state
        s = copy_struct(state)
        seat = s.seats[s.active]
        s.scores[seat] += int(identity(s.zones["table"].items[-1]))
        s.active = (s.active + 1) % len(s.seats)
        if s.active == 0:
            s.round += 1
        s.phase = "over" if s.round > s.rounds else "draw"
        return s

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        best = max(state.scores.values())
        return Outcome(winners=[s for s in state.seats if state.scores[s] == best], reason=f"best score {best}")

    def view(self, state: State, seat: str | None) -> View:
        hand = None
        if seat is not None:
            hand = [identity(it) for it in state.zones[f"hand:{seat}"].items]
        return View(
            viewer=seat,
            phase=state.phase,
            active=state.seats[state.active],
            scores=dict(state.scores),
            hand=hand,
            decks={s: len(state.zones[f"deck:{s}"].items) for s in state.seats},
            table=[identity(it) for it in state.zones["table"].items],
        )

    def render(self, view: View) -> str:
        return f"{view.phase} {view.active} {view.scores} hand={view.hand} table={view.table}"

    def format(self, command, state: State, seat: str) -> str:
        if isinstance(command, Draw):
            return "draw"
        item = next(it for z in state.zones.values() for it in z.items if it.ref == command.ref)
        return f"play {identity(item)}"

    def parse(self, text: str, state: State, seat: str):
        words = text.split()
        if words == ["draw"]:
            return Draw()
        if len(words) == 2 and words[0] == "play":
            for it in state.zones[f"hand:{seat}"].items:
                if isinstance(it, Known) and it.card == words[1]:
                    return Play(it.ref)
            raise IllegalCommand(f"no {words[1]} in your hand")
        raise InvalidCommand("expected: draw | play N")

    def describe(self, command, state: State, seat: str | None) -> str:
        return "draw" if isinstance(command, Draw) else "play"


GAME = DrawGame()
