"""Packaging and layering: every module imports on its own, games stay pure,
the schemas are current, and the installed `pbem` runs as a real process."""

from __future__ import annotations

import msgspec
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import pbem
from pbem import schemas
from paths import ROOT

MODULES = sorted(m.name for m in pkgutil.walk_packages(pbem.__path__, "pbem.") if not m.name.endswith("__main__"))
#: what a game must never load, even indirectly (the source-level table of
#: which layer imports which is tests/system/test_layers.py)
FORBIDDEN_IN_GAMES = ("click", "cryptography", "nacl", "rich", "pbem.protocol", "pbem.crypto", "pbem.transport",
                      "pbem.home", "pbem.gamedir", "pbem.app", "pbem.render", "pbem.cli")
#: loaded only by the commands that draw (`show`, `play`), never on import
DRAWING = ("rich",)


def run_python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


#: run by one interpreter that has loaded nothing of pbem: it forks a child
#: per module, which imports that module alone and reports what got loaded
#: (a fresh interpreter per module, less its start-up). For modules outside
#: `pbem.games` it first loads pbem's dependencies, which changes nothing a
#: module of pbem must import itself (a name is bound only by its own
#: import); a game's module is imported with nothing loaded, to see what it
#: pulls in.
_IMPORT_EACH = """
import json, os, sys
modules, preload = json.loads(sys.argv[1]), json.loads(sys.argv[2])
for name in preload:
    __import__(name)
out = {}
for module in modules:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            __import__(module)
            said = {"loaded": sorted(sys.modules)}
        except BaseException as exc:
            said = {"error": f"{type(exc).__name__}: {exc}"}
        with os.fdopen(w, "w") as fh:
            fh.write(json.dumps(said))
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as fh:
        out[module] = json.loads(fh.read())
    os.waitpid(pid, 0)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def imported_alone() -> dict[str, dict]:
    """module -> what importing it alone loaded (or the error it raised)."""
    games = [m for m in MODULES if m.startswith("pbem.games")]
    rest = [m for m in MODULES if m not in games]
    dependencies = ["click", "msgspec", "cryptography.hazmat.primitives.asymmetric.ed25519",
                    "cryptography.hazmat.primitives.asymmetric.x25519", "cryptography.hazmat.primitives.ciphers.aead",
                    "cryptography.hazmat.primitives.kdf.hkdf", "nacl.bindings"]
    said: dict[str, dict] = {}
    for modules, preload in ((games, []), (rest, dependencies)):
        out = subprocess.run([sys.executable, "-c", _IMPORT_EACH, json.dumps(modules), json.dumps(preload)],
                             capture_output=True, text=True, cwd=ROOT)
        assert out.returncode == 0, out.stderr
        said.update(json.loads(out.stdout))
    return said


@pytest.mark.slow  # one fork per module of pbem/: about 10 CPU-seconds, so the full run only
@pytest.mark.parametrize("module", MODULES)
def test_module_imports_in_a_fresh_interpreter(module, imported_alone):
    said = imported_alone[module]
    assert "error" not in said, f"import {module} alone: {said.get('error')}"
    loaded = said["loaded"]
    if module.startswith("pbem.games"):
        bad = [m for m in loaded if any(m == f or m.startswith(f + ".") for f in FORBIDDEN_IN_GAMES)]
        assert not bad, f"{module} pulls in {bad}"


def test_cli_starts_without_games_or_crypto():
    loaded = json.loads(run_python("import json, sys, pbem.cli; print(json.dumps(sorted(sys.modules)))"))
    assert not [m for m in loaded if m.startswith(("pbem.games.", "cryptography", "nacl", *DRAWING))]


@pytest.mark.parametrize("module", ["pbem.app.reading", "pbem.app.receiving", "pbem.app.play", "pbem.render.terminal"])
def test_library_modules_do_not_load_rich(module):
    loaded = json.loads(run_python(f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"))
    assert not [m for m in loaded if m == "rich" or m.startswith("rich.")]


def test_only_the_drawing_commands_load_rich(tmp_path):
    code = (
        "import json, sys, os; from click.testing import CliRunner; from pbem.cli import cli; "
        f"os.environ['PBEM_HOME'] = {str(tmp_path / 'home')!r}; r = CliRunner(); g = {str(tmp_path / 'g')!r}; "
        "r.invoke(cli, ['id', 'new', 'a', '--no-passphrase']); r.invoke(cli, ['id', 'new', 'b', '--no-passphrase']); "
        "assert r.invoke(cli, ['new', 'aa', g, '--seat', 'a', '--seat', 'b']).exit_code == 0; "
        "assert r.invoke(cli, ['status', g]).exit_code == 0; assert r.invoke(cli, ['legal', g, '--as', 'a']).exit_code == 0; "
        "before = 'rich' in sys.modules; "
        "assert r.invoke(cli, ['show', g, '--as', 'a']).exit_code == 0; "
        "print(json.dumps([before, 'rich' in sys.modules]))"
    )
    # `show` to a pipe prints the text picture: rich is not even needed there
    assert json.loads(run_python(code)) == [False, False]


def test_schemas_are_current():
    for name, schema in schemas.schemas().items():
        path = ROOT / "schemas" / name
        assert path.exists(), f"schemas/{name} is missing: run python -m pbem.schemas"
        assert path.read_text(encoding="utf-8") == schemas.render(schema), f"schemas/{name} is stale: run python -m pbem.schemas"


def test_installed_entry_point_plays_the_demo(tmp_path):
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home")}
    exe = Path(sys.executable).parent / "pbem"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]
    folder = tmp_path / "game"
    out = subprocess.run([*cmd, "demo", "--dir", str(folder), "--seed", "5"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "result:" in out.stdout and "pbem verify" in out.stdout
    out = subprocess.run([*cmd, "verify", str(folder)], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.startswith("ok:")
    out = subprocess.run([sys.executable, "-m", "pbem", "status", str(tmp_path / "nope")], capture_output=True, text=True, env=env)
    assert out.returncode == 1 and out.stderr.startswith("pbem: error:") and "Traceback" not in out.stderr


def test_dealer_games_do_not_load_pynacl():
    code = (
        "import json, sys; from pbem.app import audit, creating, reading, receiving, writing; "
        "from pbem.gamedir import folder; from pbem.protocol import party; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    loaded = json.loads(run_python(code))
    assert not [m for m in loaded if m.startswith("nacl")]


def test_games_are_found_by_alias_and_rules_version(monkeypatch):
    from pbem import games
    from pbem.errors import UnknownGame

    aa = games.get("AA")
    assert games.get("agent-avenue", aa.info.rules_version) is aa
    with pytest.raises(UnknownGame, match="rules version 0 is not known"):
        games.get("agent-avenue", "0")
    monkeypatch.setattr(aa, "info", msgspec.structs.replace(aa.info, editions={"0": "pbem.games.agent_avenue:GAME"}))
    assert games.get("agent-avenue", "0") is aa  # earlier rules kept for old games are found
    with pytest.raises(UnknownGame):
        games.get("chess")
