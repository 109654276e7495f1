"""Whose turn it is, in the same words everywhere.

`status`, `legal`, `sync`, `submit` and the watchers all say what a party
owes from one source, `actions.status` (itself read from
`Chain.writers()` / `Chain.needs()`), so they can never disagree: a seat
that submits out of turn is told whose turn it is before any rule is asked
about its cards. `overview` is `pbem status --all`; `since_mine` is `pbem
log --since-mine`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import PbemError, WrongWriter


def waiting_words(info: dict[str, Any]) -> str:
    """Who the game waits for and for what, from a `status` object."""
    from pbem.actions import to_act_lines

    if info["outcome"] is not None and not info["to_act"]:
        return f"nobody: the game is over ({info['outcome']['reason']})"
    return "; ".join(to_act_lines(info)) or "nobody"


def owed(chain, name: str) -> tuple[str, str]:
    """(what `name` owes: "decision", "undo", "join", "auto" or "nothing",
    the sentence that says so)."""
    from pbem.actions import status

    info = status(chain)
    mine = next((w for w in info["to_act"] if w["seat"] == name), None)
    if mine is None:
        return "nothing", f"{name} has nothing to do now: {waiting_words(info)}"
    if mine.get("undo"):
        return "undo", f"{name} must accept or refuse an undo (pbem undo accept|refuse DIR --as {name})"
    if mine.get("join"):
        return "join", waiting_words(info)
    if mine["needs"] == "auto":
        return "auto", f"{name} owes an automatic answer (pbem sync DIR --as {name})"
    return "decision", f"{name} must decide"


def check_turn(chain, name: str) -> None:
    """Refuse a move by `name` out of turn, saying whose turn it is (never
    a rules error about cards the seat does not hold yet)."""
    what, words = owed(chain, name)
    if what == "nothing":
        raise WrongWriter(f"it is not {name}'s turn: {waiting_words(_info(chain))}")
    if what == "auto":
        raise WrongWriter(f"{name} first owes an automatic answer, which needs no command",
                          hint=f"pbem sync DIR --as {name}")


def _info(chain):
    from pbem.actions import status

    return status(chain)


def overview(folders: list[Path]) -> list[dict[str, Any]]:
    """One row per game folder: what `pbem status` would say, in brief (a
    folder that cannot be read is a row with its error)."""
    from pbem import actions
    from pbem.protocol import folder as folder_mod

    rows = []
    for folder in folders:
        row: dict[str, Any] = {"dir": str(folder)}
        try:
            chain = folder_mod.load(folder)
        except PbemError as exc:
            row["error"] = exc.message
            rows.append(row)
            continue
        info = actions.status(chain)
        row.update({"game": info["game"], "game_id": info["game_id"], "seq": info["seq"],
                    "dealer": info["dealer"]["mode"], "to_act": info["to_act"], "over": info["over"],
                    "outcome": info["outcome"], "waiting": waiting_words(info)})
        rows.append(row)
    return rows


def since_mine(chain, name: str) -> list[str]:
    """What happened since `name`'s last file, in words anyone may read,
    then whose turn it is."""
    from pbem import actions

    if name not in chain.seats and name != chain.dealer_name:
        raise PbemError(f"{name} is not a party of this game (seats: {', '.join(chain.seat_order)})")
    entries = actions.log_entries(chain)["files"]
    last = max((e["seq"] for e in entries if e["by"] == name), default=None)
    if last is None:
        lines = [f"{name} has written no file yet; the game so far:"]
        after = entries
    else:
        after = [e for e in entries if e["seq"] > last]
        lines = [f"since {name}'s last file (seq {last}): "
                 + (f"{len(after)} file{'s' if len(after) != 1 else ''}" if after else "nothing new")]
    for e in after:
        lines.append(f"  seq {e['seq']}: {e['by']} " + ("; ".join(e["what"]) or "writes a file"))
    lines.append(f"now: {owed(chain, name)[1] if not chain.over else waiting_words(actions.status(chain))}")
    return lines
