"""Identities and keys: `pbem id` (your key pairs and the address book of
other players) and `pbem agent` (unlocked keys kept in memory a while)."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.base import PbemGroup
from pbem.cli.options import ask_passphrase, keys
from pbem.errors import PbemError


@click.group(cls=PbemGroup)
def id() -> None:  # noqa: A001 - the command is called `id`
    """Your identities and the address book of other players."""


@id.command("new")
@click.argument("name")
@click.option("--no-passphrase", is_flag=True, help="Store the private key unencrypted.")
@click.option("--email", metavar="ADDRESS", help="Where other players mail your files (carried in your identity file).")
def id_new(name: str, no_passphrase: bool, email: str | None) -> None:
    """Create a key pair named NAME."""
    from pbem.crypto.keys import check_name, valid_email
    from pbem.home.store import KeyStore

    check_name(name)
    if email is not None and not valid_email(email):
        raise PbemError(f"invalid mail address {email!r}", hint="give a plain address such as alice@example.org")
    store = KeyStore()
    passphrase = None if no_passphrase else ask_passphrase(name, confirm=True)
    secret = store.create(name, passphrase, email)
    click.echo(f"created {name} in {store.home}")
    click.echo(f"fingerprint: {secret.public.fingerprint()}")
    if email:
        click.echo(f"mail: {email}")


@id.command("show")
@click.argument("name", required=False)
def id_show(name: str | None) -> None:
    """Show one identity's fingerprint, or list them all."""
    from pbem.home.store import KeyStore

    store = KeyStore()
    if name:
        ident = store.public(name)
        click.echo(f"{ident.name}  {ident.fingerprint()}")
        return
    rows = store.names()
    if not rows:
        click.echo(f"no identities in {store.home} (pbem id new NAME creates one)")
    for n, own in rows:
        click.echo(f"{n:<16} {'own     ' if own else 'imported'}  {store.public(n).fingerprint()}")


@id.command("list")
def id_list() -> None:
    """The address book: every identity, its fingerprint, and where it was first seen."""
    from pbem.home.store import KeyStore

    store = KeyStore()
    rows = store.names()
    if not rows:
        click.echo(f"no identities in {store.home} (pbem id new NAME creates one)")
    for n, own in rows:
        seen = store.seen(n)
        if seen is None:
            origin = "own key" if own else "imported (no record of when)"
        elif seen.how == "created":
            origin = f"own key, created {seen.date}"
        elif seen.how == "imported":
            origin = f"imported by hand {seen.date}" + (f" from {seen.source}" if seen.source else "")
        else:
            origin = f"accepted {seen.date} from game {(seen.game_id or '?')[:12]} in {seen.source}"
        if own and seen is not None and seen.how != "created":
            origin = "own key; " + origin
        address = store.email(n)
        click.echo(f"{n:<16} {store.public(n).fingerprint()}  {origin}" + (f"  <{address}>" if address else ""))


@id.command("export")
@click.argument("name")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
def id_export(name: str, output: Path | None) -> None:
    """Print (or write) NAME's public identity file to give to other players."""
    from pbem.home.store import KeyStore
    from pbem.fsio import atomic_write

    data = KeyStore().export(name)
    if output:
        atomic_write(output, data)
        click.echo(f"wrote {output}")
    else:
        click.echo(data.decode().rstrip("\n"))


@id.command("email")
@click.argument("name")
@click.argument("address")
def id_email(name: str, address: str) -> None:
    """Set where NAME gets mail: for your own identity its identity file is
    signed again (export it again); for another player, a note in your
    address book that wins over the address their file carries."""
    from pbem.home.agent import AgentKeyStore

    store = AgentKeyStore()
    store.set_email(name, address, lambda: ask_passphrase(name))
    click.echo(f"{name}: {address}")
    if store.has_secret(name):
        click.echo(f"pbem: hint: send the new identity file to the other players (pbem id export {name})", err=True)


@id.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def id_import(file: Path) -> None:
    """Add another player's public identity file to the address book."""
    from pbem.home.store import KeyStore
    from pbem.gamedir.safe_read import read

    data = read(file)
    ident = KeyStore().import_identity(data, source=str(file.absolute()))
    click.echo(f"imported {ident.name}  {ident.fingerprint()}")
    click.echo("pbem: hint: check the fingerprint with its owner (read it aloud)", err=True)


@click.group(cls=PbemGroup, invoke_without_command=True)
@click.option("--timeout", metavar="TIME", help="How long each key is kept (90s, 15m, 1h; default 15m or [agent] timeout).")
@click.pass_context
def agent(ctx: click.Context, timeout: str | None) -> None:
    """Keep unlocked keys in memory for a while, so a passphrase is asked
    once: `pbem agent` starts it (in the background), the next command that
    unlocks a key gives it the key, later ones take it from there."""
    if ctx.invoked_subcommand is not None:
        return
    from pbem.home import agent as agent_mod, config as cfg
    from pbem.home.store import KeyStore

    home = KeyStore().home
    given = timeout or cfg.table(cfg.read(home), "agent", None).get("timeout") or agent_mod.DEFAULT_TIMEOUT
    seconds = cfg.duration(given)
    path, pid = agent_mod.start(home, seconds)
    click.echo(f"agent started (pid {pid}), socket {path}; keys are kept {int(seconds)} s after they are unlocked")
    click.echo("pbem: hint: `pbem agent add NAME` unlocks a key now; `pbem agent stop` forgets every key", err=True)


def _agent_client():
    from pbem.home import agent as agent_mod
    from pbem.home.store import KeyStore

    client = agent_mod.Client(KeyStore().home)
    if not client.running():
        raise agent_mod.AgentError("no agent runs for this key store", hint="start one with `pbem agent`")
    return client


@agent.command("add")
@click.argument("name")
def agent_add(name: str) -> None:
    """Unlock NAME's key now (asking its passphrase) and give it to the agent."""
    client = _agent_client()
    secret = keys().secret(name)
    if not client.add(secret):
        raise PbemError("the agent did not take the key")
    click.echo(f"{name}: kept by the agent")


@agent.command("list")
def agent_list() -> None:
    """The keys the agent holds, and for how long still."""
    held = _agent_client().list() or []
    if not held:
        click.echo("the agent holds no key")
    for k in held:
        click.echo(f"{k['name']:<16} {k['left']} s left")


@agent.command("forget")
@click.argument("name")
def agent_forget(name: str) -> None:
    """Drop NAME's key from the agent."""
    click.echo(f"{name}: forgotten" if _agent_client().forget(name) else f"the agent did not hold {name}")


@agent.command("stop")
def agent_stop() -> None:
    """Stop the agent: every key it held is forgotten."""
    from pbem.home import agent as agent_mod
    from pbem.home.store import KeyStore

    if agent_mod.Client(KeyStore().home).stop():
        click.echo("agent stopped")
    else:
        click.echo("no agent was running")
