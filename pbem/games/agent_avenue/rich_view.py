"""The colour terminal picture of an Agent Avenue view (rich), within 80 columns.

A pure function of the view. The board is a table of the 14 spaces with a
row for the homes and one for the meeples (each seat's letter in its
colour); then a table of the seats (position, hands, discards) and one of
the agents in play with the icons their next copy would use. A hidden hand
or face-down card says ``hidden`` in words, so the picture reads the same
without colour. rich is imported inside the functions, never with the rules.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.render import _letters
from pbem.games.agent_avenue.view import View

#: one colour per seat, in seat order
SEAT_STYLES = ("bold green", "bold dodger_blue1", "bold magenta", "bold yellow")


def _seat_style(k: int) -> str:
    return SEAT_STYLES[k % len(SEAT_STYLES)]


def _icon(value: cards.Icon) -> str:
    return value if isinstance(value, str) else f"{value:+d}"


def board(view: View, letters: list[str]) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SQUARE, padding=0, show_lines=False, expand=False)
    table.add_column("space", width=7, no_wrap=True)
    for i in range(view.board_size):
        table.add_column(str(i), width=3, justify="center", no_wrap=True)
    homes: list[Any] = [Text("") for _ in range(view.board_size)]
    meeples: list[Any] = [Text("") for _ in range(view.board_size)]
    for k, s in enumerate(view.seats):
        homes[s.home].append(letters[k], style=_seat_style(k))
        meeples[s.position].append(letters[k].lower(), style=_seat_style(k) + " reverse")
    table.add_row(Text("home", style="dim"), *homes)
    table.add_row(Text("meeple", style="dim"), *meeples)
    return table


def seats(view: View, letters: list[str]) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, expand=False, pad_edge=False)
    table.add_column("seat", overflow="fold")
    table.add_column("on", justify="right")
    table.add_column("progress", justify="right")
    table.add_column("to catch", justify="right")
    table.add_column("hand", overflow="fold", max_width=30)
    table.add_column("discards", justify="right")
    for k, s in enumerate(view.seats):
        name = Text(f"{letters[k]} {s.seat}", style=_seat_style(k))
        if s.seat == view.viewer:
            name.append(" (you)")
        if s.seat == view.active and view.phase != "over":
            name.append(" active", style="italic")
        if s.hand is None:
            hand = f"{s.hand_size} cards, hidden"
        else:
            hand = ", ".join(s.hand) or "empty"
        table.add_row(name, str(s.position), f"{s.progress:+d}", str(s.to_catch), hand, f"{s.discards_used}/{cards.MAX_DISCARDS}")
    return table


def in_play(view: View, letters: list[str]) -> Any:
    """Agents in play per seat, with the icons of the 1st, 2nd, 3rd+ copy."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    counts = [Counter(s.in_play) for s in view.seats]
    table = Table(box=box.SIMPLE_HEAD, expand=False, pad_edge=False, title_justify="left")
    table.add_column("agent in play")
    table.add_column("icons 1/2/3+")
    for k, s in enumerate(view.seats):
        table.add_column(Text(letters[k], style=_seat_style(k)), justify="right")
    for name in cards.NAMES:
        if not any(c[name] for c in counts):
            continue
        icons = " ".join(_icon(i) for i in cards.AGENTS[name][1])
        table.add_row(name, icons, *[str(c[name]) if c[name] else "-" for c in counts])
    if table.row_count == 0:
        return Text("agents in play: none yet", style="dim")
    return table


def render(view: View) -> Any:
    """A rich renderable of `view` (a group of lines and tables)."""
    from rich.console import Group
    from rich.text import Text

    letters = _letters([s.seat for s in view.seats])
    parts: list[Any] = [
        Text.assemble(("Agent Avenue", "bold"), f" - turn {view.turn} - phase {view.phase}"),
        Text(view.prompt, style="bold"),
        board(view, letters),
        Text("home: upper case, meeple: lower case (reversed)", style="dim"),
        seats(view, letters),
        in_play(view, letters),
    ]
    centre = [f"deck: {view.deck_size} cards"]
    if view.centre_up is not None or view.centre_down_played:
        down = view.centre_down if view.centre_down is not None else "hidden"
        centre.append(f"centre: face up {view.centre_up or 'none'}, face down {down}")
    parts.append(Text("; ".join(centre)))
    discarded = [s for s in view.seats if s.discarded]
    for s in discarded:
        parts.append(Text(f"{s.seat} discarded (only you see this): {', '.join(s.discarded or [])}", style="dim"))
    if view.last_moves:
        moved = ", ".join(f"{seat} {n:+d}" for seat, n in view.last_moves.items())
        parts.append(Text(f"last moves: {moved}"))
    if view.outcome is not None:
        winners = " and ".join(view.outcome.winners) or "nobody"
        parts.append(Text(f"outcome: {winners} won - {view.outcome.reason}", style="bold"))
    return Group(*parts)
