"""Following folders: `pbem watch` (a game folder a sync tool keeps in
step) and `pbem referee` (the automated referee, over a tree of folders
or by mail)."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.base import PbemGroup, refused
from pbem.cli.options import accept_new, as_name, as_party, ask_secret, keys, party_name, remember_dir
from pbem.errors import PbemError

notify_option = click.option(
    "--notify-cmd", metavar="CMD",
    help="A shell command run when a decision becomes NAME's, with PBEM_GAME, PBEM_DIR, PBEM_SEQ, "
    "PBEM_NEEDS (decision, undo or join; in a game with a pace also reminder or deadline, with PBEM_SEAT) "
    "and PBEM_AS in its environment.",
)
remind_option = click.option(
    "--remind-at", type=click.IntRange(1, 100), default=75, show_default=True, metavar="PERCENT",
    help="In a game with a pace: remind a seat to move once this share of its time is gone.")
poll_option = click.option("--poll", is_flag=True,
                           help="Poll the folder instead of file events (network drives; automatic without watchfiles).")
interval_option = click.option("--interval", type=click.FloatRange(0.05, 3600), default=1.0, show_default=True,
                               metavar="SECONDS", help="Seconds between two looks when polling.")


def run_watch(root: Path, name: str, accept_new: bool, once: bool, poll: bool, interval: float,
              notify_cmd: str | None, tree: bool, remove_copies: bool = False, remind_at: int = 75) -> None:
    from pbem.app import long_running, watching

    def say(line: str) -> None:
        click.echo(line)

    watch = watching.Watch(root, name, watching.cached(keys(accept_new)), say, tree=tree, notify_cmd=notify_cmd,
                           remove_copies=remove_copies, settle=watching.settle_time(), remind_at=remind_at)
    what = f"every game under {root}" if tree else str(root)
    if not once:
        click.echo(f"watching {what} as {name} (Ctrl-C stops)", err=True)
    problems, stopped = long_running.until_interrupted(
        lambda stop: watch.run(once=once, poll=poll, interval=interval, stop=stop))
    if stopped:
        click.echo("pbem: stopped watching", err=True)
    if once and problems:
        raise PbemError(f"{problems} problem{'s' if problems != 1 else ''} in {what} (said above)")


@click.command()
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, exists=True, path_type=Path),
                callback=remember_dir)
@as_party
@click.option("--once", is_flag=True, help="Do what is due now, then stop (exit 1 if a fork or bad file was found).")
@notify_option
@remind_option
@poll_option
@interval_option
@click.option("--remove-copies", is_flag=True,
              help="Delete conflict copies that hold the same bytes as the file they copy.")
@accept_new
def watch(folder: Path, name: str, once: bool, notify_cmd: str | None, remind_at: int, poll: bool, interval: float,
          remove_copies: bool, accept_new: bool) -> None:
    """Follow a game folder that a sync tool (Syncthing, Dropbox, a network
    drive) keeps in step: read each new file once it is complete, write
    NAME's automatic answers, and say when a decision is NAME's.

    Sync tools' temporary files are ignored until complete; conflict copies
    holding the same file are ignored, and two different files for one place
    are reported as a fork with both signers (both kept).
    """
    run_watch(folder, party_name(folder, name), accept_new, once, poll, interval, notify_cmd, tree=False,
              remove_copies=remove_copies, remind_at=remind_at)


@click.group(cls=PbemGroup)
def referee() -> None:
    """The automated referee: answer every obligation as soon as its input arrives."""


@referee.command("watch")
@click.argument("tree", metavar="TREE", type=click.Path(file_okay=False, exists=True, path_type=Path))
@as_name
@click.option("--once", is_flag=True, help="Answer what is due now in every game, then stop.")
@notify_option
@remind_option
@poll_option
@interval_option
@accept_new
def referee_watch(tree: Path, name: str, once: bool, notify_cmd: str | None, remind_at: int, poll: bool,
                  interval: float, accept_new: bool) -> None:
    """Answer, as NAME, everything NAME owes in every game folder under
    TREE (new games are picked up as they appear). Safe to stop and start
    again: the chains show what has been answered. In games with a pace it
    reminds late seats (--notify-cmd) and acts for a seat whose time is
    out as the genesis agreed."""
    run_watch(tree, name, accept_new, once, poll, interval, notify_cmd, tree=True, remind_at=remind_at)


@referee.command("mail")
@click.argument("tree", metavar="TREE", required=False, type=click.Path(file_okay=False, path_type=Path))
@as_name
@click.option("--from", "source", metavar="PATH", type=click.Path(path_type=Path),
              help="Read this maildir or mbox instead of the mailbox config.toml names.")
@click.option("--every", metavar="SECONDS", type=click.FloatRange(min=1), help="Go on, a round every SECONDS, until Ctrl-C.")
@remind_option
def referee_mail(tree: Path | None, name: str, source: Path | None, every: float | None, remind_at: int) -> None:
    """Fetch mail, answer every obligation of NAME in every game under TREE
    it referees (default: [referee] tree in config.toml, else the current
    folder), and mail the answers. Safe to stop and start again. In games
    with a pace it mails late seats a reminder (once a turn) and everyone
    a deadline passed, and acts for a seat whose time is out as agreed."""
    from pbem.app import mailbox

    refused(mailbox.referee(tree, name, keys(), ask_secret, source, every, remind_at, click.echo))
