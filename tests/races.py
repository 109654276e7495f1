"""Games paused at a write, for the kill and concurrency tests.

`tables(base)` sets up one Agent Avenue game per dealer mode (hotseat,
referee, peer) through the CLI, a few files in, and describes the writing
commands that can be run on it as real `pbem` subprocesses: each `Case` is a
folder, the key store to use, and the arguments of one command that writes.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from conftest import Pbem


def pbem_argv(*args) -> list[str]:
    return [sys.executable, "-m", "pbem", *map(str, args)]


def spawn(home: Path, *args, env: dict | None = None) -> subprocess.Popen:
    full = {**os.environ, "PBEM_HOME": str(home), **(env or {})}
    full.pop("PBEM_PASSPHRASE", None)
    return subprocess.Popen(pbem_argv(*args), env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@dataclass
class Case:
    """One writing command: `args(folder)` run with `home` on a copy of `folder`."""

    name: str
    home: Path
    folder: Path
    make_args: object  # (folder) -> list
    sources: list[Path] = field(default_factory=list)

    def args(self, folder: Path) -> list:
        return self.make_args(folder)


@dataclass
class Table:
    mode: str
    homes: dict[str, Path]  # seat -> key store
    dirs: dict[str, Path]  # seat -> folder (one shared folder unless peer)

    def run(self, who: str) -> Pbem:
        return Pbem(self.homes[who])

    def status(self, who: str | None = None) -> dict:
        who = who or next(iter(self.dirs))
        return self.run(who).json("status", self.dirs[who])

    def step(self, rng: random.Random) -> list[str]:
        """One file by whoever must write, given to every other folder."""
        to_act = self.status()["to_act"]
        who = to_act[0]["seat"]
        me = self.run(who)
        if to_act[0]["needs"] == "auto":
            written = me("sync", self.dirs[who], "--as", who).stdout.split()
        else:
            cmds = me.json("legal", self.dirs[who], "--as", who)
            written = me("submit", self.dirs[who], "--as", who, "--cmd", rng.choice(cmds)).stdout.split()
        for other, folder in self.dirs.items():
            if folder != self.dirs[who]:
                self.run(other)("apply", folder, *written)
        return written


def new_table(base: Path, mode: str, steps: int = 3, seed: int = 5) -> Table:
    """A game of `mode` in `base`, `steps` decisions in, a seat to decide."""
    base.mkdir(parents=True)
    names = ["alice", "bob"]
    if mode == "peer":
        homes = {n: base / f"home-{n}" for n in names}
        for n in names:
            Pbem(homes[n])("id", "new", n, "--no-passphrase")
            Pbem(homes[n])("id", "export", n, "-o", base / f"{n}.id")
        for n in names:
            for other in names:
                if other != n:
                    Pbem(homes[n])("id", "import", base / f"{other}.id")
        dirs = {n: base / f"game-{n}" for n in names}
        Pbem(homes["alice"])("new", "aa", dirs["alice"], "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
        joined = Pbem(homes["bob"])("join", dirs["bob"], dirs["alice"] / "000000-genesis.pbem", "--as", "bob").stdout.split()
        Pbem(homes["alice"])("apply", dirs["alice"], *joined)
    else:
        home = base / "home"
        for n in [*names, "rita"]:
            Pbem(home)("id", "new", n, "--no-passphrase")
        homes = {n: home for n in [*names, "rita"]}
        folder = base / "game"
        extra = ["--seed", "3"] if mode == "hotseat" else ["--dealer", "referee", "--referee", "rita"]
        Pbem(home)("new", "aa", folder, "--seat", "alice", "--seat", "bob", *extra)
        dirs = {n: folder for n in (names if mode == "hotseat" else [*names, "rita"])}
    table = Table(mode, homes, dirs)
    rng = random.Random(seed)
    decisions = 0
    while True:
        to_act = table.status()["to_act"]
        if to_act[0]["needs"] == "decision":
            if decisions == steps:
                return table
            decisions += 1
        table.step(rng)


def cases(base: Path, mode: str) -> list[Case]:
    """submit, apply and sync cases on a `mode` game (copies under `base`)."""
    table = new_table(base / "t0", mode)
    who = table.status()["to_act"][0]["seat"]
    cmd = table.run(who).json("legal", table.dirs[who], "--as", who)[0]
    home = table.homes[who]
    out = [Case(f"{mode}-submit", home, table.dirs[who], lambda d: ["submit", d, "--as", who, "--cmd", cmd])]
    # the same command once, uninterrupted, in a copy: the files to apply and to sync after
    after = base / "t1"
    shutil.copytree(base / "t0", after)
    moved = {n: after / d.relative_to(base / "t0") for n, d in table.dirs.items()}
    homes = {n: after / h.relative_to(base / "t0") for n, h in table.homes.items()}
    t1 = Table(mode, homes, moved)
    written = [Path(p) for p in t1.run(who)("submit", moved[who], "--as", who, "--cmd", cmd).stdout.split()]
    other = next((n for n in table.dirs if table.dirs[n] != table.dirs[who]), None)
    if other is None:  # one shared folder: apply to a copy of the folder before
        out.append(Case(f"{mode}-apply", home, table.dirs[who], lambda d: ["apply", d, *written], written))
    else:
        out.append(Case(f"{mode}-apply", table.homes[other], table.dirs[other], lambda d: ["apply", d, *written], written))
        t1.run(other)("apply", moved[other], *written)
    if mode == "hotseat":  # the dealer's answer lost (a kill between the turn and the answer)
        lost = base / "t2"
        shutil.copytree(moved[who], lost)
        last = max(p for p in lost.iterdir() if p.name[0].isdigit())
        assert last.name.endswith("-dealer.pbem"), last
        last.unlink()
        t1.run(who)("verify", lost)  # rebuilds state.pbem
        out.append(Case(f"{mode}-sync", homes[who], lost, lambda d: ["sync", d, "--as", who]))
        return out
    for seat, folder in moved.items():
        st = Pbem(homes[seat]).json("status", folder)
        if st["to_act"] and st["to_act"][0]["needs"] == "auto":
            owes = st["to_act"][0]["seat"]
            owner = seat if mode == "peer" else owes
            if mode == "peer" and owes != seat:
                continue
            out.append(Case(f"{mode}-sync", homes[owner], moved[seat], lambda d, o=owes: ["sync", d, "--as", o]))
            break
    return out


def status_json(home: Path, folder: Path) -> dict:
    return json.loads(Pbem(home)("status", folder, "--json").stdout)
