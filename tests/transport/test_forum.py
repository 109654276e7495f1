"""Forum play (issue 24, part 7): `pbem outbox --forum` writes a Markdown
post, a summary anyone may read with the files in a collapsed block, and
`pbem apply` takes the post back: its Markdown, the text copied from the
rendered page, or the page saved as HTML. No post shows a hidden card."""

from __future__ import annotations

import html
import random
import re

import pytest
from markdown_it import MarkdownIt

from conftest import Pbem, introduced, mail_step
from pbem.app import creating, forum, opening, reading, receiving, sending, writing
from pbem.games.base import Known
from pbem.gamedir import folder, safe_read
from pbem.transport import armor

GAMES = {
    "agent-avenue": ["alice", "bob"],
    "codenames": ["alice:red-spymaster", "bob:red", "carol:blue-spymaster", "dave:blue"],
    "dark-agent": ["alice", "bob", "carol"],
    "codex": ["alice", "bob"],
}


def referee_game(tmp_path, game, seats, steps, seed=3, dealer="referee"):
    """A referee game (or a peer game, alice creating it) played by random
    bots for `steps` files, each party in its own folder."""
    names = [s.split(":")[0] for s in seats]
    keys = introduced(tmp_path, names + ["rita"])
    if dealer == "referee":
        dirs = {"rita": tmp_path / "rita"}
        creating.new_game(game, dirs["rita"], seats, keys["rita"], "referee", referee="rita")
    else:
        dirs = {"alice": tmp_path / "alice"}
        creating.new_game(game, dirs["alice"], seats, keys["alice"], "peer", creator="alice")
    genesis = next(iter(dirs.values())) / folder.GENESIS
    for n in names:
        if n in dirs:
            continue
        dirs[n] = tmp_path / n
        mine = receiving.join(dirs[n], [genesis], n, keys[n])
        if mine is not None:
            for other in dirs:
                if other != n:
                    receiving.apply_files(dirs[other], [mine])
    for d in dirs.values():  # every folder holds every join so far
        for other in dirs.values():
            receiving.apply_files(d, sorted(other.glob("0*.pbem")))
    rng = random.Random(seed)
    for _ in range(steps):
        if not mail_step(keys, dirs, rng):
            break
    return keys, dirs, names


def summary(post: str) -> str:
    """The post without its armored blocks (their base64 could hold any short word by chance)."""
    return re.sub(r"-----BEGIN PBEM FILE-----.*?-----END PBEM FILE-----", "", post, flags=re.S)


def secrets(chain, keys, seat) -> set[str]:
    """The cards `seat` knows that the public state hides."""
    public = {it.ref for z in chain.public.zones.values() for it in z.items if isinstance(it, Known)}
    mine = opening.party(chain, seat, keys[seat]).state()
    return {it.card for z in mine.zones.values() for it in z.items if isinstance(it, Known) and it.ref not in public}


@pytest.mark.parametrize("game,dealer", [(g, "referee") for g in sorted(GAMES)] + [("agent-avenue", "peer")])
def test_a_post_never_shows_a_hidden_card(tmp_path, game, dealer):
    keys, dirs, names = referee_game(tmp_path, game, GAMES[game], steps=10, dealer=dealer)
    rng = random.Random(11)
    checked = 0
    must_check = game in ("agent-avenue", "codex")  # a hand there always holds cards no board shows
    # at a few points of the game, as each seat, and on while no hidden card
    # was there to check (a peer deal's cards are random: the hands may hold
    # only names the board or the log shows too)
    for point in range(16):
        if point >= 4 and (checked or not must_check):
            break
        for seat in names:
            checked += _check_post(dirs, keys, seat)
        for _ in range(10):
            mail_step(keys, dirs, rng)
    if must_check:
        assert checked, "no secret card was checked"


def _check_post(dirs, keys, seat) -> int:
    chain = opening.open_game(dirs[seat], keys[seat])
    owed = {p for o in sending.outbox(dirs[seat], chain, seat) for p in o.files}
    if not owed:  # every other party has all of this seat's files: nothing to post
        return 0
    post = forum.post(dirs[seat], chain, seat)
    # what anyone can read of the whole game: a secret card with the name
    # of a public one (two copies of an agent) cannot be told apart
    anyone = reading.render(chain, None) + "\n".join(reading.log_lines(chain))
    hidden = {c for c in secrets(chain, keys, seat) if c not in anyone}
    shown = summary(post)
    assert not [c for c in hidden if c in shown], (seat, hidden)
    # the files are exactly the outbox's, and nothing else is armored
    found, bad = armor.find_blocks(post, "post")
    assert not bad
    assert sorted(f.data for f in found) == sorted(safe_read.read(p) for p in owed)
    return len(hidden)


def test_a_codex_post_sums_the_turn_up_like_the_forum_template(tmp_path):
    keys, dirs, _ = referee_game(tmp_path, "codex", GAMES["codex"], steps=20)
    rng = random.Random(2)
    for _ in range(100):  # on to the end of one of alice's turns
        chain = opening.open_game(dirs["alice"])
        if chain.records[-1].by == "alice" and "alice" not in chain.writers():
            break
        mail_step(keys, dirs, rng)
    post = forum.post(dirs["alice"], chain, "alice")
    last = max(r.seq for r in chain.records if r.by == "alice")
    assert re.search(rf"^- {last} alice: .*\(gold \d+( → \d+)?\)$", post, re.M), post
    for words in ("squad leader", "elite", "scavenger", "technician", "lookout", "workers", "hand ", "deck ",
                  "discard ", "buildings: base", "in play: "):
        assert words in summary(post), words
    assert "<details>" in post and "</details>" in post and "```text" in post


@pytest.mark.parametrize("how,dealer", [("markdown", "referee"), ("copied", "referee"), ("saved page", "referee"),
                                        ("copied", "peer")])
def test_apply_takes_a_post_back(tmp_path, how, dealer):
    keys, dirs, _ = referee_game(tmp_path, "agent-avenue", GAMES["agent-avenue"], steps=4, dealer=dealer)
    rng = random.Random(1)
    while folder.load(dirs["alice"]).needs(folder.load(dirs["alice"]).writers()[0]) != "decision":
        mail_step(keys, dirs, rng)
    writer = folder.load(dirs["alice"]).writers()[0]
    mine = folder.load(dirs[writer])
    me = opening.party(mine, writer, keys[writer])
    writing.submit(dirs[writer], writer, [reading.legal(mine, me)[0]], keys[writer])
    other = next(n for n in ("alice", "bob") if n != writer)
    before = folder.load(dirs[other]).seq
    post = Pbem(keys[writer].store.home)("outbox", dirs[writer], "--as", writer, "--forum").stdout
    page = MarkdownIt("commonmark").render(post)
    if how == "markdown":
        text = post
    elif how == "copied":  # what a browser copies of the rendered post: its text, lines kept
        text = html.unescape(re.sub(r"<[^>]+>", "", page))
    else:  # a page with a script holding an escaped copy of the post (as forum software preloads it)
        escaped = post.replace("\n", "\\n").replace('"', '\\"')
        text = f'<!DOCTYPE html>\n<html><head><script>var post = "{escaped}";</script></head>\n<body>{page}</body></html>\n'
    saved = tmp_path / "post.html"
    saved.write_text(text)
    r = Pbem(keys[other].store.home)("apply", dirs[other], saved)
    assert folder.load(dirs[other]).head == folder.load(dirs[writer]).head
    assert folder.load(dirs[other]).seq > before and r.stderr.count("refused") == 0


def test_forum_and_armor_together_is_a_usage_error(tmp_path):
    keys, dirs, _ = referee_game(tmp_path, "agent-avenue", GAMES["agent-avenue"], steps=2)
    run = Pbem(keys["alice"].store.home)
    assert run("outbox", dirs["alice"], "--as", "alice", "--forum", "--armor", ok=False).exit_code == 2


def test_markup_in_game_words_stays_text():
    from pbem.render.forum import fenced, text

    assert text("a <b>*bold*</b> [link](x) `c`") == r"a \<b\>\*bold\*\</b\> \[link\](x) \`c\`"
    assert fenced("x ```` y").startswith("`````text\n")


def test_a_hotseat_game_has_nothing_to_post(pbem, tmp_path):
    pbem("new", "aa", tmp_path / "g", "--seat", "alice", "--seat", "bob")
    r = pbem.fails("outbox", tmp_path / "g", "--as", "alice", "--forum")
    assert "nothing to post" in r.stderr


def test_a_saved_page_is_read_in_one_pass():
    """A page of 200,000 unclosed ``<script`` tags, or of as many ``<``,
    is read in one pass (each left-out element is searched for its end once)."""
    import time

    for page in (b"<!DOCTYPE html>" + b"<script>" * 200_000, b"<html>" + b"<" * 400_000 + b"<pre>x</pre>"):
        start = time.process_time()
        found, bad = armor.find_in_bytes(page, "page.html")
        assert time.process_time() - start < 2 and not found and not bad
    assert armor.html_text("a<script>b</script>c<style>d</style><p>e</p>&lt;f") == "ace\n<f"
