"""What the long-game commands do (`pbem resign`, `pbem pause`, `pbem
timeout`), as library functions that know nothing of click (issue #24;
the files: `pbem.protocol.long_games`; the clocks in words:
`pbem.app.clock_words`).

Each writing function works as `pbem.app.writing` does: it holds the folder's
lock, checks every file in memory before the first is written, and lets
the hotseat dealer, or the referee writing its own timeout, answer at once
what the new file makes it owe (a game that ends: its seed).
"""

from __future__ import annotations

from pathlib import Path

from pbem.app import opening, writing
from pbem.gamedir import folder_write


def _write(folder: Path, name: str, keys: opening.Keys, make, notes: list[str] | None) -> list[Path]:
    """Stage the file `make(chain, secret)` writes, then the dealer's
    answers (hotseat), and write them all."""
    with folder_write.writing(folder):
        chain, cards, secret = writing.writer_chain(folder, name, keys)
        me = opening.party(chain, name, keys, secret)
        dealer = writing.hotseat_key(folder, chain)
        staged = writing.Staged(folder, chain, cards)
        opening.check_protocol(chain, name, keys)
        staged.add(make(chain, me.secret))
        writing.auto_dealer(staged, dealer)
        return staged.write(notes)


def resign(folder: Path, name: str, keys: opening.Keys, note: str = "", notes: list[str] | None = None) -> list[Path]:
    """`name` resigns: its side loses, the game ends."""
    from pbem.protocol import long_writer

    return _write(folder, name, keys, lambda chain, me: long_writer.resign(chain, me, note), notes)


def pause(folder: Path, name: str, keys: opening.Keys, start: str, end: str,
          notes: list[str] | None = None) -> list[Path]:
    """`name` announces a pause from `start` (now when empty) to `end`
    (a date, a time, or a duration from the start)."""
    from pbem.protocol import long_writer

    return _write(folder, name, keys, lambda chain, me: long_writer.pause(chain, me, start, end), notes)


def timeout(folder: Path, name: str, keys: opening.Keys, seat: str | None = None,
            notes: list[str] | None = None) -> list[Path]:
    """A seat's time is out. A peer seat claims it, or accepts the pending
    claim; the referee does what the genesis agreed (`pbem sync` and the
    referee's watchers do the same, unasked, once a seat is late)."""
    from pbem.errors import ProtocolError
    from pbem.protocol import long_writer

    chain = opening.open_game(folder)
    if name == chain.dealer_name and chain.dealer_mode == "referee":
        written = writing.sync(folder, name, keys, notes)
        if not written:
            raise ProtocolError("the referee has nothing to do: nobody's time is out by its clock, "
                                "or the genesis lets it do nothing (pbem new --absent)")
        return written
    return _write(folder, name, keys, lambda chain, me: long_writer.claim(chain, me, seat), notes)
