"""A game page: one self-contained HTML file of a game as one seat sees it.

`pbem page DIR --as NAME -o FILE.html` writes it. Everything the page needs
is inside the file (the board picture inline as SVG, the CSS inline, one
small inline script for the copy buttons), and a Content-Security-Policy
forbids every fetch, so it opens the same with no network and can be
mailed as an attachment. The policy allows that style sheet and that
script by their hashes only, and no form or ``<base>`` (`CSP`).

This module knows nothing of chains or keys: `Page` holds what the caller
(`pbem.app.reading.page`) gathered from the seat's view, `status`, `legal` and
`log_lines`, and `render_page` turns it into HTML, escaping every piece of
text (card names, words and player names may hold ``<``, ``&`` or quotes).
Each legal command is shown as the exact `pbem submit` line to run, in the
shell's quoting (`submit_line`), selectable as text and with a copy button.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shlex
from dataclasses import dataclass, field
from html import escape

__all__ = ["Page", "render_page", "submit_line", "shell_word"]

_PLAIN = re.compile(r"[A-Za-z0-9_./:=@%+,-]+")
_DOUBLE_SAFE = re.compile(r'[^"$`\\!]*')


def shell_word(word: str) -> str:
    """`word` quoted for a POSIX shell: bare when it needs no quoting,
    in double quotes when that is safe (easier to read and edit), else in
    single quotes (`shlex.quote`)."""
    if word and _PLAIN.fullmatch(word):
        return word
    if _DOUBLE_SAFE.fullmatch(word):
        return f'"{word}"'
    return shlex.quote(word)


def submit_line(folder: str, seat: str, command: str) -> str:
    """The exact command line that submits `command` as `seat`."""
    return f"pbem submit {shell_word(folder)} --as {shell_word(seat)} --cmd {shell_word(command)}"


@dataclass
class Page:
    """What a game page shows. `svg` is the board picture (None when the
    game has none: `board_text` is shown instead); `commands` are the
    seat's legal commands in the game's notation."""

    title: str
    game_id: str
    seq: int
    folder: str
    viewer: str | None
    svg: str | None
    board_text: str | None = None
    prompt: str | None = None
    to_act: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    outcome: str | None = None


CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f3eee2; color: #222; font: 15px/1.45 system-ui, sans-serif; }
header { padding: 14px 24px 10px; background: #2b3445; color: #fff; }
header h1 { margin: 0; font-size: 22px; }
header p { margin: 2px 0 0; color: #cfd6e4; font-size: 13px; }
main { display: flex; flex-wrap: wrap; gap: 20px; padding: 20px 24px; align-items: flex-start; }
#board { flex: 1 1 640px; min-width: 320px; background: #fff; border-radius: 10px; padding: 10px;
  box-shadow: 0 1px 4px rgba(0,0,0,.15); }
#board svg { display: block; width: 100%; height: auto; }
#board pre { overflow-x: auto; font: 13px/1.3 monospace; }
aside { flex: 1 1 360px; min-width: 300px; display: flex; flex-direction: column; gap: 16px; }
aside section { background: #fff; border-radius: 10px; padding: 12px 16px;
  box-shadow: 0 1px 4px rgba(0,0,0,.15); }
h2 { margin: 0 0 8px; font-size: 16px; }
ul, ol { margin: 0; padding-left: 20px; }
.prompt { font-weight: 600; margin: 0 0 6px; }
.outcome { background: #fff3c4; border: 2px solid #c9a227; font-weight: 600; }
.commands { list-style: none; padding: 0; max-height: 420px; overflow-y: auto; }
.commands li { display: flex; gap: 8px; align-items: center; margin: 0 0 6px; }
.commands code { flex: 1; display: block; padding: 5px 8px; background: #f6f3ea; border: 1px solid #ddd4bd;
  border-radius: 6px; font: 12.5px/1.35 monospace; white-space: pre-wrap; word-break: break-all;
  user-select: all; -webkit-user-select: all; }
.commands button { font: inherit; font-size: 12px; padding: 4px 10px; border-radius: 6px; border: 1px solid #8a7a5a;
  background: #fbf7ee; cursor: pointer; }
.commands button.done { background: #cfe9d9; }
.hint { color: #555; font-size: 13px; margin: 0 0 8px; }
.log { font: 12.5px/1.4 monospace; white-space: pre-wrap; max-height: 360px; overflow-y: auto; padding-left: 0;
  list-style: none; }
"""

# Copy with the clipboard API where the browser allows it (a file:// page
# often does not), else by selecting the line and asking the browser to copy.
SCRIPT = """
document.body.dataset.ready = "1";
document.querySelectorAll("button.copy").forEach(function (button) {
  button.addEventListener("click", function () {
    var code = document.getElementById(button.dataset.for);
    var done = function () { button.textContent = "copied"; button.classList.add("done"); };
    var select = function () {
      var range = document.createRange();
      range.selectNodeContents(code);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      try { if (document.execCommand("copy")) { done(); } } catch (e) {}
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(code.textContent).then(done, select);
    } else {
      select();
    }
  });
});
"""


def _hash_source(text: str) -> str:
    """A CSP source that allows exactly the inline element holding `text`."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


#: The page's Content-Security-Policy. No fetch of any kind (`default-src
#: 'none'`, pictures only as data: URLs); the one style sheet and the one
#: script run because their hashes are listed, so an injected ``<script>``,
#: ``<style>`` or event handler (``onload=``) does not run; no form may be
#: sent anywhere and no ``<base>`` may move the page's links. What a policy
#: cannot stop (a ``<meta http-equiv="refresh">``, a link the reader clicks)
#: is left to the escaping of every text.
CSP = (
    f"default-src 'none'; style-src {_hash_source(CSS)}; script-src {_hash_source(SCRIPT)}; img-src data:; "
    "form-action 'none'; base-uri 'none'"
)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _items(lines: list[str], tag: str = "ul", cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<{tag}{attr}>" + "".join(f"<li>{_e(line)}</li>" for line in lines) + f"</{tag}>"


def _commands(page: Page) -> str:
    if page.viewer is None:
        return '<p class="hint">An observer has no commands (show the page of a seat with --as NAME).</p>'
    if not page.commands:
        return f'<p class="hint">{_e(page.viewer)} has nothing to decide now.</p>'
    rows = []
    for i, command in enumerate(page.commands):
        line = submit_line(page.folder, page.viewer, command)
        rows.append(
            f'<li><code id="cmd-{i}" class="cmd" data-command="{_e(command)}">{_e(line)}</code>'
            f'<button type="button" class="copy" data-for="cmd-{i}">copy</button></li>'
        )
    n = len(page.commands)
    hint = f"{n} legal command{'s' if n != 1 else ''}: copy one and run it in a terminal."
    return f'<p class="hint">{_e(hint)}</p><ol class="commands">' + "".join(rows) + "</ol>"


def render_page(page: Page) -> str:
    """The page as HTML text."""
    who = page.viewer or "an observer"
    board = page.svg if page.svg is not None else f"<pre>{_e(page.board_text or '')}</pre>"
    status = []
    if page.prompt:
        status.append(f'<p class="prompt">{_e(page.prompt)}</p>')
    if page.to_act:
        status.append(_items(page.to_act))
    elif page.outcome is None:
        status.append('<p class="hint">nobody is to act</p>')
    if page.pending:
        status.append("<h2>Pending</h2>" + _items(page.pending))
    outcome = (
        f'<section id="outcome" class="outcome"><h2>Outcome</h2><p>{_e(page.outcome)}</p></section>'
        if page.outcome is not None
        else ""
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(page.title)}: {_e(who)}</title><style>{CSS}</style></head>\n"
        "<body><header>"
        f"<h1>{_e(page.title)}</h1>"
        f"<p>game {_e(page.game_id[:12])} \u00b7 file {page.seq} \u00b7 seen by {_e(who)} \u00b7 folder {_e(page.folder)}</p>"
        "</header>\n<main>"
        f'<section id="board" aria-label="board">{board}</section>\n'
        "<aside>"
        f"{outcome}"
        f'<section id="status"><h2>Now</h2>{"".join(status)}</section>'
        f'<section id="commands"><h2>Commands of {_e(who)}</h2>{_commands(page)}</section>'
        f'<section id="log"><h2>Log</h2>{_items(page.log, "ol", "log")}</section>'
        "</aside></main>\n"
        f"<script>{SCRIPT}</script>\n"
        "</body></html>\n"
    )
