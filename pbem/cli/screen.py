"""Playing on a screen: `play` (the interactive terminal), `page` (one
HTML page of the game) and `serve` (the local web page)."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.options import (
    accept_new, allow_old, as_name, as_party, ask_secret, game_dir, keys, party_name, plain_option, write_output,
)


def ask_line(prompt: str) -> str:
    """One answer typed at the terminal; EOFError at the end of the input."""
    try:
        return click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        raise EOFError from None


@click.command()
@game_dir
@click.option("--as", "name", metavar="NAME", help="The page of this seat (default: an observer's).")
@click.option("-o", "--output", required=True, metavar="FILE.html",
              type=click.Path(dir_okay=False, allow_dash=True, path_type=Path), help="Where to write the page ('-': standard output).")
def page(folder: Path, name: str | None, output: Path) -> None:
    """One self-contained HTML page of the game as NAME sees it: the board,
    whose turn it is, what is pending, NAME's legal commands as `pbem submit`
    lines to copy, the log and the outcome. Opens with no network."""
    from pbem.app import opening, reading

    k = keys()
    chain = opening.open_game(folder, k)
    me = opening.party(chain, name, k) if name else None
    write_output(output, reading.page(chain, me, str(folder)))


@click.command()
@game_dir
@as_party
@plain_option
@click.option("--yes", "-y", is_flag=True, help="Write each chosen command without asking.")
@accept_new
@allow_old
def play(folder: Path, name: str, plain: bool, yes: bool, accept_new: bool, allow_old: bool) -> None:
    """Interactive: a compact board, whose turn it is, and your legal
    commands as a numbered menu, fitted to an 80x24 terminal.

    Type a number or a command in the game's notation; it is shown in
    words and written after you confirm. A big choice (Codex's tech step)
    is made in two steps. b shows the whole board, m the whole menu, ? the
    rules in brief, q quits.
    """
    from pbem.app import play as playing
    from pbem.render import terminal

    name = party_name(folder, name)

    playing.run(folder, name, keys(accept_new, allow_old), terminal.Screen(ask_line, plain=plain), yes=yes)


@click.command()
@click.argument("folders", metavar="[DIR]...", nargs=-1, type=click.Path(file_okay=False, exists=True, path_type=Path))
@as_name
@click.option("--no-open", is_flag=True, help="Only print the page's address; do not open a browser.")
@click.option("--mail", "use_mail", is_flag=True,
              help="Mail each file written to the other parties, and fetch new mail (config.toml's servers).")
@click.option("--mail-every", type=click.FloatRange(10), default=60.0, show_default=True, metavar="SECONDS",
              help="Seconds between two mail fetches (with --mail).")
@accept_new
def serve(folders, name: str, no_open: bool, use_mail: bool, mail_every: float, accept_new: bool) -> None:
    """Play in your browser: a page on this machine alone (127.0.0.1) with
    NAME's games (DIR: game folders or folders of games; default: every game
    `pbem status --all` knows), the board, and your moves to click. It
    follows the folders as `pbem watch` does and writes what `pbem submit`
    writes. Ctrl-C stops it."""
    from pbem.app import serve_command

    def ready(url: str) -> None:
        click.echo(url)
        click.echo(f"pbem: serving {name}'s games at the address above (only you can open it); Ctrl-C stops",
                   err=True)

    serve_command.run(list(folders), name, keys(accept_new), click.echo, ready, open_page=not no_open, mail=use_mail,
                ask_secret=ask_secret, mail_every=mail_every)
