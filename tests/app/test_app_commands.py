"""Library functions the commands call (`pbem.app`), where no command test
reaches them: a folder's facts in words, and the referee's mail rounds."""

from __future__ import annotations

import shutil
from pathlib import Path

from pbem.app import opening
from pbem.app import info, mailbox
from pbem.home.store import KeyStore
from paths import ROOT



def test_a_referee_folder_in_words(tmp_path: Path):
    game = tmp_path / "game"
    shutil.copytree(ROOT / "examples" / "agent-avenue-referee" / "game", game)
    described = info.describe(str(game))
    lines = info.lines(described)
    assert lines[0].startswith("Agent Avenue, game ") and f"dealer referee ({described['dealer']['name']})" in lines[0]
    assert lines[1] == "seats: " + ", ".join(s["name"] for s in described["seats"])
    described["handed_over"] = {"bob": {"seq": 7, "to": "carol", "fingerprint": "ABCD"}}
    assert info.lines(described)[-1] == "note: seat bob was handed over to carol (ABCD) at seq 7"
    assert info.lines(info.describe("aa"))[0].startswith("Agent Avenue")  # a game's name: its options


def test_referee_mail_rounds_go_on_until_ctrl_c_while_waiting(tmp_path: Path):
    """`--every`: a round, a wait, a round, ... until Ctrl-C in the wait;
    the passphrase is asked once for all rounds."""
    said: list[tuple[str, bool]] = []
    waits: list[float] = []
    asked: list[str] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            raise KeyboardInterrupt

    def ask(who: str = "") -> str:
        asked.append(who)
        return ""

    keys = opening.Keys(KeyStore(tmp_path / "home"), ask)
    errors = mailbox.referee(tmp_path, "rita", keys, lambda prompt: "", None, 30.0, 75,
                              lambda line, err=False: said.append((line, err)), sleep=sleep)
    assert errors == [] and waits == [30.0] * 3
    assert said == [(f"no game under {tmp_path} has rita as its referee", False)] * 3
    assert keys.passphrase("rita") == keys.passphrase("rita") == "" and asked == ["rita"]
