"""`pbem id ...`: identities, the address book, passphrases."""

from __future__ import annotations

import os
import stat

from conftest import Pbem


def test_new_show_export_import_between_two_homes(tmp_path):
    a, b = Pbem(tmp_path / "a"), Pbem(tmp_path / "b")
    out = a("id", "new", "alice", "--no-passphrase").stdout
    fp = out.split("fingerprint: ")[1].strip()
    assert len(fp.split()) == 8
    key = tmp_path / "a" / "keys" / "alice.key"
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    exported = tmp_path / "alice.id"
    a("id", "export", "alice", "-o", exported)
    assert a("id", "export", "alice").stdout.strip() == exported.read_text().strip()
    r = b("id", "import", exported)
    assert fp in r.stdout and "fingerprint" in r.stderr
    assert fp in b("id", "show", "alice").stdout
    listing = b("id", "show").stdout
    assert "alice" in listing and "imported" in listing
    # importing the same identity again is harmless; a different key under the name is not
    b("id", "import", exported)
    c = Pbem(tmp_path / "c")
    c("id", "new", "alice", "--no-passphrase")
    impostor = tmp_path / "impostor.id"
    c("id", "export", "alice", "-o", impostor)
    r = b.fails("id", "import", impostor)
    assert "alice" in r.stderr


def test_new_refuses_bad_or_taken_names(tmp_path):
    p = Pbem(tmp_path / "h")
    p("id", "new", "alice", "--no-passphrase")
    p.fails("id", "new", "alice", "--no-passphrase")
    p.fails("id", "new", "Bad Name!", "--no-passphrase")
    p.fails("id", "show", "nobody")
    p.fails("id", "import", tmp_path / "missing.id")
    garbage = tmp_path / "garbage.id"
    garbage.write_bytes(b"\x00\x01 not json")
    p.fails("id", "import", garbage)


def test_passphrase_protects_the_key(tmp_path):
    p = Pbem(tmp_path / "h")
    p("id", "new", "alice", env={"PBEM_PASSPHRASE": "hunter2 but longer"})
    key = (tmp_path / "h" / "keys" / "alice.key").read_bytes()
    assert b"scrypt" in key
    p.fails("id", "new", "bob")  # no passphrase and no terminal: refuse rather than hang


def test_an_address_on_ones_own_machine_or_network_is_accepted(home):
    from conftest import Pbem

    pbem = Pbem(home)
    r = pbem("id", "new", "alice", "--no-passphrase", "--email", "alice@localhost")
    assert "mail: alice@localhost" in r.stdout
    assert "invalid mail address" in pbem.fails("id", "new", "bob", "--no-passphrase", "--email", "bob@").stderr
