"""Each file's crypto floor: the cryptography its verification cannot avoid,
timed on its own in the same run.

A replay is run once with the primitives under pbem's crypto layer wrapped
(Ed25519 verification, SHA-256/512, HKDF and HMAC, libsodium's edwards25519
operations): each call made while a file is checked is recorded with its
arguments. A file's floor is the time to run again only its *distinct*
calls (the same call twice counts once: redoing work is ours, not the
cryptography's). Everything else a replay spends (decoding, copying
states, the rules) is overhead that `python -m benchmarks` reports as the
ratio to this floor.
"""

from __future__ import annotations

import hashlib
import hmac
import statistics
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

Call = tuple[str, Callable[..., Any], tuple[Any, ...]]


class Recorder:
    def __init__(self) -> None:
        self.current: int | None = None
        self.calls: dict[int, dict[tuple[str, tuple[Any, ...]], Call]] = {}

    def note(self, name: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        if self.current is not None:
            self.calls.setdefault(self.current, {}).setdefault((name, args), (name, fn, args))

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any) -> Any:
            self.note(name, fn, args)
            return fn(*args)

        return wrapped


def _verify(key: bytes, sig: bytes, msg: bytes) -> None:
    Ed25519PublicKey.from_public_bytes(key).verify(sig, msg)


def _hkdf(length: int, info: bytes, key: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=info).derive(key)


def _hmac(key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, hashlib.sha256).digest()


@contextmanager
def recording(rec: Recorder):
    """Wrap the primitives pbem's crypto modules call, for the duration."""
    import nacl.bindings as na

    from pbem.crypto import beacon, encoding, keys, poker, stream

    saved: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, attr: str, value: Any) -> None:
        saved.append((owner, attr, getattr(owner, attr)))
        setattr(owner, attr, value)

    class Hashes:
        """`hashlib` as pbem's modules see it, with the hashes recorded."""

        def __getattr__(self, name: str) -> Any:
            return getattr(hashlib, name)

        @staticmethod
        def sha256(data: bytes = b"") -> Any:
            rec.note("sha256", lambda d: hashlib.sha256(d).digest(), (bytes(data),))
            return hashlib.sha256(data)

        @staticmethod
        def sha512(data: bytes = b"") -> Any:
            rec.note("sha512", lambda d: hashlib.sha512(d).digest(), (bytes(data),))
            return hashlib.sha512(data)

    class PublicKey:
        @staticmethod
        def from_public_bytes(raw: bytes) -> Any:
            real = Ed25519PublicKey.from_public_bytes(raw)

            class Key:
                def verify(self, sig: bytes, msg: bytes) -> None:
                    rec.note("ed25519 verify", _verify, (bytes(raw), bytes(sig), bytes(msg)))
                    real.verify(sig, msg)

            return Key()

    class HKDF:
        def __init__(self, algorithm: Any, length: int, salt: Any, info: bytes) -> None:
            self.length, self.info = length, info

        def derive(self, key: bytes) -> bytes:
            rec.note("hkdf", _hkdf, (self.length, bytes(self.info), bytes(key)))
            return _hkdf(self.length, bytes(self.info), bytes(key))

    class Hmac:
        def __getattr__(self, name: str) -> Any:
            return getattr(hmac, name)

        @staticmethod
        def new(key: bytes, msg: bytes, digestmod: Any) -> Any:
            rec.note("hmac", _hmac, (bytes(key), bytes(msg)))
            return hmac.new(key, msg, digestmod)

    for module in (encoding, beacon, poker, stream):
        patch(module, "hashlib", Hashes())
    patch(stream, "hmac", Hmac())
    patch(stream, "HKDF", HKDF)
    patch(keys, "Ed25519PublicKey", PublicKey)
    patch(keys, "_VERIFY_KEYS", {})  # keys built before recording would not record
    for attr in dir(na):
        if attr.startswith(("crypto_core_ed25519", "crypto_scalarmult_ed25519")):
            patch(na, attr, rec.wrap(attr, getattr(na, attr)))
    try:
        yield rec
    finally:
        for owner, attr, value in reversed(saved):
            setattr(owner, attr, value)


def replay_files(datas: list[bytes], rec: Recorder | None = None) -> list[float]:
    """Check every file of a chain in memory as a fresh process would; the
    seconds each took (the genesis first)."""
    from pbem.crypto import poker
    from pbem.protocol.chain import Chain

    poker._CHECKED.clear()
    times = []
    if rec is not None:
        rec.current = 0
    t = time.perf_counter()
    chain = Chain(datas[0])
    times.append(time.perf_counter() - t)
    for i, data in enumerate(datas[1:], 1):
        if rec is not None:
            rec.current = i
        t = time.perf_counter()
        chain.append(data)
        times.append(time.perf_counter() - t)
    if rec is not None:
        rec.current = None
    return times


def floors(rec: Recorder, files: int, runs: int) -> tuple[list[float], dict[str, int]]:
    """The crypto floor of each file in seconds (median of `runs`), and how
    many distinct calls of each kind the whole chain needs."""
    out = []
    kinds: dict[str, int] = {}
    for i in range(files):
        calls = list(rec.calls.get(i, {}).values())
        for name, _, _ in calls:
            kinds[name] = kinds.get(name, 0) + 1
        samples = []
        for _ in range(runs):
            t = time.perf_counter()
            for _, fn, args in calls:
                try:
                    fn(*args)
                except Exception:  # a call that refused when recorded (a byte string that is no point,
                    pass  # tried by a hash to the curve) costs the same when replayed
            samples.append(time.perf_counter() - t)
        out.append(statistics.median(samples))
    return out, kinds


def measure(datas: list[bytes], runs: int) -> dict[str, Any]:
    """Replay cost and crypto floor of a chain, per file, medians of `runs`."""
    rec = Recorder()
    with recording(rec):
        replay_files(datas, rec)
    floor, kinds = floors(rec, len(datas), runs)
    samples = [replay_files(datas) for _ in range(runs)]
    ours = [statistics.median(s[i] for s in samples) for i in range(len(datas))]
    return {"ours": ours, "floor": floor, "kinds": kinds}
