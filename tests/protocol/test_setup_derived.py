"""The set-up is derived, never trusted (issue 7, parts 1 and 2).

Every genesis below is doctored and re-signed with its writer's real key
(the peer creator, the referee, the hotseat dealer): a signature only says
who wrote a file, so each must be refused by the rules' own set-up, by
`Chain` (what every verifier runs first), by `pbem join` and by `pbem verify`,
with a one-line message that names what differs.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import msgspec
import pytest

from pbem import games
from pbem.app import opening
from pbem.crypto.encoding import canonical
from pbem.crypto.keys import read_secret_key_file
from pbem.home.store import KeyStore
from pbem.errors import PbemError, ProtocolError
from pbem.games.base import SeatSpec
from pbem.protocol import codec, dealer as dealer_mod
from pbem.protocol.chain import Chain
from pbem.protocol.formats import GenesisBody

SEATS = {
    "agent-avenue": ["alice", "bob"],
    "codenames": ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"],
    "codenames-three": ["alice:red-spymaster", "carol:blue-spymaster", "bob:shared"],
    "codenames-coop": ["alice:red-spymaster", "bob:red", "dave:red"],
    "codenames-duet": ["alice:a", "bob:b"],
}
OPTIONS = {"codenames-three": ["variant=three"], "codenames-coop": ["variant=coop"], "codenames-duet": ["variant=duet"]}
MODES = ["hotseat", "referee", "peer"]
CASES = [(g, m) for g in SEATS for m in MODES]


@pytest.fixture
def players(pbem):
    for name in ("carol", "dave"):
        pbem("id", "new", name, "--no-passphrase")
    return pbem


def make(pbem, tmp_path: Path, case: str, mode: str) -> tuple[Path, object]:
    """A new game of `case` under `mode`, and the secret of the genesis's writer."""
    game = "codenames" if case.startswith("codenames") else case
    folder = tmp_path / f"{case}-{mode}"
    args = ["new", game, folder, "--dealer", mode]
    for s in SEATS[case]:
        args += ["--seat", s]
    for o in OPTIONS.get(case, []):
        args += ["--option", o]
    if mode == "referee":
        args += ["--referee", "rita"]
    if mode == "peer":
        args += ["--as", "alice"]
    pbem(*args)
    store = KeyStore(pbem.home)
    if mode == "hotseat":
        writer = read_secret_key_file((folder / "dealer.key").read_bytes(), lambda: "")
    else:
        writer = store.secret("rita" if mode == "referee" else "alice", lambda: "")
    return folder, writer


def genesis_of(folder: Path) -> tuple[bytes, GenesisBody]:
    data = (folder / "000000-genesis.pbem").read_bytes()
    return data, codec.decode_body(codec.read_envelope(data), GenesisBody)


def resign(body: GenesisBody, writer, **changes) -> bytes:
    return codec.encode_signed("genesis", msgspec.structs.replace(body, **changes), writer)


def with_initial(body: GenesisBody, writer, initial: dict) -> bytes:
    return resign(body, writer, initial=msgspec.Raw(canonical(initial)))


def mutations(initial: dict, seats: list[str]):
    """Every kind of change to an initial state, one at a time, each with a
    label: readers added and removed, zones dropped or made public, items
    dropped, renamed or shown, every number and string field changed."""
    outsider = next(s for s in seats if True)
    for name, zone in initial["zones"].items():
        others = [s for s in seats if s not in zone.get("readers", [])]
        if others and not zone.get("public"):
            m = copy.deepcopy(initial)
            m["zones"][name]["readers"] = sorted(zone.get("readers", []) + [others[0]])
            yield f"extra reader {others[0]} of {name}", m
        if zone.get("readers"):
            m = copy.deepcopy(initial)
            m["zones"][name]["readers"] = zone["readers"][1:]
            yield f"missing reader of {name}", m
        m = copy.deepcopy(initial)
        del m["zones"][name]
        yield f"missing zone {name}", m
        m = copy.deepcopy(initial)
        m["zones"][name]["public"] = not zone.get("public", False)
        yield f"public flag of {name}", m
        if zone.get("items"):
            m = copy.deepcopy(initial)
            m["zones"][name]["items"] = zone["items"][1:]
            yield f"an item less in {name}", m
            m = copy.deepcopy(initial)
            m["zones"][name]["items"] = zone["items"] + [dict(zone["items"][0], ref="zz999")]
            yield f"an item more in {name}", m
            m = copy.deepcopy(initial)
            m["zones"][name]["items"][0] = {"t": "known", "ref": zone["items"][0]["ref"], "card": "Mole"}
            yield f"a card shown in {name}", m
            m = copy.deepcopy(initial)
            m["zones"][name]["items"][0] = dict(zone["items"][0], ref=zone["items"][0]["ref"] + "x")
            yield f"a ref renamed in {name}", m
    m = copy.deepcopy(initial)
    m["zones"]["extra"] = {"items": [], "readers": [outsider]}
    yield "an extra zone", m
    for key, value in initial.items():
        if key == "zones":
            continue
        m = copy.deepcopy(initial)
        if isinstance(value, bool):
            m[key] = not value
        elif isinstance(value, int):
            m[key] = value + 1
            yield f"counter {key}", m
            m = copy.deepcopy(initial)
            m[key] = 10**40
            yield f"huge {key}", m
            continue
        elif isinstance(value, str):
            m[key] = value + "x"
        elif isinstance(value, list):
            m[key] = value + value[:1] if value else ["x"]
        elif isinstance(value, dict):
            m[key] = {**value, "zz": 1}
        else:
            m[key] = 7
        yield f"field {key}", m
        m = copy.deepcopy(initial)
        del m[key]
        yield f"missing field {key}", m


def refused(data: bytes) -> str:
    with pytest.raises(PbemError) as info:
        Chain(data)
    return info.value.message


@pytest.mark.parametrize("case,mode", CASES)
def test_every_change_to_the_initial_state_is_refused(players, tmp_path, case, mode):
    folder, writer = make(players, tmp_path, case, mode)
    data, body = genesis_of(folder)
    Chain(data)  # the honest genesis passes
    initial = msgspec.json.decode(bytes(body.initial))
    if mode in ("referee", "peer"):  # set up after the joins: the genesis holds no set-up to doctor
        assert initial is None
        other, _ = make(players, tmp_path, case, "hotseat")
        real = msgspec.json.decode(bytes(genesis_of(other)[1].initial))
        assert "holds no set-up" in refused(with_initial(body, writer, real))
        return
    seats = [s.split(":")[0] for s in SEATS[case]]
    tried = 0
    for label, changed in mutations(initial, seats):
        message = refused(with_initial(body, writer, changed))
        expected = "integer out of range" if label.startswith("huge") else "initial state is not the rules' set-up"
        assert expected in message, (label, message)
        tried += 1
    assert tried >= 20


@pytest.mark.parametrize("case,mode", [("agent-avenue", m) for m in MODES] + [("codenames", "peer"), ("codenames", "referee")])
def test_join_and_verify_refuse_a_doctored_genesis(players, tmp_path, case, mode):
    """Through the CLI: an extra reader of a hidden zone (the creator reading
    the other seat's hand, an operative reading the key) and a huge counter."""
    folder, writer = make(players, tmp_path, case, mode)
    data, body = genesis_of(folder)
    initial = msgspec.json.decode(bytes(body.initial))
    if initial is None:  # a referee or peer game, set up after the joins: doctor in a set-up
        initial = msgspec.json.decode(bytes(genesis_of(make(players, tmp_path, case, "hotseat")[0])[1].initial))
    hand = "hand:bob" if case == "agent-avenue" else "key"
    spy = copy.deepcopy(initial)
    spy["zones"][hand]["readers"] = sorted(spy["zones"][hand]["readers"] + ["bob" if case != "agent-avenue" else "alice"])
    huge = dict(copy.deepcopy(initial), next_ref=2**70)  # refused before parsing (the limits)
    for n, changed in enumerate([spy, huge]):
        doctored = with_initial(body, writer, changed)
        bad = tmp_path / f"bad-{n}"
        shutil.copytree(folder, bad)
        (bad / "000000-genesis.pbem").write_bytes(doctored)
        (bad / "state.pbem").unlink()
        before = {p.name: p.read_bytes() for p in bad.iterdir()}
        why = "not the rules' set-up" if n == 0 else "integer out of range"
        if mode in ("referee", "peer") and n == 0:
            why = "holds no set-up"
        r = players.fails("verify", bad)
        assert why in r.stderr
        received = tmp_path / f"received-{n}.pbem"
        received.write_bytes(doctored)
        r = players.fails("join", tmp_path / f"joined-{n}", received, "--as", "bob")
        assert why in r.stderr
        assert not (tmp_path / f"joined-{n}").exists()
        assert {p.name: p.read_bytes() for p in bad.iterdir()} == before


def test_a_peer_deck_with_other_cards_is_refused(players, tmp_path):
    """12 Codebreakers and no Daredevil: the deck is the rules' deck."""
    folder, writer = make(players, tmp_path, "agent-avenue", "peer")
    _, body = genesis_of(folder)
    deck = ["Codebreaker" if c == "Daredevil" else c for c in body.peer.deck]
    assert deck != body.peer.deck
    message = refused(resign(body, writer, peer=msgspec.structs.replace(body.peer, deck=deck)))
    assert "peer deck and private decks are not the cards of the rules' set-up" in message
    slots = list(reversed(body.peer.slots))
    message = refused(resign(body, writer, peer=msgspec.structs.replace(body.peer, slots=slots)))
    assert "peer deck and private decks are not the cards of the rules' set-up" in message


@pytest.mark.parametrize("mode", MODES)
def test_options_and_seats_are_checked(players, tmp_path, mode):
    folder, writer = make(players, tmp_path, "agent-avenue", mode)
    _, body = genesis_of(folder)
    options = msgspec.json.decode(bytes(body.options))
    # another first player: the initial state no longer matches the options
    # (a referee game is set up only at its deal, from the options as they stand)
    changed = resign(body, writer, options=msgspec.Raw(canonical({**options, "first": "bob"})))
    if mode == "hotseat":  # referee and peer games are set up after their joins, from the options as they stand
        assert "initial state is not the rules' set-up: active" in refused(changed)
    # an option the game does not have, and options spelled another way
    assert "not agent-avenue options" in refused(resign(body, writer, options=msgspec.Raw(canonical({**options, "turbo": 1}))))
    partial = {k: v for k, v in options.items() if k != "first"}
    assert "canonical" in refused(resign(body, writer, options=msgspec.Raw(canonical(partial))))
    # a seat with a role in a game without roles
    seats = [msgspec.structs.replace(body.seats[0], role="boss")] + body.seats[1:]
    assert "seats are not valid" in refused(resign(body, writer, seats=seats))


def test_codenames_roles_are_checked(players, tmp_path):
    folder, writer = make(players, tmp_path, "codenames", "peer")
    _, body = genesis_of(folder)
    seats = [msgspec.structs.replace(s, role="red-spymaster" if s.name == "bob" else s.role) for s in body.seats]
    assert "seats" in refused(resign(body, writer, seats=seats))


def test_a_deal_must_commit_to_exactly_the_items():
    """A referee game's deal, doctored and re-signed with the referee's key."""
    from tests import tamper
    from pbem.protocol.formats import TurnBody

    table = tamper.play("agent-avenue", "referee", ["alice", "bob"], 3)
    deal = codec.decode_body(codec.read_envelope(table.files[3]), TurnBody)
    assert deal.setup_seed is not None
    chain = tamper.replay(table.files[:3])
    extra = {**deal.commitments, "zz999": next(iter(deal.commitments.values()))}
    fewer = dict(list(deal.commitments.items())[1:])
    for commitments, why in [(extra, "commitments to items the set-up does not have"), (fewer, "without a commitment")]:
        doctored = codec.encode_signed("turn", msgspec.structs.replace(deal, commitments=commitments), table.secrets["rita"])
        with pytest.raises(PbemError, match=why):
            chain.append(doctored)
    swapped = [msgspec.structs.replace(d, to="bob" if d.to == "alice" else "alice") for d in deal.deliveries]
    doctored = codec.encode_signed("turn", msgspec.structs.replace(deal, deliveries=swapped), table.secrets["rita"])
    with pytest.raises(PbemError, match="exactly the cards it may see"):
        chain.append(doctored)
    chain.append(table.files[3])  # the honest deal still applies: nothing was half-taken


@pytest.mark.parametrize("mode", ["hotseat"])
def test_commitments_must_be_exactly_the_items(players, tmp_path, mode):
    folder, writer = make(players, tmp_path, "agent-avenue", mode)
    _, body = genesis_of(folder)
    extra = {**body.commitments, "zz999": next(iter(body.commitments.values()))}
    assert "commitments to items the set-up does not have" in refused(resign(body, writer, commitments=extra))
    fewer = dict(list(body.commitments.items())[1:])
    assert "without a commitment" in refused(resign(body, writer, commitments=fewer))


def test_a_peer_genesis_may_not_carry_a_setup_seed(players, tmp_path):
    folder, writer = make(players, tmp_path, "codenames", "peer")
    _, body = genesis_of(folder)
    message = refused(resign(body, writer, setup_seed="A" * 43))
    assert "comes from its seats" in message


def test_scenario_options_are_refused_by_the_chain_unless_hotseat(players, tmp_path):
    """A referee that writes its genesis with the library (not `pbem new`,
    which refuses) still cannot fix the deal: the chain refuses it."""
    game = games.get("agent-avenue")
    store = KeyStore(players.home)
    deck = sorted(_agent_deck())
    opts = game.options({"deck": ",".join(deck)})
    seats = [(SeatSpec("alice"), store.public("alice")), (SeatSpec("bob"), store.public("bob"))]
    rita = store.secret("rita", lambda: "")
    data = dealer_mod.make_genesis(game, opts, seats, "referee", rita, b"\x01" * 32)
    with pytest.raises(ProtocolError, match="only a hotseat game may do"):
        Chain(data)
    hotseat = dealer_mod.make_genesis(game, opts, seats, "hotseat", dealer_mod.hotseat_dealer(), b"\x01" * 32)
    Chain(hotseat)  # a scenario is what hotseat games are for
    codenames = games.get("codenames")
    key = "r" * 9 + "b" * 8 + "n" * 7 + "x"
    copts = codenames.options({"key": key})
    cseats = [(SeatSpec(n, r), store.public(n)) for n, r in
              [("alice", "red-spymaster"), ("bob", "red"), ("carol", "blue-spymaster"), ("dave", "blue")]]
    with pytest.raises(ProtocolError, match="option key fixes hidden cards"):
        Chain(dealer_mod.make_genesis(codenames, copts, cseats, "referee", rita, b"\x02" * 32))


def _agent_deck() -> list[str]:
    from pbem.games.agent_avenue import cards

    return cards.full_deck()


def test_the_audit_checks_the_public_setup_seed(players, tmp_path, monkeypatch):
    """A referee who picks its public set-up seed apart from its committed
    master seed (to choose the Codenames words, say): in a game begun before
    protocol version 7 it passes every check during the game, and is caught
    by the audit, which names the deal; from version 7 the seed is its
    verifiable random function's, proven in the deal, and its own pbem
    refuses to write another (`test_referee_chance` has a player refuse it)."""
    from conftest import play_to_end
    from pbem.app.audit import audit
    from pbem.protocol import formats, referee_chance

    honest, _ = make(players, tmp_path, "codenames", "referee")
    play_to_end(players, honest)
    assert audit(honest).ok
    real = referee_chance.draw
    monkeypatch.setattr(referee_chance, "draw", lambda *a: (b"\x07" * 32, real(*a)[1]))
    with pytest.raises(AssertionError, match="the referee's public set-up seed is not the output its key proves"):
        make(players, tmp_path / "proven", "codenames", "referee")
    monkeypatch.undo()
    monkeypatch.setattr(dealer_mod, "PROTOCOL_VERSION", 6)
    monkeypatch.setattr(formats, "PROTOCOL_VERSION", 6)  # what a seat's first file checks
    monkeypatch.setattr(dealer_mod, "public_setup_seed", lambda seed: b"\x07" * 32)
    folder, _ = make(players, tmp_path / "chosen", "codenames", "referee")
    play_to_end(players, folder)  # the referee deals after the joins: while it still cheats
    monkeypatch.undo()
    opening.verify(folder)
    report = audit(folder)
    assert any("public set-up seed" in f and "rita" in f for f in report.failures), report.failures


def test_a_genesis_without_a_public_setup_seed(players, tmp_path):
    """pbem 0.1 wrote no public set-up seed. Such a genesis still verifies
    when its game draws no public chance at set-up (the Agent Avenue
    examples), and is refused, saying why, when it does (Codenames words)."""
    folder, writer = make(players, tmp_path, "agent-avenue", "hotseat")
    _, body = genesis_of(folder)
    Chain(resign(body, writer, setup_seed=None))
    folder, writer = make(players, tmp_path, "codenames", "hotseat")
    _, body = genesis_of(folder)
    assert "no public set-up seed" in refused(resign(body, writer, setup_seed=None))
