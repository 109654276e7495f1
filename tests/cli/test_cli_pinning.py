"""Pinned identities through the CLI: impostors, sock puppets and keys never
seen, for commands that write and commands that only read.

Each player has their own `$PBEM_HOME` (a `Pbem` each); identity files
travel as files, as they would by mail.
"""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import Pbem, snapshot
from paths import ROOT

EXAMPLE = ROOT / "examples" / "agent-avenue-referee"


def person(tmp_path, name: str, key: str | None = None) -> Pbem:
    """`name`'s machine, holding the key called `key` (default: `name`)."""
    p = Pbem(tmp_path / f"home-{name}")
    p("id", "new", key or name, "--no-passphrase")
    return p


def give(src: Pbem, name: str, *dests: Pbem, tmp_path) -> None:
    path = tmp_path / f"{name}-{id(src)}.id"
    src("id", "export", name, "-o", path)
    for d in dests:
        d("id", "import", path)


def fp(p: Pbem, name: str) -> str:
    return p("id", "show", name).stdout.split(None, 1)[1].strip()


@pytest.fixture
def people(tmp_path):
    """alice, bob and rita (who referees) know each other; mallory holds her
    own keys named alice and rita, and knows the real bob."""
    ps = {n: person(tmp_path, n) for n in ("alice", "bob", "rita")}
    for n, p in ps.items():
        give(p, n, *[o for m, o in ps.items() if m != n], tmp_path=tmp_path)
    mallory = person(tmp_path, "mallory", "alice")
    mallory("id", "new", "rita", "--no-passphrase")
    give(ps["bob"], "bob", mallory, tmp_path=tmp_path)
    ps["mallory"] = mallory
    return ps


def refused(p: Pbem, *args, real: str, fake: str) -> str:
    r = p.fails(*args)
    assert real in r.stderr and fake in r.stderr, r.stderr
    return r.stderr


def test_impostor_alice_is_refused_everywhere(people, tmp_path):
    m, bob = people["mallory"], people["bob"]
    real, fake = fp(bob, "alice"), fp(m, "alice")
    # a peer game: bob's join refuses it and makes no folder
    m("new", "aa", tmp_path / "pm", "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    for flags in ((), ("--accept-new",)):
        refused(bob, "join", tmp_path / "pb", tmp_path / "pm" / "000000-genesis.pbem", "--as", "bob", *flags,
                real=real, fake=fake)
    assert not (tmp_path / "pb").exists()
    # a hotseat game on a shared folder: submit, verify, status, apply refuse it
    g = tmp_path / "g"
    m("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "4")
    copy = tmp_path / "copy"
    shutil.copytree(g, copy)
    before = snapshot(g)
    for args in (("submit", g, "--as", "bob", "--cmd", "recruit face-down"), ("sync", g, "--as", "bob"),
                 ("verify", g), ("status", g), ("log", g), ("show", g, "--as", "bob")):
        stderr = refused(bob, *args, real=real, fake=fake)
        assert "seat alice" in stderr
    assert snapshot(g) == before
    # the real alice is told it is not her key
    stderr = refused(people["alice"], "show", g, "--as", "alice", real=real, fake=fake)
    assert "not your own key alice" in stderr
    # a file the impostor writes is not applied either
    written = _first_turn(m, copy)
    refused(bob, "apply", g, *written, real=real, fake=fake)
    refused(bob, "apply", g, *written, "--accept-new", real=real, fake=fake)
    assert snapshot(g) == before


def test_a_game_you_are_not_in_is_shown_with_a_warning(people, tmp_path):
    """A folder none of your keys plays in (a demo's bots called alice and
    bob, an example, another group's game) may hold names your address book
    knows with other keys: the read-only commands warn and go on (there is no
    seat of yours to protect); nothing is written to your address book, and
    nothing can be written to the game as the alice you know."""
    m, bob, alice = people["mallory"], people["bob"], people["alice"]
    g = tmp_path / "theirs"
    m("new", "aa", g, "--seat", "alice", "--seat", "rita", "--seed", "4")  # mallory's own alice and rita
    book = (bob.home / "ids").read_bytes() if (bob.home / "ids").is_file() else sorted((bob.home / "ids").iterdir())
    for who in (bob, alice):
        for args in (("verify", g), ("status", g), ("log", g), ("show", g)):
            r = who(*args)
            assert r.exit_code == 0 and "you are not in this game, so it is shown as it is" in r.stderr, r.stderr
            assert "seat alice in this game has the key" in r.stderr
    assert sorted((bob.home / "ids").iterdir()) == book
    r = alice.fails("submit", g, "--as", "alice", "--cmd", "discard Enforcer")
    assert "not your own key alice" in r.stderr  # writing is refused, as ever


def _first_turn(p: Pbem, folder) -> list[str]:
    """Whoever is first writes a legal turn with `p`'s keys (mallory's own
    store knows everyone in her game)."""
    st = p.json("status", folder)
    who = st["to_act"][0]["seat"]
    return p("submit", folder, "--as", who, "--cmd", p.json("legal", folder, "--as", who)[0]).stdout.split()


def test_sock_puppet_referee_is_refused(people, tmp_path):
    alice = people["alice"]
    g = tmp_path / "g"
    # a puppet "rita" referees a game of the real alice and bob
    puppet_home = person(tmp_path, "puppet", "rita")
    give(alice, "alice", puppet_home, tmp_path=tmp_path)
    give(people["bob"], "bob", puppet_home, tmp_path=tmp_path)
    puppet_home("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita", deal=False)
    real, fake = fp(alice, "rita"), fp(puppet_home, "rita")
    before = snapshot(g)
    for args in (("submit", g, "--as", "alice", "--cmd", "recruit face-down", "--accept-new"),
                 ("verify", g), ("status", g, "--json")):
        stderr = refused(alice, *args, real=real, fake=fake)
        assert "referee rita" in stderr
    assert snapshot(g) == before


@pytest.fixture
def with_carol(tmp_path, people):
    """carol, whom bob has never met, makes a hotseat game for bob and her,
    and bob's key store gets a twin without her (to test each command fresh)."""
    carol = person(tmp_path, "carol")
    give(people["bob"], "bob", carol, tmp_path=tmp_path)
    g = tmp_path / "g"
    carol("new", "aa", g, "--seat", "bob", "--seat", "carol", "--seed", "2")
    return carol, g


def fresh_bob(people, tmp_path, label: str) -> Pbem:
    home = tmp_path / f"bob-{label}"
    shutil.copytree(people["bob"].home, home)
    return Pbem(home)


def test_unknown_key_is_refused_by_writers_until_accept_new(people, tmp_path, with_carol):
    carol, g = with_carol
    fc = fp(carol, "carol")
    cmd = people["bob"].json("legal", g, "--as", "bob")[0]
    before = snapshot(g)
    for label, args in (("submit", ("submit", g, "--as", "bob", "--cmd", cmd)), ("sync", ("sync", g, "--as", "bob")),
                        ("play", ("play", g, "--as", "bob"))):
        bob = fresh_bob(people, tmp_path, label)
        r = bob.fails(*args)
        assert fc in r.stderr and "seat carol" in r.stderr and "--accept-new" in r.stderr
        assert snapshot(g) == before
        assert "carol" not in bob("id", "list").stdout
        r = bob(*args, "--accept-new", input="q\n")
        assert "added seat carol's key" in r.stderr and fc in r.stderr
        listing = bob("id", "list").stdout
        line = next(l for l in listing.splitlines() if l.startswith("carol"))
        game_id = bob.json("status", g)["game_id"]
        assert fc in line and "accepted" in line and game_id[:12] in line and str(g) in line
        r = bob(*args[:2], "--as", "bob") if label == "sync" else None  # known now: no warning
        assert r is None or r.stderr == ""
        if label == "submit":
            assert snapshot(g) != before  # the turn was written
            shutil.rmtree(g)
            carol("new", "aa", g, "--seat", "bob", "--seat", "carol", "--seed", "2")
            before = snapshot(g)
            cmd = people["bob"].json("legal", g, "--as", "bob")[0]


def test_unknown_key_in_join_and_apply(people, tmp_path):
    carol = person(tmp_path, "carol")
    give(people["bob"], "bob", carol, tmp_path=tmp_path)
    carol("new", "aa", tmp_path / "c", "--dealer", "peer", "--seat", "carol", "--seat", "bob", "--as", "carol")
    genesis = tmp_path / "c" / "000000-genesis.pbem"
    bob = fresh_bob(people, tmp_path, "join")
    r = bob.fails("join", tmp_path / "b", genesis, "--as", "bob")
    assert fp(carol, "carol") in r.stderr and not (tmp_path / "b").exists()
    joined = bob("join", tmp_path / "b", genesis, "--as", "bob", "--accept-new").stdout.split()
    assert "accepted" in bob("id", "list").stdout
    # a copy of carol's folder kept by a store that has never met carol
    shutil.copytree(tmp_path / "c", tmp_path / "c2")
    other = fresh_bob(people, tmp_path, "apply")
    before = snapshot(tmp_path / "c2")
    r = other.fails("apply", tmp_path / "c2", *joined)
    assert "seat carol" in r.stderr and "--accept-new" in r.stderr
    assert snapshot(tmp_path / "c2") == before
    other("apply", tmp_path / "c2", *joined, "--accept-new")
    carol("apply", tmp_path / "c", *joined)  # carol knows bob: no flag needed


def test_read_only_commands_warn_once_per_key_and_go_on(people, tmp_path, with_carol):
    carol, g = with_carol
    fc = fp(carol, "carol")
    bob = fresh_bob(people, tmp_path, "ro")
    for args in (("status", g, "--json"), ("show", g, "--as", "bob", "--json"), ("legal", g, "--as", "bob", "--json"),
                 ("verify", g), ("log", g), ("show", g)):
        r = bob(*args)
        assert r.stderr.count(fc) == 1 and r.stderr.startswith("pbem: warning: seat carol"), r.stderr
        if "--json" in args:
            json.loads(r.stdout)  # stdout stays clean
    assert "carol" not in bob("id", "list").stdout  # warnings record nothing


def test_audit_warns_about_each_unknown_key_once(tmp_path):
    work = tmp_path / "game"
    shutil.copytree(EXAMPLE / "game", work)
    empty = Pbem(tmp_path / "empty")
    r = empty("audit", work)
    assert [l.split("'s key")[0] for l in r.stderr.splitlines()] == [
        "pbem: warning: seat alice", "pbem: warning: seat bob", "pbem: warning: referee referee"]
    for idf in sorted((EXAMPLE / "ids").glob("*.id")):
        empty("id", "import", idf)
    assert empty("audit", work).stderr == ""
    assert empty("verify", work).stderr == ""


def test_id_list_says_where_each_key_was_first_seen(people, tmp_path, with_carol):
    carol, g = with_carol
    bob = fresh_bob(people, tmp_path, "list")
    bob("status", g)
    bob("sync", g, "--as", "bob", "--accept-new")
    lines = {l.split()[0]: l for l in bob("id", "list").stdout.splitlines()}
    assert set(lines) == {"alice", "bob", "carol", "rita"}
    assert "own key, created" in lines["bob"] and fp(bob, "bob") in lines["bob"]
    assert "imported by hand" in lines["alice"] and "alice" in lines["alice"].split("from")[1]
    assert "accepted" in lines["carol"] and str(g) in lines["carol"]
    assert Pbem(tmp_path / "nobody")("id", "list").stdout.startswith("no identities")


def test_new_pins_too(pbem, tmp_path):
    """A store holding one key under two names (files copied by hand) makes
    no game: `pbem new` checks its seats like every other command."""
    from pbem.crypto.keys import SecretIdentity, identity_file, secret_key_file
    from pbem.home.store import KeyStore

    raw = KeyStore(pbem.home).secret("alice", lambda: "").private_bytes()
    twin = SecretIdentity.from_private_bytes("mallory", raw[:32], raw[32:])
    (pbem.home / "keys" / "mallory.key").write_bytes(secret_key_file(twin, None))
    (pbem.home / "ids" / "mallory.id").write_bytes(identity_file(twin))
    r = pbem.fails("new", "aa", tmp_path / "g", "--seat", "alice", "--seat", "mallory")
    assert "same key" in r.stderr or "knows as" in r.stderr
    assert not (tmp_path / "g").exists()
