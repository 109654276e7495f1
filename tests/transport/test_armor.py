"""Armored text (`pbem armor`, `pbem dearmor`, `pbem apply` of texts and
mails): every kind of damage a mail client does, and a damaged block named."""

from __future__ import annotations

import base64
import mailbox
import shutil
import textwrap
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

import hostile_mail
from conftest import snapshot
from pbem.transport import armor


#: after the two joins and the referee's deal (files 1 to 3)
PLAY, ANSWER = "000004-alice.pbem", "000005-rita.pbem"


@pytest.fixture
def game(pbem, tmp_path):
    """A referee game with two turn files, and a second folder that holds
    only the genesis (as a player who has received nothing yet)."""
    a, b = tmp_path / "a", tmp_path / "b"
    pbem("new", "aa", a, "--seat", "alice", "--seat", "bob", "--dealer", "referee", "--referee", "rita")
    b.mkdir()  # b has the joins and the deal (files 1 to 3), not the play that follows
    for path in sorted(a.glob("00000[0-3]-*.pbem")):
        shutil.copy(path, b)
    play = next(c for c in pbem.json("legal", a, "--as", "alice") if c.startswith("play "))
    pbem("submit", a, "--as", "alice", "--cmd", play)
    pbem("sync", a, "--as", "rita")
    files = [a / PLAY, a / ANSWER]
    return a, b, files


def rewrap(text: str, width: int) -> str:
    """What a mail client's "rewrap" does: each paragraph refilled to
    `width`, long words broken, breaking at hyphens too."""
    paragraphs = text.split("\n\n")
    return "\n\n".join(textwrap.fill(p, width, break_long_words=True) for p in paragraphs)


def quote(text: str, depth: int) -> str:
    """Quoted as replies quote, with the trailing space stripped on blank lines."""
    prefix = "> " * depth
    return "\n".join((prefix + line).rstrip() for line in text.split("\n"))


DAMAGE = {
    "plain": lambda t: t,
    "quoted-1": lambda t: quote(t, 1),
    "quoted-2": lambda t: quote(t, 2),
    "quoted-3-tight": lambda t: "\n".join(">>>" + l for l in t.split("\n")),
    "rewrapped-50": lambda t: rewrap(t, 50),
    "rewrapped-72": lambda t: rewrap(t, 72),
    "quoted-rewrapped": lambda t: quote(rewrap(t, 50), 2),
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "trailing-spaces-stripped": lambda t: "\n".join(l.rstrip() for l in t.replace("\n", "  \n").split("\n")),
    "indented": lambda t: "\n".join("    " + l for l in t.split("\n")),
    "greeting-and-signature": lambda t: f"Hi Bob,\nhere is my turn, good luck!\n\n{t}\nCheers,\n-- \nAlice\n",
}


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_armor_survives_mail_damage(pbem, game, tmp_path, kind):
    a, b, files = game
    text = pbem("armor", *files).stdout
    assert text.count(armor.BEGIN) == 2
    assert all(len(line) <= 64 for line in text.splitlines())
    pasted = tmp_path / "mail.txt"
    pasted.write_bytes(DAMAGE[kind](f"Dear all,\n\n{text}\n-- \nalice").encode())
    out = tmp_path / "out"
    written = pbem("dearmor", pasted, "--into", out).stdout.split()
    assert [Path(p).name for p in written] == [PLAY, ANSWER]
    for f in files:
        assert (out / f.name).read_bytes() == f.read_bytes()
    applied = pbem("apply", b, pasted).stdout.split()
    assert [Path(p).name for p in applied] == [PLAY, ANSWER]
    assert snapshot(a) == snapshot(b)


def test_header_lines_name_game_seq_and_writer(pbem, game):
    _, _, files = game
    text = pbem("armor", files[1]).stdout
    head = text.split("\n\n")[0].splitlines()
    assert head[0] == armor.BEGIN
    assert "Game: agent-avenue" in head and "Seq: 5" in head and "Writer: rita" in head
    assert text.rstrip("\n").endswith(armor.END)
    assert armor.find_blocks(rewrap(text, 30), "x")[0][0].headers["Game"] == "agent-avenue"


def test_dearmor_to_standard_output(pbem, game, tmp_path):
    _, _, files = game
    pasted = tmp_path / "t.txt"
    pasted.write_text(quote(pbem("armor", files[0]).stdout, 1))
    assert pbem("dearmor", pasted).stdout_bytes == files[0].read_bytes()
    assert pbem("dearmor", "-", input=pasted.read_text()).stdout_bytes == files[0].read_bytes()


def _flip_one_letter(text: str, block: int) -> str:
    """Change one base64 letter in the `block`-th block (1-based)."""
    lines = text.split("\n")
    seen = 0
    for i, line in enumerate(lines):
        seen += line == armor.BEGIN
        if seen == block and len(line) == 64:
            lines[i] = line[:10] + ("A" if line[10] != "A" else "B") + line[11:]
            return "\n".join(lines)
    raise AssertionError("no full base64 line")


def test_a_bad_checksum_is_named_and_the_other_block_applied(pbem, game, tmp_path):
    a, b, files = game
    text = pbem("armor", *files).stdout
    pasted = tmp_path / "mail.txt"
    pasted.write_text(_flip_one_letter(text, 2))
    before = snapshot(b)
    err = pbem.fails("dearmor", pasted, "--into", tmp_path / "out").stderr
    assert "mail.txt, block 2 (seq 5 by rita) failed its checksum" in err
    assert not (tmp_path / "out").exists()  # dearmor: all or none
    assert snapshot(b) == before
    result = pbem.fails("apply", b, pasted)
    assert "block 2 (seq 5 by rita) failed its checksum" in result.stderr
    assert (b / PLAY).read_bytes() == files[0].read_bytes()  # the good one is in
    assert not (b / ANSWER).exists()


def test_cut_short_and_garbled_blocks_are_named(pbem, game, tmp_path):
    _, _, files = game
    text = pbem("armor", files[0]).stdout
    cut = tmp_path / "cut.txt"
    cut.write_text(text.split(armor.END)[0][:-30])
    assert "block 1" in pbem.fails("dearmor", cut).stderr
    nochecksum = tmp_path / "nock.txt"
    nochecksum.write_text("\n".join(l for l in text.split("\n") if not l.startswith("=")))
    assert "checksum line (=XXXX) is missing" in pbem.fails("dearmor", nochecksum).stderr
    nothing = tmp_path / "hello.txt"
    nothing.write_text("Hello, no file here\n")
    assert "holds no pbem file and no armored block" in pbem.fails("dearmor", nothing).stderr


def _mail(text: str, attach: dict[str, bytes] | None = None, cte: str = "quoted-printable") -> EmailMessage:
    attach = attach or {}
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "alice@example.org", "bob@example.org", "agent-avenue: seq 1"
    msg.set_content(text, cte=cte)
    for name, data in attach.items():
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_eml_with_the_block_in_the_body(pbem, game, tmp_path, cte):
    a, b, files = game
    body = "Hi Bob,\n\n" + quote(pbem("armor", *files).stdout, 1) + "\nAlice\n"
    eml = tmp_path / "turn.eml"
    eml.write_bytes(_mail(body, cte=cte).as_bytes().replace(b"\n", b"\r\n"))
    assert [Path(p).name for p in pbem("apply", b, eml).stdout.split()] == [PLAY, ANSWER]
    assert snapshot(a) == snapshot(b)


def test_eml_with_the_file_attached_and_armored_in_the_body(pbem, game, tmp_path):
    a, b, files = game
    body = "My turn.\n\n" + pbem("armor", files[0]).stdout
    eml = tmp_path / "turn.eml"
    eml.write_bytes(_mail(body, {f.name: f.read_bytes() for f in files}).as_bytes())
    out = tmp_path / "out"
    result = pbem("dearmor", eml, "--into", out)
    assert result.stderr == ""  # the body's block and its attachment are one file: the normal case, said nothing of
    assert sorted(p.name for p in out.iterdir()) == [PLAY, ANSWER]
    result = pbem("apply", b, eml)
    assert result.stderr == "" and len(result.stdout.split()) == 2
    assert snapshot(a) == snapshot(b)


def test_an_html_part_is_searched_too(pbem, game, tmp_path):
    a, b, files = game
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "alice@example.org", "turn"
    block = pbem("armor", files[0]).stdout
    msg.set_content("<html><body><p>Hi</p><pre>" + block.replace("\n", "<br>\n") + "</pre></body></html>", subtype="html")
    eml = tmp_path / "turn.eml"
    eml.write_bytes(msg.as_bytes())
    assert pbem("dearmor", eml).stdout_bytes == files[0].read_bytes()


def test_mbox_with_several_messages(pbem, game, tmp_path):
    a, b, files = game
    path = tmp_path / "saved.mbox"
    box = mailbox.mbox(str(path))
    box.add(_mail("Unrelated mail, nothing in it.\nFrom here on, nothing.\n"))
    box.add(_mail("turn two\n\n" + quote(pbem("armor", files[1]).stdout, 2)))
    box.add(_mail("turn one\n\n" + pbem("armor", files[0]).stdout))
    box.close()
    assert [Path(p).name for p in pbem("apply", b, path).stdout.split()] == [PLAY, ANSWER]
    assert snapshot(a) == snapshot(b)
    pbem("apply", b, path)  # twice: harmless
    assert snapshot(a) == snapshot(b)


def test_crc24_is_openpgps():
    # RFC 4880's CRC-24 of the empty string is its initial value; the check
    # value of "123456789" for CRC-24/OpenPGP is 0x21CF02
    assert armor.crc24(b"") == 0xB704CE
    assert armor.crc24(b"123456789") == 0x21CF02
    assert armor.checksum_word(b"123456789") == "=" + base64.b64encode(bytes.fromhex("21cf02")).decode()


def test_armor_refuses_what_is_not_a_pbem_file(pbem, tmp_path):
    junk = tmp_path / "x.pbem"
    junk.write_text("hello\n")
    err = pbem.fails("armor", junk).stderr
    assert "x.pbem" in err


# --- what a stranger's text or mail can do (issue #20) ---------------------------------------------


def cpu_seconds(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def test_the_text_readers_take_one_pass():
    """512 KiB of unclosed BEGIN lines took 7 s of CPU, an HTML part of
    200,000 ``<`` 37 s (each doubling of the text quadrupled it); one pass
    over each takes a tenth of a second."""
    text = hostile_mail.unclosed_begins(512 << 10)
    assert cpu_seconds(lambda: armor.find_blocks(text, "x")) < 2
    mail = hostile_mail.html_of_lt(200_000)
    assert cpu_seconds(lambda: armor.find_in_bytes(mail, "x.eml")) < 2


def test_a_mail_nested_too_deep_is_named_and_the_mails_beside_it_read(pbem, game, tmp_path):
    a, b, files = game
    path = tmp_path / "saved.mbox"
    box = mailbox.mbox(str(path))
    box.add(hostile_mail.nested(2000))
    box.add(_mail("my turn\n\n" + pbem("armor", *files).stdout))
    box.close()
    r = pbem("apply", b, path, ok=False)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "saved.mbox, message 1 holds more than 100 nested MIME parts: not read" in r.stderr, r.stderr
    assert snapshot(a) == snapshot(b)  # the honest mail beside it is applied
    deep = tmp_path / "deep.eml"
    deep.write_bytes(hostile_mail.nested(2000))
    assert "deep.eml holds more than 100 nested MIME parts" in pbem.fails("dearmor", deep).stderr
