"""Current values remembered within one computation (`values`).

The effects engine changes the state between reads, so `values.get`
outside ``with frozen(state):`` computes afresh each time. But one call
into `values` (one thing's value, or `values.lethal` over every thing)
never changes the state, and inside it the same values are asked again
and again: a continuous effect whose condition counts things with a
keyword (Wandering Mimic's six) computes every other unit's values, once
per effect, for each value that looks at it. A *scope* keeps, for as long
as such a call runs and no longer, the list of continuous effects in play
and the values already computed.

What may be kept. A thing's value is normally a function of the state
alone; but while the values of some things are being computed (the
stack, `values._Local.partial`), a read of one of *them* sees the value so
far, not the finished one (module `values`, "Order"). So each computation
notes the things whose values it read, directly or through others (its
*reads*), and each value so far on the stack carries a version, new at
every change (`changed`). A value is kept with the versions of the things
on the stack it read (none: it is the value of the state alone), and a
later ask returns it only where the things of the stack it reads are
those same ones at those same versions (else it is computed again, as
without the scope). A computation is a function of the state and of what
it reads, so reusing a value gives exactly what computing it again
would: the rules stay pure functions of the state and play as before
(tests/vectors, tests/games/test_playout_golden.py). Two Wandering Mimics
need the versions: each one's six conditions read the other, whose value
then depends on the first one's so far.

Inside ``with frozen(state):`` no scope opens: the frozen cache keeps
every value already (`board.memo`).
"""

from __future__ import annotations

import threading
from typing import Any

from pbem.games.codex import board
from pbem.games.codex.state import State


class _Scope(threading.local):
    #: the state of the open scope (None: none open)
    state: State | None = None
    #: (source, controller, ability) of the continuous effects in play
    effects: list[Any] = []
    #: ref -> [(its finished values, the refs its computation read, the
    #: (ref, version) of those on the stack then)]
    known: dict[str, list[tuple[Any, frozenset[str], tuple[tuple[str, int], ...]]]] = {}
    #: the reads of each computation under way, innermost last
    reads: list[set[str]] = []
    #: ref -> the version of its value so far; the last version given
    versions: dict[str, int] = {}
    tick = 0


_scope = _Scope()


class scope:
    """``with scope(state, effects, useful):`` keeps values while the caller
    reads `state` (`effects`: its continuous effects, `values.statics`),
    if `useful` (some effect reads values: else nothing is asked twice and
    the bookkeeping would cost more than it saves). Nested scopes of the
    same state are one; none opens on a frozen state. (A class, not a
    generator: it opens on every `values.get`.)"""

    __slots__ = ("state", "effects", "before", "useful")

    def __init__(self, state: State, effects: list[Any], useful: bool = True) -> None:
        self.state, self.effects, self.useful = state, effects, useful
        self.before: tuple[Any, ...] | None = None

    def __enter__(self) -> None:
        state = self.state
        if not self.useful or _scope.state is state or board.memo(state) is not None:
            return
        self.before = (_scope.state, _scope.effects, _scope.known, _scope.reads, _scope.versions)
        _scope.state, _scope.effects, _scope.known, _scope.reads, _scope.versions = state, self.effects, {}, [], {}

    def __exit__(self, *exc: object) -> None:
        if self.before is not None:
            _scope.state, _scope.effects, _scope.known, _scope.reads, _scope.versions = self.before


def effects(state: State) -> list[Any] | None:
    """The continuous effects of the scope open on `state` (None: no scope)."""
    return _scope.effects if _scope.state is state else None


def _on_stack(reads: frozenset[str] | set[str], stack: dict[str, Any] | None) -> tuple[tuple[str, int], ...]:
    """(ref, version) of the things of `stack` among `reads`, in stack order."""
    if not stack:
        return ()
    versions = _scope.versions
    return tuple((r, versions[r]) for r in stack if r in reads)


def known(state: State, ref: str, stack: dict[str, Any] | None) -> Any | None:
    """The kept values of `ref` whose reads find on `stack` (the things whose
    values are being computed) what they found then, noted as read by the
    computation under way."""
    if _scope.state is not state:
        return None
    for v, reads, seen in _scope.known.get(ref, ()):
        if _on_stack(reads, stack) == seen:
            if _scope.reads:
                top = _scope.reads[-1]
                top.add(ref)
                top |= reads
            return v
    return None


def changed(state: State, ref: str) -> None:
    """`ref`'s value so far (on the stack) is new or has changed."""
    if _scope.state is state:
        _scope.tick += 1
        _scope.versions[ref] = _scope.tick


def read(state: State, ref: str) -> None:
    """The computation under way read `ref`'s values (so far, or finished
    without a computation of their own)."""
    if _scope.state is state and _scope.reads:
        _scope.reads[-1].add(ref)


class computing:
    """``with computing(state) as reads:`` one thing's computation: `reads`
    is the set its reads are noted in, added on exit to the reads of the
    one that asked for it."""

    __slots__ = ("state", "mine", "open")

    def __init__(self, state: State) -> None:
        self.state, self.open = state, False
        self.mine: set[str] = set()

    def __enter__(self) -> set[str]:
        if _scope.state is self.state:
            _scope.reads.append(self.mine)
            self.open = True
        return self.mine

    def __exit__(self, *exc: object) -> None:
        if self.open:
            reads = _scope.reads
            reads.pop()
            if reads:
                reads[-1].update(self.mine)


def keep(state: State, ref: str, v: Any, reads: set[str], stack: dict[str, Any] | None) -> None:
    """Keep `ref`'s finished values `v`, computed with `reads` while
    `stack` (the computations under way beneath it) held what it holds
    now; note `ref` as read by the one that asked."""
    if _scope.state is not state:
        return
    if _scope.reads:
        _scope.reads[-1].add(ref)
    _scope.known.setdefault(ref, []).append((v, frozenset(reads), _on_stack(reads, stack)))
