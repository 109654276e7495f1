"""Real mail servers on loopback for the mail tests.

* `Smtp`: aiosmtpd in a thread; what it accepts is delivered by a function
  of the test (by default into a maildir per recipient, as a local mail
  server does), and it may refuse every login.
* `Dovecot`: Debian's dovecot IMAP server, configured in a temporary folder
  with users in a passwd-file and TLS with a certificate made here, on a
  free loopback port. Skipped, with the reason, where dovecot is not
  installed (.ci/run installs it with apt).
* `CutProxy`: a TCP relay that drops the connection after a number of bytes
  from the server: a connection lost half way through a fetch.
"""

from __future__ import annotations

import datetime
import imaplib
import ipaddress
import mailbox
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def maildir(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    mailbox.Maildir(str(path), create=True)
    return path


def _refuse(server, session, envelope, mechanism, auth_data):
    from aiosmtpd.smtp import AuthResult

    return AuthResult(success=False, handled=False)


class Smtp:
    """aiosmtpd on 127.0.0.1 (plain SMTP, or with a login that always fails)."""

    def __init__(self, root: Path, deliver=None, refuse_login: bool = False) -> None:
        from aiosmtpd.controller import Controller
        self.root = root
        self.received: list[tuple[list[str], bytes]] = []
        outer = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                outer.received.append((list(envelope.rcpt_tos), envelope.content))
                for rcpt in envelope.rcpt_tos:
                    (deliver or outer.to_maildir)(rcpt, envelope.content)
                return "250 OK"

        kwargs = {}
        if refuse_login:
            kwargs = dict(auth_required=True, auth_require_tls=False,
                          authenticator=_refuse)
        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port, **kwargs)
        self.controller.start()

    def to_maildir(self, rcpt: str, content: bytes) -> None:
        mailbox.Maildir(str(maildir(self.root / rcpt)), create=False).add(content)

    def stop(self) -> None:
        self.controller.stop()


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    os.chmod(key_path, 0o600)
    return cert_path, key_path


_CONF = """\
protocols = imap
listen = 127.0.0.1
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
ssl = required
ssl_cert = <{d}/cert.pem
ssl_key = <{d}/key.pem
auth_mechanisms = plain
auth_failure_delay = 0
first_valid_uid = 1
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {login}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/passwd
}}
userdb {{
  driver = static
  args = uid={user} gid={group} home={d}/mail/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  chroot =
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    port = {port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""


class Dovecot:
    """dovecot serving IMAPS on 127.0.0.1 for users with password "secret"."""

    PASSWORD = "secret"

    def __init__(self, users: list[str]) -> None:
        exe = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)
        if exe is None:
            pytest.skip("dovecot is not installed (apt-get install dovecot-imapd): the IMAP tests are skipped")
        # its own folder outside pytest's (which only root may enter): when
        # run as root, dovecot works as its own system user
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        os.chmod(self.dir, 0o755)
        for sub in ("run", "state", "mail"):
            (self.dir / sub).mkdir()
        self.cert, _ = make_certificate(self.dir)
        (self.dir / "passwd").write_text("".join(f"{u}:{{PLAIN}}{self.PASSWORD}\n" for u in users))
        if os.geteuid() == 0:
            user, group, login = "dovecot", "dovecot", "dovenull"
            shutil.chown(self.dir / "mail", user, group)
        else:
            import grp
            import pwd

            user = login = pwd.getpwuid(os.geteuid()).pw_name
            group = grp.getgrgid(os.getegid()).gr_name
        self.port = free_port()
        conf = self.dir / "dovecot.conf"
        conf.write_text(_CONF.format(d=self.dir, user=user, group=group, login=login, port=self.port))
        self.proc = subprocess.Popen([exe, "-F", "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    out = self.proc.stdout.read().decode(errors="replace") if self.proc.poll() is not None else ""
                    log = (self.dir / "dovecot.log").read_text() if (self.dir / "dovecot.log").exists() else ""
                    self.stop()
                    pytest.skip(f"dovecot did not start: {out or log}"[:500])
                time.sleep(0.05)

    def connect(self, user: str) -> imaplib.IMAP4_SSL:
        c = imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ssl.create_default_context(cafile=str(self.cert)),
                              timeout=10)
        c.login(user, self.PASSWORD)
        return c

    def append(self, user: str, content: bytes, folder: str = "INBOX") -> None:
        c = self.connect(user)
        try:
            c.append(folder, None, None, content)
        finally:
            c.logout()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class CutProxy:
    """Relays 127.0.0.1:port to a server, and cuts every connection after
    `limit` bytes have come back from the server."""

    def __init__(self, target_port: int, limit: int) -> None:
        self.target, self.limit = target_port, limit
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pipe, args=(client, server, None), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, self.limit), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket, limit: int | None) -> None:
        passed = 0
        try:
            while True:
                data = src.recv(4096)
                if not data:
                    break
                if limit is not None and passed + len(data) > limit:
                    dst.sendall(data[: limit - passed])
                    break
                passed += len(data)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def stop(self) -> None:
        self.sock.close()
