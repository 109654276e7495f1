"""Undo by agreement: a seat takes back its last move when every other seat
accepts, as a signed pair (or more) of files; refused when it would leak a
card or chance; doctored undo files re-signed with real keys refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest

from conftest import Pbem, introduced, play_to_end, snapshot
from doctor import resign_turn
from pbem import games
from pbem.app import creating, opening, reading, receiving, writing
from pbem.home.store import KeyStore
from pbem.errors import PbemError
from pbem.protocol import codec
from pbem.gamedir import folder
from pbem.protocol.clock import file_time
from pbem.protocol.commitments import state_hash
from pbem.protocol.formats import TurnBody
from pbem.protocol.turn_parts import Undo

SEATS = ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"]
NAMES = [s.split(":")[0] for s in SEATS]


def spymaster_first(chain) -> str:
    return chain.writers()[0]


@pytest.fixture
def cli(home) -> Pbem:
    run = Pbem(home)
    for name in NAMES:
        run("id", "new", name, "--no-passphrase")
    return run


def new_cli_game(cli: Pbem, g: Path) -> str:
    cli("new", "codenames", g, *[a for s in SEATS for a in ("--seat", s)], "--seed", "5")
    return cli.json("status", g)["to_act"][0]["seat"]


def others(me: str) -> list[str]:
    return [n for n in NAMES if n != me]


def test_accepted_undo_returns_to_the_state_before_and_the_game_goes_on(cli, tmp_path):
    g = tmp_path / "g"
    sp = new_cli_game(cli, g)
    before = folder.load(g)
    cache_before = json.loads((g / "state.pbem").read_bytes())
    clues = cli.json("legal", g, "--as", sp)
    cli("submit", g, "--as", sp, "--cmd", clues[0])
    cli("undo", "request", g, "--as", sp)
    st = cli.json("status", g)
    assert st["undo"] == {"by": sp, "target": 1, "accepted": [], "waiting": others(sp)}
    assert st["to_act"][0]["seat"] == others(sp)[0] and st["to_act"][0]["undo"]
    assert f"{sp} asks to take back seq 1" in cli("status", g).stdout
    # normal play waits; the requester cannot answer itself
    operative = {"alice": "bob", "carol": "dave"}[sp]
    assert cli.json("legal", g, "--as", operative) == []
    r = cli.fails("submit", g, "--as", others(sp)[0], "--cmd", "pass")
    assert "play waits for the answers" in r.stderr
    files = snapshot(g)
    cli.fails("undo", "accept", g, "--as", sp)
    cli.fails("undo", "request", g, "--as", sp)
    assert snapshot(g) == files
    for name in others(sp):
        cli("undo", "accept", g, "--as", name)
    after = folder.load(g)
    assert after.seq == 2 + len(others(sp)) and after.undo_pending is None
    assert state_hash(after.public) == state_hash(before.public)
    cache = json.loads((g / "state.pbem").read_bytes())
    for key in ("public", "known", "revealed", "obligations", "to_act"):
        assert cache[key] == cache_before[key], key
    assert "undo" not in cache
    log = cli("log", g).stdout
    assert f"asks to take back seq 1 ({clues[0]})" in log
    assert "the game returns to before seq 1" in log
    # the seat plays again, differently, and the game goes to its end
    cli("submit", g, "--as", sp, "--cmd", clues[1])
    st = play_to_end(cli, g, seed=3)
    assert st["over"]
    cli("verify", g)
    cli("audit", g)


def test_one_refusal_ends_the_request_and_the_move_stands(cli, tmp_path):
    g = tmp_path / "g"
    sp = new_cli_game(cli, g)
    clue = cli.json("legal", g, "--as", sp)[0]
    cli("submit", g, "--as", sp, "--cmd", clue)
    played = folder.load(g).public
    cli("undo", "request", g, "--as", sp)
    first, second, third = others(sp)
    cli("undo", "accept", g, "--as", first)
    cli("undo", "refuse", g, "--as", second)
    chain = folder.load(g)
    assert chain.undo_pending is None and state_hash(chain.public) == state_hash(played)
    assert "refuses the undo of seq 1" in cli("log", g).stdout
    r = cli.fails("undo", "accept", g, "--as", third)
    assert "no undo request is pending" in r.stderr
    assert "undo" not in cli.json("status", g)
    op = {"alice": "bob", "carol": "dave"}[sp]
    cli("submit", g, "--as", op, "--cmd", next(c for c in cli.json("legal", g, "--as", op) if c.startswith("guess")))


def test_refused_by_pbem_after_a_reveal(cli, tmp_path):
    g = tmp_path / "g"
    sp = new_cli_game(cli, g)
    cli("submit", g, "--as", sp, "--cmd", cli.json("legal", g, "--as", sp)[0])
    op = {"alice": "bob", "carol": "dave"}[sp]
    guess = next(c for c in cli.json("legal", g, "--as", op) if c.startswith("guess"))
    cli("submit", g, "--as", op, "--cmd", guess)
    files = snapshot(g)
    r = cli.fails("undo", "request", g, "--as", op)
    assert "reveals a card" in r.stderr and "would leak it" in r.stderr
    r = cli.fails("undo", "request", g, "--as", sp)
    assert f"the last move is {op}'s" in r.stderr
    assert snapshot(g) == files


# --- the library, with one folder per player ------------------------------------------


class Table:
    """Every party's own folder; each file written is mailed to the others."""

    def __init__(self, tmp_path: Path, names: list[str]) -> None:
        self.keys = introduced(tmp_path, names)
        self.dirs = {n: tmp_path / f"dir-{n}" for n in names}

    def write(self, who: str, fn) -> list[Path]:
        written = fn(self.dirs[who], who, self.keys[who])
        for other, d in self.dirs.items():
            if other != who and d.exists() and written:
                receiving.apply_files(d, written)
        return written

    def chain(self, who: str = "alice"):
        return folder.load(self.dirs[who])

    def settle(self) -> None:
        chain = self.chain()
        while chain.writers() and chain.needs(chain.writers()[0]) == "auto":
            self.write(chain.writers()[0], lambda d, n, k: writing.sync(d, n, k))
            chain = self.chain()

    def submit(self, who: str, text: str) -> None:
        self.write(who, lambda d, n, k: writing.submit(d, n, [text], k))
        self.settle()

    def undo(self, who: str, what: str) -> None:
        self.write(who, lambda d, n, k: writing.undo(d, n, what, k))
        self.settle()

    def legal(self, who: str) -> list[str]:
        chain = self.chain(who)
        return reading.legal(chain, opening.party(chain, who, self.keys[who]))


def referee_table(tmp_path) -> Table:
    t = Table(tmp_path, [*NAMES, "rita"])
    creating.new_game("codenames", t.dirs["rita"], SEATS, t.keys["rita"], "referee", referee="rita")
    genesis = t.dirs["rita"] / folder.GENESIS
    for n in NAMES:
        t.dirs[n].mkdir()
        shutil.copy(genesis, t.dirs[n] / folder.GENESIS)
    t.settle()
    return t


def peer_table(tmp_path) -> Table:
    t = Table(tmp_path, NAMES)
    creating.new_game("codenames", t.dirs["alice"], SEATS, t.keys["alice"], "peer", creator="alice")
    for n in NAMES[1:]:
        received = sorted(p for p in t.dirs["alice"].glob("0*.pbem"))
        t.write(n, lambda d, name, k: [receiving.join(d, received, name, k)])
    t.settle()
    return t


def accept_everywhere(t: Table, sp: str) -> None:
    before = t.chain(sp)
    knows = {n: before.knows(n) for n in NAMES}
    cards = {n: opening.party(before, n, t.keys[n]).cards for n in NAMES}
    clues = t.legal(sp)
    t.submit(sp, clues[0])
    t.undo(sp, "request")
    for n in others(sp):
        t.undo(n, "accept")
    for who in t.dirs:
        chain = t.chain(who)
        assert state_hash(chain.public) == state_hash(before.public)
        assert {n: chain.knows(n) for n in NAMES} == knows
    chain = t.chain(sp)
    assert {n: opening.party(chain, n, t.keys[n]).cards for n in NAMES} == cards
    assert t.legal(sp) == clues
    t.submit(sp, clues[1])


def test_referee_game_undo_accepted_with_every_folder_agreeing(tmp_path):
    t = referee_table(tmp_path)
    sp = t.chain().writers()[0]
    accept_everywhere(t, sp)
    # the referee's answer to a guess is "since": then no undo
    op = {"alice": "bob", "carol": "dave"}[sp]
    t.submit(op, next(c for c in t.legal(op) if c.startswith("guess")))
    # (the referee's seed is random: a guess that hits the assassin ends the game, which forbids an undo too)
    ended = t.chain().outcome() is not None
    with pytest.raises(PbemError, match="the game is over" if ended else "reveals a card"):
        t.undo(op, "request")
    for d in t.dirs.values():
        opening.verify(d)


def test_peer_game_undo_refused_after_a_decryption(tmp_path):
    """A decision file that also decrypts cards for others cannot be taken
    back: the decryption is out."""
    t = Table(tmp_path, ["alice", "bob"])
    creating.new_game("aa", t.dirs["alice"], ["alice", "bob"], t.keys["alice"], "peer", creator="alice")
    t.write("bob", lambda d, n, k: [receiving.join(d, [t.dirs["alice"] / folder.GENESIS], n, k)])
    t.settle()
    for _ in range(20):
        who = t.chain().writers()[0]
        t.submit(who, t.legal(who)[0])
        body = t.chain().records[-1].body
        if body.partials or body.sealed:
            break
    else:
        raise AssertionError("no decision file decrypted a card")
    with pytest.raises(PbemError, match="decrypts a card"):
        t.undo(who, "request")


def test_peer_game_undo_accepted(tmp_path):
    """A spymaster's clue (its key partials went in an automatic file
    before it) is taken back once every other seat accepts."""
    def clue_without_decryption(t):
        """A spymaster's clue whose file decrypts nothing (a spymaster may
        seal its key partials in its clue file); None if the game ends first."""
        for _ in range(30):
            sp = t.chain().writers()[0]
            legal = t.legal(sp)
            clue = next((c for c in legal if c.startswith("clue")), None)
            before = t.chain()
            t.submit(sp, clue or next((c for c in legal if c == "pass"), legal[0]))
            body = t.chain().records[-1].body
            if clue and not (body.partials or body.sealed or body.reveals):
                return sp, before
            if t.chain().outcome() is not None:
                return None
            t.settle()
        raise AssertionError("every clue file decrypted a card")

    for attempt in range(3):  # a guess may hit the assassin before such a clue comes
        (tmp_path / str(attempt)).mkdir()
        t = peer_table(tmp_path / str(attempt))
        found = clue_without_decryption(t)
        if found:
            break
    else:
        raise AssertionError("three games ended before a clue that decrypts nothing")
    sp, before = found
    t.undo(sp, "request")
    for n in others(sp):
        t.undo(n, "accept")
    for who in t.dirs:  # every folder back to the state before the file
        chain = t.chain(who)
        assert state_hash(chain.public) == state_hash(before.public) and chain.undo_pending is None


def test_peer_game_undo_refused_after_chance(tmp_path, monkeypatch):
    monkeypatch.setitem(games._REGISTRY, "toy-draw", ("toygame", "GAME", ()))
    t = Table(tmp_path, ["alice", "bob"])
    creating.new_game("toy-draw", t.dirs["alice"], ["alice", "bob"], t.keys["alice"], "peer", creator="alice")
    t.write("bob", lambda d, n, k: [receiving.join(d, [t.dirs["alice"] / folder.GENESIS], n, k)])
    t.settle()
    t.submit("alice", "draw")  # a private draw: the beacons pick the card
    assert t.chain().records[-1].chance
    with pytest.raises(PbemError, match="draws chance"):
        t.undo("alice", "request")


# --- doctored files, re-signed with the writer's real key ---------------------------------


def undo_file(chain, secret, what: str, target: int, state=None, **extra) -> bytes:
    body = TurnBody(
        game_id=chain.game_id, seq=chain.seq + 1, prev=chain.head, by=secret.name,
        undo=Undo(what=what, target=target), state=state or state_hash(chain.public), at=file_time(chain), **extra,
    )
    return codec.encode_signed("turn", body, secret)


@pytest.fixture
def hot(tmp_path):
    """A hotseat Codenames game in one store, after the first clue."""
    keys = opening.Keys(KeyStore(tmp_path / "home"), lambda: "")
    for n in NAMES:
        keys.store.create(n, None)
    g = tmp_path / "g"
    creating.new_game("codenames", g, SEATS, keys, "hotseat", seed=5)
    sp = folder.load(g).writers()[0]
    chain = folder.load(g)
    writing.submit(g, sp, [reading.legal(chain, opening.party(chain, sp, keys))[0]], keys)
    return g, keys, sp


def refused(chain, data: bytes, match: str) -> None:
    seq = chain.seq
    with pytest.raises(PbemError, match=match):
        chain.append(data)
    assert chain.seq == seq


def test_doctored_undo_requests_refused(hot):
    g, keys, sp = hot
    chain = folder.load(g)
    s = {n: keys.secret(n) for n in NAMES}
    op = {"alice": "bob", "carol": "dave"}[sp]
    refused(chain, undo_file(chain, s[sp], "request", 2), "seq 2 is not")
    refused(chain, undo_file(chain, s[op], "request", 1), f"the last move is {sp}'s")
    refused(chain, undo_file(chain, s[op], "accept", 1), "none is pending")
    refused(chain, undo_file(chain, s[sp], "accept", 1), "may not write now")
    refused(chain, undo_file(chain, s[sp], "request", 1, commands=[msgspec.Raw(b'{"t":"cn.pass"}')]), "an undo file may not carry commands")
    dealer = opening.hotseat_dealer(g, chain)
    refused(chain, undo_file(chain, dealer, "request", 1), "may not carry undo")
    ok = undo_file(chain, s[sp], "request", 1)
    chain.append(ok)
    refused(chain, undo_file(chain, s[sp], "request", 1), "may not write now")
    first, second, third = others(sp)
    refused(chain, undo_file(chain, s[first], "request", 1), "still pending")
    refused(chain, undo_file(chain, s[sp], "accept", 1), "may not write now")
    refused(chain, undo_file(chain, s[second], "accept", 1), "may not write now")  # out of seat order
    refused(chain, undo_file(chain, s[first], "accept", 2), "the request is of seq 1")
    chain.append(undo_file(chain, s[first], "accept", 1))
    chain.append(undo_file(chain, s[second], "accept", 1))
    # the last acceptance must claim the state before the move, not the head's
    refused(chain, undo_file(chain, s[third], "accept", 1), "the state the undo leaves")
    # a normal move while the request is pending
    move = resign_turn((g / folder.turn_name(1, sp)).read_bytes(), s[third], by=third, seq=chain.seq + 1, prev=chain.head)
    refused(chain, move, "normal play waits for the answers")
    # and through the folder: a doctored file is refused, the folder untouched
    bad = g.parent / "bad.pbem"
    bad.write_bytes(undo_file(folder.load(g), s[op], "request", 1))
    files = snapshot(g)
    with pytest.raises(PbemError):
        receiving.apply_files(g, [bad])
    assert snapshot(g) == files


def test_doctored_request_after_a_reveal_refused(hot):
    g, keys, sp = hot
    op = {"alice": "bob", "carol": "dave"}[sp]
    chain = folder.load(g)
    guess = next(c for c in reading.legal(chain, opening.party(chain, op, keys)) if c.startswith("guess"))
    writing.submit(g, op, [guess], keys)
    chain = folder.load(g)
    refused(chain, undo_file(chain, keys.secret(op), "request", chain.moves[-1]), "would leak it")
