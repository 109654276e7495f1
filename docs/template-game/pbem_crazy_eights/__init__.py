"""Crazy Eights for pbem: a game in a package of its own, and the template
to copy when writing one (see ../README.md).

The modules, one job each: `cards` (the deck and card names), `rules`
(options, state, commands, and the rules as pure functions), `view` (what a
seat may see, its text picture), `notation` (what players type, what logs
say), `bots`. This module declares the game to pbem and forwards to them.
pbem finds it by the entry point in ``pyproject.toml``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.games.base import Bot, Chance, Game, Outcome, SeatSpec, loaded_on_use

from pbem_crazy_eights import notation, rules, view
from pbem_crazy_eights.rules import Command, Options, State

SUMMARY = """\
Crazy Eights, 2-5 players, one 52-card deck. Seven cards each with two
players, five with more; the next card starts the discard pile face up.
On your turn play one card onto the pile: of the suit to follow, or of
the top card's rank. Eights are wild: play one on anything and name the
suit to follow (play 8s hearts). Only when you cannot play, draw one card
(draw): if it fits you may play it at once, else pass. When the draw pile
is empty, the discard pile but its top card is shuffled into a new one.
With nothing left to draw and nothing to play, pass. The first to empty
their hand wins.
Notation: play CARD [SUIT], draw, pass. Cards: 7h, Ts (ten), Qd, 8c.
"""


def _bots() -> dict[str, Bot]:
    from pbem_crazy_eights.bots import BOTS  # bots only where a game is played by them

    return dict(BOTS)


class CrazyEights(Game[State, Command]):
    name = "crazy-eights"
    title = "Crazy Eights"
    rules_version = "1"
    min_seats = 2
    max_seats = 5
    #: which cards are hidden at set-up, and in which hand, follows from
    #: the number of seats alone (hands by position): a peer game shuffles
    #: its deck at the joins
    fixed_hidden_cards = True

    Options = Options
    State = State
    Command = Command
    bots: ClassVar[dict[str, Bot]] = loaded_on_use(_bots)
    summary: ClassVar[str] = SUMMARY

    def seats(self, options: Any, requested: list[SeatSpec]) -> list[SeatSpec]:
        requested = super().seats(options, requested)
        if isinstance(options, Options):
            rules.check_table(options, len(requested))
        return requested

    def setup(self, options: Options, seats: list[SeatSpec], chance: Chance) -> State:
        return rules.setup(options, [s.name for s in seats], chance)

    def advance(self, state: State, chance: Chance) -> State:
        return rules.advance(state)

    def to_act(self, state: State) -> list[str]:
        return rules.to_act(state)

    def legal(self, state: State, seat: str) -> list[Command]:
        return rules.legal(state, seat)

    def apply(self, state: State, seat: str, command: Command, chance: Chance) -> State:
        return rules.apply(state, seat, command, chance)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def view(self, state: State, seat: str | None) -> view.View:
        return view.view(state, seat)

    def render(self, v: view.View) -> str:
        return view.render(v)

    def format(self, command: Command, state: State, seat: str) -> str:
        return notation.format_command(command, state, seat)

    def parse(self, text: str, state: State, seat: str) -> Command:
        return notation.parse_command(text, state, seat)

    def describe(self, command: Command, state: State, seat: str | None) -> str:
        return notation.describe_command(command, state, seat)


GAME = CrazyEights()

__all__ = ["GAME", "CrazyEights"]
