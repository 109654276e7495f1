"""Seeded games for the benchmarks: every game in every dealer mode, played
to the end by bots through the real protocol, and prefixes of them (a
prefix of a valid chain is a valid chain) for the shorter lengths.

Agent Avenue and Codenames pick uniformly among `pbem legal`'s commands.
A Codex bot game is too short for the 300-file figures (the greedy bot
ends one in about 110 commands, the random one in 100-220), so a long
Codex game chains two bots (`calm`): until the chain holds `calm` files
each seat plays the random bot's choices without attacks (a build-up: units,
buildings, workers and spells, no damage), then the greedy bot attacks and
ends the game, 60-150 files later. With calm=260 a seeded game lasts well
over 300 files (hotseat: the dealer's draw files come on top), so its
300-file prefix and the whole game are both at hand."""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from pbem.app import creating, opening, reading, receiving, writing
from pbem.home.store import KeyStore
from pbem.gamedir import folder as folder_mod, folder_write

#: game -> (title, seats as NAME[:ROLE])
GAMES = {
    "aa": ("Agent Avenue", ["alice", "bob"]),
    "cn": ("Codenames", ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"]),
    "cx": ("Codex", ["alice", "bob"]),
}
MODES = ("hotseat", "referee", "peer")
#: games `make` also plays, outside the main benchmark's loop over GAMES:
#: Dark Agent's random-bot games run past 1,000 files (`bench_memory.py`)
MORE_GAMES = {"da": ("Dark Agent", ["alice", "bob", "carol"])}


@dataclass
class Seeded:
    """One finished game: the folder of each party and its key store."""

    game: str
    mode: str
    dirs: dict[str, Path]  # party -> its folder ("" for the one shared folder)
    homes: dict[str, Path]  # party -> its $PBEM_HOME
    files: int = 0
    over: bool = True  # played to its end (an audit needs that)
    turn_sizes: list[int] = field(default_factory=list)
    state_size: int = 0

    @property
    def title(self) -> str:
        return f"{(GAMES | MORE_GAMES)[self.game][0]}, {self.mode}"

    def folder(self, party: str | None = None) -> Path:
        return self.dirs.get(party or "", next(iter(self.dirs.values())))

    def home(self, party: str | None = None) -> Path:
        return self.homes.get(party or "", next(iter(self.homes.values())))


def _store(home: Path, names: list[str]) -> opening.Keys:
    keys = opening.Keys(KeyStore(home), lambda: "")
    for n in names:
        keys.store.create(n, None)
    return keys


def _bot_command(mine, party, me: str, rng: random.Random, calm: int) -> str:
    """A Codex command in notation: the random bot's choices without attacks
    while the chain is shorter than `calm` files, then the greedy bot's."""
    from pbem.games.codex.commands import Attack

    game, state = mine.game, party.state()
    if len(mine.records) < calm:
        calm_ones = [c for c in game.legal(state, me) if not isinstance(c, Attack)]
        cmd = rng.choice(calm_ones) if calm_ones else game.presentation.bots["random"](game, state, me, rng)
    else:
        cmd = game.presentation.bots["greedy"](game, state, me, rng)
    return game.presentation.format(cmd, state, me)


def _play_in_memory(g: Path, keys: opening.Keys, rng: random.Random, limit: int = 2000, calm: int | None = None,
                    stop: int | None = None) -> None:
    """`_play` for one shared folder, with the chain kept in memory: each
    file is signed and checked by the real writers and `Chain.append`, then
    written into the folder, without reloading the folder at every step
    (a 300-file Codex game is generated in a fraction of the time). The
    folder is loaded and verified once at the end, as a player's first
    command would."""
    from pbem.protocol.party import Party

    chain = folder_mod.load(g)
    dealer = opening.hotseat_dealer(g, chain) if chain.dealer_mode == "hotseat" else None
    secrets = {}

    def secret(name: str):
        if dealer is not None and name == dealer.name:
            return dealer
        if name not in secrets:
            secrets[name] = keys.secret(name)
        return secrets[name]

    for _ in range(limit):
        writers = chain.writers()
        if not writers or (stop is not None and len(chain.records) >= stop):
            break
        me = writers[0]
        party = Party(chain, secret(me))
        if party.is_dealer or chain.needs(me) == "auto":
            data = party.answer()
        else:
            cmd = rng.choice(reading.legal(chain, party)) if calm is None else _bot_command(chain, party, me, rng, calm)
            data = party.turn(writing.parse_commands(chain, party, [cmd]))
        record = chain.append(data)
        (g / folder_mod.turn_name(record.seq, record.by)).write_bytes(data)
    else:
        raise RuntimeError("the bot game did not end")
    folder_write.write_state(g, folder_mod.load(g))


def _play(dirs: dict[str, Path], keys: dict[str, opening.Keys], rng: random.Random, limit: int = 2000,
          calm: int | None = None, stop: int | None = None) -> None:
    """Play until the game ends (or holds `stop` files); `calm`: the Codex bots above."""
    for _ in range(limit):
        chain = folder_mod.load(next(iter(dirs.values())))
        writers = chain.writers()
        if not writers or (stop is not None and len(chain.records) >= stop):
            return
        me = writers[0]
        home = dirs.get(me, next(iter(dirs.values())))
        if chain.needs(me) == "auto":
            written = writing.sync(home, me, keys[me])
        else:
            mine = chain if len(dirs) == 1 else folder_mod.load(home)
            party = opening.party(mine, me, keys[me])
            if calm is None:
                cmd = rng.choice(reading.legal(mine, party))
            else:
                cmd = _bot_command(mine, party, me, rng, calm)
            written = writing.submit(home, me, [cmd], keys[me])
        for d in dirs.values():
            if d != home:
                receiving.apply_files(d, written)
    raise RuntimeError("the bot game did not end")


def make(game: str, mode: str, base: Path, seed: int, calm: int = 0, stop: int | None = None,
         options: tuple[str, ...] = ()) -> Seeded:
    """Play one game to its end, or to `stop` files (PbemError when the game
    has no such mode); `calm`: files of the calm Codex build-up; `options`:
    ``KEY=VALUE`` as for ``pbem new --option`` (Codex's specs)."""
    bots = {"calm": calm, "stop": stop} if game == "cx" else {"stop": stop}
    rng = random.Random(seed)
    seats = (GAMES | MORE_GAMES)[game][1]
    names = [s.partition(":")[0] for s in seats]
    base.mkdir(parents=True, exist_ok=True)
    if mode == "peer":
        homes = {n: base / f"home-{n}" for n in names}
        keys = {n: _store(homes[n], [n]) for n in names}
        for n in names:
            for o in names:
                if o != n:
                    keys[n].store.import_identity(keys[o].store.export(o))
        dirs = {n: base / f"game-{n}" for n in names}
        creating.new_game(game, dirs[names[0]], seats, keys[names[0]], "peer", options=list(options), creator=names[0])
        received = [dirs[names[0]] / folder_mod.GENESIS]
        for i, n in enumerate(names[1:], 1):
            mine = receiving.join(dirs[n], received, n, keys[n])
            for o in names[:i]:
                receiving.apply_file(dirs[o], mine)
            received.append(mine)
        _play(dirs, keys, rng, **bots)
        out = Seeded(game, mode, dirs, homes)
    else:
        everyone = names + (["rita"] if mode == "referee" else [])
        home = base / "home"
        keys = _store(home, everyone)
        g = base / "game"
        creating.new_game(game, g, seats, keys, mode, "rita" if mode == "referee" else None,
                         seed if mode == "hotseat" else None, list(options))
        _play_in_memory(g, keys, rng, **bots)
        out = Seeded(game, mode, {"": g}, {"": home})
    chain = folder_mod.load(out.folder())
    out.files = len(chain.records)
    out.over = chain.over
    paths = sorted(out.folder().glob("[0-9]*.pbem"))
    out.turn_sizes = [p.stat().st_size for p in paths if not p.name.startswith("000000")]
    out.state_size = (out.folder() / folder_mod.STATE).stat().st_size
    return out


def prefix(src: Path, dst: Path, files: int) -> Path:
    """A copy of the folder `src` holding only its first `files` chain files
    (and its dealer key, and a `state.pbem` that matches)."""
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    for p in sorted(src.iterdir()):
        if p.name == folder_mod.DEALER_KEY or (p.name[:6].isdigit() and int(p.name[:6]) < files):
            shutil.copy2(p, dst / p.name)
    folder_write.write_state(dst, folder_mod.load(dst))
    return dst


def decision_point(src: Path, around: int) -> int:
    """The smallest prefix length >= `around` after which a seat must decide
    (so that `legal` and `submit` have something to do); 0 if none."""
    chain = folder_mod.load(src)
    records = chain.records
    for n in range(max(1, around), len(records)):
        nxt = records[n]
        if nxt.commands and nxt.by in chain.seats:
            return n
    return 0
