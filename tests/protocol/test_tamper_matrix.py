"""The tamper matrix (issue #7 part 9): every field of every signed file of a
finished game, changed and re-signed by its writer's real key; the outer
envelope changed; envelopes swapped between seats, turns and games; files
signed by another party. Every game, every dealer mode.

In CI each (field, kind of change) of each kind of file is tried at least
once (a deterministic sample); ``PBEM_LONG=1`` tries every mutation of every
file. The figures are printed at the end of the session (see conftest.py).
What is accepted is listed there too; an acceptance that is not below, with
its reason, fails the test.
"""

from __future__ import annotations

from pathlib import Path

import os
import random
import re

import pytest

import tamper
from pbem import games
from pbem.app import opening
from pbem.home import checkpoint
from pbem.errors import PbemError
from pbem.protocol import codec
from pbem.gamedir import file_memory, folder
from pbem.protocol.peer import deck as peer, renewal as peer_renewal

LONG = os.environ.get("PBEM_LONG") == "1"
CONFIGS = [(g, m) for g in ("agent-avenue", "codenames", "lucky") for m in ("hotseat", "referee", "peer")]
#: game variants played by the matrix under a name of their own: (game, seats, options)
VARIANTS = {"duet": ("codenames", ["alice", "bob"], ("variant=duet", "timer=2"))}
CONFIGS.append(("duet", "peer"))  # the two-faced deck
#: a ballot its keeper cannot tally, voided (issue #20): the void file and the vote cast again
VARIANTS["lucky-void"] = ("lucky", ["alice", "bob"], ())
CONFIGS += [("lucky-void", "referee"), ("lucky-void", "hotseat")]
#: private decks under peer (issue #25 part 3): each seat's own proven layer in its join, refills
VARIANTS["lucky-private"] = ("lucky", ["alice", "bob"], ("private=1",))
CONFIGS.append(("lucky-private", "peer"))


#: a seat handed over mid-game (issue #24, protocol version 7), by itself under peer (with its private deck,
#: re-shuffled by its newcomer) and by the referee: the handover with the newcomer's acceptance, the newcomer's
#: re-keying and its next file are attacked, the other files go in honest: (game, seats, options)
HANDOVERS = {("lucky-handover", "peer"): ("lucky", ["bob", "alice"], ("private=1",)),
             ("lucky-handover", "referee"): ("lucky", ["alice", "bob"], ())}


def _bad_first_ballot(chain, data, secrets):
    """alice's first ballot sealed to bob instead of its keeper: the dealer
    voids it, naming her, and she votes again."""
    import msgspec

    from pbem.protocol import ballots
    from pbem.protocol.formats import TurnBody

    outer = codec.read_envelope(data)
    body = codec.decode_body(outer, TurnBody)
    if body.vote is None or outer.by != "alice" or any(r.by == "alice" and r.body.vote for r in chain.records):
        return data
    command = chain.decode_command(msgspec.Raw(b'{"stop":false,"type":"lucky.vote"}'))
    ballot = ballots.make_ballot(command, secrets["bob"].public, chain.game_id, body.seq, "alice")
    return codec.encode_signed("turn", msgspec.structs.replace(body, vote=ballot), secrets["alice"])


#: games played with a cheater's file in them, so that what answers it is mutated too
EDITS = {"lucky-void": _bad_first_ballot}


@pytest.fixture(autouse=True)
def _short_beacon_chains(monkeypatch):
    """Beacon chains of eight links in every peer game here, renewed when
    four are left, so that renewals (`peer_renewal`) are mutated too."""
    monkeypatch.setattr(peer, "BEACON_LENGTH", 8)
    monkeypatch.setattr(peer_renewal, "RENEW_WHEN_LEFT", 4)
#: the test game of issue #14 (pauses for chance, reshuffles, votes)
games._REGISTRY.setdefault("lucky", ("tests.chancegame", "GAME", ()))

#: accepted by every verifier and by design, each with why it is no cheat:
#: (file kind pattern, field pattern, kind of change) -> reason
#: files that carry a shuffle layer: the genesis, joins (the last with its first link), a late deck's layers
PEER_LAYER = r"genesis/peer|turn/peer/seat\[(beacon,)?join.*|turn/peer/seat\[beacon,layer.*\]"
BY_DESIGN = {
    (r"turn/.*", r"at", "change"):
        "a file's time is its writer's claim, signed by it (another valid time is another claim; what a claimed "
        "time can prove under each dealer: docs/security.md, 'Time and absence')",
    (r"genesis/(hotseat|referee)", r"nonce", "change"):
        "a dealer's genesis nonce only makes the game id unique: another nonce is another game",
    (r"genesis/(hotseat|referee)|turn/referee/dealer\[(chance_proof,)?commitments,deliveries,setup_seed\]",
     r"commitments\.<key>", "change"):
        "the dealer's commitment to a card nobody holds yet: the dealer cannot open it when it deals "
        "the card (every verifier checks the opening), and the audit recomputes it from the seed",
    (r"genesis/(hotseat|referee)", r"setup_seed", "change"):
        "the public set-up seed of a game whose set-up draws no public chance (Agent Avenue) decides nothing "
        "public; the audit checks it is the one the master seed gives (tests/protocol/test_setup_derived.py)",
    (r"genesis/(hotseat|referee)", r"setup_seed", "delete"):
        "a genesis without a public set-up seed is the pbem 0.1 form: accepted only for a game that draws "
        "no public chance at set-up (then nothing public depends on it), and the audit still checks the seed's deal",
    (PEER_LAYER, r"(peer|join)\.anchor", "change"):
        "the writer's own beacon anchor: a wrong one only stops the writer's own next file",
    (r"turn/hotseat/dealer\[.*chance.*\]", r"chance", "change"):
        "the chance seed of a hotseat dealer's answer: another seed that gives the same dice changes nothing (one "
        "that does not is refused by the state), and the audit checks every seed is the one the game seed gives "
        "(a referee's, from protocol version 7, is proven in its file: `test_referee_chance`)",
    (r"turn/referee/seat\[contribution\]", r"contribution", "change"):
        "a seat's contribution is any 32 bytes it likes: another value is another, equally unforeseeable, game "
        "seed, and the audit checks that the referee dealt from the contributions as they stand",
    (r"genesis/peer", r"version", "delete|change"):
        "a genesis of an older protocol version is an older game's (version 1: its writers could foresee their "
        "own chance; 3: beacon chains that do not renew, chance one colluder can show): every verifier still "
        "reads it, but pbem refuses a seat's first file in it (tests/protocol/test_downgrade.py)",
    (r"genesis/hotseat", r"version", "delete"):
        "protocol versions 1 and 4 run an honest hotseat game alike (later versions change referee deals, "
        "peer chance and void ballots); another version is another game id",
    (r"genesis/hotseat", r"version", "change"):
        "protocol versions 5 to 7 add only peer and referee features (shuffle proofs, proven private decks, a "
        "referee's proven chance): a hotseat genesis of version 6 runs as one of 7 (another version is another "
        "game id); a referee genesis of another version is refused (its chance key belongs to version 7)",
    (r"genesis/referee", r"dealer\.chance_key", "change"):
        "the referee's own chance key, fixed in its genesis before any seat joins: another key (a valid point) is "
        "another game id, whose dice are proven under that key all the same; the audit checks it is the master "
        "seed's",
    (r"turn/peer/seat\[.*renewal.*\]", r"renewal", "delete"):
        "a beacon renewal is its writer's to make when it likes before its chain runs out: left out, it renews "
        "in a later file (and if its chain ran out first, only its own next file would stop)",
}

#: (game/mode, file kind, field, change) -> why: what is accepted by design in
#: one game only (a field that decides something elsewhere is refused there)
BY_DESIGN_IN = {
    ("lucky-handover/referee", r"turn/referee/dealer\[consent,handover\]", r"body\.by=bob,", "re-signed"):
        "the referee's handover of bob's seat, written and signed by bob himself instead: a seat may always hand "
        "itself over, the same cards sealed to the same newcomer, whose acceptance names the game, the seat, the "
        "moment, its key and its address, not the writer",
    ("codenames/peer", r"genesis/peer", r"peer\.layer\.key", "change"):
        "the creator's key in a late deck's genesis (the Codenames key waits for the set-up): the genesis lays no "
        "point under it, so it is the creator's own choice of key, as any key it holds the scalar of; its late "
        "layer and every partial it writes are proven against it, so a key it holds no scalar for stops only "
        "its own next file; a one-character change is refused only when it is no point (most runs, not all)",
    ("codenames/peer", r"turn/peer/seat\[.*join.*\]", r"join\.layer\.key", "change"):
        "a joiner's key in a late deck (the Codenames key waits for the set-up): its join lays no point under "
        "it, as the creator's genesis lays none; its late layer must be under the key of its join "
        "(`PeerDeck.add_late_layer`) and is proven against it, as is every partial it writes, so a key it holds no "
        "scalar for stops only its own next file; a one-character change is refused only when it is no point "
        "(most runs, not all)",
    ("duet/peer", r"turn/peer/seat\[.*join.*\]", r"join\.layer\.key", "change"):
        "a Duet peer game's shared deck holds no card (the key is the two-faced deck): its joins' layers lay "
        "nothing, so their keys decide no card and no decryption; a changed key is refused only when it is no "
        "point, which a one-character change is about half the time (the two-faced layers' keys are proven)",
}

_CACHE: dict[tuple[str, str], tamper.Matrix] = {}


def matrix(game: str, mode: str) -> tamper.Matrix:
    """The matrix of one game and dealer mode, run once per session."""
    if (game, mode) not in _CACHE:
        focus = None
        if (game, mode) in HANDOVERS:
            name, seats, options = HANDOVERS[(game, mode)]
            table = tamper.play_with_handover(name, mode, seats, seed=1, options=options)
            other = tamper.play_with_handover(name, mode, seats, seed=2, options=options)
            assert table.handed is not None and other.handed is not None
            seq = table.handed[0]
            focus = set(range(1, len(table.files))) if LONG else {seq, seq + 1, seq + 2}
        else:
            name, seats, options = VARIANTS[game] if game in VARIANTS else (game, list(games.get(game).presentation.demo_seats(None)), ())
            table = tamper.play(name, mode, seats, seed=1, options=options, edit=EDITS.get(game))
            other = tamper.play(name, mode, seats, seed=2, options=options, edit=EDITS.get(game))
        table.game = other.game = game  # its label: "duet/peer"
        assert tamper.readers_refuse(tamper.replay(table.files), table.secrets) is None
        with pytest.MonkeyPatch.context() as mp:
            m = tamper.Matrix(table, other, tamper.StateOracle(mp), LONG, random.Random(f"{game}/{mode}"), focus=focus)
            m.run()
        _CACHE[(game, mode)] = m
        tamper.SUMMARY.append(m.main.line(table.label))
        tamper.SUMMARY.append(m.initial.line(f"{table.label} genesis set-up (part 1)"))
        for what in m.main.accepted:
            tamper.SUMMARY.append(f"  accepted: {what}" + ("" if why(what) is None else f"  [by design: {why(what)}]"))
        for what in m.main.crashed:
            tamper.SUMMARY.append(f"  CRASH: {what}")
        if os.environ.get("PBEM_TAMPER_VERBOSE") == "1":  # the set-up class, one line each
            tamper.SUMMARY += [f"  set-up accepted: {w}" for w in m.initial.accepted]
            tamper.SUMMARY += [f"  set-up CRASH: {w}" for w in m.initial.crashed]
    return _CACHE[(game, mode)]


def why(what: str) -> str | None:
    """The reason an accepted mutation is no cheat, if it is one of BY_DESIGN."""
    _label, kind, *rest = what.split(" ")
    rest = [r for r in rest if not r.startswith("#")]
    if len(rest) < 2:
        return None
    field, op = rest[0], rest[1]
    for (k, f, o), reason in BY_DESIGN.items():
        if re.fullmatch(k, kind) and re.fullmatch(f, field) and re.fullmatch(o, op):
            return reason
    for (label, k, f, o), reason in BY_DESIGN_IN.items():
        if label == _label and re.fullmatch(k, kind) and re.fullmatch(f, field) and re.fullmatch(o, op):
            return reason
    return None


@pytest.mark.parametrize("game,mode", CONFIGS)
def test_every_tampered_file_is_refused(game, mode):
    m = matrix(game, mode)
    assert m.main.crashed == []
    assert [a for a in m.main.accepted if why(a) is None] == []
    # the sample reached every kind of file and many fields of each
    assert m.main.kinds >= {f"genesis/{mode}"} and len(m.main.kinds) >= 4
    # the parts of issue #20: a dealer's void ballots, peer beacon renewals
    assert game not in EDITS or any(k.endswith("dealer[void]") for k in m.main.kinds), m.main.kinds
    assert mode != "peer" or any("renewal" in k for k in m.main.kinds), m.main.kinds
    assert m.main.tried > 250 and m.main.by_chain > 0.9 * m.main.tried


#: the fields of a handover file and of a peer newcomer's re-keying that the matrix must reach
HANDOVER_FIELDS = {"handover.seat", "handover.to.name", "handover.to.sign", "handover.to.seal", "handover.refs",
                   "handover.box.stanzas", "handover.box.payload", "handover.address", "consent"}
REKEY_FIELDS = {"rekey.factor", "rekey.keys", "rekey.keys.*.old", "rekey.keys.*.new", "rekey.keys.*.proof",
                "rekey.points", "rekey.points.*", "rekey.proofs", "rekey.proofs.*", "rekey.anchor", "rekey.box.payload",
                "rekey.decks", "rekey.decks.<key>.points", "rekey.decks.<key>.proof", "rekey.decks.<key>.key",
                "rekey.decks.<key>.seat"}


@pytest.mark.parametrize("game,mode", sorted(HANDOVERS))
def test_every_tampered_handover_is_refused(game, mode):
    """A seat handed over mid-game: every field of its handover (and the
    newcomer's acceptance) and of its newcomer's re-keying, changed and
    re-signed with the writer's real key, is refused by every verifier at
    once, but for what only the newcomer can open (the sealed boxes: it
    refuses them, naming the signer) and what BY_DESIGN lists."""
    m = matrix(game, mode)
    assert m.main.crashed == []
    assert [a for a in m.main.accepted if why(a) is None] == []
    fields = {re.sub(r"^rekey\.decks\.[^.]+\.", "rekey.decks.<key>.", f) for _kind, f in m.main.fields}  # a zone
    handover_kind = next(k for k in m.main.kinds if "handover" in k)
    assert "consent" in handover_kind and handover_kind.endswith("[consent,handover]"), handover_kind
    assert HANDOVER_FIELDS - fields == set(), HANDOVER_FIELDS - fields
    assert mode == "peer" or "handover.refs.*" in fields  # a peer seat's own cards come from its secrets
    if mode == "peer":
        assert any(k.endswith("[rekey]") for k in m.main.kinds), m.main.kinds  # version 7: no link of the old chain
        assert REKEY_FIELDS - fields == set(), REKEY_FIELDS - fields
    # what only a reader refuses concerns a box sealed to it (carol's, or a seat's partials), or the anchor
    # of the newcomer's fresh chain (its own: the seed it sealed to itself must lead to it), nothing else
    boxes = ("box", "envelope", "sealed", "deliveries", "rekey.anchor")
    ours = [w for w in m.main.read_refused if re.search(r"\[(consent,handover|rekey)\]", w.split(" ")[1])]
    assert [w for w in ours if not any(b in w for b in boxes)] == []
    assert m.main.by_chain > 0.9 * m.main.tried


@pytest.mark.parametrize("game,mode", CONFIGS)
def test_a_genesis_with_another_set_up_is_refused(game, mode):
    """Changes of the set-up, even with `state` recomputed to match, must be
    refused once the set-up is derived from the options and seats."""
    m = matrix(game, mode)
    assert m.initial.tried > 10
    assert m.initial.crashed == []
    if mode in ("referee", "peer"):
        # set up after the joins: its genesis holds no set-up, so other options
        # or seats are simply another game, set up (and checked) at its deal
        assert all(re.search(r" (options|seats)[.\w*]* ", a) for a in m.initial.accepted), m.initial.accepted
    else:
        assert m.initial.accepted == []


@pytest.mark.parametrize("game,mode", CONFIGS + sorted(HANDOVERS))
def test_refused_files_are_refused_by_verify_too(tmp_path, game, mode):
    """One refused file of each kind, put in a folder after the honest chain
    up to it: `pbem verify` refuses the folder with a PbemError."""
    m = matrix(game, mode)
    assert m.refused_examples
    for n, (kind, (k, forged)) in enumerate(sorted(m.refused_examples.items())):
        g = tmp_path / str(n)
        g.mkdir()
        for j, data in enumerate(m.table.files[:k]):
            (g / (folder.GENESIS if j == 0 else folder.turn_name(j, codec.read_envelope(data).by))).write_bytes(data)
        name = folder.GENESIS if k == 0 else folder.turn_name(k, codec.read_envelope(m.table.files[k]).by)
        (g / name).write_bytes(forged)
        with pytest.raises(PbemError):
            opening.verify(g)


def test_a_seat_with_a_swapped_sealing_key_is_refused_by_that_seat(tmp_path):
    """A peer genesis re-signed by its creator with another sealing key for
    bob: every envelope sealed to "bob" would be the creator's to read. The
    public cannot tell; bob's own client refuses the game (found by the matrix)."""
    from pbem.crypto.keys import SecretIdentity
    from pbem.protocol.chain import Chain
    from pbem.protocol.party import Party

    table = tamper.play("agent-avenue", "peer", ["alice", "bob"], seed=3)
    outer, body = tamper.decode(table.files[0])
    spare = SecretIdentity.generate("bob")
    for seat in body["seats"]:
        if seat["name"] == "bob":
            seat["identity"]["seal"] = spare.public.seal
    forged = tamper.signed("genesis", tamper.encode_body(body), "alice", table.secrets["alice"])
    chain = Chain(forged)
    with pytest.raises(PbemError, match="seat bob in this game has the key"):
        Party(chain, table.secrets["bob"])


@pytest.mark.parametrize("change", ["extra key in initial", "default left out of options", "seat twice", "identity of another name"])
def test_one_genesis_content_has_one_byte_string(change):
    """Found by the matrix: a genesis whose raw options or initial state are
    not canonical (an unknown key, a default written out) was the same game
    under another genesis; so was a seat listed twice or a seat holding an
    identity of another name. All are refused now."""

    from pbem.errors import FormatError, ProtocolError
    from pbem.protocol.chain import Chain

    table = tamper.play("agent-avenue", "hotseat", ["alice", "bob"], seed=4)
    outer, body = tamper.decode(table.files[0])
    if change == "extra key in initial":
        body["initial"]["zz"] = 1
    elif change == "default left out of options":
        del body["options"]["deck"]  # null, its default: the same options in fewer bytes
    elif change == "seat twice":
        body["seats"] = body["seats"] + body["seats"][:1]
    else:
        body["seats"][0]["identity"]["name"] = body["seats"][1]["name"]
    forged = tamper.signed("genesis", tamper.encode_body(body), outer.by, table.secrets[outer.by])
    with pytest.raises((FormatError, ProtocolError), match="canonical|not the rules' set-up|twice|another name"):
        Chain(forged)


def _put(g, k: int, data: bytes, honest: list[bytes]) -> Path:
    """Write `data` as chain file k of `g`, under the name of the honest file k."""
    name = folder.GENESIS if k == 0 else folder.turn_name(k, codec.read_envelope(honest[k]).by)
    (g / name).write_bytes(data)
    return g / name


@pytest.mark.parametrize("game,mode", CONFIGS + sorted(HANDOVERS))
def test_refused_files_are_refused_with_a_warm_checkpoint(tmp_path, game, mode):
    """The matrix again, with this user's checkpoint warm (issue #12 part 2).

    New: each refused file of each kind comes after a chain restored from a
    checkpoint of the honest files before it, and is refused with the very
    error a replay from genesis gives. Replaced: in a folder of the whole
    honest game, checkpointed at its head, each refused file takes the
    place of the verified one and is refused at once.
    """
    m = matrix(game, mode)
    honest = m.table.files
    g = tmp_path / "g"
    g.mkdir()
    examples = sorted(((k, kind, forged) for kind, (k, forged) in m.refused_examples.items()), key=lambda e: e[:2])

    def as_a_new_command() -> None:
        """What this process remembers of the folder forgotten, as a new
        `pbem` command starts: it writes its checkpoint at once (a process
        that wrote one before writes it lazily, `checkpoint.due`)."""
        checkpoint.forget_memory()
        file_memory.forget()

    have = 0
    for k, kind, forged in examples:
        if k == 0:
            continue
        for j in range(have, k):
            _put(g, j, honest[j], honest)
        have = k
        as_a_new_command()
        warm = folder.load(g, save=True)
        assert warm.seq == k - 1 and checkpoint.read(g).header.seq == k - 1
        path = _put(g, k, forged, honest)
        with pytest.raises(PbemError) as from_checkpoint:
            folder.load(g)
        with pytest.raises(PbemError) as from_genesis:
            folder.load(g, full=True)
        assert str(from_checkpoint.value) == str(from_genesis.value), kind
        path.unlink()
    for j in range(have, len(honest)):
        _put(g, j, honest[j], honest)
    as_a_new_command()
    assert folder.load(g, save=True).seq == len(honest) - 1
    for k, kind, forged in examples:
        path = _put(g, k, forged, honest)
        with pytest.raises(PbemError):
            folder.load(g)
        _put(g, k, honest[k], honest)
    assert checkpoint.read(g).header.seq == len(honest) - 1  # never rewritten from a refused folder


@pytest.mark.parametrize("game", ["lucky", "agent-avenue"])
def test_a_referees_public_chance_is_refused_at_once_not_left_to_the_audit(game):
    """The matrix's rows for a referee's dice and public set-up seed: until
    protocol version 6 another seed was accepted when the state still
    matched (by design: the audit checked it); from version 7 each is its
    VRF's output, proven in the file, and any other value is refused when
    the file arrives, for that reason (`pbem.protocol.referee_chance`)."""
    m = matrix(game, "referee")
    files = m.table.files
    tried = 0
    for k, data in enumerate(files[1:], 1):
        outer, body = tamper.decode(data)
        field = next((f for f in ("chance", "setup_seed") if f in body), None)
        if outer.by != "rita" or field is None or tried >= 3:
            continue
        chain = tamper.replay(files[:k])
        value = ("B" if body[field][0] == "A" else "A") + body[field][1:]
        forged = tamper.signed("turn", tamper.encode_body({**body, field: value}), "rita", m.table.secrets["rita"])
        with pytest.raises(PbemError, match="is not the output its key proves"):
            chain.append(forged)
        tried += 1
    assert tried >= (3 if game == "lucky" else 1)
