"""Reading a game: legal commands, the board as one party (or an observer)
may see it, as text, SVG or a page, the log in words anyone may read, and
the audit of a finished game. Nothing here writes to the folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from pbem.app.clock_words import file_words
from pbem.app.opening import Keys, open_game
from pbem.app.turns import owed, status, to_act_lines, waiting_words
from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod
from pbem.games.base import overlay
from pbem.protocol.chain import Chain

if TYPE_CHECKING:
    from pbem.protocol.party import Party


def audit(folder: Path, keys: Keys | None = None):
    """`pbem audit`: the chain's identities checked (read-only), then the audit."""
    from pbem.app.audit import audit as run_audit

    open_game(folder, keys)
    return run_audit(folder)


def legal(chain: Chain, me: Party) -> list[str]:
    """`me`'s legal commands now: none while what it owes needs no decision
    (`submit` refuses commands then too)."""
    if me.is_dealer or me.name not in chain.writers() or chain.undo_pending is not None or not chain.dealt:
        return []
    if chain.needs(me.name) != "decision":
        return []
    state = me.state()
    return [chain.game.presentation.format(c, state, me.name) for c in chain.game.legal(state, me.name)]


def view(chain: Chain, me: Party | None) -> Any:
    if chain.public is None:  # a referee or peer game before its set-up: nothing to show yet
        raise PbemError(
            f"{chain.game.info.title} is not set up yet: it waits for {', '.join(chain.writers()) or 'nobody'}",
            hint="the set-up comes once every seat has joined: pbem status DIR says who is next",
        )
    if me is None or me.is_dealer:
        return chain.game.view(chain.public if me is None else me.state(), None)
    return chain.game.view(me.state(), me.name)


def view_json(chain: Chain, me: Party | None) -> Any:
    return msgspec.to_builtins(view(chain, me))


def render(chain: Chain, me: Party | None) -> str:
    return chain.game.presentation.render(view(chain, me))


def svg(chain: Chain, me: Party | None) -> str:
    """The board as `me` (None: an observer) may see it, as SVG text."""
    return chain.game.presentation.svg(view(chain, me))


def page(chain: Chain, me: Party | None, folder_text: str) -> str:
    """The game page of `me` (None: an observer) as HTML text.

    `folder_text` is the folder as the user typed it: the page's
    `pbem submit` lines name it that way.
    """
    from pbem.errors import NoPicture
    from pbem.render.page import Page, render_page

    seen = view(chain, me)
    try:
        picture, board_text = chain.game.presentation.svg(seen), None
    except NoPicture:
        picture, board_text = None, chain.game.presentation.render(seen)
    info = status(chain)
    outcome = chain.outcome()
    result = None
    if outcome is not None:
        winners = " and ".join(outcome.winners) or "nobody"
        result = f"{winners} won: {outcome.reason}"
        if outcome.scores:
            result += " (scores: " + ", ".join(f"{k} {v}" for k, v in outcome.scores.items()) + ")"
    return render_page(
        Page(
            title=chain.game.info.title,
            game_id=chain.game_id,
            seq=chain.seq,
            folder=folder_text,
            viewer=None if me is None or me.is_dealer else me.name,
            svg=picture,
            board_text=board_text,
            # the rules' prompt ("your main phase") only while a decision is what is awaited:
            # while a seat or the dealer owes an automatic file, the page says that instead
            prompt=getattr(seen, "prompt", None) if all(w.needs == "decision" for w in info.to_act) else None,
            to_act=to_act_lines(info),
            pending=info.pending,
            commands=legal(chain, me) if me is not None else [],
            log=log_lines(chain),
            outcome=result,
        )
    )


def log_entries(chain: Chain, since: int = 0) -> dict[str, Any]:
    """The `pbem log --json` object: each file with what it did, in words
    anyone may read (no hidden card named), and the outcome. `since`: only
    the files from that seq on (a watcher that printed the others)."""
    files = []
    if since == 0:
        first = chain.records[0]
        files.append({"seq": 0, "by": first.by, "name": first.name or folder_mod.GENESIS,
                      "what": [f"set up {chain.game.info.title} for {', '.join(chain.seat_order)}"]})
    for rec in chain.records[max(since, 1):]:
        parts = []
        body = rec.body
        if body.join is not None:
            what = "shuffle layer" if body.join.layer.points else "key"  # a late deck's layers come after the set-up
            parts.append(f"joins: beacon anchor and {what}" + (" and its first link" if body.beacon else ""))
        if chain.deck is not None and rec.before is None and chain.version.setup_from_links:
            if rec.after is not None:
                parts.append("sets the game up from every seat's first beacon link")
            elif body.join is None:
                parts.append("opens its first beacon link for the set-up")
        if body.undo is not None:
            parts.append(_undo_words(chain, rec))
        parts += file_words(rec)  # a resignation, a pause, a timeout, a bot's move
        if getattr(body, "handover", None) is not None:
            h = body.handover
            parts.append(f"hands seat {h.seat} over to {h.to.name} ({h.to.fingerprint()}), "
                         f"sealing it {_cards(len(h.refs))} and the seat's secrets"
                         + (f", with {h.to.name}'s signed acceptance" if body.consent is not None else ""))
        elif getattr(body, "rekey", None) is not None:
            parts.append("re-keys the seat's layers and starts its own beacon chain (its first file after the handover)")
        if body.contribution is not None:
            parts.append("joins: a contribution to the game seed")
        if body.setup_seed is not None:
            parts.append("deals the game from the seed of the referee and every seat")
        # what the file itself made public may be named (the face-up card)
        state = overlay(rec.before, rec.revealed) if rec.before is not None else None
        for cmd in rec.commands:
            parts.append(chain.game.presentation.describe(cmd, state, None))
        if rec.revealed and not rec.commands:
            parts.append("reveals " + ", ".join(rec.revealed.values()))
        if rec.resumed is not None:
            seat, cmd = rec.resumed
            parts.append(f"draws the chance of {seat}'s {chain.game.presentation.describe(cmd, rec.before, None)}")
        elif body.chance is not None:
            parts.append("draws chance")
        if body.vote is not None:
            parts.append("votes (a sealed ballot)")
        if body.tally:
            parts.append("opens the ballots of " + ", ".join(o.seat for o in body.tally))
        for void in body.void:
            parts.append(f"voids {void.seat}'s ballot: " + ("no vote" if void.opening else "it cannot be opened"))
        if body.commitments and rec.seq and body.setup_seed is None:
            parts.append(f"commits to the order of {_cards(len(body.commitments))} shuffled")
        for d in body.deliveries:
            parts.append(f"deals {_cards(len(d.refs))} to {d.to}")
        hidden_partials = [p for p in body.partials if p.ref not in rec.revealed]
        if hidden_partials:
            parts.append(f"decrypts {_cards(len(hidden_partials))} for other seats")
        for box in body.sealed:
            parts.append(f"seals {_cards(len(box.refs))} to {box.to}")
        if body.layer is not None:
            parts.append("adds its shuffle layer")
        if getattr(body, "reshuffle", None) is not None:
            parts.append(f"adds its layer to {_cards(len(body.reshuffle.points))} reshuffled")
        if body.seed is not None:
            parts.append("publishes its seed")
        if body.secrets is not None:
            parts.append("publishes its secrets")
        files.append({"seq": rec.seq, "by": rec.by, "name": rec.name or folder_mod.turn_name(rec.seq, rec.by),
                      "what": parts})
    outcome = chain.outcome()
    return {
        "game": chain.game.info.name,
        "game_id": chain.game_id,
        "files": files,
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason},
    }


def log_lines(chain: Chain, since: int = 0) -> list[str]:
    """One line per file, as anyone may read it (no hidden card named)."""
    info = log_entries(chain, since)
    lines = [f"{f['seq']:6d}  {f['by']:<10} " + "; ".join(f["what"]) for f in info["files"]]
    if info["outcome"] is not None:
        lines.append(f"        over: {info['outcome']['reason']}")
    return lines


def since_mine(chain: Chain, name: str) -> list[str]:
    """What happened since `name`'s last file, in words anyone may read,
    then whose turn it is."""
    if name not in chain.seats and name != chain.dealer_name:
        raise PbemError(f"{name} is not a party of this game (seats: {', '.join(chain.seat_order)})")
    entries = log_entries(chain)["files"]
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
    lines.append(f"now: {owed(chain, name)[1] if not chain.over else waiting_words(status(chain))}")
    return lines


def _undo_words(chain: Chain, rec) -> str:
    """An undo file in words: the move it is about, as anyone may read it."""
    u = rec.body.undo
    if u.what == "request":
        target = chain.records[u.target]
        describe = chain.game.presentation.describe
        moves = "; ".join(describe(c, overlay(target.before, target.revealed), None) for c in target.commands)
        return f"asks to take back seq {u.target} ({moves})"
    if u.what == "refuse":
        return f"refuses the undo of seq {u.target}: it stands"
    if rec.undone is not None:
        return f"accepts the undo of seq {u.target}: the game returns to before seq {u.target}"
    return f"accepts the undo of seq {u.target}"


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"
