"""`pbem status`: a module of its own, because it runs at every turn and
should cost no more than starting Python with pbem's libraries (issue
#26): it imports only click and the shared options, and answers from
memory when the game has not changed (`pbem.gamedir.status_memo`)."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.options import as_json, emit_json, json_text, keys, lasting, remember_dir


@click.command()
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(file_okay=False, path_type=Path),
                callback=remember_dir)
@click.option("--all", "every", is_flag=True,
              help="Every game under DIR (default: every game folder pbem has seen), one line each.")
@as_json
def status(folder: Path | None, every: bool, as_json: bool) -> None:
    """Whose turn it is, what is pending, and the outcome (DIR: the current
    folder unless given)."""
    if every:
        from pbem.app import overview

        rows = overview.rows(folder)
        if as_json:
            emit_json(rows)
        else:
            for line in overview.lines(rows, folder):
                click.echo(line)
        return
    from pbem.gamedir import status_memo

    folder = folder if folder is not None else Path(".")
    words = status_memo.recall(folder, as_json)  # unchanged since the last full status: its words
    if words is not None:
        click.echo(words, nl=False)
        return
    before = status_memo.snapshot(folder)
    from pbem.app import opening, turns

    k = keys()
    chain = opening.open_game(folder, k)
    info = turns.status(chain)
    lines = [f"{info.game} game {info.game_id[:12]}, seq {info.seq}, dealer {info.dealer.mode}"]
    if info.outcome:
        lines.append(f"over: {info.outcome.reason}")
    lines += turns.to_act_lines(info)
    lines += [f"pending: {line}" for line in info.pending]
    lines += [f"clock: {line}" for line in info.clock]
    # copies of a file and repaired line endings (info.notes) are harmless: `pbem verify`
    # and the watcher say so, once; status, run at every turn, does not repeat it
    text = "".join(f"{line}\n" for line in lines)
    json_words = json_text(info) if as_json else None
    click.echo(json_words if json_words is not None else text, nl=False)
    if lasting(k, chain):
        import msgspec

        data = msgspec.to_builtins(info)  # for status --all
        status_memo.remember(folder, before, text, data, json_words)
