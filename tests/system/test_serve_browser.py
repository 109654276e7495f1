"""`pbem serve` in a real browser: whole games played by clicking only.

Each player runs a real `pbem serve` process in their own PBEM_HOME; the
players share one game folder (as a sync tool would keep it), and one
headless Chromium (`cdp.py`, its DevTools pipe) holds a tab per player.
A bot chooses among what the page offers, as a player would: a card or a
place on the board, the next word of a move, a move's button, then Send
in the confirmation; undo requests are asked and answered on the page. No
move is written any other way. Screenshots go to ``$PBEM_ARTIFACTS/serve``
(default ``.ci/artifacts/serve``, kept by CI): look at them when the page
changes.

Skipped, saying why, where chromium is missing (`.ci/run` installs it).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cdp import CHROMIUM, SKIP, Browser, CdpError
from conftest import introduced, snapshot
from served import IDLE, Served
from served import open_game as served_open_game

from pbem.app import creating, opening, writing
from pbem.gamedir import folder as folder_mod
from paths import ROOT

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP)
ARTIFACTS = Path(os.environ.get("PBEM_ARTIFACTS") or ROOT / ".ci" / "artifacts") / "serve"
LONG = bool(os.environ.get("PBEM_LONG"))

STATE = """(function () { var l = document.querySelector('.layout');
  if (!l) return null;
  var c = document.getElementById('confirm');
  return {seq: +l.dataset.seq, owes: l.dataset.owes, over: !!document.querySelector('#now .outcome'),
          confirm: !!(c && !c.hidden), flash: document.getElementById('flash').textContent}; }())"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(tmp_path_factory.mktemp("chromium") / "profile")
    yield b
    b.close()


@pytest.fixture
def shots(request):
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder


@pytest.fixture
def servers():
    started: list[Served] = []
    yield started
    for s in started:
        s.stop()


def open_game(browser, server: Served) -> object:
    """A tab on the server's list of games, then a click on the game (`served.open_game`)."""
    return served_open_game(browser, server.url)




def state(tab) -> dict:
    return tab.eval(STATE) or {}


def visible(tab, selector: str) -> int:
    return tab.eval(f"Array.prototype.filter.call(document.querySelectorAll({json.dumps(selector)}), "
                    "function (e) { return e.offsetParent !== null || e.getBBox; }).length")


def click_visible(tab, selector: str, rng: random.Random) -> None:
    n = tab.eval(f"(function () {{ var all = document.querySelectorAll({json.dumps(selector)}), out = [];"
                 " for (var i = 0; i < all.length; i++) { var e = all[i];"
                 " if (e.closest('[hidden]')) continue; out.push(i); } window.__pick = out; return out.length; }())")
    assert n, f"nothing to click at {selector}"
    index = tab.eval(f"window.__pick[{rng.randrange(n)}]")
    tab.click(selector, index)


def click_until(tab, selector: str, condition: str, tries: int = 4) -> None:
    """Click `selector` until `condition` holds: a page that a file arriving
    from the other seat redraws between the look and the click loses that
    click, as a player's would, and the player clicks again."""
    for _ in range(tries - 1):
        tab.wait(f"!!document.querySelector({json.dumps(selector)})")
        tab.click(selector)
        try:
            tab.wait(condition, timeout=8)
            return
        except CdpError:
            continue
    tab.click(selector)
    tab.wait(condition)


def one_move(tab, rng: random.Random, undo_odds: float = 0.0) -> str:
    """A move chosen on the page by clicking, confirmed and sent: the
    bot clicks the board, a next word or a move until the page asks to
    confirm. Returns what it confirmed."""
    st = state(tab)
    if st["owes"] == "undo":
        click_visible(tab, "button.undo", rng)
    elif undo_odds and rng.random() < undo_odds and tab.eval("!!document.querySelector('button.undo[data-undo=request]')"):
        tab.click("button.undo[data-undo=request]")
    else:
        for _ in range(12):
            if state(tab).get("confirm"):
                break
            picks = tab.eval("document.querySelectorAll('#board .pickable').length")
            steps = tab.eval("document.querySelectorAll('#chooser button.step').length")
            shown = tab.eval("document.querySelectorAll('#moves li:not([hidden]) button.move').length")
            if picks and rng.random() < 0.6:
                click_visible(tab, "#board .pickable", rng)
            elif steps:
                click_visible(tab, "#chooser button.step", rng)
            elif shown:
                click_visible(tab, "#moves button.move", rng)
            else:  # the picks left no move: as a player would, start again
                tab.click("#chooser .trail button")
            tab.wait(IDLE)  # a click that chose a move has the server check it: its answer is in
    tab.wait("(function () { var c = document.getElementById('confirm'); return c && !c.hidden; }())", timeout=10)
    words = tab.eval("document.getElementById('confirm-text').textContent")
    tab.click("#send")
    return words


def play_by_clicking(tabs: dict[str, object], rng: random.Random, shots: Path, limit: int,
                     undo_odds: float = 0.0, stop_after: int | None = None) -> dict[str, dict]:
    """Play on the pages until the game is over (or `stop_after` moves):
    whoever's page says the move is theirs clicks one. Returns each page's
    last state."""
    moves = 0
    deadline = time.monotonic() + limit
    while True:
        states = {name: state(tab) for name, tab in tabs.items()}
        if all(s.get("over") for s in states.values()) or (stop_after is not None and moves >= stop_after):
            return states
        assert time.monotonic() < deadline, f"the game did not end in time: {states}"
        turn = [n for n, s in states.items() if s.get("owes") in ("decision", "undo") and not s.get("over")]
        if not turn:
            time.sleep(0.1)  # the watchers are writing the automatic files
            continue
        name = turn[0]
        tab = tabs[name]
        before = states[name]["seq"]
        if moves % 7 == 0:
            tab.screenshot(shots / f"{moves:03d}-{name}.png")
        one_move(tab, rng, undo_odds)
        tab.wait(f"(function () {{ var l = document.querySelector('.layout'); return l && +l.dataset.seq > {before}; }}())"
                 f" || /error|refused|cannot/.test(document.getElementById('flash').textContent)", timeout=30)
        flash = tab.eval("document.getElementById('flash').textContent")
        assert not flash.startswith("the pbem serve"), flash
        moves += 1


def verified(folder: Path) -> None:
    """The folder the pages wrote is a valid chain, audited when over."""
    chain = folder_mod.load(folder, full=True)
    if chain.over:
        from pbem.app.audit import audit

        audit(folder)


# --- whole games ------------------------------------------------------------------------------


def test_agent_avenue_peer_game_by_clicking(browser, servers, shots, tmp_path):
    """Two serve processes, two homes, one shared folder, no dealer: the
    join, the set-up and every decryption are written by the pages'
    watchers, every decision clicked."""
    keys = introduced(tmp_path, ["alice", "bob"])
    g = tmp_path / "shared" / "avenue"
    creating.new_game("agent-avenue", g, ["alice", "bob"], keys["alice"], dealer="peer", creator="alice")
    for name in ("alice", "bob"):
        servers.append(Served(keys[name].store.home, name, g, log=tmp_path / f"serve-{name}.log"))
    tabs = {name: open_game(browser, s) for name, s in zip(("alice", "bob"), servers)}
    final = play_by_clicking(tabs, random.Random(7), shots, limit=400 if LONG else 240, undo_odds=0.15)
    for name, tab in tabs.items():
        tab.screenshot(shots / f"end-{name}.png")
        assert final[name]["over"]
    verified(g)


def test_codenames_game_with_a_referee_by_clicking(browser, servers, shots, tmp_path):
    """Codenames against the ghost team: alice gives clues typed in the
    box (the clue check answers before anything is sent), bob guesses by
    clicking words on the board; rita's `pbem referee watch` deals."""
    keys = introduced(tmp_path, ["alice", "bob", "rita"])
    g = tmp_path / "shared" / "codenames"
    creating.new_game("codenames", g, ["alice:red-spymaster", "bob:red"], keys["rita"], dealer="referee",
                     referee="rita", options=["variant=coop"])
    referee = subprocess.Popen(
        [sys.executable, "-m", "pbem", "referee", "watch", str(g.parent), "--as", "rita"],
        env={**os.environ, "PBEM_HOME": str(keys["rita"].store.home), "PBEM_WATCH_SETTLE": "0.05"},
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "referee.log", "w"))
    try:
        for name in ("alice", "bob"):
            servers.append(Served(keys[name].store.home, name, g, log=tmp_path / f"serve-{name}.log"))
        tabs = {name: open_game(browser, s) for name, s in zip(("alice", "bob"), servers)}
        alice = tabs["alice"]
        try:
            alice.wait("document.querySelector('.layout').dataset.owes === 'decision'", timeout=60)
        except CdpError as exc:  # say what each process saw (this wait ran out under load before)
            logs = {p.name: p.read_text()[-2000:] for p in sorted(tmp_path.glob("*.log"))}
            raise AssertionError(f"{exc}\nfiles: {sorted(p.name for p in g.iterdir())}\nlogs: {logs}") from None
        # a visible codename as a clue: the check refuses it before anything is sent
        word = alice.eval("document.querySelector('#board [data-word]').dataset.word")
        before = snapshot(g)
        alice.click("#typed")
        alice.type(f"clue {word} 2")
        alice.wait("document.getElementById('verdict').classList.contains('bad')")
        verdict = alice.eval("document.getElementById('verdict').textContent")
        assert word in verdict and "not allowed" in verdict
        alice.screenshot(shots / "clue-refused.png")
        assert snapshot(g) == before
        # a clue the check accepts, typed and sent with Enter
        sample = alice.eval("document.querySelector('#moves button.move').dataset.cmd")
        alice.eval("document.getElementById('typed').value = ''")
        alice.click("#typed")
        alice.type(sample)
        alice.wait("document.getElementById('verdict').classList.contains('ok')")
        alice.key("Enter")
        alice.wait("!document.getElementById('confirm').hidden")
        assert "alice will" in alice.eval("document.getElementById('confirm-text').textContent")
        alice.click("#send")
        bob = tabs["bob"]
        bob.wait("document.querySelector('.layout').dataset.owes === 'decision'", timeout=30)
        assert bob.eval("document.querySelectorAll('#board [data-word].pickable').length") >= 1
        bob.screenshot(shots / "bob-to-guess.png")
        final = play_by_clicking(tabs, random.Random(3), shots, limit=300)
        for name, tab in tabs.items():
            tab.screenshot(shots / f"end-{name}.png")
            assert final[name]["over"]
    finally:
        referee.terminate()
        referee.wait(15)
    verified(g)


#: every game, its seats and options, as the pages play it
GAMES = {
    "agent-avenue": (["alice", "bob"], []),
    "codenames": (["alice:red-spymaster", "bob:red"], ["variant=coop"]),
    "codex": (["alice", "bob"], []),
    "dark-agent": (["alice", "bob"], ["rounds=1"]),  # a short game of its own (whole games last hundreds of moves)
}
#: played to the end by the tests above in every run
WHOLE = {("agent-avenue", "peer"), ("codenames", "referee")}
#: (game, dealer, moves clicked, None: to the end): the default run clicks
#: a sample; PBEM_LONG=1 plays every other game under every dealer to its
#: end (Codex from a position near its end, reached by the greedy bots)
CASES = [(g, d, None) for g in GAMES for d in ("hotseat", "referee", "peer") if (g, d) not in WHOLE] if LONG \
    else [("codex", "peer", 3), ("dark-agent", "referee", None)]


def bots_until(g: Path, keys: dict, done, rng: random.Random, limit: int = 3000):
    """The greedy bot's moves and every automatic file, written through the
    library by whoever owes them, until `done(chain)` or the game's end."""
    for _ in range(limit):
        chain = folder_mod.load(g)
        if chain.over or done(chain):
            return chain
        who = chain.writers()[0]
        mine = keys.get(who) or next(iter(keys.values()))  # a hotseat dealer: its key is in the folder
        if chain.needs(who) == "auto":
            writing.sync(g, who, mine)
            continue
        me = opening.party(chain, who, mine)
        state, game = me.state(), chain.game
        command = game.presentation.bots["greedy"](game, state, who, rng)
        writing.submit(g, who, [game.presentation.format(command, state, who)], mine)
    raise AssertionError("the bots did not get there")


def near_the_end(chain) -> bool:
    """A Codex base with at most 6 HP of its 20 left (once it is dealt)."""
    state = chain.records[-1].after
    return state is not None and max(p.base_damage for p in state.players.values()) >= 14


@pytest.mark.parametrize("game, dealer, moves", CASES, ids=[f"{g}-{d}" for g, d, _ in CASES])
def test_every_game_under_every_dealer_by_clicking(browser, servers, shots, tmp_path, game, dealer, moves):
    """Each seat served from its own home in its own tab, the players
    sharing one folder (with rita's `pbem referee watch` as the referee):
    the first moves clicked, or (PBEM_LONG=1) every move to the end."""
    seats, options = GAMES[game]
    names = [s.partition(":")[0] for s in seats]
    keys = introduced(tmp_path, [*names, "rita"])
    g = tmp_path / "shared" / game
    if dealer == "referee":
        creating.new_game(game, g, seats, keys["rita"], dealer="referee", referee="rita", options=options)
    else:
        creating.new_game(game, g, seats, keys[names[0]], dealer=dealer, options=options,
                         creator=names[0] if dealer == "peer" else None)
    if game == "codex" and moves is None:  # a whole game clicked would take an hour
        bots_until(g, keys, near_the_end, random.Random(2))
    referee = None
    if dealer == "referee":
        referee = subprocess.Popen(
            [sys.executable, "-m", "pbem", "referee", "watch", str(g.parent), "--as", "rita"],
            env={**os.environ, "PBEM_HOME": str(keys["rita"].store.home), "PBEM_WATCH_SETTLE": "0.05"},
            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "referee.log", "w"))
    try:
        for name in names:
            servers.append(Served(keys[name].store.home, name, g, log=tmp_path / f"serve-{name}.log"))
        tabs = {name: open_game(browser, s) for name, s in zip(names, servers)}
        final = play_by_clicking(tabs, random.Random(5), shots, limit=900 if moves is None else 240, stop_after=moves)
    finally:
        if referee is not None:
            referee.terminate()
            referee.wait(15)
    for name, tab in tabs.items():
        tab.screenshot(shots / f"after-{name}.png")
        assert moves is not None or final[name]["over"]
    verified(g)


# --- the page itself -----------------------------------------------------------------------------


@pytest.fixture
def hotseat_aa(tmp_path, servers, browser):
    """An Agent Avenue hotseat game in one folder, alice's and bob's pages."""
    keys = introduced(tmp_path, ["alice", "bob"])
    g = tmp_path / "aa"
    creating.new_game("agent-avenue", g, ["alice", "bob"], keys["alice"], dealer="hotseat", seed=11)
    for name in ("alice", "bob"):
        servers.append(Served(keys[name].store.home, name, g, log=tmp_path / f"serve-{name}.log"))
    return g, {name: open_game(browser, s) for name, s in zip(("alice", "bob"), servers)}


def test_keyboard_only_play(hotseat_aa, shots):
    """alice plays with the keyboard alone: Tab to the step "play", Enter,
    Enter on the first of the moves it leaves, Enter on Send."""
    g, tabs = hotseat_aa
    alice = tabs["alice"]
    for _ in range(60):
        alice.key("Tab")
        if alice.eval("document.activeElement.textContent === 'play'"):
            break
    else:
        pytest.fail("the step 'play' is not reached with the Tab key")
    alice.screenshot(shots / "focus.png")
    alice.key("Enter")
    alice.wait("document.activeElement.classList.contains('move')")
    alice.key("Enter")
    alice.wait("!document.getElementById('confirm').hidden && document.activeElement.id === 'send'")
    assert alice.eval("document.getElementById('confirm-text').textContent").startswith("alice will play")
    alice.key("Enter")
    alice.wait("+document.querySelector('.layout').dataset.seq >= 1")
    assert (g / "000001-alice.pbem").exists()


def test_undo_by_agreement_on_the_pages(browser, servers, shots, tmp_path):
    """Dark Agent (a placement reveals nothing, so it may be taken back):
    a seat asks on its page, the other accepts on its own."""
    keys = introduced(tmp_path, ["alice", "bob"])
    g = tmp_path / "da"
    creating.new_game("dark-agent", g, ["alice", "bob"], keys["alice"], dealer="hotseat", seed=4)
    for name in ("alice", "bob"):
        servers.append(Served(keys[name].store.home, name, g, log=tmp_path / f"serve-{name}.log"))
    tabs = {name: open_game(browser, s) for name, s in zip(("alice", "bob"), servers)}
    rng = random.Random(1)
    for _ in range(12):
        asking = [n for n, t in tabs.items() if t.eval("!!document.querySelector('button.undo[data-undo=request]')")]
        if asking:
            break
        play_by_clicking(tabs, rng, shots, limit=60, stop_after=1)
    else:
        pytest.fail("no page offered an undo")
    me, other = asking[0], next(n for n in tabs if n != asking[0])
    tabs[me].wait(IDLE)
    seq = tabs[me].eval("+document.querySelector('.layout').dataset.seq")
    click_until(tabs[me], "button.undo[data-undo=request]", "!document.getElementById('confirm').hidden")
    tabs[me].click("#send")
    tabs[other].wait("document.querySelector('.layout').dataset.owes === 'undo'")
    tabs[other].screenshot(shots / "undo-asked.png")
    tabs[other].wait(IDLE)
    click_until(tabs[other], "button.undo[data-undo=accept]", "!document.getElementById('confirm').hidden")
    tabs[other].click("#send")
    tabs[me].wait(f"+document.querySelector('.layout').dataset.seq > {seq + 1} && "
                  "/accepts the undo/.test(document.getElementById('log').textContent)")
    assert folder_mod.load(g).undo_pending is None


def _paused(browser, tab, timeout: float = 30) -> str:
    """The id of the request of `tab` its `Fetch.enable` pattern paused."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for event in list(browser.events):
            if event.get("method") == "Fetch.requestPaused" and event.get("sessionId") == tab.session:
                return event["params"]["requestId"]
        time.sleep(0.05)
    raise CdpError("no request was paused")


def _seq_above(seq: int) -> str:
    return f"(function () {{ var l = document.querySelector('.layout'); return !!l && +l.dataset.seq > {seq}; }}())"


def test_a_move_made_before_the_live_stream_connects_is_drawn_when_it_does(browser, servers, tmp_path):
    """A page drawn just before a move, whose live stream connects only after
    the server told its pages of that move (a slow machine; a stream cut and
    opened again): the stream's first word, the server's count of changes,
    is not the count the page was drawn at, so the page draws itself again
    instead of showing the old position until the next move."""
    keys = introduced(tmp_path, ["alice", "bob"])
    g = tmp_path / "aa"
    creating.new_game("agent-avenue", g, ["alice", "bob"], keys["alice"], dealer="hotseat", seed=11)
    served = Served(keys["alice"].store.home, "alice", g, log=tmp_path / "serve-alice.log")
    servers.append(served)
    live = open_game(browser, served)
    late = browser.tab()
    late.send("Fetch.enable", {"patterns": [{"urlPattern": "*/events"}]})
    try:
        late.go(live.eval("location.href"))
        request = _paused(browser, late)
        seq = state(late)["seq"]
        chain = opening.open_game(g)
        who = chain.writers()[0]
        me = opening.party(chain, who, keys[who])
        command = chain.game.presentation.bots["random"](chain.game, me.state(), who, random.Random(1))
        writing.submit(g, who, [chain.game.presentation.format(command, me.state(), who)], keys[who])
        live.wait(_seq_above(seq))  # the server has told its connected pages
        time.sleep(0.3)
        assert state(late)["seq"] == seq  # the late page heard nothing: its stream waits
        late.send("Fetch.continueRequest", {"requestId": request})
        late.wait(_seq_above(seq))
    finally:
        late.send("Fetch.disable")


def test_a_refused_move_shows_the_error_and_changes_nothing(hotseat_aa, shots):
    g, tabs = hotseat_aa
    alice = tabs["alice"]
    before = snapshot(g)
    alice.click("#typed")
    alice.type("discard Nobody")
    alice.wait("document.getElementById('verdict').classList.contains('bad')")
    alice.key("Enter")
    time.sleep(0.3)
    assert alice.eval("document.getElementById('confirm').hidden")
    assert "Nobody" in alice.eval("document.getElementById('verdict').textContent")
    # a move confirmed on a page the game has since left behind: the server refuses, the page says why
    alice.click("#chooser button.step")
    alice.click("#moves li:not([hidden]) button.move")
    alice.wait("!document.getElementById('confirm').hidden")
    alice.eval("document.querySelector('.layout').dataset.seq = '7'")
    alice.click("#send")
    alice.wait("document.getElementById('flash').classList.contains('bad')")
    assert "moved on" in alice.eval("document.getElementById('flash').textContent")
    alice.screenshot(shots / "refused.png")
    # and the page's own request with an illegal move, as a doctored page would send it
    answer = alice.eval("fetch(location.pathname + '/submit', {method: 'POST', headers: {'Content-Type': "
                        "'application/json', 'X-Pbem-Token': document.querySelector('meta[name=pbem-token]').content},"
                        " body: JSON.stringify({text: 'play Nobody / Nothing', seq: 0})}).then(r => r.json())")
    assert answer["ok"] is False and answer["error"]
    assert snapshot(g) == before


@pytest.mark.parametrize("size", [(390, 844, 3, True), (700, 500, 2, False)], ids=["phone", "zoom-200"])
def test_readable_on_a_phone_and_at_200_percent(hotseat_aa, shots, size):
    """A phone-sized window, and a 1400-pixel window at 200% zoom (700 CSS
    pixels at twice the density): one column, nothing wider than the window."""
    _, tabs = hotseat_aa
    alice = tabs["alice"]
    width, height, scale, mobile = size
    alice.size(width, height, scale, mobile)
    alice.go(alice.eval("location.href"))
    assert alice.eval("document.documentElement.scrollWidth <= window.innerWidth + 1")
    side, board = alice.eval("[document.querySelector('.side').getBoundingClientRect().top, "
                             "document.querySelector('#board').getBoundingClientRect().top]")
    assert side < board  # one column: what to do first, then the board
    assert alice.eval("parseFloat(getComputedStyle(document.querySelector('button.move')).fontSize)") >= 14
    alice.screenshot(shots / f"{width}x{height}.png")


class _Evil(BaseHTTPRequestHandler):
    page = b""

    def do_GET(self):  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args):
        pass


def test_a_page_of_another_origin_cannot_act(hotseat_aa, browser, servers):
    """Another site (here another local server) that knows even the secret
    and the token: its requests are refused by origin, nothing is written."""
    g, tabs = hotseat_aa
    server = servers[0]
    token = tabs["alice"].eval("document.querySelector('meta[name=pbem-token]').content")
    key = tabs["alice"].eval("document.body.dataset.key")
    target = f"{server.url}g/{key}/submit"
    body = json.dumps({"text": tabs["alice"].eval("document.querySelector('#moves button.move').dataset.cmd"),
                       "seq": 0})
    _Evil.page = (
        "<!DOCTYPE html><html><body><script>"
        f"var u = {json.dumps(target)}, b = {json.dumps(body)}, out = [];"
        "var a = fetch(u, {method: 'POST', mode: 'no-cors', body: b}).then(function () { out.push('no-cors sent'); },"
        " function (e) { out.push('no-cors failed'); });"
        f"var c = fetch(u, {{method: 'POST', headers: {{'Content-Type': 'application/json', 'X-Pbem-Token': {json.dumps(token)}}},"
        " body: b}).then(function (r) { out.push('cors ' + r.status); }, function () { out.push('cors blocked'); });"
        "Promise.all([a, c]).then(function () { document.title = out.join(', '); document.body.dataset.done = '1'; });"
        "</script></body></html>"
    ).encode()
    before = snapshot(g)
    evil = ThreadingHTTPServer(("127.0.0.1", 0), _Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        tab = browser.tab()
        tab.go(f"http://127.0.0.1:{evil.server_address[1]}/", ready="document.body && document.body.dataset.done === '1'")
        said = tab.eval("document.title")
    finally:
        evil.shutdown()
        evil.server_close()
    assert "cors blocked" in said, said
    assert snapshot(g) == before
