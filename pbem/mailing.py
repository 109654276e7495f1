"""Playing by mail: `pbem mail send`, `pbem mail fetch`, `pbem referee mail`.

Library functions (no click, no printing), built on the outbox and the
inbox of `pbem.delivery` and on the transports (`pbem.transport.mail`,
`pbem.transport.imap`):

* `send` mails each other party the files it lacks (`delivery.outbox`),
  to the address its identity carries (`KeyStore.email`). What went to
  whom is remembered in ``$PBEM_HOME/mail/sent/`` (by the hash of each
  file), recorded after each mail the server accepted: sending again
  mails only what is new, and a send cut off half way mails the rest next
  time (at worst a file twice, which the receiver skips).
* `fetch` reads the messages that are new *for this game* (remembered in
  ``$PBEM_HOME/mail/fetched/``, per game and mailbox, recorded only once a
  message's files are applied or kept pending), takes the game's files out
  of their bodies and attachments and applies them as `pbem apply` does.
  A file of another game is left alone (the message stays in the mailbox
  for that game's fetch); a file of this game that no party's key signed
  is reported with the mail's sender and never applied. Given a folder
  that does not exist yet, `fetch` joins the game whose genesis was mailed
  to the identity (`pbem join`), then takes in the rest.
* `referee` does both for every game under a folder whose referee is the
  identity, answering in between with `actions.sync` (`Party.answer`): it
  needs nobody, and a restart repeats nothing, since what is owed is read
  from the chain and what was sent from the sent records.

The mailbox itself is never changed (see `pbem.transport.imap`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import config as cfg
from pbem.errors import PbemError, SignatureError
from pbem.transport.mail import MailError

Ask = Callable[[str], str]


# --- settings ------------------------------------------------------------------------


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
    server = _server(home, kind, name, required=True)
    if not server.user:
        raise MailError(f"[{kind}] has no user: there is no password to store")
    try:
        _keyring().set_password("pbem", keyring_user(server), secret)
    except Exception as exc:  # the backends raise their own kinds
        raise MailError(f"the system keyring refused the password: {exc}") from None
    return keyring_user(server)


def _server(home: Path, kind: str, name: str, required: bool = False) -> cfg.Server | None:
    path = Path(home) / cfg.CONFIG
    server = cfg.server(cfg.read(home), kind, name, path)
    if server is None and required:
        raise cfg.ConfigError(f"{path} has no [{kind}] table", hint="see docs/config.md")
    return server


# --- remembered: what was sent, what was fetched -----------------------------------------------


def _record_path(home: Path, what: str, game_id: str, name: str) -> Path:
    return Path(home) / "mail" / what / f"{game_id}-{name}.json"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_bytes())
        return data if isinstance(data, dict) else {}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {}  # a damaged record costs at most a file sent or read again


def _save(path: Path, data: dict[str, Any]) -> None:
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


def _game_id(folder: Path) -> str | None:
    """The id of the game in `folder` (None: no game there yet)."""
    from pbem.protocol import codec
    from pbem.protocol import folder as folder_mod

    path = Path(folder) / folder_mod.GENESIS
    if not path.exists():
        return None
    return codec.file_hash(codec.read_envelope(folder_mod.read(path), "genesis"))


# --- sending --------------------------------------------------------------------------------


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
    from pbem import actions, delivery
    from pbem.protocol import folder as folder_mod
    from pbem.transport import mail

    home = keys.store.home
    gid = _game_id(folder)
    if gid is None:
        raise PbemError(f"{folder} holds no game (no {folder_mod.GENESIS})")
    record_path = _record_path(home, "sent", gid, name)
    record = _load(record_path)
    if not again and _all_had(folder, record):
        return []  # told without replaying the game
    chain = actions.open_game(folder, keys)
    owed = delivery.outbox(folder, chain, name)
    todo = []
    everything = {_h(folder_mod.read(p)) for ps in folder_mod.chain_files(folder).values() for p in ps}
    for o in owed:
        done = set(record.get(o.party, [])) if not again else set()
        files = [(p, folder_mod.read(p)) for p in o.files]
        new = [(p, d) for p, d in files if _h(d) not in done]
        # what a party has or was sent: every file but those it lacks, and those mailed
        record[o.party] = sorted(set(record.get(o.party, [])) | (everything - {_h(d) for _, d in files}))
        if new:
            todo.append((o.party, new))
    record[""] = sorted(p.party for p in owed)
    if not todo:
        _save(record_path, record)
        return []
    config = cfg.read(home)
    copy = _copy_to_self(config, name)
    sender = cfg.table(config, "mail", name).get("from") or keys.store.email(name)
    if not sender:
        raise MailError(f"no From address for {name}",
                        hint=f"give {name} one: pbem id email {name} ADDRESS (or from = \"...\" in [mail] of config.toml)")
    missing = [party for party, _ in todo if not keys.store.email(party)]
    if missing:
        raise MailError(f"no mail address for {', '.join(missing)}: nothing was sent",
                        hint=f"import their identity files with an address, or: pbem id email {missing[0]} ADDRESS")
    server = _server(home, "smtp", name, required=True)
    info = actions.status(chain)
    out = []
    with mail.Smtp(server, password(server, ask)) as smtp:
        for party, files in todo:
            address = keys.store.email(party)
            subject, text = _letter(chain, info, name, party, folder, files)
            named = [(p.name, d) for p, d in files]
            smtp.send(mail.message(sender, address, subject, text, named))
            record[party] = sorted(set(record.get(party, [])) | {_h(d) for _, d in files})
            _save(record_path, record)
            out.append(Sent(party, address, [p.name for p, _ in files]))
        mine = _own_new(chain, folder, name, record) if copy else []
        if mine:
            subject, text = _letter(chain, info, name, name, folder, mine)
            text = (f"Your own copy of the files you mailed. Should you lose your folder of this game, "
                    f"pbem mail fetch NEW-FOLDER --as {name} makes it again from your mail.\n\n" + text)
            smtp.send(mail.message(sender, sender, subject + " (your copy)", text, [(p.name, d) for p, d in mine]))
            record[name] = sorted(set(record.get(name, [])) | {_h(d) for _, d in mine})
            _save(record_path, record)
            if notes is not None:
                notes.append(f"mailed a copy of {', '.join(p.name for p, _ in mine)} to yourself <{sender}> "
                             "(what pbem mail fetch rebuilds a lost folder from)")
    return out


def _copy_to_self(config: dict[str, Any], name: str) -> bool:
    """``copy_to_self`` of [mail] (default true): whether `send` mails the
    sender a copy of each file it wrote, so that a fetch into a new folder
    finds the player's own files beside the others' (`pbem.rebuild`)."""
    value = cfg.table(config, "mail", name).get("copy_to_self", True)
    if not isinstance(value, bool):
        raise cfg.ConfigError(f"copy_to_self in [mail] must be true or false, not {value!r}")
    return value


def _own_new(chain, folder: Path, name: str, record: dict[str, Any]) -> list[tuple[Path, bytes]]:
    """The files `name` wrote that were mailed to others but not yet to itself."""
    from pbem.protocol import folder as folder_mod

    mailed = set().union(*(set(v) for k, v in record.items() if k not in ("", name)))
    out = []
    for r in chain.records:
        if r.by != name:
            continue
        path = folder / (r.name or folder_mod.turn_name(r.seq, r.by))
        data = folder_mod.read(path)
        if _h(data) in mailed and _h(data) not in record.get(name, []):
            out.append((path, data))
    return out


def _all_had(folder: Path, record: dict[str, Any]) -> bool:
    """Every file of the folder already had by (or mailed to) every other party."""
    from pbem.protocol import folder as folder_mod

    parties = record.get("")
    if not parties:
        return False
    files = {_h(folder_mod.read(p)) for ps in folder_mod.chain_files(folder).values() for p in ps}
    return all(files <= set(record.get(party, [])) for party in parties)


def _h(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()[:32]


def _letter(chain, info: dict[str, Any], name: str, party: str, folder: Path,
            files: list[tuple[Path, bytes]]) -> tuple[str, str]:
    """The subject and the text of a mail: the game, the seq and the sender;
    whose turn it is; how to take the files in; the armored blocks."""
    from pbem import actions, delivery
    from pbem.transport import armor

    gid = chain.game_id[:12]
    top = max(delivery._seq(d) for _, d in files)
    subject = f"[pbem] {chain.game.info.name} {gid} seq {top} from {name}"
    lines = [f"{chain.game.info.title} game {gid}: {name} sends "
             + ", ".join(p.name for p, _ in files) + "."]
    if info.outcome:
        lines.append(f"The game is over: {info.outcome.reason}.")
    else:
        turn = actions.to_act_lines(info)
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
        lines.append(armor.armor(data, delivery.armor_headers(data, chain.game.info.name)).rstrip("\n"))
        lines.append("")
    return subject, "\n".join(lines)


# --- fetching ---------------------------------------------------------------------------------


@dataclass
class Fetched:
    """What a fetch did for one game folder."""

    folder: Path
    joined: bool = False
    rebuilt: bool = False  # joined with the identity's own files: a lost folder made again
    written: list[Path] = field(default_factory=list)
    pending: list[Path] = field(default_factory=list)
    bad: list[PbemError] = field(default_factory=list)
    strangers: list[str] = field(default_factory=list)
    other_games: int = 0
    invitations: list[str] = field(default_factory=list)
    messages: int = 0


def source(home: Path, name: str, path: Path | None, ask: Ask | None):
    """Where mail is read from: `path` (a maildir or an mbox), else the
    config's [inbox], else its [imap] server."""
    from pbem.transport import imap

    config = cfg.read(home)
    if path is None:
        for key in ("maildir", "mbox"):
            path = cfg.path_value(config, "inbox", key, name)
            if path is not None:
                break
    if path is not None:
        return imap.Local(path)
    server = _server(home, "imap", name)
    if server is None:
        raise cfg.ConfigError(
            f"nowhere to fetch mail from: {Path(home) / cfg.CONFIG} has no [imap] and no [inbox]",
            hint="add them (docs/config.md), or give --from PATH (a maildir or an mbox)",
        )
    return imap.Imap(server, password(server, ask))


def fetch(folders: list[Path], name: str, keys, ask: Ask | None = None, path: Path | None = None,
          game: str | None = None, notes: list[str] | None = None, on_error: list[PbemError] | None = None, answer: bool = True) -> list[Fetched]:
    """Take in the new mail of each game folder in `folders` (a folder with
    no game yet joins the one `name` was invited to; `game`, a prefix of
    its id, chooses when there are several).

    Messages are read once for all the folders. When the connection is lost
    half way, what arrived is still applied and recorded before the error
    is raised (or appended to `on_error`), so the next fetch picks up the rest.
    """
    from pbem.transport import imap

    home = keys.store.home
    ids = [_game_id(f) for f in folders]
    records = {i: _load(_record_path(home, "fetched", i, name)) for i in ids if i is not None}
    got: list[imap.Incoming] = []
    lost: MailError | None = None
    with source(home, name, path, ask) as src:
        where = src.source

        done_sets = {i: set(records[i].get(where, [])) for i in records}

        def new_for_someone(key: str) -> bool:
            return any(i is None or key not in done_sets[i] for i in ids)

        try:
            if isinstance(src, imap.Imap):
                for m in src.messages([u for u in src.uids() if new_for_someone(f"{src.uidvalidity}:{u}")]):
                    got.append(m)
            else:
                got = [m for m in src.all() if new_for_someone(m.key)]
        except MailError as exc:
            lost = exc
    out = []
    for folder, gid in zip(folders, ids):
        done_here = set(records[gid].get(where, [])) if gid is not None else set()
        mine = [m for m in got if m.key not in done_here]
        report = Fetched(Path(folder))
        if gid is None:
            try:
                gid = _join_from_mail(Path(folder), name, keys, mine, game, report, notes)
            except MailError:
                if lost is not None:
                    raise lost from None  # the invitation may be among what did not arrive
                raise
            if gid is None:
                out.append(report)
                continue
            records[gid] = _load(_record_path(home, "fetched", gid, name))
        _take(Path(folder), gid, name, keys, mine, report, notes)
        if answer:
            _answer(Path(folder), name, keys, report, notes)
        done = set(records[gid].get(where, [])) | {m.key for m in mine}
        records[gid][where] = sorted(done)
        _save(_record_path(home, "fetched", gid, name), records[gid])
        out.append(report)
    if lost is not None:
        if on_error is None:
            raise lost
        on_error.append(lost)
    return out


@dataclass
class _File:
    label: str
    sender: str
    subject: str
    data: bytes | None = None
    error: PbemError | None = None
    game_id: str | None = None
    genesis: bool = False


def _files(m) -> list[_File]:
    """Every pbem file of one message, with the message's sender and
    subject, and the game each claims to belong to. A message that cannot
    be read (too large, nested too deep) is one bad file, named with its
    sender: reported, and recorded as read like any other."""
    from pbem import delivery
    from pbem.protocol import codec
    from pbem.protocol.formats import TurnBody
    from pbem.transport import armor

    sender, subject = armor.sender_and_subject(m.data)
    label = f"the mail from {sender}" + (f" ({subject!r})" if subject else "")
    try:
        msg = armor.read_message(m.data, label)
    except armor.BadBlock as exc:
        return [_File(label, sender, subject, error=exc)]
    found, bad = armor.find_in_message(msg, label)
    out = [_File(b.message.split(":", 1)[0], sender, subject, error=b) for b in bad]
    for f in found:
        item = delivery._as_file(f.where, f.data)
        one = _File(item.label, sender, subject, data=item.data, error=item.error)
        if item.data is not None:
            try:
                outer = codec.read_envelope(item.data)
                if outer.kind == "genesis":
                    one.game_id, one.genesis = codec.file_hash(outer), True
                elif outer.kind == "turn":
                    one.game_id = codec.decode_body(outer, TurnBody).game_id
            except PbemError as exc:
                one.data, one.error = None, exc
        out.append(one)
    return out


def _take(folder: Path, gid: str, name: str, keys, messages, report: Fetched, notes) -> None:
    """Apply this game's files among `messages` to `folder` (as `pbem apply`)."""
    from pbem import actions, delivery
    from pbem.protocol import codec
    from pbem.protocol import folder as folder_mod

    files = [f for m in messages for f in _files(m)]
    report.messages = len(messages)
    if not files:
        return
    ours = [f for f in files if f.game_id == gid]
    report.other_games = sum(1 for f in files if f.game_id is not None and f.game_id != gid)
    for f in files:
        if f.genesis and f.game_id != gid:
            report.invitations.append(f.game_id)
    # a damaged block names no game for sure: reported where the same mail
    # holds files of this game, or none of any other
    by_mail: dict[tuple[str, str], set[str | None]] = {}
    for f in files:
        by_mail.setdefault((f.sender, f.subject), set()).add(f.game_id)
    damaged = [f for f in files if f.error is not None and f.game_id is None
               and (gid in by_mail[(f.sender, f.subject)] or by_mail[(f.sender, f.subject)] <= {None})]
    report.bad += [f.error for f in damaged]
    if not ours:
        return
    with folder_mod.writing(folder):
        chain = actions.open_game(folder, keys, write=True)
        items = []
        for f in ours:
            outer = codec.read_envelope(f.data)
            if (outer.by == name or report.joined) and _held(chain, f.data):
                continue  # its own copy, or a file its new folder was just made from: nothing to say
            try:
                codec.check_signature(outer, chain.identity(outer.by))
            except (SignatureError, PbemError):
                report.strangers.append(
                    f"{f.label}: signed by a key your address book does not know (it says it is by "
                    f"{outer.by!r}); sent by {f.sender}; not applied")
                continue
            items.append(delivery.Incoming(f.label, data=f.data))
        result = delivery.receive(folder, chain, items, notes)
        if notes is not None:
            notes.extend(folder_mod.tidy(folder, result.chain or chain))
    report.written += result.written
    report.pending += result.pending
    report.bad += result.bad


def _held(chain, data: bytes) -> bool:
    """These exact bytes are in the chain already."""
    from pbem import delivery
    from pbem.protocol import folder as folder_mod

    try:
        return delivery._place(chain, data) is None or folder_mod.already_in(chain, data) is not None
    except PbemError:
        return False


def _answer(folder: Path, name: str, keys, report: "Fetched", notes) -> None:
    """Write what `name` now owes that needs no decision (a join file after
    the seats before it have joined, a peer decryption), as `pbem sync`
    would: the next `mail send` mails it."""
    from pbem import actions
    from pbem.errors import PbemError

    try:
        chain = actions.open_game(folder)
        if name in chain.writers() and chain.needs(name) == "auto":
            report.written += actions.sync(folder, name, keys, notes)
    except PbemError as exc:
        if notes is not None:
            notes.append(f"{folder}: {name}'s automatic answer is not written: {exc.message}")


def _join_from_mail(folder: Path, name: str, keys, messages, game: str | None, report: Fetched,
                    notes) -> str | None:
    """Make `folder` from the genesis mailed to `name` and the files that
    follow it (None: none found)."""
    from pbem import actions, rebuild
    from pbem.protocol import codec

    mailed = [f for m in messages for f in _files(m)]
    invites: dict[str, bytes] = {}
    for f in mailed:
        if f.genesis and (game is None or f.game_id.startswith(game)) and _seats(f.data, name):
            invites.setdefault(f.game_id, f.data)
    if not invites:
        raise MailError(
            f"{folder} holds no game, and no mail holds the genesis of a game {name} sits in"
            + (f" with an id starting {game}" if game else ""),
            hint="fetch into the folder of a game you play, or wait for the invitation (the referee's or "
                 "creator's pbem mail send)")
    if len(invites) > 1:
        raise MailError(f"mail holds {len(invites)} games {name} is invited to: {', '.join(g[:12] for g in invites)}",
                        hint="choose one with --game ID (the first letters are enough)")
    gid, data = next(iter(invites.items()))
    # the files that follow the genesis: `name`'s own among them (the copies
    # `send` mails to itself) make this a lost folder rebuilt, with no new join
    later = [f.data for f in mailed if f.game_id == gid and not f.genesis and f.data]
    files, gap = rebuild.fitting(data, later)
    if gap:
        raise MailError(
            f"mail holds files of game {gid[:12]} up to seq {gap[-1]}, but none for seq {len(files) + 1}: "
            f"{folder} is not made",
            hint=f"ask another player for the missing file (their pbem outbox), or make the folder from their "
                 f"files: pbem join {folder} THEIR-DIR/0*.pbem --as {name}")
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, one in enumerate([data, *files]):
            paths.append(Path(tmp) / f"{i:06d}.pbem")
            paths[-1].write_bytes(one)
        actions.join(folder, paths, name, keys)
    report.joined = True
    report.rebuilt = any(codec.read_envelope(one).by == name for one in [data, *files])
    return gid


def _seats(genesis: bytes, name: str) -> bool:
    from pbem.protocol import codec
    from pbem.protocol.formats import GenesisBody

    body = codec.decode_body(codec.read_envelope(genesis), GenesisBody)
    return any(s.name == name for s in body.seats) or (body.dealer is not None and body.dealer.identity.name == name)


# --- the referee -----------------------------------------------------------------------------


def refereed(tree: Path, name: str) -> list[Path]:
    """Every game folder under `tree` whose referee is `name`."""
    from pbem import delivery
    from pbem.protocol import folder as folder_mod

    out = []
    tree = Path(tree)
    if not tree.is_dir():
        raise PbemError(f"{tree} is not a folder")
    for genesis in sorted(tree.rglob(folder_mod.GENESIS)):
        if delivery.PENDING in genesis.parts:
            continue
        try:
            body = delivery.folder_genesis(genesis.parent)
        except PbemError:
            continue
        if body.dealer is not None and body.dealer.mode == "referee" and body.dealer.identity.name == name:
            out.append(genesis.parent)
    return out


@dataclass
class RefereeRound:
    """One round of `pbem referee mail`."""

    games: list[Path] = field(default_factory=list)
    fetched: list[Fetched] = field(default_factory=list)
    answered: dict[Path, list[Path]] = field(default_factory=dict)
    sent: dict[Path, list[Sent]] = field(default_factory=dict)
    errors: list[PbemError] = field(default_factory=list)
    #: the clock's reminders mailed, in words
    reminded: list[str] = field(default_factory=list)


def referee(tree: Path, name: str, keys, ask: Ask | None = None, path: Path | None = None,
            notes: list[str] | None = None, memo: dict[Path, Any] | None = None,
            remind_at: int = 75) -> RefereeRound:
    """Fetch, answer every obligation of `name` in every game it referees
    under `tree`, send. A failure in one game is reported and the others
    go on; a lost connection still lets what arrived be answered and sent.

    `memo` (kept by a caller that runs rounds in a loop) remembers the
    files of each folder when it was last answered: a folder that has not
    changed since owes nothing new, and is not replayed (a restart, with an
    empty memo, looks at every game once)."""
    from pbem import actions

    rnd = RefereeRound(games=refereed(tree, name))
    if not rnd.games:
        return rnd
    try:
        rnd.fetched = fetch(rnd.games, name, keys, ask, path, notes=notes, on_error=rnd.errors, answer=False)
    except PbemError as exc:
        rnd.errors.append(exc)
    for folder in rnd.games:
        try:
            files = _listing(folder)
            if memo is not None and memo.get(folder) == files and not _paced(folder):
                rnd.answered[folder] = []
                continue
            rnd.answered[folder] = actions.sync(folder, name, keys, notes)
            if memo is not None:
                memo[folder] = _listing(folder)
        except PbemError as exc:
            rnd.errors.append(type(exc)(f"{folder}: {exc.message}", exc.hint))
    for folder in rnd.games:
        try:
            rnd.sent[folder] = send(folder, name, keys, ask, notes=notes)
            if _paced(folder):
                rnd.reminded += remind(folder, name, keys, ask, remind_at)
        except PbemError as exc:
            rnd.errors.append(type(exc)(f"{folder}: {exc.message}", exc.hint))
    return rnd


def _paced(folder: Path) -> bool:
    """Whether the game in `folder` has an agreed pace (its clocks need
    the referee even when no file arrived)."""
    from pbem import delivery

    return delivery.folder_genesis(folder).pace is not None


def remind(folder: Path, name: str, keys, ask: Ask | None, share: int) -> list[str]:
    """Mail the clock's reminders now due in the game in `folder` (a
    reminder to the late seat, a deadline passed to every seat), each once:
    the ones mailed are kept in `name`'s home."""
    from pbem import actions, reminders
    from pbem.transport import mail

    chain = actions.open_game(folder, keys)
    record_path = _record_path(keys.store.home, "reminders", chain.game_id, name)
    record = _load(record_path)
    todo = [r for r in reminders.due(chain, share=share) if r.key not in record]
    if not todo:
        return []
    home = keys.store.home
    sender = cfg.table(cfg.read(home), "mail", name).get("from") or keys.store.email(name)
    server = _server(home, "smtp", name, required=True)
    out = []
    with mail.Smtp(server, password(server, ask)) as smtp:
        for r in todo:
            for seat in chain.seat_order if r.late else [r.seat]:
                address = keys.store.email(seat)
                if not address:
                    continue
                text = (f"{r.line}.\n\nGame {chain.game_id[:12]} ({folder.name}). "
                        + ("Its referee acts as the players agreed." if r.late else
                           f"Your move: pbem play DIR --as {seat}"))
                smtp.send(mail.message(sender, address, f"pbem: {r.line}", text, []))
                out.append(f"reminded {seat} <{address}>: {r.line}")
            record[r.key] = True
            _save(record_path, record)
    return out


def _listing(folder: Path) -> frozenset[tuple[str, int, int]]:
    """The chain files of a folder, by name, size and time of change."""
    from pbem.protocol import folder as folder_mod

    out = set()
    for paths in folder_mod.chain_files(folder).values():
        for p in paths:
            st = p.stat()
            out.add((p.name, st.st_size, st.st_mtime_ns))
    return frozenset(out)
