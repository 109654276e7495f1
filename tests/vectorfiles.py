"""The text format of the known-answer vectors under tests/vectors/:
``expect: ...`` and ``comment: ...`` header lines, a blank line, then one
JSON object. Shared by the vector tests and their (run-once) generators."""

from __future__ import annotations

from pathlib import Path

import msgspec


def parse(text: str) -> tuple[dict[str, str], dict]:
    head, sep, body = text.partition("\n\n")
    if not sep:
        raise ValueError("a vector needs a header, a blank line and a JSON object")
    return dict(line.split(": ", 1) for line in head.splitlines()), msgspec.json.decode(body.encode())


def write(folder: Path, name: str, expect: str, comment: str, obj: dict) -> None:
    """Write a vector once: an existing one is kept (vectors are stable)."""
    path = folder / f"{name}.txt"
    if path.exists():
        print(f"kept {path}")
        return
    body = msgspec.json.encode(obj).decode()
    path.write_text(f"expect: {expect}\ncomment: {comment}\n\n{body}\n", encoding="utf-8")
    print(f"wrote {path}")
