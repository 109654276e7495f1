"""A read-only look protects what it saw (issue #20, class 7).

After `pbem show`, a writer swapped its last file for another valid one
("clue animal 1" became "clue bird 1") and the next `show` said nothing,
though docs/protocol.md promises that a verified file that changes is
refused by every command: a look checked the new file but remembered
nothing, since it writes the checkpoint only after three new files. Now a
look remembers the digests of the files it verified past the checkpoint
(`pbem.home.checkpoint_seen`), and every command refuses a verified file that
changed. The swapped file is made with pbem's own library and signed with
the writer's real key; the victim is the real CLI.
"""

from __future__ import annotations

import pytest

from pbem.app import reading, writing
from pbem.home import checkpoint
from pbem.home.store import KeyStore
from pbem.gamedir import folder
from pbem.protocol.party import Party
from test_undo import SEATS, cli  # noqa: F401 - cli: every seat's key


def _second_version(g, home, seq: int, skip: str) -> bytes:
    """The writer of file `seq`, again, with another command on the same
    predecessor: another valid file, signed with its real key."""
    chain = folder.load(g, stop=seq - 1)
    writer = chain.writers()[0]
    me = Party(chain, KeyStore(home).secret(writer, lambda: ""))
    other = next(c for c in reading.legal(chain, me) if c != skip)
    return me.turn(writing.parse_commands(chain, me, [other]))


@pytest.mark.parametrize("looks", [["show"], ["status"], ["log"], ["show", "status"]])
def test_a_file_a_look_verified_is_not_swapped_unseen(cli, tmp_path, looks):
    g = tmp_path / "g"
    cli("new", "codenames", g, *[a for s in SEATS for a in ("--seat", s)], "--seed", "5")
    cli("verify", g)  # the checkpoint, warm
    sp = cli.json("status", g)["to_act"][0]["seat"]
    cli.json("legal", g, "--as", sp)
    head = folder.load(g).seq
    # sp's clue reaches the folder through a sync tool (no pbem here wrote it)
    (g / folder.turn_name(head + 1, sp)).write_bytes(_second_version(g, cli.home, head + 1, skip=""))
    first = (g / folder.turn_name(head + 1, sp)).read_bytes()
    for look in looks:
        cli(look, g, *(["--as", "carol"] if look == "show" else []))
    assert checkpoint.read(g).header.seq == head  # the look wrote no checkpoint: too little was new
    # sp swaps it for another valid clue on the same predecessor
    swapped = _second_version(g, cli.home, head + 1, skip=_clue_of(g, head + 1, first))
    assert swapped != first
    (g / folder.turn_name(head + 1, sp)).write_bytes(swapped)
    for command in ("show", "status", "log", "verify"):
        result = cli.fails(command, g, *(["--as", "carol"] if command == "show" else []))
        assert f"{folder.turn_name(head + 1, sp)} is not the file you verified at seq {head + 1}" in result.stderr
    cli("verify", "--full", g)  # settled on purpose: the folder as it is now
    cli("show", g, "--as", "carol")


def _clue_of(g, seq: int, data: bytes) -> str:
    chain = folder.load(g, stop=seq - 1)
    record = chain.append(data)
    return chain.game.presentation.format(record.commands[0], record.before, record.by)


def test_a_look_remembers_nothing_it_did_not_verify(cli, tmp_path):
    """A record of another folder, or a doctored one, is ignored: the look
    verifies again (and a record never vouches for a file)."""
    g = tmp_path / "g"
    cli("new", "codenames", g, *[a for s in SEATS for a in ("--seat", s)], "--seed", "5")
    cli("verify", g)
    head = folder.load(g).seq
    sp = cli.json("status", g)["to_act"][0]["seat"]
    (g / folder.turn_name(head + 1, sp)).write_bytes(_second_version(g, cli.home, head + 1, skip=""))
    cli("status", g)
    seen = checkpoint.seen_path(g)
    assert seen.is_file()
    data = bytearray(seen.read_bytes())
    data[-1] ^= 1
    seen.write_bytes(bytes(data))
    cli("status", g)  # ignored, not fatal
    cli("verify", g)  # the checkpoint covers the files now: no record left
    assert not seen.exists()
