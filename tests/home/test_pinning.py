"""`pbem.home.pinning`: a game's keys against the address book, like known_hosts.

Every game here is a real genesis signed with real keys; "the world" is a
few separate key stores, as on separate machines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.home import pinning
from pbem.crypto.keys import SecretIdentity
from pbem.home.store import KeyStore
from pbem.errors import IdentityMismatch, KeyStoreError, UnknownIdentity
from pbem.games.base import SeatSpec
from pbem.protocol import dealer as dealer_mod
from pbem.protocol.chain import Chain

AA = games.get("agent-avenue")


def genesis(seats: list, mode: str = "hotseat", dealer: SecretIdentity | None = None) -> Chain:
    """A game of `seats` (PublicIdentity each), dealt by `dealer` (hotseat: a throw-away key)."""
    opts = AA.options({})
    idents = [(SeatSpec(p.name, None), p) for p in seats]
    secret = dealer or dealer_mod.hotseat_dealer()
    return Chain(dealer_mod.make_genesis(AA, opts, idents, mode, secret, b"\x07" * 32))


def store_of(tmp_path: Path, label: str, *names: str) -> KeyStore:
    store = KeyStore(tmp_path / label)
    for n in names:
        store.create(n, None)
    return store


def introduce(store: KeyStore, *others: tuple[KeyStore, str]) -> None:
    for other, name in others:
        store.import_identity(other.export(name))


@pytest.fixture
def world(tmp_path):
    """alice, bob and rita on their own machines; each knows the other two."""
    stores = {n: store_of(tmp_path, n, n) for n in ("alice", "bob", "rita")}
    for n, s in stores.items():
        introduce(s, *[(o, m) for m, o in stores.items() if m != n])
    return stores


def pub(store: KeyStore, name: str):
    return store.public(name)


def test_known_seats_pass_and_the_hotseat_dealer_is_not_pinned(world):
    bob = world["bob"]
    chain = genesis([pub(bob, "alice"), pub(bob, "bob")])
    assert [p.label for p in pinning.parties(chain)] == ["seat alice", "seat bob"]
    assert pinning.check(bob, chain, where="g", strict=True) == []


def test_a_referee_is_pinned_like_a_seat(world):
    rita = world["rita"]
    chain = genesis([pub(rita, "alice"), pub(rita, "bob")], "referee", rita.secret("rita", lambda: ""))
    assert [p.label for p in pinning.parties(chain)][-1] == "referee rita"
    assert pinning.check(world["alice"], chain, where="g", strict=True) == []


def test_impostor_with_a_known_name_is_refused_with_both_fingerprints(world, tmp_path):
    mallory = store_of(tmp_path, "mallory", "alice")  # her own key, named alice
    chain = genesis([pub(mallory, "alice"), pub(world["alice"], "bob")])
    real, fake = pub(world["bob"], "alice").fingerprint(), pub(mallory, "alice").fingerprint()
    before = sorted(p.name for p in (world["bob"].home / "ids").iterdir())
    for strict in (True, False):
        with pytest.raises(IdentityMismatch) as err:
            pinning.check(world["bob"], chain, where="g", strict=strict, accept_new=strict)
        assert real in err.value.message and fake in err.value.message
        assert "seat alice" in err.value.message
    assert sorted(p.name for p in (world["bob"].home / "ids").iterdir()) == before  # never replaced
    # to the real alice, it is not her own key: refused where she would act,
    # a warning where she only looks (she is not in this game)
    with pytest.raises(IdentityMismatch, match="not your own key alice"):
        pinning.check(world["alice"], chain, where="g", strict=True)
    found = pinning.check(world["alice"], chain, where="g", strict=False)
    assert [type(f) for f in found] == [pinning.Stranger] and "not your own key alice" in found[0].line()


def test_sock_puppet_referee_is_refused(world, tmp_path):
    puppet = store_of(tmp_path, "puppet", "rita")
    chain = genesis([pub(world["alice"], "alice"), pub(world["alice"], "bob")], "referee", puppet.secret("rita", lambda: ""))
    with pytest.raises(IdentityMismatch) as err:
        pinning.check(world["alice"], chain, where="g", strict=False)
    assert "referee rita" in err.value.message
    assert pub(puppet, "rita").fingerprint() in err.value.message
    assert pub(world["alice"], "rita").fingerprint() in err.value.message


def renamed(secret: SecretIdentity, name: str) -> SecretIdentity:
    raw = secret.private_bytes()
    return SecretIdentity.from_private_bytes(name, raw[:32], raw[32:])


def test_a_known_key_under_another_name_is_refused(world, tmp_path):
    alice = world["alice"].secret("alice", lambda: "")
    chain = genesis([renamed(alice, "mallory").public, pub(world["bob"], "bob")])
    with pytest.raises(IdentityMismatch, match="seat mallory .* knows as alice"):
        pinning.check(world["bob"], chain, where="g", strict=False, accept_new=True)
    assert not world["bob"].seen_path("mallory").exists()


def test_one_key_under_two_names_in_one_game_is_refused(world, tmp_path):
    k = SecretIdentity.generate("x")
    chain = genesis([k.public, renamed(k, "y").public])
    with pytest.raises(IdentityMismatch, match="seat x and seat y have the same key"):
        pinning.check(KeyStore(tmp_path / "empty"), chain, where="g", strict=False)


def test_unknown_key_refused_warned_or_accepted(world, tmp_path):
    carol = store_of(tmp_path, "carol", "carol")
    bob = world["bob"]
    chain = genesis([pub(carol, "carol"), pub(bob, "bob")])
    fp = pub(carol, "carol").fingerprint()
    with pytest.raises(UnknownIdentity) as err:
        pinning.check(bob, chain, where="/games/g", strict=True)
    assert fp in err.value.message and "--accept-new" in err.value.hint
    found = pinning.check(bob, chain, where="/games/g", strict=False)
    assert [(n.party.label, n.accepted) for n in found] == [("seat carol", False)]
    assert fp in found[0].line() and "not in your address book" in found[0].line()
    with pytest.raises(KeyStoreError):
        bob.public("carol")  # a warning records nothing
    found = pinning.check(bob, chain, where="/games/g", strict=True, accept_new=True)
    assert [n.accepted for n in found] == [True] and "added seat carol" in found[0].line()
    assert bob.public("carol") == pub(carol, "carol")
    seen = bob.seen("carol")
    assert (seen.how, seen.source, seen.game_id, seen.fingerprint) == ("accepted", "/games/g", chain.game_id, fp)
    assert pinning.check(bob, chain, where="/games/g", strict=True) == []
    # from now on carol is pinned: another carol is an impostor, and the
    # store refuses both a second key for her and her key under a new name
    other = store_of(tmp_path, "other", "carol")
    with pytest.raises(IdentityMismatch):
        pinning.check(bob, genesis([pub(other, "carol"), pub(bob, "bob")]), where="h", strict=False)
    with pytest.raises(KeyStoreError, match="already known"):
        bob.import_identity(other.export("carol"))
    with pytest.raises(KeyStoreError, match="create|exists"):
        bob.create("carol", None)
    # her real identity file can still be imported: the record of first sight stays
    bob.import_identity(carol.export("carol"))
    assert bob.seen("carol").how == "accepted"


def test_nothing_is_recorded_unless_every_party_passes(world, tmp_path):
    carol = store_of(tmp_path, "carol", "carol")
    mallory = store_of(tmp_path, "mallory", "alice")
    chain = genesis([pub(carol, "carol"), pub(mallory, "alice")])
    with pytest.raises(IdentityMismatch):
        pinning.check(world["bob"], chain, where="g", strict=True, accept_new=True)
    assert not world["bob"].seen_path("carol").exists()


def test_first_seen_records_for_created_and_imported_keys(world, tmp_path):
    bob = world["bob"]
    assert bob.seen("bob").how == "created"
    assert bob.seen("alice").how == "imported"
    fresh = KeyStore(tmp_path / "fresh")
    path = tmp_path / "alice.id"
    path.write_bytes(world["alice"].export("alice"))
    fresh.import_identity(path.read_bytes(), source=str(path))
    assert (fresh.seen("alice").source, fresh.seen("alice").fingerprint) == (str(path), pub(bob, "alice").fingerprint())
    # a store from before these records: no record, and nothing breaks
    (fresh.ids_dir / "alice.seen").unlink()
    assert fresh.seen("alice") is None and fresh.names() == [("alice", False)]


def test_a_removed_key_can_be_replaced_by_hand(world, tmp_path):
    """The only way to change a pinned key: remove it yourself, then import."""
    bob = world["bob"]
    new_alice = store_of(tmp_path, "new", "alice")
    bob.id_path("alice").unlink()
    bob.import_identity(new_alice.export("alice"), source="mail")
    assert bob.seen("alice").fingerprint == pub(new_alice, "alice").fingerprint()
    assert bob.seen("alice").source == "mail"
