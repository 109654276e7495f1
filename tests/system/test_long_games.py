"""Games that last weeks (issue #24): resigning, an agreed pace and its
clocks, pauses, timeouts (a referee's, a peer seat's claim) and reminders,
through the CLI with one home per player and one folder each; the time is
set with PBEM_NOW, so nothing sleeps."""

from __future__ import annotations

import os
import random
from pathlib import Path

import msgspec
import pytest

from conftest import Pbem, introduced, snapshot
from doctor import hotseat_dealer_key, resign_turn
from pbem.app import opening, reading, receiving, writing
from pbem.home.store import KeyStore
from pbem.errors import PbemError
from pbem.protocol import clock, codec
from pbem.gamedir import folder as folder_mod
from pbem.protocol.chain import Chain
from pbem.protocol.formats import GenesisBody
from pbem.protocol.long_parts import Pause, Timeout
from pbem.protocol.turn_parts import Undo
from test_mail import people
from test_mail import smtp  # noqa: F401 (a fixture)

LONG = bool(os.environ.get("PBEM_LONG"))
DAY = 86400
T0 = clock.parse_stamp("2031-03-01T09:00:00Z")  # after any real file time: a folder's mtime is never a receipt


def at(t: int) -> dict[str, str]:
    return {"PBEM_NOW": clock.stamp(t)}


def file_of(g: Path, what) -> Path:
    """The first chain file of `g` whose body `what` picks."""
    chain = folder_mod.load(g)
    record = next(r for r in chain.records[1:] if what(r))
    return g / (record.name or folder_mod.turn_name(record.seq, record.by))


def refused(path: Path, signer, words: str, **changes) -> None:
    """The file at `path`, honest, follows the chain before it; changed by
    `changes` and signed again with its writer's real key, it is refused."""
    data = path.read_bytes()
    seq = int(path.name[:6])
    folder_mod.load(path.parent, stop=seq - 1).append(data)
    with pytest.raises(PbemError, match=words):
        folder_mod.load(path.parent, stop=seq - 1).append(resign_turn(data, signer, **changes))


class Table:
    """Players with a home and a folder each (and a referee), every file
    written handed to every other folder, as mail would."""

    def __init__(self, base: Path, names: list[str], monkeypatch, keys=None) -> None:
        self.keys = keys or introduced(base, names)
        self.dirs = {n: base / f"{n}-game" for n in names}
        self.cli = {n: Pbem(self.keys[n].store.home) for n in names}
        self.monkeypatch = monkeypatch
        self.now(T0)

    def now(self, t: int) -> None:
        self.t = t
        self.monkeypatch.setenv("PBEM_NOW", clock.stamp(t))

    def spread(self, who: str, written) -> None:
        for other, d in self.dirs.items():
            if other != who and d.exists() and written:
                receiving.apply_files(d, [Path(p) for p in written])

    def exchange(self) -> None:
        """Every folder gets every other folder's files (after the joins)."""
        for d in self.dirs.values():
            for other in self.dirs.values():
                receiving.apply_files(d, sorted(other.glob("0*.pbem")))

    def run(self, who: str, *args, ok: bool = True):
        before = {p.name for p in self.dirs[who].glob("0*.pbem")}
        result = self.cli[who](*args, ok=ok, deal=False)
        new = sorted(p for p in self.dirs[who].glob("0*.pbem") if p.name not in before)
        self.spread(who, new)
        return result

    def chain(self, who: str | None = None):
        return folder_mod.load(self.dirs[who or next(iter(self.dirs))])

    def step(self, rng: random.Random, skip: str | None = None) -> bool:
        """One honest file by whoever must write; False when the game is
        over, or when it is `skip`'s decision (a player who went away)."""
        chain = self.chain()
        writers = chain.writers()
        if not writers:
            return False
        me = writers[0]
        if chain.needs(me) == "auto":
            written = writing.sync(self.dirs[me], me, self.keys[me])
        elif me == skip or me in chain.now.absent:
            return False
        else:
            mine = folder_mod.load(self.dirs[me])
            choice = rng.choice(reading.legal(mine, opening.party(mine, me, self.keys[me])))
            written = writing.submit(self.dirs[me], me, [choice], self.keys[me])
        self.spread(me, written)
        return True

    def settle(self, rng, skip: str | None = None, limit: int = 400) -> None:
        for _ in range(limit):
            if not self.step(rng, skip):
                return
        raise AssertionError("the game did not stop")


def referee_table(tmp_path, monkeypatch, game: str, absent: str, pace: str = "1d", keys=None) -> Table:
    t = Table(tmp_path, ["alice", "bob", "rita"], monkeypatch, keys)
    t.run("rita", "new", game, t.dirs["rita"], "--seat", "alice", "--seat", "bob", "--dealer", "referee",
          "--referee", "rita", "--pace", pace, "--absent", absent)
    for n in ("alice", "bob"):
        receiving.join(t.dirs[n], [t.dirs["rita"] / folder_mod.GENESIS], n, t.keys[n])
    t.exchange()
    t.settle(random.Random(1), skip="alice")  # the joins and the deal, until the first decision
    return t


def test_referee_clock_runs_out_bot_finishes_and_audit(tmp_path, monkeypatch):
    t = referee_table(tmp_path, monkeypatch, "aa", "bot")
    rng = random.Random(7)
    for _ in range(4):  # alice and bob play a while, each well within the day
        t.now(t.t + 3600)
        t.step(rng)
    late = t.chain().writers()[0]
    t.now(t.t + 3600)
    st = t.run("alice", "status", t.dirs["alice"]).stdout
    assert f"clock: {late} to move, 23 hours left" in st
    # before the deadline the referee has nothing to do; nothing changes
    files = snapshot(t.dirs["rita"])
    r = t.run("rita", "timeout", t.dirs["rita"], "--as", "rita", ok=False)
    assert r.exit_code == 1 and "nothing to do" in r.stderr and snapshot(t.dirs["rita"]) == files
    t.now(t.t + DAY + 60)
    assert "out of time" in t.run("alice", "status", t.dirs["alice"]).stdout
    t.run("rita", "sync", t.dirs["rita"], "--as", "rita")  # the referee's bot plays the late seat's turn
    chain = t.chain("alice")
    assert late in chain.now.absent
    first_bot = file_of(t.dirs["alice"], lambda r: r.outer.by == "rita" and r.by == late)
    rita = t.keys["rita"].secret("rita")
    refused(first_bot, rita, "is not out", at=clock.stamp(t.t - 2 * 3600))
    refused(first_bot, rita, "only when", timeout=Timeout(seat="bob" if late == "alice" else "alice", what="bot"))
    refused(first_bot, rita, "may not carry commands", timeout=Timeout(seat=late, what="abandon"))
    assert any(r.outer.by == "rita" and r.by == late and r.commands for r in chain.records)
    assert f"played for {late} by the referee rita's bot" in t.run("alice", "log", t.dirs["alice"]).stdout
    other = "bob" if late == "alice" else "alice"
    for _ in range(400 if LONG else 10):  # the other seat plays on; the referee plays for the absent one
        if not t.step(rng, skip=late):
            if t.chain().outcome() is not None and not t.chain().writers():
                break
            t.run("rita", "sync", t.dirs["rita"], "--as", "rita")
    bot_moves = sum(1 for r in t.chain().records if r.outer.by == "rita" and r.by == late)
    assert bot_moves >= 2  # the bot played on, not only once
    if t.chain().outcome() is None:  # the default run: the other seat resigns (PBEM_LONG=1: played to its end)
        t.run(other, "resign", t.dirs[other], "--as", other)
        t.run("rita", "sync", t.dirs["rita"], "--as", "rita")
    chain = t.chain(other)
    assert chain.over and chain.outcome().reason
    assert "ok: audit passed" in t.run(other, "audit", t.dirs[other]).stdout


def test_referee_abandons_as_agreed(tmp_path, monkeypatch):
    t = referee_table(tmp_path, monkeypatch, "aa", "abandon", pace="2d")
    late = t.chain().writers()[0]
    t.now(t.t + 2 * DAY + 1)
    t.run("rita", "timeout", t.dirs["rita"], "--as", "rita")
    chain = t.chain("bob")
    out = chain.outcome()
    assert out.winners == [] and out.reason.startswith(f"abandoned: {late}'s time ran out (by the referee rita")
    assert chain.over  # the seed is out: the audit runs
    ended = file_of(t.dirs["bob"], lambda r: r.body.timeout is not None)
    rita = t.keys["rita"].secret("rita")
    refused(ended, rita, "is not out", timeout=Timeout(seat=late, what="abandon", since=clock.stamp(t.t - 3600)))
    refused(ended, rita, "does not let the referee", timeout=Timeout(seat=late, what="bot"))
    refused(ended, rita, "only in a peer game", timeout=Timeout(seat=late, what="claim"))
    refused(ended, t.keys["bob"].secret("bob"), "only the referee", by="bob")
    assert "ok: audit passed" in t.run("bob", "audit", t.dirs["bob"]).stdout


def peer_table(tmp_path, monkeypatch) -> Table:
    t = Table(tmp_path, ["alice", "bob"], monkeypatch)
    t.run("alice", "new", "aa", t.dirs["alice"], "--seat", "alice", "--seat", "bob", "--dealer", "peer",
          "--as", "alice", "--pace", "2d")
    receiving.join(t.dirs["bob"], [t.dirs["alice"] / folder_mod.GENESIS], "bob", t.keys["bob"])
    t.exchange()
    return t


def bob_to_move(tmp_path, monkeypatch) -> tuple[Table, random.Random]:
    """A peer game of alice and bob with a pace, played until bob is to move."""
    t = peer_table(tmp_path, monkeypatch)
    rng = random.Random(3)
    t.settle(rng, skip="alice")
    if t.chain().writers() == ["alice"]:
        t.step(rng)
        t.settle(rng, skip="bob")
    assert t.chain().writers() == ["bob"]
    return t, rng


def test_peer_resign_out_of_turn_then_secrets_and_audit(tmp_path, monkeypatch):
    t = peer_table(tmp_path, monkeypatch)
    rng = random.Random(4)
    t.settle(rng, skip="alice")
    waiting = t.chain().writers()
    t.run("bob", "resign", t.dirs["bob"], "--as", "bob")  # whoever is to move
    out = t.chain("alice").outcome()
    assert out.winners == ["alice"] and out.reason == "bob resigned" and waiting == ["alice"]
    t.settle(rng)  # each seat publishes its secrets
    assert "ok: audit passed" in t.run("alice", "audit", t.dirs["alice"]).stdout


def _claim_answered_by_a_move(tmp_path, monkeypatch) -> tuple[Table, random.Random] | None:
    """alice claims bob's time is out, bob answers with his move (the claim
    lapses), and alice moves on until bob is to move again; None when the
    random deal ended the game (a spy caught) on the way."""
    t, rng = bob_to_move(tmp_path, monkeypatch)
    # a claim before the deadline: refused, nothing changes
    files = snapshot(t.dirs["alice"])
    r = t.run("alice", "timeout", t.dirs["alice"], "--as", "alice", ok=False)
    assert r.exit_code == 1 and "nobody's time is out" in r.stderr and snapshot(t.dirs["alice"]) == files
    t.now(t.t + 2 * DAY + 5)
    t.run("alice", "timeout", t.dirs["alice"], "--as", "alice")
    st = t.run("bob", "status", t.dirs["bob"]).stdout
    assert "alice claims bob's time is out" in st and "bob may answer with a move" in st
    t.settle(rng, skip="alice")  # bob answers with his move: the claim lapses
    assert t.chain().now.claim is None
    if t.chain().outcome() is not None:
        return None
    t.settle(rng, skip="bob")
    return None if t.chain().outcome() is not None else (t, rng)


def test_peer_claim_answered_by_a_move_then_accepted(tmp_path, monkeypatch):
    # a peer deal is random (each seat's secret scalars), and Agent Avenue
    # may end within a few moves: a game that ends too soon is played again
    for attempt in range(5):
        played = _claim_answered_by_a_move(tmp_path / f"game{attempt}", monkeypatch)
        if played is not None:
            break
    else:
        raise AssertionError("five random deals each ended the game before bob's second turn")
    t, rng = played
    t.now(t.t + 3 * DAY)
    t.run("alice", "timeout", t.dirs["alice"], "--as", "alice")
    r = t.run("alice", "timeout", t.dirs["alice"], "--as", "alice", ok=False)  # accepting one's own claim at once
    assert r.exit_code == 1 and "a day at least after" in r.stderr
    t.now(t.t + DAY + 1)
    t.run("alice", "timeout", t.dirs["alice"], "--as", "alice")
    out = t.chain("bob").outcome()
    assert out.winners == [] and out.reason.startswith("abandoned: bob's time ran out, claimed by alice on 2031-")
    alice = t.keys["alice"].secret("alice")
    claims = [g for g in sorted(t.dirs["bob"].glob("0*-alice.pbem")) if b'"what":"claim"' in g.read_bytes()]
    refused(claims[-1], alice, "is not out", at=clock.stamp(t.t - 3 * DAY))
    refused(claims[-1], alice, "cannot time itself out", timeout=Timeout(seat="alice", what="claim"))
    accepted = file_of(t.dirs["bob"], lambda r: r.body.timeout is not None and r.body.timeout.what == "accept")
    refused(accepted, alice, "a day at least", at=clock.stamp(t.t - DAY))
    refused(accepted, alice, "not alice", timeout=Timeout(seat="alice", what="accept"))
    t.settle(rng)  # each seat publishes its secrets
    assert "ok: audit passed" in t.run("bob", "audit", t.dirs["bob"]).stdout


REFEREE = ["--dealer", "referee", "--referee", "rita"]
GAMES = [  # (game, seats, more arguments, the winners when the first seat resigns)
    ("aa", ["alice:green", "bob:blue", "carol:green", "dave:blue"], [], ["bob", "dave"]),
    ("codenames", ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"], [], ["carol", "dave"]),
    ("codenames", ["alice:a", "bob:b"], ["--option", "variant=duet"], []),
    ("dark-agent", ["alice"], REFEREE, []),
    ("codex", ["alice", "bob"], REFEREE, ["bob"]),
]


@pytest.mark.parametrize("game,seats,options,winners", GAMES, ids=["aa-teams", "codenames", "duet", "da-solo", "codex"])
def test_resign_ends_every_game_for_its_side(pbem, tmp_path, game, seats, options, winners):
    for name in ("carol", "dave"):
        pbem("id", "new", name, "--no-passphrase")
    g = tmp_path / "g"
    args = [a for s in seats for a in ("--seat", s)] + options
    pbem("new", game, g, *args, "--pace", "3d", env=at(T0))
    first = seats[0].split(":")[0]
    files = snapshot(g)
    r = pbem.fails("resign", g, "--as", "rita", env=at(T0))  # rita has no seat here
    assert "rita has no seat" in r.stderr and snapshot(g) == files
    pbem("resign", g, "--as", first, "--note", "called away", env=at(T0 + 60))
    if game == "aa":  # the resignation doctored: signed again by the dealer, or with commands
        resigned = file_of(g, lambda r: r.body.resign is not None)
        refused(resigned, hotseat_dealer_key(g), "only a seat resigns", by="dealer")
        alice = opening.Keys(KeyStore(pbem.home), lambda: "").secret("alice")
        refused(resigned, alice, "may not carry undo", undo=Undo(what="request", target=1))
    if "rita" in options:
        pbem("sync", g, "--as", "rita", env=at(T0 + 90))  # the referee publishes its seed
    st = pbem.json("status", g)
    assert st["over"] and st["outcome"]["winners"] == winners and st["outcome"]["reason"].startswith(f"{first}")
    assert "resigns (called away)" in pbem("log", g).stdout
    assert "ok: audit passed" in pbem("audit", g).stdout
    r = pbem.fails("resign", g, "--as", first, env=at(T0 + 120))
    assert "the game is over" in r.stderr


def play_turn(pbem, g, who: str, t: int) -> None:
    """`who`'s whole turn (one file or more), its first legal command each time."""
    while pbem.json("status", g)["to_act"][0]["seat"] == who:
        pbem("submit", g, "--as", who, "--cmd", pbem.json("legal", g, "--as", who)[0], env=at(t))


def test_pace_status_pauses_and_times_that_lie(pbem, tmp_path):
    g = tmp_path / "g"
    # a fixed deal: with a random one the game could end (a spy caught) before the turns this test plays
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1", "--pace", "72h+12h/120h", "--pauses", "10d",
         env=at(T0))
    assert "clock: alice to move, 2 days 4 hours left" in pbem("status", g, env=at(T0 + 20 * 3600)).stdout
    play_turn(pbem, g, "alice", T0 + DAY)
    # bob's clock: 72 hours to begin with; alice's: 48 left, 12 more, 60 hours
    st = pbem("status", g, env=at(T0 + DAY + 3600)).stdout
    assert "clock: bob to move, 2 days 23 hours left" in st
    files = snapshot(g)
    r = pbem.fails("pause", g, "--as", "bob", "--until", "11d", env=at(T0 + DAY + 3600))
    assert "longer than agreed" in r.stderr and snapshot(g) == files
    r = pbem.fails("pause", g, "--as", "bob", "--from", "2031-02-01", "--until", "1d", env=at(T0 + DAY + 3600))
    assert "runs forward from its file's time" in r.stderr and snapshot(g) == files
    pbem("pause", g, "--as", "bob", "--until", "6d", env=at(T0 + DAY + 3600))
    st = pbem("status", g, env=at(T0 + 3 * DAY)).stdout
    assert "paused by bob until 2031-03-08T10:00:00Z: every clock is stopped" in st
    assert "clock: bob to move, 2 days 23 hours left" in st
    r = pbem.fails("pause", g, "--as", "bob", "--until", "5d", env=at(T0 + 3 * DAY))
    assert "4 days of its 10 days of pauses is left" in r.stderr
    # a file dated before the one it follows, and one a year ahead: a note each, nothing lost
    play_turn(pbem, g, "bob", T0 - DAY)
    st = pbem("status", g, env=at(T0 + 8 * DAY)).stdout
    assert "before the file it follows" in st and "nothing else changes" in st
    play_turn(pbem, g, "alice", T0 + 400 * DAY)
    st = pbem("status", g, env=at(T0 + 8 * DAY)).stdout
    assert "a time is only its writer's claim" in st and "1 year" not in st  # said in days
    assert pbem("verify", g).exit_code == 0
    # the pause and the times, doctored and signed again with bob's real key: refused
    bob = opening.Keys(KeyStore(pbem.home), lambda: "").secret("bob")
    paused = file_of(g, lambda r: r.body.pause is not None)
    start = clock.stamp(T0 + DAY + 3600)
    refused(paused, bob, "longer than agreed", pause=Pause(start, clock.stamp(T0 + 12 * DAY)))
    refused(paused, bob, "runs forward", pause=Pause(clock.stamp(T0), clock.stamp(T0 + DAY)))
    refused(paused, bob, "may not carry commands", commands=folder_mod.load(g).records[1].body.commands)
    refused(paused, bob, "carries its writer's time", at=None)
    refused(paused, bob, "not a UTC time", at="2031-02-30T00:00:00Z")
    refused(paused, bob, "changes no state", state=folder_mod.load(g).records[1].body.state)
    refused(paused, hotseat_dealer_key(g), "only a seat", by="dealer")
    # the genesis's pace, doctored and signed again by its dealer: refused
    genesis = (g / folder_mod.GENESIS).read_bytes()
    body = msgspec.json.decode(bytes(codec.read_envelope(genesis, "genesis").body), type=GenesisBody)
    for pace, words in ((msgspec.structs.replace(body.pace, absent="bot"), "only a referee game"),
                        (msgspec.structs.replace(body.pace, cap=3600), "cap is less than its start")):
        with pytest.raises(PbemError, match=words):
            Chain(codec.encode_signed("genesis", msgspec.structs.replace(body, pace=pace), hotseat_dealer_key(g)))
    with pytest.raises(PbemError, match="only in games of protocol version 6"):
        Chain(codec.encode_signed("genesis", msgspec.structs.replace(body, version=5), hotseat_dealer_key(g)))


def test_hotseat_and_referee_games_refuse_a_seats_timeout_claim(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--pace", "1d", env=at(T0))
    files = snapshot(g)
    r = pbem.fails("timeout", g, "--as", "bob", env=at(T0 + 5 * DAY))
    assert "claims no timeout" in r.stderr and snapshot(g) == files
    r = pbem.fails("new", "aa", tmp_path / "h", "--seat", "alice", "--seat", "bob", "--pace", "1d", "--absent", "bot")
    assert "--absent is for referee games" in r.stderr


def test_old_games_have_no_long_game_files(pbem, tmp_path, monkeypatch):
    """A game begun under protocol version 5 writes and accepts none of them."""
    from pbem.protocol import formats, versions

    monkeypatch.setattr(formats, "PROTOCOL_VERSION", 5)
    from pbem.protocol import dealer

    monkeypatch.setattr(dealer, "PROTOCOL_VERSION", 5)
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob")
    monkeypatch.undo()
    assert folder_mod.load(g).version == versions.of(5)
    files = snapshot(g)
    r = pbem.fails("resign", g, "--as", "alice", "--allow-old-protocol")
    assert "protocol version 5, which has no resignation" in r.stderr and snapshot(g) == files
    move = pbem.json("legal", g, "--as", "alice")[0]
    pbem("submit", g, "--as", "alice", "--cmd", move, "--allow-old-protocol")
    assert all(r.body.at is None for r in folder_mod.load(g).records[1:])


def test_reminders_once_per_seat_and_turn_then_the_deadline(tmp_path, monkeypatch, smtp):  # noqa: F811
    """`pbem watch` reminds its own seat (--notify-cmd) once 3/4 of its
    time is gone, once; the referee's watch tells of a deadline passed;
    `pbem referee mail` mails both, each once across its runs; nothing
    for a seat that has moved."""
    from pbem.app import watching

    t = referee_table(tmp_path, monkeypatch, "aa", "none", pace="4d", keys=people(tmp_path, smtp))
    late = t.chain().writers()[0]
    log = tmp_path / "notified"
    notify = f'echo "$PBEM_AS $PBEM_NEEDS $PBEM_SEAT" >> {log}'
    t.now(t.t + 2 * DAY)  # half the time: nothing yet
    out = t.run(late, "watch", t.dirs[late], "--once", "--notify-cmd", notify).stdout
    assert "left" not in out
    t.now(t.t + DAY + 3600)
    said: list[str] = []
    watch = watching.Watch(t.dirs[late], late, t.keys[late], said.append, notify_cmd=notify, settle=0)
    watch.run(once=True)
    watch.run(once=True)  # the same watcher looks again: no second reminder
    assert [line for line in said if "left" in line] == [f"{t.dirs[late]}: {late} to move in Agent Avenue: 23 hours left"]
    assert log.read_text().splitlines().count(f"{late} reminder {late}") == 1
    other = "bob" if late == "alice" else "alice"
    assert "left" not in t.run(other, "watch", t.dirs[other], "--once").stdout  # not the other seat's to hear
    first = t.run("rita", "referee", "mail", t.dirs["rita"], "--as", "rita").stdout
    assert f"reminded {late} <" in first
    assert "reminded" not in t.run("rita", "referee", "mail", t.dirs["rita"], "--as", "rita").stdout
    t.now(t.t + DAY)
    out = t.run("rita", "referee", "watch", t.dirs["rita"], "--as", "rita", "--once", "--notify-cmd", notify).stdout
    assert f"{late}'s time ran out at" in out and f"rita deadline {late}" in log.read_text().splitlines()
    mailed = t.run("rita", "referee", "mail", t.dirs["rita"], "--as", "rita").stdout
    assert mailed.count("time ran out") == 2  # to both seats
    t.settle(random.Random(2), skip=other)  # the late seat moves after all: no reminder for it now
    out = t.run(late, "watch", t.dirs[late], "--once").stdout
    assert "left" not in out and "time ran out" not in out


def test_a_referees_bot_file_in_a_game_without_a_pace_is_refused(tmp_path, monkeypatch):
    """No pace agreed, no powers over absent seats: a clear refusal, not a crash."""
    t = Table(tmp_path, ["alice", "bob", "rita"], monkeypatch)
    t.run("rita", "new", "aa", t.dirs["rita"], "--seat", "alice", "--seat", "bob", "--dealer", "referee",
          "--referee", "rita")
    for n in ("alice", "bob"):
        receiving.join(t.dirs[n], [t.dirs["rita"] / folder_mod.GENESIS], n, t.keys[n])
    t.exchange()
    t.settle(random.Random(1), skip="alice")
    ritas = file_of(t.dirs["bob"], lambda r: r.by == "rita")
    refused(ritas, t.keys["rita"].secret("rita"), "does not let the referee", timeout=Timeout(seat="alice", what="bot"))
