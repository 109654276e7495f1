"""The `pbem` command line: parse, call a library function, print.

One error bridge (`PbemGroup.invoke`): a `PbemError` becomes
``pbem: error: ...`` (and ``pbem: hint: ...``) on stderr with exit code 1;
click's usage errors exit 2. Heavy modules (games, crypto) are imported
inside the commands so that `pbem --help` starts fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem import __version__
from pbem.errors import PbemError, PassphraseError

if TYPE_CHECKING:
    from pbem.actions import Keys


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


# --- shared options ---------------------------------------------------------------

def _remember_dir(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Remember a game folder a command opened (for `pbem status --all`),
    once the command is done: a stat and a small read, never a failure."""
    if value is not None and not ctx.resilient_parsing:
        from pbem import games_index

        ctx.call_on_close(lambda: games_index.remember(value))
    return value


def complete_identity(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion: the names of the identities in $PBEM_HOME."""
    try:
        from pbem.crypto.store import KeyStore

        return [n for n, _ in KeyStore().names() if n.startswith(incomplete)]
    except Exception:  # noqa: BLE001 - completion never fails loudly
        return []


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion: the names of the games."""
    from pbem import games

    return [n for n in games.names() if n.startswith(incomplete.lower())]


game_dir = click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
                          callback=_remember_dir)
as_name = click.option("--as", "name", required=True, metavar="NAME", help="Your identity in $PBEM_HOME.",
                       shell_complete=complete_identity)
#: --as on a command about one game: left out, the only identity of yours that is a party of it
as_party = click.option("--as", "name", metavar="NAME", shell_complete=complete_identity,
                        help="Your identity in $PBEM_HOME [default: the only one of yours in the game].")


def party_name(folder: Path, name: str | None) -> str:
    """`name`, or the only identity of the user's that is a party of the game in `folder`."""
    if name:
        return name
    from pbem import actions
    from pbem.crypto.store import KeyStore
    from pbem.protocol.folder import GENESIS

    return actions.my_name(folder / GENESIS, KeyStore())
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


def warn(line: str) -> None:
    """A warning on stderr (stdout may be JSON for a script)."""
    click.echo(f"pbem: warning: {line}", err=True)


def keys(accept_new: bool = False, allow_old: bool = False) -> "Keys":
    from pbem.actions import Keys
    from pbem.agent import AgentKeyStore  # asks `pbem agent` before asking for a passphrase

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


def emit_json(value: Any) -> None:
    """`value` (plain data or msgspec Structs, such as a `turns.Status`) as indented JSON."""
    import json  # here: most commands print no JSON, and json costs every command 1.5 ms

    import msgspec

    click.echo(json.dumps(msgspec.to_builtins(value), indent=2, ensure_ascii=False, sort_keys=False))


# --- the group ---------------------------------------------------------------------


@click.group(cls=PbemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
def cli() -> None:
    """Play board and card games with hidden information by mail or shared folder.

    Every turn is a signed file checked against the chain of files before it;
    hidden cards are sealed to the players allowed to see them.
    """


# --- identities ----------------------------------------------------------------------


@cli.group(cls=PbemGroup)
def id() -> None:  # noqa: A001 - the command is called `id`
    """Your identities and the address book of other players."""


@id.command("new")
@click.argument("name")
@click.option("--no-passphrase", is_flag=True, help="Store the private key unencrypted.")
@click.option("--email", metavar="ADDRESS", help="Where other players mail your files (carried in your identity file).")
def id_new(name: str, no_passphrase: bool, email: str | None) -> None:
    """Create a key pair named NAME."""
    from pbem.crypto.keys import check_name, valid_email
    from pbem.crypto.store import KeyStore

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
    from pbem.crypto.store import KeyStore

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
    from pbem.crypto.store import KeyStore

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
    from pbem.crypto.store import KeyStore
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
    from pbem.agent import AgentKeyStore

    store = AgentKeyStore()
    store.set_email(name, address, lambda: ask_passphrase(name))
    click.echo(f"{name}: {address}")
    if store.has_secret(name):
        click.echo(f"pbem: hint: send the new identity file to the other players (pbem id export {name})", err=True)


@id.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def id_import(file: Path) -> None:
    """Add another player's public identity file to the address book."""
    from pbem.crypto.store import KeyStore
    from pbem.protocol.folder import read

    data = read(file)
    ident = KeyStore().import_identity(data, source=str(file.absolute()))
    click.echo(f"imported {ident.name}  {ident.fingerprint()}")
    click.echo("pbem: hint: check the fingerprint with its owner (read it aloud)", err=True)


# --- games -------------------------------------------------------------------------------


@cli.command()
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
    from pbem import actions

    dealer = actions.dealer_for(game, dealer, referee)
    agreed = None
    if pace:
        from pbem.protocol.clock import parse_pace

        agreed = parse_pace(pace, pauses, absent)
    elif pauses or absent != "none":
        raise PbemError("--pauses and --absent go with an agreed --pace")
    if absent != "none" and dealer != "referee":
        raise PbemError("--absent is for referee games: elsewhere nobody may play for a seat or end its game")
    chain = actions.new_game(game, folder, list(seats), keys(), dealer, referee, seed, list(options), creator,
                             pace=agreed, referee_handover=referee_handover)
    click.echo(f"created {chain.game.info.title} game {chain.game_id[:12]} in {folder}")
    for line in actions.after_new(chain, folder):
        click.echo(line)


@cli.command()
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
    from pbem import actions
    from pbem.crypto.store import KeyStore

    name = name or actions.my_name(Path(received[0]), KeyStore())

    mine = actions.join(folder, list(received), name, keys(accept_new, allow_old))
    if mine is None:
        chain = actions.open_game(folder)
        if any(r.by == name for r in chain.records):
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


@cli.command()
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(file_okay=False, path_type=Path),
                callback=_remember_dir)
@click.option("--all", "every", is_flag=True,
              help="Every game under DIR (default: every game folder pbem has seen), one line each.")
@as_json
def status(folder: Path | None, every: bool, as_json: bool) -> None:
    """Whose turn it is, what is pending, and the outcome (DIR: the current
    folder unless given)."""
    from pbem import actions

    if every:
        status_all(folder, as_json)
        return
    folder = folder if folder is not None else Path(".")
    info = actions.status(actions.open_game(folder, keys()))
    if as_json:
        emit_json(info)
        return
    click.echo(f"{info.game} game {info.game_id[:12]}, seq {info.seq}, dealer {info.dealer.mode}")
    if info.outcome:
        click.echo(f"over: {info.outcome.reason}")
    for line in actions.to_act_lines(info):
        click.echo(line)
    for line in info.pending:
        click.echo(f"pending: {line}")
    for line in info.clock:
        click.echo(f"clock: {line}")
    # copies of a file and repaired line endings (info.notes) are harmless: `pbem verify`
    # and the watcher say so, once; status, run at every turn, does not repeat it


def status_all(tree: Path | None, as_json: bool) -> None:
    """`pbem status --all [TREE]`: one line per game."""
    from pbem import games_index, turns
    from pbem.crypto.store import KeyStore
    from pbem.protocol.folder import GENESIS
    from pbem.transport.watch import game_folders

    if tree is not None:
        if not tree.is_dir():
            raise PbemError(f"{tree} is not a folder")
        folders = game_folders(tree, GENESIS)
    else:
        games_index.forget_missing()
        folders = games_index.known()
    rows = turns.overview(folders)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        where = f"under {tree}" if tree is not None else "seen yet (each command that opens a game folder remembers it)"
        click.echo(f"no game folders {where}")
        return
    store = KeyStore()
    mine = {n for n, own in store.names() if own}
    flagged = False
    for row in rows:
        if isinstance(row, turns.UnreadableRow):
            click.echo(f"{row.dir}: cannot be read: {row.error}")
            continue
        yours = [w.seat for w in row.to_act if w.seat in mine and w.needs != "auto"]
        flag = "*" if yours and not row.over else " "
        flagged = flagged or flag == "*"
        state = f"over: {row.outcome.reason}" if row.outcome is not None else row.waiting
        click.echo(f"{flag} {row.dir}  {row.game} {row.game_id[:8]} seq {row.seq} ({row.dealer}): {state}")
    if flagged:
        click.echo("(* a decision of one of your identities)")


@cli.command()
@game_dir
@as_party
@as_json
def legal(folder: Path, name: str, as_json: bool) -> None:
    """Your legal commands now, in the game's notation."""
    name = party_name(folder, name)
    from pbem import actions

    k = keys()
    chain = actions.open_game(folder, k)
    commands = actions.legal(chain, actions.party(chain, name, k))
    if as_json:
        emit_json(commands)
    elif not commands:
        from pbem import turns

        click.echo(turns.owed(chain, name)[1])  # the words of `pbem status`
    else:
        for c in commands:
            click.echo(c)


@cli.command()
@game_dir
@as_party
@click.option("--cmd", "cmds", multiple=True, required=True, help="A command in the game's notation.")
@accept_new
@allow_old
def submit(folder: Path, name: str, cmds, accept_new: bool, allow_old: bool) -> None:
    """Check and write your turn into DIR; prints the files written."""
    name = party_name(folder, name)
    from pbem import actions

    said: list[str] = []
    k = keys(accept_new, allow_old)
    written = actions.submit(folder, name, list(cmds), k, said, until_reported=True)
    for path in written:
        click.echo(str(path))
    notes(said)
    send(folder, written, name)
    actions.reported(folder, name, k)  # reported: the same commands again are a new command


@cli.command()
@game_dir
@as_party
@accept_new
@allow_old
def sync(folder: Path, name: str, accept_new: bool, allow_old: bool) -> None:
    """Write every file NAME owes that needs no decision."""
    name = party_name(folder, name)
    from pbem import actions

    said: list[str] = []
    written = actions.sync(folder, name, keys(accept_new, allow_old), said)
    notes(said)
    if not written:
        from pbem import actions as a, turns

        what, words = turns.owed(a.open_game(folder), name)
        if what in ("decision", "undo"):
            words = f"nothing automatic to write: {words}"
        click.echo(words)
    for path in written:
        click.echo(str(path))
    send(folder, written, name)


@cli.group(cls=PbemGroup)
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
        from pbem import actions

        name = party_name(folder, name)

        said: list[str] = []
        for path in actions.undo(folder, name, what, keys(accept_new, allow_old), said):
            click.echo(str(path))
        notes(said)


_undo_command("request", "Ask the other seats to let you take back your last move.")
_undo_command("accept", "Accept the pending undo request (the last acceptance takes the move back).")
_undo_command("refuse", "Refuse the pending undo request: the move stands.")


# --- long games: resign, pause, timeout (issue #24) -------------------------------------------


def _long_written(written: list[Path], said: list[str], folder: Path, name: str) -> None:
    for path in written:
        click.echo(str(path))
    notes(said)
    send(folder, written, name)


@cli.command()
@game_dir
@as_party
@click.option("--note", default="", help="A word to the other players, kept in the file.")
@accept_new
@allow_old
def resign(folder: Path, name: str | None, note: str, accept_new: bool, allow_old: bool) -> None:
    """Resign: your side loses and the game ends (a signed file; the audit
    still runs). Any time, whoever is to move."""
    from pbem import long_play

    name = party_name(folder, name)
    said: list[str] = []
    _long_written(long_play.resign(folder, name, keys(accept_new, allow_old), note, said), said, folder, name)


@cli.command()
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
    from pbem import long_play

    name = party_name(folder, name)
    said: list[str] = []
    _long_written(long_play.pause(folder, name, keys(accept_new, allow_old), start, end, said), said, folder, name)


@cli.command()
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
    from pbem import long_play

    name = party_name(folder, name)
    said: list[str] = []
    _long_written(long_play.timeout(folder, name, keys(accept_new, allow_old), seat, said), said, folder, name)


@cli.command()
@game_dir
@as_party
@click.option("--to", "to", required=True, metavar="NAME|ID-FILE",
              help="The newcomer: a name in your address book, or its identity file (already imported).")
@click.option("--seat", metavar="SEAT", help="The seat handed over [default: yours; the referee names a vanished one].")
@accept_new
def handover(folder: Path, name: str | None, to: str, seat: str | None, accept_new: bool) -> None:
    """Hand your seat over to another player, who plays on with its own key.

    Everything your seat may see is sealed to the newcomer alone; from this
    file on the seat's files are signed with its key. Written when the game
    waits for the seat, once per seat. In a referee game whose genesis allows
    it (pbem new --referee-handover), the referee may hand over a vanished seat.
    """
    from pbem import actions

    name = party_name(folder, name)
    said: list[str] = []
    written = actions.handover(folder, name, to, keys(accept_new), seat=seat, notes=said)
    for path in written:
        click.echo(str(path))
    notes(said)
    send(folder, written, name)


plain_option = click.option(
    "--plain", is_flag=True, help="Plain text, no colour (the default when stdout is not a terminal)."
)


@cli.command()
@game_dir
@click.option("--as", "name", metavar="NAME", help="See as this seat (default: an observer).")
@as_json
@click.option("--svg", "svg_file", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the board as an SVG picture to FILE ('-': standard output).")
@plain_option
def show(folder: Path, name: str | None, as_json: bool, svg_file: Path | None, plain: bool) -> None:
    """The board as NAME may see it (default: as an observer; in colour on a
    terminal, NO_COLOR is honoured)."""
    from pbem import actions

    if as_json and svg_file is not None:
        raise click.UsageError("--json and --svg do not go together")
    k = keys()
    chain = actions.open_game(folder, k)
    me = actions.party(chain, name, k) if name else None
    if svg_file is not None:
        write_output(svg_file, actions.svg(chain, me))
        return
    if as_json:
        emit_json(actions.view_json(chain, me))
        return
    from pbem.render import terminal

    terminal.show(chain.game, actions.view(chain, me), plain=plain)


def ask_line(prompt: str) -> str:
    """One answer typed at the terminal; EOFError at the end of the input."""
    try:
        return click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        raise EOFError from None


@cli.command()
@game_dir
@click.option("--as", "name", metavar="NAME", help="The page of this seat (default: an observer's).")
@click.option("-o", "--output", required=True, metavar="FILE.html",
              type=click.Path(dir_okay=False, allow_dash=True, path_type=Path), help="Where to write the page ('-': standard output).")
def page(folder: Path, name: str | None, output: Path) -> None:
    """One self-contained HTML page of the game as NAME sees it: the board,
    whose turn it is, what is pending, NAME's legal commands as `pbem submit`
    lines to copy, the log and the outcome. Opens with no network."""
    from pbem import actions

    k = keys()
    chain = actions.open_game(folder, k)
    me = actions.party(chain, name, k) if name else None
    write_output(output, actions.page(chain, me, str(folder)))


@cli.command()
@game_dir
@as_party
@plain_option
@click.option("--yes", "-y", is_flag=True, help="Write each chosen command without asking.")
@accept_new
@allow_old
def play(folder: Path, name: str, plain: bool, yes: bool, accept_new: bool, allow_old: bool) -> None:
    """Interactive: a compact board, whose turn it is, and your legal
    commands as a numbered menu, fitted to an 80x24 terminal.

    Type a number or a command in the game's notation; it is shown in
    words and written after you confirm. A big choice (Codex's tech step)
    is made in two steps. b shows the whole board, m the whole menu, ? the
    rules in brief, q quits.
    """
    from pbem import play as playing
    from pbem.render import terminal

    name = party_name(folder, name)

    playing.run(folder, name, keys(accept_new, allow_old), terminal.Screen(ask_line, plain=plain), yes=yes)


@cli.command()
@game_dir
@as_json
@click.option("--since-mine", is_flag=True, help="Only what happened since NAME's last file, in words (needs --as).")
@click.option("--as", "name", metavar="NAME", help="Whose last file --since-mine counts from.",
              shell_complete=complete_identity)
def log(folder: Path, as_json: bool, since_mine: bool, name: str | None) -> None:
    """Every file of the game, one line each, as anyone may read it."""
    from pbem import actions

    chain = actions.open_game(folder, keys())
    if since_mine:
        if not name:
            raise click.UsageError("--since-mine needs --as NAME")
        lines = actions.since_mine(chain, name)
        if as_json:
            emit_json({"game_id": chain.game_id, "lines": lines})
        else:
            for line in lines:
                click.echo(line)
        return
    if as_json:
        emit_json(actions.log_entries(chain))
        return
    for line in actions.log_lines(chain):
        click.echo(line)


@cli.command("apply")
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
    from pbem import actions, rebuild

    said: list[str] = []
    if rebuild.is_empty(folder):
        result = rebuild.apply_into_empty(folder, list(files), keys(accept_new), said)
    else:
        result = actions.receive(folder, list(files), keys(accept_new), said)
    for path in result.written:
        click.echo(str(path))
    notes(said)
    refused(result.bad)


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
    from pbem import delivery

    line = delivery.send_line(folder, written, writer)
    if line:
        click.echo(f"pbem: {line}", err=True)


@cli.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def armor(files) -> None:
    """Print each pbem FILE as an armored text block, to paste into a mail."""
    from pbem import delivery

    click.echo(delivery.armor_files(list(files)), nl=False)


@cli.command()
@click.argument("files", metavar="TEXT...", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--into", "into", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Write the files into DIR (default: print them on standard output).")
def dearmor(files, into: Path | None) -> None:
    """Find every armored block (and attached pbem file) in texts and saved
    mails (.eml, .mbox; '-': standard input) and write out the files.

    Blocks may be quoted, rewrapped or have their line endings changed; a
    block that fails its checksum is named and nothing is written.
    """
    from pbem import delivery

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


@cli.command()
@game_dir
@as_party
@click.option("--to", "to", metavar="SEAT", help="Only what this party lacks.")
@click.option("--armor", "as_armor", is_flag=True, help="Print the files as one armored bundle to paste into a mail.")
@click.option("--forum", "as_forum", is_flag=True,
              help="Print a forum post (Markdown): a summary anyone may read, the files in a collapsed block.")
def outbox(folder: Path, name: str, to: str | None, as_armor: bool, as_forum: bool) -> None:
    """The files each other party may still lack (after the last file it wrote)."""
    from pbem import actions, delivery

    if as_armor and as_forum:
        raise click.UsageError("--armor and --forum are two ways of printing the files: choose one")
    name = party_name(folder, name)

    chain = actions.open_game(folder, keys())
    if as_forum:
        from pbem import forum

        click.echo(forum.post(folder, chain, name, to), nl=False)
        return
    owed = delivery.outbox(folder, chain, name, to)
    if not owed:
        click.echo("nobody: a hotseat game stays in this folder", err=True)
        return
    if as_armor:
        paths = sorted({p for o in owed for p in o.files})
        if paths:
            click.echo(delivery.armor_files(paths), nl=False)
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


@cli.command()
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
    from pbem import actions

    said: list[str] = []
    chain = actions.verify(folder, repair, keys(), said, full=full)
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


@cli.command()
@game_dir
def audit(folder: Path) -> None:
    """Replay a finished game with every secret revealed."""
    from pbem import actions
    from pbem.errors import AuditError

    report = actions.audit(folder, keys())
    for failure in report.failures:
        click.echo(f"FAIL {failure}")
    if not report.ok:
        raise AuditError(f"audit failed: {len(report.failures)} check(s) failed")
    click.echo(f"ok: audit passed ({report.files} files, {report.checks} checks)")


@cli.command()
@click.argument("what", metavar="GAME|DIR", shell_complete=complete_game)
@as_json
def info(what: str, as_json: bool) -> None:
    """What GAME is: title, seats, and the options `pbem new` takes, with
    their defaults (scenario options fix hidden cards: hotseat only). Given
    a game folder DIR: that game, and who can know which chance when."""
    from pbem import gameinfo

    folder = Path(what)
    if folder.is_dir() and (folder / "000000-genesis.pbem").exists():
        from pbem import actions
        from pbem.protocol.foresight import chance_knowledge

        chain = actions.open_game(folder)
        described = {
            "game": chain.game.info.name, "title": chain.game.info.title, "game_id": chain.game_id,
            "rules_version": chain.genesis.rules_version, "protocol_version": chain.genesis.version,
            "dealer": {"mode": chain.dealer_mode, "name": chain.dealer_name},
            "seats": [{"name": s.name, "role": s.role} for s in chain.genesis.seats],
            "chance": chance_knowledge(chain),
            "referee_handover": chain.genesis.referee_handover,
            "handed_over": {seat: {"seq": seq, "to": ident.name, "fingerprint": ident.fingerprint()}
                            for seat, (seq, ident) in chain.handed.items()},
        }
        if as_json:
            emit_json(described)
            return
        click.echo(f"{described['title']}, game {chain.game_id[:12]}, rules {described['rules_version']}, "
                   f"protocol version {described['protocol_version']}, dealer {chain.dealer_mode}"
                   + (f" ({chain.dealer_name})" if chain.dealer_mode == "referee" else ""))
        click.echo("seats: " + ", ".join(s.name + (f" ({s.role})" if s.role else "") for s in chain.genesis.seats))
        for line in described["chance"]:
            click.echo(f"note: {line}")
        if chain.genesis.referee_handover:
            click.echo("note: its referee may hand a vanished seat over to a replacement (the genesis allows it)")
        for seat, h in described["handed_over"].items():
            click.echo(f"note: seat {seat} was handed over to {h['to']} ({h['fingerprint']}) at seq {h['seq']}")
        return
    described = gameinfo.describe(what)
    if as_json:
        emit_json(described)
        return
    for line in gameinfo.lines(described):
        click.echo(line)


# --- following shared folders ------------------------------------------------------------

notify_option = click.option(
    "--notify-cmd", metavar="CMD",
    help="A shell command run when a decision becomes NAME's, with PBEM_GAME, PBEM_DIR, PBEM_SEQ, "
    "PBEM_NEEDS (decision, undo or join; in a game with a pace also reminder or deadline, with PBEM_SEAT) "
    "and PBEM_AS in its environment.",
)
remind_option = click.option(
    "--remind-at", type=click.IntRange(1, 100), default=75, show_default=True, metavar="PERCENT",
    help="In a game with a pace: remind a seat to move once this share of its time is gone.")
poll_option = click.option("--poll", is_flag=True,
                           help="Poll the folder instead of file events (network drives; automatic without watchfiles).")
interval_option = click.option("--interval", type=click.FloatRange(0.05, 3600), default=1.0, show_default=True,
                               metavar="SECONDS", help="Seconds between two looks when polling.")


def run_watch(root: Path, name: str, accept_new: bool, once: bool, poll: bool, interval: float,
              notify_cmd: str | None, tree: bool, remove_copies: bool = False, remind_at: int = 75) -> None:
    from pbem import watching

    def say(line: str) -> None:
        click.echo(line)

    watch = watching.Watch(root, name, watching.cached(keys(accept_new)), say, tree=tree, notify_cmd=notify_cmd,
                           remove_copies=remove_copies, settle=watching.settle_time(), remind_at=remind_at)
    what = f"every game under {root}" if tree else str(root)
    if not once:
        click.echo(f"watching {what} as {name} (Ctrl-C stops)", err=True)
    problems, stopped = watching.until_interrupted(
        lambda stop: watch.run(once=once, poll=poll, interval=interval, stop=stop))
    if stopped:
        click.echo("pbem: stopped watching", err=True)
    if once and problems:
        raise PbemError(f"{problems} problem{'s' if problems != 1 else ''} in {what} (said above)")


@cli.command()
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, exists=True, path_type=Path),
                callback=_remember_dir)
@as_party
@click.option("--once", is_flag=True, help="Do what is due now, then stop (exit 1 if a fork or bad file was found).")
@notify_option
@remind_option
@poll_option
@interval_option
@click.option("--remove-copies", is_flag=True,
              help="Delete conflict copies that hold the same bytes as the file they copy.")
@accept_new
def watch(folder: Path, name: str, once: bool, notify_cmd: str | None, remind_at: int, poll: bool, interval: float,
          remove_copies: bool, accept_new: bool) -> None:
    """Follow a game folder that a sync tool (Syncthing, Dropbox, a network
    drive) keeps in step: read each new file once it is complete, write
    NAME's automatic answers, and say when a decision is NAME's.

    Sync tools' temporary files are ignored until complete; conflict copies
    holding the same file are ignored, and two different files for one place
    are reported as a fork with both signers (both kept).
    """
    run_watch(folder, party_name(folder, name), accept_new, once, poll, interval, notify_cmd, tree=False,
              remove_copies=remove_copies, remind_at=remind_at)


@cli.command()
@click.argument("folders", metavar="[DIR]...", nargs=-1, type=click.Path(file_okay=False, exists=True, path_type=Path))
@as_name
@click.option("--no-open", is_flag=True, help="Only print the page's address; do not open a browser.")
@click.option("--mail", "use_mail", is_flag=True,
              help="Mail each file written to the other parties, and fetch new mail (config.toml's servers).")
@click.option("--mail-every", type=click.FloatRange(10), default=60.0, show_default=True, metavar="SECONDS",
              help="Seconds between two mail fetches (with --mail).")
@accept_new
def serve(folders, name: str, no_open: bool, use_mail: bool, mail_every: float, accept_new: bool) -> None:
    """Play in your browser: a page on this machine alone (127.0.0.1) with
    NAME's games (DIR: game folders or folders of games; default: every game
    `pbem status --all` knows), the board, and your moves to click. It
    follows the folders as `pbem watch` does and writes what `pbem submit`
    writes. Ctrl-C stops it."""
    from pbem import serving

    def ready(url: str) -> None:
        click.echo(url)
        click.echo(f"pbem: serving {name}'s games at the address above (only you can open it); Ctrl-C stops",
                   err=True)

    serving.run(list(folders), name, keys(accept_new), click.echo, ready, open_page=not no_open, mail=use_mail,
                ask_secret=ask_secret, mail_every=mail_every)


@cli.group(cls=PbemGroup)
def referee() -> None:
    """The automated referee: answer every obligation as soon as its input arrives."""


@referee.command("watch")
@click.argument("tree", metavar="TREE", type=click.Path(file_okay=False, exists=True, path_type=Path))
@as_name
@click.option("--once", is_flag=True, help="Answer what is due now in every game, then stop.")
@notify_option
@remind_option
@poll_option
@interval_option
@accept_new
def referee_watch(tree: Path, name: str, once: bool, notify_cmd: str | None, remind_at: int, poll: bool,
                  interval: float, accept_new: bool) -> None:
    """Answer, as NAME, everything NAME owes in every game folder under
    TREE (new games are picked up as they appear). Safe to stop and start
    again: the chains show what has been answered. In games with a pace it
    reminds late seats (--notify-cmd) and acts for a seat whose time is
    out as the genesis agreed."""
    run_watch(tree, name, accept_new, once, poll, interval, notify_cmd, tree=True, remind_at=remind_at)


@cli.command()
@click.argument("game", default="agent-avenue", shell_complete=complete_game)
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), help="Keep the game here.")
@click.option("--seed", type=int, help="Reproducible deal and bot choices.")
@click.option("--dealer", type=click.Choice(["hotseat", "referee", "peer"]),
              help="Who deals and rolls [default: the game's own: hotseat; dark-agent: referee].")
@click.option("--bot", help="Which bot plays every seat (default: the game's demo bot).")
@click.option("--keys", "keys_dir", type=click.Path(file_okay=False, path_type=Path), help="Keep the bots' key store here.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A game option (as for pbem new).")
def demo(
    game: str, folder: Path | None, seed: int | None, dealer: str, bot: str | None, keys_dir: Path | None,
    options: tuple[str, ...],
) -> None:
    """Bots play a complete GAME (agent-avenue, codenames, codex,
    dark-agent) through the real file protocol, in a throw-away key store
    and folder (unless --keys and --dir keep them), then verify and audit it."""
    from pbem import games
    from pbem.demo import run_demo

    dealer = dealer or games.get(game).info.default_dealer  # the demo makes its own referee
    run_demo(game, folder, seed, dealer, bot, echo=click.echo, keys_dir=keys_dir, options=list(options))


# --- mail -----------------------------------------------------------------------------------


def ask_secret(prompt: str) -> str:
    """A server password typed at the terminal (never echoed, never stored)."""
    if not sys.stdin.isatty():
        from pbem.transport.mail import MailError

        raise MailError(f"{prompt.lower()} is needed",
                        hint="set the variable password_env names (default PBEM_SMTP_PASSWORD / PBEM_IMAP_PASSWORD), "
                             "use the keyring (pbem mail password), or run in a terminal")
    return click.prompt(prompt, hide_input=True, err=True)


@cli.group(cls=PbemGroup)
def mail() -> None:
    """Play by mail: send each other party what it lacks, fetch and apply what arrived.

    Servers and mailboxes are set in $PBEM_HOME/config.toml (docs/config.md).
    """


@mail.command("send")
@game_dir
@as_party
@click.option("--again", is_flag=True, help="Mail every file each party lacks, even those mailed before.")
def mail_send(folder: Path, name: str, again: bool) -> None:
    """Mail each other party of DIR the files it lacks (attached, and armored in the text)."""
    from pbem import mailing

    name = party_name(folder, name)

    said: list[str] = []
    sent = mailing.send(folder, name, keys(), ask_secret, again, said)
    notes(said)
    if not sent:
        click.echo("nothing new to mail: every party has been sent what it lacks (--again sends it again)")
    for s in sent:
        click.echo(f"mailed {s.party} <{s.address}>: {', '.join(s.files)}")


def _fetched_lines(report) -> list[str]:
    lines = []
    if report.rebuilt:
        lines.append(f"rebuilt {report.folder} from the mail, your own files among them")
    elif report.joined:
        lines.append(f"joined the game in {report.folder}")
    lines += [str(p) for p in report.written]
    lines += [f"waiting in pending/: {p.name}" for p in report.pending]
    return lines


@mail.command("fetch")
@game_dir
@as_party
@click.option("--from", "source", metavar="PATH", type=click.Path(path_type=Path),
              help="Read this maildir or mbox instead of the mailbox config.toml names.")
@click.option("--game", metavar="ID", help="Which game to join when DIR is new and several invitations wait.")
@click.option("--notify-cmd", metavar="CMD",
              help="Run CMD when the fetch makes a decision yours (PBEM_GAME, PBEM_DIR, PBEM_SEQ, PBEM_NEEDS set).")
@accept_new
def mail_fetch(folder: Path, name: str, source: Path | None, game: str | None, notify_cmd: str | None,
               accept_new: bool) -> None:
    """Apply this game's files from new mail (as pbem apply does); a new DIR
    joins the game you were invited to. Mail is read, never changed."""
    from pbem import actions, mailing

    name = party_name(folder, name)

    said: list[str] = []
    k = keys(accept_new)
    report = mailing.fetch([folder], name, k, ask_secret, source, game, said)[0]
    for line in _fetched_lines(report):
        click.echo(line)
    notes(said)
    if report.other_games:
        notes([f"{report.other_games} file(s) of other games were left in the mailbox"])
    for gid in report.invitations:
        notes([f"mail holds an invitation to game {gid[:12]}: pbem mail fetch NEW-FOLDER --as {name} --game {gid[:12]}"])
    chain = actions.open_game(folder)
    for line in actions.to_act_lines(actions.status(chain)):
        click.echo(f"next: {line}")
    if notify_cmd and (report.written or report.joined) and name in chain.writers() and chain.needs(name) == "decision":
        from pbem.watching import run_notify

        trouble = run_notify(notify_cmd, folder, chain, "decision", name)
        if trouble:
            notes([trouble])
    for line in report.strangers:
        click.echo(f"pbem: refused: {line}", err=True)
    bad = list(report.bad)
    if report.strangers:
        from pbem.errors import WrongWriter

        bad.append(WrongWriter(f"{len(report.strangers)} file(s) signed by unknown keys were not applied (named above)"))
    refused(bad)


@mail.command("password")
@click.argument("kind", type=click.Choice(["smtp", "imap"]))
@as_name
def mail_password(kind: str, name: str) -> None:
    """Store the password of the SMTP or IMAP server in the system keyring
    (then set keyring = true in its table of config.toml)."""
    from pbem import mailing
    from pbem.crypto.store import KeyStore

    entry = mailing.store_password(KeyStore().home, name, kind, click.prompt(f"{kind} password", hide_input=True, err=True))
    click.echo(f"stored in the system keyring as pbem / {entry}")


@referee.command("mail")
@click.argument("tree", metavar="TREE", required=False, type=click.Path(file_okay=False, path_type=Path))
@as_name
@click.option("--from", "source", metavar="PATH", type=click.Path(path_type=Path),
              help="Read this maildir or mbox instead of the mailbox config.toml names.")
@click.option("--every", metavar="SECONDS", type=click.FloatRange(min=1), help="Go on, a round every SECONDS, until Ctrl-C.")
@remind_option
def referee_mail(tree: Path | None, name: str, source: Path | None, every: float | None, remind_at: int) -> None:
    """Fetch mail, answer every obligation of NAME in every game under TREE
    it referees (default: [referee] tree in config.toml, else the current
    folder), and mail the answers. Safe to stop and start again. In games
    with a pace it mails late seats a reminder (once a turn) and everyone
    a deadline passed, and acts for a seat whose time is out as agreed."""
    import time

    from pbem import config as cfg, mailing

    k = keys()
    typed: dict[str, str] = {}

    def once(who: str = "") -> str:  # a daemon asks for the passphrase once, then keeps it in memory
        if who not in typed:
            typed[who] = ask_passphrase(who)
        return typed[who]

    k.passphrase = once
    if tree is None:
        tree = cfg.path_value(cfg.read(k.store.home), "referee", "tree", name) or Path(".")
    memo: dict = {}
    while True:
        said: list[str] = []
        rnd = mailing.referee(tree, name, k, ask_secret, source, said, memo, remind_at=remind_at)
        notes(said)
        if not rnd.games:
            click.echo(f"no game under {tree} has {name} as its referee")
        for report in rnd.fetched:
            for line in _fetched_lines(report):
                click.echo(line)
            for line in report.strangers:
                click.echo(f"pbem: refused: {line}", err=True)
            for exc in report.bad:
                click.echo(f"pbem: refused: {exc.message}", err=True)
        for folder, written in rnd.answered.items():
            for path in written:
                click.echo(str(path))
        for folder, sent in rnd.sent.items():
            for s in sent:
                click.echo(f"mailed {s.party} <{s.address}>: {', '.join(s.files)}")
        for line in rnd.reminded:
            click.echo(line)
        if every is None:
            refused(rnd.errors)
            return
        for exc in rnd.errors:
            click.echo(f"pbem: error: {exc.message}", err=True)
        try:
            time.sleep(every)
        except KeyboardInterrupt:
            return


# --- the agent -------------------------------------------------------------------------------


@cli.group(cls=PbemGroup, invoke_without_command=True)
@click.option("--timeout", metavar="TIME", help="How long each key is kept (90s, 15m, 1h; default 15m or [agent] timeout).")
@click.pass_context
def agent(ctx: click.Context, timeout: str | None) -> None:
    """Keep unlocked keys in memory for a while, so a passphrase is asked
    once: `pbem agent` starts it (in the background), the next command that
    unlocks a key gives it the key, later ones take it from there."""
    if ctx.invoked_subcommand is not None:
        return
    from pbem import agent as agent_mod, config as cfg
    from pbem.crypto.store import KeyStore

    home = KeyStore().home
    given = timeout or cfg.table(cfg.read(home), "agent", None).get("timeout") or agent_mod.DEFAULT_TIMEOUT
    seconds = cfg.duration(given)
    path, pid = agent_mod.start(home, seconds)
    click.echo(f"agent started (pid {pid}), socket {path}; keys are kept {int(seconds)} s after they are unlocked")
    click.echo("pbem: hint: `pbem agent add NAME` unlocks a key now; `pbem agent stop` forgets every key", err=True)


def _agent_client():
    from pbem import agent as agent_mod
    from pbem.crypto.store import KeyStore

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
    from pbem import agent as agent_mod
    from pbem.crypto.store import KeyStore

    if agent_mod.Client(KeyStore().home).stop():
        click.echo("agent stopped")
    else:
        click.echo("no agent was running")


def main() -> None:
    cli(prog_name="pbem")


if __name__ == "__main__":
    main()
