"""Receiving: a seat's own folder made from the files it received
(`join`), and received files applied to a folder (`pbem apply`, through
`pbem.app.delivery`, the one door into a game folder).
"""

from __future__ import annotations

from pathlib import Path

from pbem.app.creating import new_folder
from pbem.app.opening import Keys, add_notes, check_protocol, check_seat, open_game, seat_secret
from pbem.errors import KeyStoreError, PbemError
from pbem.fsio import atomic_write
from pbem.gamedir import folder as folder_mod, safe_read, folder_write
from pbem.gamedir.lock import LOCK
from pbem.protocol.chain import Chain


def join(folder: Path, received: list[Path], name: str, keys: Keys) -> Path | None:
    """Make `name`'s own folder of a game from the files received (the
    genesis, and any files after it), checked as every verifier checks them
    (the set-up rebuilt from the rules, every key against the address book,
    `name`'s key against its seat) before anything is written.

    In a peer game, and in a referee game dealt after its joins when the
    seats before `name` have joined, it also writes `name`'s join file and
    returns its path (the file to send to the others); otherwise it
    returns None (a hotseat game needs no join; a later seat's join file is
    written by its `pbem sync`; a seat that wrote files of the game before
    gets its folder rebuilt from them, and writes nothing)."""
    if not received:
        raise PbemError("give the genesis file you received")
    if folder.exists() and (not folder.is_dir() or any(p.name != LOCK for p in folder.iterdir())):
        raise PbemError(f"{folder} exists and is not an empty folder")
    # a folder made anew (a lost one rebuilt at the same place): what this
    # user verified of the old one binds the new one no more, as after
    # `verify --full` (its own file that never left the lost disk is
    # written again, and with a new signed time it is another file)
    from pbem.home import checkpoint

    checkpoint.forget(folder)
    genesis = safe_read.received(received[0])
    chain = Chain(genesis, received[0].name)
    rest = [safe_read.received(p) for p in received[1:]]
    for data, path in zip(rest, received[1:]):
        chain.append(data, path.name)
    check_protocol(chain, name, keys, received[0].name)
    keys.pin(chain, folder, write=True)
    check_seat(chain, name, keys)
    secret = seat_secret(chain, name, keys)
    if chain.identity(name) != secret.public:  # both keys, signing and sealing
        raise KeyStoreError(
            f"seat {name} in this game has the key {chain.identity(name).fingerprint()}, "
            f"not your key {name} ({secret.public.fingerprint()})"
        )
    if any(r.by == name for r in chain.records):
        # `name` entered this game before (its join, a move, a peer game's
        # genesis): its folder is being rebuilt from another seat's files,
        # and what was sealed to it is opened again from them when needed
        with new_folder(folder):
            atomic_write(folder / folder_mod.GENESIS, genesis, exclusive=True)
            if rest:
                folder_write.add_files(folder, Chain(genesis), rest)
            else:
                folder_write.write_state(folder, chain)
        return None
    if chain.deck is None:  # a dealer's game
        from pbem.protocol.party import Party

        # a game dealt after its joins takes each seat's contribution, in
        # seat order: written now if it is this seat's turn, else by its
        # `pbem sync` once the seats before it have joined
        mine = Party(chain, secret).answer() if chain.writers() == [name] and not chain.dealt else None
        with new_folder(folder):
            atomic_write(folder / folder_mod.GENESIS, genesis, exclusive=True)
            if rest or mine:
                written = folder_write.add_files(folder, Chain(genesis), [*rest, *([mine] if mine else [])])
                return written[-1] if mine else None
            folder_write.write_state(folder, chain)
        return None
    from pbem.protocol.peer import writer as peer_writer

    mine = peer_writer.join(chain, secret)
    with new_folder(folder):
        atomic_write(folder / folder_mod.GENESIS, genesis, exclusive=True)
        return folder_write.add_files(folder, Chain(genesis), [*rest, mine])[-1]


def apply_file(folder: Path, path: Path) -> Path | None:
    """Add one received file; None when it was already in the chain (or is
    kept pending until its predecessor arrives)."""
    written = apply_files(folder, [path])
    return written[0] if written else None


def receive(folder: Path, paths: list[Path], keys: Keys | None = None, notes: list[str] | None = None):
    """`pbem apply`: add received files (raw, or armored in texts and mails)
    to a game folder, each on its own (`pbem.app.delivery`): files already in
    the chain are skipped with a note, the rest applied in chain order,
    early ones kept pending, bad ones returned in `.bad` (named, with the
    reason) while the others are still applied."""
    from pbem.app import delivery

    items = delivery.read_sources(list(paths))
    with folder_write.writing(folder):
        chain = open_game(folder, keys, write=True)
        handed = chain.handed
        result = delivery.receive(folder, chain, items, notes)
        if keys is not None and (result.chain or chain).handed != handed:
            keys.pin(result.chain or chain, folder, write=True)  # a newcomer, on the word of its handover
        add_notes(notes, folder_write.tidy(folder, result.chain or chain))
    return result


def apply_files(folder: Path, paths: list[Path], keys: Keys | None = None, notes: list[str] | None = None) -> list[Path]:
    """`receive`, raising the first bad file's error once the good ones
    are in; returns the files written."""
    result = receive(folder, paths, keys, notes)
    if result.bad:
        raise result.bad[0]
    return result.written
