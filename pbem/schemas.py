"""Generate `schemas/` (JSON Schema) from the msgspec Structs: ``python -m pbem.schemas``.

The Structs are the single source of truth; a test regenerates the schemas
in memory and fails when the committed files are stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec


def schemas() -> dict[str, dict]:
    """File name -> schema, for every file format and every game's commands."""
    from pbem import games
    from pbem.crypto.keys import IdentityCard
    from pbem.crypto.envelope import Envelope
    from pbem.protocol import formats
    from pbem.protocol.long_parts import Acceptance
    from pbem.app.turns import Row, Status, UnreadableRow

    out = {
        "signed-file.json": formats.SignedFile,
        "genesis-body.json": formats.GenesisBody,
        "turn-body.json": formats.TurnBody,
        "state.json": formats.StateFile,
        "identity-body.json": IdentityCard,
        "acceptance-body.json": Acceptance,
        "envelope.json": Envelope,
        "status.json": Status,
    }
    result = {name: msgspec.json.schema(t) for name, t in out.items()}
    # `status --all --json`: a list of rows, each a game or a folder that
    # cannot be read (two untagged Structs, so the union is written here)
    (row, unreadable), defs = msgspec.json.schema_components([Row, UnreadableRow])
    result["status-all.json"] = {"type": "array", "items": {"anyOf": [row, unreadable]}, "$defs": defs}
    for name in games.shipped():
        game = games.get(name)
        result[f"{name}.command.json"] = msgspec.json.schema(game.info.Command)
        result[f"{name}.options.json"] = msgspec.json.schema(game.info.Options)
    return result


def render(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in sorted(schemas().items()):
        path = folder / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "schemas"
    for path in write(folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
