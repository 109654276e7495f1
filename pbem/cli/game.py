"""Making and knowing a game: `new`, `join` and `info`."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.base import send
from pbem.cli.options import (
    accept_new, allow_old, as_json, as_party, complete_game, complete_identity, emit_json, game_dir, keys,
)
from pbem.errors import PbemError


@click.command()
@click.argument("game", shell_complete=complete_game)
@game_dir
@click.option("--seat", "seats", multiple=True, required=True, metavar="NAME[:ROLE]", help="In turn order.",
              shell_complete=complete_identity)
@click.option("--dealer", type=click.Choice(["hotseat", "referee", "peer"]),
              help="Who deals and rolls [default: the game's own: hotseat; dark-agent: referee].")
@click.option("--referee", metavar="NAME", help="The referee's identity (--dealer referee).",
              shell_complete=complete_identity)
@click.option("--as", "creator", metavar="NAME", help="Your seat, when you create a peer game.",
              shell_complete=complete_identity)
@click.option("--seed", type=int, help="Make a hotseat game reproducible.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A game option.")
@click.option("--pace", metavar="3d|START+INC/CAP",
              help="The agreed pace: 3d (3 days to each move) or a clock, e.g. 72h+12h/120h.")
@click.option("--pauses", metavar="DURATION", help="With --pace: the pauses each seat may announce in all (e.g. 14d).")
@click.option("--absent", type=click.Choice(["none", "bot", "abandon"]), default="none",
              help="With --pace, referee games: what the referee may do once a seat's time is out.")
@click.option("--referee-handover", is_flag=True,
              help="Let the referee hand a vanished seat over to a replacement (--dealer referee).")
def new(game: str, folder: Path, seats, dealer, referee, creator, seed, options, pace, pauses, absent,
        referee_handover) -> None:
    """Create a new GAME in the empty folder DIR.

    GAME is agent-avenue (aa), codenames (cn), codex (cx) or dark-agent
    (da). Seats are given in turn order as identity names, with a role
    where the game has roles (codenames: red-spymaster, red,
    blue-spymaster, blue; with --option variant=duet the sides a and b;
    agent-avenue with 3-4 seats, the team variant: a team name each, e.g.
    --seat alice:green --seat bob:blue --seat carol:green, or none to
    alternate green and blue). A referee game is made by its referee, a
    peer game by one of its seats (--as). `pbem info GAME` lists the
    game's options and their defaults.
    """
    from pbem.app import creating

    dealer = creating.dealer_for(game, dealer, referee)
    agreed = None
    if pace:
        from pbem.protocol.clock import parse_pace

        agreed = parse_pace(pace, pauses, absent)
    elif pauses or absent != "none":
        raise PbemError("--pauses and --absent go with an agreed --pace")
    if absent != "none" and dealer != "referee":
        raise PbemError("--absent is for referee games: elsewhere nobody may play for a seat or end its game")
    chain = creating.new_game(game, folder, list(seats), keys(), dealer, referee, seed, list(options), creator,
                             pace=agreed, referee_handover=referee_handover)
    click.echo(f"created {chain.game.info.title} game {chain.game_id[:12]} in {folder}")
    for line in creating.after_new(chain, folder):
        click.echo(line)


@click.command()
@game_dir
@click.argument("received", metavar="GENESIS [FILE]...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@as_party
@accept_new
@allow_old
def join(folder: Path, received, name: str | None, accept_new: bool, allow_old: bool) -> None:
    """Join a game: make your folder DIR from the GENESIS (and any later
    files) you received, checked first. In a peer game it also writes your
    join file and prints its path: send it to the other players."""
    from pbem.app import opening, receiving
    from pbem.home.store import KeyStore

    name = name or opening.my_name(Path(received[0]), KeyStore())

    mine = receiving.join(folder, list(received), name, keys(accept_new, allow_old))
    if mine is None:
        chain = opening.open_game(folder)
        handed = chain.handed.get(name)
        if handed is not None and not any(r.by == name for r in chain.records[handed[0] + 1:]):
            nxt = (f"you write next: pbem status {folder} --as {name}" if name in chain.writers()
                   else "nothing to send yet")
            click.echo(f"joined: {folder} holds the game up to seq {chain.seq}; you hold seat {name}, "
                       f"handed over to you at seq {handed[0]}; {nxt}")
        elif any(r.by == name for r in chain.records):
            click.echo(f"rebuilt: {folder} holds the game up to seq {chain.seq}, your own files among them; "
                       "nothing to send")
        elif not chain.dealt and name in chain.seat_order:
            click.echo(f"joined: {folder} holds the game; your join file comes after "
                       f"{', '.join(chain.writers())}'s: run pbem sync {folder} --as {name} once it has arrived")
        else:
            click.echo(f"joined: {folder} holds the game; this game needs no join file, so there is nothing to send")
    else:
        click.echo(str(mine))
        send(folder, [mine], name)


@click.command()
@click.argument("what", metavar="GAME|DIR", shell_complete=complete_game)
@as_json
def info(what: str, as_json: bool) -> None:
    """What GAME is: title, seats, and the options `pbem new` takes, with
    their defaults (scenario options fix hidden cards: hotseat only). Given
    a game folder DIR: that game, and who can know which chance when."""
    from pbem.app import info as game_info

    described = game_info.describe(what)
    if as_json:
        emit_json(described)
        return
    for line in game_info.lines(described):
        click.echo(line)
