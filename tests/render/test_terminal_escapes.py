"""Terminal escapes from game data and from strangers (issue #20): a text
that reaches a player's terminal must not command it (clear the screen,
write the clipboard with OSC 52, hide a link with OSC 8, reorder a line).

Two layers, each tested on its own: every text a game file or an option
carries is refused when it holds a control or format character (the
file's bytes, every option, a Dark Agent catalogue's names), and whatever
pbem prints anyway (a file name in a shared folder, a folder's name) has
them taken out, for every game and every output path."""

from __future__ import annotations

import io
import json
import re
import unicodedata
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, strategies as st

from conftest import Pbem, snapshot
from pbem.crypto import limits
from pbem.errors import FormatError
from pbem.games.dark_agent import catalogue

ESC = "\x1b"
#: what a terminal would obey: C0 but newline and tab, DEL, C1, the
#: bidirectional controls (kept here apart from pbem's own list on purpose)
OBEYED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: clear the screen, write the clipboard, a link hidden behind a word
ATTACKS = ["\x1b[2J\x1b[H", "\x1b]52;c;cGJlbQ==\x07", "\x1b]8;;mailto:me@evil.example\x07here\x1b]8;;\x07", "\u202e"]


def obeyed(*texts: str) -> list[str]:
    return [m.group() for t in texts for m in OBEYED.finditer(t)]


# --- what files and options may carry ---------------------------------------------------------------


@pytest.mark.parametrize("text", [*ATTACKS, "a\rb", "a\nb", "\x7f", "\u009b31m", "\u2028", "\u200b", "\ufeff"])
def test_a_file_whose_text_holds_a_control_character_is_refused(text):
    for data in (json.dumps({"name": text}).encode(), json.dumps({"name": text}, ensure_ascii=False).encode()):
        with pytest.raises(FormatError, match=r"a control or format character \(U\+[0-9A-F]{4}\) in a text"):
            limits.check_limits(data, "the genesis")


@pytest.mark.parametrize("text", ["plain", "café åäö ß", "tab\there", "emoji 😀", "a \\u001b written out", 'quote "x"'])
def test_plain_texts_pass(text):
    for ascii_only in (True, False):
        limits.check_limits(json.dumps({"name": text}, ensure_ascii=ascii_only).encode(), "the genesis")


def test_the_characters_refused_are_unicodes_controls_and_format_characters():
    """The list pbem keeps matches the categories Cc, Cf, Zl and Zp of this
    Python's Unicode, save what a newer Unicode assigned since (Cn here)."""
    from pbem import safetext

    every = "".join(map(chr, range(0x110000)))
    listed = {m.group() for m in safetext.UNSAFE.finditer(every)}
    categories = {ch for ch in every if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")}
    assert categories <= listed
    assert {unicodedata.category(ch) for ch in listed - categories} <= {"Cn"}
    assert safetext.clean("a\tb\nc" + "".join(ATTACKS)) == "a\tb\nc[2J[H]52;c;cGJlbQ==]8;;mailto:me@evil.examplehere]8;;"


def test_options_at_new_are_plain_text(tmp_path):
    p = Pbem(tmp_path / "h")
    for name in ("alice", "bob"):
        p("id", "new", name, "--no-passphrase")
    r = p.fails("new", "aa", tmp_path / "g", "--seat", "alice", "--seat", "bob", "--option", f"first=alice{ESC}[2J")
    assert "option 'first' holds a control or format character (U+001B)" in r.stderr and not obeyed(r.output)
    words = tmp_path / "words.txt"
    words.write_text("\n".join(f"word{chr(97 + i)}{chr(97 + j)}" for i in range(6) for j in range(5)) + f"\nbad{ESC}]52;c;x\x07\n")
    r = p.fails("new", "cn", tmp_path / "g", "--seat", "alice:a", "--seat", "bob:b", "--option", "variant=duet",
                "--option", f"words={words}")
    assert f"line 31 of {words} holds a control or format character (U+001B)" in r.stderr
    assert not (tmp_path / "g").exists()


# --- a Dark Agent catalogue ---------------------------------------------------------------------------


def hostile_catalogue(path: Path) -> Path:
    """The reference catalogue with escapes in its name and its cards' names."""
    raw = msgspec.to_builtins(catalogue.reference())
    raw["name"] = "my copy" + ATTACKS[0]
    raw["kara"]["name"] = "Kara" + ATTACKS[1]
    raw["equipment"][0]["name"] = "Rifle" + ATTACKS[2]
    raw["aims"][0]["name"] = ATTACKS[3] + "AIM"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def dark_agent_players(tmp_path: Path) -> Pbem:
    p = Pbem(tmp_path / "h")
    for name in ("ann", "bob"):
        p("id", "new", name, "--no-passphrase")
    return p


def test_pbem_new_refuses_a_catalogue_with_escapes(tmp_path):
    p = dark_agent_players(tmp_path)
    mine = hostile_catalogue(tmp_path / "mine.json")
    r = p.fails("new", "dark-agent", tmp_path / "g", "--seat", "ann", "--seat", "bob", "--dealer", "hotseat",
                "--option", f"catalogue={mine}")
    assert "the catalogue's name holds a control or format character (U+001B)" in r.stderr, r.stderr
    assert not obeyed(r.output) and not (tmp_path / "g").exists()


def test_a_genesis_made_with_escapes_is_refused_by_every_command(tmp_path, monkeypatch):
    """The creator, ann, runs a pbem whose checks are taken out: the genesis
    carries the escapes in its options and its set-up, signed with her real
    key. Every command of the other player refuses the game in one clean
    line (today: `show` put them on bob's terminal)."""
    import pbem.app.creating
    import pbem.crypto.limits

    ann, bob = Pbem(tmp_path / "ha"), Pbem(tmp_path / "hb")
    ann("id", "new", "ann", "--no-passphrase")
    bob("id", "new", "bob", "--no-passphrase")
    ann("id", "export", "ann", "-o", tmp_path / "ann.id")
    bob("id", "export", "bob", "-o", tmp_path / "bob.id")
    ann("id", "import", tmp_path / "bob.id")
    bob("id", "import", tmp_path / "ann.id")
    g = tmp_path / "g"
    with monkeypatch.context() as m:
        m.setattr(pbem.crypto.limits, "check_texts", lambda *a, **k: None, raising=False)
        m.setattr(pbem.app.creating, "text_problem", lambda *a, **k: None, raising=False)
        m.setattr(catalogue, "text_problem", lambda *a, **k: None, raising=False)
        ann("new", "dark-agent", g, "--seat", "ann", "--seat", "bob", "--dealer", "hotseat", "--seed", "3",
            "--option", f"catalogue={hostile_catalogue(tmp_path / 'mine.json')}")
    before = snapshot(g)
    for cmd in (["show", g, "--as", "bob"], ["show", g, "--as", "bob", "--json"], ["status", g], ["log", g],
                ["legal", g, "--as", "bob"], ["verify", g], ["page", g, "--as", "bob", "-o", "-"]):
        r = bob(*cmd, ok=False)
        assert not obeyed(r.stdout, r.stderr), (cmd, r.output)
        assert r.exit_code == 1 and re.search(r"genesis file has a control or format character \(U\+\w{4}\) in a text",
                                              r.stderr), (cmd, r.output)
    assert snapshot(g) == before


# --- whatever is printed -------------------------------------------------------------------------------

GAMES = {
    "agent-avenue": (["--seat", "alice", "--seat", "bob"], "alice"),
    "codex": (["--seat", "alice", "--seat", "bob"], "alice"),
    "codenames": (["--seat", "alice:red-spymaster", "--seat", "bob:red", "--seat", "rita:blue-spymaster",
                   "--seat", "dave:blue"], "alice"),
    "dark-agent": (["--seat", "alice", "--seat", "bob", "--dealer", "hotseat"], "alice"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_output_path_strips_what_a_stranger_named(pbem, tmp_path, game):
    """A game folder whose name holds escapes (a tree others can write), and
    a conflict copy of its genesis named with escapes (a shared folder):
    both reach the output of every command that reads the game. Nothing a
    terminal would obey is printed, by show, log, status, legal, play and
    page (on standard output, and in the page file)."""
    args, seat = GAMES[game]
    pbem("id", "new", "dave", "--no-passphrase")
    g = tmp_path / f"game{ATTACKS[1]}{ATTACKS[3]}"
    pbem("new", game, g, *args, "--seed", "2")
    (g / f"000000-genesis ({ATTACKS[0]}{ATTACKS[2]}).pbem").write_bytes((g / "000000-genesis.pbem").read_bytes())
    page = tmp_path / "page.html"
    outputs = {}
    for cmd in (["show", g, "--as", seat], ["show", g], ["show", g, "--as", seat, "--json"], ["log", g],
                ["log", g, "--json"], ["status", g], ["status", g, "--json"], ["status", "--all", tmp_path],
                ["legal", g, "--as", seat], ["legal", g, "--as", seat, "--json"], ["page", g, "--as", seat, "-o", "-"],
                ["page", g, "--as", seat, "-o", page], ["show", g, "--svg", "-"], ["verify", g]):
        r = pbem(*cmd)
        outputs[" ".join(c for c in cmd if isinstance(c, str))] = r.stdout + r.stderr
    r = pbem("play", g, "--as", seat, input="q\n", ok=False)
    outputs["play"] = r.stdout + r.stderr
    outputs["page file"] = page.read_text(encoding="utf-8")
    assert not {what: obeyed(out) for what, out in outputs.items() if obeyed(out)}
    # what the strangers named is still shown, defused
    assert "]8;;mailto:me@evil.examplehere]8;;).pbem is a copy of" in outputs["verify"]
    assert "game]52;c;cGJlbQ==" in outputs["page file"] and "game]52;c;cGJlbQ==" in outputs["status --all"]


def test_the_colour_picture_is_cleaned_and_keeps_its_colours(monkeypatch):
    """rich writes beneath the CLI's filter (its own colour codes must
    pass): the text it draws is cleaned on its own."""
    from pbem import games
    from pbem.render import terminal

    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    game = games.get("dark-agent")

    class View:  # any text the game's picture draws
        pass

    out = Tty()
    from rich.text import Text

    monkeypatch.setattr(terminal.importlib, "import_module",
                        lambda name: type("M", (), {"render": staticmethod(lambda v: Text("".join(ATTACKS), "bold"))}))
    terminal.show(game, View(), plain=False, stream=out)
    text = out.getvalue()
    assert "\x1b[1m" in text  # rich's own bold
    assert "]52;c;" in text and not re.search("\x1b[]]|\x07|\u202e", text)


def test_the_output_filter_cleans_text_and_bytes():
    """What click writes as text or as bytes (shell completion), cleaned alike;
    bytes that are not UTF-8 pass as they are."""
    from pbem.safetext import SafeText

    raw = io.BytesIO()
    out = SafeText(io.TextIOWrapper(raw, encoding="utf-8", write_through=True))
    out.write("a" + ATTACKS[1] + "b\n")
    out.buffer.write(("c" + ATTACKS[0] + "d\n").encode() + b"\xff\n")
    out.flush()
    assert raw.getvalue() == b"a]52;c;cGJlbQ==b\nc[2J[Hd\n\xff\n"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))) | st.text(alphabet="ab\t\n\x1b\u202e\u00a0\u200b\ue000"))
def test_the_quick_path_for_printable_text_cleans_and_judges_as_the_pattern_does(text):
    from pbem import safetext

    every = re.compile(f"[{safetext._CLASS}]")
    assert safetext.clean(text) == every.sub("", text)
    unsafe = re.compile(f"[\t\n{safetext._CLASS}]").search(text)
    assert (safetext.text_problem(text) is None) == (unsafe is None)
