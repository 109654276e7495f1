"""Dark Agent's satellite moves, the first phase of a turn: the legal
moves and swaps (`moves`, from a table of every `Move` made once), a
command tested without listing them (`is_move`, `can_move`), and a move
done (`moved`). Apart because a search asks for them again and again:
they have quick paths of their own, held to the definitions by
tests/games/test_rules_shortcuts.py, and only `legal`, `apply`, `advance` and
the bots use them.
"""

from __future__ import annotations

from pbem.games.dark_agent.commands import Command, Move, Swap
from pbem.games.dark_agent.state import LINES, SLOTS, State


def moves(state: State, seat: str) -> list[Command]:
    """Every two-satellite move (one only if no second move exists), then swaps."""
    sats = state.sats
    own = [line.count(seat) for line in sats]
    size = [len(line) for line in sats]
    mine = {line for line in range(LINES) if own[line]}
    free = {line for line in range(LINES) if size[line] < SLOTS}
    twos: list[Command] = []
    table = _TWO_MOVES or _two_moves()
    for a, b in _singles(own, size):
        # after one satellite moved from a to b: the seat's lines, the lines with room
        mine2 = mine | {b} if own[a] > 1 else (mine | {b}) - {a}
        free2 = sorted(free | {a} if size[b] + 1 < SLOTS else (free | {a}) - {b})
        row = table[a][b]
        for c in sorted(mine2):
            if c != b or own[b] >= 1:  # the second move must move another satellite
                twos += filter(None, map(row[c].__getitem__, free2))  # None: from c to c
    out = twos or [_MOVES[a, b] for a, b in _singles(own, size)]
    owners = [[o for o in sorted(set(line) - {seat}) if _swappable(sats, b, o)] for b, line in enumerate(sats)]
    for a in range(LINES):
        if own[a]:
            out += [Swap(a, b, o) for b in range(LINES) if b != a for o in owners[b]]
    return out


def _singles(own: list[int], size: list[int]) -> list[tuple[int, int]]:
    """One satellite's moves, from the seat's satellites per line (`own`)
    and the satellites per line (`size`): from a line of the seat's to
    another line with a free slot."""
    free = [b for b in range(LINES) if size[b] < SLOTS]
    return [(a, b) for a in range(LINES) if own[a] for b in free if b != a]


#: every `Move` there can be, made once (a search asks for the moves again
#: and again): one satellite's by (from, to), two by [a][b][c][d], the
#: latter on the first `moves` (2,401 of them: a command that lists no
#: moves, as `status`, does not pay for them)
_MOVES: dict[tuple[int, int], Move] = {(a, b): Move([(a, b)]) for a in range(LINES) for b in range(LINES)}
_TWO_MOVES: list[list[list[list[Move | None]]]] = []


def _two_moves() -> list[list[list[list[Move | None]]]]:
    if not _TWO_MOVES:
        _TWO_MOVES[:] = [[[[Move([(a, b), (c, d)]) if c != d else None for d in range(LINES)] for c in range(LINES)]
                          for b in range(LINES)] for a in range(LINES)]
    return _TWO_MOVES


def is_move(state: State, seat: str, cmd: Command) -> bool:
    """``cmd in moves(state, seat)``, without listing the moves."""
    sats = state.sats
    if isinstance(cmd, Swap):
        a, b, owner = cmd.mine, cmd.other, cmd.owner
        return (0 <= a < LINES and 0 <= b < LINES and a != b and seat in sats[a]
                and owner != seat and owner in sats[b] and _swappable(sats, b, owner))
    if not isinstance(cmd, Move) or not 1 <= len(cmd.moves) <= 2:
        return False
    if any(type(m) is not tuple or len(m) != 2 or not all(0 <= x < LINES for x in m) for m in cmd.moves):
        return False
    own = [line.count(seat) for line in sats]
    size = [len(line) for line in sats]
    (a, b), *rest = cmd.moves
    if not _single(own, size, a, b):
        return False
    own[a] -= 1
    own[b] += 1
    size[a] -= 1
    size[b] += 1
    if rest:
        c, d = rest[0]
        return _single(own, size, c, d) and (c != b or own[b] >= 2)
    own[a] += 1
    own[b] -= 1
    size[a] += 1
    size[b] -= 1
    return not _has_two(own, size)


def _single(own: list[int], size: list[int], a: int, b: int) -> bool:
    return a != b and own[a] > 0 and size[b] < SLOTS


def _has_two(own: list[int], size: list[int]) -> bool:
    """A two-satellite move exists (see `moves`)."""
    for a, b in _singles(own, size):
        own2, size2 = list(own), list(size)
        own2[a] -= 1
        own2[b] += 1
        size2[a] -= 1
        size2[b] += 1
        if any(c != b or own2[b] >= 2 for c, d in _singles(own2, size2)):
            return True
    return False


def can_move(state: State, seat: str) -> bool:
    """`moves` is not empty: a satellite of the seat's can move or swap."""
    sats = state.sats
    mine = [a for a in range(LINES) if seat in sats[a]]
    if any(len(sats[b]) < SLOTS for a in mine for b in range(LINES) if b != a):
        return True
    return any(_swappable(sats, b, owner) for a in mine for b in range(LINES) if b != a
               for owner in set(sats[b]) - {seat})


def moved(sats: list[list[str]], seat: str, a: int, b: int) -> list[list[str]]:
    out = [list(x) for x in sats]
    out[a].remove(seat)
    out[b].append(seat)
    return out


def _swappable(sats: list[list[str]], line: int, owner: str) -> bool:
    return not (len(sats[line]) == SLOTS and all(o == owner for o in sats[line]))


def move_problem(state: State, seat: str, cmd: Command) -> str:
    if isinstance(cmd, Swap):
        if not 0 <= cmd.other < LINES or cmd.owner not in state.sats[cmd.other]:
            return "no such satellite to swap with"
        if not _swappable(state.sats, cmd.other, cmd.owner):
            return "you cannot swap with a satellite of a player who has all 3 satellites of that line"
        return "you need a satellite of yours on another line to swap"
    if isinstance(cmd, Move) and len(cmd.moves) == 1 and any(len(m.moves) == 2 for m in moves(state, seat) if isinstance(m, Move)):
        return "move two satellites (one only when no second move is possible)"
    return "a satellite moves from a line of yours to another line with a free slot (at most 3 per line)"


def sat_key(state: State):
    order = {s: i for i, s in enumerate(state.seats)}
    return lambda owner: order.get(owner, len(order))
