"""A text picture of an Agent Avenue view, for a terminal (at most 80 columns).

    Agent Avenue - turn 3 - phase play
    alice to play two cards, one face up and one face down, ...

    space    0   1   2   3   4   5   6   7   8   9  10  11  12  13
    home     A                           B
    meeple           a                           b

The loop is drawn as a line that wraps from 13 back to 0, 63 columns wide:
one row marks each seat's home with its letter in upper case, the row below
each meeple with its letter in lower case (``ab`` when both share a space),
so nothing depends on colour or on telling ``[A]`` from ``a``. In the team
variant a letter stands for a team, and each team lists its players' hands
(named only for the viewer). In advanced
mode a ``market`` row marks the black-market spaces with ``$``. Free text
(the cards in play, long names) is wrapped to 80 columns.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.view import MarketView, View
from pbem.games.base import compact_lines, fit_lines


def _letters(seats: list[str]) -> list[str]:
    first = [s[:1].upper() or "?" for s in seats]
    return first if len(set(first)) == len(first) else [str(i + 1) for i in range(len(seats))]


def _counts(names: list[str]) -> str:
    if not names:
        return "none"
    counts = Counter(names)
    order = [n for n in cards.NAMES if n in counts] + sorted(set(counts) - set(cards.NAMES))
    return ", ".join(f"{n} x{counts[n]}" for n in order)


def board_lines(view: View, letters: list[str]) -> list[str]:
    """The rows of the board: space numbers, homes, meeples (and, in advanced
    mode, a ``market`` row marking the black-market spaces with ``$``)."""
    size = view.board_size
    homes = [""] * size
    meeples = [""] * size
    for k, s in enumerate(view.seats):
        homes[s.home] += letters[k]
        meeples[s.position] += letters[k].lower()
    rows = [
        "space  " + "".join(f"{i:>4}" for i in range(size)),
        ("home   " + "".join(f"{h:>4}" for h in homes)).rstrip(),
        ("meeple " + "".join(f"{m:>4}" for m in meeples)).rstrip(),
    ]
    if isinstance(view.market, MarketView):
        marks = ["$" if i in view.market.spaces else "" for i in range(size)]
        rows.insert(1, ("market " + "".join(f"{m:>4}" for m in marks)).rstrip())
    return rows


def market_lines(view: View) -> list[str]:
    """The black market in words (advanced mode), for the text picture."""
    m = view.market
    if not isinstance(m, MarketView):
        return []
    lines = [
        f"black market: supply {', '.join(m.supply) or 'empty'}; deck {m.deck_size} cards",
    ]
    if m.used:
        lines.append(f"    used instants: {', '.join(m.used)}")
    for line in m.log:
        lines.append(f"    {line}")
    return lines


def _team_lines(view: View, s: Any, letter: str) -> list[str]:
    """A side of the team variant: the shared meeple and agents, then each
    player's hand (named only for the viewer) and discards."""
    turn = " - active" if s.seat == view.active and view.phase != "over" else ""
    who = ", ".join(m.seat + (" (you)" if m.seat == view.viewer else "") for m in s.members)
    lines = [
        f"{letter} team {s.seat} ({who}){turn}: home {s.home}, on {s.position}, "
        f"progress {s.progress:+d}, {s.to_catch} to catch",
        f"    in play: {_counts(s.in_play)}",
    ]
    market = view.market if isinstance(view.market, MarketView) else None
    for m in s.members:
        if m.hand is not None:
            held = ", ".join(m.hand) or "empty"
        else:
            seen = market.known_in_hand.get(m.seat) if market else None
            held = f"{m.hand_size} cards (hidden{', known: ' + ', '.join(seen) if seen else ''})"
        discarded = f" ({', '.join(m.discarded)})" if m.discarded else ""
        total = m.discards_used + m.discards_left
        lines.append(f"    {m.seat}: hand {held}; discards used {m.discards_used}/{total}{discarded}")
    if market:
        lines.append(f"    black-market cards: {', '.join(market.ongoing.get(s.seat, [])) or 'none'}")
    return lines


def render(view: View | dict[str, Any]) -> str:
    if not isinstance(view, View):
        view = msgspec.convert(view, View)
    letters = _letters([s.seat for s in view.seats])
    lines = [f"Agent Avenue - turn {view.turn} - phase {view.phase}", view.prompt, ""]

    lines += board_lines(view, letters)
    legend = ", ".join(f"{letters[k]} = {s.seat}" for k, s in enumerate(view.seats))
    lines += [f"home: upper case, meeple: lower case; {legend}", ""]

    for k, s in enumerate(view.seats):
        if isinstance(s.members, list):
            lines += _team_lines(view, s, letters[k])
            continue
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
            seen = view.market.known_in_hand.get(s.seat) if isinstance(view.market, MarketView) else None
            shown = f", known: {', '.join(seen)}" if seen else ""
            lines.append(f"    hand: {s.hand_size} cards (hidden{shown})")
        discarded = f" ({', '.join(s.discarded)})" if s.discarded else ""
        lines.append(f"    discards used: {s.discards_used}/{cards.MAX_DISCARDS}{discarded}")
        if isinstance(view.market, MarketView):
            mine = view.market.ongoing.get(s.seat, [])
            lines.append(f"    black-market cards: {', '.join(mine) or 'none'}")
    lines.append("")
    lines.append(f"deck: {view.deck_size} cards")
    lines += market_lines(view)
    if view.centre_up is not None or view.centre_down_played:
        down = view.centre_down if view.centre_down is not None else "(hidden)"
        lines.append(f"centre: face up {view.centre_up or '(none)'}, face down {down}")
    if view.last_moves:
        moved = ", ".join(f"{seat} {n:+d}" for seat, n in view.last_moves.items())
        lines.append(f"last moves: {moved}")
    if view.outcome is not None:
        winners = " and ".join(view.outcome.winners) or "nobody"
        lines.append(f"outcome: {winners} won - {view.outcome.reason}")
    return "\n".join(fit_lines(lines)) + "\n"


def compact(view: View | dict[str, Any]) -> str:
    """The board in a dozen lines (`pbem play`): the loop, then one or two
    lines per seat (hands named only for the viewer), the deck and centre."""
    if not isinstance(view, View):
        view = msgspec.convert(view, View)
    letters = _letters([s.seat for s in view.seats])
    legend = ", ".join(f"{letters[k]} = {s.seat}" for k, s in enumerate(view.seats))
    seats = []
    for k, s in enumerate(view.seats):
        you = " (you)" if s.seat == view.viewer or (
            isinstance(s.members, list) and any(m.seat == view.viewer for m in s.members)) else ""
        in_play = ", ".join(f"{n} x{c}" if c > 1 else n for n, c in Counter(s.in_play).items()) or "none"
        seats.append(f"{letters[k]} {s.seat}{you}: on {s.position}, progress {s.progress:+d}, "
                     f"{s.to_catch} to catch; in play: {in_play}")
        held = f"hand: {', '.join(s.hand) or 'empty'}" if s.hand is not None else f"hand: {s.hand_size} hidden"
        seats.append(f"    {held}; discards {s.discards_used}/{s.discards_used + s.discards_left}")
    centre = [f"deck {view.deck_size}"]
    if isinstance(view.market, MarketView):
        centre.append(f"black market: {', '.join(view.market.supply) or 'empty'}")
    if view.centre_up is not None or view.centre_down_played:
        down = view.centre_down if view.centre_down is not None else "(hidden)"
        centre.append(f"centre: up {view.centre_up or '(none)'}, down {down}")
    if view.last_moves:
        centre.append("last moves " + ", ".join(f"{seat} {n:+d}" for seat, n in view.last_moves.items()))
    return compact_lines([
        (board_lines(view, letters), False), ([f"home: upper case, meeple: lower case; {legend}"], True),
        (seats, False), (["; ".join(centre)], False),
    ])
