"""The options and questions many command families share: the game
folder argument (remembered for `pbem status --all`), `--as`, `--json`,
`--accept-new`, the passphrase and server-password prompts, the keys a
command works with, and JSON or file output."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli.base import warn
from pbem.errors import PassphraseError, PbemError

if TYPE_CHECKING:
    from pbem.app.opening import Keys


def remember_dir(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Remember a game folder a command opened (for `pbem status --all`),
    once the command is done: a stat and a small read, never a failure."""
    if value is not None and not ctx.resilient_parsing:
        from pbem.home import games_index

        ctx.call_on_close(lambda: games_index.remember(value))
    return value


def complete_identity(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion: the names of the identities in $PBEM_HOME."""
    try:
        from pbem.home.store import KeyStore

        return [n for n, _ in KeyStore().names() if n.startswith(incomplete)]
    except Exception:  # noqa: BLE001 - completion never fails loudly
        return []


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion: the names of the games."""
    from pbem import games

    return [n for n in games.names() if n.startswith(incomplete.lower())]


game_dir = click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
                          callback=remember_dir)
as_name = click.option("--as", "name", required=True, metavar="NAME", help="Your identity in $PBEM_HOME.",
                       shell_complete=complete_identity)
#: --as on a command about one game: left out, the only identity of yours that is a party of it
as_party = click.option("--as", "name", metavar="NAME", shell_complete=complete_identity,
                        help="Your identity in $PBEM_HOME [default: the only one of yours in the game].")


def party_name(folder: Path, name: str | None) -> str:
    """`name`, or the only identity of the user's that is a party of the game in `folder`."""
    if name:
        return name
    from pbem.app import opening
    from pbem.home.store import KeyStore
    from pbem.protocol import GENESIS

    return opening.my_name(folder / GENESIS, KeyStore())


as_json = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
accept_new = click.option(
    "--accept-new", is_flag=True,
    help="Record keys of this game that your address book has never seen (like ssh's accept-new); "
    "a known name with another key is refused all the same.",
)

allow_old = click.option(
    "--allow-old-protocol", "allow_old", is_flag=True,
    help="Enter a game begun under an older protocol version, accepting what it lacks (pbem info DIR says "
    "what its chance allows); without it your first file in such a game is refused.",
)


def ask_passphrase(name: str = "", confirm: bool = False) -> str:
    env = os.environ.get("PBEM_PASSPHRASE")
    if env is not None:
        return env
    if not sys.stdin.isatty():
        raise PassphraseError(
            f"a passphrase is needed{' for ' + name if name else ''}",
            hint="set PBEM_PASSPHRASE, or run in a terminal",
        )
    return click.prompt(  # on stderr: stdout may be JSON for a script
        f"Passphrase{' for ' + name if name else ''}", hide_input=True, confirmation_prompt=confirm, err=True
    )


def keys(accept_new: bool = False, allow_old: bool = False) -> "Keys":
    from pbem.app.opening import Keys
    from pbem.home.agent import AgentKeyStore  # asks `pbem agent` before asking for a passphrase

    typed = os.environ.get("PBEM_PASSPHRASE") is None and sys.stdin.isatty()  # a person, who may mistype
    return Keys(store=AgentKeyStore(), passphrase=ask_passphrase, named=True, accept_new=accept_new,
                old_protocol=allow_old, warn=warn, tries=3 if typed else 1)


def write_output(path: Path, text: str) -> None:
    """Write a picture or page to `path` atomically ('-': standard output)."""
    if str(path) == "-":
        click.echo(text, nl=False)
        return
    from pbem.fsio import atomic_write
    from pbem.safetext import clean

    try:
        atomic_write(path, clean(text).encode("utf-8"))
    except OSError as exc:
        raise PbemError(f"cannot write {path}: {exc.strerror or exc}") from None
    click.echo(f"wrote {path}")


def lasting(keys: "Keys", chain: Any) -> bool:
    """Whether a command's words stay true while no file changes, so that
    they may be remembered (`pbem.gamedir.status_memo`, `seat_memo`):
    nothing was said as a warning (it must be said again), and the game has
    no clock (its words change with time alone)."""
    return not keys.warned and chain.genesis.pace is None


def emit_json(value: Any) -> None:
    """`value` (plain data or msgspec Structs, such as a `turns.Status`) as indented JSON."""
    click.echo(json_text(value), nl=False)


def json_text(value: Any) -> str:
    """What `emit_json` prints (words from memory are kept as printed:
    `pbem.gamedir.status_memo`, `pbem.gamedir.seat_memo`)."""
    import json  # here: most commands print no JSON, and json costs every command 1.5 ms

    import msgspec

    return json.dumps(msgspec.to_builtins(value), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


plain_option = click.option(
    "--plain", is_flag=True, help="Plain text, no colour (the default when stdout is not a terminal)."
)


def ask_secret(prompt: str) -> str:
    """A server password typed at the terminal (never echoed, never stored)."""
    if not sys.stdin.isatty():
        from pbem.transport.mail import MailError

        raise MailError(f"{prompt.lower()} is needed",
                        hint="set the variable password_env names (default PBEM_SMTP_PASSWORD / PBEM_IMAP_PASSWORD), "
                             "use the keyring (pbem mail password), or run in a terminal")
    return click.prompt(prompt, hide_input=True, err=True)
