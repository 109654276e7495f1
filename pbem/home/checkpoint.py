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

The chain is pickled whole (`pbem.home.checkpoint_pickle`; the sealed
storage is `pbem.home.checkpoint_seal`), so attributes added to `Chain`
need nothing here; the game object is pickled by reference (name and rules version) and
looked up again, so its bots and pictures are never imported by a restore.
`private_through` says up to which seq every file was also checked with the
dealer's openings (the check only a dealer can make): a dealer's command
continues from the checkpoint only when that covers the head.

The in-process memory of checkpoints (`_READ`, `_PRIVATE`, `_LATEST`,
`_WROTE`) stays here: `read`, `write` and `forget` keep it in step with
the files, and it keeps the files in step at exit (`_flush`).
"""

# (no postponed annotations: msgspec reads these at once)

import atexit
import contextlib
import hashlib
import io
import os
import pickle
from pathlib import Path

import msgspec

from pbem.home.checkpoint_pickle import LazyRecords, Segments, Unpickler, copy_chain, pickled_pieces, template
from pbem.home.checkpoint_seal import authentic, code_version, home, sealed_write_stat, stat_key
from pbem.protocol.chain import Chain

#: first bytes of a checkpoint; bumped when the layout below changes (4: the
#: chain's head is a frozen `Head`, and each record keeps the one before it)
MAGIC = b"pbem-checkpoint/4\n"


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


class Saved(msgspec.Struct):
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
                records = LazyRecords(Segments(list(segments), list(counts)))
                chain = Unpickler(io.BytesIO(head), records).load()
            except Exception:  # noqa: BLE001 - a checkpoint that does not load is ignored, never fatal
                return None
            if not isinstance(chain, Chain) or chain.game_id != self.header.game_id or chain.seq != self.header.seq:
                return None
            self.template = chain
        return copy_chain(self.template)


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


#: the checkpoints this process read or wrote: path -> (its `lstat` then, what it holds)
_READ: dict[str, tuple[tuple, Saved]] = {}
#: per folder, the last checkpoint this process wrote with every file checked as the dealer checks
_PRIVATE: dict[str, Saved] = {}


def read(folder: Path) -> Saved | None:
    """The checkpoint of `folder`, when it is authentic and made by this code for this folder.

    Read once per process: while the file is the very one read or written
    here before (its `lstat`: pbem replaces a checkpoint, never edits it,
    so another one has another inode), what it held is taken from memory."""
    path = path_for(folder)
    try:
        key = stat_key(os.stat(path))
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
        pieces = pickled_pieces(chain)
    except Exception:  # noqa: BLE001 - e.g. an attribute that does not pickle: no checkpoint
        return False
    payload = pickle.dumps(pieces, protocol=pickle.HIGHEST_PROTOCOL)
    head = msgspec.json.encode(header)
    target = path_for(folder)
    key = sealed_write_stat(target, MAGIC + len(head).to_bytes(4, "big") + head + payload)
    _READ.pop(str(target), None)
    if key is False:
        return False
    saved = Saved(header, payload, template(chain, *pieces[1:]))
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
#: once it lacks this share of the files (1/LAZY_SHARE), or at exit; in a
#: game shorter than LAZY_FROM files (cheap to write) once it lacks one. A
#: quarter: a write costs in proportion to the game, so a long-lived
#: process (a demo, a watcher) writes a folder's about LAZY_FROM +
#: 4·ln(files/LAZY_FROM) times over a game (a 32nd made that 32 +
#: 32·ln(files/32): most of a peer demo's checkpoint time). A crash loses
#: only that share's replay by the next process: the files verified since
#: are remembered at once (`pbem.home.checkpoint_seen`) all the same.
LAZY_SHARE = 4
LAZY_FROM = 32
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
    return not _WROTE.get(str(_where(folder))) or files < LAZY_FROM or behind >= files // LAZY_SHARE


def remember(folder: Path, chain: Chain, files: list[tuple[str, str]], private_through: int) -> None:
    """Keep in memory a chain verified past the checkpoint on disk (`latest`,
    and `private_read` when checked as the dealer checks up to its head)."""
    if len(files) != chain.seq + 1:
        return
    header = Header(code=code_version(), folder=str(_where(folder)), game_id=chain.game_id, game=chain.game.info.name,
                    rules_version=chain.game.info.rules_version, seq=chain.seq, files=list(files),
                    private_through=private_through)
    saved = Saved(header, b"", copy_chain(chain))
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


def forget(folder: Path) -> None:
    """Remove the checkpoint of `folder` (its files no longer match it), and
    what looks verified after it (`pbem.home.checkpoint_seen`)."""
    for path in (path_for(folder), seen_path(folder)):
        with contextlib.suppress(OSError):
            path.unlink()
    _READ.pop(str(path_for(folder)), None)
    for memo in (_PRIVATE, _LATEST, _WROTE):
        memo.pop(str(_where(folder)), None)


