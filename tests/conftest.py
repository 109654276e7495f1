"""Shared fixtures: a key store in a tmp dir, identities, a CLI runner.

Everything is real: real keys in a real `$PBEM_HOME`, real files, real
crypto. Identities are made without a passphrase except where a test is
about passphrases.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli


class Pbem:
    """Runs `pbem ...` in-process with CliRunner and returns the result."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.runner = CliRunner()

    def __call__(self, *args: str, ok: bool = True, env: dict | None = None, input: str | None = None,
                 deal: bool = True):
        result = self.runner.invoke(cli, [str(a) for a in args], env={"PBEM_HOME": str(self.home), **(env or {})}, input=input)
        if ok and result.exit_code != 0:
            raise AssertionError(f"pbem {' '.join(map(str, args))} failed ({result.exit_code}):\n{result.output}\n{result.exception!r}")
        words = [str(a) for a in args]
        if deal and result.exit_code == 0 and words[:1] == ["new"] and "referee" in words and "--help" not in words:
            self.deal(words[2])
        return result

    def deal(self, folder) -> None:
        """Take a referee game in one folder through its joins and deal (a
        referee game is dealt once every seat has joined with its
        contribution): each seat's and the referee's `pbem sync`, in turn.
        `pbem new ... --dealer referee` does this unless given deal=False."""
        for _ in range(20):
            st = json.loads(self("status", folder, "--json", deal=False).stdout)
            if st.get("dealt", True) or not st["to_act"]:
                return
            self("sync", folder, "--as", st["to_act"][0]["seat"], deal=False)
        raise AssertionError(f"{folder} was not dealt")

    def json(self, *args: str):
        return json.loads(self(*args, "--json").stdout)

    def fails(self, *args: str, env: dict | None = None, code: int = 1):
        result = self(*args, ok=False, env=env)
        assert result.exit_code == code, (result.exit_code, result.output, result.exception)
        if code == 1:
            assert "Traceback" not in result.output
            lines = [l for l in result.stderr.splitlines() if l.startswith("pbem: error:")]
            assert len(lines) == 1, result.stderr
        return result


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory, monkeypatch) -> None:
    """No test reads or writes the real user's key store (`--accept-new`
    writes to it): by default `$PBEM_HOME` is an empty folder of the test's."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path_factory.mktemp("no-home") / "home"))


@pytest.fixture
def home(tmp_path: Path, monkeypatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv("PBEM_HOME", str(h))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return h


@pytest.fixture
def pbem(home: Path) -> Pbem:
    run = Pbem(home)
    for name in ("alice", "bob", "rita"):
        run("id", "new", name, "--no-passphrase")
    return run


def introduced(base: Path, names: list[str]):
    """One key store per player, each holding every other player's public
    identity (what `pbem id export` / `pbem id import` do by mail)."""
    from pbem.app.opening import Keys
    from pbem.home.store import KeyStore

    out = {n: Keys(KeyStore(base / f"home-{n}"), lambda: "") for n in names}
    for n, k in out.items():
        k.store.create(n, None)
    for n, k in out.items():
        for other in out:
            if other != n:
                k.store.import_identity(out[other].store.export(other))
    return out


def mail_step(keys, dirs, rng, bot: str | None = None) -> bool:
    """One honest file by whoever must write (a random legal choice where
    one is needed, or the game's `bot` of that name), applied to every
    other player's folder. False at the end."""
    from pbem.app import opening, reading, receiving, writing
    from pbem.gamedir import folder

    chain = folder.load(next(iter(dirs.values())))
    if not chain.writers():
        return False
    me = chain.writers()[0]
    if chain.needs(me) == "auto":
        written = writing.sync(dirs[me], me, keys[me])
    elif bot is None:
        mine = folder.load(dirs[me])
        choice = rng.choice(reading.legal(mine, opening.party(mine, me, keys[me])))
        written = writing.submit(dirs[me], me, [choice], keys[me])
    else:
        mine = folder.load(dirs[me])
        state = opening.party(mine, me, keys[me]).state()
        command = mine.game.presentation.bots[bot](mine.game, state, me, rng)
        written = writing.submit(dirs[me], me, [mine.game.presentation.format(command, state, me)], keys[me])
    for other, path in dirs.items():
        if other != me and written:
            receiving.apply_files(path, written)
    return True


def settle(keys, dirs) -> None:
    """Every automatic file (a peer game's set-up links and layers, owed
    decryptions, a referee's deal) written and mailed until someone must
    decide: the state right after the set-up."""
    from pbem.gamedir import folder

    for _ in range(50):
        chain = folder.load(next(iter(dirs.values())))
        if not chain.writers() or chain.needs(chain.writers()[0]) == "decision":
            return
        mail_step(keys, dirs, None)
    raise AssertionError("the automatic files never end")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of a folder (and its pending area), to prove a rejected command changed nothing
    (except the empty lock file a writing command creates: it holds no data)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".pbem.lock"}


def play_to_end(pbem: Pbem, folder: Path, *, pick=lambda cmds, seat, rng: rng.choice(cmds), seed: int = 0, max_files: int = 600) -> dict:
    """Play with only status/legal/submit/sync, as a script would."""
    import random

    rng = random.Random(seed)
    for _ in range(max_files):
        st = pbem.json("status", folder)
        if not st["to_act"]:
            return st
        who = st["to_act"][0]
        if who["needs"] == "auto":
            pbem("sync", folder, "--as", who["seat"])
            continue
        cmds = pbem.json("legal", folder, "--as", who["seat"])
        assert cmds, f"{who['seat']} must decide but has no legal command"
        pbem("submit", folder, "--as", who["seat"], "--cmd", pick(cmds, who["seat"], rng))
    raise AssertionError("the game did not end")


def pytest_terminal_summary(terminalreporter):
    """The figures of the tamper matrix and the fuzz tests, when they ran
    (docs/security.md quotes them)."""
    import sys

    lines = [line for name in ("tamper", "fuzzing") for line in getattr(sys.modules.get(name), "SUMMARY", [])]
    counts = getattr(sys.modules.get("fuzzing"), "COUNTS", {})
    if counts:
        lines.append("property tests: " + ", ".join(f"{n} {t} inputs" for t, n in sorted(counts.items())))
    if lines:
        terminalreporter.section("tamper matrix and fuzzing")
        for line in lines:
            terminalreporter.write_line(line)


def dealt(folder: Path, keys):
    """A game in one folder taken through its joins and deal in place (a
    referee game of version 2 is dealt once every seat has joined): each
    seat's and the referee's `sync`, in turn. Returns the chain."""
    from pbem.app import writing
    from pbem.gamedir import folder as folder_mod

    for _ in range(20):
        chain = folder_mod.load(folder)
        if chain.dealt or not chain.writers():
            return chain
        writing.sync(folder, chain.writers()[0], keys)
    raise AssertionError("the game was not dealt")


#: the test files that take the longest (whole games under every dealer,
#: every picture, browsers, mail servers, fuzzing): `-m "not slow"` leaves
#: them out for a quick run while working (README, "Running the tests");
#: bare file names, in whichever layer folder (tests/system/test_suite_layout.py
#: checks that each exists)
SLOW_FILES = frozenset({
    "test_conformance_agent_avenue.py", "test_agent_avenue_market_play.py", "test_every_picture.py",
    "test_codenames_conformance.py", "test_tamper_matrix.py", "test_codenames_cli.py", "test_codenames_duet.py",
    "test_serve_browser.py", "test_terminal_views.py", "test_fuzz_parsers.py", "test_peer_game.py",
    "test_join_every_mode.py", "test_benchmarks.py", "test_mail.py", "test_codex_peer.py", "test_watch.py",
    "test_codex_specs.py", "test_agent_avenue_teams_cli.py", "test_chance_mechanisms.py", "test_kill.py",
    "test_dark_agent_protocol.py", "test_concurrent_writers.py", "test_peer_decks_change.py", "test_readme.py",
    "test_examples.py", "test_conformance_codex.py", "test_refs_carry_no_information.py", "test_duet_peer.py",
    "test_peer_cheats.py", "test_page_browser.py", "test_outbox_inbox.py", "test_crypto_shuffle_proof.py",
    "test_rebuild.py", "test_fuzz_atheris.py", "test_layer_proofs.py", "test_forum.py", "test_codex_spec_pairs.py",
    "test_long_games_readme.py", "test_crypto_shuffle_pairs.py", "test_long_games.py", "test_serve_mail.py",
    "test_codex_multi_dealers.py", "test_codex_victim_discard.py", "test_proven_refills.py",
    "test_handover_consent.py", "test_codex_arrange_top_dealers.py",
})


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long test file, left out by -m 'not slow' (conftest.SLOW_FILES)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def memo_settled(monkeypatch):
    """Files count as settled at once for words from memory
    (`pbem.gamedir.status_memo`; in the real world: a second after their last change)."""
    from pbem.gamedir import status_memo

    monkeypatch.setattr(status_memo, "SETTLED_NS", 0)


@pytest.fixture
def chain_loads(monkeypatch) -> list[Path]:
    """Every folder a command loaded the chain of (none: its words came from memory)."""
    from pbem.app import opening

    seen: list[Path] = []
    open_game = opening.open_game

    def counting(folder, *args, **kwargs):
        seen.append(Path(folder))
        return open_game(folder, *args, **kwargs)

    monkeypatch.setattr(opening, "open_game", counting)
    return seen


def aa_after(pbem: Pbem, folder: Path, moves: int, seed: int) -> Path:
    """A hotseat Agent Avenue game of alice and bob in `folder`, `moves`
    files in: each the first legal command of the seat to act."""
    pbem("new", "aa", folder, "--seat", "alice", "--seat", "bob", "--seed", str(seed))
    for _ in range(moves):
        who = pbem.json("status", folder)["to_act"][0]["seat"]
        pbem("submit", folder, "--as", who, "--cmd", pbem.json("legal", folder, "--as", who)[0])
    return folder
