"""The mail commands' work around `pbem.app.mailing`, in the words a person
reads: `fetch` (`pbem mail fetch`: one game's new mail applied, what is
next, the notification) and `referee` (`pbem referee mail`: the referee as
a mail daemon; each round fetches the mailbox, answers every obligation of
the referee in every game under its tree and mails the answers). Lines are
given to `echo` (``err=True``: standard error) in the order they are
printed; the files refused are returned for the command to report.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from pbem.errors import PbemError

Echo = Callable[..., None]


def fetched_lines(report: Any) -> list[str]:
    """What fetching one game's mail did to its folder (a `mailing` report)."""
    lines = []
    if report.rebuilt:
        lines.append(f"rebuilt {report.folder} from the mail, your own files among them")
    elif report.joined:
        lines.append(f"joined the game in {report.folder}")
    lines += [str(p) for p in report.written]
    lines += [f"waiting in pending/: {p.name}" for p in report.pending]
    return lines


def fetch(folder: Path, name: str, keys: Any, ask_secret: Callable[[str], str], source: Path | None,
          game: str | None, notify_cmd: str | None, echo: Echo) -> list[PbemError]:
    """Apply the game's files from new mail (a new `folder` joins the game
    `name` was invited to), say what is next, and run `notify_cmd` when a
    decision became `name`'s; the files refused (a stranger's among them)."""
    from pbem.app import mail_fetch, opening, turns
    from pbem.errors import WrongWriter

    said: list[str] = []
    report = mail_fetch.fetch([folder], name, keys, ask_secret, source, game, said)[0]
    for line in fetched_lines(report):
        echo(line)
    if report.other_games:
        said.append(f"{report.other_games} file(s) of other games were left in the mailbox")
    said += [f"mail holds an invitation to game {gid[:12]}: pbem mail fetch NEW-FOLDER --as {name} --game {gid[:12]}"
             for gid in report.invitations]
    _notes(said, echo)
    chain = opening.open_game(folder)
    for line in turns.to_act_lines(turns.status(chain)):
        echo(f"next: {line}")
    if notify_cmd and (report.written or report.joined) and name in chain.writers() and chain.needs(name) == "decision":
        from pbem.app.long_running import run_notify

        trouble = run_notify(notify_cmd, folder, chain, "decision", name)
        if trouble:
            _notes([trouble], echo)
    for line in report.strangers:
        echo(f"pbem: refused: {line}", err=True)
    bad = list(report.bad)
    if report.strangers:
        bad.append(WrongWriter(f"{len(report.strangers)} file(s) signed by unknown keys were not applied (named above)"))
    return bad


def _notes(lines: list[str], echo: Echo) -> None:
    for line in lines:
        echo(f"pbem: note: {line}", err=True)


def asked_once(ask: Callable[[str], str]) -> Callable[..., str]:
    """`ask` for each identity's passphrase once, then from memory: a
    daemon asks when it starts, not at every round."""
    typed: dict[str, str] = {}

    def once(who: str = "") -> str:
        if who not in typed:
            typed[who] = ask(who)
        return typed[who]

    return once


def default_tree(home: Path, name: str) -> Path:
    """`[referee] tree` in config.toml, else the current folder."""
    from pbem.home import config as cfg

    return cfg.path_value(cfg.read(home), "referee", "tree", name) or Path(".")


def referee(tree: Path | None, name: str, keys: Any, ask_secret: Callable[[str], str], source: Path | None,
            every: float | None, remind_at: int, echo: Echo,
            sleep: Callable[[float], None] = time.sleep) -> list[PbemError]:
    """One round (`every` None: its errors are returned), or a round every
    `every` seconds until Ctrl-C while waiting (each round's errors said,
    none returned)."""
    from pbem.app import mail_referee

    keys.passphrase = asked_once(keys.passphrase)
    if tree is None:
        tree = default_tree(keys.store.home, name)
    memo: dict = {}
    while True:
        said: list[str] = []
        rnd = mail_referee.referee(tree, name, keys, ask_secret, source, said, memo, remind_at=remind_at)
        _notes(said, echo)
        _say_round(rnd, tree, name, echo)
        if every is None:
            return list(rnd.errors)
        for exc in rnd.errors:
            echo(f"pbem: error: {exc.message}", err=True)
        try:
            sleep(every)
        except KeyboardInterrupt:
            return []


def _say_round(rnd: Any, tree: Path, name: str, echo: Echo) -> None:
    if not rnd.games:
        echo(f"no game under {tree} has {name} as its referee")
    for report in rnd.fetched:
        for line in fetched_lines(report):
            echo(line)
        for line in report.strangers:
            echo(f"pbem: refused: {line}", err=True)
        for exc in report.bad:
            echo(f"pbem: refused: {exc.message}", err=True)
    for written in rnd.answered.values():
        for path in written:
            echo(str(path))
    for sent in rnd.sent.values():
        for s in sent:
            echo(f"mailed {s.party} <{s.address}>: {', '.join(s.files)}")
    for line in rnd.reminded:
        echo(line)
