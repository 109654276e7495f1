"""`pbem mail fetch`: the files of a game read out of mail and applied.

`fetch` reads the messages that are new *for this game* (remembered in
``$PBEM_HOME/mail/fetched/``, per game and mailbox, recorded only once a
message's files are applied or kept pending), takes the game's files out
of their bodies and attachments and applies them as `pbem apply` does.
A file of another game is left alone (the message stays in the mailbox
for that game's fetch); a file of this game that no party's key signed
is reported with the mail's sender and never applied. Given a folder
that does not exist yet, `fetch` joins the game whose genesis was mailed
to the identity (`pbem join`), then takes in the rest.

The mailbox itself is never changed (see `pbem.transport.imap`).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pbem.app.mailing import Ask, folder_game_id, load_record, mail_record, password, save_record, server_settings
from pbem.errors import PbemError, SignatureError
from pbem.home import config as cfg
from pbem.transport.mail import MailError


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
    server = server_settings(home, "imap", name)
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
    ids = [folder_game_id(f) for f in folders]
    records = {i: load_record(mail_record(home, "fetched", i, name)) for i in ids if i is not None}
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
            records[gid] = load_record(mail_record(home, "fetched", gid, name))
        _take(Path(folder), gid, name, keys, mine, report, notes)
        if answer:
            _answer(Path(folder), name, keys, report, notes)
        done = set(records[gid].get(where, [])) | {m.key for m in mine}
        records[gid][where] = sorted(done)
        save_record(mail_record(home, "fetched", gid, name), records[gid])
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
    from pbem.app import delivery
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
        item = delivery.as_file(f.where, f.data)
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
    from pbem.app import delivery, opening
    from pbem.gamedir import folder_write
    from pbem.protocol import codec

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
    with folder_write.writing(folder):
        chain = opening.open_game(folder, keys, write=True)
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
            notes.extend(folder_write.tidy(folder, result.chain or chain))
    report.written += result.written
    report.pending += result.pending
    report.bad += result.bad


def _held(chain, data: bytes) -> bool:
    """These exact bytes are in the chain already."""
    from pbem.app import delivery
    from pbem.gamedir import folder_write

    try:
        return delivery.claimed_seq(chain, data) is None or folder_write.already_in(chain, data) is not None
    except PbemError:
        return False


def _answer(folder: Path, name: str, keys, report: "Fetched", notes) -> None:
    """Write what `name` now owes that needs no decision (a join file after
    the seats before it have joined, a peer decryption), as `pbem sync`
    would: the next `mail send` mails it."""
    from pbem.app import opening, writing
    from pbem.errors import PbemError

    try:
        chain = opening.open_game(folder)
        if name in chain.writers() and chain.needs(name) == "auto":
            report.written += writing.sync(folder, name, keys, notes)
    except PbemError as exc:
        if notes is not None:
            notes.append(f"{folder}: {name}'s automatic answer is not written: {exc.message}")


def _join_from_mail(folder: Path, name: str, keys, messages, game: str | None, report: Fetched,
                    notes) -> str | None:
    """Make `folder` from the genesis mailed to `name` and the files that
    follow it (None: none found)."""
    from pbem.app import rebuild, receiving
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
        receiving.join(folder, paths, name, keys)
    report.joined = True
    report.rebuilt = any(codec.read_envelope(one).by == name for one in [data, *files])
    return gid


def _seats(genesis: bytes, name: str) -> bool:
    from pbem.protocol import codec
    from pbem.protocol.formats import GenesisBody

    body = codec.decode_body(codec.read_envelope(genesis), GenesisBody)
    return any(s.name == name for s in body.seats) or (body.dealer is not None and body.dealer.identity.name == name)
