"""Every command line the README shows is run, so that the README stays true.

The command lines are every line of its ``sh`` code blocks (a line ending
in ``\\`` joined with the next, ``&&`` splitting two commands) and every
inline code span that begins with ``pbem``, ``python``, ``eval`` or
``_PBEM_COMPLETE=``. Each is, in README order:

* **run** with bash in a sandbox: a temporary ``$HOME`` (so ``~/Sync`` and
  ``~/pbem`` are in it) holding a work folder (the current folder, with a
  copy of ``examples/``) and one ``$PBEM_HOME`` per person. The person is
  the one named by ``--as NAME`` (or by ``pbem id new|export NAME``, the
  ``--referee`` of a new referee game, or a comment naming them: ``# bob:
  ...``, ``(on bob's machine)``), else alice. alice's store begins empty, as a new user's; bob, carol, dave and
  rita have a key each, and identity files dropped in the work folder are
  imported by them, as if mailed (alice imports what the README imports). A section whose commands make
  identities (``pbem id new``) begins a new sandbox. A command that runs
  until Ctrl-C is run once (``--once``); one that would wait for a person
  at a terminal gets no input; a shell-completion line prints its script.
  It must exit 0.
* or **not run, saying why** (`test_readme_command_not_run`, a skip with
  its reason, listed by ``pytest -rs``): a form with placeholders
  (``DIR``, ``NAME`` ...), or a line in `NOT_RUN` (mail servers, the test
  suite itself, installing). `PBEM_LONG=1` runs every demo; the default run
  plays the first and says so of the others.

A new command line in the README is run unless it is a form or is added to
`NOT_RUN` with its reason: nothing is passed over silently.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from paths import ROOT

README = ROOT / "README.md"
LONG = os.environ.get("PBEM_LONG") == "1"
PEOPLE = ("alice", "bob", "carol", "dave", "rita")
PASSPHRASE = "correct horse"

#: lines not run, each with the reason (matched as regular expressions, in order)
NOT_RUN = {
    r"^python3? -m pip install": "installs pbem into the running environment (the suite runs installed)",
    r"^(PBEM_LONG=1 )?python3? -m pytest": "the test suite itself",
    r"^python3? -m benchmarks": "the benchmarks take minutes (tests/system/test_benchmarks.py runs --smoke, and --quick in the long mode)",
    r"^python3? -m venv": "makes a virtual environment (the suite runs in one already)",
    r"^python3? -m pbem.schemas": "rewrites schemas/ in the source tree (tests/system/test_package.py checks it is current)",
    r"^pbem (mail|referee mail)\b": "needs SMTP and IMAP servers (tests/system/test_mail.py runs it against local ones)",
    r"^pbem play ~/pbem/game1": "plays the game `pbem mail fetch` brings (needs the mail servers above)",
    r"^pbem (status|audit) ~/pbem/game1": "reads the game `pbem mail fetch` brings (needs the mail servers above)",
    r"^pbem sync ~/pbem/game1": "answers in the game `pbem mail fetch` brings (needs the mail servers above)",
    r"^pbem apply ~/pbem/game1": "takes a saved mail of the game `pbem mail fetch` brings (needs the mail servers)",
    r"^pbem new agent-avenue ~/pbem/refereed/game1": "begins the mailed game, whose later steps need mail servers",
    r"^pbem watch .*--notify-cmd": "runs a desktop notifier or a mailer (tests/transport/test_watch.py runs --notify-cmd)",
}
#: placeholders that make a line a form, not a command
PLACEHOLDER = re.compile(r"(?<![\w$/.-])(DIR|NAME|FILE|FILES|GAME|GENESIS|SEAT|TREE|CMD|TEXT|KEY=VALUE|MAIL|THING|"
                         r"ABILITY|TARGET|HERO|N|FACEUP|FACEDOWN|X|Y|ID|FOLDER|TIME|SECONDS|PATH)(?![\w])|"
                         r"\.\.\.|\bNAME\b|\bDIR\b|FILE\.html|NEW-FOLDER|THEIR-|GENESIS-FILE")
RUN_FOREVER = re.compile(r"^pbem (watch|referee watch)\b")
DEMO = re.compile(r"^pbem demo\b")


class Line:
    def __init__(self, text: str, section: str, comment: str, inline: bool, run_by: str = "") -> None:
        self.text, self.section, self.comment, self.inline = text, section, comment, inline
        self.run_by = run_by  # a block another test runs (an HTML comment before it names that test)

    def __repr__(self) -> str:
        return self.text


def command_lines() -> list[Line]:
    """Every command line of the README, in order, with its section."""
    out: list[Line] = []
    section = ""
    in_block = False
    pending = ""
    prose: list[str] = []
    run_by = ""  # the test named by the HTML comment just before a block

    def spans() -> None:  # inline code spans may wrap over two lines of a paragraph
        for span in re.findall(r"`((?:pbem|python3?|eval|_PBEM_COMPLETE=)[ =\w][^`]*)`", " ".join(prose)):
            out.append(Line(" ".join(span.split()), section, "", inline=True))
        prose.clear()

    for raw in README.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("```"):
            spans()
            in_block = line == "```sh" if not in_block else False
            if not in_block:
                run_by = ""
            continue
        if not in_block:
            m = re.match(r"<!--.*\b(tests/[\w/]+\.py) runs it", line)
            if m:
                run_by = m.group(1)
            elif raw.startswith("#"):
                spans()
                section = raw.lstrip("#").strip()
            elif not line:
                spans()
            else:
                prose.append(line)
            continue
        code, _, comment = (pending + " " + line if pending else line).partition("  #")
        if line.endswith("\\"):
            pending = code.rstrip("\\").strip()
            continue
        pending = ""
        code = code.strip()
        if not code or code.startswith("#"):
            if out and comment and not out[-1].inline:
                out[-1].comment += " " + comment
            continue
        for part in code.split(" && "):
            out.append(Line(part.strip(), section, comment.strip(), inline=False, run_by=run_by))
    spans()
    return out


def why_not_run(line: Line, first_demo: bool) -> str | None:
    if line.run_by:
        return f"its block is run by {line.run_by}"
    for pattern, reason in NOT_RUN.items():
        if re.search(pattern, line.text):
            return reason
    if PLACEHOLDER.search(line.text):
        return "a form with placeholders, not a command line"
    if line.inline and len(line.text.split()) == 2:
        return "names a command in the text, not a command line"
    if DEMO.search(line.text) and not LONG and not first_demo:
        return "long mode: PBEM_LONG=1 plays every demo (the default run plays the first)"
    return None


def plan() -> list[tuple[Line, str | None]]:
    first = True
    out = []
    for line in command_lines():
        reason = why_not_run(line, first)
        if DEMO.search(line.text) and reason is None:
            first = False
        out.append((line, reason))
    return out


PLAN = plan()


def person(line: Line) -> str:
    m = (re.search(r"--as (\w+)", line.text) or re.match(r"pbem (?:id new|id export|agent add) (\w+)", line.text)
         or re.match(r"pbem new .*--referee (\w+)", line.text))  # a referee game is made by its referee
    if m and m.group(1) in PEOPLE:
        return m.group(1)
    m = re.search(r"\b(?:on )?(\w+)(?:'s machine|:)", line.comment)
    return m.group(1) if m and m.group(1) in PEOPLE else "alice"


class Sandbox:
    """A temporary $HOME with a work folder and one key store per person."""

    def __init__(self, base: Path) -> None:
        self.home = base
        self.work = base / "work"
        self.work.mkdir(parents=True)
        shutil.copytree(ROOT / "examples", self.work / "examples")
        (base / "Sync" / ".stfolder").mkdir(parents=True)  # a folder Syncthing shares (README: the shared folder)
        self.stores = {p: base / "stores" / p for p in PEOPLE}
        # a short folder for the key agents' sockets: a pytest tmp path is too long for a unix socket
        self.runtime = Path(tempfile.mkdtemp(prefix="pbem-rt-"))
        for p in PEOPLE:
            if p != "alice":
                self.run(f"pbem id new {p} --no-passphrase && pbem id export {p} -o {p}.id", p)
        self.seen: set[str] = set()
        self.introduce()

    def env(self, who: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "NO_COLOR", "FORCE_COLOR"))}
        env.update(HOME=str(self.home), PBEM_HOME=str(self.stores[who]), PBEM_PASSPHRASE=PASSPHRASE,
                   XDG_RUNTIME_DIR=str(self.runtime),
                   PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
        return env

    def run(self, text: str, who: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", "-c", text], cwd=self.work, env=self.env(who), capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=600)

    def close(self) -> None:
        """Stop any key agent a command line started, and drop the sockets' folder."""
        for p in PEOPLE:
            if self.stores[p].exists():
                self.run("pbem agent stop", p)
        shutil.rmtree(self.runtime, ignore_errors=True)

    def introduce(self) -> None:
        """Each identity file new in the work folder, imported by the others
        (as if mailed); alice, the reader, imports as the README shows."""
        for path in sorted(self.work.glob("*.id")):
            if path.name not in self.seen:
                self.seen.add(path.name)
                for p in PEOPLE:
                    if p not in (path.stem, "alice"):
                        self.run(f"pbem id import {path.name}", p)


def starts_a_story(section: str) -> bool:
    return any(line.section == section and line.text.startswith("pbem id new ") and reason is None
               for line, reason in PLAN)


def runnable(text: str) -> str:
    """`text` as the sandbox runs it: a watcher once; a shell-completion
    line's script printed (bash cannot `eval` it for zsh, nor `| source` for fish)."""
    if RUN_FOREVER.search(text) and "--once" not in text:
        return text + " --once"
    m = re.fullmatch(r'eval "\$\((.*)\)"', text)
    if m:
        return m.group(1)
    return text.removesuffix(" | source")


def test_the_readme_shows_command_lines():
    assert sum(reason is None for _, reason in PLAN) > 30
    assert any(line.inline for line, reason in PLAN if reason is None)


def test_every_command_line_the_readme_shows_runs(tmp_path):
    sandboxes: list[Sandbox] = []
    try:
        run_every_line(tmp_path, sandboxes)
    finally:
        for sandbox in sandboxes:
            sandbox.close()


def run_every_line(tmp_path: Path, sandboxes: list) -> None:
    sandbox, section, n = None, None, 0
    for line, reason in PLAN:
        if reason is not None:
            continue
        if sandbox is None or (line.section != section and starts_a_story(line.section)):
            n += 1
            sandbox = Sandbox(tmp_path / f"story{n}")
            sandboxes.append(sandbox)
        section = line.section
        who = person(line)
        r = sandbox.run(runnable(line.text), who)
        assert r.returncode == 0, (
            f"README, section {line.section!r}, as {who}: {line.text}\n--- exit {r.returncode}\n{r.stdout[-2000:]}"
            f"\n{r.stderr[-2000:]}")
        assert "internal error" not in r.stderr and "Traceback" not in r.stderr, (line.text, r.stderr)
        sandbox.introduce()


@pytest.mark.parametrize("line, reason", [(l, r) for l, r in PLAN if r is not None], ids=lambda v: str(v)[:60])
def test_readme_command_not_run(line, reason):
    pytest.skip(f"README ({line.section}): {line.text!r}: {reason}")
