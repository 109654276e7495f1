"""The verified checkpoint: what this user has already checked of a game
folder, kept in the user's own ``$PBEM_HOME`` (issue #12, part 2).

A game folder is shared: anyone who can write it can change it, so nothing
in it is trusted without checking. Checking means replaying from genesis,
which costs signature verifies (and, in peer games, proof checks) for every
file on every command. So each party remembers, per folder, the `Chain` it
verified there (the public state, the knowledge overlay, the revealed
cards, the peer deck, every record) and a digest of every file it verified.
A later command hashes the folder's files again (hashing is cheap,
signatures are not), continues from the checkpoint when every verified
file is still the same bytes, and checks only what is new.

The checkpoint is never trusted blindly:

* It lives under ``$PBEM_HOME/checkpoints/`` (0700; files 0600), never in a
  game folder.
* It is authenticated with HMAC-SHA256 under a random key kept beside it
  (``checkpoints/key``, 0600): bytes this user's pbem did not write (doctored,
  truncated, copied from another user) fail the MAC and are ignored.
* What the MAC covers binds the folder (its absolute path) and the game id,
  so the checkpoint of another folder is ignored; and the code it was made
  with (pbem's version, the game's rules version, Python's and msgspec's
  versions, and the size and time of every module of the installed pbem),
  so an upgrade, or an edited source tree, invalidates it.
* Only after the MAC and the binding check out is the chain unpickled
  (docs/security.md says why pickle is acceptable here). Anything odd on
  the way (a missing, unreadable, foreign, stale or corrupt checkpoint, an
  unpickling error) makes `read` return None: the folder is replayed from
  genesis and the checkpoint written again.

The chain is pickled whole, so attributes added to `Chain` need nothing
here; the game object is pickled by reference (name and rules version) and
looked up again, so its bots and pictures are never imported by a restore.
`private_through` says up to which seq every file was also checked with the
dealer's openings (the check only a dealer can make): a dealer's command
continues from the checkpoint only when that covers the head.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import os
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import msgspec

import pbem
from pbem.protocol.chain import Chain, Record

#: first bytes of a checkpoint; bumped when the layout below changes (4: the
#: chain's head is a frozen `Head`, and each record keeps the one before it)
MAGIC = b"pbem-checkpoint/4\n"
_MAC = 32
_KEY = "key"
DIR = "checkpoints"


class Header(msgspec.Struct, forbid_unknown_fields=True):
    """What a checkpoint binds besides the pickled chain."""

    code: str  # `code_version()` when it was written
    folder: str  # the absolute folder it is of
    game_id: str
    game: str
    rules_version: str
    seq: int
    #: every file verified, by seq: [name, SHA-256 of its bytes as pbem writes them]
    files: list[tuple[str, str]]
    #: every file up to this seq was checked with the dealer's openings too
    private_through: int = -1


@dataclass
class Saved:
    """An authenticated checkpoint that applies to this folder and this code."""

    header: Header
    payload: bytes

    def chain(self) -> Chain | None:
        """The chain it holds, or None when it cannot be rebuilt. Its
        records are unpickled when first used (`LazyRecords`)."""
        try:
            head, segments, counts = pickle.loads(self.payload)
            if len(counts) != len(segments) or sum(counts) != self.header.seq + 1:
                return None
            records = LazyRecords(list(segments), self.header.seq + 1, list(counts))
            chain = _Unpickler(io.BytesIO(head), records).load()
        except Exception:  # noqa: BLE001 - a checkpoint that does not load is ignored, never fatal
            return None
        if not isinstance(chain, Chain) or chain.game_id != self.header.game_id or chain.seq != self.header.seq:
            return None
        return chain


def home() -> Path:
    from pbem.crypto.store import default_home

    return default_home() / DIR


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def path_for(folder: Path) -> Path:
    """The checkpoint file of `folder` (one per folder, by its absolute path)."""
    return home() / (digest(str(_where(folder)).encode()) [:32] + ".ckpt")


def seen_path(folder: Path) -> Path:
    """Where `pbem.checkpoint_seen` remembers the files a look verified after the checkpoint."""
    return path_for(folder).with_suffix(".seen")


def _where(folder: Path) -> Path:
    return Path(os.path.abspath(folder))


_CODE: str | None = None


def code_version() -> str:
    """pbem's version, Python's and msgspec's, and the size and time of
    every module of pbem as installed: what the pickled objects and the
    checks behind them depend on."""
    global _CODE
    if _CODE is None:
        h = hashlib.sha256(f"{pbem.__version__}|{sys.version}|{msgspec.__version__}".encode())
        root = os.path.dirname(pbem.__file__)
        stack = [root]
        while stack:
            entries = sorted(os.scandir(stack.pop()), key=lambda e: e.name)
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        stack.append(e.path)
                elif e.name.endswith(".py"):
                    st = e.stat()
                    h.update(f"{e.path[len(root):]}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        _CODE = h.hexdigest()
    return _CODE


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


def authentic(path: Path, magic: bytes) -> bytes | None:
    """The bytes of a file this user's pbem wrote with `sealed_write` (its
    MAC checked), or None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    key = _key(create=False)
    if key is None or not data.startswith(magic) or len(data) < len(magic) + 4 + _MAC:
        return None
    signed, mac = data[:-_MAC], data[-_MAC:]
    if not hmac.compare_digest(hmac.new(key, signed, hashlib.sha256).digest(), mac):
        return None
    return signed


def sealed_write(target: Path, signed: bytes) -> bool:
    """Write `signed` and its MAC under the user's key to `target`,
    atomically and 0600 (best effort: returns whether it was written)."""
    key = _key(create=True)
    if key is None:
        return False
    data = signed + hmac.new(key, signed, hashlib.sha256).digest()
    tmp = target.with_name(f".{target.name}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
    _remove_stale_temps(target)
    return True


def read(folder: Path) -> Saved | None:
    """The checkpoint of `folder`, when it is authentic and made by this code for this folder."""
    signed = authentic(path_for(folder), MAGIC)
    if signed is None:
        return None
    at = len(MAGIC)
    size = int.from_bytes(signed[at:at + 4], "big")
    try:
        header = msgspec.json.decode(signed[at + 4:at + 4 + size], type=Header)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if header.code != code_version() or header.folder != str(_where(folder)) or len(header.files) != header.seq + 1:
        return None
    try:
        from pbem import games

        if games.get(header.game, header.rules_version).info.rules_version != header.rules_version:
            return None
    except Exception:  # noqa: BLE001 - an unknown game or rules: not ours to restore
        return None
    return Saved(header, signed[at + 4 + size:])


def write(folder: Path, chain: Chain, files: list[tuple[str, str]], private_through: int) -> bool:
    """Write the checkpoint of `chain` in `folder` (atomically, 0600).

    Best effort: a chain that cannot be pickled or a home that cannot be
    written only means the next command replays more; returns whether it
    was written.
    """
    if len(files) != chain.seq + 1:
        return False
    header = Header(
        code=code_version(), folder=str(_where(folder)), game_id=chain.game_id, game=chain.game.info.name,
        rules_version=chain.game.info.rules_version, seq=chain.seq, files=files, private_through=private_through,
    )
    try:
        payload = _payload(chain)
    except Exception:  # noqa: BLE001 - e.g. an attribute that does not pickle: no checkpoint
        return False
    head = msgspec.json.encode(header)
    if not sealed_write(path_for(folder), MAGIC + len(head).to_bytes(4, "big") + head + payload):
        return False
    with contextlib.suppress(OSError):  # the checkpoint covers what a look remembered (`pbem.checkpoint_seen`)
        seen_path(folder).unlink()
    return True


def _remove_stale_temps(target: Path) -> None:
    """Temporary files of this checkpoint left by a killed command (an
    hour old: never one that a live command is writing)."""
    with contextlib.suppress(OSError):
        for stray in target.parent.glob(f".{target.name}.*.tmp"):
            with contextlib.suppress(OSError):
                if stray.stat().st_mtime < time.time() - 3600:
                    stray.unlink()


def forget(folder: Path) -> None:
    """Remove the checkpoint of `folder` (its files no longer match it), and
    what looks verified after it (`pbem.checkpoint_seen`)."""
    for path in (path_for(folder), seen_path(folder)):
        with contextlib.suppress(OSError):
            path.unlink()


#: more segments than this are merged whatever their sizes
_MAX_SEGMENTS = 16


def _payload(chain: Chain) -> bytes:
    """The chain without its records, and its records in segments: the
    segments a restored chain was read from are kept as they were (whether
    or not its records were unpickled since: a record is never changed once
    it is in the chain, and the ones read must still be the very objects
    that were unpickled), the new records added as one more segment, and
    the last segments merged while the newer is as long as the one before
    it (`_merged`). So writing a checkpoint after a new file pickles little
    more than the head and that file's record, however long the game, and
    now and then a tail of segments again: each record is pickled again
    about log2(files) times over a whole game, never once per file."""
    records = chain.records
    kept, new = [], list(records)
    if isinstance(records, LazyRecords) and (records.unread or (
            len(records) >= len(records.base) and all(a is b for a, b in zip(list.__iter__(records), records.base)))):
        kept = list(zip(records.counts, records.segments))
        new = records.pending if records.unread else list(records)[len(records.base):]
    segments = _merged(kept + ([(len(new), _dump_records(new, chain.game))] if new else []), chain.game)
    head = object.__new__(type(chain))  # the chain with a mark where its records are
    head.__dict__.update(vars(chain), records=_RecordsMark())
    buf = io.BytesIO()
    _Pickler(buf, chain.game).dump(head)
    return pickle.dumps((buf.getvalue(), [b for _, b in segments], [n for n, _ in segments]),
                        protocol=pickle.HIGHEST_PROTOCOL)


def _merged(segments: list[tuple[int, bytes]], game) -> list[tuple[int, bytes]]:
    """Merge the last two segments while the newer holds as many records as
    the one before it (a binary counter: the lengths halve towards the
    end), or while there are too many. Merging reads the segments' bytes,
    never the chain in memory."""
    out = list(segments)
    while len(out) > 1 and (out[-1][0] >= out[-2][0] or len(out) > _MAX_SEGMENTS):
        (n1, older), (n2, newer) = out[-2], out[-1]
        out[-2:] = [(n1 + n2, _dump_records(_load_records(older) + _load_records(newer), game))]
    return out


def _dumps(obj, game) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, game).dump(obj)
    return buf.getvalue()


#: the fields of a `Record` that hold game states: most of a checkpoint's
#: bytes (a Dark Agent state carries the catalogue), which few commands need
_HEAVY = ("before", "after", "prior")


def _dump_records(records: list, game) -> bytes:
    """One segment: the records without their states, and their states
    apart, so that a command that reads only the files' bodies (a seat's
    own sealed secrets, its deliveries) does not unpickle every state."""
    light, heavy = [], []
    for rec in records:
        fields = {f: getattr(rec, f) for f in rec.__dataclass_fields__}
        heavy.append(tuple(fields.pop(f) for f in _HEAVY))
        light.append(Record(**fields))
    return pickle.dumps((_dumps(light, game), _dumps(heavy, game)), protocol=pickle.HIGHEST_PROTOCOL)


class _States:
    """The states of one segment's records, unpickled on first use."""

    def __init__(self, blob: bytes) -> None:
        self.blob: bytes | None = blob
        self.items: list = []

    def of(self, i: int) -> tuple:
        if self.blob is not None:
            self.items = _Unpickler(io.BytesIO(self.blob)).load()
            self.blob = None
        return self.items[i]


def _state_field(index: int, name: str):
    def get(self):
        own = self.__dict__.get("_set", {})
        if name in own:
            return own[name]
        states, i = self.__dict__["_states"]
        return states.of(i)[index]

    def put(self, value) -> None:
        self.__dict__.setdefault("_set", {})[name] = value

    return property(get, put)


class _Restored(Record):
    """A record read from a checkpoint segment: its states come from the
    segment when first asked for (`_States`). Pickled again as a plain
    `Record` with everything."""

    before = _state_field(0, "before")
    after = _state_field(1, "after")
    prior = _state_field(2, "prior")

    def __reduce_ex__(self, protocol):
        return Record, tuple(getattr(self, f) for f in self.__dataclass_fields__)


def _load_records(segment: bytes) -> list:
    light, heavy = pickle.loads(segment)
    states = _States(heavy)
    out = _Unpickler(io.BytesIO(light)).load()
    for i, rec in enumerate(out):
        for f in _HEAVY:
            rec.__dict__.pop(f, None)
        rec.__class__ = _Restored
        rec.__dict__["_states"] = (states, i)
    return out


class LazyRecords(list):
    """`Chain.records` of a chain restored from a checkpoint: unpickled on
    first use. `status` needs none of them (the head holds what it says);
    `log`, `show` and `legal` (a seat's deliveries), an undo, need them all.

    Until then it holds only what was appended since (`pending`) and the
    count; every list operation but `len` and `append` reads them first.
    """

    def __init__(self, segments: list[bytes], count: int, counts: list[int]) -> None:
        super().__init__()
        self.segments = segments
        self.counts = counts  # the records in each segment
        self.count = count
        self.pending: list = []
        self.unread = True
        #: the records the segments held, once read (see `_payload`)
        self.base: tuple = ()

    def _read(self) -> None:
        if self.unread:
            items = []
            for segment in self.segments:
                items.extend(_load_records(segment))
            if len(items) != self.count:
                raise pickle.UnpicklingError("a checkpoint's records do not match its head")
            self.unread = False
            self.base = tuple(items)
            list.extend(self, items + self.pending)
            self.pending = []

    def __len__(self) -> int:
        return self.count + len(self.pending) if self.unread else list.__len__(self)

    def append(self, item) -> None:
        if self.unread:
            self.pending.append(item)
        else:
            list.append(self, item)

    def __reduce_ex__(self, protocol):
        self._read()
        return (list, (list(list.__iter__(self)),))

    def __copy__(self):
        self._read()
        return list(list.__iter__(self))


def _reading(name: str):
    method = getattr(list, name)

    def read_first(self, *args, **kwargs):
        self._read()
        return method(self, *args, **kwargs)

    read_first.__name__ = name
    return read_first


for _name in (
    "__getitem__", "__setitem__", "__delitem__", "__iter__", "__reversed__", "__contains__", "__eq__", "__ne__",
    "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__iadd__", "__mul__", "__rmul__", "__imul__", "__repr__",
    "copy", "count", "index", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
):
    setattr(LazyRecords, _name, _reading(_name))
LazyRecords.__hash__ = None  # type: ignore[assignment] - a list: unhashable


class _RecordsMark:
    """Where the head's chain has its records (kept in segments beside it)."""

    def __reduce__(self):
        return _records, ()


class _Pickler(pickle.Pickler):
    """Pickles the game object as its name and rules version.

    `reducer_override` rather than `persistent_id`: the pickler asks it only
    of objects that are not plain ints, strings, lists, dicts and the like,
    where `persistent_id` is asked of every object (a long game's records
    are millions of them)."""

    def __init__(self, fh, game) -> None:
        super().__init__(fh, protocol=pickle.HIGHEST_PROTOCOL)
        self._game = game

    def reducer_override(self, obj):
        if obj is self._game:
            return _game, (obj.info.name, obj.info.rules_version)
        return NotImplemented


def _game(name: str, version: str):
    from pbem import games

    return games.get(name, version)


#: the records of the chain being unpickled (`_Unpickler.load` sets it)
_RESTORING: list = []


def _records():
    if not _RESTORING or _RESTORING[-1] is None:
        raise pickle.UnpicklingError("a checkpoint's records in an unexpected place")
    return _RESTORING[-1]


class _Unpickler(pickle.Unpickler):
    """Restores what `_Pickler` wrote, handing `records` to `_records`."""

    def __init__(self, fh, records: list | None = None) -> None:
        super().__init__(fh)
        self._records = records

    def load(self):
        _RESTORING.append(self._records)
        try:
            return super().load()
        finally:
            _RESTORING.pop()
