"""A discard the victim chooses from its own hand (issue #22 part 4): a
target part ``"from": ["hand"], "of": "opp", "by": "owner"`` asks the hand's
owner, whose own command answers. No card of the Deluxe set makes an
opponent discard a card of its choosing (its discards are at random, or
picked by the caster after a look), so the card here is added for the
test (`cards.add`). First from fixed positions, then one small game under
every dealer through the real writers, verified from its files and
audited, every party's view checked after every command; then the
victim's answer doctored and re-signed with its real key."""

from __future__ import annotations

import msgspec
import pytest

from pbem.app.audit import audit
from pbem.errors import IllegalCommand, PbemError
from pbem.games.base import Known
from pbem.games.codex import GAME, cards
from pbem.crypto.encoding import canonical
from pbem.games.codex.commands import Choose
from pbem.protocol.formats import TurnBody
from tests import codex_tables, tamper
from tests.codex_helpers import do, hand_names, legal_texts, start

EXTORTION = {"Test Extortion": {
    "type": "spell", "cost": 1, "text": "An opponent discards a card of its own choosing.",
    "do": [{"queue": "extort"}],
    "abilities": [{"key": "extort", "targets": [{"what": "a card of your hand to discard", "from": ["hand"],
                                                  "of": "opp", "by": "owner"}],
                   "do": [{"discard": "t0"}]}]}}
BOB_HAND = "p2.hand = Timely Messenger, Spark, Wrecking Ball, Spark"


@pytest.fixture(scope="module", autouse=True)
def extortion():
    names = cards.add("black", EXTORTION)
    yield
    cards.remove(names)


def test_the_victim_is_asked_and_only_the_victim_answers():
    st = start("p1.hand = Test Extortion, Tenderfoot", "p1.gold = 9", "p1.hero = 1", BOB_HAND)
    st = do(st, "play test-extortion")
    assert st.prompt.seat == "bob" and st.prompt.kind == "card" and st.prompt.zones == ["hand:bob"]
    assert st.prompt.options == [], "the question lists none of the cards: the state is public"
    assert GAME.to_act(st) == ["bob"] and legal_texts(st, "alice") == []
    assert sorted(legal_texts(st, "bob")) == ["choose hand:spark", "choose hand:timely-messenger",
                                              "choose hand:wrecking-ball"]
    with pytest.raises(IllegalCommand, match="nothing waits for your choice"):
        GAME.apply(st, "alice", Choose([st.zones["hand:bob"].items[0].ref]), None)
    with pytest.raises(IllegalCommand, match="that is not a card of your hand"):
        GAME.apply(st, "bob", Choose([st.zones["hand:alice"].items[0].ref]), None)
    after = do(st, "choose hand:wrecking-ball", "bob")
    assert hand_names(after, "bob") == ["Spark", "Spark", "Timely Messenger"]
    assert [it.card for it in after.zones["discard:bob"].items] == ["Wrecking Ball"]
    assert after.prompt is None and after.active == "alice" and after.zones["discard:bob"].readers == ["bob"]
    assert "Wrecking Ball" not in " ".join(after.log), "the log names no card"


def test_the_caster_cannot_answer_for_the_victim_in_its_own_command():
    st = start("p1.hand = Test Extortion", "p1.gold = 9", "p1.hero = 1", BOB_HAND)
    spark = next(it.ref for it in st.zones["hand:bob"].items if it.card == "Spark")
    cmd = GAME.presentation.parse("play test-extortion", st, "alice")
    cmd = msgspec.structs.replace(cmd, choices=msgspec.structs.replace(cmd.choices, answers=[spark]))
    with pytest.raises(IllegalCommand, match="bob chooses it, in its own command"):
        GAME.apply(st, "alice", cmd, None)


def test_an_empty_hand_asks_nothing():
    st = start("p1.hand = Test Extortion, Test Extortion", "p1.gold = 9", "p1.hero = 1", "p2.hand = Spark")
    st = do(do(st, "play test-extortion"), "choose hand:spark", "bob")
    assert not st.zones["hand:bob"].items
    st = do(st, "play test-extortion")
    assert st.prompt is None and len(st.zones["discard:bob"].items) == 1


def test_the_victim_must_discard_one_when_it_has_one():
    st = do(start("p1.hand = Test Extortion", "p1.gold = 9", "p1.hero = 1", BOB_HAND), "play test-extortion")
    with pytest.raises(IllegalCommand, match="there is one"):
        GAME.apply(st, "bob", Choose([""]), None)


# --- one small game under every dealer --------------------------------------------------

STARTERS = ("Timely Messenger, Tenderfoot, Older Brother, Brick Thief, Helpful Turtle, Granfalloon Flagbearer, "
            "Fruit Ninja, Spark, Bloom, Wither")
LINES = ["opening = draw", "p1.deck = Test Extortion, Scorch, Spark, Bloom, Wither", f"p1.workers = {STARTERS}",
         "p1.gold = 20", "p1.heroes = Troq Bashar home", "p1.buildings = tech1",
         "p2.deck = Spark, Bloom, Timely Messenger, Tenderfoot", "p2.base = 1",
         "p2.discard = Older Brother, Brick Thief, Helpful Turtle, Granfalloon Flagbearer, Fruit Ninja, Wither"]


def _bob_picks(state, seat):
    """Bob discards a card of his hand he chooses (the first his `legal` lists)."""
    return next(t for t in legal_texts(state, seat) if t.startswith("choose hand:"))


SCRIPT = [("alice", "summon troq-bashar"), ("alice", "play test-extortion"), ("bob", _bob_picks),
          ("alice", "play scorch target=opp:base")]
ASKED, ANSWERED = 1, 2  # indices in SCRIPT


@pytest.fixture(scope="module")
def tables():
    return codex_tables.play_everywhere(LINES, SCRIPT)


@pytest.fixture
def lenient():
    with codex_tables.scenarios_everywhere():
        yield


def _answer(chain):
    """Bob's file that answers the question (his own signed command)."""
    return codex_tables.choice_by(chain, "bob")


@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_every_dealer_plays_it_and_the_game_verifies_and_audits(mode, tables, tmp_path, lenient):
    table, _ = tables[mode]
    chain = tamper.replay(table.files)
    answer = _answer(chain)
    assert len(answer.after.zones["discard:bob"].items) == len(answer.before.zones["discard:bob"].items) + 1
    assert len(answer.after.zones["hand:bob"].items) == len(answer.before.zones["hand:bob"].items) - 1
    report = audit(tamper.save(table, tmp_path / "game"))
    assert report.ok, report.failures


@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_views_show_the_discarded_card_to_nobody_but_its_owner(mode, tables, lenient):
    table, seen = tables[mode]
    assert seen[ASKED]["view:bob"].prompt.startswith("you to choose: a card of your hand")
    assert seen[ASKED]["view:alice"].prompt.startswith("bob to choose")
    chain = tamper.replay(table.files)
    bob_cards = {it.card for r in chain.records[1:] if r.after is not None
                 for z in ("hand:bob", "discard:bob") for it in r.after.zones[z].items if isinstance(it, Known)}
    assert not bob_cards, f"a card of bob's hand or discard pile is public: {bob_cards}"
    for k, views in seen.items():
        assert "bob's hand (seen)" not in views["alice"] and "(seen)" not in views["public"], f"after command {k}"
        them = next(s for s in views["view:alice"].sides if s.seat == "bob")
        assert them.seen_hand is None and them.seen_discard is None, f"after command {k}"
    mine = next(s for s in seen[ANSWERED]["view:bob"].sides if s.seat == "bob")
    assert len(mine.my_hand) == len(next(s for s in seen[ASKED]["view:bob"].sides if s.seat == "bob").my_hand) - 1


def _body(table, k: int) -> TurnBody:
    from pbem.protocol import codec

    return codec.decode_body(codec.read_envelope(table.files[k]), TurnBody)


@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_the_victims_answer_naming_a_card_not_in_its_hand_re_signed_is_refused(mode, tables, lenient):
    table, _ = tables[mode]
    chain = tamper.replay(table.files)
    k = _answer(chain).seq
    body = _body(table, k)
    alice_card = chain.records[k - 1].after.zones["hand:alice"].items[0].ref
    doctored = msgspec.structs.replace(body, commands=[msgspec.Raw(canonical(Choose([alice_card])))])
    partial = tamper.replay(table.files[:k])
    with pytest.raises(PbemError, match="not a card of your hand"):
        partial.append(tamper.resign(table, doctored))
    assert len(partial.records) == k, "nothing changed"


@pytest.mark.parametrize("mode", codex_tables.MODES)
def test_the_caster_answering_for_the_victim_re_signed_is_refused(mode, tables, lenient):
    table, _ = tables[mode]
    chain = tamper.replay(table.files)
    k = _answer(chain).seq
    body = _body(table, k)
    doctored = msgspec.structs.replace(body, by="alice")
    partial = tamper.replay(table.files[:k])
    with pytest.raises(PbemError, match=r"alice may not write now \(waiting for bob\)"):
        partial.append(tamper.resign(table, doctored))
    assert len(partial.records) == k
