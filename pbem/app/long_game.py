"""The long-game commands (`pbem resign`, `pause`, `timeout`, `handover`)
as one shape: write the seat's file (`pbem.app.long_play`,
`writing.handover`), and say whom it must reach (`sending.send_line`),
so that each command only prints a `Written`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, NamedTuple


class Written(NamedTuple):
    files: list[Path]
    notes: list[str]
    #: whom the files must reach, in words (None: nobody, a hotseat game)
    send: str | None


def _written(folder: Path, name: str, write: Callable[[list[str]], list[Path]]) -> Written:
    from pbem.app import sending

    said: list[str] = []
    files = write(said)
    return Written(files, said, sending.send_line(folder, files, name))


def resign(folder: Path, name: str, keys: Any, note: str = "") -> Written:
    from pbem.app import long_play

    return _written(folder, name, lambda said: long_play.resign(folder, name, keys, note, said))


def pause(folder: Path, name: str, keys: Any, start: str, end: str) -> Written:
    from pbem.app import long_play

    return _written(folder, name, lambda said: long_play.pause(folder, name, keys, start, end, said))


def timeout(folder: Path, name: str, keys: Any, seat: str | None = None) -> Written:
    from pbem.app import long_play

    return _written(folder, name, lambda said: long_play.timeout(folder, name, keys, seat, said))


def handover(folder: Path, name: str, keys: Any, to: str, seat: str | None = None) -> Written:
    from pbem.app import writing

    return _written(folder, name, lambda said: writing.handover(folder, name, to, keys, seat=seat, notes=said))


def accept(folder: Path, name: str, keys: Any, seat: str, address: str | None = None,
           output: Path | None = None) -> Written:
    """`pbem handover accept`: the newcomer's signed acceptance of a seat."""
    from pbem.app import handing

    done = handing.accept(folder, name, keys, seat, address, output)
    return Written([done.path], [], done.send)
