"""Rebuilding a lost game folder from what the other parties hold (issue
24, part 6).

A game folder holds nothing that is not in the chain files every party
keeps: what is hidden from the others (a seat's hand, a peer seat's
shuffle scalars, beacon seed and private decks) is sealed in those files
to the seat's own key, and opened again from them whenever it is needed.
So a player who lost their folder (a dead disk, a new machine) but kept
their key store makes it again from any other party's files:

* `pbem join DIR FILES... --as NAME` (`receiving.join`): the genesis and
  the files after it, from another seat's folder; a seat that wrote files
  of the game before gets them back and writes no second join;
* `pbem apply DIR FILES...` into a folder that does not exist or is empty
  (`apply_into_empty`): the same, from pbem files, mails or forum posts,
  with no seat named (apply never writes a file of its own);
* `pbem mail fetch DIR --as NAME` into a new folder (`pbem.app.mailing`): the
  files in the mailbox, the player's own among them, since `mail send`
  mails a copy of every file the player wrote to the player itself.

What a folder holds beside the chain files is either rebuilt or comes
again: `state.pbem` is a cache of the chain, and the files waiting in
``pending/`` are in the mail or the other folders still. Only a hotseat
game's ``dealer.key`` lives nowhere else, but a hotseat game is on one
machine and has no other party to rebuild from. With the key store gone
too, nothing sealed to the seat can be opened again by anyone (README,
"Long games").
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError, WrongGame
from pbem.protocol import codec
from pbem.protocol.chain import Chain
from pbem.protocol.formats import TurnBody


def is_empty(folder: Path) -> bool:
    """A folder that holds nothing but an empty lock file, or none yet
    where one can be made (under a folder, not under a file)."""
    from pbem.gamedir.lock import LOCK

    if folder.is_dir():
        return all(p.name == LOCK for p in folder.iterdir())
    if folder.exists():
        return False
    nearest = next((p for p in folder.absolute().parents if p.exists()), None)
    return nearest is not None and nearest.is_dir()


def fitting(genesis: bytes, files: list[bytes]) -> tuple[list[bytes], list[int]]:
    """The files that follow `genesis` one after another (in seq order,
    each checked as the chain checks it), and the seqs of those left over
    after the last one that fits (a gap: a file that has not arrived)."""
    chain = Chain(genesis)
    seqs = {}
    for data in files:
        outer = codec.read_envelope(data)
        if outer.kind == "turn":
            seqs.setdefault(data, codec.decode_body(outer, TurnBody).seq)
    kept = []
    for data in sorted(seqs, key=seqs.get):
        if seqs[data] != chain.seq + 1:
            continue
        try:
            chain.append(data, f"seq {seqs[data]}")
        except PbemError:
            continue  # a fork or a bad file: `pbem apply` names it afterwards
        kept.append(data)
    return kept, sorted({s for s in seqs.values() if s > chain.seq})


def apply_into_empty(folder: Path, paths: list[Path], keys, notes: list[str] | None = None):
    """`pbem apply` into a new folder: the genesis among the files given
    makes the game (its identities checked against the address book as a
    join checks them), and the other files are applied to it as `pbem
    apply` applies them (`delivery.receive`)."""
    from pbem.app import creating, delivery
    from pbem.fsio import atomic_write
    from pbem.gamedir import folder as folder_mod, folder_write

    items = delivery.distinct(delivery.read_sources(paths))
    geneses = []
    for item in items:
        if item.data is not None and codec.read_envelope(item.data).kind == "genesis" and item.data not in geneses:
            geneses.append(item.data)
    if not geneses:
        raise PbemError(f"{folder} holds no game, and the files given hold no genesis",
                        hint="give the game's 000000-genesis.pbem too (every party's folder has it), or the whole "
                             "folder of another party: pbem apply DIR THEIR-DIR/0*.pbem")
    if len(geneses) > 1:
        raise WrongGame(f"the files given hold the genesis of {len(geneses)} games: apply one game at a time")
    chain = Chain(geneses[0], folder_mod.GENESIS)
    if keys is not None:
        keys.pin(chain, folder, write=True)
    with creating.new_folder(folder):
        atomic_write(folder / folder_mod.GENESIS, geneses[0], exclusive=True)
        folder_write.write_state(folder, chain)
        rest = [i for i in items if i.data != geneses[0]]
        result = delivery.receive(folder, chain, rest, notes)
        if notes is not None:
            notes.extend(folder_write.tidy(folder, result.chain or chain))
    result.written.insert(0, folder / folder_mod.GENESIS)
    return result
