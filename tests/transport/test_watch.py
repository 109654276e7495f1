"""`pbem watch` and `pbem referee watch`: shared folders kept in step by a
real copying loop (`syncfolders.SyncLoop`), real watcher subprocesses, real
keys; bots decide through the library's `submit`."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import introduced
from syncfolders import SyncLoop

from pbem.app import creating, opening, reading, writing
from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod
from pbem.transport import watch as tw
from pbem.app.watching import Watch

SETTLE = "0.05"


def start(home: Path, *args: str, log: Path) -> subprocess.Popen:
    """A real `pbem` process whose output goes to `log`."""
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_WATCH_SETTLE": SETTLE}
    return subprocess.Popen([sys.executable, "-m", "pbem", *map(str, args)], env=env,
                            stdout=open(log, "a"), stderr=subprocess.STDOUT, text=True)


def wait_for(log: Path, text: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text():
        assert time.monotonic() < deadline, f"{text!r} not in {log.read_text()}"
        time.sleep(0.05)


def stop(proc: subprocess.Popen) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    return proc.wait(10)


_loaded: dict[Path, tuple] = {}


def load(where: Path):
    """The chain in `where`, read again only when its files have changed
    (the bots must not starve the watchers of the machine's two cores)."""
    sig = tw.signature(where, lambda n: n.endswith(".pbem") and not n.startswith("state"))
    if _loaded.get(where, (None,))[0] != sig:
        _loaded[where] = (sig, folder_mod.load(where))
    return _loaded[where][1]


def drive(seats: dict[str, tuple[Path, object]], done, timeout: float, rng: random.Random, step=None) -> int:
    """Bots: whenever a seat must decide in its own folder, submit a random
    legal command there. Returns how many commands were submitted."""
    moves, deadline = 0, time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the game did not finish in time"
        for seat, (where, keys) in seats.items():
            try:
                chain = load(where)
            except PbemError:  # a file on its way: look again
                continue
            if seat in chain.writers() and chain.needs(seat) == "decision" and chain.undo_pending is None:
                me = opening.party(chain, seat, keys)
                try:
                    writing.submit(where, seat, [rng.choice(reading.legal(chain, me))], keys)
                except PbemError:  # the folder moved on meanwhile
                    continue
                moves += 1
                if step is not None:
                    step(moves)
        time.sleep(0.03)
    return moves


def over(*dirs: Path):
    def check() -> bool:
        try:
            return all(load(d).over for d in dirs)
        except PbemError:
            return False
    return check


# --- names -----------------------------------------------------------------------------------


def test_temporary_and_conflict_names():
    for name in (".syncthing.000003-bob.pbem.tmp", "~syncthing~000003-bob.pbem.tmp", ".dropbox", ".dropbox.attr",
                 "~000003-bob.pbem", ".~000003-bob.pbem", "000003-bob.pbem.part", ".000003-bob.pbem.ab12cd34.tmp"):
        assert tw.is_temporary(name), name
    for name in ("000003-bob.pbem", "state.pbem", "000003-bob (1).pbem"):
        assert not tw.is_temporary(name), name
    assert tw.conflict_copy("000003-bob.sync-conflict-20261201-130405-ABCDEF7.pbem") == ("000003-bob.pbem", "Syncthing")
    assert tw.conflict_copy("000003-bob (alice's conflicted copy 2026-12-01).pbem") == ("000003-bob.pbem", "Dropbox")
    assert tw.conflict_copy("000003-bob (1).pbem") == ("000003-bob.pbem", "a browser")
    assert tw.conflict_copy("000003-bob.pbem") is None


# --- one folder, in process ----------------------------------------------------------------------


def _referee_game(tmp_path: Path, game: str = "agent-avenue", seats=("alice", "bob"), options=()):
    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    a = tmp_path / "a"
    creating.new_game(game, a, list(seats), keys["rita"], dealer="referee", referee="rita", options=list(options))
    for who in ("alice", "bob", "rita"):  # the joins and the deal, in place
        writing.sync(a, who, keys[who])
    return keys, a


def test_a_file_still_growing_is_read_once_complete(tmp_path):
    keys, a = _referee_game(tmp_path)
    b = tmp_path / "b"
    b.mkdir()
    for path in sorted(a.glob("00000[0-3]-*.pbem")):  # the genesis, the joins and the deal
        (b / path.name).write_bytes(path.read_bytes())
    chain = folder_mod.load(b)
    written = writing.submit(b, "alice", [reading.legal(chain, opening.party(chain, "alice", keys["alice"]))[0]],
                             keys["alice"])
    data = written[0].read_bytes()
    target = a / written[0].name

    def copy_slowly() -> None:  # a network drive writing in place
        with open(target, "wb") as fh:
            for i in range(0, len(data), len(data) // 6 + 1):
                fh.write(data[i:i + len(data) // 6 + 1])
                fh.flush()
                time.sleep(0.06)

    said: list[str] = []
    writer = threading.Thread(target=copy_slowly)
    writer.start()
    time.sleep(0.03)
    problems = Watch(a, "rita", keys["rita"], said.append, settle=0.15).run(once=True)
    writer.join()
    answer = folder_mod.turn_name(chain.seq + 2, "rita")
    assert problems == 0, said
    assert (a / answer).exists(), said
    assert any(f"wrote {answer}" in line for line in said)


def test_copies_are_ignored_and_forks_reported(tmp_path, monkeypatch):
    from conftest import Pbem

    keys, a = _referee_game(tmp_path)
    b = tmp_path / "b"
    loop = SyncLoop([a, b], style="syncthing")
    loop.start()
    try:
        loop.settle()
        first = a / "000000-genesis.pbem"
        (a / "000000-genesis (1).pbem").write_bytes(first.read_bytes())
        (b / "000000-genesis (rita's conflicted copy 2026-12-01).pbem").write_bytes(first.read_bytes())
        loop.settle()
        pbem = Pbem(tmp_path / "home-alice")
        out = pbem("watch", b, "--as", "alice", "--once", env={"PBEM_WATCH_SETTLE": SETTLE}).stdout
        assert "000000-genesis (1).pbem is a copy made by a browser of 000000-genesis.pbem" in out
        assert "conflicted copy 2026-12-01).pbem is a copy made by Dropbox" in out
        assert "your turn in Agent Avenue (seq " in out
        # the same seat plays two different turns on two machines before they meet
        chain = folder_mod.load(a)
        legal = reading.legal(chain, opening.party(chain, "alice", keys["alice"]))
        seq = chain.seq + 1
        with loop.paused():
            writing.submit(a, "alice", [legal[0]], keys["alice"])
            writing.submit(b, "alice", [legal[-1]], keys["alice"])
        loop.settle()
        assert loop.conflicts and ".sync-conflict-" in loop.conflicts[0]
        for side in (a, b):
            names = sorted(p.name for p in side.glob(f"{seq:06d}-*"))
            assert len(names) == 2, names  # neither file lost
            result = Pbem(tmp_path / "home-rita").fails("watch", side, "--as", "rita", "--once",
                                                         env={"PBEM_WATCH_SETTLE": SETTLE})
            assert f"fork at seq {seq}" in result.stdout and result.stdout.count("(signed by alice)") == 2, result.stdout
            assert "both files are kept" in result.stdout
            assert not (side / folder_mod.turn_name(seq + 1, "rita")).exists()  # nothing written after a fork
    finally:
        loop.stop()
    removed = Pbem(tmp_path / "home-alice")("watch", a, "--as", "alice", "--once", "--remove-copies",
                                            ok=False, env={"PBEM_WATCH_SETTLE": SETTLE}).stdout
    assert "removed 000000-genesis (1).pbem" in removed
    assert not (a / "000000-genesis (1).pbem").exists() and first.exists()


def test_ctrl_c_stops_a_watch_cleanly(tmp_path):
    keys, a = _referee_game(tmp_path)
    log = tmp_path / "watch.log"
    proc = start(tmp_path / "home-bob", "watch", a, "--as", "bob", log=log)
    deadline = time.monotonic() + 10
    while "waiting: alice must decide" not in log.read_text():
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == 0
    text = log.read_text()
    assert "stopped watching" in text and "Traceback" not in text
    assert not [p for p in a.iterdir() if tw.is_temporary(p.name)]


# --- whole games through two synced folders ---------------------------------------------------------


@pytest.mark.parametrize("game,seats,options", [
    ("agent-avenue", ("alice", "bob"), ()),
    ("codenames", ("alice:a", "bob:b"), ("variant=duet",)),
])
def test_a_referee_game_through_two_synced_folders(tmp_path, game, seats, options):
    """alice and the referee share machine A, bob is on machine B; a watcher
    for each party, the folders kept in step by a Syncthing-like loop; the
    copies a sync tool makes along the way change nothing."""
    keys, a = _referee_game(tmp_path, game, seats, options)
    b = tmp_path / "b"
    loop = SyncLoop([a, b], style="dropbox")
    loop.start()
    note = tmp_path / "notified"
    procs = [
        start(tmp_path / "home-rita", "watch", a, "--as", "rita", log=tmp_path / "rita.log"),
        start(tmp_path / "home-alice", "watch", a, "--as", "alice", "--notify-cmd",
              f'echo "$PBEM_GAME $PBEM_SEQ $PBEM_NEEDS" >> {note}', log=tmp_path / "alice.log"),
        start(tmp_path / "home-bob", "watch", b, "--as", "bob", "--poll", "--interval", "0.1", log=tmp_path / "bob.log"),
    ]

    def copies(moves: int) -> None:
        if moves == 1:  # a same-bytes copy, as a browser and a sync tool make them
            first = sorted(b.glob("000001-*.pbem"))[0]
            (b / f"{first.stem} (1).pbem").write_bytes(first.read_bytes())

    try:
        loop.settle()
        if "alice" in folder_mod.load(a).writers():  # dealt: alice may be first; let her watcher tell her
            wait_for(tmp_path / "alice.log", "your turn")
        moves = drive({"alice": (a, keys["alice"]), "bob": (b, keys["bob"])}, over(a, b), 25, random.Random(3),
                      copies)
        for name in ("rita", "alice", "bob"):
            wait_for(tmp_path / f"{name}.log", "the game is over")
    finally:
        codes = [stop(p) for p in procs]
        loop.stop()
    logs = {n: (tmp_path / f"{n}.log").read_text() for n in ("rita", "alice", "bob")}
    assert codes == [0, 0, 0], logs
    assert moves >= (4 if game == "agent-avenue" else 1)  # a Duet game may end at its first guess
    chain = opening.verify(b)
    assert chain.over and folder_mod.load(a).head == chain.head
    assert "-rita.pbem" in logs["rita"] and "wrote " in logs["rita"]
    assert "the game is over" in logs["bob"] and "Traceback" not in "".join(logs.values())
    assert " (1).pbem is a copy made by a browser of 000001-" in logs["rita"]
    told = note.read_text().splitlines() if note.exists() else []
    # the referee's seed is random: a Duet game may end before alice ever decides
    assert bool(told) == (": your turn in " in logs["alice"]), logs["alice"]
    assert all(line.startswith(f"{game} ") and line.endswith(" decision") for line in told)
    assert len(told) == len(set(told))  # told once per turn


def test_a_peer_game_through_two_synced_folders(tmp_path):
    """No referee: bob's watcher joins in place and both watchers write the
    decryptions each seat owes the other."""
    keys = introduced(tmp_path, ["alice", "bob"])
    a, b = tmp_path / "a", tmp_path / "b"
    creating.new_game("agent-avenue", a, ["alice", "bob"], keys["alice"], dealer="peer", creator="alice")
    loop = SyncLoop([a, b], style="syncthing")
    loop.start()
    procs = [start(tmp_path / "home-alice", "watch", a, "--as", "alice", log=tmp_path / "alice.log"),
             start(tmp_path / "home-bob", "watch", b, "--as", "bob", log=tmp_path / "bob.log")]
    try:
        moves = drive({"alice": (a, keys["alice"]), "bob": (b, keys["bob"])}, over(a, b), 30, random.Random(5))
        for name in ("alice", "bob"):
            wait_for(tmp_path / f"{name}.log", "the game is over")
    finally:
        codes = [stop(p) for p in procs]
        loop.stop()
    logs = {n: (tmp_path / f"{n}.log").read_text() for n in ("alice", "bob")}
    assert codes == [0, 0], logs
    assert moves >= 4 and opening.verify(a).over
    assert "wrote 000001-bob.pbem" in logs["bob"], logs["bob"]  # the join, written by the watcher
    assert "Traceback" not in "".join(logs.values())


# --- the referee daemon ---------------------------------------------------------------------------


def test_the_referee_daemon_serves_three_games_and_survives_a_kill(tmp_path):
    from conftest import Pbem

    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    tree = tmp_path / "tree"
    games = [tree / f"game{i}" for i in range(3)]
    for i, g in enumerate(games):
        opts = ["mode=advanced"] if i == 2 else []
        creating.new_game("agent-avenue", g, ["alice", "bob"], keys["rita"], dealer="referee", referee="rita",
                         options=opts)
    log = tmp_path / "daemon.log"
    daemon = [start(tmp_path / "home-rita", "referee", "watch", tree, "--as", "rita", log=log)]
    def kill_and_restart(moves: int) -> None:
        if moves == 8:
            daemon[0].kill()  # no goodbye: killed between two answers, or in one
            daemon[0].wait(5)
            listing = Pbem(tmp_path / "home-alice")("status", "--all", tree).stdout
            assert listing.count("agent-avenue") == 3, listing
            time.sleep(0.3)  # moves wait for the referee meanwhile
            daemon[0] = start(tmp_path / "home-rita", "referee", "watch", tree, "--as", "rita", log=log)

    rng = random.Random(11)

    def answered() -> bool:  # game0 to its end; in the others, 12 moves in all, each answered
        try:
            chains = [load(g) for g in games]
        except PbemError:
            return False
        return chains[0].over and moves >= 18 and not any("rita" in c.writers() for c in chains)

    moves = 0
    try:
        done, deadline = answered, time.monotonic() + 40
        while not done():
            assert time.monotonic() < deadline, log.read_text()
            for g in games:  # the players move in all three games at once
                try:
                    chain = load(g)
                except PbemError:
                    continue
                for seat in chain.writers():
                    if seat != "rita" and not chain.dealt:  # the players' joins, in place
                        writing.sync(g, seat, keys[seat])
                        break
                    if chain.needs(seat) == "decision" and (g == games[0] or moves < 18):
                        me = opening.party(chain, seat, keys[seat])
                        writing.submit(g, seat, [rng.choice(reading.legal(chain, me))], keys[seat])
                        moves += 1
                        kill_and_restart(moves)
                        break
            time.sleep(0.02)
    finally:
        code = stop(daemon[0])
    text = log.read_text()
    assert code == 0, text
    for g in games:
        chain = opening.verify(g)  # every answer exactly once: a repeat would be a fork or refused
        assert chain.seq >= 6 and "rita" not in chain.writers()
        assert not [p for p in g.iterdir() if not p.name.startswith(("0", "state", ".pbem"))], list(g.iterdir())
    assert text.count("watching every game under") == 2 and "Traceback" not in text
    assert "the game is over" in text
    rows = Pbem(tmp_path / "home-alice").json("status", "--all", tree)
    # game0 is played to its end; the others stop after 18 moves in all, and
    # a short game (the referee's seed is random) may be over by then too
    assert len(rows) == 3 and rows[0]["over"] is True
    assert all(r["to_act"][0]["seat"] in ("alice", "bob") for r in rows[1:] if not r["over"])


def test_the_referee_daemon_looks_only_at_the_game_a_new_file_is_in(tmp_path, monkeypatch):
    """In a tree, a file event makes the daemon look at the game it names,
    not at every game (issue #12: one new file among 1,000 games)."""
    pytest.importorskip("watchfiles")
    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    tree = tmp_path / "tree"
    games = [tree / f"game{i}" for i in range(4)]
    for g in games:
        creating.new_game("agent-avenue", g, ["alice", "bob"], keys["rita"], dealer="referee", referee="rita")
        for who in ("alice", "bob", "rita"):
            writing.sync(g, who, keys[who])
    looked: list[Path] = []
    real = tw.signature
    monkeypatch.setattr(tw, "signature", lambda folder, wanted: looked.append(Path(folder)) or real(folder, wanted))
    said: list[str] = []
    watch = Watch(tree, "rita", keys["rita"], said.append, tree=True, settle=0.05)
    stopping = threading.Event()
    runner = threading.Thread(target=watch.run, kwargs={"stop": stopping})
    runner.start()
    try:
        deadline = time.monotonic() + 10
        while sum("waiting" in line for line in said) < len(games):
            assert time.monotonic() < deadline, said
            time.sleep(0.02)
        time.sleep(0.3)
        chain = folder_mod.load(games[2])
        seat = chain.writers()[0]
        before = len(looked)
        written = writing.submit(games[2], seat, [reading.legal(chain, opening.party(chain, seat, keys[seat]))[0]],
                                 keys[seat])
        answer = games[2] / folder_mod.turn_name(int(written[-1].name[:6]) + 1, "rita")
        while not answer.exists():
            assert time.monotonic() < deadline, said
            time.sleep(0.02)
    finally:
        stopping.set()
        runner.join(10)
    since = set(looked[before:])
    assert games[2] in since and since <= {games[2]}, since
