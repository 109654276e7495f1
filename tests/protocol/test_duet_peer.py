"""Codenames Duet under the peer dealer: the two-faced deck (issue #10 part 6).

The key's cells are pairs of points shuffled as one (`pbem.crypto.twofaced`,
`pbem.protocol.peer.faces`): seat a lays two layers, seat b one, each face
is read by its own seat only, and the audit checks the re-pairings. Doctored
layers are signed again with their writer's real key, so only the new checks
can refuse them."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

import tamper
from pbem.crypto import poker, twofaced
from pbem.crypto.encoding import b64d, b64e
from pbem.errors import CryptoError, ProtocolError
from pbem.games.codenames.duet import PAIRS
from pbem.protocol import codec
from pbem.gamedir import folder
from pbem.protocol.peer import knowledge as peer_knowledge, writer as peer_writer
from pbem.app.audit import audit
from pbem.protocol.formats import TurnBody
from test_peer_game import players, step  # noqa: F401 - `players` is a fixture

OPTIONS = ("variant=duet", "timer=1")  # a short game: one turn, then sudden death
STANDARD = sorted(pair for pair, n in PAIRS.items() for _ in range(n))


# --- the crypto primitives ----------------------------------------------------------


def _three_layers(k_a, k_b, rng):
    table = twofaced.face_table("game", STANDARD, ("key-a", "key-b"))
    start = twofaced.unflatten(list(table))
    k1 = twofaced.first_scalar(k_a)
    one = twofaced.pair_layer(k1, start, repair=1, classes=[p[1] for p in STANDARD], rng=rng)
    two = twofaced.pair_layer(k_b, one, repair=0, classes=[p[0] for p in STANDARD], shuffle=True, rng=rng)
    three = twofaced.pair_layer(twofaced.second_scalar(k_a, k1), two, shuffle=True, rng=rng)
    return table, start, k1, (one, two, three)


def test_pair_layers_keep_the_standard_overlap_and_the_audit_checks_them():
    rng = random.Random(1).randrange
    k_a, k_b = poker.new_scalar(), poker.new_scalar()
    table, start, k1, (one, two, three) = _three_layers(k_a, k_b, rng)
    assert len(set(table)) == 50 and len(table) == 50  # every face of every pair has its own point
    b_classes, a_classes = [p[1] for p in STANDARD], [p[0] for p in STANDARD]
    twofaced.check_pair_layer(k1, start, one, repair=1, classes=b_classes)
    twofaced.check_pair_layer(k_b, one, two, repair=0, classes=a_classes, shuffle=True)
    twofaced.check_pair_layer(twofaced.second_scalar(k_a, k1), two, three, shuffle=True)
    # a's two layers come off together with its combined scalar
    cells = [tuple(table[poker.decrypt(k_b, poker.decrypt(k_a, p))] for p in pair) for pair in three]
    assert Counter((a[0], b[0]) for a, b in cells) == Counter(PAIRS)
    # layer 1 keeps the a-faces in place and re-pairs b-faces: some copy moved
    assert [p[0] for p in one] == [poker.encrypt(k1, p[0]) for p in start]
    assert [p[1] for p in one] != [poker.encrypt(k1, p[1]) for p in start]


def _swap(pairs, face, i, j):
    out = [list(p) for p in pairs]
    out[i][face], out[j][face] = out[j][face], out[i][face]
    return [tuple(p) for p in out]


def test_pair_layer_checks_refuse_what_breaks_the_rules():
    rng = random.Random(2).randrange
    k_a, k_b = poker.new_scalar(), poker.new_scalar()
    _, start, k1, (one, two, three) = _three_layers(k_a, k_b, rng)
    b_classes = [p[1] for p in STANDARD]
    agent, bystander = b_classes.index("agent"), b_classes.index("bystander")
    cases = [
        (dict(k=k1, before=start, after=_swap(one, 1, agent, bystander), repair=1, classes=b_classes), "across classes"),
        (dict(k=k1, before=start, after=[one[1], one[0], *one[2:]], repair=1, classes=b_classes), "moved"),
        (dict(k=k1, before=start, after=[one[0], one[0], *one[2:]], repair=1, classes=b_classes), "duplicated"),
        (dict(k=k_b, before=start, after=one, repair=1, classes=b_classes), "substituted"),
        (dict(k=twofaced.second_scalar(k_a, k1), before=two, after=_swap(three, 0, 0, 1), shuffle=True), "re-pairs nothing"),
    ]
    for kwargs, message in cases:
        with pytest.raises(CryptoError, match=message):
            twofaced.check_pair_layer(**kwargs)


# --- a whole game between two folders --------------------------------------------------


def _key(chain) -> dict[str, str]:
    """Every face's card, decrypted with every published scalar (after the end)."""
    deck = chain.deck
    scalars = {s: b64d(deck.secrets[s].scalar, 32) for s in chain.seat_order}
    out = dict(chain.revealed)
    for ref in deck.slots:
        if ref not in out:
            point = deck.points[ref]
            for seat in deck.remaining[ref]:
                point = poker.decrypt(scalars[seat], point)
            out[ref] = poker.identify(point, deck.table)[0]
    return out


def test_a_duet_peer_game_to_the_end_and_each_seat_sees_its_own_side(players, tmp_path):
    """Seat b (bob) creates the game, so a's first layer is not in the set-up file."""
    dirs = {n: tmp_path / f"game-{n}" for n in players}
    players["bob"]("new", "codenames", dirs["bob"], "--dealer", "peer", "--seat", "alice", "--seat", "bob",
                   "--as", "bob", "--option", "variant=duet", "--option", "timer=2")
    joined = players["alice"]("join", dirs["alice"], dirs["bob"] / folder.GENESIS, "--as", "alice").stdout.split()
    players["bob"]("apply", dirs["bob"], joined[0])
    rng = random.Random(4)
    views = []
    for _ in range(200):
        st = step(players, dirs, rng)
        if st is None:
            break
        if st["to_act"][0]["needs"] == "decision":
            views.append({n: players[n].json("show", dirs[n], "--as", n) for n in players})
    chain = folder.load(dirs["alice"], full=True)
    assert chain.over and [layer.seat for layer in chain.deck.layers] == ["alice", "bob", "alice"]
    for name in players:
        assert players[name]("verify", dirs[name]).stdout.startswith("ok:")
        assert "audit passed" in players[name]("audit", dirs[name]).stdout
    key = _key(chain)
    assert Counter((key[f"a{c:02d}"], key[f"b{c:02d}"]) for c in range(25)) == Counter(PAIRS)
    sides = {"alice": [key[f"a{c:02d}"] for c in range(25)], "bob": [key[f"b{c:02d}"] for c in range(25)]}
    assert sides["alice"] != sides["bob"] and views
    for seen in views:
        for name, view in seen.items():
            assert [cell["mine"] for cell in view["cells"]] == sides[name]


def test_no_seat_can_read_the_other_side():
    """After every file: each seat knows its own side (once dealt) and what
    guesses revealed, no more, and the true cards; its key does nothing to
    the other side's points."""
    table = tamper.play("codenames", "peer", ["alice", "bob"], 5, OPTIONS)
    truth = _key(tamper.replay(table.files))
    sides = {"alice": "a", "bob": "b"}
    chain = tamper.replay(table.files[:1])
    for data in table.files[1:]:
        chain.append(data)
        if not chain.deck.all_joined:
            continue
        for me, side in sides.items():
            secrets = peer_knowledge.my_secrets(chain, table.secrets[me])
            known = peer_knowledge.cards_known(chain, table.secrets[me], secrets)
            own = {f"{side}{c:02d}" for c in range(25)}
            assert set(known) <= own | set(chain.revealed) and all(truth[r] == c for r, c in known.items())
            if chain.deck.complete and not chain.obligations():
                assert own <= set(known)
            scalar = b64d(secrets.scalar, 32)
            for ref in sorted(set(chain.deck.points) - own - set(chain.revealed)):
                for attempt in (chain.deck.points[ref], poker.decrypt(scalar, chain.deck.points[ref])):
                    with pytest.raises(CryptoError):
                        poker.identify(attempt, chain.deck.table)
    assert chain.over and chain.revealed


# --- doctored layers, re-signed by their writers --------------------------------------------


def _body(data: bytes) -> TurnBody:
    return msgspec.json.decode(codec.read_envelope(data).body, type=TurnBody)


def _doctor(step_no: int, change):
    """An `edit` for `tamper.play`: the file carrying layer `step_no` (0, 1, 2)
    gets `change(chain, points, secrets)` as its points, re-signed."""

    def edit(chain, data, secrets):
        body = _body(data)
        if body.layer is None or len(chain.deck.layers) != step_no:
            return data
        points = change(chain, [b64d(p, 32) for p in body.layer.points], secrets)
        layer = msgspec.structs.replace(body.layer, points=[b64e(p) for p in points])
        return codec.encode_signed("turn", msgspec.structs.replace(body, layer=layer), secrets[body.by])

    return edit


def _cross_b_classes(chain, points, secrets):
    """Layer 1: swap the b-faces of a pair of b-class agent and one of b-class bystander."""
    classes = [p[1] for p in STANDARD]
    i, j = classes.index("agent"), classes.index("bystander")
    points[2 * i + 1], points[2 * j + 1] = points[2 * j + 1], points[2 * i + 1]
    return points


def _cross_a_classes(chain, points, secrets):
    """Layer 2 (b's): swap the a-faces of two pairs whose a-faces are of different classes."""
    k_b = b64d(peer_knowledge.my_secrets(chain, secrets["bob"]).scalar, 32)
    k1 = twofaced.first_scalar(b64d(peer_knowledge.my_secrets(chain, secrets["alice"]).scalar, 32))
    cls = [chain.deck.table[poker.decrypt(k1, poker.decrypt(k_b, points[2 * j]))][0] for j in range(25)]
    j = next(j for j in range(25) if cls[j] != cls[0])
    points[0], points[2 * j] = points[2 * j], points[0]
    return points


@pytest.fixture
def version_4(monkeypatch):
    """Games begun under protocol version 4, before layers carried proofs."""
    monkeypatch.setattr(peer_writer, "PROTOCOL_VERSION", 4)


CROSSED = [(0, _cross_b_classes, "alice"), (1, _cross_a_classes, "bob")]


@pytest.mark.parametrize("step_no, change, seat", CROSSED)
def test_a_re_pairing_across_classes_is_refused_at_once(step_no, change, seat):
    def crossed(chain, body):
        points = change(chain, [b64d(p, 32) for p in body.layer.points], tamper_secrets)
        return _with(body, points=[b64e(p) for p in points])

    tamper_secrets = {}
    _refused(step_no, crossed, f"{seat}'s layer {step_no + 1} of the two-faced deck is not a pair layer",
             secrets_out=tamper_secrets)


@pytest.mark.parametrize("step_no, change, seat", CROSSED)
def test_a_re_pairing_across_classes_is_blamed_by_the_audit_before_version_5(tmp_path, version_4, step_no, change,
                                                                             seat):
    table = tamper.play("codenames", "peer", ["alice", "bob"], 3, OPTIONS, edit=_doctor(step_no, change))
    chain = tamper.replay(table.files)
    assert chain.over  # nobody can tell during play
    report = audit(tamper.save(table, tmp_path / "g"))
    assert len(report.failures) == 1, report.failures
    assert f"(signed by {seat}): two-faced shuffle layer {step_no + 1}" in report.failures[0]
    assert "across classes" in report.failures[0]


def _refused(step_no: int, fix, message: str, secrets_out: dict | None = None):
    """The honest chain up to layer `step_no`'s file, which `fix(chain, body)`
    doctors: refused at once. `secrets_out` receives every party's key."""
    seen = {}

    def edit(chain, data, secrets):
        if secrets_out is not None:
            secrets_out.update(secrets)
        body = _body(data)
        if body.layer is not None and len(chain.deck.layers) == step_no and not seen:
            seen["done"] = True
            forged = codec.encode_signed("turn", fix(chain, body), secrets[body.by])
            with pytest.raises(ProtocolError, match=message):
                tamper.clone(chain).append(forged)
        return data

    tamper.play("codenames", "peer", ["alice", "bob"], 3, OPTIONS, edit=edit)
    assert seen


def _with(body, **changes):
    return msgspec.structs.replace(body, layer=msgspec.structs.replace(body.layer, **changes))


@pytest.mark.parametrize("step_no", [0, 1, 2])
def test_a_layer_with_a_duplicated_point_is_refused_at_once(step_no):
    _refused(step_no, lambda chain, body: _with(body, points=[body.layer.points[2], *body.layer.points[1:]]),
             "repeats a card")


def test_a_layer_under_another_key_is_refused_at_once():
    fresh = b64e(poker.public_key(poker.new_scalar()))
    _refused(2, lambda chain, body: _with(body, key=fresh), "combined key of its two layers")
    _refused(1, lambda chain, body: _with(body, key=fresh), "not under the key of its join")
    _refused(0, lambda chain, body: _with(body, key=b64e(chain.deck.keys["alice"])), "not under a fresh key")


def test_a_layer_that_encrypts_nothing_is_refused_at_once():
    def unshuffled(chain, body):  # a's second layer under the scalar 1: b's own points, in b's order
        return _with(body, points=[b64e(chain.deck.points[ref]) for ref in chain.deck.slots])

    _refused(2, unshuffled, "encrypts nothing")


def test_a_layer_without_its_proof_or_with_another_layers_is_refused_at_once():
    _refused(1, lambda chain, body: _with(body, proof=None), "bob's layer 2 of the two-faced deck carries no shuffle proof")
    _refused(1, lambda chain, body: _with(body, proof=chain.deck.layers[0].proof), "bob's layer 2 of the two-faced deck")


def test_a_first_layer_key_that_is_not_its_scalars_is_refused_at_once():
    fresh = b64e(poker.public_key(poker.new_scalar()))
    _refused(0, lambda chain, body: _with(body, key=fresh), "alice's layer 1 of the two-faced deck is not a pair layer")


def test_a_first_layer_key_that_is_not_its_scalars_is_blamed_by_the_audit_before_version_5(tmp_path, version_4):
    """Before version 5 nothing during play is proven against a's first-layer key; the audit is."""
    fresh = b64e(poker.public_key(poker.new_scalar()))

    def edit(chain, data, secrets):
        body = _body(data)
        if body.layer is None or chain.deck.layers:
            return data
        return codec.encode_signed("turn", _with(body, key=fresh), secrets[body.by])

    table = tamper.play("codenames", "peer", ["alice", "bob"], 3, OPTIONS, edit=edit)
    report = audit(tamper.save(table, tmp_path / "g"))
    assert report.failures == [f"{folder.turn_name(2, 'alice')} (signed by alice): its first layer's key is not the one "
                               "its published scalar gives"]
