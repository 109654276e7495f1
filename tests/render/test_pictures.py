"""Board pictures (`pbem show --svg`) and game pages (`pbem page`).

Golden pictures: fixed hotseat scenarios (``--seed``, a fixed deck, a fixed
grid and key) rendered for every seat and an observer through the CLI and
compared byte for byte with ``tests/vectors/svg/*.svg``. After a deliberate
change to a picture, regenerate them with

    PBEM_REGEN=1 python -m pytest tests/render/test_pictures.py

and look at the new files (any browser opens them) before committing.
"""

from __future__ import annotations

import os
import shlex
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import msgspec
import pytest

from conftest import snapshot
from pbem.errors import NoPicture
from paths import VECTORS

GOLDEN = VECTORS / "svg"
REGEN = os.environ.get("PBEM_REGEN") == "1"
SVG_NS = "{http://www.w3.org/2000/svg}"

# Agent Avenue: alice is dealt Enforcer, Saboteur, Sentinel, Codebreaker;
# bob Mole, Sidekick, Daredevil, Double Agent; then the rest in table order.
AA_HANDS = ["Enforcer", "Saboteur", "Sentinel", "Codebreaker", "Mole", "Sidekick", "Daredevil", "Double Agent"]
GRID = (
    "tiger,lemon,ocean,piano,ghost,knight,honey,rocket,violin,castle,anchor,forest,mirror,"
    "saddle,jungle,pepper,lantern,whale,crown,needle,falcon,glacier,pirate,cactus,orbit"
)
KEY = "rrrrrrrrrbbbbbbbbnnnnnnnx"  # red starts; orbit (the last cell) is the assassin
CN_SEATS = ["alice:red-spymaster", "bob:red", "rita:blue-spymaster", "dave:blue"]


def aa_deck() -> str:
    from pbem.games.agent_avenue import cards

    rest = cards.full_deck()
    for name in AA_HANDS:
        rest.remove(name)
    return ",".join(AA_HANDS + rest)


@pytest.fixture
def aa_game(pbem, tmp_path):
    g = tmp_path / "aa"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "11", "--option", f"deck={aa_deck()}")
    pbem("submit", g, "--as", "alice", "--cmd", "play Enforcer / Saboteur")
    return g


@pytest.fixture
def cn_game(pbem, tmp_path):
    pbem("id", "new", "dave", "--no-passphrase")
    g = tmp_path / "cn"
    seats = [a for s in CN_SEATS for a in ("--seat", s)]
    pbem("new", "cn", g, *seats, "--seed", "5", "--option", f"grid={GRID}", "--option", f"key={KEY}")
    pbem("submit", g, "--as", "alice", "--cmd", "clue animal 2")
    pbem("submit", g, "--as", "bob", "--cmd", "guess tiger")
    pbem("submit", g, "--as", "bob", "--cmd", "guess castle")  # blue: the turn ends
    pbem("submit", g, "--as", "rita", "--cmd", "clue music 1")
    pbem("submit", g, "--as", "dave", "--cmd", "guess whale")  # a bystander
    pbem("submit", g, "--as", "alice", "--cmd", "clue food 3")
    pbem("submit", g, "--as", "bob", "--cmd", "guess lemon")
    return g


@pytest.fixture
def da_game(pbem, tmp_path):
    """Dark Agent, two seats: the area laid out, satellites placed, alice moves, spots two
    cells and takes an equipment card (which bob's picture must not name)."""
    g = tmp_path / "da"
    pbem("new", "da", g, "--seat", "alice", "--seat", "bob", "--seed", "7", "--dealer", "hotseat")
    for seat, cmd in [("bob", "deal"), ("bob", "place A"), ("alice", "place A"), ("bob", "place B"), ("alice", "place F"),
                      ("bob", "place C"), ("alice", "place G"), ("alice", "move F>G A>G")]:
        pbem("submit", g, "--as", seat, "--cmd", cmd)
    pbem("submit", g, "--as", "alice", "--cmd", "spot G1")
    pbem("submit", g, "--as", "alice", "--cmd", "spot G2")
    return g


def picture(pbem, folder: Path, seat: str | None, out: Path) -> str:
    args = ["show", folder, "--svg", out] + (["--as", seat] if seat else [])
    assert pbem(*args).stdout.strip() == f"wrote {out}"
    return out.read_text(encoding="utf-8")


def check_golden(name: str, svg: str) -> None:
    path = GOLDEN / name
    if REGEN:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"{path} is missing: PBEM_REGEN=1 python -m pytest {__file__}"
    assert svg == path.read_text(encoding="utf-8"), (
        f"{name} differs from its golden file; if the change is meant, regenerate with PBEM_REGEN=1 and look at it"
    )


def self_contained(svg: str) -> ET.Element:
    """Well-formed SVG with nothing fetched: generic fonts, local refs only."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    for el in root.iter():
        for key, value in el.attrib.items():
            assert not key.endswith("href"), f"{el.tag} has {key}={value}"
            if key == "font-family":
                assert value in {"sans-serif", "serif", "monospace"}, value
            if "url(" in value:
                assert value.startswith("url(#"), value
        assert el.tag not in {f"{SVG_NS}script", f"{SVG_NS}style", f"{SVG_NS}image", f"{SVG_NS}foreignObject"}
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    return root


def cells(root: ET.Element) -> dict[str, dict[str, str]]:
    return {g.get("data-word"): dict(g.attrib) for g in root.iter(f"{SVG_NS}g") if g.get("class") == "cell"}


CX_SCENARIO = """\
turn = 2
p1.units = Older Brother dmg=1, Iron Man exhausted
p1.patrol = sl=older-brother
p1.buildings = tech1
p2.hand = Spark, Bloom
p2.hero = 3
p2.units = Fruit Ninja, Tenderfoot
"""


@pytest.fixture
def cx_game(pbem, tmp_path):
    g = tmp_path / "cx"
    sc = tmp_path / "scenario.txt"
    sc.write_text(CX_SCENARIO)
    pbem("new", "codex", g, "--seat", "alice", "--seat", "bob", "--seed", "4", "--option", f"scenario={sc}")
    pbem("submit", g, "--as", "bob", "--cmd", "play spark target=opp:sl")
    return g


# --- golden pictures -------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["alice", "bob", None])
def test_agent_avenue_golden_pictures(pbem, aa_game, tmp_path, seat):
    svg = picture(pbem, aa_game, seat, tmp_path / "p.svg")
    self_contained(svg)
    check_golden(f"agent-avenue-recruit-{seat or 'observer'}.svg", svg)


@pytest.mark.parametrize("seat", ["alice", "bob", None])
def test_codenames_golden_pictures(pbem, cn_game, tmp_path, seat):
    svg = picture(pbem, cn_game, seat, tmp_path / "p.svg")
    self_contained(svg)
    check_golden(f"codenames-guess-{seat or 'observer'}.svg", svg)


@pytest.mark.parametrize("seat", ["alice", "bob", None])
def test_dark_agent_golden_pictures(pbem, da_game, tmp_path, seat):
    svg = picture(pbem, da_game, seat, tmp_path / "p.svg")
    root = self_contained(svg)
    assert len([g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "cell"]) == 35
    check_golden(f"dark-agent-spot-{seat or 'observer'}.svg", svg)


@pytest.mark.parametrize("seat", ["alice", "bob", None])
def test_codex_golden_pictures(pbem, cx_game, tmp_path, seat):
    svg = picture(pbem, cx_game, seat, tmp_path / "p.svg")
    self_contained(svg)
    check_golden(f"codex-main-{seat or 'observer'}.svg", svg)
    assert ("your hand: Bloom" in svg) == (seat == "bob")


@pytest.mark.parametrize("seat", ["alice", "bob", None])
def test_codex_picture_draws_the_table_as_cards(pbem, cx_game, tmp_path, seat):
    """Things in play, buildings, a hero in the command zone and the
    reader's hand are cards with their stats, damage, runes and exhaustion."""
    root = self_contained(picture(pbem, cx_game, seat, tmp_path / "p.svg"))
    drawn = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "card"]
    names = [g.get("data-card") for g in drawn]
    assert {"Older Brother", "Iron Man", "Fruit Ninja", "Tenderfoot", "River Montoya", "Troq Bashar",
            "Base", "Tech I"} <= set(names)
    assert ("Bloom" in names) == (seat == "bob")  # a hand is drawn for its reader only
    card = {g.get("data-card"): g for g in drawn}
    words = lambda g: [t.text for t in g.iter(f"{SVG_NS}text")]
    assert card["Iron Man"].get("data-exhausted") == "1" and "EXHAUSTED" in words(card["Iron Man"])
    assert "1 dmg" in words(card["Older Brother"]) and {"ATK", "HP of 2"} <= set(words(card["Older Brother"]))
    assert "in the command zone" in words(card["Troq Bashar"])


def test_agent_avenue_picture_shows_own_hand_and_hides_the_other(pbem, aa_game, tmp_path):
    mine = picture(pbem, aa_game, "alice", tmp_path / "a.svg")
    theirs = picture(pbem, aa_game, "bob", tmp_path / "b.svg")
    faces = lambda svg: [g.get("data-card") for g in ET.fromstring(svg).iter(f"{SVG_NS}g") if g.get("data-card")]
    # alice sees her hand (Sentinel, Codebreaker, two new cards) and both centre cards
    assert {"Enforcer", "Saboteur", "Sentinel", "Codebreaker"} <= set(faces(mine))
    # bob sees the face-up Enforcer, his own hand, and a back for the face-down Saboteur
    assert "Saboteur" not in faces(theirs) and "Saboteur" not in theirs
    assert {"Enforcer", "Mole", "Sidekick", "Daredevil", "Double Agent"} <= set(faces(theirs))
    assert "Mole" not in mine and "Sidekick" not in mine
    backs = lambda svg: sum(1 for g in ET.fromstring(svg).iter(f"{SVG_NS}g") if g.get("class") == "card back")
    assert backs(theirs) >= 5  # alice's 4 cards and the face-down card
    meeples = {g.get("data-seat"): g.get("data-space") for g in ET.fromstring(mine).iter(f"{SVG_NS}g") if g.get("class") == "meeple"}
    assert meeples == {"alice": "0", "bob": "7"}


def test_codenames_key_only_on_a_spymasters_picture(pbem, cn_game, tmp_path):
    spy = cells(ET.fromstring(picture(pbem, cn_game, "alice", tmp_path / "a.svg")))
    op_svg = picture(pbem, cn_game, "bob", tmp_path / "b.svg")
    op = cells(ET.fromstring(op_svg))
    assert len(spy) == len(op) == 25
    covered = {"tiger": "red", "castle": "blue", "whale": "bystander", "lemon": "red"}
    for word, colour in covered.items():
        assert op[word]["data-state"] == spy[word]["data-state"] == "covered"
        assert op[word]["data-colour"] == spy[word]["data-colour"] == colour
    for word in set(op) - set(covered):
        assert op[word]["data-state"] == "unknown" and "data-colour" not in op[word]
        assert spy[word]["data-state"] == "key"
    assert spy["orbit"]["data-colour"] == "assassin"
    assert "assassin" not in op_svg.lower() and "ASSASSIN" not in op_svg
    # the assassin is marked without colour too: its letter and the word ASSASSIN
    root = ET.fromstring(picture(pbem, cn_game, "alice", tmp_path / "a.svg"))
    orbit = next(g for g in root.iter(f"{SVG_NS}g") if g.get("data-word") == "orbit")
    words = [t.text for t in orbit.iter(f"{SVG_NS}text")]
    assert "X" in words and "ASSASSIN" in words and "ORBIT" in words


# --- the CLI -----------------------------------------------------------------------------


def test_show_svg_to_stdout_and_errors(pbem, aa_game, tmp_path):
    out = pbem("show", aa_game, "--as", "bob", "--svg", "-").stdout
    assert out.startswith("<svg") and out.rstrip().endswith("</svg>")
    before = snapshot(aa_game)
    result = pbem.fails("show", aa_game, "--svg", tmp_path / "no" / "such" / "x.svg")
    assert "cannot write" in result.stderr
    pbem.fails("show", aa_game, "--svg", "-", "--json", code=2)
    assert snapshot(aa_game) == before


def test_a_game_without_a_picture_says_so():
    from pbem.games.base import Presentation

    plain = Presentation(render=str, format=lambda command, state, seat: "", parse=lambda text, state, seat: None,
                         title="Plain")
    with pytest.raises(NoPicture, match="no picture for Plain yet"):
        plain.svg(None)


def test_svg_escapes_names():
    from pbem.games.agent_avenue import GAME
    from pbem.games.base import RandomChance, SeatSpec

    state = GAME.setup(None, [SeatSpec("alice"), SeatSpec("bob")], RandomChance(1))
    view = msgspec.to_builtins(GAME.view(state, "alice"))
    evil = "<b>&'\"x"
    view["seats"][1]["seat"] = evil
    view["prompt"] = evil
    svg = GAME.presentation.svg(view)
    root = self_contained(svg)
    assert evil not in svg
    assert any(t.text and evil in t.text for t in root.iter(f"{SVG_NS}text"))
    assert any(g.get("data-seat") == evil for g in root.iter(f"{SVG_NS}g"))


# --- the page ---------------------------------------------------------------------------


class PageParser(HTMLParser):
    """Collects the page's submit lines, external references and scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.external: list[str] = []
        self.in_code = False
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for key, value in attrs:
            if key in {"src", "href"} or (value and "url(" in value and "url(#" not in value):
                self.external.append(f"{tag} {key}={value}")
        if tag == "code" and ("class", "cmd") in attrs:
            self.in_code = True
            self.lines.append("")

    def handle_endtag(self, tag):
        if tag == "code":
            self.in_code = False

    def handle_data(self, data):
        if self.in_code:
            self.lines[-1] += data


def parse_page(html: str) -> PageParser:
    p = PageParser()
    p.feed(html)
    assert not p.external, p.external
    assert "<link" not in html and "@import" not in html and "src=" not in html
    return p


def test_page_lines_are_the_exact_submit_commands(pbem, aa_game, tmp_path, monkeypatch):
    monkeypatch.chdir(aa_game.parent)
    out = tmp_path / "bob.html"
    assert pbem("page", "aa", "--as", "bob", "-o", out).stdout.strip() == f"wrote {out}"
    html = out.read_text(encoding="utf-8")
    page = parse_page(html)
    assert "svg" in page.tags and "Agent Avenue" in html
    assert page.lines == [
        'pbem submit aa --as bob --cmd "recruit face-up"',
        'pbem submit aa --as bob --cmd "recruit face-down"',
    ]
    assert "bob must decide" in html and "alice" in html and "play Enforcer / (face down)" in html
    args = shlex.split(page.lines[1])
    assert args[:2] == ["pbem", "submit"]
    pbem(*args[1:])  # the copied line is accepted as it stands
    pbem("page", "aa", "--as", "alice", "-o", out)  # bob's turn now: alice waits
    html = out.read_text(encoding="utf-8")
    assert parse_page(html).lines == [] and "alice has nothing to decide now" in html


def test_page_of_a_finished_game_and_an_observer(pbem, cn_game, tmp_path):
    pbem("submit", cn_game, "--as", "bob", "--cmd", "guess orbit")  # the assassin
    out = tmp_path / "obs.html"
    pbem("page", cn_game, "-o", out)
    html = out.read_text(encoding="utf-8")
    parse_page(html)
    assert 'id="outcome"' in html and "rita and dave won" in html
    assert "An observer has no commands" in html
    assert 'data-colour="assassin"' in html  # covered now: everyone sees it


def test_page_escapes_everything():
    from pbem.render.page import Page, render_page, submit_line

    evil = "</code><script>alert('x')</script>&\"$`!"
    html = render_page(Page(title=evil, game_id="abc", seq=1, folder="my games/g", viewer=evil, svg="<svg></svg>",
                            prompt=evil, to_act=[evil], pending=[evil], commands=[evil], log=[evil], outcome=evil))
    assert evil not in html and "<script>alert" not in html
    assert html.count("<script>") == 1  # the page's own copy script
    page = parse_page(html)
    assert page.lines == [submit_line("my games/g", evil, evil)]
    assert shlex.split(page.lines[0]) == ["pbem", "submit", "my games/g", "--as", evil, "--cmd", evil]


def test_page_without_a_picture_shows_the_text_board():
    from pbem.render.page import Page, render_page

    html = render_page(Page(title="Plain", game_id="x", seq=0, folder="g", viewer=None, svg=None, board_text="a < b"))
    assert "<pre>a &lt; b</pre>" in html
