"""Mails a stranger can send to make a mail reader crash or hang (issue
#20): MIME nested thousands deep, a From header the standard library's
address parser recurses on, texts that made the armor reader quadratic,
and a mail larger than pbem reads."""

from __future__ import annotations

from pbem.transport import armor


def nested(depth: int = 2000, sender: str = "mallory@example.org", subject: str = "[pbem] hello") -> bytes:
    """A multipart inside a multipart ... `depth` deep (2,000: about 133 KB)."""
    head = f"From: {sender}\nTo: someone@example.org\nSubject: {subject}\nMIME-Version: 1.0\n".encode()
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(depth))
    closing = b"".join(b"--b%d--\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\n\npbem\n" + closing


def parenthesised_sender(count: int = 20000) -> bytes:
    """A From header of `count` opening parentheses (a comment nested that
    deep), and a block cut short in its text (so that it is reported)."""
    return b"From: " + b"(" * count + b"\nSubject: [pbem] hi\n\n" + armor.BEGIN.encode() + b"\n"


def unclosed_begins(size: int = 512 << 10) -> str:
    """`size` bytes of BEGIN lines, none closed."""
    line = armor.BEGIN + "\n"
    return line * (size // len(line))


def html_of_lt(count: int = 200_000) -> bytes:
    """A mail whose HTML part is `count` characters ``<`` and no ``>``."""
    return b"From: mallory@example.org\nSubject: [pbem] x\nContent-Type: text/html\n\n" + b"<" * count


def huge(size: int, sender: str = "huge@example.org") -> bytes:
    """A plain mail of about `size` bytes that mentions pbem."""
    line = b"pbem " * 15 + b"\n"
    return f"From: {sender}\nSubject: [pbem] big\n\n".encode() + line * (size // len(line) + 1)
