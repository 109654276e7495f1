"""The README's "Long games" lines, run as written: each a real `pbem`
process through the shell, in the folder and home of the player it is
for, after a set-up that puts a game where the lines expect it."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt

from conftest import introduced, mail_step
from pbem.app import creating, mail_fetch, mailing, receiving
from pbem.gamedir import folder as folder_mod
from test_mail import bot_turn, people
from test_mail import smtp  # noqa: F401 (a fixture)
from paths import ROOT



def block(mark: str) -> list[str]:
    """The command lines of the README's shell block after the comment `mark`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = re.search(r"<!-- " + re.escape(mark) + r".*?\n```sh\n(.*?)\n```", text, re.S).group(1).splitlines()
    return [line.split("  #", 1)[0].strip() for line in lines]


def sh(line: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    """`line` through the shell, `pbem` being this checkout's."""
    bin_dir = cwd / ".bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "pbem").write_text(f"#!/bin/sh\nexec {sys.executable} -m pbem \"$@\"\n")
    (bin_dir / "pbem").chmod(0o755)
    env = {**os.environ, "PBEM_HOME": str(home), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    done = subprocess.run(["sh", "-c", line], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, (line, done.stdout, done.stderr)
    return done


def test_forum_lines(tmp_path):
    lines = block("forum play")
    assert [l.split()[:2] for l in lines] == [["pbem", "outbox"], ["pbem", "apply"]]
    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    side = {n: tmp_path / f"{n}-side" for n in ("alice", "bob", "rita")}
    dirs = {n: side[n] / "game" for n in side}
    creating.new_game("aa", dirs["rita"], ["alice", "bob"], keys["rita"], "referee", referee="rita")
    for n in ("alice", "bob"):
        receiving.join(dirs[n], [dirs["rita"] / folder_mod.GENESIS], n, keys[n])
    for d in dirs.values():
        for other in dirs.values():
            receiving.apply_files(d, sorted(other.glob("0*.pbem")))
    rng = random.Random(3)
    while not (folder_mod.load(dirs["rita"]).records[-1].by == "alice"
               and folder_mod.load(dirs["rita"]).writers() != ["alice"]):
        mail_step(keys, dirs, rng)  # on to the end of one of alice's turns
    sh(lines[0], side["alice"], keys["alice"].store.home)
    post = (side["alice"] / "post.md").read_text()
    page = MarkdownIt("commonmark").render(post)  # the forum shows it; bob saves the page
    (side["bob"] / "post.html").write_text(f"<!DOCTYPE html>\n<html><body>{page}</body></html>\n")
    sh(lines[1], side["bob"], keys["bob"].store.home)
    assert folder_mod.load(dirs["bob"]).head == folder_mod.load(dirs["alice"]).head


def test_rebuild_lines(tmp_path, smtp):  # noqa: F811
    lines = block("a rebuilt folder")
    assert [l.split()[:2] for l in lines] == [["pbem", "mail"], ["pbem", "join"], ["pbem", "apply"]]
    keys = people(tmp_path, smtp)
    folders = {"alice": tmp_path / "alice-side" / "game", "bob": tmp_path / "bob" / "g"}
    creating.new_game("aa", folders["alice"], ["alice", "bob"], keys["alice"], "peer", creator="alice")
    mailing.send(folders["alice"], "alice", keys["alice"])
    rng = random.Random(5)
    for _ in range(4):
        for who in ("alice", "bob"):
            mail_fetch.fetch([folders[who]], who, keys[who])
            bot_turn(folders[who], who, keys[who], rng)
            mailing.send(folders[who], who, keys[who])
    mail_fetch.fetch([folders["alice"]], "alice", keys["alice"])
    mailing.send(folders["alice"], "alice", keys["alice"])  # an automatic answer the fetch wrote
    mail_fetch.fetch([folders["bob"]], "bob", keys["bob"])
    shutil.copytree(folders["bob"], tmp_path / "alice-side" / "bob-files")
    # the mailbox gives back alice's folder as she left it; bob's files, his (a file ahead, perhaps)
    heads = [folder_mod.load(folders["alice"]).head] + [folder_mod.load(folders["bob"]).head] * 2
    for line, head in zip(lines, heads):
        shutil.rmtree(folders["alice"])
        done = sh(line, tmp_path / "alice-side", keys["alice"].store.home)
        assert folder_mod.load(folders["alice"]).head == head, (line, done.stdout)
        assert ("rebuilt" in done.stdout) == (" apply " not in line)  # apply lists the files it wrote


def test_long_games_lines(tmp_path):
    """Pace, status, a pause, a resignation and the audit, as written (one
    hotseat folder: both seats' keys in one home)."""
    lines = block("long games")
    assert [l.split()[:2] for l in lines] == [["pbem", "new"], ["pbem", "status"], ["pbem", "pause"],
                                              ["pbem", "resign"], ["pbem", "audit"]]
    keys = introduced(tmp_path, ["alice"])
    keys["alice"].store.create("bob", None)
    home = keys["alice"].store.home
    out = [sh(line, tmp_path, home).stdout for line in lines]
    assert "clock: alice to move, 3 days left" in out[1]
    assert "ok: audit passed" in out[4]
    chain = folder_mod.load(tmp_path / "long")
    assert chain.outcome().winners == ["bob"] and chain.outcome().reason == "alice resigned"
