"""A terminal picture of a Codenames view: the 5x5 grid and the turn.

Each cell is a word with a two-character mark in front:

* ``[R]`` ``[B]`` ``[N]`` ``[X]``  covered: red agent, blue agent, bystander
  (neutral), assassin (everyone sees these);
* `` r `` `` b `` `` n `` `` x ``  uncovered, as the key shows it (spymasters only);
* blank                            uncovered and unknown to the viewer.

Covered words are also upper-cased so they stand out without colour.
"""

from __future__ import annotations

from pbem.games.codenames.view import Cell, TurnView, View

MARK = {"red": "r", "blue": "b", "bystander": "n", "assassin": "x"}


def _cell_text(cell: Cell) -> str:
    if cell.covered:
        mark = MARK.get(cell.colour or "", "?").upper()
        return f"[{mark}] {cell.word.upper()}"
    if cell.colour is not None:
        return f" {MARK[cell.colour]}  {cell.word}"
    return f"    {cell.word}"


def _number(n: int | str) -> str:
    return str(n)


def _turn_line(turn: TurnView) -> str:
    text = f"{turn.team} clue: {turn.clue} {_number(turn.number)}"
    if turn.status == "pending":
        text += " (awaiting review)"
    if turn.concern:
        text += f"\n  checks: {turn.concern}"
    elif turn.status == "objected":
        text += " (objected)"
    if turn.guesses:
        shown = ", ".join(f"{g.word}={g.colour or '?'}" for g in turn.guesses)
        text += f" -> {shown}"
    if turn.end:
        text += f" [{turn.end}]"
    if turn.cover:
        text += f" then covered {turn.cover}"
    return text


def render(view: View) -> str:
    width = max(len(_cell_text(c)) for c in view.cells) + 1
    rule = "+" + "+".join("-" * width for _ in range(5)) + "+"
    lines = []
    who = view.viewer or "observer"
    role = f" ({view.role})" if view.role else ""
    lines.append(f"Codenames, {view.variant} game, {view.language}: {who}{role}")
    score = " . ".join(f"{t.team} {t.left}/{t.agents} agents left" for t in view.teams)
    lines.append(f"{view.starting} started . {score}")
    lines.append(rule)
    for row in range(5):
        cells = view.cells[row * 5 : row * 5 + 5]
        lines.append("|" + "|".join(_cell_text(c).ljust(width) for c in cells) + "|")
        lines.append(rule)
    if view.sees_key:
        lines.append("key: r/b red/blue agent, n bystander, x assassin; [R] covered")
    else:
        lines.append("[R]/[B] red/blue agent, [N] bystander, [X] assassin (covered)")
    for t in view.teams:
        if t.spymaster or t.operatives:
            ops = ", ".join(t.operatives) or "-"
            lines.append(f"{t.team}: spymaster {t.spymaster or '-'}; operatives {ops}; captain {t.captain or '-'}")
    if view.turn is not None:
        lines.append(_turn_line(view.turn))
    if view.guesses_left is not None:
        lines.append(f"guesses left: {view.guesses_left}")
    if view.pending:
        lines.append("waiting to be revealed: " + " ".join(view.pending))
    if view.outcome is not None:
        winners = ", ".join(view.outcome.winners) or "nobody"
        lines.append(f"game over: {view.outcome.reason}; winners: {winners}")
    else:
        lines.append(f"next: {view.prompt}")
    return "\n".join(lines)
