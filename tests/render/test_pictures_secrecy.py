"""No picture or page of one seat names a card that seat may not know.

Bot games through the game API: after every step each seat (and an
observer) holds the state as it knows it (the public items plus what lay in
zones it may read, as the protocol delivers them); its view is drawn as SVG
and as a game page, and the text is searched for the name of every card it
does not know, unless that name is also on a card it does see (in Agent
Avenue six copies share a name). Codenames' hidden cards are the key's
colours: ``bystander`` and ``assassin`` must not appear unless a covered
cell shows one, and no uncovered cell of a reader without the key may carry
a colour. ``PBEM_LONG=1`` plays more games.
"""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET
from typing import Any

import msgspec
import pytest

from pbem.games import get
from pbem.games.base import RandomChance, SeatSpec, project
from pbem.games.conformance import readable_refs
from pbem.render.page import Page, render_page

LONG = os.environ.get("PBEM_LONG") == "1"
SVG_NS = "{http://www.w3.org/2000/svg}"


def strings(value: Any) -> set[str]:
    """Every string anywhere in a view (what its reader is shown)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def bot_game(game, options: dict, seats: list[SeatSpec], seed: int, bot: str):
    """Yield (full state, refs each seat knows, last command) after each step."""
    rng = random.Random(seed)
    chance = RandomChance(seed)
    full = game.advance(game.setup(game.options(options), seats, chance), chance)
    names = [s.name for s in seats]
    known: dict[str | None, set[str]] = {s: set() for s in [None, *names]}
    log: list[str] = []
    for _ in range(2000):
        public = {it.ref for z in full.zones.values() if z.public for it in z.items}
        for s in known:
            known[s] |= public | (readable_refs(full, s) if s is not None else set())
        yield full, known, log
        if game.outcome(full) is not None:
            return
        seat = game.to_act(full)[0]
        mine = project(full, known[seat])
        command = game.presentation.bots[bot](game, mine, seat, rng)
        before = full
        full = game.advance(game.apply(full, seat, command, chance), chance)
        log.append(game.presentation.describe(command, before, None))
    raise AssertionError("the bot game did not end")


def pictures(game, full, known, log, reader):
    mine = project(full, known[reader])
    view = game.view(mine, reader)
    svg = game.presentation.svg(view)
    commands = [game.presentation.format(c, mine, reader) for c in game.legal(mine, reader)] if reader else []
    html = render_page(Page(title=game.info.title, game_id="g", seq=len(log), folder="g", viewer=reader, svg=svg,
                            prompt=view.prompt, commands=commands, log=log))
    return view, svg, html


def unknown_names(full, known_refs: set[str], seen: set[str]) -> set[str]:
    cards = {it.ref: it.card for z in full.zones.values() for it in z.items}
    return {card for ref, card in cards.items() if ref not in known_refs} - seen


def check(texts: list[str], hidden: set[str], where: str) -> None:
    for name in hidden:
        for text in texts:
            assert name not in text, f"{where}: {name!r} is not known to this reader but is drawn"


AA_SEEDS = range(40 if LONG else 8)
CX_SEEDS = range(10 if LONG else 1)
CN_SEEDS = range(20 if LONG else 4)


@pytest.mark.parametrize("mode", ["simple", "advanced"])
@pytest.mark.parametrize("seed", AA_SEEDS)
def test_agent_avenue_pictures_keep_hands_secret(seed, mode):
    """In advanced mode also the black-market deck's cards (and the agents
    Smoke Screen would recruit) stay unnamed until they turn face up."""
    game = get("agent-avenue")
    seats = [SeatSpec("alice"), SeatSpec("bob")]
    hidden_seen = 0
    bot = "random" if seed % 2 else "greedy"
    for step, (full, known, log) in enumerate(bot_game(game, {"mode": mode}, seats, seed, bot)):
        for reader in [None, "alice", "bob"]:
            view, svg, html = pictures(game, full, known, log, reader)
            # a card the reader once saw stays known (the black market can
            # move a public card into a hand, and on into a face-down play)
            once_seen = {it.card for z in full.zones.values() for it in z.items if it.ref in known[reader]}
            hidden = unknown_names(full, known[reader], strings(msgspec.to_builtins(view)) | once_seen)
            hidden_seen += len(hidden)
            check([svg, html], hidden, f"seed {seed} step {step} {reader or 'observer'}")
    assert hidden_seen  # the check had something to look for


TEAMS = {
    "2v2": [SeatSpec("alice", "green"), SeatSpec("bob", "blue"), SeatSpec("carol", "green"), SeatSpec("dave", "blue")],
    "2v1": [SeatSpec("alice", "green"), SeatSpec("bob", "blue"), SeatSpec("carol", "green")],
}


@pytest.mark.parametrize("teams, mode", [("2v2", "simple"), ("2v1", "advanced")])
@pytest.mark.parametrize("seed", range(6 if LONG else 1))
def test_agent_avenue_team_pictures_keep_each_hand_secret(seed, teams, mode):
    """The team variant: a teammate's hand is as secret as an opponent's."""
    game = get("agent-avenue")
    seats = TEAMS[teams]
    hidden_seen = 0
    for step, (full, known, log) in enumerate(bot_game(game, {"mode": mode}, seats, seed, "random")):
        for reader in [None, *(s.name for s in seats)]:
            view, svg, html = pictures(game, full, known, log, reader)
            once_seen = {it.card for z in full.zones.values() for it in z.items if it.ref in known[reader]}
            hidden = unknown_names(full, known[reader], strings(msgspec.to_builtins(view)) | once_seen)
            hidden_seen += len(hidden)
            check([svg, html], hidden, f"{teams} seed {seed} step {step} {reader or 'observer'}")
    assert hidden_seen  # the check had something to look for


@pytest.mark.parametrize("seed", CX_SEEDS)
def test_codex_pictures_keep_hands_codex_and_workers_secret(seed):
    """Cards share names (two copies of each codex card; the same starter
    deck on both sides), so a name counts as hidden only if no card the
    reader knows or sees carries it."""
    game = get("codex")
    seats = [SeatSpec("alice"), SeatSpec("bob")]
    hidden_seen = 0
    ever_shown: set[str] = set()  # played from a hand: everyone saw them, even once reshuffled
    for step, (full, known, log) in enumerate(bot_game(game, {}, seats, seed, "greedy")):
        ever_shown |= set(full.shown.values())
        if step % 3:
            continue
        for reader in [None, "alice", "bob"]:
            view, svg, html = pictures(game, full, known, log, reader)
            once_seen = {it.card for z in full.zones.values() for it in z.items if it.ref in known[reader]}
            once_seen |= ever_shown
            hidden = unknown_names(full, known[reader], strings(msgspec.to_builtins(view)) | once_seen)
            hidden_seen += len(hidden)
            check([svg, html], hidden, f"seed {seed} step {step} {reader or 'observer'}")
    assert hidden_seen


def test_a_teammates_hand_never_shows_in_the_others_view_or_picture():
    """Carol alone holds the Sidekick and the Mole (one copy each): her
    teammate alice never sees them, in any picture, before they are played."""
    import io

    from rich.console import Console

    from pbem.render import terminal

    game = get("agent-avenue")
    names = [n for n in ("Enforcer", "Saboteur", "Sentinel", "Double Agent")]
    deck = names + ["Enforcer"] * 4 + ["Sidekick", "Mole", "Sentinel", "Saboteur"] + ["Daredevil"] * 4
    rest = [n for n in game_cards().NAMES for _ in range(game_cards().COPIES[n])]
    for n in deck:
        rest.remove(n)
    options = game.options({"deck": ",".join(deck + rest)})
    full = game.advance(game.setup(options, TEAMS["2v2"], RandomChance(0)), RandomChance(0))

    def texts(reader):
        mine = project(full, readable_refs(full, reader) | {it.ref for z in full.zones.values() if z.public for it in z.items})
        view = game.view(mine, reader)
        con = Console(width=80, record=True, file=io.StringIO())
        con.print(terminal.renderable(game, view))
        return [game.presentation.render(view), game.presentation.svg(view), con.export_text(), msgspec.json.encode(view).decode()]

    for text in texts("carol"):
        assert "Sidekick" in text and "Mole" in text
    for reader in ("alice", "bob", "dave", None):
        for text in texts(reader):
            assert "Sidekick" not in text and "Mole" not in text, reader


def game_cards():
    from pbem.games.agent_avenue import cards

    return cards


@pytest.mark.parametrize("seed", CN_SEEDS)
def test_codenames_pictures_keep_the_key_secret(seed):
    game = get("codenames")
    seats = [SeatSpec("alice", "red-spymaster"), SeatSpec("bob", "red"),
             SeatSpec("carol", "blue-spymaster"), SeatSpec("dave", "blue")]
    keyed_cells = 0
    for step, (full, known, log) in enumerate(bot_game(game, {}, seats, seed, "spymaster")):
        for reader in [None, "alice", "bob", "carol", "dave"]:
            view, svg, html = pictures(game, full, known, log, reader)
            where = f"seed {seed} step {step} {reader or 'observer'}"
            seen = strings(msgspec.to_builtins(view))
            hidden = unknown_names(full, known[reader], seen) & {"bystander", "assassin"}
            check([svg.lower(), html.lower()], hidden, where)
            for g in ET.fromstring(svg).iter(f"{SVG_NS}g"):
                if g.get("class") != "cell" or g.get("data-state") == "covered":
                    continue
                if view.sees_key:
                    keyed_cells += 1
                    assert g.get("data-state") == "key" and g.get("data-colour"), where
                else:
                    assert g.get("data-state") == "unknown" and g.get("data-colour") is None, where
                    assert not [t.text for t in g.iter(f"{SVG_NS}text") if t.text in {"R", "B", "N", "X"}], where
    assert keyed_cells  # the spymasters' pictures did show the key


@pytest.mark.parametrize("seed", range(6 if LONG else 2))
def test_duet_pictures_show_only_the_readers_own_side_of_the_key(seed):
    """A Duet player's picture marks an unfound card with that player's own
    side of the key and nothing else; an observer's with no key at all."""
    from pbem.games.codenames import duet

    game = get("codenames")
    seats = [SeatSpec("alice", "a"), SeatSpec("bob", "b")]
    keyed = 0
    for step, (full, known, log) in enumerate(bot_game(game, {"variant": "duet"}, seats, seed, "spymaster")):
        # each side of the key as the full state holds it (cells revealed by a guess included)
        own = {s: {**{duet.ref_cell(it.ref): it.card for it in full.zones[duet.key_zone(s)].items},
                   **duet.opened(full, s)} for s in ("a", "b")}
        for reader, side in ((None, None), ("alice", "a"), ("bob", "b")):
            view, svg, html = pictures(game, full, known, log, reader)
            for g in ET.fromstring(svg).iter(f"{SVG_NS}g"):
                if g.get("class") != "cell" or g.get("data-state") == "found":
                    continue
                cell = int(g.get("id").rsplit("-", 1)[1])
                where = f"seed {seed} step {step} {reader or 'observer'} cell {cell}"
                if side is None:
                    assert g.get("data-state") == "unknown" and g.get("data-mine") is None, where
                    continue
                keyed += 1
                assert g.get("data-state") == "key" and g.get("data-mine") == own[side][cell], where
                marks = {t.text for t in g.iter(f"{SVG_NS}text")}
                if own[side][cell] != "assassin":
                    assert "ASSASSIN" not in marks and "X" not in marks, where
    assert keyed


DA_SEEDS = range(10 if LONG else 2)


@pytest.mark.parametrize("seed", DA_SEEDS)
def test_dark_agent_pictures_keep_the_equipment_in_hands_and_decks_secret(seed):
    """An equipment card a reader has not seen (in a deck, or drawn by
    another seat from Supply) is never named, unless a card of that name
    is shown to the reader anyway (on the board, in its hand, in the log)."""
    game = get("dark-agent")
    seats = [SeatSpec(s) for s in ("ann", "bob", "cat")]
    names = {e.id: e.name for e in game.setup(game.options({}), seats, RandomChance(0)).catalogue.equipment}
    hidden_seen = 0
    bot = "greedy" if seed % 2 else "random"
    for step, (full, known, log) in enumerate(bot_game(game, {"rounds": "3"}, seats, seed, bot)):
        if step % 3:
            continue
        for reader in [None, "ann", "bob", "cat"]:
            view, svg, html = pictures(game, full, known, log, reader)
            shown = strings(msgspec.to_builtins(view)) | set(log)
            seen = {n for n in names.values() if any(n in s for s in shown)}
            hidden = {names[c] for c in unknown_names(full, known[reader], set()) if c in names} - seen
            hidden_seen += len(hidden)
            check([svg, html], hidden, f"seed {seed} step {step} {reader or 'observer'}")
            cells = [g for g in ET.fromstring(svg).iter(f"{SVG_NS}g") if g.get("class") == "cell"]
            assert [g.get("data-cell") for g in cells] == [c.cell for c in view.cells]
            for sv in view.seats:
                assert (sv.hand is None) == (sv.name != reader)
    assert hidden_seen
