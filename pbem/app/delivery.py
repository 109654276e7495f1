"""Taking received files in: `pbem apply`, `pbem dearmor`, and the pending area.

What to send to whom is `pbem.app.sending`. `receive` (`pbem apply`) takes
files in any order, raw or armored in texts and mails
(`pbem.transport.armor`), and applies each on its own:

* a file already in the chain is skipped with a note, and so is another
  folder's ``state.pbem`` (a cache, which ``pbem apply mine theirs/*.pbem``
  catches);
* the rest are applied in chain order;
* a file of this game, signed by one of its parties, whose predecessor has
  not arrived is kept in the folder's pending area (``DIR/pending/``, which
  chain loading ignores) and applied as soon as it fits: by the next
  `apply`, or first thing by any writing command (`drain_pending`);
* a bad file (garbled, another game's, a fork, an illegal turn) is named
  with the reason while the others are still applied. This replaces the
  former all-or-none rule: with files arriving from several senders, one
  bad file must not hold back the good ones. Each file is still checked in
  full before it is written, and each write is atomic.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from pbem.crypto.limits import check_limits
from pbem.errors import FormatError, PbemError, StaleTurn, WrongGame
from pbem.protocol import codec
from pbem.gamedir import folder as folder_mod, safe_read, folder_write
from pbem.protocol.chain import Chain
from pbem.protocol.formats import TurnBody
from pbem.transport import MAX_TEXT_BYTES
from pbem.app.sending import pbem_name
from pbem.gamedir.names import PENDING

REFUSED = "refused"


@dataclass
class Incoming:
    """One file taken from what was given: its bytes (as pbem writes them),
    or why it could not be read."""

    label: str
    data: bytes | None = None
    error: PbemError | None = None
    #: a folder's `state.pbem`: a cache every folder rebuilds, never taken in
    cache: bool = False


class _Kind(msgspec.Struct):
    kind: str = ""


def read_sources(paths: list[Path]) -> list[Incoming]:
    """Every pbem file in the files given ('-': standard input): raw files,
    and the armored blocks and attachments of texts, .eml and .mbox files."""
    out: list[Incoming] = []
    for path in paths:
        try:
            raw = _read_text_source(path)
        except PbemError as exc:
            out.append(Incoming(path.name, error=exc))
            continue
        out += _extract(path, raw)
    return out


def _read_text_source(path: Path) -> bytes:
    if str(path) == "-":
        return sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)[:MAX_TEXT_BYTES + 1]
    try:
        data = safe_read.read_at_most(path, MAX_TEXT_BYTES + 1, follow=True)
    except OSError as exc:
        raise PbemError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > MAX_TEXT_BYTES:
        raise FormatError(f"{path} is larger than {MAX_TEXT_BYTES >> 20} MiB")
    return data


def _extract(path: Path, raw: bytes) -> list[Incoming]:
    from pbem.transport import armor

    label = "standard input" if str(path) == "-" else path.name
    if raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        return [as_file(label, raw)]
    if str(path) == "-":
        found, bad = armor.find_in_bytes(raw, label)
    else:
        found, bad = armor.find_in_file(path, raw)
    out = [as_file(f.where, f.data) for f in found] + [Incoming(b.message.split(":", 1)[0], error=b) for b in bad]
    if not out:
        out.append(Incoming(label, error=FormatError(
            f"{label} holds no pbem file and no armored block ({armor.BEGIN} ... {armor.END})")))
    return out


def as_file(label: str, data: bytes) -> Incoming:
    """One received file (`label` names it: a path, an attachment) as an
    `Incoming`: its normalised bytes, a state cache to skip, or the error
    that refuses it (too large, not a pbem file), named. Also what
    `mail_fetch` makes of each attachment it reads."""
    try:
        check_limits(data, label)  # first: too large or nested too deep is read by nothing else
        try:
            if msgspec.json.decode(data, type=_Kind).kind == "state":
                return Incoming(label, cache=True)
        except msgspec.DecodeError:
            pass  # not JSON: the checks below say what is wrong with it
        data = codec.normalise(data)[0]
        codec.read_envelope(data)
    except PbemError as exc:
        return Incoming(label, error=_named(exc, label))
    return Incoming(label, data=data)


def _named(exc: PbemError, label: str) -> PbemError:
    """The same error, its message starting with the file it is about
    (never the bare ``file:`` of a file read with no name)."""
    message = exc.message.removeprefix("file: ")
    if not message.startswith(label):
        message = f"{label}: {message}"
    exc.message = message
    exc.args = (message,)
    return exc


def distinct(items: list[Incoming]) -> list[Incoming]:
    """The same file found twice is one, silently: every mail pbem sends
    carries each file both attached and armored in its text."""
    seen: set[bytes] = set()
    out = []
    for item in items:
        if item.data is not None:
            if item.data in seen:
                continue
            seen.add(item.data)
        out.append(item)
    return out


def dearmor(paths: list[Path], into: Path | None, notes: list[str] | None = None) -> list[tuple[str, bytes]]:
    """`pbem dearmor`: every file in the texts given, named as pbem names
    them; written into `into` when given (all or none: a damaged block
    stops everything, named). Returns (name, bytes) of each file."""
    from pbem.fsio import atomic_write, make_folder

    items = distinct(read_sources(paths))
    for item in items:
        if item.cache:
            _say(notes, f"skipped {item.label}: a folder's cache of its state, not a file of the chain")
    items = [i for i in items if not i.cache]
    bad = [i for i in items if i.error is not None]
    if bad:
        _raise_bad(bad)
    files = []
    for item in items:
        try:
            files.append((pbem_name(item.data), item.data))
        except PbemError as exc:
            _raise_bad([Incoming(item.label, error=_named(exc, item.label))])
    if into is not None:
        clash = [n for n, d in files if (into / n).exists() and safe_read.read(into / n) != d]
        if clash:
            raise PbemError(f"{into / clash[0]} exists and holds another file", hint="dearmor into an empty folder")
        make_folder(into)
        for name, data in files:
            if (into / name).exists():
                _say(notes, f"{into / name} already holds this file")
                continue
            atomic_write(into / name, data)
    return files


def _raise_bad(bad: list[Incoming]) -> None:
    if len(bad) == 1:
        raise bad[0].error
    raise FormatError(f"{len(bad)} blocks or files are bad: " + "; ".join(i.error.message for i in bad))


@dataclass
class Received:
    """What `receive` did: files written, files kept pending, bad files."""

    written: list[Path] = field(default_factory=list)
    pending: list[Path] = field(default_factory=list)
    bad: list[PbemError] = field(default_factory=list)
    #: the folder's chain when a received file took the place of one in it
    #: (`_by_the_fork_rules`): the caller's chain is stale then
    chain: Chain | None = None
    #: files given that were already in the chain: (label, its name there)
    known: list[tuple[str, str]] = field(default_factory=list)
    #: other folders' state caches given, skipped
    caches: list[str] = field(default_factory=list)

    def skipped(self) -> str | None:
        """One note for what was passed over (`pbem apply mine theirs/*.pbem`
        gives every file again, and the other folder's state.pbem)."""
        if len(self.known) == 1 and not self.caches:
            label, name = self.known[0]
            return f"{label} is already in the chain as {name}"
        parts = []
        if self.known:
            parts.append(f"{len(self.known)} file{'s' if len(self.known) != 1 else ''} already in the chain")
        if self.caches:
            parts.append(f"{', '.join(self.caches)}: a folder's cache of its state, not a file of the chain "
                         "(each folder rebuilds its own)")
        return ("skipped " + "; and ".join(parts)) if parts else None


@dataclass
class _Waiting:
    label: str
    data: bytes
    seq: int
    path: Path | None = None  # where it lies in the pending area


def receive(folder: Path, chain: Chain, items: list[Incoming], notes: list[str] | None) -> Received:
    """Apply `items` (and the pending files) to `folder`, whose lock the
    caller holds and whose chain `chain` is (appended to in place)."""
    result = Received()
    waiting: list[_Waiting] = []
    pending_data = {p.data for p in _pending_files(folder)}
    for item in distinct(items):
        if item.error is not None:
            result.bad.append(item.error)
            continue
        if item.cache:  # `pbem apply mine theirs/*.pbem` catches the other folder's state.pbem
            result.caches.append(item.label)
            continue
        try:
            seq = claimed_seq(chain, item.data)
        except PbemError as exc:
            result.bad.append(_named(exc, item.label))
            continue
        if seq is None:
            result.known.append((item.label, folder_mod.GENESIS))
        elif item.data in pending_data:
            _say(notes, f"{item.label} is already waiting in {PENDING}/")
        else:
            waiting.append(_Waiting(item.label, item.data, seq))
    waiting += _pending_files(folder)
    _settle(folder, chain, waiting, result, notes)
    if (line := result.skipped()) is not None:
        _say(notes, line)
    return result


def drain_pending(folder: Path, chain: Chain, notes: list[str] | None) -> list[Path]:
    """Apply the pending files that now fit (a writing command does this
    first, under the folder's lock). A pending file that turns out bad is
    moved to ``pending/refused/`` with a note, so it never blocks the game."""
    waiting = _pending_files(folder)
    if not waiting:
        return []
    result = Received()
    _settle(folder, chain, waiting, result, notes)
    for exc in result.bad:
        _say(notes, f"refused: {exc.message}")
    return result.written


def _pending_files(folder: Path) -> list[_Waiting]:
    where = folder / PENDING
    if not where.is_dir():
        return []
    out = []
    for path in sorted(where.iterdir()):
        if not path.is_file() or not path.name.endswith(".pbem"):
            continue
        try:
            data = safe_read.read(path)
            out.append(_Waiting(f"{PENDING}/{path.name}", data, _seq(data), path))
        except PbemError:
            continue
    return out


def _seq(data: bytes) -> int:
    outer = codec.read_envelope(data)
    if outer.kind == "genesis":
        return 0
    return codec.decode_body(outer, TurnBody).seq


def claimed_seq(chain: Chain, data: bytes) -> int | None:
    """The seq a received file claims in this game (None: it is this game's
    genesis); a file of another game, or another genesis, is refused. Read
    before a file is placed (here) and before mail is filed (`mail_fetch`)."""
    outer = codec.read_envelope(data)
    if outer.kind == "genesis":
        if bytes(outer.body) == bytes(chain.records[0].outer.body):
            return None
        raise WrongGame("this is the genesis of another game")
    if outer.kind != "turn":
        raise FormatError(f"expected a turn file, got a {outer.kind} file")
    body = codec.decode_body(outer, TurnBody)
    if body.game_id != chain.game_id:
        raise WrongGame(f"belongs to another game ({body.game_id[:12]}), not {chain.game_id[:12]}")
    return body.seq


def _settle(folder: Path, chain: Chain, waiting: list[_Waiting], result: Received, notes: list[str] | None) -> None:
    """Apply what fits, in chain order, until nothing more does; keep the
    rest pending."""
    progress = True
    while progress and waiting:
        progress = False
        for item in sorted(waiting, key=lambda w: w.seq):
            if item.seq > chain.seq + 1:
                continue
            waiting.remove(item)
            progress = True
            known = folder_write.already_in(chain, item.data)
            if known is not None:
                result.known.append((item.label, known))
                _drop(item)
                continue
            try:
                if item.seq <= chain.seq:
                    now = _by_the_fork_rules(folder, chain, item, result, notes)
                    if now is not None:
                        if now is not chain:
                            chain = result.chain = now
                        continue
                    folder_write.check_not_known(chain, item.data)
                    raise StaleTurn(f"seq {item.seq} is already in the chain (the head is seq {chain.seq})")
                record = chain.append(item.data, item.label)
            except PbemError as exc:
                result.bad.append(_named(exc, item.label))
                _refuse(folder, item)
                continue
            result.written += folder_write.write_files(folder, chain, [(record, item.data)])
            if item.path is not None:
                _say(notes, f"applied {item.label}, which was waiting for seq {item.seq - 1}")
                _drop(item)
    for item in waiting:
        if item.path is not None:
            continue  # still waiting where it is
        try:
            result.pending.append(_keep(folder, chain, item))
        except PbemError as exc:
            result.bad.append(_named(exc, item.label))
            continue
        _say(notes, f"{item.label} (seq {item.seq}) is kept in {PENDING}/ until seq "
                    f"{chain.seq + 1} arrives (the folder has up to seq {chain.seq})")


def _by_the_fork_rules(folder: Path, chain: Chain, item: _Waiting, result: Received,
                       notes: list[str] | None) -> Chain | None:
    """A received file for a place the chain holds, settled by the rules of
    `pbem.protocol.forks` (the seat that was to write stands over a file
    written out of turn on the same predecessor; a seat's resignation over
    its own other file; a referee's timeout over the late seat's move).
    When the received file stands, it is checked on that predecessor and
    written beside the file it stands over, and the folder, loaded again,
    sets that one (and what followed it) aside; when it is set aside, it
    is dropped with a note. Returns the chain to go on with, or None when
    no rule applies."""
    from pbem.fsio import atomic_write
    from pbem.protocol import forks

    mine = chain.records[item.seq]
    outer = codec.read_envelope(item.data)
    body = codec.decode_body(outer, TurnBody)
    if body.prev != chain.records[item.seq - 1].hash:
        return None
    base = folder_mod.load(folder, stop=item.seq - 1)
    codec.check_signature(outer, base.identity(outer.by))
    losers = forks.settle(base, [(mine.outer, mine.body), (outer, body)])
    name = mine.name or folder_mod.turn_name(mine.seq, mine.by)
    if losers == [0]:
        record = base.append(item.data, item.label)
        path = folder / folder_mod.turn_name(record.seq, record.by)
        if path.name == name:  # its writer's own file stands aside: another name for the one that stands
            path = path.with_name(f"{path.stem}.2.pbem")
        atomic_write(path, item.data, exclusive=True)
        result.written.append(path)
        _drop(item)
        _say(notes, forks.note(base, mine.body, name, body, item.label) + "; so is any file after it")
        return folder_mod.load(folder)
    if losers == [1]:
        _drop(item)
        _say(notes, forks.note(base, body, item.label, mine.body, name))
        return chain
    return None


def _keep(folder: Path, chain: Chain, item: _Waiting) -> Path:
    """Store a file that is early, once it is known to be signed by a party
    of this game (so strangers' files never pile up there)."""
    from pbem.fsio import atomic_write, make_folder

    outer = codec.read_envelope(item.data)
    try:
        signer = chain.identity(outer.by)
    except PbemError:
        raise WrongGame(f"signed by {outer.by!r}, who is not in this game") from None
    codec.check_signature(outer, signer)
    make_folder(folder / PENDING)
    digest = hashlib.sha256(item.data).hexdigest()[:12]
    path = folder / PENDING / f"{item.seq:06d}-{outer.by}.{digest}.pbem"
    if not path.exists():
        atomic_write(path, item.data)
    return path


def _drop(item: _Waiting) -> None:
    if item.path is not None:
        item.path.unlink(missing_ok=True)


def _refuse(folder: Path, item: _Waiting) -> None:
    """A pending file that is bad goes to pending/refused/ (kept, never lost)."""
    if item.path is None:
        return
    from pbem.fsio import make_folder

    make_folder(folder / PENDING / REFUSED)
    shutil.move(str(item.path), str(folder / PENDING / REFUSED / item.path.name))


def _say(notes: list[str] | None, line: str) -> None:
    if notes is not None:
        notes.append(line)
