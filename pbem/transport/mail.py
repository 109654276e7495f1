"""Mail out: pbem files as a message, sent over SMTP.

A message carries each file twice: as an attachment (what a mail client
saves and `pbem apply` reads) and as an armored block in the text (what
survives a client that strips attachments or a player who pastes it on).
The receiving side takes both and counts the file once
(`pbem.app.delivery.distinct`).

SMTP goes over TLS: implicit (``security = "tls"``, port 465) or STARTTLS
(port 587, refused if the server does not offer it). Plain SMTP is only
accepted for a server on this machine (`pbem.home.config`), which the tests use.
Every failure of the network or of the server becomes a `MailError` in one
line that names the server.
"""

from __future__ import annotations

import smtplib
import socket
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from pbem.errors import PbemError


class MailError(PbemError):
    """A mail server could not be reached, refused the login, or failed on the way."""


def tls_context(cafile=None) -> ssl.SSLContext:
    """Certificates checked against the system's authorities (or `cafile`,
    for a server with a certificate of its own)."""
    try:
        return ssl.create_default_context(cafile=str(cafile) if cafile else None)
    except (OSError, ssl.SSLError) as exc:
        raise MailError(f"cannot read the certificate file {cafile}: {exc}") from None


def message(sender: str, to: str, subject: str, text: str, files: list[tuple[str, bytes]]) -> EmailMessage:
    """One mail: `text` as its body, each (name, bytes) attached."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    msg["X-Pbem"] = "1"
    msg.set_content(text)
    for name, data in files:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg


class Smtp:
    """One SMTP session (a context manager), logged in when a user is given."""

    def __init__(self, server, password: str | None) -> None:
        self.server = server
        self.password = password
        self.conn: smtplib.SMTP | None = None

    def __enter__(self) -> Smtp:
        s = self.server
        try:
            if s.security == "tls":
                conn = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=tls_context(s.cafile))
            else:
                conn = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
                if s.security == "starttls":
                    conn.ehlo()
                    if not conn.has_extn("starttls"):
                        conn.close()
                        raise MailError(f"{s.where} does not offer STARTTLS: nothing was sent",
                                        hint="use security = \"tls\" (port 465) if the server speaks TLS from the start")
                    conn.starttls(context=tls_context(s.cafile))
                    conn.ehlo()
            if s.user:
                conn.login(s.user, self.password or "")
        except smtplib.SMTPAuthenticationError as exc:
            raise MailError(f"{s.where} refused the login ({_reply(exc)})",
                            hint="check user and password (pbem reads it from "
                                 f"${s.password_env}, the keyring or a prompt)") from None
        except smtplib.SMTPNotSupportedError:
            raise MailError(f"{s.where} does not accept a login here", hint="check security and port") from None
        except (smtplib.SMTPException, OSError) as exc:
            raise MailError(f"cannot send through {s.where}: {_why(exc)}") from None
        self.conn = conn
        return self

    def send(self, msg: EmailMessage) -> None:
        try:
            self.conn.send_message(msg)
        except smtplib.SMTPRecipientsRefused as exc:
            raise MailError(f"{self.server.where} refused the address {', '.join(exc.recipients)}") from None
        except (smtplib.SMTPException, OSError) as exc:
            raise MailError(f"sending to {msg['To']} through {self.server.where} failed: {_why(exc)}") from None

    def __exit__(self, *exc) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (smtplib.SMTPException, OSError):
                self.conn.close()


def _reply(exc: smtplib.SMTPResponseException) -> str:
    text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
    return f"{exc.smtp_code} {text}".strip()


def _why(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        return _reply(exc)
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"its certificate is not trusted ({exc.verify_message}); set cafile if it has its own"
    if isinstance(exc, socket.timeout):
        return "no answer in time"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (nothing listens there)"
    if isinstance(exc, socket.gaierror):
        return "unknown host"
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
