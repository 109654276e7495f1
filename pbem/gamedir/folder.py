"""A game folder: the chain as files, plus the `state.pbem` cache.

Layout (DESIGN.md section 4): ``000000-genesis.pbem``, ``000001-<by>.pbem``
... and ``state.pbem``; a hotseat game also keeps its dealer's key as
``dealer.key``. Loading replays and checks every file. A writer holds the
folder's lock (`writing`, see `pbem.gamedir.lock`) from loading to its last write, so
it checks against the head it writes after; each write is atomic and
exclusive, so even writers the lock cannot order (two machines behind a sync
tool) cannot overwrite each other. `state.pbem` is only a cache: `tidy`
rebuilds it whenever it is stale, missing or damaged, and removes the
temporary files of a killed writer. Two valid
files for one place in the chain are a fork: reported with both signers,
never resolved silently.

Here: the chain files' names and `load`, which checks them (continuing from
this user's checkpoint); writing files and the cache is
`pbem.gamedir.folder_write`.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from pathlib import Path

import msgspec

from pbem.home import checkpoint, checkpoint_seen

from pbem.errors import FormatError, ForkError, PbemError, ProtocolError
from pbem.gamedir.safe_read import read
from pbem.protocol import GENESIS, codec
from pbem.gamedir import set_aside
from pbem.gamedir.file_memory import digest_of, remembered_read, unchanged, unchanged_run
from pbem.gamedir.names import DEALER_KEY, PLAIN, STATE, TURN, turn_name  # noqa: F401 (named from here too)
from pbem.protocol.chain import Chain, Record
from pbem.protocol.formats import TurnBody

#: new files a read-only `load` checks before it writes the checkpoint
SAVE_AFTER = 3
_PLAIN = PLAIN


def chain_files(folder: Path) -> dict[int, list[Path]]:
    """Chain files by seq (more than one at a seq is a fork or a conflict copy)."""
    return {seq: [folder / name for name in names] for seq, names in _chain_names(folder).items()}


def _chain_names(folder: Path) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    seq_of = _SEQ_OF
    for name in os.listdir(folder):
        seq = seq_of.get(name, -1)
        if seq == -1:  # not seen by this process: matched once (every load lists every file)
            m = TURN.match(name)
            seq = int(m.group(1)) if m else None
            if len(seq_of) < _SEQ_OF_MAX:
                seq_of[name] = seq
        if seq is not None:  # a folder of such a name is reported when read, not skipped
            out.setdefault(seq, []).append(name)
    for names in out.values():
        if len(names) > 1:
            names.sort()
    return out


#: file name -> its seq as a chain file (None: not one), for every name this
#: process listed, up to `_SEQ_OF_MAX` names (a referee watching many games)
_SEQ_OF: dict[str, int | None] = {}
_SEQ_OF_MAX = 200_000


class _Files(dict):
    """`chain_files` of a folder, each seq's paths made when first asked
    for (`names` is enough to see that a remembered file is still there)."""

    def __init__(self, folder: Path) -> None:
        self.names = _chain_names(folder)
        super().__init__(dict.fromkeys(self.names))
        self.folder = folder

    def get(self, seq: int, default=None):
        names = self.names.get(seq)
        if names is None:
            return default
        paths = dict.__getitem__(self, seq)
        if paths is None:
            paths = [self.folder / name for name in names]
            dict.__setitem__(self, seq, paths)
        return paths

    def __getitem__(self, seq: int) -> list[Path]:
        if seq not in self.names:
            raise KeyError(seq)
        return self.get(seq)

    def same(self, where: str, seq: int, name: str, digest: str, notes: list[str]) -> bool:
        """Whether the file remembered at `seq` is alone there and unchanged
        since this process read it (`file_memory.unchanged`), its note
        (damage repaired outside the signed body) added as a read adds it."""
        names = self.names.get(seq)
        if names is None or len(names) != 1 or names[0] != name:
            return False
        found, damage = unchanged(f"{where}{os.sep}{name}", digest)
        if found and damage:
            notes.append(f"{name} has {damage} (outside the signed body): read as pbem wrote it")
        return found


def load(
    folder: Path | str,
    private_openings: dict[str, str] | None = None,
    openings_at_genesis: Callable[[Chain], dict[str, str] | None] | None = None,
    before_each: Callable[[Chain], None] | None = None,
    full: bool = False,
    save: bool = False,
    stop: int | None = None,
) -> Chain:
    """Check the chain in `folder`: every file, or (from this user's
    verified checkpoint, `pbem.home.checkpoint`) every file not checked before.

    Files the checkpoint covers are hashed, not verified again: when one of
    them is no longer the same bytes (edited, removed, renamed, replaced),
    the folder is replayed from genesis, and when that replay stands, a
    file this user verified has been replaced by another valid one (a
    writer's second version, a rollback): refused all the same. `full`
    replays from genesis without looking at the checkpoint (`pbem verify
    --full`, the audit), and writes it anew. A load that continued from
    the checkpoint and checked fewer than `SAVE_AFTER` new files writes it
    only with `save` (writing it costs more than checking them again).

    With `private_openings` (ref -> card) every seat's command is also
    checked on the state as a party holding those cards sees it.
    `openings_at_genesis`, called with the chain at its genesis (or at the
    checkpoint's head: the dealer's cards follow from the genesis and its
    key either way), may supply them instead, so a writer that holds that
    key replays once, knowing every card, rather than once publicly and once
    more as the dealer. A checkpoint serves such a load only when every file
    it covers was checked that way too.
    `before_each(chain)` sees the chain before each file is appended (the
    audit recomputes there what the dealer owed at that point): it implies
    `full`. `stop` ends the load at that seq, from genesis, and saves nothing.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise PbemError(f"{folder} is not a game folder", hint="pbem new GAME DIR --seat NAME ... creates one")
    files = _Files(folder)
    if 0 not in files:
        raise PbemError(f"{folder} has no {GENESIS}", hint="is this a game folder?")
    chain, verified, private_through, changed = None, [], -1, None
    notes: list[str] = []
    full = full or before_each is not None or stop is not None
    # the dealer's cards are known once the game is dealt: at the genesis,
    # or (a referee game dealt after its joins) at the deal
    ask = openings_at_genesis if private_openings is None else None
    saved = None if full else checkpoint.read(folder)
    remembered: list[tuple[str, str]] = []  # every file this user verified here, by seq
    if saved is not None:
        source = checkpoint.latest(folder, saved)  # or what this process verified past it
        chain, verified, changed = _resume(source, files, notes)
        remembered = list(saved.header.files) + checkpoint_seen.read(folder, saved.header.game_id, saved.header.files[-1])
        if chain is not None:  # the files a look verified since: still the same bytes?
            changed = _first_changed(remembered, len(verified), files)
            chain = None if changed is not None else chain
        if chain is not None:
            private_through = source.header.private_through
            if ask is not None and chain.dealt:
                private_openings, ask = ask(chain), None
            if private_openings is not None and private_through < chain.seq:
                # not checked as the dealer checks: replay knowing the cards,
                # from the last chain this process checked so (a referee's)
                chain, verified, private_through, changed = _resume_private(folder, saved, files, remembered)
    restored = chain is not None
    if chain is None:
        notes, verified, private_through = [], [], -1
        if private_openings is None:
            ask = openings_at_genesis
        genesis = _one_file(files[0], notes)
        if len(genesis) > 1:
            raise FormatError(f"{folder} holds more than one genesis: {', '.join(p.name for p, _ in genesis)}")
        chain = Chain(genesis[0][1], GENESIS)
        verified.append((genesis[0][0].name, digest_of(genesis[0][1])))
    last = max(files) if stop is None else stop
    aside = set_aside.Aside()
    for seq in range(chain.seq + 1, last + 1):
        candidates = aside.drop_followers(_one_file(files.get(seq, []), notes), notes)
        if not candidates and aside.hashes:
            continue  # the set-aside branch runs further than the one that stands
        if not candidates or chain.seq != seq - 1:
            raise ProtocolError(f"{folder}: the file for seq {chain.seq + 1} is missing (the folder has files up to {last})")
        if len(candidates) > 1:
            settled = aside.settle(chain, candidates, notes)
            if settled is None:
                _report_fork(chain, candidates)  # raises: a fork no rule settles
            candidates = settled
        path, data = candidates[0]
        m = TURN.match(path.name)
        if before_each is not None:
            before_each(chain)
        if ask is not None and chain.dealt:
            private_openings, ask = ask(chain), None
        record = chain.append(data, path.name, private_openings)
        if m and m.group(2) != record.by:
            raise FormatError(f"{path.name}: the file is signed by {record.by}, its name says {m.group(2)}")
        verified.append((path.name, digest_of(data)))
    if ask is not None and chain.dealt:  # no file after the genesis or the checkpoint: ask all the same
        private_openings = ask(chain)
    chain.set_aside = aside.paths
    if changed is not None:  # the first verified file that is not what it was, unless the undo rule set it aside
        now = [digest for _, digest in verified]
        changed = next((seq for seq, (_, digest) in enumerate(remembered)
                        if (seq >= len(now) or now[seq] != digest) and digest not in aside.digests), None)
    if changed is not None:
        name = remembered[changed][0]
        raise ProtocolError(
            f"{name} is not the file you verified at seq {changed}: it was changed, removed or replaced "
            "by another valid file (a second version by its writer, or a rollback)",
            hint=f"if that was meant (a fork settled by moving a file out), pbem verify --full {folder} "
            "checks the folder from genesis and forgets the earlier check",
        )
    chain.notes = notes
    if private_openings is not None:
        private_through = chain.seq
    _VERIFIED[chain] = _Verified(Path(os.path.abspath(folder)), verified, private_through)
    if stop is not None:
        return chain
    # a read that checked a file or two saves nothing: writing the
    # checkpoint costs more than checking them again (writers always save)
    if not restored:
        checkpoint.write(folder, chain, verified, private_through)
    else:
        _save(folder, chain, verified, private_through, saved, 1 if save else SAVE_AFTER, len(remembered))
    return chain


def _save(folder: Path, chain: Chain, verified: list[tuple[str, str]], private_through: int,
          saved: checkpoint.Saved | None, least: int, remembered: int) -> None:
    """Write the checkpoint when it lacks at least `least` of the files
    verified (and, in a process that wrote it before, a share of them:
    `checkpoint.due`); else remember the files past it, cheaply
    (`pbem.home.checkpoint_seen`), and the chain in this process's memory."""
    base = [] if saved is None else saved.header.files
    if saved is None or saved.header.game_id != chain.game_id or verified[:len(base)] != base:
        checkpoint.write(folder, chain, verified, private_through)
        return
    if checkpoint.due(folder, len(verified) - len(base), len(verified), least):
        if checkpoint.write(folder, chain, verified, private_through):
            return
    elif len(verified) > remembered:
        checkpoint_seen.write(folder, chain.game_id, base[-1], verified[len(base):])
    if len(verified) > len(base) or private_through > saved.header.private_through:
        checkpoint.remember(folder, chain, verified, private_through)


def _first_changed(remembered: list[tuple[str, str]], start: int, files: _Files) -> int | None:
    """The first seq from `start` whose remembered file is not, alone, the
    same bytes in the folder now."""
    where = os.path.abspath(files.folder)
    for seq in range(unchanged_run(where, files.names, remembered, start, []), len(remembered)):
        if files.same(where, seq, *remembered[seq], []):
            continue
        try:
            candidates = _one_file(files.get(seq, []), [])
        except PbemError:
            return seq
        if len(candidates) != 1 or digest_of(candidates[0][1]) != remembered[seq][1]:
            return seq
    return None


class _Verified(msgspec.Struct):
    """What `load` verified of a chain it returned: its folder, every file
    (name, digest) by seq, and up to which seq as the dealer checks."""

    folder: Path
    files: list[tuple[str, str]]
    private_through: int


#: chain -> what was verified of it, for `write_files` to extend the checkpoint
_VERIFIED: weakref.WeakKeyDictionary[Chain, _Verified] = weakref.WeakKeyDictionary()


def _resume(saved: checkpoint.Saved, files: _Files, notes: list[str]):
    """The checkpoint's chain when every file it covers is still the same
    bytes, else (None, [], the first seq that is not). Another genesis is
    another game (a folder made anew): the checkpoint is not about it."""
    local: list[str] = []
    where = os.path.abspath(files.folder)
    checked = saved.header.files
    seq = unchanged_run(where, files.names, checked, 0, local)  # most often all of them
    for seq, (name, digest) in enumerate(checked[seq:], start=seq):
        if files.same(where, seq, name, digest, local):
            continue
        paths = files.get(seq)
        try:
            candidates = _one_file(paths, local) if paths else []
        except PbemError:
            candidates = []
        if len(candidates) != 1 or digest_of(candidates[0][1]) != digest:
            return None, [], (seq or None)
        if candidates[0][0].name != name:  # the same bytes under another name: checked again as they are
            return None, [], None
    chain = saved.chain()
    if chain is None:
        return None, [], None
    notes.extend(local)
    return chain, list(saved.header.files), None


def _resume_private(folder: Path, saved: checkpoint.Saved, files: _Files,
                    remembered: list[tuple[str, str]]):
    """The last chain this process checked with the dealer's openings up
    to its head (`checkpoint.private_read`), when every file it covers and
    every file this user verified after it are still the same bytes: as
    `_resume` gives it, with its private_through and the first changed seq;
    else nothing to resume from."""
    mine = checkpoint.private_read(folder)
    if mine is None or mine.header.game_id != saved.header.game_id:
        return None, [], -1, None
    chain, verified, _ = _resume(mine, files, [])
    changed = None if chain is None else _first_changed(remembered, len(verified), files)
    if chain is None or changed is not None:
        return None, [], -1, changed
    return chain, verified, mine.header.private_through, None


def _one_file(paths: list[Path], notes: list[str]) -> list[tuple[Path, bytes]]:
    """The distinct files among `paths` (all claiming one seq), each with its
    bytes as pbem writes them.

    Copies with the same bytes under other names (a browser's
    ``000003-bob (1).pbem``, a sync tool's conflict copy of an unchanged
    file) are one file: the plainest name is kept and each copy is noted
    once, never taken for a fork. Damage outside the signed body (line
    endings, final newline) is repaired in memory and noted; only files that
    still differ are candidates for a fork.
    """
    distinct: dict[bytes, Path] = {}
    for path in sorted(paths, key=lambda p: (not _PLAIN.match(p.name), p.name)):
        data, damage = remembered_read(path, _read_normalised)
        if damage:
            notes.append(f"{path.name} has {damage} (outside the signed body): read as pbem wrote it")
        kept = distinct.setdefault(data, path)
        if kept is not path:
            notes.append(f"{path.name} is a copy of {kept.name} (the same file): ignored, and safe to delete")
    return [(path, data) for data, path in distinct.items()]


def _read_normalised(path: Path) -> tuple[bytes, str | None]:
    return codec.normalise(read(path))


def _report_fork(chain: Chain, candidates: list[tuple[Path, bytes]]) -> None:
    """Name the signers of two different files that both claim the next place."""
    signers = []
    paths = [path for path, _ in candidates]
    for path, data in candidates:
        try:
            outer = codec.read_envelope(data, "turn")
            codec.check_signature(outer, chain.identity(outer.by))
            body = codec.decode_body(outer, TurnBody)
        except PbemError as exc:
            raise type(exc)(f"{path.name}: {exc.message}", exc.hint) from None
        if body.prev == chain.head:
            signers.append((outer.by, path.name))
    if len(signers) >= 2:
        (a, fa), (b, fb) = signers[:2]
        raise ForkError(
            f"fork at seq {chain.seq + 1}: {fa} (signed by {a}) and {fb} (signed by {b}) both follow seq {chain.seq}",
            (a, b),
            hint="agree which one stands and move the other out of the folder",
        )
    raise ProtocolError(f"more than one file for seq {chain.seq + 1}: {', '.join(p.name for p in paths)}")


def extend_checkpoint(folder: Path, chain: Chain, staged: list[tuple[Record, bytes]], private: bool) -> None:
    """Add the files just written (`pbem.gamedir.folder_write`) to the checkpoint of the chain `load` gave."""
    seen = _VERIFIED.get(chain)
    if seen is None or seen.folder != Path(os.path.abspath(folder)) or len(seen.files) + len(staged) != chain.seq + 1:
        return  # not a chain `load` verified here: the next load replays and saves
    files = seen.files + [(record.name, checkpoint.digest(codec.normalise(data)[0])) for record, data in staged]
    through = chain.seq if private and seen.private_through == len(seen.files) - 1 else seen.private_through
    _VERIFIED[chain] = _Verified(seen.folder, files, through)
    _save(folder, chain, files, through, checkpoint.read(folder), 1, len(seen.files))

