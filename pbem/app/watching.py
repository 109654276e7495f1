"""`pbem watch` and `pbem referee watch`: follow game folders, answer what
needs no decision, and tell the player when a decision is theirs.

One loop serves both commands: a watch of one folder, or of every game
folder under a tree (a referee hosting many games). For each folder whose
chain files have changed and then stayed the same for a moment (a sync
tool may still be writing), it reads the chain and

* reports a gap (a later file arrived before an earlier one), a fork (two
  different files for one place, named with both signers) or a bad file,
  once each, and writes nothing there until the folder changes; no file is
  ever moved or deleted, except same-bytes copies when asked
  (``--remove-copies``);
* writes NAME's automatic answers through `writing.sync`, the generic
  "what NAME owes, written" entry point: the loop never looks at what kind
  of file is owed, so new kinds of obligations need no change here;
* tells the player, once per place in the chain, that a decision is theirs,
  and runs the ``--notify-cmd`` command with ``PBEM_GAME``, ``PBEM_DIR``,
  ``PBEM_SEQ`` and ``PBEM_NEEDS`` in its environment.

In a tree, the loop looks only at the game folders that file events name
(and those still settling); every RESCAN seconds, or when events cannot be
had (``--poll``), it looks at them all. So a referee hosting a thousand
games answers a new file in one of them at the cost of that folder alone:
its chain, kept from the last visit, is extended by the new file.

One folder's trouble (a bad file, a named pipe where a file should be, a
folder that cannot be read) is told once and never stops the others;
SIGINT and SIGTERM end the loop between two folders, and end a wait for a
folder's lock (`pbem.app.long_running.until_interrupted`).

Nothing is remembered between runs: the chain itself shows what has been
answered, so a watcher killed and started again writes exactly what is
still owed (each write holds the folder's lock and is atomic). A restarted
watcher tells the player again that it is their turn.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from pbem.app.chain_reader import ChainReader, chain_signature
from pbem.app.long_running import run_notify
from pbem.app.opening import Keys
from pbem.errors import FolderBusy, ForkError, PbemError
from pbem.gamedir.lock import abandoned_when
from pbem.protocol import codec
from pbem.gamedir import folder as folder_mod, safe_read
from pbem.transport import watch as tw

#: seconds a folder's files must stay unchanged before they are read
SETTLE = 0.3
#: seconds between full looks when no event arrives (a missed event, a
#: file that stopped growing)
RESCAN = 10.0


class CachedKeys(Keys):
    """Keys whose private keys are unlocked once for the life of a watch
    (a daemon asks for a passphrase at most once per name)."""

    _unlocked: dict[str, Any] = msgspec.field(default_factory=dict)

    def secret(self, name: str):
        if name not in self._unlocked:
            self._unlocked[name] = super().secret(name)
        return self._unlocked[name]


def cached(keys: Keys) -> Keys:
    return CachedKeys(store=keys.store, passphrase=keys.passphrase, named=keys.named,
                      accept_new=keys.accept_new, warn=keys.warn)


@dataclass
class _Seen:
    """What the loop knows of one folder between looks."""

    last: tw.Signature | None = None  # the signature at the previous look
    done: tw.Signature | None = None  # the signature it last acted on
    told: set[str] = field(default_factory=set)  # messages already given
    reader: ChainReader = field(default_factory=ChainReader)  # the chain read at the last visit
    timed_out: tw.Signature | None = None  # the signature at which a late seat sent the referee to work


@dataclass
class Watch:
    """Follow `root` (one game folder, or with `tree` every game folder
    under it) as `name`. `say` receives each line for the user."""

    root: Path
    name: str
    keys: Keys
    say: Callable[[str], None]
    tree: bool = False
    notify_cmd: str | None = None
    remove_copies: bool = False
    settle: float = SETTLE
    #: the share of its time (per cent) a seat has used when it is reminded
    remind_at: int = 75
    folders_seen: dict[Path, _Seen] = field(default_factory=dict)
    errors: int = 0
    #: the folders the last step found still changing
    pending: set[Path] = field(default_factory=set)
    looked_at_all: float = 0.0  # time.monotonic() of the last look at every folder

    def folders(self) -> list[Path]:
        if self.tree:
            return tw.game_folders(self.root, folder_mod.GENESIS)
        if not (self.root / folder_mod.GENESIS).exists():
            raise PbemError(f"{self.root} has no {folder_mod.GENESIS}", hint="is this a game folder?")
        return [self.root]

    def step(self, only: set[Path] | None = None, stop: threading.Event | None = None) -> bool:
        """Look at every folder once (or, given `only`, at those game
        folders alone); act on those that have settled. True while some
        folder is still changing (look again soon: `pending` names them).
        A folder's trouble is told and counted, and the next folder is
        looked at all the same; a set `stop` ends the look between two
        folders."""
        busy = False
        pending: set[Path] = set()
        if only is None:
            folders = self.folders()
            self.looked_at_all = time.monotonic()
        else:
            folders = sorted(f for f in only if (f / folder_mod.GENESIS).exists())
        for folder in folders:
            if stop is not None and stop.is_set():
                break
            seen = self.folders_seen.setdefault(folder, _Seen())
            try:
                changing = self._look(folder, seen)
            except Exception as exc:  # noqa: BLE001 - one folder's trouble never stops the others
                self.errors += 1
                why = exc.message if isinstance(exc, PbemError) else \
                    f"{exc.strerror} ({exc.filename})" if isinstance(exc, OSError) and exc.strerror else \
                    f"internal error ({type(exc).__name__}: {exc})"
                self._tell(seen, f"{folder}: {why}")
                changing = False
            if changing:
                busy = True
                pending.add(folder)
        self.pending = pending
        return busy

    def _look(self, folder: Path, seen: _Seen) -> bool:
        """Act on one folder if it has settled; True when it is still
        changing (or asks to be looked at again)."""
        sig = chain_signature(folder)
        if sig == seen.done:
            return self._on_time(folder, seen, sig)
        if sig != seen.last:  # changed since the last look: let it settle
            seen.last = sig
            return True
        # what was read is what was there before the visit: a file that
        # arrives meanwhile (or one this visit writes) is looked at next
        seen.done = sig
        self.visit(folder, seen)
        return seen.done is None  # asked to look again (a busy lock, a race)

    def _on_time(self, folder: Path, seen: _Seen, sig) -> bool:
        """An unchanged folder of a game with a pace: the reminders its
        clocks make due, and, for the referee, a seat whose time ran out
        (True: visit it again, where `writing.sync` writes what is due)."""
        chain = seen.reader.chain
        if chain is None or chain.genesis.pace is None:
            return False
        self._remind(folder, chain, seen)
        if self.name == chain.dealer_name:
            from pbem.protocol import long_writer

            if seen.timed_out != sig and long_writer.referee_acts(chain, folder):
                seen.timed_out, seen.done = sig, None  # once per state of the folder: a failure is told once
                return True
        return False

    def _remind(self, folder: Path, chain, seen: _Seen) -> None:
        """Remind the seat to move (this watcher's own seat; the referee
        every seat), and tell everyone of a deadline passed: once each."""
        from pbem.app import reminders

        for r in reminders.due(chain, share=self.remind_at):
            if not r.late and r.seat != self.name and self.name != chain.dealer_name:
                continue
            if self._tell(seen, f"{folder}: {r.line}", key=r.key):
                self._notify(folder, chain, "deadline" if r.late else "reminder", seat=r.seat)

    def game_folders_of(self, paths: set[Path]) -> set[Path] | None:
        """The game folders under the tree that hold (or are) `paths`: where
        file events say something changed. None when a path is not under
        the tree as named (a symbolic link resolved): look everywhere."""
        root = Path(os.path.abspath(self.root))
        out: set[Path] = set()
        for path in paths:
            here = Path(os.path.abspath(path))
            if here != root and root not in here.parents:
                return None
            while True:
                if (here / folder_mod.GENESIS).exists():
                    out.add(self.root / here.relative_to(root))
                    break
                if here == root:
                    break
                here = here.parent
        return out

    def _where_next(self, waiting, after_busy: bool) -> set[Path] | None:
        """What the next step looks at: in a tree, with file events, only the
        folders still settling and those the events name; else (polling, one
        folder, or RESCAN seconds since the last full look) everything."""
        changed = waiting.take() if waiting is not None else None
        if changed is None or not self.tree or time.monotonic() - self.looked_at_all > RESCAN:
            return None
        found = self.game_folders_of(changed)
        if found is None:
            return None
        return (self.pending if after_busy else set()) | found

    def _tell(self, seen: _Seen, line: str, key: str | None = None) -> bool:
        key = key or line
        if key in seen.told:
            return False
        seen.told.add(key)
        self.say(line)
        return True

    def visit(self, folder: Path, seen: _Seen) -> None:
        """Read one settled folder and do what falls to `name` there."""
        from pbem.app import writing

        where = str(folder)
        files = folder_mod.chain_files(folder)
        last = max(files) if files else 0
        gap = next((s for s in range(1, last + 1) if s not in files), None)
        if gap is not None:
            self._tell(seen, f"{where}: waiting for seq {gap} (the folder already has files up to seq {last})")
            return
        self._copies(folder, files, seen)
        try:
            chain = seen.reader.read(folder, files)
        except ForkError as exc:
            self.errors += 1
            self._tell(seen, f"{where}: {exc.message}; both files are kept"
                       + (f" ({exc.hint})" if exc.hint else ""))
            return
        except PbemError as exc:
            self.errors += 1
            self._tell(seen, f"{where}: {exc.message}")
            return
        name = self.name
        if name not in chain.seats and name != chain.dealer_name:
            if not self.tree:
                self._tell(seen, f"{where}: {name} is not a party of this game (seats: {', '.join(chain.seat_order)})")
                self.errors += 1
            return
        if chain.dealer_mode == "hotseat":
            self._tell(seen, f"{where}: a hotseat game: every seat plays in this folder, nothing to follow")
            return
        if (name in chain.writers() and chain.needs(name) == "auto") or self._referee_acts(folder, chain):
            notes: list[str] = []
            try:
                written = writing.sync(folder, name, self.keys, notes)
            except FolderBusy:
                seen.done = None  # another command is writing: look again
                return
            except PbemError as exc:
                self.errors += 1
                self._tell(seen, f"{where}: {exc.message}" + (f" ({exc.hint})" if exc.hint else ""))
                return
            for line in notes:
                self._tell(seen, f"{where}: {line}")
            if written:
                self.say(f"{where}: wrote {', '.join(p.name for p in written)}")
            chain = self._after(folder, chain, written)
            seen.reader.keep(folder, chain)
            if chain is None:
                seen.done = None
                return
        self._report(folder, chain, seen)

    def _referee_acts(self, folder: Path, chain) -> bool:
        if self.name != chain.dealer_name or chain.genesis.pace is None:
            return False
        from pbem.protocol import long_writer

        return long_writer.referee_acts(chain, folder)

    @staticmethod
    def _after(folder: Path, chain, written: list[Path]):
        """The chain once `written` is in: appended to the chain at hand
        (one file's check instead of a replay), or read again when another
        file slipped in first."""
        try:
            for path in written:
                chain.append(safe_read.read(path), path.name)
            return chain
        except PbemError:
            try:
                return folder_mod.load(folder)
            except PbemError:
                return None

    def _report(self, folder: Path, chain, seen: _Seen) -> None:
        from pbem.app import turns

        where = str(folder)
        info = turns.status(chain)
        if chain.genesis.pace is not None:
            self._remind(folder, chain, seen)
        if chain.over:
            self._tell(seen, f"{where}: the game is over: {info.outcome.reason if info.outcome else ''}", key="over")
            return
        mine = next((w for w in info.to_act if w.seat == self.name), None)
        if mine is not None and mine.needs != "auto":
            needs = "undo" if mine.undo else "join" if mine.join else "decision"
            what = {"undo": "accept or refuse the undo (pbem undo accept|refuse)",
                    "join": "join the game", "decision": f"decide (pbem play {where} --as {self.name})"}[needs]
            key = f"turn {chain.seq}"
            if self._tell(seen, f"{where}: your turn in {chain.game.info.title} (seq {chain.seq}): {what}", key=key):
                self._notify(folder, chain, needs)
            return
        waiting = "; ".join(turns.to_act_lines(info)) or "nobody"
        self._tell(seen, f"{where}: seq {chain.seq}, waiting: {waiting}", key=f"wait {chain.seq}")

    def _copies(self, folder: Path, files: dict[int, list[Path]], seen: _Seen) -> None:
        """Same-bytes copies of a chain file (a sync tool's or a browser's):
        told once, removed only with `remove_copies`."""
        for paths in files.values():
            if len(paths) < 2:
                continue
            by_bytes: dict[bytes, Path] = {}
            for path in sorted(paths, key=lambda p: (tw.conflict_copy(p.name) is not None, p.name)):
                try:
                    data = codec.normalise(safe_read.read(path))[0]
                except PbemError:
                    continue
                kept = by_bytes.setdefault(data, path)
                if kept is path:
                    continue
                made = tw.conflict_copy(path.name)
                by = f" made by {made[1]}" if made else ""
                if self.remove_copies:
                    path.unlink(missing_ok=True)
                    self.say(f"{folder}: removed {path.name}, a copy{by} of {kept.name} (the same bytes)")
                else:
                    self._tell(seen, f"{folder}: {path.name} is a copy{by} of {kept.name} (the same bytes): "
                                     "ignored, safe to delete (--remove-copies)")

    def _notify(self, folder: Path, chain, needs: str, seat: str | None = None) -> None:
        if not self.notify_cmd:
            return
        trouble = run_notify(self.notify_cmd, folder, chain, needs, self.name, seat)
        if trouble:
            self.say(trouble)

    def run(self, once: bool = False, poll: bool = False, interval: float = 1.0,
            stop: threading.Event | None = None) -> int:
        """Watch until `stop` is set (or, `once`, until every folder has
        settled and been seen). Returns the number of problems reported."""
        stop = stop or threading.Event()
        notes: list[str] = []
        if not self.root.is_dir():
            raise PbemError(f"{self.root} is not a folder")
        self.folders()  # a folder that is no game: said at once
        waiting = None if once else tw.waiter([self.root], poll, interval, notes)
        for line in notes:
            self.say(line)
        only: set[Path] | None = None  # None: look at every folder
        try:
            while not stop.is_set():
                with abandoned_when(stop):
                    busy = self.step(only, stop)
                if once:
                    if not busy:
                        break
                    stop.wait(self.settle)
                    continue
                if busy:
                    stop.wait(self.settle)
                    only = self._where_next(waiting, after_busy=True)
                    continue
                try:
                    woke = waiting.wait(RESCAN, stop)
                except OSError as exc:  # events stopped: carry on by polling
                    self.say(f"{exc}: polling instead")
                    waiting.close()
                    waiting = tw.Poller([self.root], interval)
                    only = None
                    continue
                # woken by events: only where they were; after RESCAN
                # seconds without any: everything (an event may be missed)
                only = self._where_next(waiting, after_busy=False) if woke else None
        finally:
            if waiting is not None:
                waiting.close()
        return self.errors


def settle_time() -> float:
    """`PBEM_WATCH_SETTLE` (seconds) or the default."""
    try:
        return max(0.0, float(os.environ.get("PBEM_WATCH_SETTLE", SETTLE)))
    except ValueError:
        return SETTLE
