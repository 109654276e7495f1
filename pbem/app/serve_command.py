"""`pbem serve` as a command: unlock the key once, read the games, listen
on a local address, open the page through a launcher file only this user
can read, fetch the mail now and then, and stop on SIGINT or SIGTERM.

Apart from `pbem.app.serving` (the `Session` the page talks to) because
this is the process around it: threads, signals, the browser.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pbem.app import long_running, opening, watching
from pbem.app.serving import WARM_FIRST, Session
from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod
from pbem.render import serve_page as pages
from pbem.transport import watch as tw


def run(roots: list[Path], name: str, keys: opening.Keys, say: Callable[[str], None],
        ready: Callable[[str], None], *, open_page: bool = True, mail: bool = False,
        ask_secret: Callable[[str], str] | None = None, mail_every: float = 60.0) -> None:
    """Serve `name`'s games until interrupted (SIGINT, SIGTERM).

    The key is unlocked here, once, before anything is served: from the
    agent (`pbem agent`) or with the passphrase typed at the terminal; the
    server keeps it in memory and the browser never sees it. `ready`
    receives the page's address (with its secret) once the server listens.
    """
    import secrets

    from pbem.render.serve_http import LocalServer

    for root in roots:
        if not root.is_dir():
            raise PbemError(f"{root} is not a folder")
        if not tw.game_folders(root, folder_mod.GENESIS):
            raise PbemError(f"{root} holds no game (no {folder_mod.GENESIS} in it or under it)")
    keys = watching.cached(keys)
    keys.secret(name)
    session = Session(name, keys, list(roots), say, mail, ask_secret, token=secrets.token_urlsafe(24))
    server = LocalServer(session, secrets.token_urlsafe(32), session.token)
    server.bind()
    stop = threading.Event()

    def serve(interrupted: threading.Event) -> int:
        # the games are read before the page is opened (the first page is
        # drawn from memory, not while the browser waits), the rest of a
        # long list in the background
        if not session.warm(WARM_FIRST):
            threading.Thread(target=session.warm, daemon=True, name="pbem serve warm-up").start()
        session.watchers(stop, watching.settle_time())
        server.start()
        ready(server.url)
        launcher = _launcher(keys.store.home, server.url) if open_page else None
        try:
            if launcher is not None:
                _open(launcher, say)
            # short waits: a signal that another thread (the file watcher's)
            # happens to receive wakes the main thread only between two
            next_fetch = time.monotonic() + mail_every
            while not interrupted.wait(0.25):
                if mail and time.monotonic() >= next_fetch:
                    _fetch_mail(session)
                    next_fetch = time.monotonic() + mail_every
        finally:
            if launcher is not None:
                launcher.unlink(missing_ok=True)
        return 0

    try:
        long_running.until_interrupted(serve)
    finally:
        stop.set()
        session.wake()
        server.stop()


def _fetch_mail(session: Session) -> None:
    """New mail for every game served, applied (and answered) as `pbem
    mail fetch` does; what it did is said like the watchers' lines."""
    from pbem.app import mail_fetch

    notes: list[str] = []
    errors: list[PbemError] = []
    folders = [f for f in session.folders()]
    with session.lock:
        try:
            reports = mail_fetch.fetch(folders, session.name, session.keys, session.ask_secret, notes=notes,
                                    on_error=errors)
        except PbemError as exc:
            session.heard(f"mail: {exc.message}")
            return
    for report in reports:
        if report.written or report.joined:
            session.heard(f"{report.folder}: from the mail: {', '.join(p.name for p in report.written)}")
            with session.lock:  # the answers the fetch wrote, mailed on
                for line in session.mail_on(report.folder):
                    session.heard(f"{report.folder}: {line}")
            session.changed(report.folder)
    for line in notes + [e.message for e in errors]:
        session.heard(f"mail: {line}")


def _launcher(home: Path, url: str) -> Path:
    """A page that sends the browser on to `url`, readable by this user
    alone: the browser is opened on it, so the secret never stands on a
    command line that other users can read in the process list."""
    import secrets

    from pbem.fsio import atomic_write

    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(runtime) / "pbem" if runtime and os.path.isdir(runtime) else Path(home) / "serve"
    base.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(base, 0o700)
    path = base / f"open-{secrets.token_hex(8)}.html"
    atomic_write(path, pages.launcher(url).encode(), mode=0o600)
    return path


def _open(path: Path, say: Callable[[str], None]) -> None:
    """Open the launcher in the user's browser, in the background (a
    browser that keeps the terminal must not stop the server)."""
    import sys
    import webbrowser

    graphical = sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if not graphical:
        say("no graphical session here: open the address above in your browser")
        return
    threading.Thread(target=webbrowser.open, args=(path.as_uri(),), daemon=True).start()
