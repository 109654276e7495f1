"""Playing by mail: `pbem mail send`, the mail server settings and the
records of what was mailed (`pbem.app.mail_fetch` reads mail in,
`pbem.app.mail_referee` is `pbem referee mail`).

Library functions (no click, no printing), built on the outbox of
`pbem.app.sending`, the inbox of `pbem.app.delivery` and on the
transports (`pbem.transport.mail`, `pbem.transport.imap`):

* `send` mails each other party the files it lacks (`sending.outbox`),
  to the address its identity carries (`KeyStore.email`). What went to
  whom is remembered in ``$PBEM_HOME/mail/sent/`` (by the hash of each
  file), recorded after each mail the server accepted: sending again
  mails only what is new, and a send cut off half way mails the rest next
  time (at worst a file twice, which the receiver skips).
* `remind` mails the clock's reminders (`pbem.app.reminders`), once per
  seat per turn across runs.
* `password`, `store_password`: a server's password from the keyring, the
  environment or the user, as the config says (`pbem.home.config`).

The mailbox itself is never changed (see `pbem.transport.imap`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.home import config as cfg
from pbem.errors import PbemError
from pbem.transport.mail import MailError


Ask = Callable[[str], str]


def password(server: cfg.Server, ask: Ask | None) -> str | None:
    """The server's password: from the environment variable the config
    names, else the system keyring (``keyring = true``), else `ask`."""
    if not server.user:
        return None
    value = os.environ.get(server.password_env)
    if value is not None:
        return value
    if server.keyring:
        kr = _keyring()
        try:
            value = kr.get_password("pbem", keyring_user(server))
        except Exception as exc:  # no backend, a locked keyring: the backends raise their own kinds
            raise MailError(f"the system keyring could not be read ({type(exc).__name__}: {exc})",
                            hint=f"unlock it, or set {server.password_env} instead") from None
        if value is not None:
            return value
    if ask is None:
        raise MailError(f"a password is needed for {server.where}",
                        hint=f"set {server.password_env}, store it with `pbem mail password`, or run in a terminal")
    return ask(f"Password for {server.where}")


def keyring_user(server: cfg.Server) -> str:
    """The keyring entry of a server's password (service "pbem")."""
    return f"{server.kind}:{server.user}@{server.host}"


def _keyring():
    try:
        import keyring
    except ImportError:
        raise MailError("keyring = true, but the keyring library is not installed",
                        hint="pip install keyring, or set password_env instead") from None
    return keyring


def store_password(home: Path, name: str, kind: str, secret: str) -> str:
    """`pbem mail password`: put a server's password in the system keyring."""
    server = server_settings(home, kind, name, required=True)
    if not server.user:
        raise MailError(f"[{kind}] has no user: there is no password to store")
    try:
        _keyring().set_password("pbem", keyring_user(server), secret)
    except Exception as exc:  # the backends raise their own kinds
        raise MailError(f"the system keyring refused the password: {exc}") from None
    return keyring_user(server)


def server_settings(home: Path, kind: str, name: str, required: bool = False) -> cfg.Server | None:
    path = Path(home) / cfg.CONFIG
    server = cfg.server(cfg.read(home), kind, name, path)
    if server is None and required:
        raise cfg.ConfigError(f"{path} has no [{kind}] table", hint="see docs/config.md")
    return server


def mail_record(home: Path, what: str, game_id: str, name: str) -> Path:
    return Path(home) / "mail" / what / f"{game_id}-{name}.json"


def load_record(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_bytes())
        return data if isinstance(data, dict) else {}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {}  # a damaged record costs at most a file sent or read again


def save_record(path: Path, data: dict[str, Any]) -> None:
    """Replace a record at once (a temporary file renamed). Not synced to
    the disk like a game's files: a record lost in a crash costs a file
    mailed or read again, which the receiving side skips."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(json.dumps(data, sort_keys=True).encode())
        os.replace(tmp, path)
    except OSError as exc:
        raise PbemError(f"cannot write {path}: {exc.strerror}") from None


def folder_game_id(folder: Path) -> str | None:
    """The id of the game in `folder` (None: no game there yet)."""
    from pbem.protocol import codec
    from pbem.gamedir import folder as folder_mod, safe_read

    path = Path(folder) / folder_mod.GENESIS
    if not path.exists():
        return None
    return codec.file_hash(codec.read_envelope(safe_read.read(path), "genesis"))


@dataclass
class Sent:
    """One mail sent: to whom, where, which files."""

    party: str
    address: str
    files: list[str]


def send(folder: Path, name: str, keys, ask: Ask | None = None, again: bool = False,
         notes: list[str] | None = None) -> list[Sent]:
    """Mail each other party of the game in `folder` the files it lacks and
    has not been mailed yet (`again`: everything it lacks)."""
    from pbem.app import opening, sending, turns
    from pbem.gamedir import folder as folder_mod, safe_read
    from pbem.transport import mail

    home = keys.store.home
    gid = folder_game_id(folder)
    if gid is None:
        raise PbemError(f"{folder} holds no game (no {folder_mod.GENESIS})")
    record_path = mail_record(home, "sent", gid, name)
    record = load_record(record_path)
    if not again and _all_had(folder, record):
        return []  # told without replaying the game
    chain = opening.open_game(folder, keys)
    owed = sending.outbox(folder, chain, name)
    todo = []
    everything = {_h(safe_read.read(p)) for ps in folder_mod.chain_files(folder).values() for p in ps}
    for o in owed:
        done = set(record.get(o.party, [])) if not again else set()
        files = [(p, safe_read.read(p)) for p in o.files]
        new = [(p, d) for p, d in files if _h(d) not in done]
        # what a party has or was sent: every file but those it lacks, and those mailed
        record[o.party] = sorted(set(record.get(o.party, [])) | (everything - {_h(d) for _, d in files}))
        if new:
            todo.append((o.party, new))
    record[""] = sorted(p.party for p in owed)
    if not todo:
        save_record(record_path, record)
        return []
    config = cfg.read(home)
    copy = _copy_to_self(config, name)
    sender = cfg.table(config, "mail", name).get("from") or address_of(keys, chain, name)
    if not sender:
        raise MailError(f"no From address for {name}",
                        hint=f"give {name} one: pbem id email {name} ADDRESS (or from = \"...\" in [mail] of config.toml)")
    missing = [party for party, _ in todo if not address_of(keys, chain, party)]
    if missing:
        raise MailError(f"no mail address for {', '.join(missing)}: nothing was sent",
                        hint=f"import their identity files with an address, or: pbem id email "
                             f"{chain.holder(missing[0]).name if missing[0] in chain.handed else missing[0]} ADDRESS")
    server = server_settings(home, "smtp", name, required=True)
    info = turns.status(chain)
    out = []
    with mail.Smtp(server, password(server, ask)) as smtp:
        for party, files in todo:
            address = address_of(keys, chain, party)
            subject, text = _letter(chain, info, name, party, folder, files)
            named = [(p.name, d) for p, d in files]
            smtp.send(mail.message(sender, address, subject, text, named))
            record[party] = sorted(set(record.get(party, [])) | {_h(d) for _, d in files})
            save_record(record_path, record)
            out.append(Sent(party, address, [p.name for p, _ in files]))
        mine = _own_new(chain, folder, name, record) if copy else []
        if mine:
            subject, text = _letter(chain, info, name, name, folder, mine)
            text = (f"Your own copy of the files you mailed. Should you lose your folder of this game, "
                    f"pbem mail fetch NEW-FOLDER --as {name} makes it again from your mail.\n\n" + text)
            smtp.send(mail.message(sender, sender, subject + " (your copy)", text, [(p.name, d) for p, d in mine]))
            record[name] = sorted(set(record.get(name, [])) | {_h(d) for _, d in mine})
            save_record(record_path, record)
            if notes is not None:
                notes.append(f"mailed a copy of {', '.join(p.name for p, _ in mine)} to yourself <{sender}> "
                             "(what pbem mail fetch rebuilds a lost folder from)")
    return out


def address_of(keys, chain, party: str) -> str | None:
    """Where `party` of `chain` gets mail: the address of the identity that
    holds it now (a seat handed over: its newcomer's, never the old player's)."""
    return keys.store.email(chain.holder(party).name if party in chain.handed else party)


def _copy_to_self(config: dict[str, Any], name: str) -> bool:
    """``copy_to_self`` of [mail] (default true): whether `send` mails the
    sender a copy of each file it wrote, so that a fetch into a new folder
    finds the player's own files beside the others' (`pbem.app.rebuild`)."""
    value = cfg.table(config, "mail", name).get("copy_to_self", True)
    if not isinstance(value, bool):
        raise cfg.ConfigError(f"copy_to_self in [mail] must be true or false, not {value!r}")
    return value


def _own_new(chain, folder: Path, name: str, record: dict[str, Any]) -> list[tuple[Path, bytes]]:
    """The files `name` wrote that were mailed to others but not yet to itself."""
    from pbem.gamedir import folder as folder_mod, safe_read

    mailed = set().union(*(set(v) for k, v in record.items() if k not in ("", name)))
    out = []
    for r in chain.records:
        if r.by != name:
            continue
        path = folder / (r.name or folder_mod.turn_name(r.seq, r.by))
        data = safe_read.read(path)
        if _h(data) in mailed and _h(data) not in record.get(name, []):
            out.append((path, data))
    return out


def _all_had(folder: Path, record: dict[str, Any]) -> bool:
    """Every file of the folder already had by (or mailed to) every other party."""
    from pbem.gamedir import folder as folder_mod, safe_read

    parties = record.get("")
    if not parties:
        return False
    files = {_h(safe_read.read(p)) for ps in folder_mod.chain_files(folder).values() for p in ps}
    return all(files <= set(record.get(party, [])) for party in parties)


def _h(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()[:32]


def _letter(chain, info: dict[str, Any], name: str, party: str, folder: Path,
            files: list[tuple[Path, bytes]]) -> tuple[str, str]:
    """The subject and the text of a mail: the game, the seq and the sender;
    whose turn it is; how to take the files in; the armored blocks."""
    from pbem.app import delivery, sending, turns
    from pbem.transport import armor

    gid = chain.game_id[:12]
    top = max(delivery._seq(d) for _, d in files)
    subject = f"[pbem] {chain.game.info.name} {gid} seq {top} from {name}"
    lines = [f"{chain.game.info.title} game {gid}: {name} sends "
             + ", ".join(p.name for p, _ in files) + "."]
    if info.outcome:
        lines.append(f"The game is over: {info.outcome.reason}.")
    else:
        turn = turns.to_act_lines(info)
        mine = [w for w in info.to_act if w.seat == party]
        if mine and mine[0].needs == "decision":
            lines.append(f"It is your turn, {party}.")
        elif turn:
            lines.append("Next: " + "; ".join(turn) + ".")
    has_genesis = any(p.name == "000000-genesis.pbem" for p, _ in files)
    lines.append("")
    if has_genesis:
        lines.append("You are invited to this game. To make your folder of it and take these files in:")
        lines.append(f"    pbem mail fetch NEW-FOLDER --as {party}")
    else:
        lines.append("To take these files in:")
        lines.append(f"    pbem mail fetch YOUR-FOLDER --as {party}")
    lines.append("or save this mail and run: pbem apply YOUR-FOLDER MAIL.eml")
    lines.append("")
    for path, data in files:
        lines.append(armor.armor(data, sending.armor_headers(data, chain.game.info.name)).rstrip("\n"))
        lines.append("")
    return subject, "\n".join(lines)


def remind(folder: Path, name: str, keys, ask: Ask | None, share: int) -> list[str]:
    """Mail the clock's reminders now due in the game in `folder` (a
    reminder to the late seat, a deadline passed to every seat), each once:
    the ones mailed are kept in `name`'s home."""
    from pbem.app import opening, reminders
    from pbem.transport import mail

    chain = opening.open_game(folder, keys)
    record_path = mail_record(keys.store.home, "reminders", chain.game_id, name)
    record = load_record(record_path)
    todo = [r for r in reminders.due(chain, share=share) if r.key not in record]
    if not todo:
        return []
    home = keys.store.home
    sender = cfg.table(cfg.read(home), "mail", name).get("from") or address_of(keys, chain, name)
    server = server_settings(home, "smtp", name, required=True)
    out = []
    with mail.Smtp(server, password(server, ask)) as smtp:
        for r in todo:
            for seat in chain.seat_order if r.late else [r.seat]:
                address = address_of(keys, chain, seat)
                if not address:
                    continue
                text = (f"{r.line}.\n\nGame {chain.game_id[:12]} ({folder.name}). "
                        + ("Its referee acts as the players agreed." if r.late else
                           f"Your move: pbem play DIR --as {seat}"))
                smtp.send(mail.message(sender, address, f"pbem: {r.line}", text, []))
                out.append(f"reminded {seat} <{address}>: {r.line}")
            record[r.key] = True
            save_record(record_path, record)
    return out
