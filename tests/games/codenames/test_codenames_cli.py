"""Codenames through the CLI: four players, each with only their own key."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import Pbem, snapshot

SEATS = {"alice": "red-spymaster", "bob": "red", "carol": "blue-spymaster", "dave": "blue"}


@pytest.fixture
def homes(tmp_path) -> dict[str, Pbem]:
    """One key store per person (and the referee); everyone has everyone's public id."""
    people = {name: Pbem(tmp_path / f"home-{name}") for name in [*SEATS, "rita"]}
    for name, p in people.items():
        p("id", "new", name, "--no-passphrase")
        p("id", "export", name, "-o", tmp_path / f"{name}.id")
    for name, p in people.items():
        for other in people:
            if other != name:
                p("id", "import", tmp_path / f"{other}.id")
    return people


def new_game(p: Pbem, folder, *extra: str, homes: dict | None = None) -> None:
    p("new", "codenames", folder, *[a for name, role in SEATS.items() for a in ("--seat", f"{name}:{role}")], *extra,
      deal=homes is None)
    while homes is not None and not p.json("status", folder)["dealt"]:  # each joins with its own key, then the deal
        who = p.json("status", folder)["to_act"][0]["seat"]
        homes[who]("sync", folder, "--as", who)


def play(homes: dict[str, Pbem], folder, seed: int) -> dict:
    rng = random.Random(seed)
    for _ in range(400):
        st = homes["rita"].json("status", folder)
        if not st["to_act"]:
            return st
        who = st["to_act"][0]["seat"]
        me = homes[who]
        if st["to_act"][0]["needs"] == "auto":
            me("sync", folder, "--as", who)
            continue
        cmds = me.json("legal", folder, "--as", who)
        assert cmds
        me("submit", folder, "--as", who, "--cmd", rng.choice(cmds))
    raise AssertionError("no end")


def test_four_players_referee_game_each_with_only_their_key(homes, tmp_path):
    g = tmp_path / "g"
    new_game(homes["rita"], g, "--dealer", "referee", "--referee", "rita", homes=homes)
    # the key: spymasters see every colour, operatives none until covered
    spy = homes["alice"].json("show", g, "--as", "alice")
    op = homes["bob"].json("show", g, "--as", "bob")
    assert all(c["colour"] for c in spy["cells"])
    assert not any(c["colour"] for c in op["cells"])
    assert homes["dave"].json("show", g, "--as", "dave")["sees_key"] is False
    # nobody can act as another: bob's store has no key of alice's
    r = homes["bob"].fails("show", g, "--as", "alice")
    assert "alice" in r.stderr
    st = play(homes, g, seed=4)
    assert st["over"] and st["outcome"]["winners"]
    assert set(st["outcome"]["winners"]) in ({"alice", "bob"}, {"carol", "dave"})
    homes["bob"]("verify", g)
    assert "audit passed" in homes["dave"]("audit", g).stdout


def test_operative_keys_never_open_the_key(homes, tmp_path):
    from pbem.home.store import KeyStore
    from pbem.gamedir import folder
    from pbem.protocol.party import Party

    g = tmp_path / "g"
    new_game(homes["rita"], g, "--dealer", "referee", "--referee", "rita", homes=homes)
    chain = folder.load(g)
    key_refs = {it.ref for it in chain.public.zones["key"].items}
    bob = Party(chain, KeyStore(homes["bob"].home).secret("bob", lambda: ""))
    alice = Party(chain, KeyStore(homes["alice"].home).secret("alice", lambda: ""))
    assert not key_refs & set(bob.openings)
    assert key_refs <= set(alice.openings)


def test_hotseat_demo_and_bad_input(homes, tmp_path):
    g = tmp_path / "g"
    p = Pbem(tmp_path / "shared")
    for name in SEATS:
        p("id", "new", name, "--no-passphrase")
    grid = "tiger,lemon,piano,ocean,horse,truck,brandbil,castle,cloud,apple,river,chair,table,glass,stone,bread,knife,mouse,plant,train,sword,clock,wheel,boat,shirt"
    new_game(p, g, "--seed", "3", "--option", f"grid={grid}")
    st = p.json("status", g)
    spy = st["to_act"][0]["seat"]
    assert SEATS[spy].endswith("spymaster")
    before = snapshot(g)
    r = p.fails("submit", g, "--as", spy, "--cmd", "clue horses 2")
    assert "horse" in r.stderr
    r = p.fails("submit", g, "--as", spy, "--cmd", "clue brand 1")
    assert "brandbil" in r.stderr
    p.fails("submit", g, "--as", spy, "--cmd", "clue two words 1")
    operative = next(n for n, role in SEATS.items() if role == SEATS[spy].split("-")[0])
    p.fails("submit", g, "--as", operative, "--cmd", "guess tiger")  # not yet: no clue
    assert snapshot(g) == before
    p("submit", g, "--as", spy, "--cmd", "clue zebra 1")
    before = snapshot(g)
    other = next(n for n, role in SEATS.items() if role not in (SEATS[spy], SEATS[spy].split("-")[0]) and not role.endswith("spymaster"))
    p.fails("submit", g, "--as", other, "--cmd", "guess tiger")  # the other team's captain
    p.fails("submit", g, "--as", operative, "--cmd", "guess unicorn")  # not on the grid
    r = p.fails("submit", g, "--as", operative, "--cmd", "guess tiger lemon piano")  # cap 1 + 1
    assert snapshot(g) == before
    p("submit", g, "--as", operative, "--cmd", "guess tiger")
    shown = json.dumps(p.json("show", g, "--as", operative))
    assert '"word": "tiger", "covered": true' in shown.replace("'", '"')


def test_words_file_option_and_swedish(tmp_path):
    p = Pbem(tmp_path / "h")
    for name in SEATS:
        p("id", "new", name, "--no-passphrase")
    words = tmp_path / "ord.txt"
    words.write_text("# våra ord\n" + "\n".join(
        "äpple banan citron druva fläkt gurka hammare igelkott jordgubbe kanin lampa mjölk näktergal "
        "orm paraply räka sked tång ugn vante yxa zebra ål ärta öken flagga gran hink".split()) + "\n", encoding="utf-8")
    g = tmp_path / "g"
    new_game(p, g, "--seed", "1", "--option", "language=sv", "--option", f"words={words}")
    view = p.json("show", g, "--as", "alice")
    assert {c["word"] for c in view["cells"]} <= set(words.read_text(encoding="utf-8").split()[3:]) | {"ål"}
    p.fails("new", "codenames", tmp_path / "g2", "--seat", "alice:red-spymaster", "--option", f"words={tmp_path / 'missing.txt'}")


@pytest.mark.parametrize("dealer", ["hotseat", "referee"])
def test_demo_plays_a_full_game_and_verifies(tmp_path, dealer):
    from pbem.app.demo import run_demo
    from pbem.gamedir import folder

    lines: list[str] = []
    g = run_demo("codenames", tmp_path / "g", 8, dealer, None, echo=lines.append)
    assert any(line.startswith("result: ") for line in lines)
    assert folder.load(g).over


@pytest.mark.parametrize("variant,seats", [
    ("coop", ["alice:red-spymaster", "bob:red"]),
    ("coop", ["alice:red-spymaster", "bob:red", "carol:red"]),
    ("three", ["alice:red-spymaster", "bob:blue-spymaster", "carol:shared"]),
])
def test_small_variants_to_the_end(tmp_path, variant, seats):
    from conftest import play_to_end

    p = Pbem(tmp_path / "h")
    for s in seats:
        p("id", "new", s.split(":")[0], "--no-passphrase")
    g = tmp_path / "g"
    p("new", "cn", g, *[a for s in seats for a in ("--seat", s)], "--option", f"variant={variant}", "--seed", "2")
    st = play_to_end(p, g, seed=2)
    assert st["over"]
    assert "audit passed" in p("audit", g).stdout


def peer_game(homes, tmp_path, creator: str, stop=lambda st: False, seed: int = 5) -> dict:
    """A peer Codenames game: four folders, each player's own key, files
    mailed to everyone; plays with random legal commands until `stop`."""
    dirs = {n: tmp_path / f"game-{n}" for n in SEATS}
    homes[creator]("new", "codenames", dirs[creator], "--dealer", "peer", "--as", creator,
                   *[a for name, role in SEATS.items() for a in ("--seat", f"{name}:{role}")])
    received = [dirs[creator] / "000000-genesis.pbem"]
    for name in [n for n in SEATS if n != creator]:
        path = homes[name]("join", dirs[name], *received, "--as", name).stdout.split()[0]
        received.append(Path(path))
        for other in SEATS:
            if other != name and dirs[other].exists():
                homes[other]("apply", dirs[other], path)
    rng = random.Random(seed)
    for _ in range(400):
        st = homes[creator].json("status", dirs[creator])
        if not st["to_act"] or stop(st):
            return dirs
        who = st["to_act"][0]["seat"]
        if st["to_act"][0]["needs"] == "auto":
            written = homes[who]("sync", dirs[who], "--as", who).stdout.split()
        else:
            cmds = homes[who].json("legal", dirs[who], "--as", who)
            written = homes[who]("submit", dirs[who], "--as", who, "--cmd", rng.choice(cmds)).stdout.split()
        for path in written:
            for other in SEATS:
                if other != who:
                    homes[other]("apply", dirs[other], path)
    raise AssertionError("the game did not end")


def test_peer_game_four_folders_to_the_end(homes, tmp_path):
    """No referee: every seat shuffles the key under its own layer; the
    operatives take theirs off in public, each spymaster seals its partials
    to the other, and a guessed cell is revealed by either spymaster."""
    dirs = peer_game(homes, tmp_path, "bob")
    final = homes["alice"].json("status", dirs["alice"])
    assert final["over"] and final["outcome"]["winners"]
    for name in SEATS:
        assert "audit passed" in homes[name]("audit", dirs[name]).stdout


def test_peer_key_stays_with_the_spymasters(homes, tmp_path):
    from pbem.home.store import KeyStore
    from pbem.gamedir import folder
    from pbem.protocol.party import Party

    operatives = {n for n, role in SEATS.items() if not role.endswith("spymaster")}
    first_guess = lambda st: st["to_act"][0]["seat"] in operatives and st["to_act"][0]["needs"] == "decision"
    dirs = peer_game(homes, tmp_path, "carol", stop=first_guess)
    chain = folder.load(dirs["dave"])
    key_refs = {it.ref for it in chain.public.zones["key"].items}
    cards = {n: Party(folder.load(dirs[n]), KeyStore(homes[n].home).secret(n, lambda: "")).cards for n in SEATS}
    assert key_refs <= set(cards["alice"]) and key_refs <= set(cards["carol"])
    assert {r: cards["alice"][r] for r in key_refs} == {r: cards["carol"][r] for r in key_refs}
    assert not key_refs & set(cards["bob"]) and not key_refs & set(cards["dave"])
    spy = homes["carol"].json("show", dirs["carol"], "--as", "carol")
    op = homes["dave"].json("show", dirs["dave"], "--as", "dave")
    assert all(c["colour"] for c in spy["cells"])
    assert not any(c["colour"] for c in op["cells"])
