"""Playing by mail (`pbem mail send|fetch`, `pbem referee mail`) through
real servers on loopback: aiosmtpd for SMTP (delivering into a maildir per
address, as a local mail server does) and, where it is installed,
dovecot for IMAP over TLS. Three people, three homes, three folders."""

from __future__ import annotations

import email
import email.policy
import random
import shutil
import time
from pathlib import Path

import pytest

from conftest import Pbem, snapshot
from mailservers import CutProxy, Dovecot, Smtp, maildir
from pbem.app import creating, handing, mail_fetch, mail_referee, mailing, opening, reading, receiving, turns, writing
from pbem.app.opening import Keys
from pbem.home.store import KeyStore
from pbem.protocol import codec
from pbem.gamedir import folder as folder_mod, safe_read
from pbem.transport import armor
from pbem.transport.mail import MailError

ADDR = {n: f"{n}@example.org" for n in ("alice", "bob", "rita", "mallory", "carol")}


@pytest.fixture
def smtp(tmp_path):
    server = Smtp(tmp_path / "spool")
    yield server
    server.stop()


def config(home: Path, smtp_port: int, inbox: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\nsecurity = "plain"\n\n{inbox}\n')


def people(tmp_path: Path, smtp: Smtp, names=("alice", "bob", "rita"), inbox=None) -> dict[str, Keys]:
    """A home per person, each with an address, each knowing the others'
    identity files (which carry the addresses), mail to a maildir of its own."""
    keys = {}
    for n in names:
        store = KeyStore(tmp_path / f"home-{n}")
        store.create(n, None, ADDR[n])
        keys[n] = Keys(store, lambda: "")
        box = maildir(smtp.root / ADDR[n])
        config(store.home, smtp.port, inbox(n) if inbox else f'[inbox]\nmaildir = "{box}"')
    for n in names:
        for other in names:
            if other != n:
                keys[n].store.import_identity(keys[other].store.export(other))
    return keys


def new_referee_game(tmp_path: Path, keys, name="g") -> Path:
    folder = tmp_path / "rita" / name
    creating.new_game("aa", folder, ["alice", "bob"], keys["rita"], "referee", "rita")
    return folder


def bot_turn(folder: Path, who: str, keys: Keys, rng: random.Random) -> list[Path]:
    """Whatever `who` owes: an automatic answer, or a random bot's move."""
    chain = opening.open_game(folder)
    if who not in chain.writers():
        return []
    if chain.needs(who) == "auto":
        return writing.sync(folder, who, keys)
    me = opening.party(chain, who, keys)
    state = me.state()
    game = chain.game
    command = game.presentation.bots["random"](game, state, who, rng)
    return writing.submit(folder, who, [game.presentation.format(command, state, who)], keys)


# --- identities with an address ------------------------------------------------------


def test_identity_carries_an_address(tmp_path):
    a, b = Pbem(tmp_path / "ha"), Pbem(tmp_path / "hb")
    r = a("id", "new", "alice", "--no-passphrase", "--email", "alice@example.org")
    assert "mail: alice@example.org" in r.stdout
    a("id", "export", "alice", "-o", tmp_path / "alice.id")
    b("id", "new", "bob", "--no-passphrase")
    b("id", "import", tmp_path / "alice.id")
    assert "<alice@example.org>" in b("id", "list").stdout
    assert "invalid mail address" in a.fails("id", "new", "carol", "--no-passphrase", "--email", "no address").stderr
    assert not (tmp_path / "ha" / "keys" / "carol.key").exists()
    # an address set locally for another player wins; one's own is signed again
    b("id", "email", "alice", "alice@home.example")
    assert KeyStore(tmp_path / "hb").email("alice") == "alice@home.example"
    a("id", "email", "alice", "alice@new.example")
    a("id", "export", "alice", "-o", tmp_path / "alice2.id")
    b("id", "import", tmp_path / "alice2.id")  # the same key, a newer card: taken
    store = KeyStore(tmp_path / "hb")
    (store.ids_dir / "alice.email").unlink()
    assert store.email("alice") == "alice@new.example"


def test_identity_file_without_address_is_as_before(tmp_path):
    """An identity file made before addresses existed reads the same, and a
    card without an address is byte for byte the old body."""
    import msgspec

    from pbem.crypto.encoding import FORMAT, canonical, encode_file
    from pbem.crypto.keys import IDENTITY_DOMAIN, IdentityFile, SecretIdentity, identity_file, read_identity_card

    alice = SecretIdentity.generate("alice")
    body = canonical(alice.public)  # the body as every earlier version wrote it
    old = encode_file(IdentityFile(FORMAT, "identity", "alice", msgspec.Raw(body), alice.sign(IDENTITY_DOMAIN, body)))
    assert identity_file(alice) == old
    assert read_identity_card(old).email is None and read_identity_card(old).public == alice.public
    with_address = identity_file(alice, "alice@example.org")
    assert read_identity_card(with_address).public == alice.public
    assert read_identity_card(with_address).email == "alice@example.org"


# --- send and fetch ---------------------------------------------------------------


def test_send_and_fetch_a_referee_game(tmp_path, smtp):
    keys = people(tmp_path, smtp)
    g = new_referee_game(tmp_path, keys)
    sent = mailing.send(g, "rita", keys["rita"])
    assert sorted((s.party, s.address, s.files) for s in sent) == [
        ("alice", ADDR["alice"], ["000000-genesis.pbem"]), ("bob", ADDR["bob"], ["000000-genesis.pbem"])]
    assert mailing.send(g, "rita", keys["rita"]) == []  # nothing new: nothing mailed twice
    mails = {rcpts[0]: email.message_from_bytes(raw, policy=email.policy.default) for rcpts, raw in smtp.received}
    gid = opening.open_game(g).game_id
    for who in ("alice", "bob"):
        msg = mails[ADDR[who]]
        assert msg["Subject"] == f"[pbem] agent-avenue {gid[:12]} seq 0 from rita"
        assert msg["From"] == ADDR["rita"]
        assert [p.get_filename() for p in msg.iter_attachments()] == ["000000-genesis.pbem"]
        text = msg.get_body(("plain",)).get_content()
        assert armor.BEGIN in text and f"pbem mail fetch NEW-FOLDER --as {who}" in text
    # a referee game is dealt once every seat has joined: alice joins first
    assert "alice must join" in mails[ADDR["alice"]].get_body(("plain",)).get_content()
    assert "Next: alice must join" in mails[ADDR["bob"]].get_body(("plain",)).get_content()

    ga, gb = tmp_path / "alice" / "g", tmp_path / "bob" / "g"
    report = mail_fetch.fetch([ga], "alice", keys["alice"])[0]
    assert report.joined and (ga / folder_mod.GENESIS).read_bytes() == (g / folder_mod.GENESIS).read_bytes()
    before = snapshot(ga)
    again = mail_fetch.fetch([ga], "alice", keys["alice"])[0]  # fetching twice is harmless
    assert again.messages == 0 and not again.written and snapshot(ga) == before

    sent = mailing.send(ga, "alice", keys["alice"])  # her join file, with her contribution
    assert {s.party: s.files for s in sent} == {"rita": ["000001-alice.pbem"],
                                                 "bob": ["000000-genesis.pbem", "000001-alice.pbem"]}
    last = email.message_from_bytes(smtp.received[-1][1], policy=email.policy.default)
    assert "seq 1 from alice" in last["Subject"]

    rnd = mail_referee.referee(tmp_path / "rita", "rita", keys["rita"])
    assert rnd.games == [g] and not rnd.errors
    assert [p.name for p in rnd.fetched[0].written] == ["000001-alice.pbem"]
    report = mail_fetch.fetch([gb], "bob", keys["bob"])[0]
    assert report.joined  # and his join file, written after alice's
    to_rita = [s.files for s in mailing.send(gb, "bob", keys["bob"]) if s.party == "rita"]
    assert to_rita and "000002-bob.pbem" in to_rita[0]
    rnd = mail_referee.referee(tmp_path / "rita", "rita", keys["rita"])  # the deal
    assert rnd.answered[g] and rnd.sent[g]
    again = mail_referee.referee(tmp_path / "rita", "rita", keys["rita"])  # a restart repeats nothing
    assert not again.answered[g] and not again.sent[g] and not again.fetched[0].written
    for who in ("alice", "bob"):
        mail_fetch.fetch([tmp_path / who / "g"], who, keys[who])
    assert folder_mod.load(ga).head == folder_mod.load(gb).head == folder_mod.load(g).head
    assert folder_mod.load(ga).dealt
    rng = random.Random(1)
    first = folder_mod.load(ga).writers()[0]
    assert bot_turn(tmp_path / first / "g", first, keys[first], rng)


def test_mail_for_a_seat_handed_over_goes_to_the_newcomer(tmp_path, smtp):
    """bob hands his seat to carol (whose identity file, with her address,
    only he imported): the handover carries her address (which she signed
    with her acceptance, protocol version 7), rita's address
    book takes it with her key, and rita's mail for seat bob goes to carol,
    never to bob; carol's own mail leaves from her address."""
    keys = people(tmp_path, smtp)
    store = KeyStore(tmp_path / "home-carol")
    store.create("carol", None, ADDR["carol"])
    keys["carol"] = Keys(store, lambda: "")
    config(store.home, smtp.port, f'[inbox]\nmaildir = "{maildir(smtp.root / ADDR["carol"])}"')
    for n in ("alice", "bob", "rita"):
        store.import_identity(keys[n].store.export(n))
    keys["bob"].store.import_identity(store.export("carol"))
    dirs = {n: tmp_path / n / "g" for n in ("rita", "alice", "bob")}
    creating.new_game("aa", dirs["rita"], ["alice", "bob"], keys["rita"], "referee", "rita")
    for n in ("alice", "bob"):
        receiving.join(dirs[n], [dirs["rita"] / folder_mod.GENESIS], n, keys[n])
    rng = random.Random(3)
    for _ in range(100):  # local play (files copied) until bob is to decide
        for d in dirs.values():
            for other in dirs.values():
                receiving.apply_files(d, sorted(other.glob("0*.pbem")))
        chain = folder_mod.load(dirs["rita"])
        if chain.dealt and chain.writers() == ["bob"] and chain.needs("bob") == "decision":
            break
        who = chain.writers()[0]
        bot_turn(dirs[who], who, keys[who], rng)
    shutil.copytree(dirs["bob"], tmp_path / "carol" / "bob-files")  # mailed to carol, who signs she takes the seat
    accepted = handing.accept(tmp_path / "carol" / "bob-files", "carol", keys["carol"], "bob",
                              output=tmp_path / "carol-accepts-bob.pbem").path  # with her address, mailed to bob
    handed = writing.handover(dirs["bob"], "bob", str(accepted), keys["bob"])
    assert keys["alice"].store.email("carol") is None
    for n in ("alice", "rita"):
        receiving.apply_files(dirs[n], handed, keys[n])
    assert keys["alice"].store.email("carol") == ADDR["carol"]  # on the handover's word, with her key
    dirs["carol"] = tmp_path / "carol" / "g"
    receiving.join(dirs["carol"], sorted(dirs["bob"].glob("0*.pbem")), "bob", keys["carol"])
    keys["bob"] = keys.pop("carol")  # seat bob: carol, with her own home
    dirs["bob"] = dirs.pop("carol")
    while True:  # carol moves; then someone else writes a file seat bob lacks
        chain = folder_mod.load(dirs["rita"])
        who = chain.writers()[0]
        written = bot_turn(dirs[who], who, keys[who], rng)
        for n in dirs:
            receiving.apply_files(dirs[n], written, keys[n]) if n != who else None
        if who != "bob":
            break
    smtp.received.clear()
    sent = {s.party: s.address for s in mailing.send(dirs[who], who, keys[who])}
    assert sent == {"bob": ADDR["carol"], **({"alice": ADDR["alice"]} if who == "rita" else {"rita": ADDR["rita"]})}
    assert not [rcpts for rcpts, _ in smtp.received if ADDR["bob"] in rcpts]
    smtp.received.clear()
    assert mailing.send(dirs["bob"], "bob", keys["bob"])  # carol's own files leave from her address
    assert {email.message_from_bytes(raw, policy=email.policy.default)["From"] for _, raw in smtp.received} \
        == {ADDR["carol"]}


def test_cli_mail_send_fetch_and_referee(tmp_path, smtp, monkeypatch):
    keys = people(tmp_path, smtp)
    g = new_referee_game(tmp_path, keys)
    run = {n: Pbem(keys[n].store.home) for n in keys}
    r = run["rita"]("mail", "send", g, "--as", "rita")
    assert f"mailed alice <{ADDR['alice']}>: 000000-genesis.pbem" in r.stdout
    assert "nothing new to mail" in run["rita"]("mail", "send", g, "--as", "rita").stdout
    ga = tmp_path / "alice" / "g"
    r = run["alice"]("mail", "fetch", ga, "--as", "alice")
    assert "joined the game" in r.stdout and "next: bob must join" in r.stdout  # alice's join is written
    run["alice"]("mail", "send", ga, "--as", "alice")
    gb = tmp_path / "bob" / "g"
    run["bob"]("mail", "fetch", gb, "--as", "bob")  # joins, and writes his join after alice's
    assert "mailed rita" in run["bob"]("mail", "send", gb, "--as", "bob").stdout
    r = run["rita"]("referee", "mail", tmp_path / "rita", "--as", "rita")
    assert "000002-bob.pbem" in r.stdout and "000003-rita.pbem" in r.stdout and "mailed alice" in r.stdout
    r = run["rita"]("referee", "mail", tmp_path / "rita", "--as", "rita")
    assert "mailed" not in r.stdout and "000003" not in r.stdout
    # the deal arrives: whoever must decide first is notified, once
    for who, folder in (("alice", ga), ("bob", gb)):
        note = tmp_path / f"notified-{who}"
        run[who]("mail", "fetch", folder, "--as", who, "--notify-cmd", f'echo "$PBEM_GAME $PBEM_NEEDS" >> {note}')
    first = folder_mod.load(ga).writers()[0]
    assert (tmp_path / f"notified-{first}").read_text() == "agent-avenue decision\n"
    assert not any((tmp_path / f"notified-{w}").exists() for w in ("alice", "bob") if w != first)


@pytest.mark.parametrize("game,seats,options,dealer", [
    ("aa", ["alice", "bob"], [], "referee"),
    ("codenames", ["alice:a", "bob:b"], ["variant=duet"], "referee"),
    ("aa", ["alice", "bob"], [], "peer"),
])
def test_a_whole_game_by_mail_only(tmp_path, smtp, game, seats, options, dealer):
    """Under a referee (Agent Avenue, Codenames Duet) or none (Agent Avenue
    peer), two bot players and the referee each in a folder of their own,
    every file travelling by SMTP into maildirs."""
    keys = people(tmp_path, smtp)
    folders = {"alice": tmp_path / "alice" / "g", "bob": tmp_path / "bob" / "g"}
    if dealer == "referee":
        g = tmp_path / "rita" / "g"
        creating.new_game(game, g, seats, keys["rita"], "referee", "rita", options=options)
        folders["rita"] = g
        mailing.send(g, "rita", keys["rita"])
    else:
        g = folders["alice"]
        creating.new_game(game, g, seats, keys["alice"], "peer", creator="alice", options=options)
        mailing.send(g, "alice", keys["alice"])
    rng = random.Random(7)
    start = time.monotonic()
    memo: dict = {}
    seen: dict = {}
    for _ in range(300):
        if dealer == "referee":
            mail_referee.referee(tmp_path / "rita", "rita", keys["rita"], memo=memo)
        for who in ("alice", "bob"):
            mail_fetch.fetch([folders[who]], who, keys[who])
            listing = mail_referee.chain_listing(folders[who]) if folders[who].exists() else None
            if listing == seen.get(who):
                continue  # nothing arrived: nothing can be owed
            bot_turn(folders[who], who, keys[who], rng)
            mailing.send(folders[who], who, keys[who])  # the move, or the join fetch wrote
            seen[who] = mail_referee.chain_listing(folders[who])
        if not all(f.exists() for f in folders.values()):
            continue
        tops = {max(folder_mod.chain_files(f)) for f in folders.values()}
        if len(tops) == 1 and opening.open_game(g).outcome() is not None:
            break
    else:  # where it stood, for whoever meets this
        where = {who: (folder_mod.load(f).seq, turns.to_act_lines(turns.status(folder_mod.load(f))))
                 for who, f in folders.items() if f.exists()}
        raise AssertionError(f"the game did not end by mail: {where}")
    heads = {folder_mod.load(f).head for f in folders.values()}
    assert len(heads) == 1
    assert reading.audit(folders["alice"]).ok
    assert time.monotonic() - start < 120  # about 5-20 s on an idle machine


# --- bad input -------------------------------------------------------------------------


def _mail(sender: str, to: str, subject: str, text: str, files=()) -> bytes:
    from pbem.transport.mail import message

    return message(sender, to, subject, text, list(files)).as_bytes()


def _deliver(smtp: Smtp, to: str, raw: bytes) -> None:
    smtp.to_maildir(to, raw)


def test_mangled_block_stranger_key_and_other_game(tmp_path, smtp):
    keys = people(tmp_path, smtp, names=("alice", "bob", "rita", "mallory"))
    g = new_referee_game(tmp_path, keys)
    mailing.send(g, "rita", keys["rita"])
    ga = tmp_path / "alice" / "g"
    mail_fetch.fetch([ga], "alice", keys["alice"])  # alice joins: her join file, the game's seq 1
    first = ga / "000001-alice.pbem"
    data = first.read_bytes()
    block = armor.armor(data, {"Seq": "1", "Writer": "alice"})
    lines = block.splitlines()
    lines[5] = lines[5][:10] + ("A" if lines[5][10] != "A" else "B") + lines[5][11:]
    _deliver(smtp, ADDR["rita"], _mail(ADDR["bob"], ADDR["rita"], "[pbem] mangled", "\n".join(lines)))
    # the same turn, signed by mallory's key though it says it is alice's
    outer = codec.read_envelope(data)
    from pbem.crypto.sign import domain

    forged_sig = keys["mallory"].secret("mallory").sign(domain("turn"), codec.body_bytes(outer))
    forged = data.replace(outer.sig.encode(), forged_sig.encode())
    _deliver(smtp, ADDR["rita"], _mail(ADDR["mallory"], ADDR["rita"], "[pbem] hello", "see attached",
                                       [("000001-alice.pbem", forged)]))
    # a file of another game
    other = new_referee_game(tmp_path, keys, "other")
    other_turn = safe_read.read(other / folder_mod.GENESIS)
    _deliver(smtp, ADDR["rita"], _mail(ADDR["bob"], ADDR["rita"], "[pbem] other", armor.armor(other_turn)))
    before = snapshot(g)
    report = mail_fetch.fetch([g], "rita", keys["rita"])[0]
    assert snapshot(g) == before  # nothing applied
    assert len(report.bad) == 1 and "failed its checksum" in report.bad[0].message
    assert ADDR["bob"] in report.bad[0].message
    assert len(report.strangers) == 1
    assert ADDR["mallory"] in report.strangers[0] and "'alice'" in report.strangers[0]
    assert report.other_games == 1
    # the other game's fetch still finds its mail; this one reports nothing twice
    assert not mail_fetch.fetch([g], "rita", keys["rita"])[0].strangers
    assert mail_fetch.fetch([other], "rita", keys["rita"])[0].messages == 4  # with rita's copy of her genesis
    # the real file then applies
    _deliver(smtp, ADDR["rita"], _mail(ADDR["alice"], ADDR["rita"], "[pbem] turn", armor.armor(data)))
    assert [p.name for p in mail_fetch.fetch([g], "rita", keys["rita"])[0].written] == ["000001-alice.pbem"]


def test_cli_fetch_reports_a_stranger_and_exits_1(tmp_path, smtp):
    keys = people(tmp_path, smtp, names=("alice", "bob", "rita", "mallory"))
    g = new_referee_game(tmp_path, keys)
    genesis = safe_read.read(g / folder_mod.GENESIS)
    outer = codec.read_envelope(genesis)
    from pbem.crypto.sign import domain

    forged = genesis.replace(outer.sig.encode(), keys["mallory"].secret("mallory").sign(
        domain("genesis"), codec.body_bytes(outer)).encode())
    mailing.send(g, "rita", keys["rita"])
    ga = tmp_path / "alice" / "g"
    mail_fetch.fetch([ga], "alice", keys["alice"])
    _deliver(smtp, ADDR["alice"], _mail(ADDR["mallory"], ADDR["alice"], "[pbem] again", armor.armor(forged)))
    run = Pbem(keys["alice"].store.home)
    r = run.fails("mail", "fetch", ga, "--as", "alice")
    assert "pbem: refused:" in r.stderr and ADDR["mallory"] in r.stderr and "not applied" in r.stderr
    assert "next: bob must join" in run("mail", "fetch", ga, "--as", "alice").stdout  # reported once


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_smtp_login_refused(tmp_path, monkeypatch):
    server = Smtp(tmp_path / "spool", refuse_login=True)
    try:
        keys = people(tmp_path, server)
        home = keys["rita"].store.home
        (home / "config.toml").write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {server.port}\nsecurity = "plain"\nuser = "rita"\n')
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "wrong")
        g = new_referee_game(tmp_path, keys)
        with pytest.raises(MailError, match="refused the login"):
            mailing.send(g, "rita", keys["rita"])
        assert not (home / "mail" / "sent").exists()  # nothing recorded: the next send mails it all
        assert "refused the login" in Pbem(home).fails("mail", "send", g, "--as", "rita").stderr
    finally:
        server.stop()


def test_config_is_checked(tmp_path, smtp):
    keys = people(tmp_path, smtp)
    g = new_referee_game(tmp_path, keys)
    home = keys["rita"].store.home
    run = Pbem(home)
    for text, said in [
        ('[smtp]\nhost = "mail.example.org"\npassword = "hunter2"\n', "never reads passwords"),
        ('[smtp]\nhost = "mail.example.org"\nsecurity = "plain"\n', "only for a server on this machine"),
        ('[smtp]\nhost = "mail.example.org"\nprot = 25\n', "unknown key 'prot'"),
        ('[smpt]\nhost = "x"\n', "unknown table [smpt]"),
        ('[smtp\n', "not valid TOML"),
    ]:
        (home / "config.toml").write_text(text)
        assert said in run.fails("mail", "send", g, "--as", "rita").stderr
    (home / "config.toml").write_text("")
    assert "has no [smtp]" in run.fails("mail", "send", g, "--as", "rita").stderr
    (keys["rita"].store.ids_dir / "alice.email").write_text("nonsense\n")
    assert "no valid mail address" in run.fails("mail", "send", g, "--as", "rita").stderr


def test_fetch_from_an_mbox(tmp_path, smtp):
    keys = people(tmp_path, smtp)
    g = new_referee_game(tmp_path, keys)
    mailing.send(g, "rita", keys["rita"])
    mbox = tmp_path / "saved.mbox"
    import mailbox

    box = mailbox.mbox(str(mbox))
    for _, raw in smtp.received:
        box.add(raw)
    box.close()
    ga = tmp_path / "alice" / "g"
    assert mail_fetch.fetch([ga], "alice", keys["alice"], path=mbox)[0].joined
    assert mail_fetch.fetch([ga], "alice", keys["alice"], path=mbox)[0].messages == 0


# --- IMAP (dovecot) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def dovecot():
    server = Dovecot(["alice", "bob", "rita"])
    yield server
    server.stop()


_FOLDERS = iter(range(1000))


def imap_people(tmp_path, smtp_root, dovecot, port=None):
    """People whose mail the SMTP server hands to dovecot (IMAP APPEND into
    a folder of this test), and who fetch over IMAPS."""
    folder = f"t{next(_FOLDERS)}"
    for user in ("alice", "bob", "rita"):
        c = dovecot.connect(user)
        c.create(folder)
        c.logout()
    server = Smtp(smtp_root, deliver=lambda rcpt, raw: dovecot.append(rcpt.split("@")[0], raw, folder))

    def inbox(n):
        return (f'[imap]\nhost = "127.0.0.1"\nport = {port or dovecot.port}\nuser = "{n}"\n'
                f'cafile = "{dovecot.cert}"\nfolder = "{folder}"\n')

    return server, people(tmp_path, server, inbox=inbox)


def test_imap_fetch_login_refused_and_connection_dropped(tmp_path, dovecot, monkeypatch):
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", Dovecot.PASSWORD)
    server, keys = imap_people(tmp_path, tmp_path / "spool", dovecot)
    try:
        g = new_referee_game(tmp_path, keys)
        mailing.send(g, "rita", keys["rita"])
        ga, gb = tmp_path / "alice" / "g", tmp_path / "bob" / "g"
        assert mail_fetch.fetch([ga], "alice", keys["alice"])[0].joined
        rng = random.Random(5)
        bot_turn(ga, "alice", keys["alice"], rng)
        mailing.send(ga, "alice", keys["alice"])
        # bob's mailbox now holds 2 mails; his connection is cut after the first
        c = dovecot.connect("bob")
        c.select(f'"{_folder_of(keys["bob"])}"', readonly=True)
        sizes = c.uid("FETCH", "1:*", "(RFC822.SIZE)")[1]
        c.logout()
        first = int(sizes[0].split(b"RFC822.SIZE ")[1].split(b")")[0])
        proxy = CutProxy(dovecot.port, limit=first + 4000)  # greeting, login, search: a few kB
        try:
            (keys["bob"].store.home / "config.toml").write_text(
                (keys["bob"].store.home / "config.toml").read_text().replace(f"port = {dovecot.port}", f"port = {proxy.port}"))
            with pytest.raises(MailError, match="lost"):
                mail_fetch.fetch([gb], "bob", keys["bob"])
        finally:
            proxy.stop()
        (keys["bob"].store.home / "config.toml").write_text(
            (keys["bob"].store.home / "config.toml").read_text().replace(f"port = {proxy.port}", f"port = {dovecot.port}"))
        got = gb.exists() and folder_mod.load(gb).seq or 0
        report = mail_fetch.fetch([gb], "bob", keys["bob"])[0]  # picks up the rest
        ha, hb = folder_mod.load(ga), folder_mod.load(gb)
        assert hb.records[ha.seq].hash == ha.head  # every file alice sent (then bob's own join)
        assert got < folder_mod.load(ga).seq and report.messages >= 1
        assert mail_fetch.fetch([gb], "bob", keys["bob"])[0].messages == 0
        # last (dovecot slows the next logins down after a failed one)
        monkeypatch.setenv("PBEM_IMAP_PASSWORD", "wrong")
        before = snapshot(gb)
        with pytest.raises(MailError, match="refused the login"):
            mail_fetch.fetch([gb], "bob", keys["bob"])
        assert snapshot(gb) == before
    finally:
        server.stop()


def _folder_of(keys: Keys) -> str:
    text = (keys.store.home / "config.toml").read_text()
    return text.split('folder = "')[1].split('"')[0]


def test_password_from_env_keyring_or_nowhere(tmp_path, monkeypatch):
    import sys

    from pbem.home import config as cfg

    home = tmp_path / "h"
    home.mkdir()
    (home / "config.toml").write_text('[smtp]\nhost = "smtp.example.org"\nuser = "alice"\nkeyring = true\n')
    server = cfg.server(cfg.read(home), "smtp", "alice", home / "config.toml")
    assert (server.port, server.security) == (587, "starttls")
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "from-env")
    assert mailing.password(server, None) == "from-env"
    monkeypatch.delenv("PBEM_SMTP_PASSWORD")
    monkeypatch.setitem(sys.modules, "keyring", None)  # the library absent
    with pytest.raises(MailError, match="keyring library is not installed"):
        mailing.password(server, None)
    monkeypatch.delitem(sys.modules, "keyring")
    keyring = pytest.importorskip("keyring", reason="the keyring library is not installed (optional: pip install keyring)")
    from keyring.backend import KeyringBackend

    class Memory(KeyringBackend):
        priority = 1
        held: dict = {}

        def get_password(self, service, user):
            return self.held.get((service, user))

        def set_password(self, service, user, password):
            self.held[(service, user)] = password

        def delete_password(self, service, user):
            self.held.pop((service, user), None)

    old = keyring.get_keyring()
    keyring.set_keyring(Memory())
    try:
        assert mailing.password(server, lambda prompt: "typed") == "typed"  # not stored: asked
        assert mailing.store_password(home, "alice", "smtp", "kept") == "smtp:alice@smtp.example.org"
        assert mailing.password(server, None) == "kept"
    finally:
        keyring.set_keyring(old)


def test_imap_strangers_mail_is_named_and_the_honest_turn_applied(tmp_path, dovecot, monkeypatch):
    """A stranger mails the referee and a player a MIME message nested 2,000
    deep, one whose From is 20,000 ``(`` and one larger than pbem reads,
    beside the honest files. `pbem referee mail` and `pbem mail fetch`
    name each with its sender, apply the honest files, and do not report
    them again (they are recorded as read)."""
    import hostile_mail

    monkeypatch.setenv("PBEM_IMAP_PASSWORD", Dovecot.PASSWORD)
    server, keys = imap_people(tmp_path, tmp_path / "spool", dovecot)
    try:
        g = new_referee_game(tmp_path, keys)
        folder = {n: _folder_of(keys[n]) for n in ("alice", "bob", "rita")}
        hostile = [hostile_mail.nested(2000, ADDR["mallory"]), hostile_mail.parenthesised_sender(20000),
                   hostile_mail.huge((32 << 20) + 4096)]
        for raw in hostile:
            for who in ("bob", "rita"):
                dovecot.append(who, raw, folder[who])
        mailing.send(g, "rita", keys["rita"])  # the invitations, after the stranger's mail
        ga, gb = tmp_path / "alice" / "g", tmp_path / "bob" / "g"
        mail_fetch.fetch([ga], "alice", keys["alice"])
        mailing.send(ga, "alice", keys["alice"])  # alice's join, to rita and bob
        run = {n: Pbem(keys[n].store.home) for n in ("bob", "rita")}

        r = run["bob"]("mail", "fetch", gb, "--as", "bob", ok=False)  # joins beside the stranger's mail
        assert r.exit_code == 1 and "Traceback" not in r.output and "internal error" not in r.output, r.output
        assert "joined the game" in r.stdout and (gb / "000002-bob.pbem").exists(), r.output
        said = r.stderr
        assert f"the mail from {ADDR['mallory']} ('[pbem] hello') holds more than 100 nested MIME parts" in said
        assert "the mail from ((((" in said and "('[pbem] hi')" in said
        assert "the mail from huge@example.org ('[pbem] big') is larger than 32 MiB: not read" in said
        assert run["bob"]("mail", "fetch", gb, "--as", "bob").stderr == ""  # each is told once

        r = run["rita"]("referee", "mail", tmp_path / "rita", "--as", "rita")  # strangers' mail is no error here
        assert "Traceback" not in r.output and "internal error" not in r.output, r.output
        assert "more than 100 nested MIME parts" in r.stderr and "larger than 32 MiB" in r.stderr
        assert (g / "000001-alice.pbem").exists()  # the honest join beside it is applied
        r = run["rita"]("referee", "mail", tmp_path / "rita", "--as", "rita")
        assert "nested" not in r.stderr and "larger" not in r.stderr
    finally:
        server.stop()
