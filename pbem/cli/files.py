"""Files between players and their checks: `apply` (received files or
mails), `armor` and `dearmor` (files as text for a mail), `outbox` (what
each party still lacks), `verify` and `audit`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli.base import notes, refused
from pbem.cli.options import accept_new, as_json, as_party, emit_json, game_dir, keys, party_name


@click.command("apply")
@game_dir
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@accept_new
def apply_cmd(folder: Path, files, accept_new: bool) -> None:
    """Add received files to DIR: pbem files, or texts and saved mails
    (.eml, .mbox; '-': standard input) holding armored blocks or attached files.

    Files already in the game are skipped; the rest are applied in chain
    order; one whose predecessor has not arrived waits in DIR/pending/ and
    is applied when it can. A bad file is named (exit 1) and the others are
    still applied. A new or empty DIR is made from the genesis among the
    files (a lost folder rebuilt from another party's files).
    """
    from pbem.app import rebuild, receiving

    said: list[str] = []
    if rebuild.is_empty(folder):
        result = rebuild.apply_into_empty(folder, list(files), keys(accept_new), said)
    else:
        result = receiving.receive(folder, list(files), keys(accept_new), said)
    for path in result.written:
        click.echo(str(path))
    notes(said)
    refused(result.bad)


@click.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def armor(files) -> None:
    """Print each pbem FILE as an armored text block, to paste into a mail."""
    from pbem.app import sending

    click.echo(sending.armor_files(list(files)), nl=False)


@click.command()
@click.argument("files", metavar="TEXT...", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--into", "into", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Write the files into DIR (default: print them on standard output).")
def dearmor(files, into: Path | None) -> None:
    """Find every armored block (and attached pbem file) in texts and saved
    mails (.eml, .mbox; '-': standard input) and write out the files.

    Blocks may be quoted, rewrapped or have their line endings changed; a
    block that fails its checksum is named and nothing is written.
    """
    from pbem.app import delivery

    said: list[str] = []
    found = delivery.dearmor(list(files), into, said)
    notes(said)
    if into is None:
        from pbem.safetext import unfiltered

        stdout = unfiltered(sys.stdout)  # the files' exact bytes (their texts were checked when read)
        for _, data in found:
            stdout.buffer.write(data)
        stdout.flush()
    else:
        for name, _ in found:
            click.echo(str(into / name))


@click.command()
@game_dir
@as_party
@click.option("--to", "to", metavar="SEAT", help="Only what this party lacks.")
@click.option("--armor", "as_armor", is_flag=True, help="Print the files as one armored bundle to paste into a mail.")
@click.option("--forum", "as_forum", is_flag=True,
              help="Print a forum post (Markdown): a summary anyone may read, the files in a collapsed block.")
def outbox(folder: Path, name: str, to: str | None, as_armor: bool, as_forum: bool) -> None:
    """The files each other party may still lack (after the last file it wrote)."""
    from pbem.app import opening, sending

    if as_armor and as_forum:
        raise click.UsageError("--armor and --forum are two ways of printing the files: choose one")
    name = party_name(folder, name)

    chain = opening.open_game(folder, keys())
    if as_forum:
        from pbem.app import forum

        click.echo(forum.post(folder, chain, name, to), nl=False)
        return
    owed = sending.outbox(folder, chain, name, to)
    if not owed:
        click.echo("nobody: a hotseat game stays in this folder", err=True)
        return
    if as_armor:
        paths = sorted({p for o in owed for p in o.files})
        if paths:
            click.echo(sending.armor_files(paths), nl=False)
        for o in owed:
            click.echo(f"pbem: for {o.party}: {_files_word(o.files)}", err=True)
        return
    for o in owed:
        if to is not None:
            for path in o.files:
                click.echo(str(path))
            continue
        seen = f"has seen up to seq {o.seen}" if o.seen >= 0 else "has written nothing yet"
        click.echo(f"{o.party} ({seen}): {_files_word(o.files)}")
        for path in o.files:
            click.echo(f"  {path}")


def _files_word(files: list[Path]) -> str:
    if not files:
        return "nothing to send"
    return f"{len(files)} file{'s' if len(files) != 1 else ''}"


@click.command()
@game_dir
@click.option("--repair", is_flag=True, help="Rewrite state.pbem from the chain (fail if it cannot).")
@click.option("--full", is_flag=True, help="Replay every file from genesis, not only those not verified before.")
@as_json
def verify(folder: Path, repair: bool, full: bool, as_json: bool) -> None:
    """Check every file of the game; exit 1 with the first failure.

    Files you verified before (remembered in $PBEM_HOME) are checked by
    their hashes; --full replays the whole chain again. state.pbem is only
    a cache: a stale or damaged one is rebuilt from the chain, with a note,
    and is not a failure.
    """
    from pbem.app import opening

    said: list[str] = []
    chain = opening.verify(folder, repair, keys(), said, full=full)
    notes(chain.notes + said)
    outcome = chain.outcome()
    if as_json:  # a failure is still one `pbem: error:` line and exit 1
        emit_json({
            "ok": True, "game": chain.game.info.name, "game_id": chain.game_id, "files": len(chain.records),
            "over": outcome is not None, "next": chain.writers(), "notes": chain.notes + said,
        })
        return
    state = f"over: {outcome.reason}" if outcome else f"in progress, next: {', '.join(chain.writers())}"
    click.echo(f"ok: {chain.game.info.name} game {chain.game_id[:12]}, {len(chain.records)} files, {state}")


@click.command()
@game_dir
def audit(folder: Path) -> None:
    """Replay a finished game with every secret revealed."""
    from pbem.app import reading
    from pbem.errors import AuditError

    report = reading.audit(folder, keys())
    for failure in report.failures:
        click.echo(f"FAIL {failure}")
    if not report.ok:
        raise AuditError(f"audit failed: {len(report.failures)} check(s) failed")
    click.echo(f"ok: audit passed ({report.files} files, {report.checks} checks)")
