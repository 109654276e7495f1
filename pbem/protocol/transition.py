"""One file's effect on the public state, shared by writers and verifiers.

A writer and every verifier run *the same* function: the writer with a
reveal source backed by the openings it holds (so it learns which reveals
its file must carry), a verifier with a source backed by the reveals the
file carries (so a missing one is an error). Running one code path on both
sides is what keeps them from ever disagreeing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import IllegalCommand, ProtocolError, WrongWriter
from pbem.games.base import Chance, Game, GameState, NeedsReveal, overlay, unknown_to, unrevealed_public
from pbem.protocol.chance import NoChance

#: given a ref, the card it is (if this side may reveal it), else None
RevealSource = Callable[[str], str | None]


@dataclass
class Effect:
    """What a file did to the public state."""

    state: GameState
    revealed: dict[str, str] = field(default_factory=dict)  # ref -> card, in order of use
    blocked_on: str | None = None  # a ref `advance` waits for


class _Reveals:
    def __init__(self, source: RevealSource) -> None:
        self.source = source
        self.used: dict[str, str] = {}

    def reveal(self, state: GameState, ref: str) -> GameState | None:
        card = self.source(ref)
        if card is None:
            return None
        self.used[ref] = card
        return overlay(state, {ref: card})


def run(
    game: Game,
    state: GameState,
    writer: str,
    commands: Sequence[Any],
    source: RevealSource,
    writer_knows: Callable[[GameState], set[str]],
    private_check: Callable[[GameState, Any], None] | None = None,
    chance: Chance | None = None,
) -> Effect:
    """Apply `commands` by `writer` to the public `state`, then settle.

    `writer_knows(state)` gives the refs the writer knows (so a turn pauses
    when the writer has drawn a card it has not been shown yet);
    `private_check(state_before, command)` lets a party that holds more
    openings check what the public state cannot (a face-down card's name).
    """
    reveals = _Reveals(source)
    chance = chance or NoChance()
    if commands:  # answers owed from before (a reveal) may let the game move first
        state, _ = _settle(game, state, reveals, chance)
    for i, command in enumerate(commands):
        if writer not in game.to_act(state):
            waiting = ", ".join(game.to_act(state)) or "nobody"
            raise WrongWriter(f"{writer} may not act now (waiting for: {waiting})")
        if i > 0 and unknown_to(state, writer, writer_knows(state)):
            raise ProtocolError(
                f"{writer} must see the card just drawn before the next command",
                hint="submit the rest after the dealer's answer (pbem sync)",
            )
        if private_check is not None:
            private_check(state, command)
        while True:
            try:
                state = game.apply(state, writer, command, chance)
                break
            except NeedsReveal as need:
                revealed = reveals.reveal(state, need.ref)
                if revealed is None:
                    raise IllegalCommand(
                        f"this command needs the identity of {need.ref}, which {writer} cannot reveal"
                    ) from None
                state = revealed
        state, _ = _settle(game, state, reveals, chance)
    state, blocked = _settle(game, state, reveals, chance)
    return Effect(state=state, revealed=reveals.used, blocked_on=blocked)


def _settle(game: Game, state: GameState, reveals: _Reveals, chance: Chance) -> tuple[GameState, str | None]:
    """Reveal what must be public and advance, until neither makes progress.

    `advance` itself may put hidden cards in a public zone (Agent Avenue's
    black-market supply, turned up from its deck): those this side can
    reveal are revealed at once and the rules advance again, so they travel
    in the file that made them public.
    """
    while True:
        for ref in unrevealed_public(state):
            revealed = reveals.reveal(state, ref)
            if revealed is not None:
                state = revealed
        try:
            after = game.advance(state, chance)
        except NeedsReveal as need:
            revealed = reveals.reveal(state, need.ref)
            if revealed is None:
                return state, need.ref
            state = revealed
            continue
        fresh = [ref for ref in unrevealed_public(after) if ref not in unrevealed_public(state)]
        progressed = False
        for ref in fresh:
            revealed = reveals.reveal(after, ref)
            if revealed is not None:
                after, progressed = revealed, True
        if not progressed:
            return after, None
        state = after


def private_checker(game: Game, writer: str, openings: dict[str, str]) -> Callable[[GameState, Any], None]:
    """A `private_check` that replays each command on the state as a party
    holding `openings` sees it, surfacing illegal moves the public cannot see."""

    def check(state: GameState, command: Any) -> None:
        seen = overlay(state, openings)
        try:
            game.apply(seen, writer, command, NoChance())
        except NeedsReveal:
            pass  # nothing more this party can check; IllegalCommand propagates

    return check
