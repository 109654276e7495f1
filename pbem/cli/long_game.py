"""Long games (issue #24): `resign`, `pause`, `timeout` and `handover`,
each a signed file of its seat written by `pbem.app.long_game`."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.app import long_game
from pbem.cli.base import PbemGroup, report_written
from pbem.cli.options import accept_new, allow_old, as_name, as_party, game_dir, keys, party_name


@click.command()
@game_dir
@as_party
@click.option("--note", default="", help="A word to the other players, kept in the file.")
@accept_new
@allow_old
def resign(folder: Path, name: str | None, note: str, accept_new: bool, allow_old: bool) -> None:
    """Resign: your side loses and the game ends (a signed file; the audit
    still runs). Any time, whoever is to move."""
    name = party_name(folder, name)
    report_written(long_game.resign(folder, name, keys(accept_new, allow_old), note))


@click.command()
@game_dir
@as_party
@click.option("--from", "start", default="", metavar="WHEN", help="Start (a date, a UTC time, or a duration from now; default now).")
@click.option("--until", "end", required=True, metavar="WHEN",
              help="End: a date (2026-12-24), a UTC time, or a duration from the start (10d).")
@accept_new
@allow_old
def pause(folder: Path, name: str | None, start: str, end: str, accept_new: bool, allow_old: bool) -> None:
    """Announce a pause (a holiday): every clock stops meanwhile, within
    the pauses the game agreed (pbem new --pauses)."""
    name = party_name(folder, name)
    report_written(long_game.pause(folder, name, keys(accept_new, allow_old), start, end))


@click.command()
@game_dir
@as_party
@click.option("--seat", metavar="NAME", help="The seat whose time is out (default: the one there is).")
@accept_new
@allow_old
def timeout(folder: Path, name: str | None, seat: str | None, accept_new: bool, allow_old: bool) -> None:
    """A seat's time is out. The referee (as the genesis agreed) ends the
    game as abandoned or plays the seat's turn with the game's bot; in a
    peer game a seat claims it (the late seat may still answer with a
    move), and the others accept the pending claim with this command."""
    name = party_name(folder, name)
    report_written(long_game.timeout(folder, name, keys(accept_new, allow_old), seat))


class _Handover(PbemGroup):
    """`pbem handover DIR ...` hands a seat over (its `give` subcommand,
    named or not); `pbem handover accept DIR ...` is the newcomer's consent."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["give", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_Handover)
def handover() -> None:
    """Hand your seat over to another player, who plays on with its own key.

    \b
    pbem handover DIR --as NAME --to ACCEPTANCE   the seat's player (or the referee)
    pbem handover accept DIR --seat SEAT --as ME  the newcomer, first (protocol 7)
    """


@handover.command("give")
@game_dir
@as_party
@click.option("--to", "to", required=True, metavar="FILE|NAME",
              help="The newcomer: the acceptance file it sent you (pbem handover accept), or a name in your "
                   "address book or its identity file (games of protocol version 6, or its key in this home).")
@click.option("--seat", metavar="SEAT", help="The seat handed over [default: yours; the referee names a vanished one].")
@accept_new
def give(folder: Path, name: str | None, to: str, seat: str | None, accept_new: bool) -> None:
    """Hand a seat over (the default: `pbem handover DIR ...`).

    Everything the seat may see is sealed to the newcomer alone; from this
    file on the seat's files are signed with its key. Written when the game
    waits for the seat, once per seat. From protocol version 7 the newcomer
    signs first that it takes the seat (pbem handover accept), and --to
    takes the file it signed. In a referee game whose genesis allows it
    (pbem new --referee-handover), the referee may hand over a vanished seat.
    """
    name = party_name(folder, name)
    report_written(long_game.handover(folder, name, keys(accept_new), to, seat))


@handover.command("accept")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, exists=True, path_type=Path))
@as_name
@click.option("--seat", required=True, metavar="SEAT", help="The seat you take.")
@click.option("--email", metavar="ADDRESS", help="Where you get mail [default: your identity's].")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write it [default: NAME-accepts-SEAT.pbem here].")
def accept(folder: Path, name: str, seat: str, email: str | None, output: Path | None) -> None:
    """Sign that you take SEAT of the game whose files are in DIR (as the
    seat's player or the referee mailed them), with your key and mail
    address; mail the file it writes back to them. It is for the game as it
    stands: if the game moves on first, accept again."""
    report_written(long_game.accept(folder, name, keys(), seat, email, output))
