"""The error bridge and the lines every command family prints.

`PbemGroup.invoke` turns a `PbemError` into ``pbem: error: ...`` (and
``pbem: hint: ...``) on stderr with exit code 1; click's usage errors exit
2. `LazyGroup` is the top-level group: it knows each command's name and
short help from a table, and imports a command's module only to run it
(or to show that command's own help), so that `pbem --help` and
`pbem status` pay for no other family.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from pbem.errors import PbemError


class PbemGroup(click.Group):
    """A group whose commands turn library errors into one clear line, and
    whose output cannot command the terminal: everything written to
    standard output and error, click's own messages included, has its
    control and format characters taken out (`pbem.safetext`), whatever a
    game file, a file name or a mail put into it."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from pbem.safetext import SafeText

        out, err = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = SafeText(out), SafeText(err)
        try:
            return super().main(*args, **kwargs)
        finally:
            sys.stdout, sys.stderr = out, err

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PbemError as exc:
            fail(exc)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except BrokenPipeError:  # `pbem log DIR | head`: the reader has had enough
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except Exception as exc:  # a bug: say so in one line, traceback on request
            if os.environ.get("PBEM_DEBUG"):
                raise
            click.echo(f"pbem: error: internal error ({type(exc).__name__}: {exc})", err=True)
            click.echo("pbem: hint: this is a bug in pbem; PBEM_DEBUG=1 shows the traceback", err=True)
            sys.exit(1)


class LazyGroup(PbemGroup):
    """A `PbemGroup` whose commands are all named in `lazy`: name ->
    (``"module:attribute"``, the first sentence of its help). The module is
    imported when the command is looked up to run (or to show its own
    help); the group's `--help` lists the commands from the table alone,
    each help shortened as click shortens a command's own (a test holds
    the table to the commands)."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.lazy)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.lazy:
            return None
        module, attribute = self.lazy[cmd_name][0].split(":")
        # __import__ rather than importlib.import_module: `python -X importtime` lists the family's module
        command = getattr(__import__(module, fromlist=[attribute]), attribute)
        assert isinstance(command, click.Command) and command.name == cmd_name, (module, attribute)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from gettext import gettext as _

        limit = formatter.width - 6 - max(len(n) for n in self.lazy)
        rows = [(name, click.Command(name, help=first).get_short_help_str(limit))  # a stand-in, shortened alike
                for name, (_where, first) in sorted(self.lazy.items())]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)


def notes(lines: list[str]) -> None:
    """What a command repaired, skipped or noticed on the way that stops
    nothing (a copy of a file, a rebuilt cache): stderr, since stdout is for
    results a script reads."""
    for line in lines:
        click.echo(f"pbem: note: {line}", err=True)


def fail(exc: PbemError) -> None:
    click.echo(f"pbem: error: {exc.message}", err=True)
    if exc.hint:
        click.echo(f"pbem: hint: {exc.hint}", err=True)
    sys.exit(1)


def warn(line: str) -> None:
    """A warning on stderr (stdout may be JSON for a script)."""
    click.echo(f"pbem: warning: {line}", err=True)


def refused(bad: list[PbemError]) -> None:
    """Bad files among good ones: each named; one error line, exit 1."""
    if not bad:
        return
    if len(bad) == 1:
        raise bad[0]
    for exc in bad:
        click.echo(f"pbem: refused: {exc.message}", err=True)
    raise PbemError(f"{len(bad)} files were refused (named above); the others were applied")


def send(folder: Path, written: list[Path], writer: str) -> None:
    """Say whom the files just written must reach (stderr: stdout lists them)."""
    from pbem.app import sending

    line = sending.send_line(folder, written, writer)
    if line:
        click.echo(f"pbem: {line}", err=True)


def report_written(written: Any) -> None:
    """What a writing command of `pbem.app` returned (`files`, `notes`,
    `send`): the files on stdout, the notes and whom to send them to on
    stderr."""
    for path in written.files:
        click.echo(str(path))
    notes(written.notes)
    if written.send:
        click.echo(f"pbem: {written.send}", err=True)
