"""The conformance harness every game passes (DESIGN.md section 3).

`check_game` plays one seeded game with a bot while emulating what the
protocol does with hidden information, and raises `AssertionError` with a
clear message at the first broken property:

1. **Knowledge.** The full state (every item `Known`) is what a referee
   would hold. The canonical chain state is the *public* state: the full
   state projected on the refs revealed publicly, where every item lying in
   a public zone is revealed after each step. Each seat also keeps its own
   *partial* state, to which it applies every command itself; the dealer
   delivers to a seat the items that land in zones it may read. After every
   step: the public state equals ``project(full, public_refs)``, each partial
   state equals ``project(full, public_refs | known[seat])`` (and the overlay
   of the seat's knowledge on the public state), `to_act` and `outcome` agree
   everywhere. When the public state raises `NeedsReveal`, the harness reveals
   that ref publicly and retries, as the protocol would.
2. **Commands.** The acting seat's `legal` commands are deterministic, the
   same on its partial state and on the full state (they may depend only on
   what the seat sees), and empty for seats not in `to_act`; the bot's
   choice is legal; its notation parses back to the same command; it
   round-trips through JSON as `game.info.Command`; applying it never mutates the
   input state; after `advance` nothing is left to advance.
3. **Views and logs never leak.** For every seat and for an observer (None),
   the view (and the log line `describe`, on the state after the command)
   computed from the full state is byte-identical to the one computed from
   what that reader knows; so it cannot name a card the reader may not see.
   `render` works on every view. At several points of the game (the set-up,
   steps 1, 2, 4, 8 ..., and the end) every picture of every reader's view
   is drawn: the compact board of `pbem play` (`Presentation.compact`, at most
   `COMPACT_ROWS` lines of 80 columns), the SVG (`Presentation.svg`, well-formed
   XML; `NoPicture` only for a game without one) and the colour terminal picture (`Presentation.rich_view`,
   drawn 80 columns wide), so no variant's view crashes a picture.
4. **Encoding.** Full, public and partial states round-trip through
   ``msgspec.json`` as `game.info.State`.
5. **Replay.** Replaying the recorded commands from the same seed
   reproduces the final full state byte for byte.
6. **Termination.** The game ends within `max_steps`; then `to_act` is empty.
7. **The game's own invariants**, where the caller gives `invariant`: a
   function of the full state, raising `AssertionError`, run after every step
   (card conservation, limits a variant sets ...).

Game-agnostic: imports only `pbem.games.base`, `pbem.games.refchoice`,
`pbem.errors`, msgspec and the standard library (and rich, inside
`draw_pictures`, where a game names a colour picture).
"""

from __future__ import annotations

import importlib
import io
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import msgspec

from pbem.games.base import (
    COMPACT_ROWS,
    TERMINAL_WIDTH,
    Game,
    GameState,
    Hidden,
    Known,
    NeedsReveal,
    Outcome,
    RandomChance,
    SeatSpec,
    overlay,
    project,
    unrevealed_public,
)
from pbem.errors import NoPicture
from pbem.games.refchoice import rechoose_refs

__all__ = ["check_game", "readable_refs", "encode", "draw_pictures"]


def encode(value: Any) -> bytes:
    """Canonical JSON bytes (sorted keys) used for every comparison."""
    return msgspec.json.encode(value, order="sorted")


def readable_refs(state: GameState, seat: str) -> set[str]:
    """Refs in non-public zones that `seat` may read (what a dealer delivers)."""
    return {
        it.ref
        for zone in state.zones.values()
        if not zone.public and seat in zone.readers
        for it in zone.items
    }


def _diff(a: bytes, b: bytes) -> str:
    """A short excerpt around the first difference of two encodings."""
    n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, n - 60)
    return (
        f"first difference at byte {n}:\n"
        f"  expected ...{a[lo:n + 60].decode(errors='replace')}...\n"
        f"  got      ...{b[lo:n + 60].decode(errors='replace')}..."
    )


def draw_pictures(game: Game[Any, Any], view: Any, where: str) -> None:
    """Draw every picture of `view`: text, SVG and the colour terminal
    picture; AssertionError naming `where` when one fails or is empty."""
    try:
        text = game.presentation.render(view)
        if not isinstance(text, str) or not text:
            raise AssertionError(f"render returned {text!r}")
        small = game.presentation.compact(view).splitlines()
        if not small or len(small) > COMPACT_ROWS or max(len(line) for line in small) > TERMINAL_WIDTH:
            raise AssertionError(f"the compact board is {len(small)} lines (at most {COMPACT_ROWS} of "
                                 f"{TERMINAL_WIDTH} columns):\n" + "\n".join(small))
        try:
            ET.fromstring(game.presentation.svg(view))
        except NoPicture:
            pass
        if game.presentation.rich_view is not None:
            from rich.console import Console

            out = io.StringIO()
            console = Console(file=out, width=80, color_system="truecolor", force_terminal=True)
            console.print(importlib.import_module(game.presentation.rich_view).render(view))
            if not out.getvalue().strip():
                raise AssertionError("the colour picture is empty")
    except Exception as exc:
        raise AssertionError(f"{where}: a picture of {type(view).__name__} fails: {type(exc).__name__}: {exc}") from exc


def _same(expected: Any, got: Any, what: str) -> None:
    a, b = encode(expected), encode(got)
    if a != b:
        raise AssertionError(f"{what}\n{_diff(a, b)}")


class _Run:
    def __init__(
        self, game: Game[Any, Any], options: Any, seats: list[Any], seed: int, bot: str,
        invariant: Callable[[Any], None] | None = None,
    ) -> None:
        self.invariant = invariant
        self.game = game
        self.options = options
        self.specs = [s if isinstance(s, SeatSpec) else SeatSpec(str(s)) for s in seats]
        self.names = [s.name for s in self.specs]
        self.seed = seed
        if bot not in game.presentation.bots:
            raise AssertionError(f"{game.info.name} has no bot {bot!r} (bots: {sorted(game.presentation.bots)})")
        self.bot = game.presentation.bots[bot]
        self.rng = random.Random(f"{seed}:bot")
        self.refs_rng = random.Random(f"{seed}:refs")
        self.step = 0
        self.where = "setup"
        self.log: list[tuple[str, Any]] = []
        self.cards: dict[str, str] = {}

        self.full = game.setup(options, self.specs, RandomChance(seed))
        self.cards = self._cards()
        self.public: set[str] = set()
        self.known = {s: readable_refs(self.full, s) for s in self.names}
        self.pub = project(self.full, set())
        self.part = {s: project(self.full, self.known[s]) for s in self.names}
        self._reveal_public()
        self._advance_all()
        self._reveal_public()  # what the first advance turned face up
        self._deliver()
        self._check_states()

    # -- knowledge --------------------------------------------------------------

    def _cards(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, zone in self.full.zones.items():
            for it in zone.items:
                if isinstance(it, Hidden):
                    raise AssertionError(
                        f"{self.where}: the full state must know every item, "
                        f"but {it.ref} in zone {name!r} is hidden"
                    )
                if it.ref in out and out[it.ref] != it.card:
                    raise AssertionError(f"{self.where}: ref {it.ref} names two cards")
                out[it.ref] = it.card
        # a ref keeps its card forever (the protocol binds it with a commitment)
        for ref, card in self.cards.items():
            if ref in out and out[ref] != card:
                raise AssertionError(f"{self.where}: ref {ref} changed from {card} to {out[ref]}")
        return {**self.cards, **out}

    def _openings(self, refs: set[str]) -> dict[str, str]:
        return {ref: self.cards[ref] for ref in refs if ref in self.cards}

    def _reveal(self, ref: str) -> None:
        if ref not in self.cards:
            raise AssertionError(f"{self.where}: the rules need ref {ref!r}, which the full state lacks")
        if ref in self.public:
            raise AssertionError(
                f"{self.where}: NeedsReveal({ref}) although {ref} was already revealed publicly"
            )
        self.public.add(ref)
        opening = {ref: self.cards[ref]}
        self.pub = overlay(self.pub, opening)
        self.part = {s: overlay(p, opening) for s, p in self.part.items()}

    def _reveal_public(self) -> None:
        """Reveal every item lying in a public zone; whatever the public state
        knows is public knowledge."""
        for ref in unrevealed_public(self.pub):
            self._reveal(ref)
        for zone in self.pub.zones.values():
            for it in zone.items:
                if isinstance(it, Known):
                    self.public.add(it.ref)

    def _deliver(self) -> None:
        """The dealer hands each seat the items now in zones it may read.

        A seat's own copy may have shuffled cards it knew into a zone it
        does not read (a discard pile becoming a draw pile): `shuffle_zone`
        gives them fresh refs, and the protocol hides the new order from
        every seat that does not read the zone (chance contract, secret
        chance), so the copy keeps only the refs the seat was shown."""
        for s in self.names:
            self.known[s] |= readable_refs(self.full, s)
            self.part[s] = overlay(
                project(self.part[s], self.known[s] | self.public),
                self._openings(self.known[s] | self.public),
            )

    def _seat_state(self, seat: str | None) -> Any:
        return self.pub if seat is None else self.part[seat]

    # -- applying -----------------------------------------------------------------

    def _chance(self, what: str) -> RandomChance:
        return RandomChance(random.Random(f"{self.seed}:{self.step}:{what}"))

    def _on_all(self, what: str, fn: Callable[[Any, RandomChance], Any]) -> None:
        """Run `fn` on the full, public and partial states with equal chance."""
        before = encode(self.full)
        full = fn(self.full, self._chance(what))
        if encode(self.full) != before:
            raise AssertionError(f"{self.where}: {what} mutated the state it was given")
        for _ in range(len(self.cards) + 1):
            try:
                pub = fn(self.pub, self._chance(what))
                break
            except NeedsReveal as exc:
                self._reveal(exc.ref)
        else:  # pragma: no cover - a reveal loop
            raise AssertionError(f"{self.where}: {what} keeps asking for reveals")
        parts = {}
        for s in self.names:
            try:
                parts[s] = fn(self.part[s], self._chance(what))
            except NeedsReveal as exc:
                raise AssertionError(
                    f"{self.where}: {what} on {s}'s partial state needs {exc.ref}, "
                    "which the public state did not need"
                ) from None
            except Exception as exc:
                raise AssertionError(
                    f"{self.where}: {what} fails on {s}'s partial state but not on the "
                    f"full state: {type(exc).__name__}: {exc}"
                ) from exc
        self.full, self.pub, self.part = full, pub, parts
        self.cards = self._cards()

    def _advance_all(self) -> None:
        self._on_all("advance", lambda st, ch: self.game.advance(st, ch))
        again = self.game.advance(self.full, self._chance("advance-again"))
        _same(self.full, again, f"{self.where}: advance left work undone (a second advance changed the state)")

    # -- checks -------------------------------------------------------------------

    def _check_states(self) -> None:
        game, where = self.game, self.where
        _same(project(self.full, self.public), self.pub,
              f"{where}: the public state disagrees with the full state")
        for s in self.names:
            knows = self.public | self.known[s]
            _same(project(self.full, knows), self.part[s],
                  f"{where}: {s}'s partial state disagrees with the full state")
            _same(overlay(self.pub, self._openings(self.known[s])), self.part[s],
                  f"{where}: {s}'s partial state is not the public state plus {s}'s knowledge")
        acting = game.to_act(self.full)
        outcome = game.outcome(self.full)
        for reader in [None, *self.names]:
            st = self._seat_state(reader)
            who = "the public" if reader is None else reader
            if game.to_act(st) != acting:
                raise AssertionError(f"{where}: to_act differs on {who}'s state")
            _same(outcome, game.outcome(st), f"{where}: outcome differs on {who}'s state")
            mine = game.view(st, reader)
            _same(game.view(self.full, reader), mine,
                  f"{where}: {who}'s view of the full state differs from {who}'s own view "
                  "(a view may show only what its reader sees)")
            if self._drawing_point():
                draw_pictures(game, mine, f"{where}: {who}'s view")
            else:
                text = game.presentation.render(mine)
                if not isinstance(text, str) or not text:
                    raise AssertionError(f"{where}: render returned {text!r}")
        for st, who in [(self.full, "full"), (self.pub, "public")] + [
            (p, f"{s}'s partial") for s, p in self.part.items()
        ]:
            back = msgspec.json.decode(msgspec.json.encode(st), type=game.info.State)
            _same(st, back, f"{where}: the {who} state does not round-trip through JSON")
        if outcome is not None and acting:
            raise AssertionError(f"{where}: the game is over but to_act is {acting}")
        if self.invariant is not None:
            try:
                self.invariant(self.full)
            except AssertionError as exc:
                raise AssertionError(f"{where}: {exc}") from None

    def _drawing_point(self) -> bool:
        """The set-up, steps 1, 2, 4, 8 ... and the end: where every picture is drawn."""
        return self.step & (self.step - 1) == 0 or self.game.outcome(self.full) is not None

    def _check_command(self, seat: str, partial: Any) -> Any:
        game, where = self.game, self.where
        legal = list(game.legal(partial, seat))
        if legal != list(game.legal(partial, seat)):
            raise AssertionError(f"{where}: legal({seat}) is not deterministic")
        full_legal = list(game.legal(self.full, seat))
        if legal != full_legal:
            raise AssertionError(
                f"{where}: legal({seat}) differs between the full state and {seat}'s own state "
                f"(it must depend only on what {seat} sees):\n  full: {full_legal}\n  own:  {legal}"
            )
        if not legal:
            raise AssertionError(f"{where}: {seat} must act but has no legal command")
        for s in self.names:
            if s not in game.to_act(self.full) and list(game.legal(self.part[s], s)):
                raise AssertionError(f"{where}: {s} is not to act but has legal commands")
        command = self.bot(game, partial, seat, self.rng)
        if command not in legal:
            raise AssertionError(f"{where}: the bot chose {command!r}, which is not legal")
        for cmd in legal:
            text = game.presentation.format(cmd, partial, seat)
            back = game.presentation.parse(text, partial, seat)
            if back != cmd:
                raise AssertionError(f"{where}: {text!r} parses to {back!r}, not {cmd!r}")
        # the writer re-chooses refs among equal cards (refchoice): the
        # re-chosen command must read the same and be just as legal
        chosen = rechoose_refs(game, partial, seat, [command], self.refs_rng.randrange)[0]
        if game.presentation.format(chosen, partial, seat) != game.presentation.format(command, partial, seat):
            raise AssertionError(
                f"{where}: re-choosing refs among equal cards changed {command!r} into {chosen!r}, "
                "which reads differently (see Dealing.interchangeable)"
            )
        command = chosen
        wire = msgspec.json.encode(command)
        back = msgspec.json.decode(wire, type=game.info.Command)
        if back != command or type(back) is not type(command):
            raise AssertionError(f"{where}: {command!r} does not round-trip through JSON ({wire!r})")
        return command

    # -- the game -----------------------------------------------------------------

    def play(self, max_steps: int) -> Outcome:
        game = self.game
        while game.outcome(self.full) is None:
            if self.step >= max_steps:
                raise AssertionError(f"no outcome after {max_steps} steps (seed {self.seed})")
            self.step += 1
            acting = game.to_act(self.full)
            if not acting:
                raise AssertionError(
                    f"step {self.step}: dead end: nobody is to act and the game is not over"
                )
            seat = acting[self.rng.randrange(len(acting))]
            self.where = f"seed {self.seed} step {self.step} ({seat})"
            command = self._check_command(seat, self.part[seat])
            self.where += f" {game.presentation.format(command, self.part[seat], seat)!r}"
            self._on_all("apply", lambda st, ch: game.apply(st, seat, command, ch))
            self._advance_all()
            self._reveal_public()
            self._deliver()
            self._check_states()
            for reader in [None, *self.names]:
                _same(
                    game.presentation.describe(command, self.full, reader),
                    game.presentation.describe(command, self._seat_state(reader), reader),
                    f"{self.where}: the log line for {reader or 'the public'} leaks",
                )
            self.log.append((seat, command))
        outcome = game.outcome(self.full)
        assert outcome is not None
        if game.to_act(self.full):
            raise AssertionError(f"{self.where}: the game is over but to_act is not empty")
        self._check_replay()
        return outcome

    def _check_replay(self) -> None:
        game = self.game
        state = game.setup(self.options, self.specs, RandomChance(self.seed))
        self.step = 0
        state = game.advance(state, self._chance("advance"))
        for seat, command in self.log:
            self.step += 1
            state = game.apply(state, seat, command, self._chance("apply"))
            state = game.advance(state, self._chance("advance"))
        _same(self.full, state, f"seed {self.seed}: replaying the commands gives another state")


def check_game(
    game: Game[Any, Any],
    options: Any,
    seats: list[Any],
    seed: int,
    bot: str = "random",
    max_steps: int = 2000,
    invariant: Callable[[Any], None] | None = None,
) -> Outcome:
    """Play one game with `bot` for every seat, checking every property in the
    module docstring (and `invariant` of the full state after every step);
    return the outcome. Raises `AssertionError` on failure."""
    return _Run(game, options, seats, seed, bot, invariant).play(max_steps)
