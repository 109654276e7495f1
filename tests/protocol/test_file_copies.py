"""One byte string per file, and copies that are not forks (issue 7, part 8).

* A signed body has one spelling: a field that means the same as its
  absence (a writer's partial naming its own seat, an explicit default, a
  re-spaced initial state) is refused, even re-signed by the writer.
* A byte-identical copy of a chain file under another name (a browser's
  ``(1)``, a Syncthing conflict copy) is the same file: noted, ignored.
  Two different valid files for one place stay a fork.
* Damage outside the signed object (CRLF, final newline, blank lines,
  spaces, a byte-order mark) is repaired: the file is accepted and stored
  as pbem writes it.
"""

from __future__ import annotations

import json
import shutil

import msgspec
import pytest

from conftest import snapshot
from doctor import hotseat_dealer_key
from pbem.crypto.encoding import canonical
from pbem.crypto.sign import domain, sign
from pbem.errors import FormatError
from pbem.protocol import codec
from pbem.gamedir import folder, folder_write
from pbem.protocol.formats import GenesisBody, SignedFile
from test_peer_cheats import bobs_next_file, joined, keys, resign  # noqa: F401 - keys is a fixture

COPIES = ["000001-alice (1).pbem", "000001-alice.sync-conflict-20261201-120000-ABCDEF.pbem", "000001-alice (conflicted copy).pbem"]


@pytest.fixture
def game(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1")
    return g


def first_move(pbem, g) -> str:
    return pbem("legal", g, "--as", "alice").stdout.splitlines()[0]


# --- one spelling per signed content ------------------------------------------------


def test_a_partial_naming_its_own_writer_is_refused(keys, tmp_path):
    dirs = joined(keys, tmp_path)
    data, body = bobs_next_file(keys, dirs)
    p = body.partials[0]
    doctored = resign(data, keys["bob"].secret("bob"), partials=[msgspec.structs.replace(p, seat="bob")] + body.partials[1:])
    before = snapshot(dirs["alice"])
    chain = folder.load(dirs["alice"])
    with pytest.raises(FormatError, match="names its seat"):
        folder_write.incoming(dirs["alice"], chain, doctored)
    assert snapshot(dirs["alice"]) == before
    folder_write.incoming(dirs["alice"], chain, data)  # the honest spelling applies


def signed_raw(kind: str, body: dict | bytes, secret) -> bytes:
    """A file whose body is exactly these bytes, properly signed."""
    raw = body if isinstance(body, bytes) else json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    outer = SignedFile(format="pbem/1", kind=kind, by=secret.name, body=msgspec.Raw(raw), sig=sign(secret, domain(kind), raw))
    return msgspec.json.encode(outer) + b"\n"


def test_an_explicit_default_in_a_turn_is_refused(pbem, game, tmp_path):
    path = pbem("submit", game, "--as", "alice", "--cmd", first_move(pbem, game)).stdout.split()[0]
    other = tmp_path / "other"
    pbem("new", "aa", other, "--seat", "alice", "--seat", "bob", "--seed", "1")
    body = json.loads(bytes(codec.read_envelope(open(path, "rb").read()).body))
    from pbem.home.store import KeyStore

    alice = KeyStore(pbem.home).secret("alice", None)
    for extra in ({"reveals": []}, {"beacon": None}, {"deliveries": []}):
        f = tmp_path / "explicit.pbem"
        f.write_bytes(signed_raw("turn", {**body, **extra}, alice))
        r = pbem.fails("apply", other, f)
        assert "canonical" in r.stderr


@pytest.mark.parametrize("part", ["initial", "options"])
def test_a_respaced_genesis_state_or_options_is_refused(pbem, game, part):
    dealer = hotseat_dealer_key(game)
    data = (game / "000000-genesis.pbem").read_bytes()
    body = msgspec.json.decode(bytes(codec.read_envelope(data).body), type=GenesisBody)
    spaced = bytes(getattr(body, part)).replace(b",", b", ", 1)
    assert spaced != bytes(getattr(body, part))
    (game / "000000-genesis.pbem").write_bytes(codec.encode_signed("genesis", msgspec.structs.replace(body, **{part: msgspec.Raw(spaced)}), dealer))
    r = pbem.fails("status", game)
    assert "not in canonical form" in r.stderr


# --- copies are not forks --------------------------------------------------------------


def test_identical_copies_are_one_file(pbem, game):
    pbem("submit", game, "--as", "alice", "--cmd", first_move(pbem, game))
    for name in COPIES:
        shutil.copyfile(game / "000001-alice.pbem", game / name)
    shutil.copyfile(game / "000000-genesis.pbem", game / "000000-genesis (1).pbem")
    assert pbem("status", game).stderr == ""  # run at every turn: it does not repeat the copies
    r = pbem("verify", game)  # the folder's check says what it found, each copy once
    assert r.stdout.startswith("ok:")
    notes = [line for line in r.stderr.splitlines() if line.startswith("pbem: note:")]
    assert len(notes) == len(COPIES) + 1, r.stderr
    for name in COPIES:
        assert sum(name in line and "copy of 000001-alice.pbem" in line for line in notes) == 1
    assert "000000-genesis (1).pbem is a copy of 000000-genesis.pbem" in r.stderr
    assert pbem.json("status", game)["notes"] == [n.removeprefix("pbem: note: ") for n in notes]  # scripts still see them
    # the folder is not blocked: play goes on, and the copies stay notes
    st = pbem.json("status", game)
    who = st["to_act"][0]["seat"]
    pbem("sync" if st["to_act"][0]["needs"] == "auto" else "legal", game, "--as", who)
    pbem("verify", game)


def test_a_copy_when_the_original_is_gone(pbem, game):
    pbem("submit", game, "--as", "alice", "--cmd", first_move(pbem, game))
    (game / "000001-alice.pbem").rename(game / COPIES[0])
    assert pbem("verify", game).stdout.startswith("ok:")


def test_two_different_files_for_one_place_are_still_a_fork(pbem, game, tmp_path):
    twin = tmp_path / "twin"
    shutil.copytree(game, twin)
    moves = pbem("legal", game, "--as", "alice").stdout.splitlines()
    pbem("submit", game, "--as", "alice", "--cmd", moves[0])
    pbem("submit", twin, "--as", "alice", "--cmd", moves[1])
    shutil.copyfile(twin / "000001-alice.pbem", game / COPIES[1])
    r = pbem.fails("verify", game)
    assert "fork at seq 1" in r.stderr and "signed by alice" in r.stderr


# --- damage outside the signed object ------------------------------------------------------


DAMAGE = {
    "CRLF line endings": lambda d: d.replace(b"\n", b"\r\n"),
    "no final newline": lambda d: d.rstrip(b"\n"),
    "extra blank lines or spaces at the end": lambda d: d + b"\n\n",
    "blank lines or spaces before the file": lambda d: b"\n" + d,
    "a byte-order mark": lambda d: b"\xef\xbb\xbf" + d,
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damage_outside_the_body_is_repaired_on_apply(pbem, game, tmp_path, damage):
    other = tmp_path / "other"
    shutil.copytree(game, other)
    path = pbem("submit", other, "--as", "alice", "--cmd", first_move(pbem, game)).stdout.split()[0]
    good = open(path, "rb").read()
    f = tmp_path / "received.pbem"
    f.write_bytes(DAMAGE[damage](good))
    assert f.read_bytes() != good
    pbem("apply", game, f)
    assert (game / "000001-alice.pbem").read_bytes() == good  # stored as pbem writes it
    # damage in a file already in the folder: read, and named in a note
    (game / "000001-alice.pbem").write_bytes(DAMAGE[damage](good))
    r = pbem("verify", game)
    assert f"000001-alice.pbem has {damage}" in r.stderr, r.stderr


def test_damage_with_any_other_change_is_refused(pbem, game, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(game, other)
    path = pbem("submit", other, "--as", "alice", "--cmd", first_move(pbem, game)).stdout.split()[0]
    good = open(path, "rb").read()
    before = snapshot(game)
    for bad in (good[:-2] + b" }\r\n", good.replace(b'","', b'", "', 1) + b"\n", b"\n" + good[:-3] + b"\n"):
        f = tmp_path / "bad.pbem"
        f.write_bytes(bad)
        pbem.fails("apply", game, f)
        assert snapshot(game) == before


def test_normalise_keeps_canonical_bytes_and_names_the_damage():
    data = b'{"format":"pbem/1","kind":"turn","by":"a","body":{},"sig":""}\n'
    assert codec.normalise(data) == (data, None)
    fixed, damage = codec.normalise(b"\r\n" + data.replace(b"\n", b"\r\n") + b"  ")
    assert fixed == data and "CRLF" in damage and "before" in damage and "end" in damage
    assert codec.normalise(b"[1]\n") == (b"[1]\n", None)
    assert canonical({"a": 1}) == b'{"a":1}'
