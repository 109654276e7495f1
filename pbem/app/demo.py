"""`pbem demo`: bots play a whole game through the real file protocol.

Nothing is simulated: the demo makes real identities in a throw-away key
store, creates the game folder with `pbem new`'s code, and every move is a
notation string that goes through `submit` (parse, sign, check, write), the
dealer answering as it would for people. It ends by verifying (and, once the
seed is out, auditing) the folder it wrote.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pbem import games
from pbem.app import creating, opening, reading, receiving, writing
from pbem.home.store import KeyStore
from pbem.errors import InvalidOption
from pbem.app.audit import AuditReport, audit


def run_demo(
    game_name: str,
    folder: Path | None,
    seed: int | None,
    dealer: str,
    bot: str | None,
    echo: Callable[[str], None],
    max_files: int = 5000,
    keys_dir: Path | None = None,
    options: list[str] = (),
) -> Path:
    """Play a whole game with bots; returns the game folder (in a peer game,
    the folder holding one folder per player). `options` are ``KEY=VALUE``
    strings as for ``pbem new --option`` (they may choose the table: a
    Codenames Duet demo seats two players)."""
    started, cpu = time.perf_counter(), time.process_time()
    game = games.get(game_name)
    options = list(options)
    raw: dict = dict(creating.parse_options(options))
    for key in game.info.file_options & set(raw):
        raw[key] = creating.read_option_file(key, raw[key])
    parsed = game.options(raw)
    bot = bot or game.presentation.demo_bot
    if bot not in game.presentation.bots:
        raise InvalidOption(f"{game.info.name} has no bot {bot!r} (bots: {', '.join(sorted(game.presentation.bots))})")
    home = keys_dir or Path(tempfile.mkdtemp(prefix="pbem-demo-keys-"))
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="pbem-demo-")) / "game"
    seats = list(game.presentation.demo_seats(parsed))
    names = [seat.partition(":")[0] for seat in seats]
    rng = random.Random(seed)
    if dealer == "peer":
        table = _peer_table(game, folder, seats, names, home, options)
    else:
        table = _shared_table(game, folder, seats, names, home, dealer, seed, options)
    first = table.folder(names[0])
    chain = opening.open_game(first)
    echo(f"{game.info.title}: {', '.join(chain.seat_order)} ({dealer} dealer), game {chain.game_id[:12]} in {folder}")
    echo(f"keys of the bots: {home}")
    if seed is not None and dealer != "hotseat":
        echo(f"--seed {seed} fixes the bots' choices only: a {dealer} game's deal takes every seat's secret share, "
             "which no seed fixes")
    shown = 1
    while len(chain.records) < max_files:
        writers = chain.writers()
        if not writers:
            break
        who = writers[0]
        mine = table.folder(who)
        if chain.needs(who) == "auto":
            written = writing.sync(mine, who, table.keys(who))
        else:
            # the first folder was loaded just now and nothing was written since
            seen = chain if mine == first else opening.open_game(mine)
            me = opening.party(seen, who, table.keys(who))
            state = me.state()
            command = game.presentation.bots[bot](game, state, who, rng)
            written = writing.submit(mine, who, [game.presentation.format(command, state, who)], table.keys(who))
        table.mail(who, written)
        chain = opening.open_game(first)
        for line in reading.log_lines(chain, since=shown)[:len(chain.records) - shown]:
            echo(line)
        shown = len(chain.records)
    echo("")
    echo(reading.render(chain, None))
    outcome = chain.outcome()
    echo(f"result: {outcome.reason if outcome else 'unfinished'}")
    audited: dict[bytes, AuditReport] = {}
    for each in table.folders():
        checked = opening.verify(each)
        echo(f"pbem verify {each}: ok ({len(checked.records)} files)")
        same = _contents(each)  # a peer game's folders hold the same files: audited once
        report = audited.get(same) or audit(each)
        audited[same] = report
        if not report.ok:
            for failure in report.failures:
                echo(f"FAIL {failure}")
            raise InvalidOption("the demo's own audit failed")  # pragma: no cover - a bug
        echo(f"pbem audit {each}: ok ({report.checks} checks)")
    echo(f"done in {time.perf_counter() - started:.1f} s ({time.process_time() - cpu:.1f} s of CPU)")
    return folder


def _contents(folder: Path) -> bytes:
    """A digest of every name and byte of `folder` (but its `state.pbem`, a
    cache the audit never reads): two folders with the same one hold the
    same files, so an audit of one (a pure function of them, `full`: never
    from a checkpoint) is the other's."""
    import hashlib

    from pbem.gamedir.folder import STATE

    digest = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.name == STATE:
            continue
        data = path.read_bytes() if path.is_file() and not path.is_symlink() else b"not a plain file"
        digest.update(b"%d:%s%d:" % (len(path.name), path.name.encode(), len(data)) + data)
    return digest.digest()


class _Table:
    """Who keeps which folder and key store, and how files travel."""

    def __init__(self, folders: dict[str, Path], keys: dict[str, opening.Keys], default: str) -> None:
        self._folders, self._keys, self._default = folders, keys, default

    def folder(self, who: str) -> Path:
        return self._folders.get(who, self._folders[self._default])

    def keys(self, who: str) -> opening.Keys:
        return self._keys.get(who, self._keys[self._default])

    def folders(self) -> list[Path]:
        return sorted(set(self._folders.values()))

    def mail(self, sender: str, paths: list[Path]) -> None:
        """Give what `sender` wrote to everyone who keeps another folder."""
        for name, other in self._folders.items():
            if other != self.folder(sender) and paths:
                receiving.apply_files(other, paths)


def _shared_table(game, folder: Path, seats, names, home: Path, dealer: str, seed, options) -> _Table:
    """Hotseat or referee: one folder, one key store on one machine."""
    keys = opening.Keys(store=KeyStore(home), passphrase=lambda: "")
    for name in names:
        keys.store.create(name, None)
    referee = None
    if dealer == "referee":
        referee = "referee"
        keys.store.create(referee, None)
    creating.new_game(game.info.name, folder, seats, keys, dealer, referee, seed if dealer == "hotseat" else None, options)
    return _Table({name: folder for name in names}, {name: keys for name in names}, names[0])


def _peer_table(game, folder: Path, seats, names, home: Path, options) -> _Table:
    """Peer: each player has their own key store and folder; only files travel."""
    keys = {name: opening.Keys(store=KeyStore(home / name), passphrase=lambda: "") for name in names}
    for name in names:
        keys[name].store.create(name, None)
    for name in names:
        for other in names:
            if other != name:
                keys[name].store.import_identity(keys[other].store.export(other))
    folders = {name: folder / name for name in names}
    creating.new_game(game.info.name, folders[names[0]], seats, keys[names[0]], "peer", options=options, creator=names[0])
    received = [folders[names[0]] / "000000-genesis.pbem"]
    for name in names[1:]:
        joined = receiving.join(folders[name], received, name, keys[name])
        received.append(joined)
        for other in names:
            if other != name and folders[other].exists():
                receiving.apply_files(folders[other], [joined])
    return _Table(folders, keys, names[0])
