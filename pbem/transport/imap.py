"""Mail in: messages read from an IMAP server over TLS, or from a local
maildir or mbox.

Reading never changes the mailbox: the folder is opened read-only
(EXAMINE) and bodies are fetched with ``BODY.PEEK[]``, so nothing is marked
read, moved or deleted; a message for another game or for another program
stays as it was. What was already taken in is remembered by the caller
(per game, by UID under the folder's UIDVALIDITY), which is what makes a
second fetch harmless and lets a fetch cut off half way pick up where it
stopped: `Imap.messages` yields each message as soon as it has arrived,
and the caller records it only once its files are applied.

Only messages that mention pbem are looked at (``SEARCH OR SUBJECT pbem
BODY pbem``: every armored block, every attachment named ``*.pbem`` and
every mail pbem sends matches), so a big inbox is not downloaded; of each,
at most one byte more than `MAX_TEXT_BYTES` is read (a partial fetch), so
a huge mail is named as too large rather than downloaded.
"""

from __future__ import annotations

import hashlib
import imaplib
import mailbox
import re
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.transport import MAX_TEXT_BYTES
from pbem.transport.mail import MailError, _why, tls_context


_UID = re.compile(rb"UID (\d+)")


@dataclass
class Incoming:
    """One message: a key that names it for good in its source, and its bytes."""

    key: str
    data: bytes


class Imap:
    """A read-only IMAP session (a context manager)."""

    def __init__(self, server, password: str | None) -> None:
        self.server = server
        self.password = password
        self.conn: imaplib.IMAP4 | None = None
        self.uidvalidity = ""

    @property
    def source(self) -> str:
        s = self.server
        return f"imap://{s.user or ''}@{s.host}:{s.port}/{s.folder}"

    def __enter__(self) -> Imap:
        s = self.server
        try:
            if s.security == "tls":
                conn = imaplib.IMAP4_SSL(s.host, s.port, ssl_context=tls_context(s.cafile), timeout=s.timeout)
            else:
                conn = imaplib.IMAP4(s.host, s.port, timeout=s.timeout)
                if s.security == "starttls":
                    conn.starttls(ssl_context=tls_context(s.cafile))
        except (imaplib.IMAP4.error, OSError) as exc:
            raise MailError(f"cannot reach {s.where}: {_why(exc)}") from None
        self.conn = conn
        try:
            conn.login(s.user or "", self.password or "")
        except imaplib.IMAP4.abort as exc:
            self._close()
            raise MailError(f"{s.where}: the connection was lost while logging in ({exc})") from None
        except imaplib.IMAP4.error as exc:
            self._close()
            raise MailError(f"{s.where} refused the login ({_text(exc)})",
                            hint=f"check user and password (pbem reads it from ${s.password_env}, "
                                 "the keyring or a prompt)") from None
        except OSError as exc:
            self._close()
            raise MailError(f"{s.where}: {_why(exc)}") from None
        try:
            typ, data = conn.select(_quote(s.folder), readonly=True)
            if typ != "OK":
                raise MailError(f"{s.where} has no folder {s.folder!r} ({_text(data)})")
            self.uidvalidity = _text(conn.response("UIDVALIDITY")[1])
        except (imaplib.IMAP4.error, OSError) as exc:
            self._close()
            raise MailError(f"{s.where}: cannot open {s.folder}: {_why(exc)}") from None
        return self

    def uids(self) -> list[str]:
        """The UIDs of the messages that mention pbem, oldest first."""
        try:
            typ, data = self.conn.uid("SEARCH", "OR", "SUBJECT", "pbem", "BODY", "pbem")
        except (imaplib.IMAP4.error, OSError) as exc:
            raise self._lost("searching", exc) from None
        if typ != "OK":
            raise MailError(f"{self.server.where} refused the search ({_text(data)})")
        return sorted({u for u in _text(data).split() if u.isdigit()}, key=int)

    BATCH = 16

    def messages(self, uids: list[str]) -> Iterator[Incoming]:
        """The messages of `uids`, a few per request (a lost connection
        raises `MailError` after the ones already yielded)."""
        for i in range(0, len(uids), self.BATCH):
            batch = uids[i:i + self.BATCH]
            try:
                # at most one byte past the limit of each: a larger mail is named, never downloaded whole
                typ, data = self.conn.uid("FETCH", ",".join(batch), f"(UID BODY.PEEK[]<0.{MAX_TEXT_BYTES + 1}>)")
            except (imaplib.IMAP4.error, OSError) as exc:
                raise self._lost(f"fetching message {batch[0]}", exc) from None
            if typ != "OK":
                raise MailError(f"{self.server.where} refused to hand out messages ({_text(data)})")
            for part in data or []:
                if not isinstance(part, tuple):
                    continue
                m = _UID.search(part[0])
                if m is not None and m.group(1).decode() in batch:  # else: deleted meanwhile
                    yield Incoming(f"{self.uidvalidity}:{m.group(1).decode()}", part[1])

    def _lost(self, doing: str, exc: BaseException) -> MailError:
        return MailError(f"the connection to {self.server.where} was lost while {doing} ({_why(exc)})",
                         hint="what arrived before was applied; run the fetch again to pick up the rest")

    def _close(self) -> None:
        try:
            self.conn.shutdown()
        except (OSError, imaplib.IMAP4.error, AttributeError):
            pass

    def __exit__(self, *exc) -> None:
        if self.conn is None:
            return
        try:
            self.conn.close()
            self.conn.logout()
        except (imaplib.IMAP4.error, OSError, ssl.SSLError, socket.timeout):
            self._close()


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(data) -> str:
    if isinstance(data, (list, tuple)):
        return " ".join(_text(d) for d in data if d is not None)
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return str(data)


class Local:
    """A maildir (a folder with cur/, new/ and tmp/) or an mbox file, read
    without changing it. A message is named by the hash of its bytes."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            if not (self.path / "cur").is_dir() or not (self.path / "new").is_dir():
                raise MailError(f"{self.path} is a folder but not a maildir (no cur/ and new/)")
            self.kind = "maildir"
        elif self.path.is_file():
            self.kind = "mbox"
        else:
            raise MailError(f"no maildir or mbox at {self.path}")

    @property
    def source(self) -> str:
        return f"{self.kind}:{self.path.absolute()}"

    def __enter__(self) -> Local:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def all(self) -> Iterator[Incoming]:
        try:
            if self.kind == "maildir":
                box = mailbox.Maildir(str(self.path), factory=None, create=False)
                keys = sorted(box.keys())
                for key in keys:
                    try:
                        data = _head(box, key)
                    except KeyError:
                        continue  # taken away meanwhile
                    yield Incoming(_digest(data), data)
            else:
                box = mailbox.mbox(str(self.path), create=False)
                try:
                    for key in box.keys():
                        data = _head(box, key)
                        yield Incoming(_digest(data), data)
                finally:
                    box.close()
        except OSError as exc:
            raise MailError(f"cannot read {self.path}: {exc.strerror or exc}") from None


def _head(box: mailbox.Mailbox, key: str) -> bytes:
    """A message's bytes, at most one past `MAX_TEXT_BYTES` (a larger one
    is named as such by the reader, never read whole)."""
    with box.get_file(key) as fh:
        return fh.read(MAX_TEXT_BYTES + 1)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]
