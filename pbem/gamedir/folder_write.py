"""Adding files to a game folder: checked files written atomically and
exclusively under the folder's lock, received files told apart from
duplicates and forks, and the `state.pbem` cache kept (or rebuilt by
`tidy` after a killed writer).

Apart from `pbem.gamedir.folder` because a load only reads: this is every
command that changes a folder. It extends the checkpoint of the chain
`folder.load` gave (`folder.extend_checkpoint`), so a writer never replays
what it just wrote.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import msgspec

from pbem.crypto.encoding import FORMAT, canonical
from pbem.errors import FolderBusy, ForkError, PbemError, ProtocolError, StaleTurn
from pbem.fsio import atomic_write, stray_temp_files
from pbem.gamedir import set_aside
from pbem.gamedir.folder import DEALER_KEY, STATE, TURN, extend_checkpoint, turn_name
from pbem.gamedir.lock import LOCK, folder_lock
from pbem.gamedir.safe_read import read_at_most
from pbem.protocol import codec
from pbem.protocol.chain import Chain, Record
from pbem.protocol.formats import StateFile, TurnBody
from pbem.protocol.turn_parts import OutcomeData


def state_file(chain: Chain) -> bytes:
    """The `state.pbem` cache for the chain's head."""
    outcome = chain.outcome()
    body = StateFile(
        format=FORMAT,
        kind="state",
        game=chain.game.info.name,
        game_id=chain.game_id,
        seq=chain.seq,
        head=chain.head,
        public=msgspec.Raw(canonical(chain.public)),
        revealed=dict(sorted(chain.revealed.items())),
        known={s: sorted(chain.known[s]) for s in chain.seat_order},
        obligations=chain.obligations(),
        to_act=chain.writers(),
        outcome=None if outcome is None else OutcomeData(outcome.winners, outcome.reason, outcome.scores),
        undo=chain.pending_undo(),
    )
    return canonical(body) + b"\n"


def write_state(folder: Path, chain: Chain) -> None:
    """Write `state.pbem`, a cache of the head: atomically, but not flushed
    to the disk (a stale or damaged one is rebuilt from the chain), which
    halves the `fsync`s of a step."""
    atomic_write(folder / STATE, state_file(chain), durable=False)


def state_cache_ok(folder: Path, chain: Chain) -> bool:
    """Whether `state.pbem` is exactly the cache of the chain's head."""
    expected = state_file(chain)
    try:
        return read_at_most(folder / STATE, len(expected) + 1, follow=False) == expected
    except (OSError, PbemError):  # missing, unreadable, not a regular file
        return False


def check_state_cache(folder: Path, chain: Chain) -> None:
    """Raise when `state.pbem` exists and is not the chain's cache (the
    strict check of shipped examples; commands rebuild it instead)."""
    path = folder / STATE
    if path.exists() and not state_cache_ok(folder, chain):
        raise ProtocolError(
            f"{STATE} does not match the chain (damaged or edited)",
            hint="pbem verify --repair rewrites it from the chain",
        )


def _ours(target: str) -> bool:
    """Files pbem writes into a game folder (whose temp files it may clean)."""
    return target in (STATE, DEALER_KEY) or bool(TURN.match(target))


def needs_tidy(folder: Path, chain: Chain) -> bool:
    return not state_cache_ok(folder, chain) or bool(stray_temp_files(folder, _ours)) or bool(chain.set_aside)


def tidy(folder: Path, chain: Chain) -> list[str]:
    """Undo what a killed writer may have left: stray temporary files and a
    stale, missing or damaged `state.pbem` (only a cache: rebuilt from the
    chain). Call while holding the folder's lock; returns one note for each
    thing done, for the user (library code does not print)."""
    notes = set_aside.move_aside(folder, chain)
    strays = stray_temp_files(folder, _ours)
    for path in strays:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    if strays:
        n = len(strays)
        notes.append(f"removed {n} temporary file{'s' if n != 1 else ''} left by an interrupted command")
    if not state_cache_ok(folder, chain):
        what = "was missing" if not (folder / STATE).exists() else "did not match the chain"
        try:
            write_state(folder, chain)
        except OSError as exc:
            notes.append(f"{STATE} {what} and cannot be rewritten ({exc.strerror}); it is only a cache")
        else:
            notes.append(f"{STATE} {what} (an interrupted command or an edit): rebuilt it from the chain")
    return notes


@contextlib.contextmanager
def writing(folder: Path) -> Iterator[None]:
    """Hold the folder's write lock (`pbem.gamedir.lock`) around load, check and write."""
    if not folder.is_dir():
        raise PbemError(f"{folder} is not a game folder", hint="pbem new GAME DIR --seat NAME ... creates one")
    try:
        with folder_lock(folder):
            yield
    except FolderBusy:
        raise
    except OSError as exc:
        if exc.filename and Path(exc.filename).name == LOCK:
            raise PbemError(f"cannot lock {folder} for writing: {exc.strerror}") from None
        raise


def add_file(folder: Path, chain: Chain, data: bytes) -> Path:
    """Check `data` against the head, then write it (exclusively) and the cache.

    On any error nothing in the folder changes.
    """
    return add_files(folder, chain, [data])[0]


def add_files(folder: Path, chain: Chain, datas: list[bytes]) -> list[Path]:
    """Check every file in order against the chain, then write them all:
    all of them or (when one is refused) none."""
    staged = []
    for data in datas:  # named as each will be written, so an error names its file
        try:
            name = turn_name(chain.seq + 1, codec.read_envelope(data).by)
        except PbemError:
            name = f"the file for seq {chain.seq + 1}"
        staged.append((chain.append(data, name), data))
    return write_files(folder, chain, staged)


def write_files(folder: Path, chain: Chain, staged: list[tuple[Record, bytes]], private: bool = False) -> list[Path]:
    """Write files already checked into `chain` (its records), in order, then
    the cache and this user's checkpoint (`private`: the files were checked
    with the dealer's openings too). Each write is atomic and exclusive; a
    writer killed halfway leaves a shorter valid chain, which the next
    command continues."""
    set_aside.move_aside(folder, chain)  # their names may be the ones these files take
    written = []
    for record, data in staged:
        path = folder / turn_name(record.seq, record.by)
        record.name = path.name
        try:
            atomic_write(path, data, exclusive=True)
        except FileExistsError:
            raise StaleTurn(
                f"{path.name} already exists: someone wrote seq {record.seq} at the same time",
                hint="run pbem status to see the new head",
            ) from None
        written.append(path)
    write_state(folder, chain)
    extend_checkpoint(folder, chain, staged, private)
    return written


def already_in(chain: Chain, data: bytes) -> str | None:
    """The name under which these exact bytes are already in the chain."""
    try:
        outer = codec.read_envelope(data)
        body = codec.decode_body(outer, TurnBody) if outer.kind == "turn" else None
    except PbemError:
        return None
    if body is None or body.game_id != chain.game_id or not 1 <= body.seq <= chain.seq:
        return None
    mine = chain.records[body.seq]
    if bytes(mine.outer.body) == bytes(outer.body) and mine.outer.sig == outer.sig:
        return mine.name or turn_name(mine.seq, mine.by)
    return None


def incoming(folder: Path, chain: Chain, data: bytes) -> Path:
    """Add one received file (`pbem apply`)."""
    return incoming_all(folder, chain, [data])[0]


def incoming_all(folder: Path, chain: Chain, datas: list[bytes]) -> list[Path]:
    """Add received files in chain order, telling duplicates and forks apart
    from other errors; all of them or none."""
    ordered = sorted(datas, key=_seq_of)
    for data in ordered:
        check_not_known(chain, data)
    return add_files(folder, chain, ordered)


def _seq_of(data: bytes) -> int:
    """Where a received file claims to go (only to sort; `append` checks)."""
    outer = codec.read_envelope(data)
    if outer.kind != "turn":
        return 0
    try:
        return codec.decode_body(outer, TurnBody).seq
    except PbemError:
        return 0


def check_not_known(chain: Chain, data: bytes) -> None:
    """A file for a place the chain already has: the same file, or a fork."""
    outer = codec.read_envelope(data)
    if outer.kind != "turn":
        return
    try:
        body = codec.decode_body(outer, TurnBody)
    except PbemError:
        return  # `append` says what is wrong with it
    if body.game_id != chain.game_id or not 1 <= body.seq <= chain.seq:
        return
    mine = chain.records[body.seq]
    name = mine.name or turn_name(mine.seq, mine.by)
    if bytes(mine.outer.body) == bytes(outer.body):
        raise StaleTurn(f"this file is already in the chain as {name}")
    try:
        codec.check_signature(outer, chain.identity(outer.by))
    except PbemError:
        return
    if body.prev == chain.records[body.seq - 1].hash:
        raise ForkError(
            f"fork at seq {body.seq}: this file (signed by {outer.by}) and {name} (signed by {mine.by}) "
            f"both follow seq {body.seq - 1}",
            (outer.by, mine.by),
        )
