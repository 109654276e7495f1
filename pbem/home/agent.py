"""`pbem agent`: unlocked keys kept in memory for a while, so a passphrase
is asked once, not at every command (like ssh-agent).

The agent is a small process listening on a unix socket that only its
user can reach: the socket is 0600 in a 0700 folder of the user's own
(``$XDG_RUNTIME_DIR/pbem/``, else ``$PBEM_HOME/agent/``), and on Linux each
connection's peer is checked to be the same user (SO_PEERCRED). The client
checks the same of the agent before it sends anything (`Client`). One JSON
line asks, one JSON line answers:

* ``add`` a key a command has just unlocked (kept `timeout` seconds from
  then, 15 minutes unless ``pbem agent --timeout`` or ``[agent] timeout``
  says otherwise); ``get`` it back (only if the name and the public signing
  key both match); ``list``; ``forget`` one; ``stop``.

The choice, and its risk (docs/security.md): the agent **hands the key
bytes back** to a pbem command of the same user, rather than signing on
request. pbem's writers need the private keys themselves, not only
signatures: opening sealed zones (X25519) and the peer mode's card
decryptions happen deep in the protocol code. The risk is that any
process of that user can take the key out of the agent while it holds it,
and keep it; a signing agent would only let it sign while running. But a
process running as the user can already read the user's memory (ptrace,
/proc) and log keystrokes, so the line that matters is the user account,
which the socket's permissions hold. Keys never touch the disk, expire,
and `pbem agent stop` drops them all.

`AgentKeyStore` is the key store the CLI uses: it asks the agent before
unlocking a key file, and gives the agent each key it had to unlock with
a passphrase (when an agent runs).
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
import sys
import time
from pathlib import Path

from pbem.home.store import KeyStore
from pbem.errors import PbemError

DEFAULT_TIMEOUT = 15 * 60
_MAX_LINE = 1 << 16


class AgentError(PbemError):
    """The agent cannot be started, reached or trusted."""


# --- where -------------------------------------------------------------------------------


def socket_path(home: Path) -> Path:
    """The agent's socket for the key store `home` (one agent per store)."""
    home = Path(home).absolute()
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        tag = hashlib.sha256(str(home).encode()).hexdigest()[:12]
        path = Path(runtime) / "pbem" / f"agent-{tag}.sock"
    else:
        path = home / "agent" / "agent.sock"
    if len(os.fsencode(str(path))) > 100:  # sun_path holds about 107 bytes
        raise AgentError(f"the agent's socket path is too long for a unix socket: {path}",
                         hint="use a shorter PBEM_HOME, or set XDG_RUNTIME_DIR")
    return path


def _own_folder(folder: Path) -> None:
    """Make `folder` 0700 and check nobody else may enter it."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(folder)
        if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid():  # ours: closed to others now
            os.chmod(folder, 0o700)
        problem = _folder_problem(os.lstat(folder))
    except OSError as exc:
        raise AgentError(f"cannot make the agent's folder {folder}: {exc.strerror}") from None
    if problem:
        raise AgentError(f"{folder} {problem}: the agent will not use it")


def _folder_problem(st: os.stat_result) -> str | None:
    """Why a folder (its `lstat`) may not hold the agent's socket: it must be
    a real folder (not a symbolic link), the user's own, closed to others."""
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder (a symbolic link or a file)"
    if st.st_uid != os.getuid():
        return f"belongs to another user (uid {st.st_uid})"
    if stat.S_IMODE(st.st_mode) & 0o077:
        return f"is open to others (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


# --- the server ----------------------------------------------------------------------------


def serve(path: Path, timeout: float) -> None:
    """Run the agent on `path` until asked to stop (the agent process)."""
    import json
    import socket
    _own_folder(path.parent)
    if path.exists() or path.is_symlink():
        path.unlink()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        server.bind(str(path))
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    server.listen(8)
    server.settimeout(1.0)
    keys: dict[str, tuple[str, bytes, float]] = {}  # name -> (public sign key, 64 key bytes, expiry)
    try:
        while True:
            try:
                conn, _ = server.accept()
            except socket.timeout:
                conn = None
            now = time.monotonic()  # expired keys go first, before any answer
            for name in [n for n, (_, _, until) in keys.items() if until <= now]:
                del keys[name]
            if conn is None:
                continue
            with conn:
                conn.settimeout(5)
                if not _same_user(conn):
                    continue
                try:
                    request = json.loads(_read_line(conn))
                    answer, stop = _handle(request, keys, timeout)
                except (ValueError, OSError, KeyError, TypeError):
                    answer, stop = {"ok": False, "error": "bad request"}, False
                try:
                    conn.sendall(json.dumps(answer).encode() + b"\n")
                except OSError:
                    pass
                if stop:
                    return
    finally:
        keys.clear()
        server.close()
        try:
            path.unlink()
        except OSError:
            pass


def _same_user(conn) -> bool:
    uid = _peer_uid(conn)
    return uid is None or uid == os.getuid()  # None: elsewhere the socket's permissions are the check


def _peer_uid(conn) -> int | None:
    """The user id of the process at the other end (Linux: SO_PEERCRED)."""
    import socket
    import struct

    opt = getattr(socket, "SO_PEERCRED", None)
    if opt is None:
        return None
    creds = conn.getsockopt(socket.SOL_SOCKET, opt, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid


def _read_line(conn) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
        if len(data) > _MAX_LINE:
            raise ValueError("too long")
    return data


def _handle(req: dict, keys: dict, timeout: float) -> tuple[dict, bool]:
    op = req.get("op")
    now = time.monotonic()
    if op == "get":
        held = keys.get(req["name"])
        if held is None or held[0] != req["public"]:
            return {"ok": False}, False
        return {"ok": True, "keys": base64.b64encode(held[1]).decode()}, False
    if op == "add":
        raw = base64.b64decode(req["keys"], validate=True)
        if len(raw) != 64:
            return {"ok": False, "error": "a key is 64 bytes"}, False
        keys[req["name"]] = (str(req["public"]), raw, now + timeout)
        return {"ok": True, "left": int(timeout)}, False
    if op == "list":
        return {"ok": True, "keys": [{"name": n, "left": int(until - now)}
                                     for n, (_, _, until) in sorted(keys.items())]}, False
    if op == "forget":
        return {"ok": keys.pop(req["name"], None) is not None}, False
    if op == "stop":
        return {"ok": True}, True
    return {"ok": False, "error": f"unknown request {op!r}"}, False


# --- the client ------------------------------------------------------------------------------


class Client:
    """Talks to the agent of a key store; every method returns None (or
    False) when no agent answers, so a command simply goes on without it.

    A socket is trusted as the agent's only when it lies in a folder of the
    user's own that nobody else may enter, is the user's own, and the
    process listening on it runs as the user (checked once connected, where
    the system tells): otherwise another local user who made the socket
    (say, in an ``$XDG_RUNTIME_DIR`` others can write) would be handed
    every key this command unlocks. Such a socket raises `AgentError`, so
    the command stops and says so, rather than quietly going on."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.path = socket_path(self.home)

    def ask(self, request: dict) -> dict | None:
        if not self._socket_is_there():
            return None
        import json
        import socket  # only when there is an agent to talk to (start-up time)

        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(5)
                s.connect(str(self.path))
                uid = _peer_uid(s)
                if uid is not None and uid != os.getuid():
                    raise self._untrusted(f"the process listening on it runs as another user (uid {uid})")
                s.sendall(json.dumps(request).encode() + b"\n")
                answer = json.loads(_read_line(s))
        except (OSError, ValueError):
            return None
        return answer if isinstance(answer, dict) else None

    def _socket_is_there(self) -> bool:
        """Whether a socket waits at `path` (False: no agent runs), checked
        before anything is sent to it."""
        try:
            folder = os.lstat(self.path.parent)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise self._untrusted(f"its folder cannot be looked at ({exc.strerror})") from None
        problem = _folder_problem(folder)
        if problem is not None:
            raise self._untrusted(f"its folder {problem}")
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return False
        if not stat.S_ISSOCK(st.st_mode):
            raise self._untrusted("it is not a socket")
        if st.st_uid != os.getuid():
            raise self._untrusted(f"it belongs to another user (uid {st.st_uid})")
        return True

    def _untrusted(self, why: str) -> AgentError:
        return AgentError(
            f"the agent's socket {self.path} is not trusted: {why}; pbem sends it nothing",
            hint="remove it; the agent's socket must be in a 0700 folder of your own "
                 "(unset XDG_RUNTIME_DIR, or point it at such a folder)")

    def running(self) -> bool:
        return self.ask({"op": "list"}) is not None

    def get(self, name: str, public_sign: str) -> bytes | None:
        answer = self.ask({"op": "get", "name": name, "public": public_sign})
        if not answer or not answer.get("ok"):
            return None
        try:
            return base64.b64decode(answer["keys"], validate=True)
        except (KeyError, ValueError, TypeError):
            return None

    def add(self, secret) -> bool:
        answer = self.ask({"op": "add", "name": secret.name, "public": secret.public.sign,
                           "keys": base64.b64encode(secret.private_bytes()).decode()})
        return bool(answer and answer.get("ok"))

    def list(self) -> list[dict] | None:
        answer = self.ask({"op": "list"})
        return None if answer is None else list(answer.get("keys", []))

    def forget(self, name: str) -> bool:
        answer = self.ask({"op": "forget", "name": name})
        return bool(answer and answer.get("ok"))

    def stop(self) -> bool:
        return self.ask({"op": "stop"}) is not None


def start(home: Path, timeout: float) -> tuple[Path, int]:
    """Start an agent for `home` in the background; its socket and pid."""
    import subprocess
    client = Client(home)
    if client.running():
        raise AgentError(f"an agent already runs for {home} ({client.path})", hint="pbem agent stop ends it")
    _own_folder(client.path.parent)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbem.home.agent", str(client.path), str(timeout)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, close_fds=True,
    )
    deadline = time.monotonic() + 10
    while not client.running():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AgentError(f"the agent did not start (socket {client.path})")
        time.sleep(0.02)
    return client.path, proc.pid


# --- the key store that asks the agent first ------------------------------------------------------


class AgentKeyStore(KeyStore):
    """A `KeyStore` whose `secret` asks the agent first and hands the agent
    each key unlocked with a passphrase (only when an agent runs)."""

    def secret(self, name, passphrase):
        from pbem.crypto.encoding import decode_file
        from pbem.crypto.keys import SecretIdentity, SecretKeyFile

        data = self._read(self.key_path(name))
        try:
            f = decode_file(data, SecretKeyFile, "secret-key") if data is not None else None
        except PbemError:
            f = None  # the store says what is wrong with it
        if f is None or f.protection == "none":
            return super().secret(name, passphrase)
        try:
            client = Client(self.home)
        except AgentError:
            return super().secret(name, passphrase)
        raw = client.get(name, f.public.sign)
        if raw is not None and len(raw) == 64:
            try:
                secret = SecretIdentity.from_private_bytes(name, raw[:32], raw[32:])
            except PbemError:
                secret = None
            if secret is not None and secret.public == f.public:
                return secret
        secret = super().secret(name, passphrase)
        client.add(secret)
        return secret


if __name__ == "__main__":  # the agent process: python -m pbem.home.agent SOCKET TIMEOUT
    serve(Path(sys.argv[1]), float(sys.argv[2]))
