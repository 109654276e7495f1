"""The newcomer's consent to a handover (issue #24, protocol version 7):
carol signs, from the game's files, that she takes seat bob with her key
and her address; bob's handover carries her signature, and every
verifier (`pbem apply`, `verify`, `join`, `audit`) and every pinned
address book rebuilds what she signed from the handover itself.

Each person has a home of their own. Doctored handovers are made with
pbem's library and re-signed with bob's real key: a handover to a key that
did not accept, with an acceptance for another game, seat or file, with a
swapped address or with none is refused at once, in one line naming the
seat and the file, and nothing changes. A game begun under version 6 hands
over as it always did (and its re-keying reveals the old chain's link)."""

from __future__ import annotations

import random
import shutil

import msgspec
import pytest

from conftest import Pbem, introduced, mail_step, snapshot
from test_handover import side, start, until_bob_decides
from pbem.crypto.encoding import b64e
from pbem.gamedir import folder as folder_mod
from pbem.protocol import acceptance, codec, handover
from pbem.protocol.formats import TurnBody
from pbem.protocol.long_parts import Acceptance
from pbem.protocol.party import Party

ADDRESS = "carol@example.org"


def signed_acceptance(keys, **fields) -> bytes:
    """An acceptance file signed with carol's real key, of any content."""
    return codec.encode_signed(acceptance.KIND, Acceptance(identity=keys["carol"].store.public("carol"), **fields),
                               keys["carol"].secret("carol"))


def doctored(honest: bytes, signer, consent: str | None = None, **change) -> bytes:
    """`honest` with its handover (or consent) changed, re-signed by `signer`."""
    body = codec.decode_body(codec.read_envelope(honest), TurnBody)
    h = msgspec.structs.replace(body.handover, **change)
    return codec.encode_signed("turn", msgspec.structs.replace(body, handover=h, consent=consent), signer)


def refused_by(pbem: Pbem, folder, *args, match: str):
    """`pbem ARGS` refused in one line that says `match`, `folder` unchanged."""
    before = snapshot(folder) if folder.exists() else None
    result = pbem.fails(*args)
    said = result.stderr if "watch" not in args else result.stdout + result.stderr  # watch tells as it goes
    assert match in said, said
    assert (snapshot(folder) if folder.exists() else None) == before
    return said


@pytest.mark.parametrize("dealer", ["referee", "peer"])
def test_a_seat_goes_only_to_a_key_that_signed_this_handover(tmp_path, dealer):
    keys, dirs = start(tmp_path, "aa", dealer)
    until_bob_decides(keys, dirs, random.Random(2), files=4)
    bob_cli, carol_cli, alice_cli = (Pbem(keys[n].store.home) for n in ("bob", "carol", "alice"))
    # bob knows carol's key, but she did not accept: no handover to her name alone
    refused_by(bob_cli, dirs["bob"], "handover", dirs["bob"], "--as", "bob", "--to", "carol",
               match="carol has not accepted seat bob")
    files = side(tmp_path, "carol") / "bob-files"
    shutil.copytree(dirs["bob"], files)
    mine = tmp_path / "carol-accepts-bob.pbem"
    said = carol_cli("handover", "accept", files, "--seat", "bob", "--as", "carol", "--email", ADDRESS, "-o", mine)
    assert str(mine) in said.stdout and "send" in said.stderr
    # carol cannot accept a seat the game does not wait for
    refused_by(carol_cli, files, "handover", "accept", files, "--seat", "alice", "--as", "carol", "-o", tmp_path / "x",
               match="waits for bob, not for alice")
    chain = folder_mod.load(dirs["bob"])
    earlier = chain.records[-2].hash
    for fields, match in [({"game_id": b64e(b"\x07" * 32)}, "acceptance is for another game"),
                          ({"seat": "alice"}, "acceptance is for seat alice, not seat bob"),
                          ({"prev": earlier}, f"as it stood at seq {chain.seq - 1}; it is at seq {chain.seq}")]:
        wrong = tmp_path / "wrong.pbem"
        wrong.write_bytes(signed_acceptance(keys, **{"game_id": chain.game_id, "seat": "bob", "prev": chain.head,
                                                     "address": ADDRESS, **fields}))
        refused_by(bob_cli, dirs["bob"], "handover", dirs["bob"], "--as", "bob", "--to", wrong, match=match)

    # the files bob could write instead, each re-signed with his real key: every verifier refuses them
    bob = keys["bob"].secret("bob")
    carol = keys["carol"].store.public("carol")
    dave = introduced(tmp_path / "d", ["dave"])["dave"].store.public("dave")  # a stranger, who accepted nothing
    _, consent = acceptance.read(mine.read_bytes())
    honest = Party(chain, bob).handover("bob", carol, ADDRESS, consent)
    other = {name: acceptance.read(signed_acceptance(keys, **{"game_id": chain.game_id, "seat": "bob",
                                                            "prev": chain.head, "address": ADDRESS, **fields}))[1]
             for name, fields in [("game", {"game_id": b64e(b"\x07" * 32)}), ("seat", {"seat": "alice"}),
                                  ("file", {"prev": earlier})]}
    cases = {
        "a key that did not accept": doctored(honest, bob, consent, to=dave),
        "no acceptance": doctored(honest, bob, None),
        "an acceptance for another game": doctored(honest, bob, other["game"]),
        "an acceptance for another seat": doctored(honest, bob, other["seat"]),
        "an acceptance for another file": doctored(honest, bob, other["file"]),
        "a swapped address": doctored(honest, bob, consent, address="mallory@example.org"),
    }
    name = folder_mod.turn_name(chain.seq + 1, "bob")
    for what, data in cases.items():
        path = tmp_path / what.replace(" ", "-") / name
        path.parent.mkdir()
        path.write_bytes(data)
        line = refused_by(alice_cli, dirs["alice"], "apply", dirs["alice"], path, match=name)
        assert "seat bob" in line, (what, line)
        signer = {"no acceptance": "carries no acceptance signed by carol",
                  "a key that did not accept": "dave did not sign this handover of seat bob"}
        assert signer.get(what, "carol did not sign this handover of seat bob") in line, (what, line)
    # a swapped address, in a whole folder: verify, audit and carol's join refuse it too
    swapped = cases["a swapped address"]
    bad = tmp_path / "bad"
    shutil.copytree(dirs["bob"], bad)
    (bad / name).write_bytes(swapped)
    for args in (["verify", bad], ["audit", bad], ["watch", bad, "--as", "alice", "--once"]):
        refused_by(alice_cli, bad, *args, match="carol did not sign this handover of seat bob")
    refused_by(carol_cli, tmp_path / "carol-bad", "join", tmp_path / "carol-bad", *sorted(bad.glob("0*.pbem")),
               "--as", "bob", match="carol did not sign this handover of seat bob")

    # the honest handover, with carol's acceptance: alice's book takes her key and the address she signed
    bob_cli("handover", dirs["bob"], "--as", "bob", "--to", mine)
    written = dirs["bob"] / name
    note = alice_cli("apply", dirs["alice"], written).stderr
    assert "which carol signed it accepts" in note
    assert keys["alice"].store.email("carol") == ADDRESS
    assert folder_mod.load(dirs["alice"]).records[-1].body.consent == consent
    assert "hands seat bob over to carol" in alice_cli("log", dirs["alice"]).stdout.splitlines()[-1]
    assert "with carol's signed acceptance" in alice_cli("log", dirs["alice"]).stdout


def test_no_peer_seat_is_handed_over_while_a_chance_waits_for_links(tmp_path):
    """Version 7: the newcomer's fresh beacon chain is chosen at the
    handover; a chance already drawn must not wait for its links (the
    newcomer could try seeds against the drawer's link). Lucky Draw, whose
    rolls pause for every other seat's next link."""
    from pbem import games
    from pbem.crypto.keys import SecretIdentity
    from pbem.protocol.chain import Chain
    from pbem.protocol.peer import writer as peer_writer

    games._REGISTRY.setdefault("lucky", ("tests.chancegame", "GAME", ()))
    game = games.get("lucky")
    secrets = {n: SecretIdentity.generate(n) for n in ("alice", "bob")}
    opts = game.options({})
    from pbem.app import creating

    specs = game.seats(opts, [creating.parse_seat(s) for s in ("alice", "bob")])
    chain = Chain(peer_writer.make_genesis(game, opts, [(s, secrets[s.name].public) for s in specs], secrets["alice"]))
    carol = SecretIdentity.generate("carol")
    rng = random.Random(1)
    for _ in range(200):
        who = chain.writers()[0]
        if chain.chance_by() == "alice" and "bob" in chain.writers():
            break
        me = Party(chain, secrets[who])
        if not chain.deck.all_joined:
            data = peer_writer.join(chain, secrets[who])
        elif chain.needs(who) == "auto":
            data = me.answer()
        else:  # alice rolls (a chance that waits for bob's next link), bob plays as his bot likes
            state = me.state()
            roll = next((c for c in game.legal(state, who) if game.format(c, state, who) == "roll"), None)
            data = me.turn([roll if who == "alice" and roll is not None
                            else game.presentation.bots["random"](game, state, who, rng)])
        chain.append(data)
    else:
        raise AssertionError("no roll of alice's waited for bob's link")
    assert chain.version.rekey_starts_chain
    why = handover.may_hand_over(chain, "bob", "bob")
    assert why is not None and "a chance drawn by alice waits for beacon links" in why
    assert "waits for beacon links" in handover.may_take(chain, carol.public, "bob")
    # answered, the seat may go (once the game waits for it)
    chain.append(Party(chain, secrets["bob"]).answer())
    assert chain.chance_by() is None


def test_a_version_6_game_hands_over_as_it_always_did(tmp_path, monkeypatch):
    """No acceptance, none allowed; the re-keying file reveals the old
    chain's next link; the game verifies as it did."""
    from pbem.protocol.peer import writer as peer_writer

    monkeypatch.setattr(peer_writer, "PROTOCOL_VERSION", 6)
    keys, dirs = start(tmp_path, "aa", "peer", old=True)
    rng = random.Random(2)
    until_bob_decides(keys, dirs, rng, files=8)
    files = side(tmp_path, "carol") / "bob-files"
    shutil.copytree(dirs["bob"], files)
    carol_cli, bob_cli, alice_cli = (Pbem(keys[n].store.home) for n in ("carol", "bob", "alice"))
    refused_by(carol_cli, files, "handover", "accept", files, "--seat", "bob", "--as", "carol", "-o", tmp_path / "a",
               match="its handovers carry no acceptance")
    chain = folder_mod.load(dirs["bob"])
    assert not chain.version.handover_consent
    honest = Party(chain, keys["bob"].secret("bob")).handover("bob", keys["carol"].store.public("carol"))
    with_consent = doctored(honest, keys["bob"].secret("bob"), b64e(b"\x01" * 64))
    path = tmp_path / "x" / folder_mod.turn_name(chain.seq + 1, "bob")
    path.parent.mkdir()
    path.write_bytes(with_consent)
    refused_by(alice_cli, dirs["alice"], "apply", dirs["alice"], path,
               match="carries an acceptance, which games begun before protocol version 7 do not")
    bob_cli("handover", dirs["bob"], "--as", "bob", "--to", "carol")  # her name: as in version 6
    written = dirs["bob"] / path.name
    alice_cli("apply", dirs["alice"], written)
    carol_cli("join", side(tmp_path, "carol") / "game", *sorted(dirs["bob"].glob("0*.pbem")), "--as", "bob")
    dirs["bob"], keys["bob"] = side(tmp_path, "carol") / "game", keys["carol"]
    for _ in range(4):
        assert mail_step(keys, dirs, rng, "random")
    chain = folder_mod.load(dirs["alice"])
    seq = handover.since(chain, "bob")
    assert chain.records[seq].body.consent is None
    assert chain.records[seq + 1].body.rekey is not None and chain.records[seq + 1].body.beacon is not None
    alice_cli("verify", dirs["alice"])
