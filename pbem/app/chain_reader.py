"""Reading a game folder's chain again and again, cheaply: the stamps of
its chain files (`chain_signature`, to see whether anything changed) and
`ChainReader`, which extends the chain read before with the new files
instead of replaying the game.

Apart from `pbem.app.watching` because `pbem serve` reads the games it
shows the same way, without watching them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod, safe_read
from pbem.protocol import codec
from pbem.transport import watch as tw


def _chain_name(name: str) -> bool:
    return name.endswith(".pbem") and name != folder_mod.STATE and not name.startswith("state")


def chain_signature(folder: Path) -> tw.Signature:
    """The stamps of a folder's chain files: the same while no chain file
    was added, replaced or removed (`pbem serve` asks it before a read)."""
    return tw.signature(folder, _chain_name)


def _stamps(files: dict[int, list[Path]]) -> dict[int, list[tuple[str, int, int]]]:
    """(name, size, mtime) of each chain file, by seq: a file replaced under
    its own name (a sync tool's newest-wins) changes its stamp."""
    out = {}
    for seq, paths in files.items():
        stamps = []
        for p in paths:
            try:
                st = p.stat()
            except OSError:
                continue
            stamps.append((p.name, st.st_size, st.st_mtime_ns))
        out[seq] = stamps
    return out


@dataclass
class ChainReader:
    """One folder's chain, kept between two reads: `read` appends only the
    new files to the chain read before (one check per new file, not a
    replay of the game), and reads afresh whenever anything else changed
    (a copy or a fork at a place already read, a file that does not fit).
    The watcher keeps one per folder; `pbem serve` one per game it shows."""

    chain: object | None = None  # the chain read last
    names: dict = field(default_factory=dict)  # its files' stamps, by seq

    def read(self, folder: Path, files: dict[int, list[Path]] | None = None):
        """The folder's chain now (`files`: its chain files, when already listed)."""
        files = folder_mod.chain_files(folder) if files is None else files
        chain, names = self.chain, _stamps(files)
        self.chain = None
        if chain is not None and all(names.get(s) == self.names.get(s) for s in range(chain.seq + 1)) \
                and all(len(names[s]) == 1 for s in range(chain.seq + 1, max(names) + 1)):
            try:
                for s in range(chain.seq + 1, max(names) + 1):
                    path = files[s][0]
                    record = chain.append(codec.normalise(safe_read.read(path))[0], path.name)
                    if path.name != folder_mod.turn_name(s, record.by):
                        raise PbemError("a file whose name is not its writer's")  # said by the full read
            except PbemError:
                chain = None
        else:
            chain = None
        if chain is None:
            chain = folder_mod.load(folder)
        self.keep(folder, chain, names)
        return chain

    def keep(self, folder: Path, chain, names: dict | None = None) -> None:
        """Hold `chain` as the folder's chain now (one its holder extended
        with the files it wrote itself; None: read afresh next time)."""
        self.chain = chain
        self.names = _stamps(folder_mod.chain_files(folder)) if names is None else names
