"""Named pipes (and other files that are not regular files) in a game
folder: what a player who shares the folder can put there must never hang
pbem, and one folder's trouble must not stop a watcher's other folders.
Real `pbem` processes throughout: a hang shows as a timeout, and a watcher
is stopped with real signals."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import introduced
from pbem.app import creating, writing
from pbem.gamedir.lock import LOCK

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")

#: far more than any of these commands needs; a command that opens a pipe never returns
HANG = 30


def pbem(home: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "PBEM_HOME": str(home), "PBEM_LOCK_TIMEOUT": "15"},
                          stdin=subprocess.DEVNULL, timeout=HANG)


def refused(r: subprocess.CompletedProcess, name: str) -> None:
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) <= 2, r.stderr
    assert name in r.stderr and "not a regular file" in r.stderr, r.stderr


def referee_game(base: Path, name: str, keys, deal: bool = True) -> Path:
    """alice and bob joined in place; rita has dealt (or, not `deal`, owes the deal)."""
    folder = base / name
    creating.new_game("agent-avenue", folder, ["alice", "bob"], keys["rita"], dealer="referee", referee="rita")
    for who in ("alice", "bob", "rita") if deal else ("alice", "bob"):
        writing.sync(folder, who, keys[who])
    return folder


@pytest.fixture
def people(tmp_path):
    return introduced(tmp_path, ["alice", "bob", "rita"])


def test_no_command_opens_a_named_pipe(tmp_path, people):
    g = referee_game(tmp_path, "g", people)
    home = tmp_path / "home-alice"
    pipe = g / "000000-genesis (1).pbem"  # a conflict copy's name: read with the genesis
    os.mkfifo(pipe)
    for cmd in (["status", g], ["verify", g], ["sync", g, "--as", "alice"]):
        refused(pbem(home, *cmd), pipe.name)
    pipe.unlink()
    os.mkfifo(pipe := g / "000004-alice.pbem")  # where the next file goes
    refused(pbem(home, "show", g, "--as", "alice"), pipe.name)
    pipe.unlink()
    (g / "state.pbem").unlink()
    os.mkfifo(g / "state.pbem")  # only a cache: rebuilt in its place
    r = pbem(home, "verify", g)
    assert r.returncode == 0 and (g / "state.pbem").is_file(), r.stderr
    (g / LOCK).unlink(missing_ok=True)
    os.mkfifo(g / LOCK)
    r = pbem(home, "sync", g, "--as", "alice")
    assert r.returncode == 1 and "cannot lock" in r.stderr and "not a regular file" in r.stderr, r.stderr
    (g / LOCK).unlink()
    # a pipe named on the command line is refused too (standard input, '-', is how to pipe a text in)
    os.mkfifo(tmp_path / "mail.eml")
    refused(pbem(home, "apply", g, tmp_path / "mail.eml"), "mail.eml")
    refused(pbem(home, "dearmor", tmp_path / "mail.eml"), "mail.eml")


def test_a_hotseat_dealer_key_that_is_a_pipe(tmp_path, people):
    g = tmp_path / "h"
    creating.new_game("agent-avenue", g, ["alice", "bob"], people["alice"], dealer="hotseat")
    (g / "dealer.key").unlink()
    os.mkfifo(g / "dealer.key")
    refused(pbem(tmp_path / "home-alice", "verify", g), "dealer.key")


# --- watchers ------------------------------------------------------------------------------------


def start(home: Path, log: Path, *args) -> subprocess.Popen:
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_WATCH_SETTLE": "0.05"}
    return subprocess.Popen([sys.executable, "-m", "pbem", *map(str, args)], env=env, stdin=subprocess.DEVNULL,
                            stdout=open(log, "a"), stderr=subprocess.STDOUT, text=True)


def wait_for(proc: subprocess.Popen, log: Path, *texts: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not all(t in log.read_text() for t in texts):
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)


def stopped_by(proc: subprocess.Popen, log: Path, sig: int, within: float = 5) -> None:
    """`sig` ends the watcher within `within` seconds, cleanly."""
    t = time.monotonic()
    proc.send_signal(sig)
    try:
        code = proc.wait(within)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        raise AssertionError(f"still running {within} s after {signal.Signals(sig).name}: {log.read_text()}") from None
    assert code == 0 and time.monotonic() - t < within, log.read_text()
    text = log.read_text()
    assert "stopped watching" in text and "Traceback" not in text, text


def test_the_referee_goes_on_past_a_pipe_and_stops_on_sigterm(tmp_path, people):
    """Game a (looked at first) holds a player's named pipe; game b waits
    for the referee's deal: b is dealt, a's trouble is told, and SIGTERM
    ends the daemon at once."""
    tree = tmp_path / "tree"
    a = referee_game(tree, "a", people)
    b = referee_game(tree, "b", people, deal=False)
    os.mkfifo(a / "000000-genesis (1).pbem")
    log = tmp_path / "rita.log"
    proc = start(tmp_path / "home-rita", log, "referee", "watch", tree, "--as", "rita")
    try:
        wait_for(proc, log, f"{b}: wrote 000003-rita.pbem", "is a named pipe (FIFO)")
    finally:
        stopped_by(proc, log, signal.SIGTERM)


def test_a_watch_stops_on_sigint_beside_a_pipe(tmp_path, people):
    g = referee_game(tmp_path, "g", people)
    os.mkfifo(g / "000004-alice.pbem")
    log = tmp_path / "alice.log"
    proc = start(tmp_path / "home-alice", log, "watch", g, "--as", "alice")
    try:
        wait_for(proc, log, "is a named pipe (FIFO)")
    finally:
        stopped_by(proc, log, signal.SIGINT)


def test_a_watcher_waiting_for_a_folder_lock_stops_on_sigterm(tmp_path, people):
    """Whoever holds a folder's lock (here: this test, for good) delays the
    referee's answer, not its stop."""
    g = referee_game(tmp_path, "g", people, deal=False)
    fd = os.open(g / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    log = tmp_path / "rita.log"
    try:
        proc = start(tmp_path / "home-rita", log, "watch", g, "--as", "rita")
        wait_for(proc, log, "watching")
        time.sleep(1.5)  # settled, read, and now waiting for the lock (15 s)
        stopped_by(proc, log, signal.SIGTERM, within=3)
    finally:
        os.close(fd)
    assert not (g / "000003-rita.pbem").exists()


def test_one_folders_trouble_never_stops_the_others(tmp_path, people, monkeypatch):
    """Whatever goes wrong in one folder (here: it cannot be listed) is
    told once and counted; the other folders are served all the same."""
    from pbem.gamedir import folder as folder_mod
    from pbem.app.watching import Watch

    tree = tmp_path / "tree"
    a = referee_game(tree, "a", people)
    b = referee_game(tree, "b", people, deal=False)
    real = folder_mod.chain_files

    def listing(folder):
        if Path(folder) == a:
            raise PermissionError(13, "Permission denied", str(folder))
        return real(folder)

    monkeypatch.setattr(folder_mod, "chain_files", listing)
    said: list[str] = []
    watch = Watch(tree, "rita", people["rita"], said.append, tree=True, settle=0.01)
    assert watch.run(once=True) == 1
    assert (b / "000003-rita.pbem").exists()
    assert [line for line in said if line.startswith(str(a))] == [f"{a}: Permission denied ({a})"]
