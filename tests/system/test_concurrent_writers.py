"""Concurrent writers: real `pbem` processes writing to one folder at once
(the same seat twice, a sync beside them, a verify rebuilding the cache)
are ordered by the folder's lock: the folder always verifies, there is
exactly one file per seq, and every loser got one clear error line.

CI runs two rounds per dealer mode; ``PBEM_LONG=1`` runs ten.
"""

from __future__ import annotations

import os
import shutil
import threading
import time

import pytest

from conftest import Pbem, snapshot
from pbem.gamedir import lock
from pbem.errors import FolderBusy
from pbem.gamedir import folder as folder_mod
from races import new_table, spawn

ROUNDS = 10 if os.environ.get("PBEM_LONG") else 2


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    base = tmp_path_factory.mktemp("race")
    return {mode: new_table(base / mode, mode, steps=2) for mode in ("hotseat", "referee", "peer")}


@pytest.mark.parametrize("mode", ["hotseat", "referee", "peer"])
def test_racing_writers_leave_one_valid_chain(tables, tmp_path, mode):
    table = tables[mode]
    who = table.status()["to_act"][0]["seat"]
    home, base = table.homes[who], table.dirs[who]
    cmds = table.run(who).json("legal", base, "--as", who)
    assert len(cmds) >= 2
    syncer = "rita" if mode == "referee" else who
    for n in range(ROUNDS):
        work = tmp_path / f"r{n}"
        shutil.copytree(base, work)
        seqs_before = max(folder_mod.chain_files(work))
        procs = {
            "submit-1": spawn(home, "submit", work, "--as", who, "--cmd", cmds[0]),
            "submit-2": spawn(home, "submit", work, "--as", who, "--cmd", cmds[-1]),
            "sync": spawn(table.homes[syncer], "sync", work, "--as", syncer),
            "verify": spawn(home, "verify", work),
        }
        results = {k: (p.wait(timeout=60), *p.communicate()) for k, p in procs.items()}
        for name, (code, out, err) in results.items():
            assert "Traceback" not in err and "internal error" not in err, (name, err)
            if code:
                assert code == 1 and len([l for l in err.splitlines() if l.startswith("pbem: error:")]) == 1, (name, err)
        assert results["verify"][0] == 0, results["verify"]
        files = folder_mod.chain_files(work)
        assert all(len(paths) == 1 for paths in files.values()), sorted(p.name for ps in files.values() for p in ps)
        # the same seat twice: each submit that succeeded wrote exactly one
        # turn of `who` (the second one, after the first, if still legal);
        # each that failed wrote nothing
        winners = [k for k in ("submit-1", "submit-2") if results[k][0] == 0]
        assert winners, results
        for k in {"submit-1", "submit-2"} - set(winners):
            assert results[k][1] == "", results[k]
        new = [ps[0].name for seq, ps in sorted(files.items()) if seq > seqs_before]
        by_who = [n for n in new if n.endswith(f"-{who}.pbem")]
        assert len(by_who) == len(winners), (new, results)
        printed = [line.rsplit("/", 1)[-1] for k in winners for line in results[k][1].split()]
        printed += [line.rsplit("/", 1)[-1] for line in results["sync"][1].split() if line.startswith("/")]
        assert sorted(printed) == new, (printed, new)
        check = Pbem(home)("verify", work)
        assert check.stderr == "" and not [p for p in work.iterdir() if p.name.endswith(".tmp")]


def _hold(folder, seconds, held: threading.Event, release: threading.Event | None = None):
    """Hold the folder's lock for `seconds`, or until `release` is set."""
    with lock.folder_lock(folder):
        held.set()
        if release is None:
            time.sleep(seconds)
        else:
            release.wait(seconds)


def test_a_writer_waits_for_the_lock_then_gives_up_with_a_hint(tables, tmp_path):
    table = tables["referee"]
    who = table.status()["to_act"][0]["seat"]
    work = tmp_path / "g"
    shutil.copytree(table.dirs[who], work)
    cmd = table.run(who).json("legal", work, "--as", who)[0]
    before = snapshot(work)
    held, release = threading.Event(), threading.Event()
    # held until the writer has given up, however slowly a loaded machine
    # starts it (a fixed hold ran out before the writer reached the lock)
    holder = threading.Thread(target=_hold, args=(work, 120, held, release))
    holder.start()
    held.wait()
    proc = spawn(table.homes[who], "submit", work, "--as", who, "--cmd", cmd, env={"PBEM_LOCK_TIMEOUT": "0.3"})
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        release.set()
        holder.join()
    assert proc.returncode == 1 and out == ""
    assert err.startswith("pbem: error: another pbem command is writing to") and "pbem: hint: retry" in err
    assert snapshot(work) == before
    # held briefly: the writer waits, then writes
    held.clear()
    holder = threading.Thread(target=_hold, args=(work, 0.8, held))
    holder.start()
    held.wait()
    start = time.monotonic()
    proc = spawn(table.homes[who], "submit", work, "--as", who, "--cmd", cmd)
    out, err = proc.communicate(timeout=60)
    holder.join()
    assert proc.returncode == 0, err
    assert out.strip().endswith(f"-{who}.pbem") and time.monotonic() - start >= 0.5


def test_the_lock_file_is_not_part_of_the_game(tables, tmp_path):
    table = tables["hotseat"]
    work = tmp_path / "g"
    shutil.copytree(table.dirs["alice"], work)
    (work / ".pbem.lock").write_bytes(b"anything a sync tool copied")
    (work / ".pbem.sync-conflict-20260101-120000-ABCDEFG.lock").write_bytes(b"")
    (work / ".pbem (conflicted copy).lock").write_bytes(b"")
    r = Pbem(table.homes["alice"])("verify", work)
    assert r.stdout.startswith("ok:") and r.stderr == ""
    assert {k: [p.name for p in v] for k, v in folder_mod.chain_files(work).items()} == {
        k: [p.name for p in v] for k, v in folder_mod.chain_files(table.dirs["alice"]).items()
    }
    assert all(p.name[0].isdigit() for ps in folder_mod.chain_files(work).values() for p in ps)


@pytest.mark.parametrize("fallback", [False, True])
def test_the_lock_excludes_and_is_reentrant(tmp_path, monkeypatch, fallback):
    if fallback:
        monkeypatch.setattr(lock, "fcntl", None)  # the O_EXCL lock file of platforms without fcntl
    held = threading.Event()
    holder = threading.Thread(target=_hold, args=(tmp_path, 0.6, held))
    holder.start()
    held.wait()
    with pytest.raises(FolderBusy, match="another pbem command is writing"):
        with lock.folder_lock(tmp_path, wait=0.1):
            pass
    with lock.folder_lock(tmp_path, wait=5):  # waits for the holder
        with lock.folder_lock(tmp_path, wait=0):  # the same thread again: re-entrant
            pass
    holder.join()
    assert (tmp_path / lock.LOCK).exists() != fallback  # flock's file stays; O_EXCL's goes


def test_a_stale_exclusive_lock_is_broken(tmp_path, monkeypatch):
    monkeypatch.setattr(lock, "fcntl", None)
    path = tmp_path / lock.LOCK
    path.write_bytes(b"pid 1 host elsewhere time 0\n")  # left by a killed process
    with pytest.raises(FolderBusy):
        with lock.folder_lock(tmp_path, wait=0.1):
            pass
    old = time.time() - lock.STALE_AFTER - 5
    os.utime(path, (old, old))
    with lock.folder_lock(tmp_path, wait=0.1):
        assert b"pid %d" % os.getpid() in path.read_bytes()
    assert not path.exists()
