"""Whose turn it is, in the same words everywhere.

`status`, `legal`, `sync`, `submit` and the watchers all say what a party
owes from one source, `status` here (itself read from `Chain.writers()` /
`Chain.needs()`), so they can never disagree: a seat that submits out of
turn is told whose turn it is before any rule is asked about its cards.
`overview` is `pbem status --all`. (`pbem log --since-mine` is
`actions.since_mine`, a view of the log.)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from pbem.errors import PbemError, WrongWriter

if TYPE_CHECKING:
    from pbem.protocol.chain import Chain


def status(chain: Chain) -> dict[str, Any]:
    """The `pbem status --json` object."""
    outcome = chain.outcome()
    to_act = [{"seat": s, "needs": chain.needs(s)} for s in chain.writers()]
    owed = chain.obligations()
    if owed and owed[0].what == "join":
        # answered with `pbem join` into one's own folder, or with `pbem sync`
        # in a folder everyone shares (joining in place)
        to_act[0]["join"] = True
    pending = [_pending_line(o, peer=chain.deck is not None) for o in owed]
    for seat, (ballot, _, why) in chain.voided.items():  # the voter, never an honest keeper, is named
        if seat not in chain.ballots:
            pending.append(f"{seat}'s ballot (seq {ballot}) was void: {why}; {seat} votes again")
    undo = chain.pending_undo()
    if undo is not None:
        for who in to_act:
            who["undo"] = True  # answered with `pbem undo accept|refuse`
        accepted = f" (accepted by {', '.join(undo.accepted)})" if undo.accepted else ""
        pending.append(f"undo: {undo.by} asks to take back seq {undo.target}{accepted}; "
                       f"waiting for {', '.join(undo.waiting)}")
    info = {
        "game": chain.game.name,
        "game_id": chain.game_id,
        "seq": chain.seq,
        "dealer": {"mode": chain.dealer_mode, "name": chain.dealer_name},
        "seats": [{"name": s.name, "role": s.role} for s in chain.genesis.seats],
        "to_act": to_act,
        "dealt": chain.dealt,
        "over": outcome is not None,
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason},
        "pending": pending,
    }
    if undo is not None:
        info["undo"] = msgspec.to_builtins(undo)
    from pbem.clock_words import clock_lines

    clock = clock_lines(chain)
    if clock:  # a game with an agreed pace (protocol version 6)
        info["clock"] = clock
    if chain.notes:  # copies of a file, repaired line endings: harmless, but say so
        info["notes"] = list(chain.notes)
    from pbem.protocol.foresight import chance_knowledge

    info["chance"] = chance_knowledge(chain)  # printed once by `pbem info DIR`, not by every status
    return info


def to_act_lines(info: dict[str, Any]) -> list[str]:
    """Who must write next, in words, from a `status` object."""
    lines = []
    for who in info["to_act"]:
        if who.get("undo"):
            what = "must accept or refuse an undo (pbem undo accept|refuse DIR --as NAME)"
        elif who.get("join"):
            what = ("must join (in a shared folder: pbem sync DIR --as NAME; in one's own: "
                    "pbem join DIR GENESIS --as NAME, then send the file it prints)")
        elif who["needs"] == "decision":
            what = "must decide"
        else:
            what = "owes an automatic answer (pbem sync)"
        lines.append(f"{who['seat']} {what}")
    return lines


def _pending_line(o, peer: bool = False) -> str:
    """An obligation in words (refs are opaque labels, not cards)."""
    n = len(o.refs)
    cards = f"{n} card{'s' if n != 1 else ''}"
    return {
        "reveal": f"{o.by} must reveal {cards}",
        "deliver": f"{o.by} owes {cards}" + (f" to {o.to}" if o.to else " (decryptions)"),
        "publish-seed": f"{o.by} must publish its seed (the game is over)",
        "join": f"{o.by} must join",
        "publish-secrets": f"{o.by} must publish its secrets (the game is over)",
        "deal": f"{o.by} must deal (every seat has joined)",
        "set-up": f"{o.by} must open its beacon link, which sets the game up (every seat has joined)",
        "layer": f"{o.by} must add its shuffle layer to the deck the set-up dealt",
        "chance": f"{o.by} must draw the chance of {o.to}'s last command" if o.to else f"{o.by} must draw chance",
        "commit": f"{o.by} must commit to the order of {cards} shuffled",
        "tally": f"{o.by} must open its own ballot" if peer else
                 f"{o.by} must open the vote's ballots it keeps, or void those it cannot tally",
        "reshuffle": f"{o.by} must add its layer to {cards} reshuffled",
    }[o.what]


def waiting_words(info: dict[str, Any]) -> str:
    """Who the game waits for and for what, from a `status` object."""
    if info["outcome"] is not None and not info["to_act"]:
        return f"nobody: the game is over ({info['outcome']['reason']})"
    return "; ".join(to_act_lines(info)) or "nobody"


def owed(chain, name: str) -> tuple[str, str]:
    """(what `name` owes: "decision", "undo", "join", "auto" or "nothing",
    the sentence that says so)."""
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
        raise WrongWriter(f"it is not {name}'s turn: {waiting_words(status(chain))}")
    if what == "auto":
        raise WrongWriter(f"{name} first owes an automatic answer, which needs no command",
                          hint=f"pbem sync DIR --as {name}")


def overview(folders: list[Path]) -> list[dict[str, Any]]:
    """One row per game folder: what `pbem status` would say, in brief (a
    folder that cannot be read is a row with its error)."""
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
        info = status(chain)
        row.update({"game": info["game"], "game_id": info["game_id"], "seq": info["seq"],
                    "dealer": info["dealer"]["mode"], "to_act": info["to_act"], "over": info["over"],
                    "outcome": info["outcome"], "waiting": waiting_words(info)})
        rows.append(row)
    return rows
