"""The pages of `pbem serve`: the list of the user's games and one game as
a seat sees it, with its moves to click.

This module only draws: `Screen` and `GameRow` hold what `pbem.app.serving`
gathered, and every piece of text is escaped (card names, words and player
names may hold ``<``, ``&`` or quotes). The style sheet and the one script
are files beside this module (``static/serve.css``, ``static/serve.js``),
plain and hand-written, inlined into each page and allowed by their hashes
in a strict Content-Security-Policy: no ``'unsafe-inline'``, nothing
fetched from anywhere, no form may be sent, no ``<base>``, no framing. The
script talks only to the page's own server (``connect-src 'self'``).

The moves are the seat's legal commands in the game's notation, one button
each (`pbem.app.serving` takes them from `reading.legal`); the script narrows
them as the player clicks the board (an element whose ``data-card``,
``data-word``, ``data-cell`` or ``data-pick`` names something a command
names) or the next word of a command, and asks the server to check the
chosen command and say it in words before it is sent.

The board is the game's SVG picture (``Presentation.svg``), except where an HTML
layout draws the game better in a page (`BOARDS`: Codex, whose picture
is plain boxes, drawn as cards by `pbem.render.codex_cards`); a game with
no picture shows its text picture.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any

from pbem.errors import NoPicture
from pbem.render.serve_http import Reply

#: games drawn in the page by an HTML layout of their own (module with `board(view)`)
BOARDS = {"codex": "pbem.render.codex_cards"}


@dataclass
class GameRow:
    """One line of the games list."""

    key: str
    folder: str
    title: str
    seq: int
    waiting: str
    seat: bool = False
    yours: bool = False
    over: bool = False


@dataclass
class Screen:
    """One game as `viewer` (None: an observer) may see it."""

    key: str
    title: str
    game: str
    game_id: str
    seq: int
    folder: str
    viewer: str | None
    board_html: str = ""
    prompt: str | None = None
    to_act: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    owes: str = "nothing"
    owed_words: str = ""
    commands: list[str] = field(default_factory=list)
    undo_pending: str | None = None
    may_undo: bool = False
    log: list[tuple[int, str, str]] = field(default_factory=list)
    outcome: str | None = None
    notes: list[str] = field(default_factory=list)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return resources.files("pbem.render").joinpath("static", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@lru_cache(maxsize=None)
def csp() -> str:
    """The pages' policy: their own inline style and script, by hash, and
    requests to their own server only."""
    return (f"default-src 'none'; script-src {_hash(_asset('serve.js'))}; style-src {_hash(_asset('serve.css'))}; "
            "img-src data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")


def _document(title: str, body_attrs: str, header: str, main: str, token: str, notes: list[str],
              version: int) -> Reply:
    """`version`: the server's count of changes when it began drawing the page (`serve.js` compares it)."""
    body_attrs += f" data-version=\"{version}\""
    html = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<meta name=\"pbem-token\" content=\"{_e(token)}\"><link rel=\"icon\" href=\"data:,\">"
        f"<title>{_e(title)}</title><style>{_asset('serve.css')}</style></head>\n"
        f"<body {body_attrs}><a class=\"skip\" href=\"#main\">Skip to the game</a>"
        f"<header class=\"top\">{header}<p id=\"live\" class=\"live\" role=\"status\">connecting</p></header>\n"
        f"<div id=\"flash\" class=\"flash\" role=\"status\" aria-live=\"polite\"></div>"
        f"<main id=\"main\" tabindex=\"-1\">{main}</main>\n"
        + _notes(notes) + f"<script>{_asset('serve.js')}</script></body></html>\n"
    )
    return Reply(200, html.encode("utf-8"), csp=csp())


def _notes(notes: list[str]) -> str:
    """The last lines of the folders' watchers (a fork, a bad file, an answer written)."""
    if not notes:
        return ""
    items = "".join(f"<li>{_e(n)}</li>" for n in notes)
    return (f"<footer><details><summary>What the folder watcher said ({len(notes)})</summary>"
            f"<ul id=\"notes\" class=\"notes\">{items}</ul></details></footer>")


# --- the games list -------------------------------------------------------------------------


def games_list(rows: list[GameRow]) -> str:
    if not rows:
        return ("<p class=\"hint\">No games yet. Each pbem command that opens a game folder remembers it; "
                "or start pbem serve with the folders to show.</p>")
    items = []
    for r in sorted(rows, key=lambda r: (not r.yours, r.over, r.folder)):
        mark = "<span class=\"badge yours\">your move</span>" if r.yours else (
            "<span class=\"badge over\">over</span>" if r.over else "")
        seat = "" if r.seat else " <span class=\"badge\">not a seat of yours: watch only</span>"
        items.append(
            f"<li class=\"game{' yours' if r.yours else ''}\"><a href=\"g/{_e(r.key)}\">"
            f"<span class=\"title\">{_e(r.title)}</span> {mark}{seat}"
            f"<span class=\"where\">{_e(r.folder)} · file {r.seq}</span>"
            f"<span class=\"waiting\">{_e(r.waiting)}</span></a></li>"
        )
    return "<ul class=\"games\">" + "".join(items) + "</ul>"


def games_page(rows: list[GameRow], name: str, token: str, notes: list[str], version: int) -> Reply:
    header = f"<h1>pbem</h1><p class=\"sub\">the games of {_e(name)}</p>"
    main = f"<section class=\"panel\" aria-labelledby=\"games-h\"><h2 id=\"games-h\">Your games</h2>" \
           f"<div id=\"games\">{games_list(rows)}</div></section>"
    return _document(f"pbem: {name}'s games", "data-page=\"games\"", header, main, token, notes, version)


# --- one game --------------------------------------------------------------------------------


def board(game: Any, view: Any) -> str:
    """The board of `view` as HTML: an HTML layout, the SVG picture, or the text picture."""
    module = BOARDS.get(game.info.name)
    if module is not None:
        return importlib.import_module(module).board(view)
    try:
        return game.presentation.svg(view)
    except NoPicture:
        return board_text(game.presentation.render(view))


def board_text(text: str) -> str:
    return f"<pre class=\"text-board\">{_e(text)}</pre>"


def _now(s: Screen) -> str:
    parts = []
    if s.outcome:
        parts.append(f"<p class=\"outcome\">{_e(s.outcome)}</p>")
    if s.prompt and not s.outcome:
        parts.append(f"<p class=\"prompt\">{_e(s.prompt)}</p>")
    if s.to_act:
        parts.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in s.to_act) + "</ul>")
    elif not s.outcome:
        parts.append("<p class=\"hint\">nobody is to act</p>")
    if s.pending:
        parts.append("<h3>Pending</h3><ul>" + "".join(f"<li>{_e(p)}</li>" for p in s.pending) + "</ul>")
    return f"<section id=\"now\" class=\"panel\" aria-labelledby=\"now-h\"><h2 id=\"now-h\">Now</h2>{''.join(parts)}</section>"


def _moves(s: Screen) -> str:
    if s.viewer is None:
        return "<p class=\"hint\">You have no seat in this game: you see what an observer sees.</p>"
    if s.outcome:
        return "<p class=\"owed\">The game is over.</p>"
    if not s.commands:
        words = {"auto": "pbem writes your automatic answer by itself.",
                 "undo": "Answer the undo request below."}.get(s.owes, "")
        return f"<p class=\"owed\">{_e(s.owed_words)}</p>" + (f"<p class=\"hint\">{_e(words)}</p>" if words else "")
    n = len(s.commands)
    buttons = "".join(
        f"<li><button type=\"button\" class=\"move\" data-cmd=\"{_e(c)}\">{_e(c)}</button></li>" for c in s.commands
    )
    return (
        f"<p class=\"owed\">{_e(s.viewer)}: your move. Click a card or a place on the board, or a step below "
        f"({n} legal move{'s' if n != 1 else ''}).</p>"
        "<div id=\"chooser\" class=\"chooser\"></div>"
        f"<ol id=\"moves\" class=\"moves\" aria-label=\"legal moves\">{buttons}</ol>"
        f"<div class=\"typed\"><label for=\"typed\">Or type a move{_example(s.commands)}; it is checked as you type"
        "</label>"
        "<div class=\"typed-row\"><input id=\"typed\" type=\"text\" autocomplete=\"off\" spellcheck=\"false\" "
        "aria-describedby=\"verdict\"><button type=\"button\" id=\"typed-go\">Check</button></div>"
        "<p id=\"verdict\" class=\"verdict\" aria-live=\"polite\"></p></div>"
    )


def _example(commands: list[str]) -> str:
    """What to type, from the moves listed: a clue's form where clues are
    asked (the list holds only a sample of them), else the first move."""
    if any(c.startswith("clue ") for c in commands):
        return " (a clue: <kbd>clue WORD NUMBER</kbd>)"
    return f" (as <kbd>{_e(commands[0])}</kbd>)"


def _undo(s: Screen) -> str:
    if s.viewer is None:
        return ""
    if s.undo_pending:
        answer = ""
        if s.owes == "undo":
            answer = ("<div class=\"row\"><button type=\"button\" class=\"undo\" data-undo=\"accept\">Accept the undo"
                      "</button><button type=\"button\" class=\"undo\" data-undo=\"refuse\">Refuse: the move stands"
                      "</button></div>")
        body = f"<p>{_e(s.undo_pending)}</p>{answer}"
    elif s.may_undo:
        body = ("<p class=\"hint\">Ask the other players to let you take back your last move "
                "(allowed while nothing was revealed or drawn since).</p>"
                "<button type=\"button\" class=\"undo\" data-undo=\"request\">Ask to take back my last move</button>")
    else:
        return ""
    return f"<section id=\"undo\" class=\"panel\" aria-labelledby=\"undo-h\"><h2 id=\"undo-h\">Undo</h2>{body}</section>"


def _log(s: Screen) -> str:
    items = "".join(
        f"<li value=\"{seq}\"><span class=\"seq\">{seq}</span> <span class=\"by\">{_e(by)}</span> {_e(what)}</li>"
        for seq, by, what in reversed(s.log)
    )
    files = s.seq + 1
    whole = "" if len(s.log) >= files else \
        f"<p class=\"more\"><a href=\"{_e(s.key)}/log\">The whole log ({files} files)</a></p>"
    return (f"<section id=\"log\" class=\"panel\" aria-labelledby=\"log-h\"><h2 id=\"log-h\">Log "
            f"<span class=\"hint\">(newest first)</span></h2><ol class=\"log\" reversed>{items}</ol>{whole}</section>")


def game_main(s: Screen) -> str:
    """The part of the game page that changes as files arrive."""
    play = (f"<section id=\"play\" class=\"panel\" aria-labelledby=\"play-h\"><h2 id=\"play-h\">Your move</h2>"
            f"{_moves(s)}<div id=\"confirm\" class=\"confirm\" hidden><p id=\"confirm-text\"></p>"
            "<div class=\"row\"><button type=\"button\" id=\"send\" class=\"primary\">Send</button>"
            "<button type=\"button\" id=\"cancel\">Cancel</button></div></div></section>")
    return (
        f"<div class=\"layout\" data-seq=\"{s.seq}\" data-owes=\"{_e(s.owes)}\">"
        f"<div class=\"side\">{_now(s)}{play}{_undo(s)}</div>"
        f"<section id=\"board\" class=\"panel board\" aria-label=\"board\">{s.board_html}</section>"
        f"{_log(s)}</div>"
    )


def game_page(s: Screen, token: str, version: int) -> Reply:
    who = s.viewer or "an observer"
    header = (f"<a class=\"back\" href=\"../\">&larr; all games</a><h1>{_e(s.title)}</h1>"
              f"<p class=\"sub\">seen by {_e(who)} · game {_e(s.game_id[:12])} · {_e(s.folder)}</p>")
    attrs = f"data-page=\"game\" data-key=\"{_e(s.key)}\" data-game=\"{_e(s.game)}\""
    return _document(f"{s.title}: {who}", attrs, header, game_main(s), token, s.notes, version)


def log_page(s: Screen, token: str, version: int) -> Reply:
    """Every file of the game in words (a game page shows the last few)."""
    header = (f"<a class=\"back\" href=\"../{_e(s.key)}\">&larr; back to the game</a><h1>{_e(s.title)}: the log</h1>"
              f"<p class=\"sub\">game {_e(s.game_id[:12])} · {_e(s.folder)}</p>")
    attrs = f"data-page=\"log\" data-key=\"{_e(s.key)}\" data-game=\"{_e(s.game)}\""
    return _document(f"{s.title}: the log", attrs, header, _log(s), token, [], version)


def launcher(url: str) -> str:
    """The small local file a browser is opened on: it goes on to `url`."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"refresh\" content=\"0;url={_e(url)}\"><title>pbem</title></head>"
        f"<body><p><a href=\"{_e(url)}\">Open your games</a></p></body></html>\n"
    )
