"""Looking at the top N cards of one's own draw pile and putting them back
in an order one chooses (issue #22 part 4): the effect ``arrange_top``.
No card of the Deluxe set does it (Vir Garbarean looks at one card and
trades it), so the card here is added for the test (`cards.add`). Here
from fixed positions; test_codex_arrange_top_dealers.py plays it under
every dealer through the real writers."""

from __future__ import annotations

import msgspec
import pytest

from pbem.errors import IllegalCommand
from pbem.games.codex import GAME, cards, datacheck
from pbem.games.codex.commands import Choose
from tests.codex_helpers import do, legal_texts, start

FORESIGHT = {"Test Foresight": {
    "type": "spell", "cost": 1, "text": "You see the top three cards of your draw pile and put them back as you like.",
    "do": [{"arrange_top": 3}]},
    "Test Sifting": {
    "type": "spell", "cost": 1, "text": "You see the top three cards of your draw pile; discard any of them and put "
                                        "the others back as you like.",
    "do": [{"arrange_top": 3, "discard": True}]}}


@pytest.fixture(scope="module", autouse=True)
def foresight():
    names = cards.add("blue", FORESIGHT)
    for name in names:
        datacheck.check_card(cards.CARDS[name])  # what a card author runs
    yield
    cards.remove(names)


def _top(state, seat="alice"):
    return [it.card for it in state.zones[f"top:{seat}"].items]


# --- from a fixed position -------------------------------------------------------------


def test_the_owner_alone_is_asked_the_order_and_the_next_draws_follow_it():
    st = start("p1.hand = Test Foresight, Spark", "p1.deck = Bloom, Wither, Tenderfoot, Scorch", "p1.gold = 9",
               "p1.hero = 1", "p2.hand = Spark")
    st = do(st, "play test-foresight")
    assert st.prompt.kind == "order" and st.prompt.seat == "alice" and st.prompt.options == []
    assert sorted(_top(st)) == ["Bloom", "Tenderfoot", "Wither"]
    assert GAME.to_act(st) == ["alice"] and legal_texts(st, "bob") == []
    assert len(legal_texts(st, "alice")) == 6, "every order of three different cards"
    for viewer in ("bob", None):
        assert "Bloom" not in GAME.presentation.render(GAME.view(st, viewer))
    st = do(st, "choose top:wither;top:bloom;top:tenderfoot")
    assert _top(st) == ["Wither", "Bloom", "Tenderfoot"] and st.prompt is None
    assert "Wither" not in " ".join(st.log), "the log names no card"
    st = do(st, "end")  # the Spark is discarded, three drawn: those, in their new order
    assert [it.card for it in st.zones["hand:alice"].items] == ["Wither", "Bloom", "Tenderfoot"]


def test_copies_are_one_choice_and_one_card_asks_nothing():
    st = do(start("p1.hand = Test Foresight", "p1.deck = Spark, Spark, Bloom", "p1.gold = 9", "p1.hero = 1"),
            "play test-foresight")
    assert legal_texts(st, "alice") == ["choose top:bloom;top:spark;top:spark", "choose top:spark;top:bloom;top:spark",
                                        "choose top:spark;top:spark;top:bloom"]
    st = do(start("p1.hand = Test Foresight", "p1.deck = Bloom", "p1.gold = 9", "p1.hero = 1",
                  "p1.workers = Timely Messenger, Tenderfoot, Older Brother, Brick Thief, Helpful Turtle, "
                  "Granfalloon Flagbearer, Fruit Ninja, Spark, Wither"), "play test-foresight")
    assert st.prompt is None and _top(st) == ["Bloom"]


@pytest.mark.parametrize("make, message", [
    (lambda top, rest: [rest[0], *top[1:]], "not one of the cards you looked at"),
    (lambda top, rest: [top[0], top[0], top[1]], "names a card twice"),
    (lambda top, rest: top[:2], "name all 3 cards you looked at"),
    (lambda top, rest: [*top, rest[0]], "not one of the cards you looked at"),
], ids=["another-card", "repeated", "short", "one-more"])
def test_an_order_of_other_cards_than_those_seen_is_refused(make, message):
    st = do(start("p1.hand = Test Foresight", "p1.deck = Bloom, Wither, Tenderfoot, Scorch", "p1.gold = 9",
                  "p1.hero = 1"), "play test-foresight")
    top, rest = [it.ref for it in st.zones["top:alice"].items], [it.ref for it in st.zones["deck:alice"].items]
    with pytest.raises(IllegalCommand, match=message):
        GAME.apply(st, "alice", Choose(make(top, rest)), None)


def test_the_order_is_not_given_in_the_command_that_looks():
    st = start("p1.hand = Test Foresight", "p1.deck = Bloom, Wither, Tenderfoot", "p1.gold = 9", "p1.hero = 1")
    cmd = GAME.presentation.parse("play test-foresight", st, "alice")
    cmd = msgspec.structs.replace(cmd, choices=msgspec.structs.replace(cmd.choices, answers=["c001", "c002", "c003"]))
    with pytest.raises(IllegalCommand, match="in a command of its own"):
        GAME.apply(st, "alice", cmd, _Chance())


class _Chance:
    """Hotseat chance for `GAME.apply` in a test: the first place each time."""

    def private_draw(self, n: int) -> int:
        return 0

    def below(self, n: int) -> int:
        return 0

    def shuffle(self, items):
        return list(items)


def test_a_card_that_lets_some_be_discarded_puts_them_face_down_in_the_discard_pile():
    st = do(start("p1.hand = Test Sifting, Spark", "p1.deck = Bloom, Wither, Tenderfoot, Scorch", "p1.gold = 9",
                  "p1.hero = 1"), "play test-sifting")
    assert st.prompt.optional and "then none, then those discarded" in st.prompt.what
    texts = legal_texts(st, "alice")
    assert len(texts) == 16 and sum(t.startswith("choose none;") for t in texts) == 1, \
        "every order of every part kept, the rest discarded"
    assert "top:NAME;top:NAME;...;none;top:NAME..." in GAME.view(st, "bob").prompt
    before = len(st.zones["discard:alice"].items)
    st = do(st, "choose top:wither;none;top:bloom;top:tenderfoot")
    assert _top(st) == ["Wither"] and len(st.zones["discard:alice"].items) == before + 2
    assert st.zones["discard:alice"].readers == ["alice"] and "alice discards 2 card(s)" in " ".join(st.log)
    st = do(st, "end")
    assert [it.card for it in st.zones["hand:alice"].items][0] == "Wither"


def test_a_card_that_only_reorders_refuses_a_discard():
    st = do(start("p1.hand = Test Foresight", "p1.deck = Bloom, Wither, Tenderfoot", "p1.gold = 9", "p1.hero = 1"),
            "play test-foresight")
    top = [it.ref for it in st.zones["top:alice"].items]
    with pytest.raises(IllegalCommand, match="none of them may be discarded"):
        GAME.apply(st, "alice", Choose([top[0], "", top[1], top[2]]), None)
    assert len(legal_texts(st, "alice")) == 6
