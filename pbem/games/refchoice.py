"""Refs carry no information: which of two equal cards a command uses.

A ref is given after the set-up shuffle, so by itself it says nothing. But
when a seat holds two cards of one name and always plays the one with the
lowest ref (or the oldest, or the first `legal` lists), then once that
card's name is public everyone learns that the older cards still in that
hand have other names. So, before a command is written, the writer's refs
are re-chosen **uniformly among the refs of the same card in the same
zone**, with randomness only the writer has (the protocol passes
`secrets.randbelow`). Whatever picked the command (`parse`, `legal`, a bot,
a person) may then use any representative: what lands in the file does not
depend on it.

A hand's order (the order of drawing) is public too and goes with the refs
(both say how old a card is); neither leaks once the copy is chosen at
random, since which position empties is then uniform among the copies.

The rules stay pure and deterministic: this module only relabels a command,
and the randomness comes from the caller. A verifier does not care which
equal ref a command uses (it checks the command against the state, as for
any other), so nothing else changes.

Which zones hold interchangeable items is the game's call
(`Dealing.interchangeable`; by default every hidden zone the writer may
read, such as a hand). A game whose refs there mean places (the cells of
Codenames' key card) declares none.

The relabelling is generic: every string inside the command (at any depth,
dict keys included) that is the ref of a known item in such a zone is
replaced. A turn of several commands is relabelled one command at a time,
each against the state the earlier ones (relabelled) produce, so a later
command never names a card an earlier one already took.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from pbem.errors import PbemError
from pbem.games.base import Game, GameState, Known

__all__ = ["rechoose_refs", "equivalents"]

#: a uniform integer in [0, n): the writer's private randomness
Below = Callable[[int], int]


class _NoChance:
    """Following a turn's earlier commands must not consume chance."""

    def below(self, n: int) -> int:
        raise PbemError("chance inside a turn: later commands keep their refs")

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        raise PbemError("chance inside a turn: later commands keep their refs")

    def private_draw(self, n: int) -> int:
        return 0


def interchangeable_zones(game: Game, state: GameState, seat: str) -> set[str]:
    """The hidden zones `seat` reads where its items of one card are
    interchangeable (`Dealing.interchangeable`; None: every one of them)."""
    chosen = game.dealing(state).interchangeable
    return {name for name, zone in state.zones.items()
            if not zone.public and seat in zone.readers and (chosen is None or name in chosen)}


def equivalents(game: Game, state: GameState, seat: str) -> dict[str, tuple[str, str]]:
    """ref -> (zone, card) for every item `seat` knows in the zones the game
    declares interchangeable for `seat`: refs with one key are interchangeable."""
    out: dict[str, tuple[str, str]] = {}
    for name in interchangeable_zones(game, state, seat):
        zone = state.zones.get(name)
        if zone is None:
            continue
        for item in zone.items:
            if isinstance(item, Known):
                out[item.ref] = (name, item.card)
    return out


def _strings(value: Any) -> list[str]:
    """Every string in a builtins tree (dict keys too), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def _replace(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, dict):
        return {_replace(k, mapping): _replace(v, mapping) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_replace(v, mapping) for v in value]
    return value


def _sample(pool: list[str], k: int, below: Below) -> list[str]:
    """`k` distinct elements of `pool`, uniformly, in a uniform order."""
    pool = list(pool)
    for i in range(k):
        j = i + below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def _rechoose_one(game: Game, meant: GameState, actual: GameState, seat: str, command: Any, below: Below) -> Any:
    """`command` (chosen on `meant`) with its refs re-chosen on `actual`."""
    where = equivalents(game, meant, seat)
    tree = msgspec.to_builtins(command)
    used: dict[tuple[str, str], list[str]] = {}
    for text in _strings(tree):
        key = where.get(text)
        if key is not None and text not in used.setdefault(key, []):
            used[key].append(text)
    if not used:
        return command
    pools: dict[tuple[str, str], list[str]] = {}
    for ref, key in equivalents(game, actual, seat).items():
        pools.setdefault(key, []).append(ref)
    mapping: dict[str, str] = {}
    for key, refs in used.items():
        pool = pools.get(key, [])
        if len(pool) < len(refs):  # not the same cards: leave this group alone
            continue
        mapping.update(zip(refs, _sample(pool, len(refs), below)))
    if all(a == b for a, b in mapping.items()):
        return command
    return msgspec.convert(_replace(tree, mapping), type(command))


def rechoose_refs(game: Game, state: GameState, seat: str, commands: Sequence[Any], below: Below) -> list[Any]:
    """`commands` (by `seat`, on `state` as `seat` knows it) with every ref of
    an interchangeable item re-chosen uniformly among the refs of the same
    card in the same zone, using `below` (the writer's private randomness).

    Commands after one that cannot be followed on the writer's own state
    without chance or a reveal keep their refs (no game needs that today).
    """
    out: list[Any] = []
    meant = actual = state
    for i, command in enumerate(commands):
        new = _rechoose_one(game, meant, actual, seat, command, below)
        out.append(new)
        if i + 1 == len(commands):
            break
        try:
            chance = _NoChance()
            meant = game.advance(game.apply(meant, seat, command, chance), chance)
            actual = game.advance(game.apply(actual, seat, new, chance), chance)
        except PbemError:
            out.extend(commands[i + 1:])
            break
    return out
