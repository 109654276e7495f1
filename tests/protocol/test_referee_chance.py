"""A referee's public chance is proven when its file arrives (protocol
version 7, `pbem.protocol.referee_chance`; issue #25).

Dark Agent under a referee, each party in its own home with its own keys,
its own folder and `pbem apply` between them: the referee doctors the dice
of an attack (its own pbem computes the whole answer, state and all, from
the seed of its choosing, and signs it with its real key); alice's `pbem
apply` refuses it at once, naming the file, and her folder is left as it
was; `pbem verify` and a watcher of a folder holding it name it too. A game begun under version 6 keeps drawing them from the game seed,
checked by the audit only (`test_chance_mechanisms` shows the audit
catching doctored ones there).
"""

from __future__ import annotations

import hashlib
import random
import shutil

import msgspec
import pytest

from conftest import Pbem, introduced, snapshot
from pbem.app import creating, opening, receiving
from pbem.app.audit import audit
from pbem.crypto.encoding import b64d, b64e
from pbem.gamedir import folder as folder_mod
from pbem.games.dark_agent.commands import Attack, Vote
from pbem.protocol import codec, dealer as dealer_mod, formats, referee_chance
from pbem.protocol.formats import TurnBody
import tamper


def _start(tmp_path):
    keys = introduced(tmp_path, ["alice", "rita"])
    dirs = {n: tmp_path / f"{n}-side" / "game" for n in ("alice", "rita")}
    creating.new_game("dark-agent", dirs["rita"], ["alice"], keys["rita"], "referee", referee="rita",
                      options=["aims=2"])  # solo: alice against the game
    for n in ("alice",):
        receiving.join(dirs[n], [dirs["rita"] / folder_mod.GENESIS], n, keys[n])
    for d in dirs.values():
        for other in dirs.values():
            receiving.apply_files(d, sorted(other.glob("0*.pbem")))
    return keys, dirs


def _until_the_referee_owes_dice(keys, dirs, rng):
    """Honest files (an attack, or a vote against the area's shift, where
    one is legal, else the random bot's move; the referee's answers),
    written by each party's own writer with its own key on rita's chain in
    memory (quicker than folders), then applied to alice's folder, until the
    referee's next answer draws dice: rita's chain then."""
    from pbem.protocol.party import Party

    chain = folder_mod.load(dirs["rita"])
    staged = dirs["rita"].parent / "staged"
    staged.mkdir()
    for _ in range(400):
        me = chain.writers()[0]
        party = Party(chain, keys[me].secret(me))
        if chain.needs(me) == "auto":
            data = party.answer()
            if me == "rita" and codec.decode_body(codec.read_envelope(data), TurnBody).chance is not None:
                receiving.apply_files(dirs["alice"], sorted(staged.iterdir()))
                return chain
        else:
            state = party.state()
            wanted = [c for c in chain.game.legal(state, me) if isinstance(c, Attack) or c == Vote(False)]
            data = party.turn([wanted[0] if wanted else chain.game.presentation.bots["random"](
                chain.game, state, me, rng)])
        chain.append(data)
        (staged / folder_mod.turn_name(chain.seq, me)).write_bytes(data)
    raise AssertionError("the referee never drew dice")


def _other_dice(real, n: int):
    """`referee_chance.draw` as a referee that rolls what it likes: a seed of
    its choosing (the `n`-th it tries), beside the proof of its true draw."""
    def draw(master, game_id, contributions, name):
        seed, proof = real(master, game_id, contributions, name)
        return (seed if name == referee_chance.SET_UP else hashlib.sha256(b"loaded %d" % n).digest()), proof
    return draw


def _state(data: bytes) -> str:
    return codec.decode_body(codec.read_envelope(data), TurnBody).state


def test_a_referees_doctored_dice_are_refused_at_once_by_a_players_apply(tmp_path, monkeypatch):
    keys, dirs = _start(tmp_path)
    chain = _until_the_referee_owes_dice(keys, dirs, random.Random(3))
    assert chain.version.proven_chance and chain.genesis.dealer.chance_key is not None
    rita = keys["rita"].secret("rita")
    honest = dealer_mod.answer(chain, rita)
    for n in range(40):  # the referee tries seeds until the die is another (the UN vote's roll, here)
        with monkeypatch.context() as m:
            m.setattr(referee_chance, "draw", _other_dice(referee_chance.draw, n))
            forged = dealer_mod.answer(chain, rita)
        if _state(forged) != _state(honest):
            break
    assert _state(forged) != _state(honest), "the doctored die changes the game"
    name = folder_mod.turn_name(chain.seq + 1, "rita")
    mail = tmp_path / "mail" / name
    mail.parent.mkdir()
    mail.write_bytes(forged)
    alice = Pbem(keys["alice"].store.home)
    before = snapshot(dirs["alice"])
    result = alice.fails("apply", dirs["alice"], mail)
    assert name in result.stderr and "the referee's chance is not the output its key proves" in result.stderr, \
        result.stderr
    assert snapshot(dirs["alice"]) == before
    # `pbem verify` of a folder holding it says the same
    copy = tmp_path / "copy"
    shutil.copytree(dirs["alice"], copy)
    (copy / name).write_bytes(forged)
    assert name in Pbem(keys["alice"].store.home).fails("verify", copy).stderr
    before = snapshot(copy)  # and a watcher of it (a shared folder) names it, writing nothing
    out = alice("watch", copy, "--as", "alice", "--once", ok=False, env={"PBEM_WATCH_SETTLE": "0.05"}).output
    assert name in out and "the referee's chance is not the output its key proves" in out, out
    assert snapshot(copy) == before
    # a proof of another draw, or none, is refused the same way; the honest answer goes in
    other_key = b64e(referee_chance.draw(b"\x07" * 32, chain.game_id, [], "play 1")[1])
    for proof, message in ((None, "carries no proof"), (other_key, "is not proven: the VRF proof does not verify")):
        mail.write_bytes(codec.encode_signed("turn", msgspec.structs.replace(
            codec.decode_body(codec.read_envelope(honest), TurnBody), chance_proof=proof), rita))
        said = alice.fails("apply", dirs["alice"], mail).stderr
        assert name in said and message in said, said
    mail.write_bytes(honest)
    alice("apply", dirs["alice"], mail)
    assert folder_mod.load(dirs["alice"]).seq == chain.seq + 1


def _version_6(monkeypatch):
    monkeypatch.setattr(dealer_mod, "PROTOCOL_VERSION", 6)
    monkeypatch.setattr(formats, "PROTOCOL_VERSION", 6)  # what a seat's first file checks


def _played(tmp_path, seats=("alice",)):
    table = tamper.play("dark-agent", "referee", list(seats), 2, ("aims=2",))
    path = tamper.save(table, tmp_path / "game")
    return table, path


def test_every_public_draw_of_a_version_7_referee_game_is_proven_and_the_game_audits(tmp_path):
    table, path = _played(tmp_path)
    chain = opening.verify(path)
    assert chain.genesis.version >= 7 and chain.over
    deal = next(r for r in chain.records if r.body.setup_seed is not None)
    answers = [r for r in chain.records if r.seq and r.by == chain.dealer_name and r.body.chance is not None]
    assert deal.body.chance_proof is not None and answers and all(r.body.chance_proof for r in answers)
    assert chain.now.chance_draws == len(answers)
    assert audit(path).ok
    # the seed's key: the audit names a genesis whose key is another (its dice proven under that key still)
    assert chain.genesis.dealer.chance_key == referee_chance.public_key(chain.seed)


def test_a_version_6_referee_game_still_verifies_and_audits_as_before(tmp_path, monkeypatch):
    """Dice drawn from the game seed, with no proof, checked by the audit;
    the genesis names no key, and a file of it with one is refused."""
    _version_6(monkeypatch)
    table, path = _played(tmp_path)
    monkeypatch.undo()
    chain = opening.verify(path)
    assert chain.genesis.version == 6 and chain.genesis.dealer.chance_key is None and not chain.version.proven_chance
    answers = [r for r in chain.records if r.seq and r.by == chain.dealer_name and r.body.chance is not None]
    assert answers and not any(r.body.chance_proof for r in chain.records[1:])
    report = audit(path)
    assert report.ok, report.failures
    seed = dealer_mod.game_seed(chain, chain.seed)
    assert all(b64d(r.body.chance, 32) == dealer_mod.public_chance_seed(seed, r.seq) for r in answers)
    # a proof slipped into a version-6 answer is a part that game's files do not have
    k = answers[0].seq
    forged = codec.encode_signed("turn", msgspec.structs.replace(answers[0].body, chance_proof=b64e(bytes(80))),
                                 table.secrets["rita"])
    with pytest.raises(Exception, match="may not carry chance_proof"):
        tamper.replay(table.files[:k] + [forged])


def test_a_referee_genesis_names_a_valid_chance_key_and_only_it_does():
    """Checked with the genesis, so a seat never joins a game whose dice no
    one could check: no key, a key that is no point of the group, or a key
    in a hotseat genesis, each re-signed by its writer, is refused."""
    from pbem.errors import FormatError
    from pbem.protocol.chain import Chain
    from pbem.protocol.formats import GenesisBody

    table = tamper.play("dark-agent", "referee", ["alice"], 2, ("aims=2",))
    body = codec.decode_body(codec.read_envelope(table.files[0]), GenesisBody)
    order_two = b64e((2**255 - 20).to_bytes(32, "little"))
    for key, message in ((None, "names the key of its chance"), (order_two, "chance key: the VRF key is not a valid point")):
        forged = codec.encode_signed("genesis", msgspec.structs.replace(
            body, dealer=msgspec.structs.replace(body.dealer, chance_key=key)), table.secrets["rita"])
        with pytest.raises(FormatError, match=message):
            Chain(forged)
    hotseat = tamper.play("dark-agent", "hotseat", ["alice"], 2, ("aims=2",))
    body = codec.decode_body(codec.read_envelope(hotseat.files[0]), GenesisBody)
    forged = codec.encode_signed("genesis", msgspec.structs.replace(
        body, dealer=msgspec.structs.replace(body.dealer, chance_key=order_two)), hotseat.secrets["dealer"])
    with pytest.raises(FormatError, match="only a referee game of protocol version 7 or later names a chance key"):
        Chain(forged)
