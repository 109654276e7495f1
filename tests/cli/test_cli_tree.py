"""The command tree: split by family behind a lazy top-level group (issue
#21 part 2, issue #26 part 1). No command is lost or renamed, `pbem --help`
lists each with the short help its own help gives, and a command imports
its own family only: `pbem --help` none, `pbem status` the one of `status`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from paths import ROOT

EXAMPLE = ROOT / "examples" / "agent-avenue-hotseat"

#: every command of `pbem` before the split into families (Dec 2026), and `handover accept|give` (issue #24)
COMMAND_PATHS = """
agent; agent add; agent forget; agent list; agent stop; apply; armor; audit; dearmor; demo; handover;
handover accept; handover give; id;
id email; id export; id import; id list; id new; id show; info; join; legal; log; mail; mail fetch;
mail password; mail send; new; outbox; page; pause; play; referee; referee mail; referee watch; resign;
serve; show; status; submit; sync; timeout; undo; undo accept; undo refuse; undo request; verify; watch
"""


def command_paths(group: click.Group, prefix: str = "") -> list[str]:
    ctx = click.Context(group, info_name="pbem")
    paths = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        paths.append(prefix + name)
        if isinstance(command, click.Group):
            paths += command_paths(command, prefix + name + " ")
    return paths


def test_no_command_is_lost_or_renamed():
    from pbem.cli import cli

    expected = [p.strip() for p in COMMAND_PATHS.replace("\n", " ").split(";")]
    assert command_paths(cli) == expected


@pytest.mark.parametrize("width", [50, 80, 200])
def test_help_lists_each_command_with_its_own_short_help(width):
    """The table's first sentences, shortened, are what each command's own
    help gives: the listing is that of an eager group holding the loaded
    commands."""
    from pbem.cli import COMMANDS, cli

    ctx = click.Context(cli, info_name="pbem")
    eager = click.Group("pbem", commands={n: cli.get_command(ctx, n) for n in COMMANDS}, help=cli.help)
    runner = CliRunner()
    lazy_help = runner.invoke(cli, ["--help"], prog_name="pbem", terminal_width=width).output
    eager_help = runner.invoke(eager, ["--help"], prog_name="pbem", terminal_width=width).output
    assert lazy_help.split("Commands:")[1] == eager_help.split("Commands:")[1]
    assert all(f"  {name} " in lazy_help for name in COMMANDS)


def test_every_command_of_a_family_is_in_the_table():
    from pbem.cli import COMMANDS

    listed = {where for where, _ in COMMANDS.values()}
    for module in {where.split(":")[0] for where in listed}:
        mod = __import__(module, fromlist=["_"])
        nested = {id(c) for g in vars(mod).values() if isinstance(g, click.Group) for c in g.commands.values()}
        for attribute, value in vars(mod).items():
            if isinstance(value, click.Command) and id(value) not in nested:
                assert f"{module}:{attribute}" in listed, f"{module}.{attribute} is no command of pbem"


def modules_loaded(home: Path, *args: str) -> list[str]:
    code = (
        "import json, sys\n"
        "from pbem.cli import cli\n"
        "try:\n"
        f"    cli.main({list(args)!r}, prog_name='pbem', standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('pbem.cli', 'pbem.app')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PBEM_HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_help_and_status_import_only_their_own_family(tmp_path: Path):
    from pbem.cli import COMMANDS

    game = tmp_path / "game"
    shutil.copytree(EXAMPLE / "game", game)
    families = {where.split(":")[0] for where, _ in COMMANDS.values()}
    assert modules_loaded(tmp_path / "home", "--help") == ["pbem.cli", "pbem.cli.base"]
    loaded = modules_loaded(tmp_path / "home", "status", str(game))
    status_family = COMMANDS["status"][0].split(":")[0]
    assert status_family in loaded  # the check is real: the command ran
    assert sorted(families & set(loaded)) == [status_family]
    # status needs none of the logic the other commands moved into the app layer
    assert not {"pbem.app.info", "pbem.app.overview", "pbem.app.long_game", "pbem.app.mailbox"} & set(loaded)
