"""`pbem serve`: the user's games as a local web page to click, kept live.

A `Session` is what the page may ask of one identity's games: the list
(what `pbem status --all` knows, or the games under the folders given),
one game as the seat sees it, a command checked in words, a command
written, an undo step. It knows nothing of HTTP (`pbem.render.serve_http`
serves it) nor of HTML (`pbem.render.serve_page` draws it), and nothing of
click. Every write goes through the library functions `pbem submit`, `pbem
undo` and `pbem sync` use (`writing.submit`, `writing.undo`,
`writing.sync`): the same files, the same checks, the same errors, so the
page can never do what the command line would refuse.

Live: each folder (or tree) is followed by the watcher of `pbem watch`
(`watching.Watch`), which writes the automatic answers the seat owes; a
small subclass also tells the session which game changed, and the page
hears it through server-sent events. In a hotseat game, which `pbem watch`
leaves alone, the seat's automatic answers are written here. With `mail`,
the files each write makes are mailed to the other parties (`mailing.send`)
and new mail is fetched every `mail_every` seconds.

One lock orders everything the session does to the games (a page's write,
a watcher's answer, a page being drawn), so two writers of this process
never meet at a folder's lock; other processes are kept out by the
folder's lock as always.

The command around the session (the key, the server, the browser, the
signals) is `pbem.app.serve_command`; one game's page is drawn from
`pbem.app.game_screen`.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.app import chain_reader, opening, reading, turns, watching, writing
from pbem.app.game_screen import game_screen
from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod
from pbem.render import serve_page as pages
from pbem.render.serve_http import Reply
from pbem.transport import watch as tw

#: recent lines of the watchers, shown on the pages
NOTES = 8
#: seconds the server reads its games before it opens the page (the rest: after)
WARM_FIRST = 2.0
#: the log's lines on a game page (the newest; the whole log is a page of its own)
LOG_LINES = 30


def folder_key(folder: Path) -> str:
    """A game's name in the page's URLs: a hash of its folder's path (the
    path itself stays out of URLs and history)."""
    return hashlib.sha256(os.path.abspath(folder).encode()).hexdigest()[:16]


@dataclass
class _Loaded:
    """A folder's chain and the seat's view of it, kept while the folder's
    chain files stay the same; `reader` holds the chain between two changes
    (a new file is appended to it, as `pbem watch` does, instead of a
    replay); `log` the log's last lines so far, one per file from some seq
    on (a file's line never changes)."""

    stamp: Any
    chain: Any
    reader: chain_reader.ChainReader
    party: Any = None
    log: list = field(default_factory=list)


@dataclass
class Session:
    """What one identity's page may see and do. `roots`: game folders or
    trees of them (none: the games this user's pbem has seen)."""

    name: str
    keys: opening.Keys
    roots: list[Path] = field(default_factory=list)
    say: Callable[[str], None] = lambda line: None
    mail: bool = False
    ask_secret: Callable[[str], str] | None = None
    token: str = ""
    log_lines: int = LOG_LINES
    lock: threading.RLock = field(default_factory=threading.RLock)
    notes: deque = field(default_factory=lambda: deque(maxlen=NOTES))
    _keys: dict[str, Path] = field(default_factory=dict)
    _loaded: dict[Path, _Loaded] = field(default_factory=dict)
    #: the count of changes, from a random start: a page of an earlier run
    #: of the server never takes this run's count for the one it was drawn at
    _version: int = field(default_factory=lambda: secrets.randbits(40))
    _changed: list[tuple[int, str]] = field(default_factory=list)
    _cond: threading.Condition = field(default_factory=threading.Condition)

    # -- which games -------------------------------------------------------------------

    def folders(self) -> list[Path]:
        if not self.roots:
            from pbem.home import games_index

            games_index.forget_missing()
            return [f for f in games_index.known() if (f / folder_mod.GENESIS).is_file()]
        out: list[Path] = []
        for root in self.roots:
            out += tw.game_folders(root, folder_mod.GENESIS)
        return out

    def folder(self, key: str) -> Path | None:
        if key not in self._keys:
            self._keys = {folder_key(f): f for f in self.folders()}
        return self._keys.get(key)

    def _load(self, folder: Path) -> _Loaded:
        """The folder's chain, read again only when its files changed: the
        new files appended to the chain at hand when they only follow it
        (the watcher's `ChainReader`), else a full read; checked against the
        address book either way."""
        stamp = chain_reader.chain_signature(folder)
        held = self._loaded.get(folder)
        if held is None or held.stamp != stamp:
            reader = held.reader if held is not None else chain_reader.ChainReader()
            chain = reader.read(folder)
            self.keys.pin(chain, folder, write=False)
            log = held.log if held is not None and held.chain.game_id == chain.game_id else []
            held = self._loaded[folder] = _Loaded(stamp, chain, reader, log=log)
        return held

    def log(self, held: _Loaded, last: int | None) -> list[tuple[int, str, str]]:
        """The `last` files in words (None: every file): only the files not
        told before are described. A page shows the last few (300 lines
        would double the time to its first paint, in the server and in the
        browser); the whole log is a page of its own."""
        chain = held.chain
        held.log = [entry for entry in held.log if entry[0] <= chain.seq]
        first = 0 if last is None else max(0, chain.seq + 1 - last)
        if held.log and held.log[0][0] > first:
            held.log = []  # an older line is asked for: the log is told again from there
        since = held.log[-1][0] + 1 if held.log else first
        held.log += [(f["seq"], f["by"], "; ".join(f["what"]) or "writes a file")
                     for f in reading.log_entries(chain, since)["files"]]
        return held.log if last is None else held.log[-last:]

    def warm(self, budget: float | None = None) -> bool:
        """Read the games once, so that the pages opened first are drawn
        from memory: for at most `budget` seconds (None: every game). True
        when every game was read."""
        end = None if budget is None else time.monotonic() + budget
        for folder in self.folders():
            if end is not None and time.monotonic() > end:
                return False
            try:
                self.screen(folder_key(folder))
            except PbemError:
                continue
        return True

    def _party(self, held: _Loaded):
        chain = held.chain
        if self.name not in chain.seats:
            return None
        if held.party is None:
            held.party = opening.party(chain, self.name, self.keys)
        return held.party

    def rows(self) -> list[pages.GameRow]:
        with self.lock:
            rows = []
            for folder in self.folders():
                key = folder_key(folder)
                self._keys[key] = folder
                try:
                    chain = self._load(folder).chain
                except PbemError as exc:
                    rows.append(pages.GameRow(key, str(folder), "?", 0, f"cannot be read: {exc.message}"))
                    continue
                info = turns.status(chain)
                what = turns.owed(chain, self.name)[0] if self.name in chain.seats else "nothing"
                rows.append(pages.GameRow(key, str(folder), chain.game.info.title, chain.seq, turns.waiting_words(info),
                                          seat=self.name in chain.seats, yours=what in ("decision", "undo"),
                                          over=chain.over))
            return rows

    # -- one game ----------------------------------------------------------------------

    def screen(self, key: str) -> pages.Screen | None:
        folder = self.folder(key)
        if folder is None:
            return None
        with self.lock:
            held = self._load(folder)
            return game_screen(held.chain, self._party(held), self.name, key, str(folder), list(self.notes),
                               self.log(held, self.log_lines))

    def whole_log(self, key: str) -> pages.Screen | None:
        """The game with every file of its log (and nothing else)."""
        folder = self.folder(key)
        if folder is None:
            return None
        with self.lock:
            held = self._load(folder)
            chain = held.chain
            return pages.Screen(key=key, title=chain.game.info.title, game=chain.game.info.name, game_id=chain.game_id,
                                seq=chain.seq, folder=str(folder), viewer=None, log=self.log(held, None))

    def check(self, key: str, text: str) -> dict[str, Any]:
        """`text` parsed and tried against the seat's state: what it would
        do, in words, or why it is refused (nothing is written)."""
        folder = self.folder(key)
        with self.lock:
            held = self._load(folder)
            me = self._party(held)
            try:
                if me is None:
                    raise PbemError(f"{self.name} has no seat in this game")
                turns.check_turn(held.chain, self.name)
                me.check_no_undo_pending()
                command = writing.parse_commands(held.chain, me, [text])[0]
                words = held.chain.game.presentation.explain(command, me.state(), self.name)
            except PbemError as exc:
                return {"ok": False, "error": exc.message, "hint": exc.hint}
            return {"ok": True, "text": text, "words": f"{self.name} will {words}"}

    def submit(self, key: str, text: str, seq: int) -> dict[str, Any]:
        return self._write(key, seq, lambda folder, said: writing.submit(folder, self.name, [text], self.keys, said))

    def undo(self, key: str, what: str, seq: int) -> dict[str, Any]:
        return self._write(key, seq, lambda folder, said: writing.undo(folder, self.name, what, self.keys, said))

    def _write(self, key: str, seq: int, write) -> dict[str, Any]:
        folder = self.folder(key)
        said: list[str] = []
        with self.lock:
            try:
                now = self._load(folder).chain.seq
                if now != seq:
                    raise PbemError(f"the game has moved on since this page was drawn (file {seq}, now {now})",
                                    hint="look at the board again and choose again")
                written = write(folder, said)
                written += self.answer_owed(folder, said)
            except PbemError as exc:
                return {"ok": False, "error": exc.message, "hint": exc.hint}
            said = [f"wrote {', '.join(p.name for p in written)}"] + said if written else said
            said += self.mail_on(folder) if written else []
        self.changed(folder)
        return {"ok": True, "said": said}

    def answer_owed(self, folder: Path, said: list[str]) -> list[Path]:
        """The seat's automatic answers, when the game is a hotseat game
        (elsewhere the watcher writes them as soon as the folder settles):
        after a move from the page, and when the live watcher visits."""
        chain = self._load(folder).chain
        if chain.dealer_mode != "hotseat" or self.name not in chain.writers() or chain.needs(self.name) != "auto":
            return []
        return writing.sync(folder, self.name, self.keys, said)

    def mail_on(self, folder: Path) -> list[str]:
        """With `mail`: the files the other parties lack, mailed (nothing
        when they have been; `mailing.send` keeps count). Lines to show;
        also called by `serve_command` once fetched mail is filed."""
        if not self.mail:
            return []
        from pbem.app import mailing

        said: list[str] = []
        try:
            sent = mailing.send(folder, self.name, self.keys, self.ask_secret, False, said)
        except PbemError as exc:
            return said + [f"not mailed: {exc.message}"]
        return said + [f"mailed {s.party} <{s.address}>: {', '.join(s.files)}" for s in sent]

    # -- live -----------------------------------------------------------------------------

    def changed(self, folder: Path) -> None:
        with self._cond:
            self._version += 1
            self._changed = [*self._changed[-63:], (self._version, folder_key(folder))]
            self._cond.notify_all()

    def changes(self, since: int, timeout: float) -> tuple[int, list[str]]:
        """(the version now, the keys of the games changed after `since`),
        waiting up to `timeout` seconds for a change."""
        with self._cond:
            if since >= 0 and self._version == since:
                self._cond.wait(timeout)
            keys = sorted({k for v, k in self._changed if v > since}) if since >= 0 else []
            return self._version, keys

    def wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def heard(self, line: str) -> None:
        """A watcher's line: kept for the pages and said on the terminal."""
        self.notes.append(line)
        self.say(line)

    def watchers(self, stop: threading.Event, settle: float) -> list[threading.Thread]:
        """A `pbem watch` loop per root (each known game folder when no root
        was given), each in its own thread until `stop` is set."""
        roots = self.roots or self.folders()
        threads = []
        for root in roots:
            watch = _LiveWatch(root, self.name, self.keys, self.heard, tree=True, settle=settle, session=self)
            thread = threading.Thread(target=_follow, args=(watch, stop), daemon=True, name=f"pbem watch {root}")
            thread.start()
            threads.append(thread)
        return threads

    # -- the App of the HTTP server ----------------------------------------------------------

    def get(self, path: str) -> Reply:
        # the count of changes before the page is drawn: a change after it
        # may be missing from the page, and its live stream's first word
        # (the count when it connects) tells the page to draw itself again
        version = self.changes(-1, 0)[0]
        if path == "":
            return pages.games_page(self.rows(), self.name, self.token, list(self.notes), version)
        if path == "list":
            return Reply.json({"html": pages.games_list(self.rows())})
        parts = path.split("/")
        if parts[0] == "g" and len(parts) == 3 and parts[2] == "log":
            whole = self.whole_log(parts[1])
            return Reply.text(404, "no such game here") if whole is None else pages.log_page(whole, self.token, version)
        if parts[0] == "g" and len(parts) in (2, 3):
            screen = self.screen(parts[1])
            if screen is None:
                return Reply.text(404, "no such game here")
            if len(parts) == 2:
                return pages.game_page(screen, self.token, version)
            if parts[2] == "main":
                return Reply.json({"seq": screen.seq, "html": pages.game_main(screen)})
        return Reply.text(404, "not found")

    def post(self, path: str, data: dict) -> Reply:
        parts = path.split("/")
        if len(parts) != 3 or parts[0] != "g" or self.folder(parts[1]) is None:
            return Reply.text(404, "not found")
        key, what = parts[1], parts[2]
        text = data.get("text")
        seq = data.get("seq")
        if what == "check" and isinstance(text, str):
            return Reply.json(self.check(key, text))
        if what == "submit" and isinstance(text, str) and isinstance(seq, int):
            return Reply.json(self.submit(key, text, seq))
        if what == "undo" and data.get("what") in ("request", "accept", "refuse") and isinstance(seq, int):
            return Reply.json(self.undo(key, data["what"], seq))
        return Reply.text(400, "bad request")


def _follow(watch: watching.Watch, stop: threading.Event) -> None:
    try:
        watch.run(stop=stop)
    except PbemError as exc:
        watch.say(f"{watch.root}: {exc.message}")


@dataclass
class _LiveWatch(watching.Watch):
    """`pbem watch`'s loop, also telling the session which game changed
    (and, in a hotseat game, writing the seat's automatic answers)."""

    session: Session | None = None

    def visit(self, folder: Path, seen) -> None:
        session = self.session
        with session.lock:
            before = chain_reader.chain_signature(folder)
            if not (folder / folder_mod.DEALER_KEY).exists():  # a hotseat game: nothing for `pbem watch`
                super().visit(folder, seen)
            said: list[str] = []
            try:
                session.answer_owed(folder, said)
            except PbemError as exc:
                said.append(exc.message)
            if chain_reader.chain_signature(folder) != before:  # an answer was written here: mailed on
                said += session.mail_on(folder)
            for line in said:
                self.say(f"{folder}: {line}")
        session.changed(folder)
