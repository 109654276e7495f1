"""A turn as a forum post: Markdown that shows what the other players may
see of it, and carries its files.

Codex players on Sirlin Games' forum post each turn from a template: the
actions with a running gold total, the patrol slots, the buildings with
their HP, the workers, and the hand, deck and discard counts, with hidden
cards in collapsed blocks on an honour system. A post made here has the
same spirit without the honour system: it is written from public
information only, the log of the posted files in words anyone may read
and the observer's view (`Game.view(public, None)`) before and after
them, so a post holds nothing its writer could not show everyone, and
the same files make the same post whoever writes it. A Codex board is
summed up side by side like the template; the other games show their
own observer picture (`Presentation.render`).

The files follow in a collapsed ``<details>`` block as armored text in a
fenced code block: Markdown renderers (Discourse's markdown-it among
them) show a code block's text as it is, a copy of the rendered page
keeps its lines, and the armor reader ignores everything around the
blocks, so `pbem apply` takes the post's source, a copy of the rendered
page, or the page saved as HTML.

Pure: text in, text out; the caller (`pbem.forum`) gathers the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pbem.safetext import clean

#: Markdown's punctuation that can start or end markup, and HTML's
_MARKUP = re.compile(r"([\\`*_{}\[\]<>#|~&])")
#: the patrol slots of Codex, in the order a view lists them
PATROL = ("squad leader", "elite", "scavenger", "technician", "lookout")


@dataclass
class Action:
    """One posted file, in words: its seq, its writer, what it did, and
    for Codex the writer's gold before and after it."""

    seq: int
    by: str
    what: str
    gold: tuple[int, int] | None = None


@dataclass
class Post:
    title: str
    game_id: str
    poster: str
    actions: list[Action]
    board: Any  # the observer's view after the posted files (None: not set up yet)
    board_text: str  # the game's own picture of it
    next_lines: list[str]
    armored: str
    readers: list[str]
    outcome: str | None = None  # how the game ended, when it has


def text(s: str) -> str:
    """Words from a game or a file, shown as they are in Markdown (never
    markup, never HTML), on one line."""
    return _MARKUP.sub(r"\\\1", " ".join(clean(str(s)).split()))


def fenced(body: str, lang: str = "text") -> str:
    """`body` in a fenced code block whose fence no run of backticks in it can close."""
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{body.rstrip(chr(10))}\n{fence}"


def is_codex(view: Any) -> bool:
    """A view with sides that hold gold, patrols and buildings (Codex, any rules version)."""
    sides = getattr(view, "sides", None)
    return bool(sides) and all(hasattr(s, a) for s in sides for a in ("gold", "patrol", "buildings", "workers"))


def render(post: Post) -> str:
    seqs = [a.seq for a in post.actions]
    span = f"seq {seqs[0]}" if len(seqs) == 1 else f"seq {seqs[0]} to {seqs[-1]}"
    out = [f"**{text(post.title)}** · game `{post.game_id[:12]}` · {span} · posted by {text(post.poster)}", ""]
    for a in post.actions:
        out.append(f"- {a.seq} {text(a.by)}: {text(a.what)}{_gold(a.gold)}")
    out.append("")
    if post.board is not None and is_codex(post.board):
        out += _codex(post.board)
    elif post.board_text:
        out += [fenced(clean(post.board_text)), ""]
    if post.outcome is not None:
        out += [f"**Game over**: {text(post.outcome)}", ""]
    elif post.next_lines:
        out += ["Next: " + "; ".join(text(line) for line in post.next_lines), ""]
    n = len(seqs)
    out += [
        "<details>",
        f"<summary>pbem: {n} file{'s' if n != 1 else ''} for {', '.join(post.readers)} "
        "(open this block, copy the post or save the page, then: pbem apply YOUR-FOLDER SAVED-POST)</summary>",
        "",
        fenced(post.armored),
        "",
        "</details>",
    ]
    return "\n".join(out) + "\n"


def _gold(gold: tuple[int, int] | None) -> str:
    if gold is None:
        return ""
    before, after = gold
    return f" (gold {after})" if before == after else f" (gold {before} → {after})"


def _codex(view: Any) -> list[str]:
    """Each side as the forum template sums it up (public counts only)."""
    out = [f"Turn {view.turn}, {text(view.active)} to play ({text(view.phase)})", ""]
    for side in view.sides:
        hero = f"{side.hero} in the command zone" if side.hero_home else f"{side.hero} in play"
        if len(getattr(side, "heroes", ())) > 1:
            hero = side.heroes_text()
        out.append(f"**{text(side.seat)}** ({text(getattr(side, 'specs', side.spec))}; {text(hero)}): base {side.base_hp} HP, "
                   f"gold {side.gold}, workers {side.workers}")
        out.append(f"- hand {side.hand}, deck {side.deck}, discard {side.discard}, codex {side.codex}")
        out.append("- buildings: " + ", ".join(["base"] + [text(b) for b in side.buildings]))
        slots = [f"{slot} {text(h) if h else '-'}" for slot, h in zip(PATROL, side.patrol)]
        out.append("- patrol: " + ", ".join(slots))
        things = [_thing(t) for t in side.things]
        out.append("- in play: " + (", ".join(things) if things else "nothing"))
        if side.ongoing:
            out.append("- ongoing: " + ", ".join(text(o) for o in side.ongoing))
        out.append("")
    return out


def _thing(t: Any) -> str:
    if t.kind == "building":
        return f"{text(t.handle)} {t.hp - t.damage}/{t.hp} HP"
    if t.kind == "upgrade":
        return f"{text(t.handle)} (upgrade)"
    marks = [f"L{t.level}"] if t.level else []
    marks += [f"{t.damage} damage"] if t.damage else []
    marks += [f"{t.runes:+d} runes"] if t.runes else []
    marks += ["exhausted"] if t.exhausted else []
    marks += [text(k) for k in t.keywords]
    return f"{text(t.handle)} {t.atk}/{t.hp}" + (f" ({', '.join(marks)})" if marks else "")
