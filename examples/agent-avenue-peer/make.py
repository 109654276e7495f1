"""How this example was made: alice and bob, each with their own key store
and folder, play Agent Avenue in peer mode (no dealer: a mental-poker deck)
with random legal moves, mailing each other only the files pbem prints.
Both folders are kept, with the players' public identities.

    python examples/agent-avenue-peer/make.py
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def pbem(home: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "pbem", *args], env={"PBEM_HOME": str(home), "PATH": ""},
                         capture_output=True, text=True, check=True)
    return out.stdout


def main() -> None:
    import json

    for old in ("alice", "bob", "ids"):
        shutil.rmtree(HERE / old, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp())
    homes = {n: tmp / n for n in ("alice", "bob")}
    (HERE / "ids").mkdir()
    for n, h in homes.items():
        pbem(h, "id", "new", n, "--no-passphrase")
        pbem(h, "id", "export", n, "-o", str(HERE / "ids" / f"{n}.id"))
    pbem(homes["alice"], "id", "import", str(HERE / "ids" / "bob.id"))
    pbem(homes["bob"], "id", "import", str(HERE / "ids" / "alice.id"))
    dirs = {n: HERE / n for n in homes}
    pbem(homes["alice"], "new", "agent-avenue", str(dirs["alice"]), "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    joined = pbem(homes["bob"], "join", str(dirs["bob"]), str(dirs["alice"] / "000000-genesis.pbem"), "--as", "bob").split()
    pbem(homes["alice"], "apply", str(dirs["alice"]), joined[0])
    rng = random.Random(1)
    while True:
        st = json.loads(pbem(homes["alice"], "status", str(dirs["alice"]), "--json"))
        if not st["to_act"]:
            break
        me = st["to_act"][0]["seat"]
        other = "bob" if me == "alice" else "alice"
        if st["to_act"][0]["needs"] == "auto":
            written = pbem(homes[me], "sync", str(dirs[me]), "--as", me).split()
        else:
            legal = json.loads(pbem(homes[me], "legal", str(dirs[me]), "--as", me, "--json"))
            written = pbem(homes[me], "submit", str(dirs[me]), "--as", me, "--cmd", rng.choice(legal)).split()
        for path in written:
            pbem(homes[other], "apply", str(dirs[other]), path)
    print(st["outcome"]["reason"])
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
