"""Whole games through the CLI contract: new, status, legal, submit, sync,
show, log, verify, audit, apply."""

from __future__ import annotations

import shutil


from conftest import play_to_end, snapshot


def test_hotseat_game_to_the_end(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "agent-avenue", g, "--seat", "alice", "--seat", "bob", "--seed", "7")
    assert (g / "000000-genesis.pbem").exists() and (g / "state.pbem").exists()
    st = play_to_end(pbem, g, seed=1)
    assert st["over"] is True
    assert set(st["outcome"]) == {"winners", "reason"}
    assert st["outcome"]["winners"] and set(st["outcome"]["winners"]) <= {"alice", "bob"}
    assert pbem("verify", g).stdout.startswith("ok:")
    assert "audit passed" in pbem("audit", g).stdout
    # nobody may write after the end
    assert pbem.json("legal", g, "--as", "alice") == []


def test_referee_game_to_the_end_and_audit(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "bob", "--seat", "alice", "--dealer", "referee", "--referee", "rita")
    assert not (g / "dealer.key").exists()

    def pick(cmds, seat, rng):
        return rng.choice(cmds)

    st = pbem.json("status", g)
    assert st["to_act"] == [{"seat": "bob", "needs": "decision"}]
    pbem("submit", g, "--as", "bob", "--cmd", pbem.json("legal", g, "--as", "bob")[-1])
    st = pbem.json("status", g)
    assert st["to_act"] == [{"seat": "rita", "needs": "auto"}]
    assert st["pending"] == ["rita owes 2 cards to bob"]
    assert "pending: rita owes 2 cards to bob" in pbem("status", g).stdout
    assert "nothing to do" in pbem("sync", g, "--as", "bob").stdout
    written = pbem("sync", g, "--as", "rita").stdout.split()
    assert [p.rsplit("/", 1)[-1] for p in written] == ["000005-rita.pbem"]  # after the joins and the deal
    st = play_to_end(pbem, g, pick=pick, seed=3)
    assert st["over"]
    assert "audit passed" in pbem("audit", g).stdout
    assert "publishes its seed" in pbem("log", g).stdout


def test_status_json_contract(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "1")
    st = pbem.json("status", g)
    assert st["game"] == "agent-avenue"
    assert st["seq"] == 0
    assert st["to_act"] == [{"seat": "alice", "needs": "decision"}]
    assert st["over"] is False and st["outcome"] is None


def test_legal_commands_are_all_accepted(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "2")
    cmds = pbem.json("legal", g, "--as", "alice")
    assert any(c.startswith("play ") for c in cmds) and any(c.startswith("discard ") for c in cmds)
    for cmd in cmds:
        h = tmp_path / ("copy" + str(abs(hash(cmd))))
        shutil.copytree(g, h)
        pbem("submit", h, "--as", "alice", "--cmd", cmd)


def test_submit_prints_the_files_and_dealer_answers_in_hotseat(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "2")
    cmd = next(c for c in pbem.json("legal", g, "--as", "alice") if c.startswith("play "))
    out = pbem("submit", g, "--as", "alice", "--cmd", cmd).stdout.split()
    assert [p.rsplit("/", 1)[-1] for p in out] == ["000001-alice.pbem", "000002-dealer.pbem"]
    assert pbem.json("status", g)["to_act"] == [{"seat": "bob", "needs": "decision"}]


def test_submit_takes_the_command_as_an_argument_too(pbem, tmp_path):
    """`pbem submit DIR "COMMAND"`, as one would type it first, is `--cmd`;
    with no command at all the error says how to give one."""
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "2")
    h = tmp_path / "h"
    shutil.copytree(g, h)
    cmd = next(c for c in pbem.json("legal", g, "--as", "alice") if c.startswith("play "))
    pbem("submit", g, cmd, "--as", "alice")
    pbem("submit", h, "--as", "alice", "--cmd", cmd)
    assert pbem.json("status", g) == pbem.json("status", h)
    assert [f["what"] for f in pbem.json("log", g)["files"]] == [f["what"] for f in pbem.json("log", h)["files"]]
    before = snapshot(g)
    r = pbem.fails("submit", g, "--as", "bob", code=2)
    assert 'give the command: pbem submit DIR "COMMAND"' in r.stderr and snapshot(g) == before


def test_discard_pauses_the_turn_until_the_card_arrives(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    discard = next(c for c in pbem.json("legal", g, "--as", "alice") if c.startswith("discard "))
    before = snapshot(g)
    # the play after a discard needs the drawn card: one file cannot hold both
    play = next(c for c in pbem.json("legal", g, "--as", "alice") if c.startswith("play "))
    r = pbem.fails("submit", g, "--as", "alice", "--cmd", discard, "--cmd", play)
    assert "drawn" in r.stderr
    assert snapshot(g) == before
    pbem("submit", g, "--as", "alice", "--cmd", discard)
    assert pbem.json("status", g)["to_act"] == [{"seat": "rita", "needs": "auto"}]
    assert pbem.json("legal", g, "--as", "alice") == []
    pbem("sync", g, "--as", "rita")
    assert any(c.startswith("play ") for c in pbem.json("legal", g, "--as", "alice"))


def _seat(view, name):
    return next(s for s in view["seats"] if s["seat"] == name)


def test_show_hides_what_the_seat_may_not_see(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "4")
    alice = pbem.json("show", g, "--as", "alice")
    bob = pbem.json("show", g, "--as", "bob")
    observer = pbem.json("show", g)
    assert len(_seat(alice, "alice")["hand"]) == 4 and _seat(alice, "bob")["hand"] is None
    assert len(_seat(bob, "bob")["hand"]) == 4 and _seat(bob, "alice")["hand"] is None
    assert _seat(observer, "alice")["hand"] is None and _seat(observer, "bob")["hand"] is None
    assert _seat(alice, "bob")["hand_size"] == 4
    text = pbem("show", g, "--as", "alice").stdout
    for card in _seat(alice, "alice")["hand"]:
        assert card in text
    # a face-down card is seen by its player only
    play = next(c for c in pbem.json("legal", g, "--as", "alice") if c.startswith("play "))
    down = play.split("/", 1)[1].strip()
    pbem("submit", g, "--as", "alice", "--cmd", play)
    assert pbem.json("show", g, "--as", "alice")["centre_down"] == down
    assert pbem.json("show", g, "--as", "bob")["centre_down"] is None
    assert pbem.json("show", g)["centre_down"] is None


def test_log_never_names_a_face_down_card(pbem, tmp_path):
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "4")
    play = next(c for c in pbem.json("legal", g, "--as", "alice") if c.startswith("play "))
    up, down = (s.strip() for s in play[len("play "):].split("/"))
    pbem("submit", g, "--as", "alice", "--cmd", play)
    line = [l for l in pbem("log", g).stdout.splitlines() if "alice" in l and "play" in l][0]
    assert up in line and "(face down)" in line
    if down != up:
        assert down not in line


def test_apply_moves_files_between_folders(pbem, tmp_path):
    """Referee game, three folders; only files travel."""
    a, b = tmp_path / "a", tmp_path / "b"
    pbem("new", "aa", a, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    b.mkdir()
    for path in sorted(a.glob("00000[0-3]-*.pbem")):  # the genesis, the joins and the deal
        shutil.copy(path, b)
    play = next(c for c in pbem.json("legal", a, "--as", "alice") if c.startswith("play "))
    path = pbem("submit", a, "--as", "alice", "--cmd", play).stdout.split()[0]
    out = pbem("apply", b, path).stdout
    assert out.strip().endswith("000004-alice.pbem")
    assert (a / "000004-alice.pbem").read_bytes() == (b / "000004-alice.pbem").read_bytes()
    # the state cache is rebuilt in the receiving folder
    assert (b / "state.pbem").read_bytes() == (a / "state.pbem").read_bytes()
    pbem("verify", b)


def test_apply_several_files_in_any_order_each_on_its_own(pbem, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    pbem("new", "aa", a, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    b.mkdir()
    for path in sorted(a.glob("00000[0-3]-*.pbem")):  # the genesis, the joins and the deal
        shutil.copy(path, b)
    play = next(c for c in pbem.json("legal", a, "--as", "alice") if c.startswith("play "))
    pbem("submit", a, "--as", "alice", "--cmd", play)
    pbem("sync", a, "--as", "rita")
    files = sorted(p for p in a.glob("0*.pbem") if int(p.name[:6]) >= 4)
    assert [f.name for f in files] == ["000004-alice.pbem", "000005-rita.pbem"]
    garbled = tmp_path / "garbled.pbem"
    garbled.write_bytes(files[1].read_bytes()[:-40])
    err = pbem.fails("apply", b, garbled, files[0]).stderr
    assert "garbled.pbem" in err  # the bad file named; the good one still applied
    assert sorted(p.name for p in b.glob("0*.pbem")) == ["000000-genesis.pbem", "000001-alice.pbem", "000002-bob.pbem", "000003-rita.pbem",
                                                           "000004-alice.pbem"]
    out = pbem("apply", b, files[1], files[0]).stdout.split()  # any order, one already in
    assert [p.rsplit("/", 1)[-1] for p in out] == ["000005-rita.pbem"]
    pbem("verify", b)


def test_as_defaults_to_the_only_identity_of_yours_in_the_game(tmp_path):
    """In a player's own home (one key of theirs in the game) --as may be
    left out; with none or several of theirs, the error says what to give."""
    from conftest import Pbem

    alice, bob = Pbem(tmp_path / "home-alice"), Pbem(tmp_path / "home-bob")
    for p, n in ((alice, "alice"), (bob, "bob")):
        p("id", "new", n, "--no-passphrase")
        p("id", "export", n, "-o", tmp_path / f"{n}.id")
    alice("id", "import", tmp_path / "bob.id")
    bob("id", "import", tmp_path / "alice.id")
    a, b = tmp_path / "a", tmp_path / "b"
    alice("new", "aa", a, "--dealer", "peer", "--seat", "alice", "--seat", "bob", "--as", "alice")
    joined = bob("join", b, a / "000000-genesis.pbem", "--as", "bob").stdout.split()
    alice("apply", a, *joined)
    players, dirs = {"alice": alice, "bob": bob}, {"alice": a, "bob": b}
    while (st := alice.json("status", a)["to_act"][0])["needs"] == "auto":  # the set-up files, by sync without --as
        who = st["seat"]
        written = players[who]("sync", dirs[who]).stdout.split()
        other = "bob" if who == "alice" else "alice"
        players[other]("apply", dirs[other], *written)
    first = st["seat"]
    legal = players[first].json("legal", dirs[first])
    assert legal and legal == players[first].json("legal", dirs[first], "--as", first)
    r = players[first]("submit", dirs[first], "--cmd", legal[0])
    assert r.stdout.strip().endswith(f"-{first}.pbem")
    stranger = Pbem(tmp_path / "home-carol")
    stranger("id", "new", "carol", "--no-passphrase")
    r = stranger.fails("legal", a)
    assert "none of your own identities is a party of this game (its parties: alice, bob)" in r.stderr
    both = Pbem(tmp_path / "home-both")
    for n in ("alice", "bob"):
        both("id", "new", n, "--no-passphrase")
    g = tmp_path / "hot"
    both("new", "aa", g, "--seat", "alice", "--seat", "bob", "--seed", "2")
    r = both.fails("legal", g)
    assert "several of your identities are parties of this game (alice, bob)" in r.stderr and "--as NAME" in r.stderr
