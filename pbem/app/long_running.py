"""What the long-running commands (`pbem watch`, `pbem serve`, a mail
fetch that repeats) share: ending between two steps on SIGINT or SIGTERM
(`until_interrupted`), and the user's ``--notify-cmd`` (`run_notify`).

Apart from `pbem.app.watching` because the server and the mailbox use them
without a watch.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path


def until_interrupted(run: Callable[[threading.Event], int]) -> tuple[int, bool]:
    """Run `run(stop)` with SIGINT and SIGTERM setting `stop` (so the loop
    ends between two folders, never halfway through writing a file; a wait
    for a folder's lock gives up). A second signal stops at once, as a kill
    would (every write is atomic, so that too loses nothing).
    Returns (its result, whether a signal stopped it)."""
    import signal

    stop = threading.Event()
    got: list[int] = []

    def handler(signum, frame) -> None:  # noqa: ARG001
        if got:
            raise KeyboardInterrupt
        got.append(signum)
        stop.set()

    if threading.current_thread() is not threading.main_thread():
        return run(stop), False
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return run(stop), bool(got)
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def run_notify(command: str, folder: Path, chain, needs: str, name: str, seat: str | None = None) -> str | None:
    """Run a user's `--notify-cmd` for a decision that became `name`'s, with
    the game, folder, seq and what is needed in its environment (a clock's
    "reminder" or "deadline": `seat` is the seat it is about); what went
    wrong, if anything, in words (never an exception: a notification must
    not stop a watcher or a fetch)."""
    env = {**os.environ, "PBEM_GAME": chain.game.info.name, "PBEM_GAME_ID": chain.game_id,
           "PBEM_DIR": str(folder.absolute()), "PBEM_SEQ": str(chain.seq), "PBEM_NEEDS": needs,
           "PBEM_AS": name, **({"PBEM_SEAT": seat} if seat else {})}
    try:
        done = subprocess.run(command, shell=True, env=env, stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{folder}: the notify command failed: {exc}"
    if done.returncode != 0:
        return f"{folder}: the notify command exited with {done.returncode}"
    return None
