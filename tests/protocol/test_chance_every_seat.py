"""Chance one colluder cannot show the writer (issue #20, class 10).

In a peer game a paused file's chance came from the next seat's answer: if
that seat handed the writer its beacon seed, the writer could dry-run every
option and know its dice before deciding (Dark Agent with three to six
seats, two against a third). From protocol version 4 the chance waits for a
new link of every other seat, each revealed after the writer signed, the
next seat last (`Chain.chance_answerers`): the writer and any one colluder,
knowing every link they hold or can compute, cannot name the key the dice
come from. The victim is the real CLI, in one shared folder.
"""

from __future__ import annotations

from conftest import play_to_end
from pbem import games
from pbem.crypto import beacon
from pbem.crypto.encoding import b64d
from pbem.home.store import KeyStore
from pbem.gamedir import folder
from pbem.protocol.peer import knowledge as peer_knowledge

games._REGISTRY.setdefault("lucky", ("tests.chancegame", "GAME", ()))


def _until_alice_may_roll(pbem, g):
    for _ in range(200):
        st = pbem.json("status", g)
        who = st["to_act"][0]
        if who["needs"] == "auto":
            pbem("sync", g, "--as", who["seat"])
        elif who["seat"] == "alice" and "roll" in pbem.json("legal", g, "--as", "alice"):
            return
        else:
            pbem("submit", g, "--as", who["seat"], "--cmd", pbem.json("legal", g, "--as", who["seat"])[0])
    raise AssertionError("alice never had a roll to make")


def test_the_writer_and_one_colluder_cannot_foresee_a_roll(pbem, tmp_path):
    pbem("id", "new", "carol", "--no-passphrase")
    g = tmp_path / "g"
    pbem("new", "lucky", g, "--seat", "alice", "--seat", "bob", "--seat", "carol", "--dealer", "peer", "--as", "alice",
         "--option", "rounds=3")
    _until_alice_may_roll(pbem, g)
    store = KeyStore(pbem.home)
    before = folder.load(g)
    deck = before.deck
    # what alice knows, and bob (the next seat, her friend) tells her: his beacon seed
    mine = peer_knowledge.my_secrets(before, store.secret("alice", lambda: ""))
    his = peer_knowledge.my_secrets(before, store.secret("bob", lambda: ""))
    alice_link = deck.next_link("alice", b64d(mine.beacon_seed, 32))
    bob_links = [beacon.link(b64d(his.beacon_seed, 32), deck.beacon_length, deck.links_used["bob"] + n)
                 for n in range(1, 4)]
    roll_seq = before.seq + 1
    foreseen = {beacon.chance_key({**deck.latest, "alice": alice_link, "bob": b}, before.game_id, seq)
                for b in bob_links for seq in range(roll_seq + 1, roll_seq + 4)}

    pbem("submit", g, "--as", "alice", "--cmd", "roll")
    for _ in range(10):  # the answers, each an automatic file
        st = pbem.json("status", g)
        who = st["to_act"][0]
        if who["needs"] != "auto":
            break
        pbem("sync", g, "--as", who["seat"])
    after = folder.load(g)
    resolved = next(r for r in after.records if r.resumed is not None and r.resumed[0] == "alice" and r.seq > roll_seq)
    answers = [r.by for r in after.records[roll_seq + 1:resolved.seq + 1]]
    assert set(answers) == {"bob", "carol"} and answers[-1] == "bob", answers  # every other seat, the next one last
    drawn = folder.load(g, stop=resolved.seq)  # the links as they stood after the answer that drew the roll
    assert drawn.deck.latest["carol"] != deck.latest["carol"]  # a link carol revealed after alice signed
    assert beacon.chance_key(dict(drawn.deck.latest), after.game_id, resolved.seq) not in foreseen
    assert play_to_end(pbem, g)["over"]
    pbem("audit", g)
