"""Playing by mail: `pbem mail send`, `fetch` and `password` (the
servers and mailboxes are set in config.toml; `pbem.app.mailing` does the
work)."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.base import PbemGroup, notes, refused
from pbem.cli.options import accept_new, as_name, as_party, ask_secret, game_dir, keys, party_name


@click.group(cls=PbemGroup)
def mail() -> None:
    """Play by mail: send each other party what it lacks, fetch and apply what arrived.

    Servers and mailboxes are set in $PBEM_HOME/config.toml (docs/config.md).
    """


@mail.command("send")
@game_dir
@as_party
@click.option("--again", is_flag=True, help="Mail every file each party lacks, even those mailed before.")
def mail_send(folder: Path, name: str, again: bool) -> None:
    """Mail each other party of DIR the files it lacks (attached, and armored in the text)."""
    from pbem.app import mailing

    name = party_name(folder, name)

    said: list[str] = []
    sent = mailing.send(folder, name, keys(), ask_secret, again, said)
    notes(said)
    if not sent:
        click.echo("nothing new to mail: every party has been sent what it lacks (--again sends it again)")
    for s in sent:
        click.echo(f"mailed {s.party} <{s.address}>: {', '.join(s.files)}")


@mail.command("fetch")
@game_dir
@as_party
@click.option("--from", "source", metavar="PATH", type=click.Path(path_type=Path),
              help="Read this maildir or mbox instead of the mailbox config.toml names.")
@click.option("--game", metavar="ID", help="Which game to join when DIR is new and several invitations wait.")
@click.option("--notify-cmd", metavar="CMD",
              help="Run CMD when the fetch makes a decision yours (PBEM_GAME, PBEM_DIR, PBEM_SEQ, PBEM_NEEDS set).")
@accept_new
def mail_fetch(folder: Path, name: str, source: Path | None, game: str | None, notify_cmd: str | None,
               accept_new: bool) -> None:
    """Apply this game's files from new mail (as pbem apply does); a new DIR
    joins the game you were invited to. Mail is read, never changed."""
    from pbem.app import mailbox

    name = party_name(folder, name)
    refused(mailbox.fetch(folder, name, keys(accept_new), ask_secret, source, game, notify_cmd, click.echo))


@mail.command("password")
@click.argument("kind", type=click.Choice(["smtp", "imap"]))
@as_name
def mail_password(kind: str, name: str) -> None:
    """Store the password of the SMTP or IMAP server in the system keyring
    (then set keyring = true in its table of config.toml)."""
    from pbem.app import mailing
    from pbem.home.store import KeyStore

    entry = mailing.store_password(KeyStore().home, name, kind, click.prompt(f"{kind} password", hide_input=True, err=True))
    click.echo(f"stored in the system keyring as pbem / {entry}")
