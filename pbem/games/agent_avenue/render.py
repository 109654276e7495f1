"""A text picture of an Agent Avenue view, for a terminal.

    Agent Avenue - turn 3 - phase play
    alice to play two cards, one face up and one face down, ...

       0   1   2   3   4   5   6   7   8   9  10  11  12  13
      [A]  .   .   a   .   .   .  [B]  .   b   .   .   .   .

The loop is drawn as a line that wraps from 13 back to 0; a home is in
brackets (with the home seat's letter in upper case when no meeple is on
it), a meeple is its seat's letter in lower case (``*`` when both meeples
share a space).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.view import View


def _letters(seats: list[str]) -> list[str]:
    first = [s[:1].upper() or "?" for s in seats]
    return first if len(set(first)) == len(first) else [str(i + 1) for i in range(len(seats))]


def _counts(names: list[str]) -> str:
    if not names:
        return "none"
    counts = Counter(names)
    order = [n for n in cards.NAMES if n in counts] + sorted(set(counts) - set(cards.NAMES))
    return ", ".join(f"{n} x{counts[n]}" for n in order)


def render(view: View | dict[str, Any]) -> str:
    if not isinstance(view, View):
        view = msgspec.convert(view, View)
    letters = _letters([s.seat for s in view.seats])
    lines = [f"Agent Avenue - turn {view.turn} - phase {view.phase}", view.prompt, ""]

    size = view.board_size
    numbers = "".join(f"{i:>4}" for i in range(size))
    cells = []
    for i in range(size):
        here = [letters[k].lower() for k, s in enumerate(view.seats) if s.position == i]
        home = [letters[k] for k, s in enumerate(view.seats) if s.home == i]
        mark = "*" if len(here) > 1 else (here[0] if here else ".")
        if home:
            mark = f"[{home[0] if not here else mark}]"
        cells.append(f"{mark:>4}" if len(mark) < 3 else f" {mark}")
    legend = ", ".join(
        f"{letters[k]} = {s.seat} (meeple {letters[k].lower()})" for k, s in enumerate(view.seats)
    )
    lines += [numbers, "".join(cells), f"[ ] home; {legend}", ""]

    for k, s in enumerate(view.seats):
        you = " (you)" if s.seat == view.viewer else ""
        turn = " - active" if s.seat == view.active and view.phase != "over" else ""
        lines.append(
            f"{letters[k]} {s.seat}{you}{turn}: home {s.home}, on {s.position}, "
            f"progress {s.progress:+d}, {s.to_catch} to catch"
        )
        lines.append(f"    in play: {_counts(s.in_play)}")
        if s.hand is not None:
            lines.append(f"    hand: {', '.join(s.hand) or 'empty'}")
        else:
            lines.append(f"    hand: {s.hand_size} cards")
        discarded = f" ({', '.join(s.discarded)})" if s.discarded else ""
        lines.append(f"    discards used: {s.discards_used}/{cards.MAX_DISCARDS}{discarded}")
    lines.append("")
    lines.append(f"deck: {view.deck_size} cards")
    if view.centre_up is not None or view.centre_down_played:
        down = view.centre_down if view.centre_down is not None else "(hidden)"
        lines.append(f"centre: face up {view.centre_up or '(none)'}, face down {down}")
    if view.last_moves:
        moved = ", ".join(f"{seat} {n:+d}" for seat, n in view.last_moves.items())
        lines.append(f"last moves: {moved}")
    if view.outcome is not None:
        winners = " and ".join(view.outcome.winners) or "nobody"
        lines.append(f"outcome: {winners} won - {view.outcome.reason}")
    return "\n".join(lines) + "\n"
