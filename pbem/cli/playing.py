"""Playing one game: `legal`, `submit`, `sync`, `undo`, `show` and `log`,
the commands run at every turn (so this module imports nothing but click
and the shared options: each command imports what it needs). `status` has
a module of its own, `pbem.cli.status`."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.base import PbemGroup, notes, send
from pbem.cli.options import (
    accept_new, allow_old, as_json, as_party, complete_identity, emit_json, game_dir, json_text, keys, lasting,
    party_name,
    plain_option, write_output,
)


def _from_memory(folder: Path, seat: str | None, form: str) -> bool:
    """Print what `form` printed for `seat` last time, if nothing it depends
    on changed since (`pbem.gamedir.seat_memo`); False: compute it."""
    from pbem.gamedir import seat_memo

    words = seat_memo.recall(folder, seat, form)
    if words is not None:
        click.echo(words, nl=False)
    return words is not None


@click.command()
@game_dir
@as_party
@as_json
def legal(folder: Path, name: str, as_json: bool) -> None:
    """Your legal commands now, in the game's notation."""
    name = party_name(folder, name)
    from pbem.gamedir import seat_memo, status_memo

    form = "legal --json" if as_json else "legal"
    if _from_memory(folder, name, form):
        return
    before = status_memo.snapshot(folder)
    from pbem.app import opening, reading

    k = keys()
    chain = opening.open_game(folder, k)
    commands = reading.legal(chain, opening.party(chain, name, k))
    if as_json:
        words = json_text(commands)
    elif not commands:
        from pbem.app import turns

        words = turns.owed(chain, name)[1] + "\n"  # the words of `pbem status`
    else:
        words = "".join(f"{c}\n" for c in commands)
    click.echo(words, nl=False)
    if lasting(k, chain):
        seat_memo.remember(folder, name, form, before, words)


@click.command()
@game_dir
@click.argument("words", metavar="[COMMAND]...", nargs=-1)
@as_party
@click.option("--cmd", "cmds", multiple=True, help="A command in the game's notation (the same as a COMMAND).")
@accept_new
@allow_old
def submit(folder: Path, words: tuple[str, ...], name: str, cmds, accept_new: bool, allow_old: bool) -> None:
    """Check and write your turn into DIR; prints the files written.

    Each COMMAND (or --cmd) is one command in the game's notation, quoted
    as `pbem legal` prints it: pbem submit DIR "play Enforcer" --as alice."""
    cmds = (*cmds, *words)
    if not cmds:
        raise click.UsageError('give the command: pbem submit DIR "COMMAND" (pbem legal DIR lists them)')
    name = party_name(folder, name)
    from pbem.app import writing

    said: list[str] = []
    k = keys(accept_new, allow_old)
    written = writing.submit(folder, name, list(cmds), k, said, until_reported=True)
    for path in written:
        click.echo(str(path))
    notes(said)
    send(folder, written, name)
    writing.reported(folder, name, k)  # reported: the same commands again are a new command


@click.command()
@game_dir
@as_party
@accept_new
@allow_old
def sync(folder: Path, name: str, accept_new: bool, allow_old: bool) -> None:
    """Write every file NAME owes that needs no decision."""
    name = party_name(folder, name)
    from pbem.app import writing

    said: list[str] = []
    written = writing.sync(folder, name, keys(accept_new, allow_old), said)
    notes(said)
    if not written:
        from pbem.app import writing as a, turns

        what, words = turns.owed(a.open_game(folder), name)
        if what in ("decision", "undo"):
            words = f"nothing automatic to write: {words}"
        click.echo(words)
    for path in written:
        click.echo(str(path))
    send(folder, written, name)


@click.group(cls=PbemGroup)
def undo() -> None:
    """Undo by agreement: take back your last move if every other seat accepts.

    Refused when a card was revealed or dealt since that move (or, in a peer
    game, chance drawn): the undo would leak it. The files stay in the chain.
    """


def _undo_command(what: str, text: str) -> None:
    @undo.command(what, help=text)
    @game_dir
    @as_party
    @accept_new
    @allow_old
    def step(folder: Path, name: str | None, accept_new: bool, allow_old: bool) -> None:
        from pbem.app import writing

        name = party_name(folder, name)

        said: list[str] = []
        for path in writing.undo(folder, name, what, keys(accept_new, allow_old), said):
            click.echo(str(path))
        notes(said)


_undo_command("request", "Ask the other seats to let you take back your last move.")
_undo_command("accept", "Accept the pending undo request (the last acceptance takes the move back).")
_undo_command("refuse", "Refuse the pending undo request: the move stands.")


@click.command()
@game_dir
@click.option("--as", "name", metavar="NAME", help="See as this seat (default: an observer).")
@as_json
@click.option("--svg", "svg_file", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the board as an SVG picture to FILE ('-': standard output).")
@plain_option
def show(folder: Path, name: str | None, as_json: bool, svg_file: Path | None, plain: bool) -> None:
    """The board as NAME may see it (default: as an observer; in colour on a
    terminal, NO_COLOR is honoured)."""
    if as_json and svg_file is not None:
        raise click.UsageError("--json and --svg do not go together")
    from pbem.gamedir import seat_memo, status_memo
    from pbem.render import wants_rich

    if svg_file is not None or (wants_rich(plain) and not as_json):
        form = None  # never from memory: a picture goes to a file, colour depends on the terminal
    else:
        form = "show --json" if as_json else "show"
        if _from_memory(folder, name, form):
            return
    before = status_memo.snapshot(folder)
    from pbem.app import opening, reading

    k = keys()
    chain = opening.open_game(folder, k)
    me = opening.party(chain, name, k) if name else None
    if svg_file is not None:
        write_output(svg_file, reading.svg(chain, me))
        return
    from pbem.render import terminal

    if form is None:  # colour
        terminal.show(chain.game, reading.view(chain, me), plain=plain)
        return
    words = json_text(reading.view_json(chain, me)) if as_json else terminal.plain_words(chain.game, reading.view(chain, me))
    click.echo(words, nl=False)
    if lasting(k, chain):
        seat_memo.remember(folder, name, form, before, words)


@click.command()
@game_dir
@as_json
@click.option("--since-mine", is_flag=True, help="Only what happened since NAME's last file, in words (needs --as).")
@click.option("--as", "name", metavar="NAME", help="Whose last file --since-mine counts from.",
              shell_complete=complete_identity)
def log(folder: Path, as_json: bool, since_mine: bool, name: str | None) -> None:
    """Every file of the game, one line each, as anyone may read it."""
    from pbem.app import opening, reading

    chain = opening.open_game(folder, keys())
    if since_mine:
        if not name:
            raise click.UsageError("--since-mine needs --as NAME")
        lines = reading.since_mine(chain, name)
        if as_json:
            emit_json({"game_id": chain.game_id, "lines": lines})
        else:
            for line in lines:
                click.echo(line)
        return
    if as_json:
        emit_json(reading.log_entries(chain))
        return
    for line in reading.log_lines(chain):
        click.echo(line)
