"""`pbem status` answered from memory when nothing it depends on changed
(issue #26: `status` at the cost of starting Python and its libraries).

`pbem status` runs at every turn, often from a prompt or a script, and on
an unchanged game it prints what it printed last time. Computing it needs
the chain (unpickled from the checkpoint, its files hashed), the game's
rules and the address book checked with `cryptography`: twice the import
floor. So a full `status` that ends cleanly writes what it printed (its
text, and the status as data for ``--json`` and `pbem status --all`)
beside the user's checkpoint, sealed under the user's own checkpoint key
(`pbem.home.checkpoint_seal`, so nobody else can plant words in it; with
keyed BLAKE2b rather than the checkpoint's HMAC-SHA256, since loading
OpenSSL would cost a fifth of the floor), with what its words depend on:

* the folder's chain files: every name that may be one (a conflict copy
  or a fork's second file included) and the `lstat` of each
  (device, inode, size, modification and change time), taken before and
  after the full status read them, and kept only when both are the same;
* the address book (the files of ``keys/`` and ``ids/``), likewise, since
  the words depend on the pin check passing without a warning;
* pbem's code (`checkpoint_seal.pbem_code`).

The next `status` prints those words only when every one of them is
exactly as it was. A file changed in any way has another `lstat`: editing
it in place moves its change time, which no program can set back;
replacing it changes its inode. As `file_memory` does, a file whose times
are within `SETTLED_NS` of the moment it was looked at is not trusted (a
coarse clock could give an edit within the same tick the same times): its
status is computed in full, and remembered again.

Nothing is remembered when the words could change with no file changing:
a game with a clock (its lines count down), a status that warned (an
unknown key: the warning must be said again), or any error.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from pbem.home.checkpoint_seal import authentic, named, pbem_code, sealed_write
from pbem.home.where import default_home

MAGIC = b"pbem-status/1\n"  # then the memo, `marshal`led: authenticated, and read by the Python that wrote it
#: a file is trusted only when both its times are this much older than the look
SETTLED_NS = 1_000_000_000
_BOOK = (("keys", ".key"), ("ids", ".id"), ("ids", ".seen"))

Stats = dict[str, list[int]]


def path_for(folder: Path) -> Path:
    """Where the words of `folder`'s last full status are kept (one per folder)."""
    return named(os.path.abspath(folder), ".status")


def _chain_file(name: str) -> bool:
    """Every name `pbem.gamedir.names.TURN` matches, and a few more (any
    ``NNNNNN....pbem``): a change to any of them is a change."""
    return name.endswith(".pbem") and name[:6].isdigit()


def _stats(folder: str, names: list[str]) -> Stats:
    out: Stats = {}
    for name in names:
        try:
            st = os.lstat(os.path.join(folder, name))
        except OSError:
            out[name] = []
            continue
        out[name] = [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
    return out


def _listing(folder: str, keep: Any) -> list[str]:
    try:
        return sorted(n for n in os.listdir(folder) if keep(n))
    except OSError:
        return []


def snapshot(folder: Path) -> dict[str, Any]:
    """What a status of `folder` depends on, as files: their names and `lstat`s."""
    where = os.path.abspath(folder)
    book_home = default_home()
    book: Stats = {}
    for sub, suffix in _BOOK:
        d = os.path.join(book_home, sub)
        for name, st in _stats(d, _listing(d, lambda n, s=suffix: n.endswith(s))).items():
            book[f"{sub}/{name}"] = st
    return {"folder": where, "files": _stats(where, _listing(where, _chain_file)), "book": book,
            "at": time.time_ns()}


def _settled(stats: Stats, at: int) -> bool:
    return all(st and max(st[3], st[4]) < at - SETTLED_NS for st in stats.values())


def unchanged(folder: Path, before: dict[str, Any]) -> bool:
    """Whether `folder`'s chain files and the address book are now exactly
    as `before` (a `snapshot`) found them, and there are chain files: what
    a command read between the two may be remembered."""
    if not WHERE_TRUSTED:
        return False
    after = snapshot(folder)
    return (after["files"], after["book"]) == (before["files"], before["book"]) and bool(after["files"])


def remember(folder: Path, before: dict[str, Any], text: str, data: Any, json_words: str | None) -> None:
    """Keep what a full status of `folder` prints (`text`, and `data`, the
    status as plain data, for `pbem status --all` and ``--json``) when the
    folder and the address book are now exactly as `before` they were read.
    ``--json``'s words are kept as printed (`json_words`, or made from
    `data` by the first ``--json`` from memory), so that printing them
    again imports no `json`."""
    if not unchanged(folder, before):
        return  # something changed while the status was computed: remember nothing
    import marshal

    memo = {**before, "code": pbem_code(), "text": text, "data": data}
    if json_words is not None:
        memo["json"] = json_words
    sealed_write(path_for(folder), MAGIC + marshal.dumps(memo), light=True)


def _read(folder: Path) -> dict[str, Any] | None:
    signed = authentic(path_for(folder), MAGIC, light=True)
    if signed is None:
        return None
    import marshal  # built in: a status from memory imports no json, msgspec or anything of the chain

    try:
        memo = marshal.loads(signed[len(MAGIC):])
    except (EOFError, ValueError, TypeError):
        return None
    return memo if isinstance(memo, dict) else None


#: only where a file's change time is the inode's, which no program sets
#: back (POSIX; on Windows `st_ctime` is the creation time, which can be set)
WHERE_TRUSTED = os.name == "posix"


def recall(folder: Path, as_json: bool) -> str | None:
    """The words of `folder`'s last full status (``--json``: as it prints
    them), if nothing they depend on changed since (else None: compute them
    in full)."""
    memo = _valid(folder)
    if memo is None:
        return None
    if as_json and "json" not in memo:  # the first --json since a full status without it
        import json
        import marshal

        memo["json"] = json.dumps(memo["data"], indent=2, ensure_ascii=False, sort_keys=False) + "\n"
        sealed_write(path_for(folder), MAGIC + marshal.dumps(memo), light=True)
    words = memo.get("json" if as_json else "text")
    return words if isinstance(words, str) else None


def recall_data(folder: Path) -> Any:
    """The last full status of `folder` as plain data (`recall`), or None."""
    memo = _valid(folder)
    return None if memo is None else memo.get("data")


def _valid(folder: Path) -> dict[str, Any] | None:
    memo = _read(folder)
    if memo is None or not still_true(memo, folder) or not isinstance(memo.get("data"), dict):
        return None
    return memo


def still_true(memo: dict[str, Any], folder: Path) -> bool:
    """Whether words remembered with `memo`'s `snapshot` (and its code
    stamp) still hold for `folder`: every file they depend on unchanged and
    settled, and the same pbem."""
    if not WHERE_TRUSTED or memo.get("folder") != os.path.abspath(folder):
        return False
    now = snapshot(folder)
    at = memo.get("at")
    if not isinstance(at, int) or now["files"] != memo.get("files") or now["book"] != memo.get("book"):
        return False
    return _settled(now["files"], at) and _settled(now["book"], at) and memo.get("code") == pbem_code()
