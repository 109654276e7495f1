"""`pbem info GAME|DIR`: what a kind of game is (`pbem.app.gameinfo`), or what
one game folder holds: its rules and protocol versions, dealer, seats, who
can know which chance when (`protocol.foresight`), and the seats handed
over. Plain data for `--json`, and the lines a person reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: the first file of every game folder (`protocol.folder.GENESIS`, not
#: imported: telling a folder from a game's name needs no protocol)
_GENESIS = "000000-genesis.pbem"


def describe(what: str) -> dict[str, Any]:
    """`what` is a game folder (it holds a genesis) or the name of a game."""
    folder = Path(what)
    if folder.is_dir() and (folder / _GENESIS).exists():
        return describe_folder(folder)
    from pbem.app import gameinfo

    return gameinfo.describe(what)


def describe_folder(folder: Path) -> dict[str, Any]:
    from pbem.app import opening
    from pbem.protocol.foresight import chance_knowledge

    chain = opening.open_game(folder)
    return {
        "game": chain.game.info.name, "title": chain.game.info.title, "game_id": chain.game_id,
        "rules_version": chain.genesis.rules_version, "protocol_version": chain.genesis.version,
        "dealer": {"mode": chain.dealer_mode, "name": chain.dealer_name},
        "seats": [{"name": s.name, "role": s.role} for s in chain.genesis.seats],
        "chance": chance_knowledge(chain),
        "referee_handover": chain.genesis.referee_handover,
        "handed_over": {seat: {"seq": seq, "to": ident.name, "fingerprint": ident.fingerprint()}
                        for seat, (seq, ident) in chain.handed.items()},
    }


def lines(described: dict[str, Any]) -> list[str]:
    """What `describe` found, in words (a folder's facts, or a game's options)."""
    if "game_id" not in described:
        from pbem.app import gameinfo

        return gameinfo.lines(described)
    dealer = described["dealer"]
    out = [f"{described['title']}, game {described['game_id'][:12]}, rules {described['rules_version']}, "
           f"protocol version {described['protocol_version']}, dealer {dealer['mode']}"
           + (f" ({dealer['name']})" if dealer["mode"] == "referee" else ""),
           "seats: " + ", ".join(s["name"] + (f" ({s['role']})" if s["role"] else "") for s in described["seats"])]
    out += [f"note: {line}" for line in described["chance"]]
    if described["referee_handover"]:
        out.append("note: its referee may hand a vanished seat over to a replacement (the genesis allows it)")
    for seat, h in described["handed_over"].items():
        out.append(f"note: seat {seat} was handed over to {h['to']} ({h['fingerprint']}) at seq {h['seq']}")
    return out
