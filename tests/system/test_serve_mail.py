"""`pbem serve --mail`: what the page writes is mailed to the other party,
and what the other party mails back is fetched, answered and mailed on,
through a real SMTP server on loopback (aiosmtpd, delivering into a maildir
per address; the mail tests' fixtures). A peer Agent Avenue game, each
player in a folder and a home of their own; alice plays on her page, bob
by the library, as `pbem mail fetch` and `pbem mail send` would."""

from __future__ import annotations

import email
import email.policy
import json
import random
import re

from served import Served, wait_until
from test_mail import bot_turn, people, smtp  # noqa: F401 - the SMTP server fixture

from pbem.app import creating, mailing

from pbem.app import mail_fetch
from pbem.gamedir import folder as folder_mod


def _mailed_to(smtp, address: str) -> dict[str, bytes]:  # noqa: F811
    """Every file mailed to `address` so far, by name."""
    out = {}
    for rcpts, raw in smtp.received:
        if address in rcpts:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            out.update({p.get_filename(): p.get_content() for p in msg.iter_attachments()})
    return out


def _bob(folder, keys, rng, until) -> None:
    """bob fetches his mail, writes what he owes (a bot's move where he
    decides) and mails it, until `until()` holds."""
    for _ in range(20):
        mail_fetch.fetch([folder], "bob", keys["bob"])  # joins the game, answers what needs no decision
        if (folder / folder_mod.GENESIS).exists():
            bot_turn(folder, "bob", keys["bob"], rng)
            mailing.send(folder, "bob", keys["bob"])
        if until():
            return
    raise AssertionError("bob's mail did not get there")


def test_the_page_mails_what_it_writes_and_fetches_the_answers(tmp_path, smtp):  # noqa: F811
    keys = people(tmp_path, smtp, names=("alice", "bob"))
    alice, bob = tmp_path / "alice" / "g", tmp_path / "bob" / "g"
    creating.new_game("aa", alice, ["alice", "bob"], keys["alice"], "peer", creator="alice")
    mailing.send(alice, "alice", keys["alice"])
    rng = random.Random(4)
    server = Served(keys["alice"].store.home, "alice", alice, log=tmp_path / "serve.log",
                    extra=("--mail", "--mail-every", "10"))
    try:
        key = server.game_keys()[0]

        def page() -> dict:
            return json.loads(server.page(f"g/{key}/main"))

        def alice_mailed_all() -> bool:
            mailed = _mailed_to(smtp, "bob@example.org")
            return all(mailed.get(p.name) == p.read_bytes() for p in alice.glob("*-alice.pbem"))

        # bob joins by mail; alice's server fetches the join, writes her
        # part of the set-up (no click: nothing to decide) and mails it
        _bob(bob, keys, rng, lambda: folder_mod.load(bob).seq >= 1)
        wait_until(lambda: page()["seq"] >= 2 and alice_mailed_all(), timeout=40)
        assert (alice / "000002-alice.pbem").exists()
        # bob answers in turn; then alice decides, on her page
        _bob(bob, keys, rng, lambda: "alice" in folder_mod.load(bob).writers())
        top = folder_mod.load(bob).seq
        main = wait_until(lambda: (m := page())["seq"] >= top and 'data-owes="decision"' in m["html"] and m,
                          timeout=40)
        move = re.search(r'data-cmd="([^"]+)"', main["html"]).group(1)
        status, body = server.post(f"g/{key}/submit", {"text": move, "seq": main["seq"]}, token=server.token())
        answer = json.loads(body)
        assert status == 200 and answer["ok"], answer
        mine = max(alice.glob("*-alice.pbem"))
        assert any(line.startswith("mailed bob <bob@example.org>: ") and mine.name in line
                   for line in answer["said"]), answer["said"]
        assert alice_mailed_all()
    finally:
        assert server.stop() == 0, (tmp_path / "serve.log").read_text()
    mail_fetch.fetch([bob], "bob", keys["bob"])  # every file alice wrote reached bob's folder, by mail alone
    assert all((bob / p.name).read_bytes() == p.read_bytes() for p in alice.glob("0*.pbem"))
    folder_mod.load(bob, full=True)
