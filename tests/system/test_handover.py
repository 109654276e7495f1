"""Handing a seat over (issue #24, part 5): bob leaves, carol plays on.

Every person has a home of their own (one key store each). carol is known
to bob (he checked her fingerprint), not to alice: alice's address book
takes carol's key only through bob's signed handover. The handover seals
bob's cards and secrets to carol alone; afterwards carol plays the seat
from her own home with her own key, to the end, and the game verifies and
audits. Doctored handovers, re-signed with their writer's real key, are
refused by every verifier, or (what only carol can see) by carol."""

from __future__ import annotations

import copy
import os
import random
import shutil

import msgspec
import pytest

from conftest import Pbem, introduced, mail_step, play_to_end, snapshot
from test_long_games_readme import block, sh
from pbem.app import creating, opening, reading, receiving
from pbem.crypto.keys import SecretIdentity
from pbem.crypto.seal import open_envelope, seal
from pbem.crypto.encoding import canonical
from pbem.crypto import beacon, poker
from pbem.crypto.encoding import b64d, b64e
from pbem.errors import CryptoError, PbemError, SealError
from pbem.gamedir import folder as folder_mod
from pbem.protocol import acceptance, codec, dealer as dealer_mod, handover
from pbem.protocol.formats import TurnBody
from pbem.protocol.long_parts import SeatSecrets
from pbem.protocol.peer_parts import PeerSecrets
from pbem.protocol.peer import rekey
from pbem.protocol.peer.knowledge import sealed_ad
from pbem.protocol.peer.secrets import open_secret_box
from pbem.protocol.party import Party

LONG = bool(os.environ.get("PBEM_LONG"))


def people(tmp_path, bob_knows_carol=True):
    """alice, bob and rita know each other; carol knows them all, and only
    bob and the referee know carol."""
    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    keys.update(introduced(tmp_path / "c", ["carol"]))
    for n in ("alice", "bob", "rita"):
        keys["carol"].store.import_identity(keys[n].store.export(n))
    for n in ("bob", "rita") if bob_knows_carol else ("rita",):
        keys[n].store.import_identity(keys["carol"].store.export("carol"))
    return keys


def side(tmp_path, name):
    """Where `name` works: its game folder is `game` there, as in the README."""
    return tmp_path / f"{name}-side"


def start(tmp_path, game, dealer, old=False, bob_knows_carol=True, seats=("alice", "bob"), options=(), **new):
    keys = people(tmp_path, bob_knows_carol)
    for k in keys.values():
        k.old_protocol = old
    dirs = {n: side(tmp_path, n) / "game" for n in ("alice", "bob")}
    if dealer == "peer":
        creating.new_game(game, dirs["alice"], list(seats), keys["alice"], "peer", creator="alice", options=list(options))
        receiving.join(dirs["bob"], [dirs["alice"] / folder_mod.GENESIS], "bob", keys["bob"])
    else:
        dirs["rita"] = side(tmp_path, "rita") / "game"
        creating.new_game(game, dirs["rita"], ["alice", "bob"], keys["rita"], "referee", referee="rita", **new)
        for n in ("alice", "bob"):
            receiving.join(dirs[n], [dirs["rita"] / folder_mod.GENESIS], n, keys[n])
    for d in dirs.values():
        for other in dirs.values():
            receiving.apply_files(d, sorted(other.glob("0*.pbem")))
    return keys, dirs


def until_bob_decides(keys, dirs, rng, files: int, bot="random") -> None:
    for _ in range(600):
        chain = folder_mod.load(dirs["alice"])
        if chain.seq >= files and chain.writers() == ["bob"] and chain.needs("bob") == "decision":
            return
        assert mail_step(keys, dirs, rng, bot)
    raise AssertionError("bob never came to decide")


def hand(folder, seat, keys):
    chain = opening.open_game(folder)
    return reading.view_json(chain, opening.party(chain, seat, keys))


def carol_takes_over(tmp_path, keys, dirs, writer: str, readme: bool = False) -> None:
    """`writer` (bob, or the referee) hands seat bob over through the CLI
    (bob: the README's lines, with `readme`); alice (and rita) apply it;
    carol makes her folder from it."""
    files = side(tmp_path, "carol") / "bob-files"  # the game's files, as the writer mailed them to carol
    shutil.copytree(dirs[writer], files, dirs_exist_ok=True)
    accepted = side(tmp_path, writer) / "carol-accepts-bob.pbem"  # mailed back
    if readme:
        lines = block("a seat handed over")
        assert [line.split()[:3] for line in lines] == [["pbem", "id", "import"], ["pbem", "handover", "accept"],
                                                        ["pbem", "handover", "game"], ["pbem", "join", "game"]]
        (side(tmp_path, "bob") / "carol.id").write_bytes(keys["carol"].store.export("carol"))
        sh(lines[0], side(tmp_path, "bob"), keys["bob"].store.home)
        assert "carol-accepts-bob.pbem" in sh(lines[1], side(tmp_path, "carol"), keys["carol"].store.home).stdout
        shutil.copy(side(tmp_path, "carol") / "carol-accepts-bob.pbem", accepted)
        said = sh(lines[2], side(tmp_path, "bob"), keys["bob"].store.home)
    else:
        Pbem(keys["carol"].store.home)("handover", "accept", files, "--seat", "bob", "--as", "carol", "-o", accepted)
        said = Pbem(keys[writer].store.home)("handover", dirs[writer], "--as", writer, "--to", accepted,
                                             *(["--seat", "bob"] if writer != "bob" else []))
    path = dirs[writer] / folder_mod.load(dirs[writer]).records[-1].name
    assert path.name in said.stdout
    knew = keys["alice"].store.has_public("carol")
    for n in dirs:
        if n != writer:
            note = Pbem(keys[n].store.home)("apply", dirs[n], path).stderr
            if n == "alice" and not knew:  # carol's key, taken on the word of the handover
                assert "added seat bob (since seq" in note and "handover of seat bob" in note
    assert keys["alice"].store.public("carol") == keys["carol"].store.public("carol")
    if readme:
        shutil.copytree(dirs["bob"], files, dirs_exist_ok=True)
        sh(lines[3], side(tmp_path, "carol"), keys["carol"].store.home)
    else:
        joined = Pbem(keys["carol"].store.home)("join", side(tmp_path, "carol") / "game",
                                                *sorted(dirs[writer].glob("0*.pbem")), "--as", "bob")
        assert "you hold seat bob, handed over to you at seq" in joined.output and "rebuilt" not in joined.output
    assert folder_mod.load(side(tmp_path, "carol") / "game").head == folder_mod.load(dirs[writer]).head


def play_on(keys, dirs, rng, bot="random", files: int | None = None) -> None:
    """carol plays seat bob (from her folder and home) to the end, or `files` files."""
    dirs["bob"], keys["bob"] = dirs["carol"], keys["carol"]
    for _ in range(files or 2000):
        if not mail_step(keys, dirs, rng, bot):
            break
    if files is None:
        assert folder_mod.load(dirs["carol"]).over


def sealed_to_carol(keys, folder) -> SeatSecrets:
    """What the handover of seat bob sealed to carol; nobody else's key opens it."""
    chain = folder_mod.load(folder)
    seq = handover.since(chain, "bob")
    ad = handover.box_ad(chain.game_id, seq, "bob")
    box = chain.records[seq].body.handover.box
    for n in ("alice", "bob", "rita"):
        with pytest.raises(SealError):
            open_envelope(box, keys[n].secret(n).seated_as("bob"), ad)
    return msgspec.json.decode(open_envelope(box, keys["carol"].secret("carol").seated_as("bob"), ad), type=SeatSecrets)


def nowhere_in_clear(keys, dirs, secrets: SeatSecrets) -> None:
    """No file in the homes and folders of anyone but carol holds the
    handover's secrets in clear (the salts of bob's cards, his scalar)."""
    words = [o.salt.encode() for o in secrets.openings]
    if secrets.peer is not None:
        words += [secrets.peer.scalar.encode(), secrets.peer.beacon_seed.encode()]
    assert words
    places = [keys[n].store.home for n in ("alice", "bob", "rita")] + [d for n, d in dirs.items() if n != "carol"]
    for place in places:
        for path in place.rglob("*"):
            if path.is_file():
                data = path.read_bytes()
                assert not [w for w in words if w in data], path


def sealed_after(keys, folder, old_bob: SecretIdentity) -> int:
    """The old seat's key opens nothing of seat bob's after the handover
    and plays no more; how many deliveries were sealed to the seat since."""
    chain = folder_mod.load(folder)
    seq = handover.since(chain, "bob")
    later = [(r.seq, d) for r in chain.records[seq + 1:] for d in r.body.deliveries if d.to == "bob"]
    if chain.deck is None:  # the cards dealt to seat bob after the handover: carol's alone
        for at, d in later:
            with pytest.raises(SealError):
                dealer_mod.open_openings(d.envelope, old_bob, dealer_mod.delivery_ad(chain.game_id, at, "bob"))
    with pytest.raises(PbemError, match="handed over to carol"):
        Party(chain, old_bob)
    return len(later)


def old_peer_secrets(folder, old_bob: SecretIdentity) -> PeerSecrets:
    """bob's own scalar and beacon seed, from his join, with his key."""
    chain = folder_mod.load(folder)
    if chain.genesis.peer.creator == "bob":
        return open_secret_box(chain.genesis.peer.secret_box, old_bob, chain.genesis.nonce)
    join = next(r for r in chain.records[1:] if r.by == "bob" and r.body.join is not None)
    return open_secret_box(join.body.join.secret_box, old_bob, chain.genesis.nonce)


def opened_nothing_later(keys, folder, old_bob: SecretIdentity, old: PeerSecrets) -> int:
    """In a peer game, after the handover of seat bob, the old player's
    real scalar, beacon seed and key open no card dealt to the seat since:
    every card carol reads that is not face up and that bob did not hold
    stays closed to bob's scalar (on its point as play left it, every other
    seat's layer off), no link the seat revealed since comes from bob's
    seed, and no partial sealed to the seat since opens with bob's key.
    (What bob could read at the handover is his: he saw it.)"""
    chain = folder_mod.load(folder)
    seq = handover.since(chain, "bob")
    assert chain.records[seq + 1].body.rekey is not None  # carol's first file: her fresh layers
    held = chain.records[seq].prior.deck.knows("bob")  # what bob could read: his to keep
    carol = Party(chain, keys["carol"].secret("carol").seated_as("bob"))
    later = {ref: card for ref, card in carol.cards.items() if ref not in chain.revealed and ref not in held
             and chain.deck.remaining.get(ref) == {"bob"}}
    scalar = b64d(old.scalar, 32)
    for ref in later:
        with pytest.raises(CryptoError):
            chain.deck.identify(poker.decrypt(scalar, chain.deck.points[ref]))
    links, x = set(), b64d(old.beacon_seed, 32)  # every link of bob's chain: the seed, hashed on and on
    for _ in range(chain.deck.beacon_length):
        links.add(x)
        x = beacon.anchor(x, 1)
    # from version 7 the re-keying file reveals no link: every link the seat reveals after the handover is
    # carol's, and no chance drawn since (from every seat's latest link, `BeaconChance`, `beacon.chance_key`)
    # takes one of bob's: the seat's latest link is never his from the re-keying on
    assert chain.version.rekey_starts_chain and chain.records[seq + 1].body.beacon is None
    revealed = [b64d(r.body.beacon, 32) for r in chain.records[seq + 1:] if r.by == "bob" and r.body.beacon]
    assert revealed and not links & set(revealed)
    latest = [r.prior.deck.latest["bob"] for r in chain.records[seq + 2:]] + [chain.deck.latest["bob"]]
    assert not links & set(latest)
    assert any(r.chance for r in chain.records[seq + 2:]) or not any(r.chance for r in chain.records)
    for r in chain.records[seq + 1:]:
        for box in r.body.sealed:
            if box.to == "bob":
                with pytest.raises(SealError):
                    open_envelope(box.envelope, old_bob, sealed_ad(chain.game_id, r.seq, "bob"))
    return len(later)  # how many cards of the shared deck it tried


# the peer game in the full run only: the quick subset keeps the referee's,
# and the peer handover's doctored files (`test_doctored_handovers`)
@pytest.mark.parametrize("dealer", [pytest.param("peer", marks=pytest.mark.slow), "referee"])
def test_agent_avenue_seat_handed_over_mid_game(tmp_path, dealer):
    """In the peer game bob hands over, with the README's lines; in the
    referee game bob vanished, and the referee hands his seat over."""
    keys, dirs = start(tmp_path, "aa", dealer, bob_knows_carol=dealer != "peer",
                       **({"referee_handover": True} if dealer == "referee" else {}))
    rng, bot = random.Random(2 if dealer == "peer" else 1), "random" if dealer == "peer" else "greedy"  # short games
    until_bob_decides(keys, dirs, rng, files=8, bot=bot)
    before = hand(dirs["bob"], "bob", keys["bob"])
    old_bob = keys["bob"].secret("bob")
    carol_takes_over(tmp_path, keys, dirs, "bob" if dealer == "peer" else "rita", readme=dealer == "peer")
    dirs["carol"] = side(tmp_path, "carol") / "game"
    assert hand(dirs["carol"], "bob", keys["carol"]) == before  # carol sees what bob saw
    alice = Pbem(keys["alice"].store.home)
    assert "hands seat bob over to carol" in alice("log", dirs["alice"]).stdout
    assert ("referee may hand a vanished seat over" in alice("info", dirs["alice"]).stdout) == (dealer == "referee")
    assert alice.json("info", dirs["alice"])["handed_over"]["bob"]["to"] == "carol"
    nowhere_in_clear(keys, dirs, sealed_to_carol(keys, dirs["carol"]))
    dirs.pop("bob")
    if dealer == "peer":  # what bob read, and his secrets: they open nothing dealt to the seat later
        old = old_peer_secrets(dirs["alice"], old_bob)
        play_on(keys, dirs, rng, bot=bot, files=6)
        assert opened_nothing_later(keys, dirs["carol"], old_bob, old)
    play_on(keys, dirs, rng, bot=bot)
    for n in ("carol", "alice"):
        cli = Pbem(keys[n].store.home)
        cli("verify", dirs[n])
        assert "ok" in cli("audit", dirs[n]).stdout.lower()
    assert sealed_after(keys, dirs["carol"], old_bob) or dealer == "peer"
    if dealer == "peer":
        opened_nothing_later(keys, dirs["carol"], old_bob, old)


@pytest.mark.skipif(not LONG, reason="long mode (PBEM_LONG=1): a Codex game played to its end")
def test_codex_referee_hands_a_vanished_seat_over(tmp_path):
    """bob vanished: the referee, as the genesis lets it, hands his seat to
    carol, who plays on to the end."""
    keys, dirs = start(tmp_path, "cx", "referee", referee_handover=True)
    rng = random.Random(5)
    until_bob_decides(keys, dirs, rng, files=6, bot="greedy")
    before = hand(dirs["bob"], "bob", keys["bob"])
    old_bob, old_dir = keys["bob"].secret("bob"), dirs.pop("bob")
    carol_takes_over(tmp_path, keys, dirs, "rita")
    dirs["carol"] = side(tmp_path, "carol") / "game"
    assert hand(dirs["carol"], "bob", keys["carol"]) == before
    dirs["bob"] = old_dir
    nowhere_in_clear(keys, dirs, sealed_to_carol(keys, dirs["carol"]))
    dirs.pop("bob")
    play_on(keys, dirs, rng, bot="greedy")
    for n in ("carol", "alice", "rita"):
        Pbem(keys[n].store.home)("verify", dirs[n])
    assert "ok" in Pbem(keys["carol"].store.home)("audit", dirs["carol"]).stdout.lower()
    sealed_after(keys, dirs["carol"], old_bob)


@pytest.mark.skipif(not LONG, reason="long mode (PBEM_LONG=1): a Codex game played to its end")
def test_codex_peer_seat_handed_over(tmp_path):
    """A peer Codex game: bob's own deck is his private deck, whose places
    he knew. carol's first file shuffles what is left of it again and
    re-keys the rest; bob's real scalar then opens none of the cards still
    in it, nor any card carol draws; the game plays to its end, verified
    and audited. (In the default run the doctored re-keyings shuffle a
    private deck: Agent Avenue's black market.)"""
    keys, dirs = start(tmp_path, "cx", "peer")
    rng = random.Random(3)
    until_bob_decides(keys, dirs, rng, files=6, bot="greedy")
    old_bob = keys["bob"].secret("bob")
    old = old_peer_secrets(dirs["alice"], old_bob)
    carol_takes_over(tmp_path, keys, dirs, "bob")
    dirs["carol"] = side(tmp_path, "carol") / "game"
    dirs.pop("bob")
    play_on(keys, dirs, rng, bot="greedy")
    chain = folder_mod.load(dirs["carol"])
    seq = handover.since(chain, "bob")
    decks = chain.records[seq + 1].body.rekey.decks
    assert decks  # bob's deck, shuffled again
    prior = chain.records[seq].prior  # the game as bob left it: the cards then in his deck
    in_deck = [ref for refs in rekey.in_decks(prior.deck, prior.public, "bob").values() for ref in refs]
    assert "deck:bob" in decks and in_deck
    scalar = b64d(old.scalar, 32)
    for ref in in_deck:  # drawn by carol since, or still there: not face up, and closed to bob
        if ref not in chain.revealed:
            with pytest.raises(CryptoError):
                chain.deck.identify(poker.decrypt(scalar, chain.deck.points[ref]))
    opened_nothing_later(keys, dirs["carol"], old_bob, old)
    for n in ("carol", "alice"):
        Pbem(keys[n].store.home)("verify", dirs[n])
    assert "ok" in Pbem(keys["carol"].store.home)("audit", dirs["carol"]).stdout.lower()


def test_a_hotseat_seat_handed_over(tmp_path):
    pbem = Pbem(tmp_path / "home")
    for n in ("alice", "bob", "carol"):
        pbem("id", "new", n, "--no-passphrase")
    game = tmp_path / "g"
    pbem("new", "aa", game, "--seat", "alice", "--seat", "bob", "--seed", "4")
    rng = random.Random(4)
    while True:
        st = pbem.json("status", game)
        who = st["to_act"][0]["seat"]
        if who == "bob" and st["seq"] >= 6:
            break
        pbem("submit", game, "--as", who, "--cmd", rng.choice(pbem.json("legal", game, "--as", who)))
    seen = pbem.json("show", game, "--as", "bob")
    pbem("handover", game, "--as", "bob", "--to", "carol")
    assert pbem.json("show", game, "--as", "bob") == seen  # with carol's key now
    assert not play_to_end(pbem, game, seed=4)["to_act"]
    pbem("verify", game)
    assert "ok" in pbem("audit", game).stdout.lower()


# --- bad input: a one-line error, and nothing changes ---------------------------------


def refused(keys, who, folder, *args, match: str) -> None:
    before = snapshot(folder)
    result = Pbem(keys[who].store.home).fails("handover", folder, "--as", who, *args)
    assert match in result.stderr, result.stderr
    assert snapshot(folder) == before


def test_bad_handovers_are_refused(tmp_path):
    keys, dirs = start(tmp_path, "aa", "referee")
    keys.update(introduced(tmp_path / "d", ["dave"]))
    keys["alice"].store.import_identity(keys["carol"].store.export("carol"))
    rng = random.Random(2)
    until_bob_decides(keys, dirs, rng, files=4)
    (tmp_path / "dave.id").write_bytes(keys["dave"].store.export("dave"))
    refused(keys, "bob", dirs["bob"], "--to", "dave", match="dave is not in your address book")
    refused(keys, "bob", dirs["bob"], "--to", tmp_path / "dave.id", match="not one your address book accepted")
    refused(keys, "bob", dirs["bob"], "--to", "alice", match="alice (")  # already seated
    refused(keys, "bob", dirs["bob"], "--to", "rita", match="already in this game, as the dealer")
    refused(keys, "alice", dirs["alice"], "--seat", "bob", "--to", "carol", match="only bob itself may hand seat bob over")
    refused(keys, "rita", dirs["rita"], "--seat", "bob", "--to", "carol",
            match="genesis does not let its referee hand a seat over")
    refused(keys, "alice", dirs["alice"], "--to", "carol", match="waits for bob, not for alice")
    carol_takes_over(tmp_path, keys, dirs, "bob")
    gone = Pbem(keys["bob"].store.home).fails("show", dirs["bob"], "--as", "bob")  # bob's key no longer plays
    assert "seat bob was handed over to carol" in gone.stderr
    keys["carol"].store.import_identity(keys["dave"].store.export("dave"))
    refused(keys, "carol", side(tmp_path, "carol") / "game", "--to", "dave", match="plays seat bob in this game")
    folder = side(tmp_path, "carol") / "game"
    before = snapshot(folder)
    result = Pbem(keys["carol"].store.home).fails("handover", folder, "--as", "bob", "--to", "dave")
    assert "seat bob was handed over already, to carol" in result.stderr and snapshot(folder) == before


def test_a_game_of_protocol_version_5_cannot_hand_over(tmp_path, monkeypatch):
    monkeypatch.setattr(dealer_mod, "PROTOCOL_VERSION", 5)
    keys, dirs = start(tmp_path, "aa", "referee", old=True)
    with pytest.raises(PbemError, match="protocol version 6 or later"):
        creating.new_game("aa", tmp_path / "v5", ["alice", "bob"], keys["rita"], "referee", referee="rita",
                         referee_handover=True)
    until_bob_decides(keys, dirs, random.Random(1), files=4)
    refused(keys, "bob", dirs["bob"], "--to", "carol", match="before protocol version 6 cannot hand a seat over")


# --- doctored handovers, re-signed with their writer's real key -------------------------


def resigned(data: bytes, signer: SecretIdentity, **change) -> bytes:
    body = codec.decode_body(codec.read_envelope(data), TurnBody)
    h = msgspec.structs.replace(body.handover, **change)
    return codec.encode_signed("turn", msgspec.structs.replace(body, handover=h), signer)


@pytest.mark.parametrize("dealer", ["referee", "peer"])
def test_doctored_handovers(tmp_path, dealer):
    # the peer game with the black market, whose deck is the first seat's (bob's) private deck
    keys, dirs = start(tmp_path, "aa", dealer, **({"referee_handover": True} if dealer == "referee" else
                                                  {"seats": ("bob", "alice"), "options": ("mode=advanced",)}))
    keys.update(introduced(tmp_path / "d", ["dave"]))
    until_bob_decides(keys, dirs, random.Random(6), files=4)
    chain = folder_mod.load(dirs["bob"])
    bob, carol = keys["bob"].secret("bob"), keys["carol"].store.public("carol")
    _, consent = acceptance.read(acceptance.make(chain, keys["carol"].secret("carol"), "bob", None))
    honest = Party(chain, bob).handover("bob", carol, None, consent)
    seq = chain.seq + 1
    as_carol = keys["carol"].secret("carol").seated_as("bob")

    def judged(data):  # the chain with `data` on it, or the refusal every verifier makes
        again = folder_mod.load(dirs["bob"])
        again.append(data, f"{seq:06d}-bob.pbem")
        return again

    Party(judged(honest), as_carol)  # the honest one opens for carol
    # every verifier refuses: another seat's handover, a newcomer already seated, other cards named
    for change, match in [({"seat": "alice"}, "only alice itself"),
                          ({"address": "carol at home"}, "no valid mail address"),
                          ({"to": keys["alice"].store.public("alice")}, "already in this game"),
                          ({"refs": ["x1"]}, "other cards than those bob knows")]:
        with pytest.raises(PbemError, match=match):
            judged(resigned(honest, bob, **change))
    # a wrong recipient: the box is carol's, the file names dave, who did not accept: from version 7 every
    # verifier refuses it (before, only dave could tell, opening the box: test_handover_consent.py)
    dave = keys["dave"].store.public("dave")
    with pytest.raises(PbemError, match="dave did not sign this handover of seat bob"):
        judged(resigned(honest, bob, to=dave))
    # swapped sealed secrets, sealed to carol: she refuses them, naming the signer
    mine = handover.opened(judged(honest), as_carol)
    ad = handover.box_ad(chain.game_id, seq, "bob")
    alice = Party(chain, keys["alice"].secret("alice"))
    if dealer == "referee":  # alice's cards; bob's cards, named otherwise
        assert mine.openings
        swaps = [SeatSecrets(openings=sorted(alice.openings.values(), key=lambda o: o.ref)),
                 SeatSecrets(openings=[msgspec.structs.replace(o, card="Mole") for o in mine.openings])]
    else:  # alice's scalar and beacon seed
        swaps = [msgspec.structs.replace(mine, peer=alice.peer_secrets)]
    for swapped in swaps:
        box = seal(canonical(swapped), [carol], ad)
        with pytest.raises(PbemError, match=r"signed by bob\)"):
            _ = Party(judged(resigned(honest, bob, box=box)), as_carol).cards
    if dealer == "peer":
        doctored_rekeys(judged(honest), as_carol, alice)


def doctored_rekeys(chain, as_carol: SecretIdentity, alice: Party) -> None:
    """carol's first file in the peer game, her fresh layers (`Rekey`),
    doctored and re-signed with her key: every verifier refuses it; and
    what she publishes at the end must hold the factor she re-keyed with."""
    honest = Party(chain, as_carol).answer()
    body = codec.decode_body(codec.read_envelope(honest), TurnBody)
    rk = body.rekey
    assert rk.points and rk.keys and list(rk.decks) == ["market:deck"]
    market = rk.decks["market:deck"]
    name = f"{chain.seq + 1:06d}-bob.pbem"

    def judged(data):
        again = copy.deepcopy(chain)
        again.append(data, name)
        return again

    def rekeyed(**change):
        return codec.encode_signed("turn", msgspec.structs.replace(body, rekey=msgspec.structs.replace(rk, **change)),
                                   as_carol)

    other = alice.peer_secrets.scalar  # a real scalar, not carol's factor
    for change, match in [({"points": rk.points[1:] + rk.points[:1]}, "do not verify"),
                          ({"points": rk.points[:-1], "proofs": rk.proofs[:-1]}, "not the"),
                          ({"factor": b64e(poker.public_key(b64d(other, 32)))}, "do not verify"),
                          ({"keys": []}, "other keys"),
                          ({"proofs": rk.proofs[::-1]}, "do not verify"),
                          ({"decks": {}}, "other private decks"),
                          ({"decks": {"market:deck": msgspec.structs.replace(market, points=market.points[::-1])}},
                           "not a shuffle of the deck it received")]:
        with pytest.raises(PbemError, match=match):
            judged(rekeyed(**change))
    with pytest.raises(PbemError, match="may not carry beacon"):  # version 7: no link of the old chain
        judged(codec.encode_signed("turn", msgspec.structs.replace(body, beacon=rk.anchor), as_carol))
    with pytest.raises(PbemError, match="may not carry commands"):  # a move in its place
        judged(codec.encode_signed("turn", msgspec.structs.replace(
            body, rekey=None, commands=[msgspec.Raw(b'{"t":"aa.x"}')]), as_carol))
    # what only carol can check: the factor and seed she sealed to herself
    for r, seed in [(poker.new_scalar(), b"\x01" * 32), (b64d(other, 32), b"\x02" * 32)]:
        box = seal(r + seed, [as_carol.public], rekey.box_ad(chain.game_id, chain.seq + 1))
        with pytest.raises(PbemError, match="sealed to itself"):
            _ = Party(judged(rekeyed(box=box)), as_carol).peer_secrets
    after = judged(honest)
    mine = Party(after, as_carol).peer_secrets
    after.deck.copy().publish("bob", mine)
    for wrong, match in [(other, "not the one its layers were re-keyed with"), (None, "no factor")]:
        with pytest.raises(PbemError, match=match):
            after.deck.copy().publish("bob", msgspec.structs.replace(mine, rekey=wrong))


@pytest.mark.skipif(not LONG, reason="long mode (PBEM_LONG=1): a Codenames Duet game played to its end")
def test_a_duet_seat_handed_over(tmp_path):
    """A peer game with a two-faced deck (each Duet player reads its own
    side of the key): carol reads bob's side after the handover."""
    keys, dirs = start(tmp_path, "cn", "peer", seats=("alice:a", "bob:b"), options=("variant=duet",))
    rng = random.Random(2)
    until_bob_decides(keys, dirs, rng, files=4)
    before = hand(dirs["bob"], "bob", keys["bob"])
    carol_takes_over(tmp_path, keys, dirs, "bob")
    dirs["carol"] = side(tmp_path, "carol") / "game"
    assert hand(dirs["carol"], "bob", keys["carol"]) == before
    dirs.pop("bob")
    play_on(keys, dirs, rng)
    assert "ok" in Pbem(keys["carol"].store.home)("audit", dirs["carol"]).stdout.lower()


def test_a_spymaster_handed_over_before_the_key_is_shared(tmp_path):
    """A peer Codenames game of three seats: both spymasters read the key,
    each sealing its partials to the other. bob, the first to owe them,
    hands his seat over before he sealed his: carol seals hers (under her
    re-keyed layer) to alice, alice seals hers to carol, and both read the
    whole key; bob's key and scalar open none of it, even with alice's
    layer off. In long mode the game plays to its end, verified and audited."""
    keys = people(tmp_path)
    dirs = {n: side(tmp_path, n) / "game" for n in ("alice", "bob", "rita")}
    creating.new_game("cn", dirs["bob"], ["bob:red-spymaster", "alice:blue-spymaster", "rita:shared"],
                     keys["bob"], "peer", creator="bob", options=["variant=three"])
    receiving.join(dirs["alice"], [dirs["bob"] / folder_mod.GENESIS], "alice", keys["alice"])
    receiving.join(dirs["rita"], sorted(dirs["alice"].glob("0*.pbem")), "rita", keys["rita"])
    for d in dirs.values():
        for other in dirs.values():
            receiving.apply_files(d, sorted(other.glob("0*.pbem")))
    rng = random.Random(4)
    for _ in range(60):
        chain = folder_mod.load(dirs["alice"])
        owed = [o for o in chain.obligations() if o.by == "bob" and o.what == "deliver"]
        if chain.writers() == ["bob"] and owed and chain.deck.complete:
            break
        assert mail_step(keys, dirs, rng, "random")
    else:
        raise AssertionError("bob never owed his partials")
    key = set(chain.deck.remaining) - chain.deck.knows("bob")
    assert len(key) == 25  # the key he shares with alice: he cannot read it yet
    old_bob, old = keys["bob"].secret("bob"), old_peer_secrets(dirs["alice"], keys["bob"].secret("bob"))
    carol_takes_over(tmp_path, keys, dirs, "bob")
    dirs["carol"] = side(tmp_path, "carol") / "game"
    dirs.pop("bob")
    play_on(keys, dirs, rng, files=8)
    chain = folder_mod.load(dirs["carol"])
    seq = handover.since(chain, "bob")
    sealed = {(r.by, box.to) for r in chain.records[seq + 1:] for box in r.body.sealed}
    assert {("bob", "alice"), ("alice", "bob")} <= sealed  # both ways, after the handover
    carol = Party(chain, keys["carol"].secret("carol").seated_as("bob")).cards
    alice = Party(chain, keys["alice"].secret("alice")).cards
    assert {r: carol[r] for r in key} == {r: alice[r] for r in key}
    # even with alice's layer off (her partial went sealed to carol), bob's scalar opens no cell of the key
    mine = b64d(Party(chain, keys["alice"].secret("alice")).peer_secrets.scalar, 32)
    for ref in key - set(chain.revealed):
        if chain.deck.remaining[ref] == {"alice", "bob"}:
            with pytest.raises(CryptoError):
                chain.deck.identify(poker.decrypt(b64d(old.scalar, 32), poker.decrypt(mine, chain.deck.points[ref])))
    opened_nothing_later(keys, dirs["carol"], old_bob, old)
    if LONG:  # to the end
        play_on(keys, dirs, rng)
        for n in ("carol", "alice"):
            Pbem(keys[n].store.home)("verify", dirs[n])
        assert "ok" in Pbem(keys["carol"].store.home)("audit", dirs["carol"]).stdout.lower()
