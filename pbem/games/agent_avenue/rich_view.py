"""The colour terminal picture of an Agent Avenue view (rich), within 80 columns.

A pure function of the view. The board is a table of the 14 spaces with a
row for the homes and one for the meeples (each seat's letter in its
colour); then a table of the seats (position, hands, discards) and one of
the agents in play with the icons their next copy would use. A hidden hand
or face-down card says ``hidden`` in words, so the picture reads the same
without colour. In advanced mode a ``market`` row marks the black-market
spaces and a block lists the black market. rich is imported inside the functions, never with the rules.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.agent_avenue import cards
from pbem.games.agent_avenue.render import _letters
from pbem.games.agent_avenue.view import MarketView, View

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
    if isinstance(view.market, MarketView):
        marks = [Text("$" if i in view.market.spaces else "", style="bold red") for i in range(view.board_size)]
        table.add_row(Text("market", style="dim"), *marks)
    table.add_row(Text("home", style="dim"), *homes)
    table.add_row(Text("meeple", style="dim"), *meeples)
    return table


def market(view: View, letters: list[str]) -> Any:
    """The black market (advanced mode): supply, each seat's ongoing cards,
    what happened this turn; None in simple mode."""
    from rich.text import Text

    m = view.market
    if not isinstance(m, MarketView):
        return None
    text = Text()
    text.append("black market", style="bold red")
    text.append(f": supply {', '.join(m.supply) or 'empty'}; deck {m.deck_size} cards")
    for k, s in enumerate(view.seats):
        text.append("\n  ")
        text.append(f"{letters[k]} {s.seat}", style=_seat_style(k))
        text.append(f": {', '.join(m.ongoing.get(s.seat, [])) or 'no black-market cards'}")
        for who in _players(s):
            if m.known_in_hand.get(who):
                text.append(f"; known in {who}'s hand: {', '.join(m.known_in_hand[who])}")
    if m.used:
        text.append(f"\n  used instants: {', '.join(m.used)}", style="dim")
    for line in m.log:
        text.append(f"\n  {line}")
    return text


def _players(s: Any) -> list[str]:
    """The players of a seat's row: the seat, or a team's players."""
    return [m.seat for m in s.members] if isinstance(s.members, list) else [s.seat]


def _mine(view: View, s: Any) -> bool:
    return view.viewer is not None and view.viewer in _players(s)


def _table(*columns: str) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, expand=False, pad_edge=False)
    for name in columns:
        table.add_column(name, overflow="fold")
    return table


def seats(view: View, letters: list[str]) -> Any:
    from rich.text import Text

    table = _table("seat", "on", "progress", "to catch", "hand", "discards used")
    for column in table.columns[1:4]:
        column.justify = "right"
    for k, s in enumerate(view.seats):
        name = Text(f"{letters[k]} {s.seat}", style=_seat_style(k))
        if s.seat == view.viewer:
            name.append(" (you)")
        hand = f"{s.hand_size} cards" + (", hidden" if s.hand is None else "")
        used = f"{s.discards_used} of {cards.MAX_DISCARDS}"
        if s.discarded:
            used += f": {', '.join(s.discarded)}"
        if isinstance(s.members, list):  # a team: one row per player below
            table.add_row(name, str(s.position), f"{s.progress:+d}", str(s.to_catch), "", "")
            for m in s.members:
                who = Text(f"  {m.seat}" + (" (you)" if m.seat == view.viewer else ""))
                held = f"{m.hand_size} cards" + (", hidden" if m.hand is None else "")
                used = f"{m.discards_used} of {m.discards_used + m.discards_left}"
                if m.discarded:
                    used += f": {', '.join(m.discarded)}"
                table.add_row(who, "", "", "", held, used)
            continue
        table.add_row(name, str(s.position), f"{s.progress:+d}", str(s.to_catch), hand, used)
    return table


def hand(view: View, letters: list[str]) -> Any:
    """The viewer's own hand, with the icons and what each seat has in play."""
    from rich.text import Text

    me = next((s for s in view.seats if _mine(view, s) and s.hand is not None), None)
    if me is None:
        return None
    table = _table("your hand", "icons 1/2/3+", *[f"{letters[k]} in play" for k in range(len(view.seats))])
    counts = [Counter(s.in_play) for s in view.seats]
    for name in me.hand or []:
        icons = " ".join(_icon(i) for i in cards.AGENTS[name][1]) if name in cards.AGENTS else "?"
        table.add_row(Text(name, style="bold"), icons, *[str(c[name]) for c in counts])
    if not me.hand:
        table.add_row("(empty)", "", *["" for _ in counts])
    return table


def in_play(view: View, letters: list[str]) -> Any:
    """Agents in play per seat, with the icons of the 1st, 2nd, 3rd+ copy."""
    from rich.text import Text

    counts = [Counter(s.in_play) for s in view.seats]
    table = _table("agents in play", "icons 1/2/3+", *[f"{letters[k]} {s.seat}" for k, s in enumerate(view.seats)])
    for column in table.columns[2:]:
        column.justify = "right"
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
    ]
    mine = hand(view, letters)
    if mine is not None:
        parts.append(mine)
    parts.append(in_play(view, letters))
    black = market(view, letters)
    if black is not None:
        parts.append(black)
    centre = [f"deck: {view.deck_size} cards"]
    if view.centre_up is not None or view.centre_down_played:
        down = view.centre_down if view.centre_down is not None else "hidden"
        centre.append(f"centre: face up {view.centre_up or 'none'}, face down {down}")
    parts.append(Text("; ".join(centre)))
    if view.last_moves:
        moved = ", ".join(f"{seat} {n:+d}" for seat, n in view.last_moves.items())
        parts.append(Text(f"last moves: {moved}"))
    if view.outcome is not None:
        winners = " and ".join(view.outcome.winners) or "nobody"
        parts.append(Text(f"outcome: {winners} won - {view.outcome.reason}", style="bold"))
    return Group(*parts)


def compact(view: View) -> Any:
    """The compact board of `pbem play` (`render.compact`), each seat's
    letter on the board and its line in the seat's colour."""
    from rich.text import Text

    from pbem.games.agent_avenue.render import compact as text_compact

    letters = _letters([s.seat for s in view.seats])
    out = Text()
    lines = text_compact(view).splitlines()
    for k, line in enumerate(lines):
        part = Text(line)
        if line.startswith(("home ", "meeple ")):
            for col, char in enumerate(line[7:], 7):  # after the row's label
                for i, letter in enumerate(letters):
                    if char in (letter, letter.lower()):
                        part.stylize(_seat_style(i), col, col + 1)
        else:
            for i, (letter, s) in enumerate(zip(letters, view.seats)):
                if line.startswith(f"{letter} {s.seat}"):
                    part.stylize(_seat_style(i), 0, len(letter) + 1 + len(s.seat))
        out.append_text(part)
        out.append("\n" if k < len(lines) - 1 else "")
    return out
