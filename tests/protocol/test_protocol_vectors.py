"""Known-answer vectors for the protocol (tests/vectors/protocol/*.txt).

Each vector names what must happen when its file meets the `base/` game:
ok, bad signature, stale, fork, illegal command, not for me. The base game
and the vectors were written once by `make_vectors.py` and are committed, so
this also proves that files written by an earlier release still verify.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest

from pbem.crypto.keys import read_secret_key_file
from pbem.errors import ForkError, IllegalCommand, NotForMe, SignatureError, StaleTurn
from pbem.protocol import dealer
from pbem.gamedir import folder, folder_write
from pbem.protocol.file_parts import Delivery
from paths import VECTORS as ALL_VECTORS

HERE = ALL_VECTORS / "protocol"
VECTORS = sorted(HERE.glob("*.txt"))
EXPECT = {
    "bad signature": SignatureError,
    "stale": StaleTurn,
    "fork": ForkError,
    "illegal command": IllegalCommand,
    "not for me": NotForMe,
}


def parse(path: Path) -> tuple[dict[str, str], bytes]:
    raw = path.read_bytes()
    head, _, data = raw.partition(b"\n\n")
    fields = dict(line.split(": ", 1) for line in head.decode().splitlines())
    return fields, data


def test_there_are_vectors_for_every_expectation():
    expects = {parse(p)[0]["expect"] for p in VECTORS}
    assert expects == {"ok"} | set(EXPECT)


def test_base_game_still_verifies():
    chain = folder.load(HERE / "base")
    folder_write.check_state_cache(HERE / "base", chain)
    assert chain.seq == 4


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector(path, tmp_path):
    fields, data = parse(path)
    game = tmp_path / "g"
    shutil.copytree(HERE / "base", game)
    if path.stem == "fork-b":  # a fork needs its sibling first
        chain = folder.load(game)
        folder_write.incoming(game, chain, parse(HERE / "fork-a.txt")[1])
    chain = folder.load(game)
    before = {p.name: p.read_bytes() for p in game.iterdir()}
    expect = fields["expect"]
    if "as" in fields:
        secret = read_secret_key_file((HERE / "keys" / f"{fields['as']}.key").read_bytes(), lambda: "")
        delivery = msgspec.json.decode(data, type=Delivery)
        ad = dealer.delivery_ad(dealer.genesis_ad_key(chain.genesis.dealer.seed_commitment), 0, delivery.to)
        with pytest.raises(EXPECT[expect]):
            dealer.open_openings(delivery.envelope, secret, ad)
        owner = read_secret_key_file((HERE / "keys" / f"{delivery.to}.key").read_bytes(), lambda: "")
        assert len(dealer.open_openings(delivery.envelope, owner, ad)) == 4
        return
    if expect == "ok":
        folder_write.incoming(game, chain, data)
        folder.load(game)
        return
    with pytest.raises(EXPECT[expect]):
        folder_write.incoming(game, chain, data)
    assert {p.name: p.read_bytes() for p in game.iterdir()} == before
