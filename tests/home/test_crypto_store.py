"""The key store: layout, permissions, $PBEM_HOME, the address book."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from pbem.crypto.keys import SecretIdentity, identity_file, read_identity_file
from pbem.home.store import KeyStore, default_home
from pbem.errors import FormatError, KeyStoreError, PassphraseError, SignatureError

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")


def no_passphrase() -> str:
    raise AssertionError("no passphrase expected")


@pytest.fixture
def store(tmp_path: Path) -> KeyStore:
    return KeyStore(tmp_path / "home")


@pytest.fixture
def other(tmp_path: Path) -> KeyStore:
    return KeyStore(tmp_path / "other")


# --- where the store lives ----------------------------------------------------


def test_pbem_home_is_honoured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "keys-here"))
    assert default_home() == tmp_path / "keys-here"
    ks = KeyStore()
    assert ks.home == tmp_path / "keys-here"
    ks.create("alice", None)
    assert (tmp_path / "keys-here" / "keys" / "alice.key").exists()


def test_linux_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    env = {"XDG_CONFIG_HOME": "/xdg"}
    assert default_home(env, "linux") == Path("/xdg/pbem")
    assert default_home({}, "linux") == tmp_path / ".config" / "pbem"
    assert default_home({"XDG_CONFIG_HOME": "relative"}, "linux") == tmp_path / ".config" / "pbem"
    assert default_home({"XDG_CONFIG_HOME": ""}, "freebsd") == tmp_path / ".config" / "pbem"


def test_macos_and_windows_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_home({}, "darwin") == tmp_path / "Library" / "Application Support" / "pbem"
    assert default_home({"APPDATA": "/appdata"}, "win32") == Path("/appdata") / "pbem"
    assert default_home({}, "win32") == tmp_path / "AppData" / "Roaming" / "pbem"


def test_pbem_home_wins_everywhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for plat in ("linux", "darwin", "win32"):
        env = {"PBEM_HOME": "~/games", "XDG_CONFIG_HOME": "/xdg", "APPDATA": "/appdata"}
        assert default_home(env, plat) == tmp_path / "games"


# --- own keys -------------------------------------------------------------------


@posix_only
def test_create_layout_and_permissions(store: KeyStore) -> None:
    old = os.umask(0o022)
    try:
        secret = store.create("alice", None)
    finally:
        os.umask(old)
    key = store.home / "keys" / "alice.key"
    ident = store.home / "ids" / "alice.id"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE((store.home / "keys").stat().st_mode) == 0o700
    assert stat.S_IMODE(ident.stat().st_mode) == 0o644
    assert read_identity_file(ident.read_bytes()) == secret.public
    assert [p.name for p in (store.home / "keys").iterdir()] == ["alice.key"]  # no temp files left


@posix_only
def test_keys_folder_is_tightened(store: KeyStore) -> None:
    (store.home / "keys").mkdir(parents=True, mode=0o755)
    os.chmod(store.home / "keys", 0o755)
    store.create("alice", None)
    assert stat.S_IMODE((store.home / "keys").stat().st_mode) == 0o700


def test_create_and_unlock_with_passphrase(store: KeyStore) -> None:
    secret = store.create("alice", "s3cret")
    assert store.has_secret("alice")
    again = store.secret("alice", lambda: "s3cret")
    assert again.public == secret.public
    assert again.private_bytes() == secret.private_bytes()
    with pytest.raises(PassphraseError, match="wrong passphrase for key alice"):
        store.secret("alice", lambda: "guess")


def test_create_without_passphrase(store: KeyStore) -> None:
    secret = store.create("bob", None)
    assert store.secret("bob", no_passphrase).public == secret.public


def test_create_twice(store: KeyStore) -> None:
    store.create("alice", None)
    with pytest.raises(KeyStoreError, match="already exists"):
        store.create("alice", None)


def test_create_over_an_imported_name(store: KeyStore, other: KeyStore) -> None:
    store.import_identity(other.export(other.create("alice", None).name))
    with pytest.raises(KeyStoreError, match="already exists"):
        store.create("alice", None)


def test_missing_secret(store: KeyStore) -> None:
    assert not store.has_secret("carol")
    with pytest.raises(KeyStoreError, match="no private key named carol in") as exc:
        store.secret("carol", no_passphrase)
    assert "pbem id new carol" in exc.value.hint
    assert "PBEM_HOME" in exc.value.hint


def test_invalid_names(store: KeyStore) -> None:
    assert not store.has_secret("../etc/passwd")
    for bad in ("../x", "Alice", ""):
        with pytest.raises(KeyStoreError):
            store.create(bad, None)
        with pytest.raises(KeyStoreError):
            store.public(bad)


def test_damaged_key_file_names_the_file(store: KeyStore) -> None:
    store.create("alice", None)
    path = store.home / "keys" / "alice.key"
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(FormatError, match="alice.key"):
        store.secret("alice", no_passphrase)


def test_key_file_under_the_wrong_name(store: KeyStore) -> None:
    store.create("alice", None)
    (store.home / "keys" / "alice.key").rename(store.home / "keys" / "eve.key")
    with pytest.raises(KeyStoreError, match="holds the key of alice"):
        store.secret("eve", no_passphrase)


# --- identities -------------------------------------------------------------


def test_public_own_and_unknown(store: KeyStore) -> None:
    secret = store.create("alice", "pw")
    assert store.public("alice") == secret.public
    with pytest.raises(KeyStoreError, match="unknown identity bob") as exc:
        store.public("bob")
    assert "pbem id import" in exc.value.hint


def test_public_from_the_key_file_when_the_id_file_is_lost(store: KeyStore) -> None:
    secret = store.create("alice", "pw")
    (store.home / "ids" / "alice.id").unlink()
    assert store.public("alice") == secret.public  # no passphrase needed
    with pytest.raises(KeyStoreError, match="missing"):
        store.export("alice")
    data = store.export("alice", lambda: "pw")
    assert read_identity_file(data) == secret.public
    assert (store.home / "ids" / "alice.id").read_bytes() == data


def test_export_import_round_trip(store: KeyStore, other: KeyStore) -> None:
    alice = store.create("alice", None)
    data = store.export("alice")
    assert data == identity_file(alice)
    imported = other.import_identity(data)
    assert imported == alice.public
    assert other.public("alice") == alice.public
    assert not other.has_secret("alice")
    assert other.export("alice") == data  # an imported identity can be passed on
    assert other.import_identity(data) == alice.public  # again: fine
    assert other.names() == [("alice", False)]


def test_import_a_different_key_under_a_known_name(store: KeyStore, other: KeyStore, tmp_path: Path) -> None:
    alice = store.create("alice", None)
    impostor = KeyStore(tmp_path / "impostor").create("alice", None)
    other.import_identity(identity_file(alice))
    with pytest.raises(KeyStoreError) as exc:
        other.import_identity(identity_file(impostor))
    assert alice.public.fingerprint() in exc.value.message
    assert impostor.public.fingerprint() in exc.value.message
    assert other.public("alice") == alice.public
    with pytest.raises(KeyStoreError, match="fingerprint"):
        store.import_identity(identity_file(impostor))  # not over our own key either


def test_import_a_known_key_under_a_new_name(store: KeyStore, other: KeyStore) -> None:
    alice = store.create("alice", None)
    other.import_identity(identity_file(alice))
    raw = alice.private_bytes()
    alias = SecretIdentity.from_private_bytes("alias", raw[:32], raw[32:])
    with pytest.raises(KeyStoreError, match="already known as alice"):
        other.import_identity(identity_file(alias))
    assert other.names() == [("alice", False)]


def test_import_garbage_changes_nothing(store: KeyStore) -> None:
    with pytest.raises(FormatError):
        store.import_identity(b"hello")
    bad = identity_file(SecretIdentity.generate("dan")).replace(b'"name":"dan"', b'"name":"dao"')
    with pytest.raises(SignatureError):
        store.import_identity(bad)
    assert store.names() == []


def test_tampered_id_file_on_disk(store: KeyStore, other: KeyStore) -> None:
    other.import_identity(store.export(store.create("alice", None).name))
    path = other.home / "ids" / "alice.id"
    path.write_bytes(path.read_bytes().replace(b'"by":"alice"', b'"by":"alicf"'))
    with pytest.raises(FormatError, match="alice.id"):
        other.public("alice")


def test_find_by_key(store: KeyStore, other: KeyStore) -> None:
    alice = store.create("alice", None)
    bob = other.create("bob", None)
    store.import_identity(other.export("bob"))
    assert store.find_by_key(alice.public.sign) == alice.public
    assert store.find_by_key(bob.public.sign) == bob.public
    assert store.find_by_key(SecretIdentity.generate("x").public.sign) is None
    assert KeyStore(store.home / "nothing-here").find_by_key(alice.public.sign) is None


def test_names(store: KeyStore, other: KeyStore) -> None:
    assert store.names() == []
    store.create("zoe", None)
    store.create("al", None)
    other.create("bob", None)
    store.import_identity(other.export("bob"))
    (store.home / "ids" / "README.txt").write_text("not an identity")
    (store.home / "ids" / "Bad Name.id").write_text("ignored")
    assert store.names() == [("al", True), ("bob", False), ("zoe", True)]
