"""An undo request written out of turn forks the game (issue #20, class 8).

A seat may ask to take back its last move while another seat is to write,
so its request can meet that seat's reply on the same predecessor: written
after seeing the reply, it made a valid fork at will, and no rule said which
file stands. Now every verifier applies one (`undo.set_aside`): the seat that
was to write stands over an out-of-turn request on the same predecessor; the
request, and any file after it, is set aside (read over, named in a note,
moved to ``set-aside/`` by the next writer). In a shared folder and through
`pbem apply` alike, whichever order the files arrive in. The request is made
with pbem's own library and signed with the requester's real key; the
victim is the real CLI.
"""

from __future__ import annotations

import msgspec
from conftest import play_to_end
from pbem.app import opening, reading, receiving, turns, writing
from pbem.home.store import KeyStore
from pbem.protocol import codec
from pbem.gamedir import folder
from pbem.protocol.party import Party
from test_undo import SEATS, cli, referee_table  # noqa: F401 - cli: every seat's key


def _reply(cli, g, op) -> str:
    cmds = cli.json("legal", g, "--as", op)
    return "pass" if "pass" in cmds else cmds[0]


def _request_on(g, seq: int, sp: str, home, accept: bool = False) -> list[str]:
    """sp's undo request on seq `seq` of the folder (and, with `accept`,
    the first answer to it), signed with real keys, written as their files."""
    store = KeyStore(home)
    chain = folder.load(g, stop=seq)
    request = Party(chain, store.secret(sp, lambda: "")).undo("request")
    chain.append(request)
    names = [folder.turn_name(seq + 1, sp)]
    (g / names[0]).write_bytes(request)
    if accept:
        who = chain.writers()[0]
        (g / folder.turn_name(seq + 2, who)).write_bytes(Party(chain, store.secret(who, lambda: "")).undo("accept"))
        names.append(folder.turn_name(seq + 2, who))
    return names


def test_the_seat_to_write_stands_over_an_out_of_turn_request_in_a_shared_folder(cli, tmp_path):
    g = tmp_path / "g"
    cli("new", "codenames", g, *[a for s in SEATS for a in ("--seat", s)], "--seed", "5")
    sp = cli.json("status", g)["to_act"][0]["seat"]
    cli("submit", g, "--as", sp, "--cmd", cli.json("legal", g, "--as", sp)[0])
    clue = folder.load(g).seq
    op = cli.json("status", g)["to_act"][0]["seat"]
    cli("submit", g, "--as", op, "--cmd", _reply(cli, g, op))
    honest = folder.load(g)
    # sp saw the reply and forks it: a request on the clue, and an answer to it
    names = _request_on(g, clue, sp, cli.home, accept=True)
    st = cli.json("status", g)
    assert st["seq"] == honest.seq and st["to_act"] == msgspec.to_builtins(turns.status(honest).to_act)
    notes = " ".join(st.get("notes", []))
    assert f"{names[0]}: {sp}'s undo request, written out of turn, is set aside" in notes
    assert f"{names[1]} follows a file set aside" in notes
    verified = cli("verify", g)
    assert "moved" in verified.stderr and all((g / "set-aside" / n).is_file() for n in names)
    assert not any((g / n).exists() for n in names)
    assert play_to_end(cli, g, pick=lambda cmds, seat, rng: "pass" if "pass" in cmds else cmds[0])["over"]
    cli("audit", g)


def test_a_verified_request_is_set_aside_when_the_reply_turns_up(cli, tmp_path):
    """The request came first and was verified (a checkpoint remembers it);
    the reply, written by a seat that had not seen it, turns up beside it
    (a sync tool): every command applies the rule, none reports a changed file."""
    g = tmp_path / "g"
    cli("new", "codenames", g, *[a for s in SEATS for a in ("--seat", s)], "--seed", "5")
    sp = cli.json("status", g)["to_act"][0]["seat"]
    cli("submit", g, "--as", sp, "--cmd", cli.json("legal", g, "--as", sp)[0])
    op = cli.json("status", g)["to_act"][0]["seat"]
    cli("undo", "request", g, "--as", sp)  # out of turn, through the CLI
    cli("verify", g)
    assert cli.json("status", g)["undo"]["by"] == sp
    chain = folder.load(g, stop=folder.load(g).seq - 1)
    me = Party(chain, KeyStore(cli.home).secret(op, lambda: ""))
    legal = reading.legal(chain, me)
    reply = me.turn(writing.parse_commands(chain, me, ["pass" if "pass" in legal else legal[0]]))
    (g / folder.turn_name(chain.seq + 1, op)).write_bytes(reply)
    st = cli.json("status", g)
    assert "undo" not in st and st["seq"] >= chain.seq + 1
    assert any("is set aside" in n for n in st["notes"])


def test_own_folders_agree_whichever_order_the_files_arrive_in(tmp_path):
    t = referee_table(tmp_path)
    sp = t.chain().writers()[0]
    t.submit(sp, t.legal(sp)[0])
    op = t.chain().writers()[0]
    # the race: op replies in its folder while sp asks for an undo in its own
    request = writing.undo(t.dirs[sp], sp, "request", t.keys[sp])
    reply = writing.submit(t.dirs[op], op, ["pass" if "pass" in t.legal(op) else t.legal(op)[0]], t.keys[op])
    mail = tmp_path / "mail"
    mail.mkdir()
    for path in (*request, *reply):  # what each sends (its own copy may be moved aside later)
        (mail / path.name).write_bytes(path.read_bytes())
    request, reply = [mail / p.name for p in request], [mail / p.name for p in reply]
    for who, d in t.dirs.items():
        notes: list[str] = []
        for files in {sp: [reply], op: [request]}.get(who, [request, reply]):  # the request first, where it can be
            receiving.apply_files(d, files, notes=notes)
        assert any("set aside" in n or "stands over" in n for n in notes), (who, notes)
    heads = {who: folder.load(d).head for who, d in t.dirs.items()}
    assert len(set(heads.values())) == 1, heads
    assert codec.read_envelope((t.dirs[sp] / reply[0].name).read_bytes()).by == op
    for d in t.dirs.values():
        opening.verify(d)
    assert folder.load(t.dirs[sp]).undo_pending is None
    t.settle()
    if t.chain().writers():  # and the game goes on from the reply, in every folder (unless it hit the assassin)
        nxt = t.chain().writers()[0]
        assert t.legal(nxt), (nxt, t.chain().needs(nxt), turns.status(t.chain(nxt)), t.chain().records[-1].by)
        t.submit(nxt, t.legal(nxt)[0])
    assert len({folder.load(d).head for d in t.dirs.values()}) == 1
