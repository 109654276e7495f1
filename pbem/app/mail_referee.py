"""`pbem referee mail`: a referee that needs nobody.

`referee` fetches (`pbem.app.mail_fetch`) and sends (`pbem.app.mailing`)
for every game under a folder whose referee is the identity, answering in
between with `writing.sync` (`Party.answer`); a restart repeats nothing,
since what is owed is read from the chain and what was sent from the sent
records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.app.mail_fetch import Fetched, fetch
from pbem.app.mailing import Ask, Sent, remind, send
from pbem.errors import PbemError


def refereed(tree: Path, name: str) -> list[Path]:
    """Every game folder under `tree` whose referee is `name`."""
    from pbem.app import delivery, sending
    from pbem.gamedir import folder as folder_mod

    out = []
    tree = Path(tree)
    if not tree.is_dir():
        raise PbemError(f"{tree} is not a folder")
    for genesis in sorted(tree.rglob(folder_mod.GENESIS)):
        if delivery.PENDING in genesis.parts:
            continue
        try:
            body = sending.folder_genesis(genesis.parent)
        except PbemError:
            continue
        if body.dealer is not None and body.dealer.mode == "referee" and body.dealer.identity.name == name:
            out.append(genesis.parent)
    return out


@dataclass
class RefereeRound:
    """One round of `pbem referee mail`."""

    games: list[Path] = field(default_factory=list)
    fetched: list[Fetched] = field(default_factory=list)
    answered: dict[Path, list[Path]] = field(default_factory=dict)
    sent: dict[Path, list[Sent]] = field(default_factory=dict)
    errors: list[PbemError] = field(default_factory=list)
    #: the clock's reminders mailed, in words
    reminded: list[str] = field(default_factory=list)


def referee(tree: Path, name: str, keys, ask: Ask | None = None, path: Path | None = None,
            notes: list[str] | None = None, memo: dict[Path, Any] | None = None,
            remind_at: int = 75) -> RefereeRound:
    """Fetch, answer every obligation of `name` in every game it referees
    under `tree`, send. A failure in one game is reported and the others
    go on; a lost connection still lets what arrived be answered and sent.

    `memo` (kept by a caller that runs rounds in a loop) remembers the
    files of each folder when it was last answered: a folder that has not
    changed since owes nothing new, and is not replayed (a restart, with an
    empty memo, looks at every game once)."""
    from pbem.app import writing

    rnd = RefereeRound(games=refereed(tree, name))
    if not rnd.games:
        return rnd
    try:
        rnd.fetched = fetch(rnd.games, name, keys, ask, path, notes=notes, on_error=rnd.errors, answer=False)
    except PbemError as exc:
        rnd.errors.append(exc)
    for folder in rnd.games:
        try:
            files = chain_listing(folder)
            if memo is not None and memo.get(folder) == files and not _paced(folder):
                rnd.answered[folder] = []
                continue
            rnd.answered[folder] = writing.sync(folder, name, keys, notes)
            if memo is not None:
                memo[folder] = chain_listing(folder)
        except PbemError as exc:
            rnd.errors.append(type(exc)(f"{folder}: {exc.message}", exc.hint))
    for folder in rnd.games:
        try:
            rnd.sent[folder] = send(folder, name, keys, ask, notes=notes)
            if _paced(folder):
                rnd.reminded += remind(folder, name, keys, ask, remind_at)
        except PbemError as exc:
            rnd.errors.append(type(exc)(f"{folder}: {exc.message}", exc.hint))
    return rnd


def _paced(folder: Path) -> bool:
    """Whether the game in `folder` has an agreed pace (its clocks need
    the referee even when no file arrived)."""
    from pbem.app import sending

    return sending.folder_genesis(folder).pace is not None


def chain_listing(folder: Path) -> frozenset[tuple[str, int, int]]:
    """The chain files of a folder, by name, size and time of change."""
    from pbem.gamedir import folder as folder_mod

    out = set()
    for paths in folder_mod.chain_files(folder).values():
        for p in paths:
            st = p.stat()
            out.add((p.name, st.st_size, st.st_mtime_ns))
    return frozenset(out)
