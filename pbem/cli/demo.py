"""`pbem demo`: bots play a whole game through the real file protocol."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.options import complete_game


class _DemoCommand(click.Command):
    """`pbem demo`, whose help lists the games registered when it is shown
    (the shipped ones, ``PBEM_GAMES`` and the entry points of installed
    game packages): read only for ``pbem demo --help``, so that ``pbem
    --help`` and every other command never scan the installed packages."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from pbem import games

        super().format_help_text(ctx, formatter)
        with formatter.indentation():
            formatter.write_paragraph()
            formatter.write_text(f"Games: {', '.join(games.names())}.")


@click.command(cls=_DemoCommand)
@click.argument("game", default="agent-avenue", shell_complete=complete_game)
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), help="Keep the game here.")
@click.option("--seed", type=int, help="The same bot choices, and under the hotseat dealer the same deal (a referee or "
                                       "peer game's deal takes every seat's secret share, which no seed fixes).")
@click.option("--dealer", type=click.Choice(["hotseat", "referee", "peer"]),
              help="Who deals and rolls [default: the game's own: hotseat; dark-agent: referee].")
@click.option("--bot", help="Which bot plays every seat (default: the game's demo bot).")
@click.option("--keys", "keys_dir", type=click.Path(file_okay=False, path_type=Path), help="Keep the bots' key store here.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A game option (as for pbem new).")
def demo(
    game: str, folder: Path | None, seed: int | None, dealer: str, bot: str | None, keys_dir: Path | None,
    options: tuple[str, ...],
) -> None:
    """Bots play a complete GAME through the real file protocol, in a
    throw-away key store and folder (unless --keys and --dir keep them),
    then verify and audit it."""
    from pbem import games
    from pbem.app.demo import run_demo

    dealer = dealer or games.get(game).info.default_dealer  # the demo makes its own referee
    run_demo(game, folder, seed, dealer, bot, echo=click.echo, keys_dir=keys_dir, options=list(options))
