"""Checkpoint storage and its MAC: files under ``$PBEM_HOME/checkpoints/``
that only this user's pbem could have written (HMAC-SHA256, or keyed
BLAKE2b for the light ones, under a random key kept beside them, 0600),
written atomically.

Apart from `pbem.home.checkpoint` because it knows nothing of chains: the
verified checkpoint and what a look verified after it
(`pbem.home.checkpoint_seen`) both store their bytes through it.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

_MAC = 32
_CODE: str | None = None
_KEY = "key"
DIR = "checkpoints"


def home() -> Path:
    from pbem.home.where import default_home

    return default_home() / DIR


def blake2b(data: bytes = b"", **params: Any) -> Any:
    """BLAKE2b (keyed, it is a MAC and a PRF of its own: RFC 7693) from
    Python's built-in `_blake2`, which unlike `hashlib` does not load
    OpenSSL: what the files a command may answer from memory are named and
    sealed with (`pbem status` from memory costs less than that load)."""
    try:
        from _blake2 import blake2b as impl
    except ImportError:  # a Python built without it
        from hashlib import blake2b as impl
    return impl(data, **params)


def named(text: str, suffix: str) -> Path:
    """The file of this user's checkpoints that `text` (a folder's path, a
    key) names: a digest of it, so that no name says whose or which it is."""
    return home() / (blake2b(text.encode(), digest_size=16).hexdigest() + suffix)


def _key(create: bool) -> bytes | None:
    """The user's checkpoint key (made on first use when `create`)."""
    path = home() / _KEY
    try:
        key = path.read_bytes()
        return key if len(key) == 32 else None
    except FileNotFoundError:
        if not create:
            return None
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another command made it just now
        return _key(False)
    except OSError:
        return None
    key = os.urandom(32)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


def _mac(key: bytes, signed: bytes, light: bool) -> bytes:
    """HMAC-SHA256 under `key`; with `light`, keyed BLAKE2b (`blake2b`)."""
    if light:
        return blake2b(signed, key=key, digest_size=_MAC, person=b"pbem-seal").digest()
    import hashlib
    import hmac

    return hmac.new(key, signed, hashlib.sha256).digest()


def _same(a: bytes, b: bytes) -> bool:
    """`hmac.compare_digest` (a comparison in constant time), taken from
    where `hmac` takes it, since importing `hmac` loads OpenSSL."""
    try:
        from _operator import _compare_digest
    except ImportError:  # another Python than CPython
        from hmac import compare_digest as _compare_digest
    return _compare_digest(a, b)


def authentic(path: Path, magic: bytes, light: bool = False) -> bytes | None:
    """The bytes of a file this user's pbem wrote with `sealed_write` (its
    MAC checked, `light` as written), or None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    key = _key(create=False)
    if key is None or not data.startswith(magic) or len(data) < len(magic) + 4 + _MAC:
        return None
    signed, mac = data[:-_MAC], data[-_MAC:]
    if not _same(_mac(key, signed, light), mac):
        return None
    return signed


def sealed_write(target: Path, signed: bytes, light: bool = False) -> bool:
    """Write `signed` and its MAC under the user's key to `target`,
    atomically and 0600 (best effort: returns whether it was written)."""
    return sealed_write_stat(target, signed, light) is not False


def sealed_write_stat(target: Path, signed: bytes, light: bool = False) -> tuple | None | bool:
    """`sealed_write`: False when nothing was written, else the `lstat`
    key of the file written (None when another replaced it at once)."""
    key = _key(create=True)
    if key is None:
        return False
    data = signed + _mac(key, signed, light)
    tmp = target.with_name(f".{target.name}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            mine = os.fstat(fh.fileno())
        os.replace(tmp, target)
        now = os.stat(target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
    _remove_stale_temps(target)
    same = (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) == (mine.st_dev, mine.st_ino, mine.st_size,
                                                                      mine.st_mtime_ns)
    return stat_key(now) if same else None


def stat_key(st: os.stat_result) -> tuple:
    """What tells a file apart from the one that replaced it (pbem replaces a checkpoint, never edits it)."""
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _remove_stale_temps(target: Path) -> None:
    """Temporary files of this checkpoint left by a killed command (an
    hour old: never one that a live command is writing)."""
    start, end = f".{target.name}.", ".tmp"  # not `glob`, which compiles a pattern: a command's millisecond
    with contextlib.suppress(OSError), os.scandir(target.parent) as entries:
        for stray in entries:
            if stray.name.startswith(start) and stray.name.endswith(end) and len(stray.name) > len(start) + len(end):
                with contextlib.suppress(OSError):
                    if stray.stat(follow_symlinks=False).st_mtime < time.time() - 3600:
                        os.unlink(stray.path)


def code_version() -> str:
    """`pbem_code` and msgspec's version: what the pickled objects and the
    checks behind them depend on."""
    import hashlib

    import msgspec

    return hashlib.sha256(f"{pbem_code()}|{msgspec.__version__}".encode()).hexdigest()


def pbem_code() -> str:
    """pbem's version, Python's, and the size and time of every module of
    pbem as installed (its change time too: no program sets it back):
    what the words `pbem status` remembers depend on
    (`pbem.gamedir.status_memo`, which imports no msgspec)."""
    global _CODE
    if _CODE is None:
        import sys

        import pbem

        root = os.path.dirname(pbem.__file__)
        stamps: list[tuple[str, int, int, int]] = []
        stack = [root]
        while stack:
            for e in os.scandir(stack.pop()):
                if e.name.endswith(".py"):
                    st = e.stat(follow_symlinks=False)
                    stamps.append((e.path, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
                elif e.name != "__pycache__" and e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
        stamps.sort()
        import marshal  # built in, exact for str and int: a fingerprint of the stamps, not a format
        _CODE = blake2b(marshal.dumps((pbem.__version__, sys.version, stamps)), digest_size=32).hexdigest()
    return _CODE
