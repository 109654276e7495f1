"""`arrange_top` (test_codex_arrange_top.py) in one small game under every
dealer through the real writers (hotseat, referee, peer): the owner's own
signed ``choose`` says the order, the next draws come off in it, after
every command no other seat's view shows the cards or the order, the
game verifies from its files and audits; then the owner's answer doctored
and re-signed with its real key, refused at once. Three games: listed in
`SLOW_FILES`."""

from __future__ import annotations

import msgspec
import pytest

from pbem.app.audit import audit
from pbem.crypto.encoding import canonical
from pbem.errors import PbemError
from pbem.games.base import Known
from pbem.games.codex import GAME, cards
from pbem.games.codex.commands import Choose
from pbem.protocol.formats import TurnBody
from pbem.protocol.party import Party
from tests import codex_tables, tamper
from tests.games.codex.test_codex_arrange_top import FORESIGHT


@pytest.fixture(scope="module", autouse=True)
def foresight():
    names = cards.add("blue", FORESIGHT)
    yield
    cards.remove(names)


# --- one small game under every dealer --------------------------------------------------

#: five Foresights among eight cards: the opening hand holds one at least,
#: and the three left are the top of the draw pile
LINES = ["opening = draw", "p1.deck = Test Foresight, Test Foresight, Test Foresight, Test Foresight, Test Foresight, "
         "Bloom, Wither, Scorch",
         "p1.workers = Timely Messenger, Tenderfoot, Older Brother, Brick Thief, Helpful Turtle, "
         "Granfalloon Flagbearer, Fruit Ninja, Spark, Lawful Search", "p1.gold = 20",
         "p1.heroes = Troq Bashar home", "p2.base = 1"]


def _reversed(state, seat):
    """The order that reverses what lies on top now (the refs the owner knows)."""
    names = [it.card for it in state.zones[f"top:{seat}"].items][::-1]
    return "choose " + ";".join(f"top:{cards.slug(n)}" for n in names)


def _tech_any(state, seat):
    return GAME.presentation.format(next(c for c in GAME.legal(state, seat) if not c.choices.first), state, seat)


SCRIPT = [("alice", "summon troq-bashar"), ("alice", "play test-foresight"), ("alice", _reversed), ("alice", "end"),
          ("bob", "end"), ("alice", _tech_any), ("alice", "attack troq-bashar opp:base")]
LOOKED, ANSWERED, DRAWN = 1, 2, 3  # indices in SCRIPT


@pytest.fixture(scope="module")
def tables():
    return codex_tables.play_everywhere(LINES, SCRIPT)


@pytest.fixture
def lenient():
    with codex_tables.scenarios_everywhere():
        yield


def _answer(chain):
    """Alice's file that says the order (her own signed command)."""
    return codex_tables.choice_by(chain, "alice")


@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_every_dealer_follows_the_chosen_order_and_the_game_verifies(mode, tables, tmp_path, lenient):
    table, _ = tables[mode]
    chain = tamper.replay(table.files)
    answer = _answer(chain)
    order = msgspec.json.decode(answer.body.commands[0])["answers"]
    before = [it.ref for it in answer.before.zones["top:alice"].items]
    assert len(order) == 3 and sorted(order) == sorted(before[:3]), "the same three cards"
    assert [it.ref for it in answer.after.zones["top:alice"].items][:3] == order, "in the order signed"
    drawn = next(r for r in chain.records[answer.seq + 1:] if r.after is not None and not r.after.zones["top:alice"].items)
    assert [it.ref for it in drawn.after.zones["hand:alice"].items][:3] == order, "drawn first, in that order"
    mine = Party(chain, table.secrets["alice"]).state()
    asked = Party(tamper.replay(table.files[:answer.seq]), table.secrets["alice"]).state()
    looked = [it.card for it in asked.zones["top:alice"].items]
    orders = GAME.legal(asked, "alice")  # `pbem legal`, on alice's own knowledge
    assert orders and all(isinstance(c, Choose) and sorted(c.answers) == sorted(before[:3]) for c in orders)
    assert GAME.legal(Party(tamper.replay(table.files[:answer.seq]), table.secrets["bob"]).state(), "bob") == []
    assert [it.card for it in mine.zones["hand:alice"].items][:3] == looked[::-1], "alice's own hand, in her order"
    report = audit(tamper.save(table, tmp_path / "game"))
    assert report.ok, report.failures


@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_no_other_seat_sees_the_cards_or_the_order(mode, tables, lenient):
    table, seen = tables[mode]
    assert seen[LOOKED]["view:alice"].prompt.startswith("you to choose: the new order")
    assert seen[LOOKED]["view:bob"].prompt.startswith("alice to choose: the new order")
    mine = next(s for s in seen[LOOKED]["view:alice"].sides if s.seat == "alice")
    assert len(mine.my_top) == 3 and all(n in ("Test Foresight", "Bloom", "Wither", "Scorch") for n in mine.my_top)
    for k, views in seen.items():
        for who in ("bob", "public"):
            side = next(s for s in views[f"view:{who}"].sides if s.seat == "alice")
            assert side.my_top is None and side.my_hand is None, f"{who} after command {k}"
            alices = views[who].split("-" * 78)[1]  # her side of the rendered view
            assert alices.startswith("\nalice") and "(seen)" not in views[who], f"{who} after command {k}"
            assert not {"Bloom", "Wither", "Scorch"} & set(alices.replace(",", " ").split()), f"{who} after {k}"
    chain = tamper.replay(table.files)
    for record in chain.records[1:]:
        if record.after is not None:
            for zone in ("top:alice", "hand:alice", "deck:alice"):
                assert not any(isinstance(it, Known) for it in record.after.zones[zone].items), (zone, record.seq)


def _body(table, k: int) -> TurnBody:
    from pbem.protocol import codec

    return codec.decode_body(codec.read_envelope(table.files[k]), TurnBody)


def _doctored(table, chain, make):
    k = _answer(chain).seq
    body = _body(table, k)
    order = msgspec.json.decode(body.commands[0])["answers"]
    cmd = Choose(make(chain.records[k - 1].after, order))
    return k, msgspec.structs.replace(body, commands=[msgspec.Raw(canonical(cmd))])


@pytest.mark.parametrize("make, message", [
    (lambda st, order: [st.zones["hand:alice"].items[0].ref, *order[1:]], "not one of the cards you looked at"),
    (lambda st, order: [*order[:2], st.zones["hand:bob"].items[0].ref], "not one of the cards you looked at"),
    (lambda st, order: [order[0], order[0], order[2]], "names a card twice"),
    (lambda st, order: order[:2], "name all 3 cards"),
], ids=["a-card-of-her-hand", "a-card-of-bobs-hand", "repeated", "short"])
@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_a_doctored_order_re_signed_is_refused_at_once(mode, tables, lenient, make, message):
    table, _ = tables[mode]
    chain = tamper.replay(table.files)
    k, doctored = _doctored(table, chain, make)
    partial = tamper.replay(table.files[:k])
    with pytest.raises(PbemError, match=message):
        partial.append(tamper.resign(table, doctored))
    assert len(partial.records) == k, "nothing changed"
    partial.append(table.files[k])  # the honest file still goes in


# --- the same with a discard: two put back, one discarded --------------------------------

SIFT_LINES = [line.replace("Test Foresight", "Test Sifting") for line in LINES]


def _two_back_one_away(state, seat):
    names = [f"top:{cards.slug(it.card)}" for it in state.zones[f"top:{seat}"].items]
    return f"choose {names[1]};{names[0]};none;{names[2]}"


SIFT_SCRIPT = [("alice", "summon troq-bashar"), ("alice", "play test-sifting"), ("alice", _two_back_one_away),
               ("alice", "end"), ("bob", "end"), ("alice", _tech_any), ("alice", "attack troq-bashar opp:base")]


@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_every_dealer_follows_a_discard_from_the_top(mode, tmp_path, lenient):
    seen: dict = {}
    table = codex_tables.play(mode, SIFT_LINES, SIFT_SCRIPT, seen=seen)
    chain = tamper.replay(table.files)
    answer = _answer(chain)
    signed = msgspec.json.decode(answer.body.commands[0])["answers"]
    kept, gone = signed[:2], signed[3:]
    assert signed[2] == "" and len(gone) == 1
    assert [it.ref for it in answer.after.zones["top:alice"].items] == kept
    last = answer.after.zones["discard:alice"].items[-1]
    assert last.ref == gone[0] and not isinstance(last, Known), "discarded face down"
    for k, views in seen.items():
        side = next(s for s in views["view:bob"].sides if s.seat == "alice")
        assert side.my_top is None and side.my_discard is None, f"after command {k}"
    report = audit(tamper.save(table, tmp_path / "game"))
    assert chain.over and report.ok, report.failures


def test_a_peer_reorder_moves_refs_never_points(tables, lenient):
    """Under peer each ref of the owner's private deck keeps the point its
    proven layer gave it: the reorder is a permutation of refs everyone
    recomputes from the signed answer, so no file carries a point for it
    and none can swap another card in (the doctored answers above are what
    is left to try)."""
    table, _ = tables["peer"]
    chain = tamper.replay(table.files)
    answer = _answer(chain)
    before, after = tamper.replay(table.files[:answer.seq]).deck, tamper.replay(table.files[:answer.seq + 1]).deck
    order = msgspec.json.decode(answer.body.commands[0])["answers"]
    assert all(before.points[r] == after.points[r] for r in order) and before.points == after.points
    assert not answer.body.refills and not answer.body.commitments and not answer.body.deliveries


def test_a_repeated_card_in_the_order_is_refused_by_pbem_apply(tables, lenient, tmp_path):
    """The same cheat through the CLI (peer): `pbem apply` refuses alice's
    re-signed answer in one line naming the file and her, exit 1, and
    changes nothing."""
    from conftest import Pbem, snapshot

    table, _ = tables["peer"]
    chain = tamper.replay(table.files)
    k, doctored = _doctored(table, chain, lambda st, order: [order[0], order[0], order[2]])
    folder = tamper.save(tamper.Table(table.game, table.mode, table.files[:k], table.secrets), tmp_path / "game")
    mail = tmp_path / "mail" / f"{k:06d}-alice.pbem"
    mail.parent.mkdir()
    mail.write_bytes(tamper.resign(table, doctored))
    pbem = Pbem(tmp_path / "home")
    pbem("verify", folder)
    before = snapshot(folder)
    result = pbem.fails("apply", folder, mail, "--accept-new")  # exit 1, one error line
    assert mail.name in result.stderr and "by alice" in result.stderr and "names a card twice" in result.stderr
    assert snapshot(folder) == before
