"""Rebuilding a lost game folder (issue 24, part 6): `mail send` mails the
player a copy of its own files, `mail fetch` into a new folder rebuilds it
from the mailbox (a real IMAP server, dovecot on loopback), and `pbem
join` / `pbem apply` into an empty folder rebuild it from another seat's
files; the player's hidden cards and peer secrets come back from what was
sealed to its key, and the game goes on to its audit."""

from __future__ import annotations

import os
import random
import shutil

import pytest

from conftest import Pbem, introduced, mail_step
from mailservers import Dovecot
from pbem.app import creating, long_play, mail_fetch, mail_referee, mailing, opening, reading, receiving
from pbem.errors import PbemError
from pbem.gamedir import folder as folder_mod
from pbem.transport.mail import MailError
from test_mail import bot_turn, imap_people


@pytest.fixture(scope="module")
def dovecot():
    server = Dovecot(["alice", "bob", "rita"])
    yield server
    server.stop()


def hand(folder, name, keys):
    """What `name` sees of the game (its hand among it)."""
    chain = opening.open_game(folder)
    return reading.view_json(chain, opening.party(chain, name, keys))


def by_mail(folders, keys, referee: bool, rng, rounds: int) -> None:
    """`rounds` rounds of every party fetching, acting and sending."""
    for _ in range(rounds):
        if referee:
            mail_referee.referee(folders["rita"].parent, "rita", keys["rita"])
        for who in ("alice", "bob"):
            mail_fetch.fetch([folders[who]], who, keys[who])
            bot_turn(folders[who], who, keys[who], rng)
            mailing.send(folders[who], who, keys[who])
        if opening.open_game(folders["alice"]).over and opening.open_game(folders["bob"]).over:
            return


@pytest.mark.parametrize("dealer", ["referee", "peer"])
def test_a_lost_folder_rebuilt_from_imap_and_played_on(tmp_path, dovecot, monkeypatch, dealer):
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", Dovecot.PASSWORD)
    server, keys = imap_people(tmp_path, tmp_path / "spool", dovecot)
    try:
        folders = {"alice": tmp_path / "alice" / "g", "bob": tmp_path / "bob" / "g"}
        if dealer == "referee":
            folders["rita"] = tmp_path / "rita" / "g"
            creating.new_game("aa", folders["rita"], ["alice", "bob"], keys["rita"], "referee", "rita")
            mailing.send(folders["rita"], "rita", keys["rita"])
        else:  # alice creates it: only her copy holds the genesis for her
            creating.new_game("aa", folders["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
            mailing.send(folders["alice"], "alice", keys["alice"])
        rng = random.Random(4)
        by_mail(folders, keys, dealer == "referee", rng, rounds=6)
        lost = folders["alice"]
        mail_fetch.fetch([lost], "alice", keys["alice"])
        # the fetch may have answered bob's last file (a peer decryption):
        # mailed, it is in the mailbox too; a file that never left the lost
        # disk would be written again with a new signed time, another file
        mailing.send(lost, "alice", keys["alice"])
        before_head, before_hand = folder_mod.load(lost).head, hand(lost, "alice", keys["alice"])
        assert folder_mod.load(lost).seq > 8 and any(r.by == "alice" for r in folder_mod.load(lost).records[1:])

        shutil.rmtree(tmp_path / "alice")  # the disk is gone; the key store and the mailbox are not
        report = mail_fetch.fetch([lost], "alice", keys["alice"])[0]
        assert report.joined and report.rebuilt
        chain = folder_mod.load(lost)
        assert chain.head == before_head  # every file back, and no second join
        assert hand(lost, "alice", keys["alice"]) == before_hand
        assert opening.verify(lost, full=True).head == before_head

        # played on: to its natural end in the long mode; by default a few
        # more rounds, then bob resigns (a signed file like any other, so the
        # rebuilt folder must take it and the audit must run)
        by_mail(folders, keys, dealer == "referee", rng, rounds=200 if os.environ.get("PBEM_LONG") else 3)
        if not opening.open_game(folders["bob"]).over:
            mail_fetch.fetch([folders["bob"]], "bob", keys["bob"])
            long_play.resign(folders["bob"], "bob", keys["bob"])
            mailing.send(folders["bob"], "bob", keys["bob"])
        for _ in range(3):  # what the end owes (the referee's last word, the peer seats' secrets) goes round
            if dealer == "referee":
                mail_referee.referee(folders["rita"].parent, "rita", keys["rita"])
            for who in ("alice", "bob"):
                mail_fetch.fetch([folders[who]], who, keys[who])
                bot_turn(folders[who], who, keys[who], rng)
                mailing.send(folders[who], who, keys[who])
        heads = {folder_mod.load(f).head for f in folders.values()}
        assert len(heads) == 1 and folder_mod.load(lost).over
        assert reading.audit(lost).ok
    finally:
        server.stop()


def test_without_its_own_files_a_fetch_makes_no_folder(tmp_path, dovecot, monkeypatch):
    """With copy_to_self = false, a peer seat's lost join is nowhere in its
    mailbox: the fetch says so and makes nothing (a second join would fork)."""
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", Dovecot.PASSWORD)
    server, keys = imap_people(tmp_path, tmp_path / "spool", dovecot)
    try:
        conf = keys["bob"].store.home / "config.toml"
        conf.write_text("[mail]\ncopy_to_self = false\n" + conf.read_text())
        folders = {"alice": tmp_path / "alice" / "g", "bob": tmp_path / "bob" / "g"}
        creating.new_game("aa", folders["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
        mailing.send(folders["alice"], "alice", keys["alice"])
        by_mail(folders, keys, False, random.Random(2), rounds=3)
        shutil.rmtree(tmp_path / "bob")
        with pytest.raises(MailError, match="none for seq 1"):
            mail_fetch.fetch([folders["bob"]], "bob", keys["bob"])
        assert not folders["bob"].exists()
    finally:
        server.stop()


def _game(tmp_path, dealer):
    names = ["alice", "bob"]
    keys = introduced(tmp_path, names + ["rita"])
    dirs = {n: tmp_path / n for n in names}
    if dealer == "referee":
        dirs["rita"] = tmp_path / "rita"
        creating.new_game("aa", dirs["rita"], names, keys["rita"], "referee", referee="rita")
        genesis = dirs["rita"] / folder_mod.GENESIS
    else:
        creating.new_game("aa", dirs["alice"], names, keys["alice"], "peer", creator="alice")
        genesis = dirs["alice"] / folder_mod.GENESIS
    for n in names:
        if n in dirs and dirs[n].exists():
            continue
        mine = receiving.join(dirs[n], [genesis], n, keys[n])
        if mine is not None:
            for other in dirs:
                if other != n and dirs[other].exists():
                    receiving.apply_files(dirs[other], [mine])
    for d in dirs.values():
        for other in dirs.values():
            receiving.apply_files(d, sorted(other.glob("0*.pbem")))
    rng = random.Random(6)
    for _ in range(14):
        mail_step(keys, dirs, rng)
    return keys, dirs, rng


@pytest.mark.parametrize("dealer,seat,how", [
    ("referee", "alice", "join"), ("referee", "rita", "apply"),  # a seat, and the referee itself
    ("peer", "alice", "apply"), ("peer", "bob", "join"),  # the creator (her genesis is her first file), a joiner
])
def test_a_lost_folder_rebuilt_from_another_seats_files(tmp_path, dealer, seat, how):
    keys, dirs, rng = _game(tmp_path, dealer)
    before_head = folder_mod.load(dirs[seat]).head
    before_hand = hand(dirs[seat], seat, keys[seat]) if seat != "rita" else None
    shutil.rmtree(dirs[seat])
    run = Pbem(keys[seat].store.home)
    theirs = sorted(dirs["alice" if seat == "bob" else "bob"].glob("0*.pbem"))
    if how == "join":
        r = run("join", dirs[seat], *theirs, "--as", seat)
        assert "rebuilt:" in r.stdout and "send" not in r.stderr
    else:
        r = run("apply", dirs[seat], *theirs)
    assert folder_mod.load(dirs[seat]).head == before_head
    if before_hand is not None:
        assert hand(dirs[seat], seat, keys[seat]) == before_hand
    for _ in range(2000):  # played on to the end, the rebuilt folder among the others
        if not mail_step(keys, dirs, rng):
            break
    assert len({folder_mod.load(d).head for d in dirs.values()}) == 1
    assert folder_mod.load(dirs[seat]).over and reading.audit(dirs[seat]).ok


def test_apply_into_an_empty_folder_needs_the_genesis(tmp_path):
    keys, dirs, _ = _game(tmp_path, "referee")
    run = Pbem(keys["alice"].store.home)
    target = tmp_path / "new"
    r = run("apply", target, *sorted(dirs["bob"].glob("0000[1-9]*.pbem")), ok=False)
    assert r.exit_code == 1 and "hold no genesis" in r.stderr and not target.exists()


def test_copy_to_self_must_be_true_or_false(tmp_path, dovecot, monkeypatch):
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", Dovecot.PASSWORD)
    server, keys = imap_people(tmp_path, tmp_path / "spool", dovecot)
    try:
        conf = keys["rita"].store.home / "config.toml"
        conf.write_text('[mail]\ncopy_to_self = "yes"\n' + conf.read_text())
        g = tmp_path / "rita" / "g"
        creating.new_game("aa", g, ["alice", "bob"], keys["rita"], "referee", "rita")
        with pytest.raises(PbemError, match="copy_to_self in \\[mail\\] must be true or false"):
            mailing.send(g, "rita", keys["rita"])
        assert not server.received  # nothing mailed
    finally:
        server.stop()


def test_a_rebuilt_folder_takes_the_own_file_written_again_that_never_left(tmp_path, monkeypatch):
    """alice writes an automatic answer, looks at her folder, and loses her
    disk before sending it; her folder made again from bob's files lacks
    it, so her pbem writes it again: with its new signed time (protocol
    version 6) it is another file, and what she verified of the lost folder
    does not hold the new one to it (as `verify --full` would not)."""
    from conftest import settle

    from pbem.app import creating, opening, receiving, turns, writing

    keys = introduced(tmp_path, ["alice", "bob"])
    dirs = {n: tmp_path / n / "g" for n in keys}
    creating.new_game("aa", dirs["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    receiving.apply_file(dirs["alice"], receiving.join(dirs["bob"], [dirs["alice"] / folder_mod.GENESIS], "bob",
                                                   keys["bob"]))
    settle(keys, dirs)
    rng = random.Random(2)
    monkeypatch.setenv("PBEM_NOW", "2031-03-01T09:00:00Z")
    for _ in range(200):
        chain = folder_mod.load(dirs["bob"])
        if chain.writers() and chain.writers()[0] == "alice" and chain.needs("alice") == "auto":
            break
        mail_step(keys, dirs, rng)
    else:
        raise AssertionError("alice never owed an automatic answer")
    first = writing.sync(dirs["alice"], "alice", keys["alice"])
    assert first
    for _ in range(3):  # looks: the checkpoint and the record of what was verified after it
        turns.status(opening.open_game(dirs["alice"], keys["alice"]))
    shutil.rmtree(dirs["alice"])  # lost before it was sent
    receiving.join(dirs["alice"], sorted(dirs["bob"].glob("0*.pbem")), "alice", keys["alice"])
    monkeypatch.setenv("PBEM_NOW", "2031-03-02T09:00:00Z")
    again = writing.sync(dirs["alice"], "alice", keys["alice"])
    assert [p.name for p in again] == [p.name for p in first] and again[0].read_bytes() != b""
    chain = opening.open_game(dirs["alice"], keys["alice"])  # refused before: "not the file you verified"
    assert chain.seq == folder_mod.load(dirs["bob"]).seq + 1
