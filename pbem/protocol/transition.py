"""One file's effect on the public state, shared by writers and verifiers.

A writer and every verifier run *the same* function: the writer with a
reveal source backed by the openings it holds (so it learns which reveals
its file must carry), a verifier with a source backed by the reveals the
file carries (so a missing one is an error). Running one code path on both
sides is what keeps them from ever disagreeing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from pbem.errors import IllegalCommand, ProtocolError, WrongWriter
from pbem.games.base import (
    Chance, Game, GameState, Hidden, Known, NeedsReveal, copy_struct, overlay, refs_in, unknown_to, unrevealed_public,
)
from pbem.protocol.chance import NeedsChance, PlayChance, Tape

#: given a ref, the card it is (if this side may reveal it), else None
RevealSource = Callable[[str], str | None]


class Effect(msgspec.Struct):
    """What a file did to the public state."""

    state: GameState
    revealed: dict[str, str] = msgspec.field(default_factory=dict)  # ref -> card, in order of use
    blocked_on: str | None = None  # a ref `advance` waits for
    #: the file's last command, which drew chance its writer may not know
    #: yet: not applied; whoever owes the chance runs it again (`resume`)
    paused: Any = None
    #: `advance` drew chance this file cannot supply: it waits for it
    chance_blocked: bool = False
    #: the file drew public chance from its tape
    drew_chance: bool = False


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
    game: Game[Any, Any],
    state: GameState,
    writer: str,
    commands: Sequence[Any],
    source: RevealSource,
    writer_knows: Callable[[GameState], set[str]],
    private_check: Callable[[GameState, Any], None] | None = None,
    chance: Chance | None = None,
    resume: Sequence[tuple[str, Any]] = (),
    keep_fresh: bool = False,
) -> Effect:
    """Apply `commands` by `writer` to the public `state`, then settle.

    `writer_knows(state)` gives the refs the writer knows (so a turn pauses
    when the writer has drawn a card it has not been shown yet);
    `private_check(state_before, command)` lets a party that holds more
    openings check what the public state cannot (a face-down card's name).

    `chance` defaults to what a seat's file has under a dealer: public
    chance pauses the file (`NeedsChance`), secret chance is a stand-in.
    A command that draws chance it cannot have ends the file unapplied
    (`Effect.paused`); `resume=[(seat, command), ...]` runs such commands
    first, in the file that supplies their chance (or opens the ballots of a
    vote, whose commands run in seat order). New items in hidden zones
    come out `Hidden` (`hide_fresh`) unless `keep_fresh` (the dealer
    replaying a file on the full state, to learn what a shuffle dealt).
    """
    before = set(refs_in(state))
    effect = _run(game, state, writer, commands, source, writer_knows, private_check, chance, resume)
    if not keep_fresh:
        effect.state = hide_fresh(effect.state, before)
    return effect


def hide_fresh(state: GameState, before: set[str]) -> GameState:
    """`state` with every item that is new since `before` and lies in a
    zone that is not public made `Hidden`.

    A shuffle renames the items it moves (`shuffle_zone`), and a verifier
    stands in for its secret order: the cards it puts under the new refs
    are guesses, which the public state must not carry. The dealer, which
    drew the real order, commits to the new refs in its next file."""
    fresh = [
        (name, i)
        for name, zone in state.zones.items()
        if not zone.public
        for i, it in enumerate(zone.items)
        if isinstance(it, Known) and it.ref not in before
    ]
    if not fresh:
        return state
    out = copy_struct(state)
    for name, i in fresh:
        items = out.zones[name].items
        items[i] = Hidden(items[i].ref)
    return out


def _run(game: Game[Any, Any], state: GameState, writer: str, commands: Sequence[Any], source: RevealSource,
         writer_knows: Callable[[GameState], set[str]], private_check: Callable[[GameState, Any], None] | None,
         chance: Chance | None, resume: Sequence[tuple[str, Any]]) -> Effect:
    reveals = _Reveals(source)
    chance = chance if chance is not None else PlayChance(Tape(None, ""))
    tape = chance.public if isinstance(chance, PlayChance) else None
    for seat, command in resume:
        try:
            state = _apply(game, state, seat, command, chance, reveals)
        except NeedsReveal as need:
            raise ProtocolError(
                f"{seat}'s paused or secret command needs {need.ref}, which this file cannot reveal"
            ) from None
        except NeedsChance:
            raise ProtocolError("this file must supply the chance the paused command draws") from None
    if commands or resume:  # answers owed from before (a reveal) may let the game move first
        state, _, blocked = _settle(game, state, reveals, chance)
        if blocked:
            return Effect(state=state, revealed=reveals.used, chance_blocked=True, drew_chance=bool(tape and tape.used))
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
        try:
            after = _apply(game, state, writer, command, chance, reveals)
        except NeedsReveal as need:
            raise IllegalCommand(
                f"this command needs the identity of {need.ref}, which {writer} cannot reveal"
            ) from None
        except NeedsChance:
            if i != len(commands) - 1:
                raise ProtocolError(
                    f"command {i + 1} draws chance {writer} may not know yet: it must be the last of its file",
                    hint="submit the rest after the answer (pbem sync)",
                ) from None
            return Effect(state=state, revealed=reveals.used, paused=command, drew_chance=bool(tape and tape.used))
        state, _, blocked = _settle(game, after, reveals, chance)
        if blocked:
            if i != len(commands) - 1:
                raise ProtocolError(
                    f"after command {i + 1} the game draws chance {writer} may not know yet: it must be the last of its file",
                    hint="submit the rest after the answer (pbem sync)",
                )
            return Effect(state=state, revealed=reveals.used, chance_blocked=True, drew_chance=bool(tape and tape.used))
    state, waits_on, chance_blocked = _settle(game, state, reveals, chance)
    return Effect(state=state, revealed=reveals.used, blocked_on=waits_on, chance_blocked=chance_blocked,
                  drew_chance=bool(tape and tape.used))


def _apply(game: Game[Any, Any], state: GameState, writer: str, command: Any, chance: Chance, reveals: "_Reveals") -> GameState:
    """`game.apply`, retried from the start with each identity it needs
    that this side can reveal (the rest raise `NeedsReveal`); a retry reads
    the same dice again."""
    tape = chance.public if isinstance(chance, PlayChance) else None
    mark = tape.mark() if tape is not None else 0
    while True:
        try:
            applied: GameState = game.apply(state, writer, command, chance)
            return applied
        except NeedsReveal as need:
            revealed = reveals.reveal(state, need.ref)
            if revealed is None:
                raise
            state = revealed
            if tape is not None:
                tape.rewind(mark)


def _settle(game: Game[Any, Any], state: GameState, reveals: _Reveals, chance: Chance) -> tuple[GameState, str | None, bool]:
    """Reveal what must be public and advance, until neither makes progress.

    `advance` itself may put hidden cards in a public zone (Agent Avenue's
    black-market supply, turned up from its deck): those this side can
    reveal are revealed at once and the rules advance again, so they travel
    in the file that made them public. Returns the state, the ref it waits
    for, and whether it waits for chance this file cannot supply.
    """
    tape = chance.public if isinstance(chance, PlayChance) else None
    while True:
        for ref in unrevealed_public(state):
            revealed = reveals.reveal(state, ref)
            if revealed is not None:
                state = revealed
        mark = tape.mark() if tape is not None else 0
        try:
            after = game.advance(state, chance)
        except NeedsReveal as need:
            if tape is not None:
                tape.rewind(mark)
            revealed = reveals.reveal(state, need.ref)
            if revealed is None:
                return state, need.ref, False
            state = revealed
            continue
        except NeedsChance:
            return state, None, True
        fresh = [ref for ref in unrevealed_public(after) if ref not in unrevealed_public(state)]
        progressed = False
        for ref in fresh:
            revealed = reveals.reveal(after, ref)
            if revealed is not None:
                after, progressed = revealed, True
        if not progressed:
            return after, None, False
        state = after


def private_checker(game: Game[Any, Any], writer: str, openings: dict[str, str]) -> Callable[[GameState, Any], None]:
    """A `private_check` that replays each command on the state as a party
    holding `openings` sees it, surfacing illegal moves the public cannot see."""

    def check(state: GameState, command: Any) -> None:
        seen = overlay(state, openings)
        try:
            game.apply(seen, writer, command, PlayChance(Tape(None, "")))
        except (NeedsReveal, NeedsChance):
            pass  # nothing more this party can check; IllegalCommand propagates

    return check
