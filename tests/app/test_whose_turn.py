"""Whose turn it is, said the same way by status, legal, sync, submit and
log --since-mine; many games at once (status --all); info GAME; errors that
name their file; shell completion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.app import opening, writing
from pbem.gamedir import folder as folder_mod, folder_write


@pytest.fixture
def game(pbem, tmp_path) -> Path:
    g = tmp_path / "g"
    pbem("new", "aa", g, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    return g


def test_out_of_turn_says_whose_turn_never_a_card(pbem, game):
    # bob names a card he may well not hold: the answer is about the turn
    err = pbem.fails("submit", game, "--as", "bob", "--cmd", "play face-up=Daredevil face-down=Daredevil").stderr
    assert "it is not bob's turn: alice must decide" in err and "Daredevil" not in err
    cmds = pbem.json("legal", game, "--as", "alice")
    pbem("submit", game, "--as", "alice", "--cmd", cmds[0])
    for seat in ("alice", "bob"):  # now the referee owes an answer
        err = pbem.fails("submit", game, "--as", seat, "--cmd", cmds[-1]).stderr
        assert f"it is not {seat}'s turn: rita owes an automatic answer (pbem sync)" in err
    st = pbem("status", game).stdout
    assert "rita owes an automatic answer (pbem sync)" in st
    assert pbem("legal", game, "--as", "bob").stdout.strip() == \
        "bob has nothing to do now: rita owes an automatic answer (pbem sync)"
    assert "bob has nothing to do now: rita owes an automatic answer" in pbem("sync", game, "--as", "bob").stdout
    pbem("sync", game, "--as", "rita")
    decider = pbem.json("status", game)["to_act"][0]["seat"]
    assert pbem("sync", game, "--as", decider).stdout.strip() == f"nothing automatic to write: {decider} must decide"
    assert pbem("status", game).stdout.splitlines()[1] == f"{decider} must decide"


def test_status_uses_the_current_folder_and_lists_every_game(pbem, game, tmp_path, monkeypatch):
    other = tmp_path / "tree" / "two"
    pbem("new", "cn", other, "--seat", "alice:red-spymaster", "--seat", "bob:red", "--option", "variant=coop",
         "--dealer", "referee", "--referee", "rita")
    monkeypatch.chdir(game)
    assert "alice must decide" in pbem("status").stdout
    monkeypatch.chdir(tmp_path)
    listed = json.loads((pbem.home / "games.json").read_text())
    assert listed == sorted([str(game.absolute()), str(other.absolute())])
    out = pbem("status", "--all").stdout.splitlines()
    assert len(out) == 3 and out[-1].startswith("(*")
    assert any(str(game) in line and "agent-avenue" in line and "alice must decide" in line for line in out)
    assert any(str(other) in line and "codenames" in line for line in out)
    rows = pbem.json("status", "--all", tmp_path / "tree")
    assert [r["game"] for r in rows] == ["codenames"]
    import shutil

    shutil.rmtree(other)
    assert len(pbem("status", "--all").stdout.splitlines()) == 2  # a folder gone is dropped
    assert json.loads((pbem.home / "games.json").read_text()) == [str(game.absolute())]


def test_status_json_is_the_typed_record_its_schema_describes(pbem, game, tmp_path):
    """`status --json` and `status --all --json` print exactly the
    `turns.Status` / `turns.Row` records (schemas/status.json,
    status-all.json): decoded strictly and encoded again, nothing changes;
    an undo, an unreadable folder and a finished game each take their form."""
    import msgspec

    from pbem.app import turns

    def strict(kind):
        return msgspec.json.Decoder(kind, strict=True)

    printed = pbem("status", game, "--json").stdout
    info = strict(turns.Status).decode(printed)
    assert json.loads(printed) == msgspec.to_builtins(info)
    assert info.outcome is None and "undo" not in json.loads(printed) and info.to_act[0].seat == "alice"
    broken = tmp_path / "tree" / "broken"
    broken.mkdir(parents=True)
    (broken / folder_mod.GENESIS).write_bytes(b"not a genesis")
    pbem("new", "aa", tmp_path / "tree" / "g", "--seat", "alice", "--seat", "bob", "--dealer", "referee",
         "--referee", "rita")
    rows = json.loads(pbem("status", "--all", tmp_path / "tree", "--json").stdout)
    typed = [strict(turns.UnreadableRow if "error" in r else turns.Row).decode(json.dumps(r)) for r in rows]
    assert [type(r).__name__ for r in typed] == ["UnreadableRow", "Row"]
    assert rows == msgspec.to_builtins(typed) and typed[1].waiting == "alice must decide"


def test_log_since_mine_tells_what_happened(pbem, game):
    # bob's last file is his join (seq 2), before the referee's deal
    assert pbem("log", game, "--since-mine", "--as", "bob").stdout.splitlines()[0].startswith("since bob's last file (seq 2)")
    import re

    log = []
    while len(log) < 5 or log[-1] == "alice":  # play on until someone else wrote last
        who = pbem.json("status", game)["to_act"][0]
        if who["needs"] == "auto":
            pbem("sync", game, "--as", who["seat"])
        else:
            pbem("submit", game, "--as", who["seat"], "--cmd", pbem.json("legal", game, "--as", who["seat"])[0])
        log = [f["by"] for f in pbem.json("log", game)["files"]]
    last = max(i for i, by in enumerate(log) if by == "alice")
    lines = pbem("log", game, "--since-mine", "--as", "alice").stdout.splitlines()
    n = len(log) - 1 - last
    assert lines[0] == f"since alice's last file (seq {last}): {n} file{'s' if n != 1 else ''}"
    assert [re.match(r"  seq (\d+): (\w+) ", line).groups() for line in lines[1:-1]] == \
        [(str(i), log[i]) for i in range(last + 1, len(log))]
    assert lines[-1] == "now: " + pbem("status", game).stdout.splitlines()[1]
    assert pbem("log", game, "--since-mine", "--as", log[-1]).stdout.splitlines()[0] == \
        f"since {log[-1]}'s last file (seq {len(log) - 1}): nothing new"
    assert "--since-mine needs --as" in pbem("log", game, "--since-mine", ok=False).output


def test_info_lists_options_with_defaults(pbem):
    out = pbem("info", "aa").stdout
    assert out.startswith("Agent Avenue (agent-avenue")
    assert "seats: 2-4" in out
    assert "  mode         default simple" in out
    assert "deck         default (none)  [scenario option: hotseat only]" in out
    info = pbem.json("info", "codenames")
    words = next(o for o in info["options"] if o["name"] == "words")
    assert words["file"] and not words["scenario"]
    assert next(o for o in info["options"] if o["name"] == "key")["scenario"]
    assert "pbem info GAME" in pbem("new", "--help").stdout
    assert "unknown game 'chess'" in pbem.fails("info", "chess").stderr


def test_errors_name_the_file_never_bare_file(pbem, game, tmp_path):
    other = tmp_path / "other"
    pbem("new", "aa", other, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    written = writing.submit(other, "alice", [pbem.json("legal", other, "--as", "alice")[0]],
                             opening.Keys(__import__("pbem.home.store", fromlist=["KeyStore"]).KeyStore(), lambda: ""))
    from pbem.errors import PbemError

    chain = folder_mod.load(game)
    with pytest.raises(PbemError) as caught:
        folder_write.add_files(game, chain, [written[0].read_bytes()])
    assert caught.value.message.startswith(f"{written[0].name}: belongs to another game")
    assert "file:" not in caught.value.message


def test_shell_completion_of_identities_and_games(pbem, game):
    def complete(words: str) -> list[str]:
        result = pbem.runner.invoke(
            __import__("pbem.cli", fromlist=["cli"]).cli, [], prog_name="pbem",
            env={"_PBEM_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1),
                 "PBEM_HOME": str(pbem.home)})
        return [line.split(",", 1)[1] for line in result.output.splitlines() if "," in line]

    before = (pbem.home / "games.json").read_text()
    complete(f"pbem status {game}")  # completing a folder remembers nothing
    assert complete("pbem submit g --as a") == ["alice"]
    assert sorted(complete("pbem new c")) == ["codenames", "codex"]
    assert complete("pbem info a") == ["agent-avenue"]
    assert (pbem.home / "games.json").read_text() == before


def test_a_remembered_folder_whose_name_is_not_utf8_is_kept(pbem, game, tmp_path, monkeypatch):
    """The list of known games is read with msgspec, which refuses the
    escaped lone surrogate of a name that is not UTF-8: json reads it
    then, and remembering another folder keeps it."""
    odd = str(tmp_path / "caf\udce9")
    index = pbem.home / "games.json"
    index.write_text(json.dumps([odd], indent=1) + "\n")
    pbem("status", game)
    assert json.loads(index.read_text()) == sorted([odd, str(game.absolute())])
