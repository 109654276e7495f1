"""Start-up: commands that only read a game load nothing that only writers,
pictures or bots need (issue #12).

Each check runs the real command in a fresh interpreter (`pbem.cli` with
click's ``standalone_mode=False``) on a game played a few files in, then
lists `sys.modules`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Pbem, aa_after

#: modules only a writer needs: the key-file cipher and the temp-file
#: machinery (with the compression modules shutil drags in), the dealer,
#: sealing and its AEAD, the peer package (PyNaCl)
WRITERS_ONLY = (
    "tempfile", "shutil", "zlib", "bz2", "lzma", "socket",
    "cryptography.hazmat.primitives.ciphers.aead", "cryptography.hazmat.primitives.kdf.scrypt",
    "pbem.crypto.seal", "pbem.crypto.poker", "nacl",
    "pbem.protocol.dealer", "pbem.protocol.party", "pbem.protocol.peer",
)
#: what a game loads only when it is used: bots, views and pictures
GAME_EXTRAS = (
    "pbem.games.agent_avenue.bots", "pbem.games.agent_avenue.render", "pbem.games.agent_avenue.svg",
    "pbem.games.agent_avenue.rich_view", "pbem.games.agent_avenue.view",
    "pbem.games.codenames.bots", "pbem.games.codenames.render", "pbem.games.codenames.svg",
    "pbem.games.codenames.rich_view", "pbem.games.codenames.view", "pbem.games.codenames.duet_view",
    "rich",
)
#: every stemmer but one: Codenames loads only its language's
OTHER_STEMMERS = ("snowballstemmer", "_pbem_snowball.swedish_stemmer", "_pbem_snowball.french_stemmer")


def loaded_by(home: Path, *args: str) -> set[str]:
    code = (
        "import sys\n"
        "from pbem.cli import cli\n"
        f"cli.main({[str(a) for a in args]!r}, standalone_mode=False)\n"
        "loaded = sorted(sys.modules)\n"
        "import json\n"
        "print(json.dumps(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PBEM_HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.splitlines()[-1]))


def offending(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if any(m == n or m.startswith(n + ".") for n in names))


@pytest.fixture
def aa_game(pbem: Pbem, tmp_path: Path) -> Path:
    return aa_after(pbem, tmp_path / "aa", moves=3, seed=3)


@pytest.fixture
def cn_game(pbem: Pbem, tmp_path: Path) -> Path:
    folder = tmp_path / "cn"
    pbem("id", "new", "carol", "--no-passphrase")
    pbem("id", "new", "dave", "--no-passphrase")
    pbem("new", "cn", folder, "--seed", "3", "--seat", "alice:red-spymaster", "--seat", "bob:red",
         "--seat", "carol:blue-spymaster", "--seat", "dave:blue")
    pbem("submit", folder, "--as", "alice", "--cmd", pbem.json("legal", folder, "--as", "alice")[0])
    return folder


@pytest.mark.parametrize("command", [["status"], ["status", "--json"], ["log"]])
def test_status_of_a_game_loads_no_writer_module(pbem: Pbem, aa_game: Path, command):
    loaded = loaded_by(pbem.home, command[0], aa_game, *command[1:])
    assert "pbem.protocol.chain" in loaded  # the check is real: the chain was loaded
    assert offending(loaded, WRITERS_ONLY + GAME_EXTRAS) == []


def test_status_loads_neither_json_nor_random(pbem: Pbem, aa_game: Path):
    """Each costs every command a millisecond or more: the list of known
    games is read with msgspec, JSON is printed only with --json, and
    `random` is for bots and tests."""
    loaded = loaded_by(pbem.home, "status", aa_game)
    assert "pbem.games.agent_avenue.rules" in loaded
    assert offending(loaded, ("json", "random")) == []


def test_show_and_legal_load_no_bots_and_no_other_picture(pbem: Pbem, aa_game: Path):
    for args in (["legal", aa_game, "--as", "alice", "--json"], ["show", aa_game, "--as", "alice"]):
        loaded = loaded_by(pbem.home, *args)
        assert offending(loaded, ("pbem.games.agent_avenue.bots", "pbem.games.agent_avenue.svg", "rich", "tempfile",
                                  "pbem.crypto.poker", "cryptography.hazmat.primitives.kdf.scrypt")) == []


def test_codenames_loads_only_its_own_stemmer(pbem: Pbem, cn_game: Path):
    shutil.rmtree(pbem.home / "checkpoints")  # cold: the clue is checked again
    loaded = loaded_by(pbem.home, "status", cn_game)
    assert "_pbem_snowball.english_stemmer" in loaded  # replaying the clue checks it
    assert offending(loaded, WRITERS_ONLY + GAME_EXTRAS + OTHER_STEMMERS) == []


@pytest.mark.parametrize("which", ["aa", "cn"])
def test_status_from_a_checkpoint_loads_no_crypto_of_writers_and_no_game_extras(pbem: Pbem, aa_game: Path,
                                                                                cn_game: Path, which):
    """Issue #12 part 3: the folder is unchanged since this user verified it
    (the submits left a warm checkpoint): `status` hashes the files and
    checks nothing again, so not even a stemmer is loaded."""
    folder = aa_game if which == "aa" else cn_game
    assert list((pbem.home / "checkpoints").glob("*.ckpt"))
    loaded = loaded_by(pbem.home, "status", folder)
    assert "pbem.home.checkpoint" in loaded and "pbem.protocol.chain" in loaded
    assert offending(loaded, WRITERS_ONLY + GAME_EXTRAS + OTHER_STEMMERS + ("_pbem_snowball",)) == []


def test_dark_agent_status_loads_no_toml_reader_and_makes_no_move_table(pbem: Pbem, tmp_path: Path):
    """The reference catalogue is JSON: the TOML reader is for a user's own
    catalogue; the table of every two-satellite move is for `legal`."""
    folder = tmp_path / "da"
    pbem("new", "da", folder, "--seat", "alice", "--seat", "bob", "--seed", "3", "--dealer", "hotseat")
    code = (
        "import sys\n"
        "from pbem.cli import cli\n"
        f"cli.main(['status', {str(folder)!r}], standalone_mode=False)\n"
        "from pbem.games.dark_agent import satellites\n"
        "print('tomllib' in sys.modules, len(satellites._TWO_MOVES))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PBEM_HOME": str(pbem.home), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "False 0"
