"""`pbem status --all [TREE]`: one line per game, for a player with many
games going. The folders are those under TREE, or every game folder a
command has opened (`pbem.home.games_index`, folders gone since forgotten);
each row is read by `turns.overview`, a folder that cannot be read
becoming a row that says so rather than an error."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError


def rows(tree: Path | None) -> list:
    """A `turns.Row` (or `turns.UnreadableRow`) for each game folder."""
    from pbem.home import games_index
    from pbem.app import turns
    from pbem.protocol import GENESIS
    from pbem.transport.watch import game_folders

    if tree is not None:
        if not tree.is_dir():
            raise PbemError(f"{tree} is not a folder")
        folders = game_folders(tree, GENESIS)
    else:
        games_index.forget_missing()
        folders = games_index.known()
    return turns.overview(folders)


def lines(found: list, tree: Path | None) -> list[str]:
    """The rows in words; a star marks a game that waits for a decision of
    one of the user's own identities."""
    from pbem.app import turns
    from pbem.home.store import KeyStore

    if not found:
        where = f"under {tree}" if tree is not None else "seen yet (each command that opens a game folder remembers it)"
        return [f"no game folders {where}"]
    mine = {n for n, own in KeyStore().names() if own}
    out = []
    flagged = False
    for row in found:
        if isinstance(row, turns.UnreadableRow):
            out.append(f"{row.dir}: cannot be read: {row.error}")
            continue
        yours = [w.seat for w in row.to_act if w.seat in mine and w.needs != "auto"]
        flag = "*" if yours and not row.over else " "
        flagged = flagged or flag == "*"
        state = f"over: {row.outcome.reason}" if row.outcome is not None else row.waiting
        out.append(f"{flag} {row.dir}  {row.game} {row.game_id[:8]} seq {row.seq} ({row.dealer}): {state}")
    if flagged:
        out.append("(* a decision of one of your identities)")
    return out
