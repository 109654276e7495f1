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

import atexit
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
    #: the chain it holds, once this process has it (`chain` hands out copies)
    template: Chain | None = None

    def chain(self) -> Chain | None:
        """The chain it holds, or None when it cannot be rebuilt. Its
        records are unpickled when first used (`LazyRecords`), once per
        process: every chain this gives shares them (a record never changes
        once in the chain)."""
        if self.template is None:
            try:
                head, segments, counts = pickle.loads(self.payload)
                if len(counts) != len(segments) or sum(counts) != self.header.seq + 1:
                    return None
                records = LazyRecords(_Segments(list(segments), list(counts)))
                chain = _Unpickler(io.BytesIO(head), records).load()
            except Exception:  # noqa: BLE001 - a checkpoint that does not load is ignored, never fatal
                return None
            if not isinstance(chain, Chain) or chain.game_id != self.header.game_id or chain.seq != self.header.seq:
                return None
            self.template = chain
        return _copy(self.template)


def _copy(chain: Chain) -> Chain:
    """Another chain at the same head, sharing the records read so far;
    appending to one leaves the other as it was."""
    out = object.__new__(type(chain))
    out.__dict__.update(vars(chain))
    records = chain.records
    out.records = records.copy_lazily() if isinstance(records, LazyRecords) else list(records)
    out.notes, out.set_aside = [], []
    return out


def home() -> Path:
    from pbem.home.store import default_home

    return default_home() / DIR


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def path_for(folder: Path) -> Path:
    """The checkpoint file of `folder` (one per folder, by its absolute path)."""
    return home() / (digest(str(_where(folder)).encode()) [:32] + ".ckpt")


def seen_path(folder: Path) -> Path:
    """Where `pbem.home.checkpoint_seen` remembers the files a look verified after the checkpoint."""
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
    return _sealed_write(target, signed) is not False


def _sealed_write(target: Path, signed: bytes) -> tuple | None | bool:
    """`sealed_write`: False when nothing was written, else the `lstat`
    key of the file written (None when another replaced it at once)."""
    key = _key(create=True)
    if key is None:
        return False
    data = signed + hmac.new(key, signed, hashlib.sha256).digest()
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
    return _stat_key(now) if same else None


#: the checkpoints this process read or wrote: path -> (its `lstat` then, what it holds)
_READ: dict[str, tuple[tuple, Saved]] = {}
#: per folder, the last checkpoint this process wrote with every file checked as the dealer checks
_PRIVATE: dict[str, Saved] = {}


def _stat_key(st: os.stat_result) -> tuple:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def read(folder: Path) -> Saved | None:
    """The checkpoint of `folder`, when it is authentic and made by this code for this folder.

    Read once per process: while the file is the very one read or written
    here before (its `lstat`: pbem replaces a checkpoint, never edits it,
    so another one has another inode), what it held is taken from memory."""
    path = path_for(folder)
    try:
        key = _stat_key(os.stat(path))
    except OSError:
        _READ.pop(str(path), None)
        return None
    hit = _READ.get(str(path))
    if hit is not None and hit[0] == key and hit[1].header.code == code_version():
        return hit[1]
    saved = _read(folder, path)
    if saved is None:
        _READ.pop(str(path), None)
    else:
        _keep(_READ, str(path), (key, saved))
    return saved


#: the folders whose checkpoints a process keeps in memory (the latest used)
_KEPT = 8


def _keep(memo: dict, where: str, what) -> None:
    memo.pop(where, None)
    memo[where] = what
    while len(memo) > _KEPT:
        del memo[next(iter(memo))]


def private_read(folder: Path) -> Saved | None:
    """The last checkpoint this process wrote of `folder` that was checked
    as the dealer checks up to its head (a referee's chain, when the seats'
    commands have moved the folder's checkpoint on since)."""
    return _PRIVATE.get(str(_where(folder)))


def forget_memory() -> None:
    """Forget every checkpoint read or written by this process (as a new process starts)."""
    for memo in (_READ, _PRIVATE, _LATEST, _WROTE):
        memo.clear()


def _read(folder: Path, path: Path) -> Saved | None:
    signed = authentic(path, MAGIC)
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
        pieces = _payload(chain)
    except Exception:  # noqa: BLE001 - e.g. an attribute that does not pickle: no checkpoint
        return False
    payload = pickle.dumps(pieces, protocol=pickle.HIGHEST_PROTOCOL)
    head = msgspec.json.encode(header)
    target = path_for(folder)
    key = _sealed_write(target, MAGIC + len(head).to_bytes(4, "big") + head + payload)
    _READ.pop(str(target), None)
    if key is False:
        return False
    saved = Saved(header, payload, _template(chain, *pieces[1:]))
    if key is not None:
        _keep(_READ, str(target), (key, saved))
    if private_through == chain.seq:
        _keep(_PRIVATE, header.folder, saved)
    _LATEST.pop(header.folder, None)
    _WROTE[header.folder] = _WROTE.get(header.folder, 0) + 1
    with contextlib.suppress(OSError):  # the checkpoint covers what a look remembered (`pbem.home.checkpoint_seen`)
        seen_path(folder).unlink()
    return True


#: a process that wrote a folder's checkpoint before writes it again only
#: once it lacks this share of the files (1/LAZY_SHARE), or at exit
LAZY_SHARE = 32
#: per folder: checkpoints this process wrote
_WROTE: dict[str, int] = {}
#: per folder: the chain this process verified last, when its checkpoint lacks some of its files
_LATEST: dict[str, Saved] = {}


def due(folder: Path, behind: int, files: int, least: int) -> bool:
    """Whether a checkpoint that lacks `behind` of `files` verified is to
    be written now: once it lacks `least`, and in a process that wrote it
    before (a demo, a watcher, a referee: they remember the chain in
    memory), once it lacks a share of them. Writing a checkpoint costs in
    proportion to the game's length; so a long-lived process pays for it
    now and then, never once per file, and a command run once writes it
    as always. The files verified since are remembered at once
    (`pbem.home.checkpoint_seen`) all the same."""
    if behind < least:
        return False
    return not _WROTE.get(str(_where(folder))) or behind >= files // LAZY_SHARE


def remember(folder: Path, chain: Chain, files: list[tuple[str, str]], private_through: int) -> None:
    """Keep in memory a chain verified past the checkpoint on disk (`latest`,
    and `private_read` when checked as the dealer checks up to its head)."""
    if len(files) != chain.seq + 1:
        return
    header = Header(code=code_version(), folder=str(_where(folder)), game_id=chain.game_id, game=chain.game.info.name,
                    rules_version=chain.game.info.rules_version, seq=chain.seq, files=list(files),
                    private_through=private_through)
    saved = Saved(header, b"", _copy(chain))
    _keep(_LATEST, header.folder, saved)
    _HOMES[header.folder] = str(home())
    if private_through == chain.seq:
        _keep(_PRIVATE, header.folder, saved)


def latest(folder: Path, saved: Saved) -> Saved:
    """What to continue from: the checkpoint on disk (`saved`), or the
    chain this process verified past it (`remember`)."""
    mine = _LATEST.get(str(_where(folder)))
    if mine is None or mine.header.game_id != saved.header.game_id or len(mine.header.files) <= len(saved.header.files):
        return saved
    return mine


@atexit.register
def _flush() -> None:
    """At exit, write the checkpoints this process kept only in memory
    because it wrote them before (`due`); a look's is not worth writing."""
    for where, mine in list(_LATEST.items()):
        with contextlib.suppress(Exception):
            if _WROTE.get(where) and _HOMES.get(where) == str(home()):  # never into another home
                chain = mine.chain()
                if chain is not None:
                    write(Path(where), chain, list(mine.header.files), mine.header.private_through)


#: per folder kept in `_LATEST`: the home its checkpoint belongs in
_HOMES: dict[str, str] = {}


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
    what looks verified after it (`pbem.home.checkpoint_seen`)."""
    for path in (path_for(folder), seen_path(folder)):
        with contextlib.suppress(OSError):
            path.unlink()
    _READ.pop(str(path_for(folder)), None)
    for memo in (_PRIVATE, _LATEST, _WROTE):
        memo.pop(str(_where(folder)), None)


#: more segments than this are merged whatever their sizes
_MAX_SEGMENTS = 16


def _payload(chain: Chain) -> tuple[bytes, list[bytes], list[int]]:
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
        kept = list(zip(records.source.counts, records.source.segments))
        new = records.pending if records.unread else list(records)[len(records.base):]
    segments = _merged(kept + ([(len(new), _dump_records(new, chain.game))] if new else []), chain.game)
    head = object.__new__(type(chain))  # the chain with a mark where its records are
    head.__dict__.update(vars(chain), records=_RecordsMark())
    buf = io.BytesIO()
    _Pickler(buf, chain.game).dump(head)
    return buf.getvalue(), [b for _, b in segments], [n for n, _ in segments]


def _template(chain: Chain, segments: list[bytes], counts: list[int]) -> Chain:
    """What `Saved.chain` would rebuild from the checkpoint just written,
    without unpickling it: the chain as it is now, its records read from
    the new segments (the very records in memory, when they are)."""
    records = chain.records
    read = not isinstance(records, LazyRecords) or not records.unread
    source = _Segments(segments, counts, tuple(records) if read else None)
    out = object.__new__(type(chain))
    out.__dict__.update(vars(chain), records=LazyRecords(source), notes=[], set_aside=[])
    return out


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


class _Segments:
    """The records of a checkpoint, pickled in segments, unpickled once
    (`load`) for every chain restored from them in this process."""

    def __init__(self, segments: list[bytes], counts: list[int], items: tuple | None = None) -> None:
        self.segments = segments
        self.counts = counts  # the records in each segment
        self.count = sum(counts)
        self.items = items

    def load(self) -> tuple:
        if self.items is None:
            items = []
            for segment in self.segments:
                items.extend(_load_records(segment))
            if len(items) != self.count:
                raise pickle.UnpicklingError("a checkpoint's records do not match its head")
            self.items = tuple(items)
        return self.items


class LazyRecords(list):
    """`Chain.records` of a chain restored from a checkpoint: unpickled on
    first use. `status` needs none of them (the head holds what it says);
    `log`, `show` and `legal` (a seat's deliveries), an undo, need them all.

    Until then it holds only what was appended since (`pending`) and the
    count; every list operation but `len` and `append` reads them first.
    """

    def __init__(self, source: _Segments) -> None:
        super().__init__()
        self.source = source
        self.pending: list = []
        self.unread = True
        #: the records the segments held, once read (see `_payload`)
        self.base: tuple = ()

    def _read(self) -> None:
        if self.unread:
            items = self.source.load()
            self.unread = False
            self.base = items
            list.extend(self, items)
            list.extend(self, self.pending)
            self.pending = []

    def copy_lazily(self) -> LazyRecords:
        """Another list of the same records, sharing what was unpickled
        (read when first used, as this one is)."""
        out = LazyRecords(self.source)
        if self.unread:
            out.pending = list(self.pending)
        else:
            out.unread, out.base = False, self.base
            list.extend(out, list.__iter__(self))
        return out

    def __len__(self) -> int:
        return self.source.count + len(self.pending) if self.unread else list.__len__(self)

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
