"""`pbem agent`: a real agent process, started and stopped by the CLI; a
passphrase asked once, then keys taken from the agent until they expire."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import Pbem
from pbem.home.agent import Client, socket_path
from pbem.home.store import KeyStore


def pbem_cmd(home: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "PBEM_HOME": str(home), **(env or {})}, stdin=subprocess.DEVNULL,
                          timeout=60)


@pytest.fixture
def locked(tmp_path, monkeypatch):
    """alice and bob with passphrases, in a hotseat game; no XDG_RUNTIME_DIR
    (the socket goes under $PBEM_HOME)."""
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    home = tmp_path / "h"
    store = KeyStore(home)
    for n in ("alice", "bob"):
        store.create(n, "pass-" + n)
    run = Pbem(home)
    g = tmp_path / "g"
    run("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1")
    yield home, run, g
    Client(home).stop()


def test_passphrase_asked_once(locked):
    home, run, g = locked
    assert "a passphrase is needed" in run.fails("legal", g, "--as", "alice").stderr
    r = pbem_cmd(home, "agent", "--timeout", "10m")
    assert r.returncode == 0 and "agent started" in r.stdout, r.stderr
    path = socket_path(home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_ISSOCK(path.stat().st_mode)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "already runs" in pbem_cmd(home, "agent").stderr
    # the first command asks (here: the variable), and hands the key to the agent
    run("legal", g, "--as", "alice", env={"PBEM_PASSPHRASE": "pass-alice"})
    cmds = run.json("legal", g, "--as", "alice")  # no passphrase now: from the agent
    run("submit", g, "--as", "alice", "--cmd", next(c for c in cmds if c.startswith("play ")))
    listed = run("agent", "list").stdout
    assert "alice" in listed and "bob" not in listed
    assert "a passphrase is needed" in run.fails("legal", g, "--as", "bob").stderr  # only what was unlocked
    # a wrong passphrase is never cached
    run.fails("legal", g, "--as", "bob", env={"PBEM_PASSPHRASE": "wrong"})
    assert "bob" not in run("agent", "list").stdout
    run("agent", "forget", "alice")
    assert "a passphrase is needed" in run.fails("legal", g, "--as", "alice").stderr
    run("agent", "add", "alice", env={"PBEM_PASSPHRASE": "pass-alice"})
    run("legal", g, "--as", "alice")
    assert "agent stopped" in pbem_cmd(home, "agent", "stop").stdout
    assert not path.exists()
    assert "a passphrase is needed" in run.fails("legal", g, "--as", "alice").stderr
    assert "no agent was running" in run("agent", "stop").stdout


def test_keys_expire(locked):
    home, run, g = locked
    assert pbem_cmd(home, "agent", "--timeout", "1s").returncode == 0
    run("legal", g, "--as", "alice", env={"PBEM_PASSPHRASE": "pass-alice"})
    run("legal", g, "--as", "alice")
    time.sleep(1.3)
    assert "holds no key" in run("agent", "list").stdout
    assert "a passphrase is needed" in run.fails("legal", g, "--as", "alice").stderr


def test_the_agent_hands_a_key_only_to_its_name_and_public_key(locked):
    home, run, g = locked
    assert pbem_cmd(home, "agent").returncode == 0
    run("legal", g, "--as", "alice", env={"PBEM_PASSPHRASE": "pass-alice"})
    client = Client(home)
    alice = KeyStore(home).public("alice")
    assert client.get("alice", alice.sign) is not None
    assert client.get("alice", KeyStore(home).public("bob").sign) is None  # another key under the name
    assert client.get("bob", alice.sign) is None


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to act as another user")
def test_another_user_cannot_reach_the_agent(locked):
    home, run, g = locked
    assert pbem_cmd(home, "agent").returncode == 0
    path = socket_path(home)
    code = (
        "import os, socket, sys\n"
        "os.setgid(65534); os.setuid(65534)\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "try:\n    s.connect(sys.argv[1])\nexcept PermissionError:\n    sys.exit(3)\n"
        "sys.exit(0)\n"
    )
    os.chmod(home, 0o755)  # the store's own folder is open; the agent's is not
    r = subprocess.run([sys.executable, "-c", code, str(path)], timeout=30)
    assert r.returncode == 3


# --- a socket the agent did not make -----------------------------------------------------------

#: a stranger's listener at the agent's socket path: it writes down every
#: request line it receives (a key handed to `add` among them) and answers ok
LISTENER = r"""
import os, socket, sys
path, log, how = sys.argv[1], sys.argv[2], sys.argv[3]
def drop():
    os.setgid(65534); os.setuid(65534)
if how == "stranger":  # another user makes the folder (open to all) and the socket
    drop()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.chmod(os.path.dirname(path), 0o777)
s = socket.socket(socket.AF_UNIX)
s.bind(path)
os.chmod(path, 0o777)
if how == "listens-as-stranger":  # the socket is the user's, the process behind it is not
    drop()
s.listen(8)
print("ready", flush=True)
while True:
    conn, _ = s.accept()
    with conn:
        try:
            line = conn.makefile("rb").readline()
            with open(log, "ab") as fh:
                fh.write(line)
            conn.sendall(b'{"ok": true}\n')
        except OSError:  # the client hung up first
            pass
"""


@pytest.fixture
def runtime(monkeypatch):
    """An $XDG_RUNTIME_DIR that others may write (mode 1777, like /tmp), in
    a short folder everyone may enter (another user's process must reach it)."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="pbem-rt-"))
    os.chmod(base, 0o755)
    run = base / "run"
    run.mkdir()
    os.chmod(run, 0o1777)
    log = base / "received"
    log.touch()
    os.chmod(log, 0o666)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    procs = []
    yield base, log, procs
    for p in procs:
        p.kill()
        p.wait(10)
    shutil.rmtree(base, ignore_errors=True)


def listen(procs: list, path: Path, log: Path, how: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", LISTENER, str(path), str(log), how], stdout=subprocess.PIPE,
                            text=True)
    procs.append(proc)
    assert proc.stdout.readline().strip() == "ready"


def victim(base: Path) -> tuple[Path, Path]:
    home = base / "h"
    KeyStore(home).create("alice", "pass-alice")
    KeyStore(home).create("bob", None)
    run = Pbem(home)
    g = base / "g"
    run("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1")
    return home, g


def refused_and_nothing_sent(home: Path, g: Path, log: Path, why: str) -> None:
    """A real `pbem legal` that unlocks alice's key: it stops, says why, and
    the listener has received nothing."""
    r = pbem_cmd(home, "legal", g, "--as", "alice", env={"PBEM_PASSPHRASE": "pass-alice"})
    assert log.read_bytes() == b""  # not even a request, let alone the key
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "is not trusted" in r.stderr and why in r.stderr and "sends it nothing" in r.stderr, r.stderr
    assert "is not trusted" in pbem_cmd(home, "agent", "list").stderr


def test_the_client_refuses_a_socket_in_a_folder_others_may_write(runtime):
    """The user's own listener, but in a folder open to all: anyone could
    have put it there, so nothing is sent to it (no root needed)."""
    base, log, procs = runtime
    home, g = victim(base)
    path = socket_path(home)
    path.parent.mkdir()
    os.chmod(path.parent, 0o777)
    listen(procs, path, log, "mine")
    refused_and_nothing_sent(home, g, log, "is open to others (mode 0777)")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to act as another user")
def test_the_client_refuses_a_socket_another_user_made_first(runtime):
    """Another local user creates the agent's folder and socket before the
    user's first command: the key it unlocks must not reach them."""
    base, log, procs = runtime
    home, g = victim(base)
    listen(procs, socket_path(home), log, "stranger")
    refused_and_nothing_sent(home, g, log, "belongs to another user (uid 65534)")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to act as another user")
def test_the_client_refuses_a_listener_of_another_user(runtime):
    """The folder and the socket file are the user's own, but the process
    listening on it is another user's: the peer's uid gives it away."""
    base, log, procs = runtime
    home, g = victim(base)
    path = socket_path(home)
    path.parent.mkdir(mode=0o700)
    listen(procs, path, log, "listens-as-stranger")
    refused_and_nothing_sent(home, g, log, "runs as another user (uid 65534)")
