"""The records' lazy pickling of a checkpoint: the chain pickled without its
records, the records in segments (their game states apart), the game
object by reference, and `LazyRecords` that unpickles them on first use.

Apart from `pbem.home.checkpoint` because it is the one job that knows how
a `Chain` is laid out in bytes: the checkpoint stores, binds and remembers
these bytes without looking inside them. Module paths are part of the
pickles (`_game`, `_records`, `Record`); moving these functions makes old
checkpoints a miss, which `checkpoint.code_version` already ensures.
"""

from __future__ import annotations

import io
import pickle

from pbem.protocol.chain import Chain, Record


def copy_chain(chain: Chain) -> Chain:
    """Another chain at the same head, sharing the records read so far;
    appending to one leaves the other as it was."""
    out = object.__new__(type(chain))
    out.__dict__.update(vars(chain))
    records = chain.records
    out.records = records.copy_lazily() if isinstance(records, LazyRecords) else list(records)
    out.notes, out.set_aside = [], []
    return out

#: more segments than this are merged whatever their sizes
_MAX_SEGMENTS = 16


def pickled_pieces(chain: Chain) -> tuple[bytes, list[bytes], list[int]]:
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
    head.__dict__.update(vars(chain), records=_RecordsMark(), _owed=None)  # a cache (`Chain.obligations`)
    buf = io.BytesIO()
    _Pickler(buf, chain.game).dump(head)
    return buf.getvalue(), [b for _, b in segments], [n for n, _ in segments]


def template(chain: Chain, segments: list[bytes], counts: list[int]) -> Chain:
    """What `Saved.chain` would rebuild from the checkpoint just written,
    without unpickling it: the chain as it is now, its records read from
    the new segments (the very records in memory, when they are)."""
    records = chain.records
    read = not isinstance(records, LazyRecords) or not records.unread
    source = Segments(segments, counts, tuple(records) if read else None)
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
            self.items = Unpickler(io.BytesIO(self.blob)).load()
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
    out = Unpickler(io.BytesIO(light)).load()
    for i, rec in enumerate(out):
        for f in _HEAVY:
            rec.__dict__.pop(f, None)
        rec.__class__ = _Restored
        rec.__dict__["_states"] = (states, i)
    return out


class Segments:
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

    def __init__(self, source: Segments) -> None:
        super().__init__()
        self.source = source
        self.pending: list = []
        self.unread = True
        #: the records the segments held, once read (see `pickled_pieces`)
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


#: the records of the chain being unpickled (`Unpickler.load` sets it)
_RESTORING: list = []


def _records():
    if not _RESTORING or _RESTORING[-1] is None:
        raise pickle.UnpicklingError("a checkpoint's records in an unexpected place")
    return _RESTORING[-1]


class Unpickler(pickle.Unpickler):
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
