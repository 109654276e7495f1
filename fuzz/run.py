"""Coverage-guided fuzzing of every pbem parser with atheris (libFuzzer).

The targets are those of the property tests (tests/fuzzing.py): identity
file, key file, genesis, turn, state.pbem, and every game's command notation.
An input either parses or raises a PbemError; anything else is a crash,
which libFuzzer saves as ``crash-<hash>`` in the current directory.

    pip install atheris                                   # Linux x86_64 wheels; optional
    python fuzz/run.py -max_total_time=10                 # every target (CI runs this)
    python fuzz/run.py -max_total_time=3600               # by hand, an hour
    python fuzz/run.py --target genesis -max_total_time=600 [CORPUS_DIR]

Without --target the first byte of an input chooses the target. The run
starts from valid files of a real game (written to a temporary corpus
unless a corpus directory is given). ``--allow NAME`` treats an exception
class as a clean refusal (the CI test allows RecursionError until nesting
depth is limited before parsing, issue #7 part 5).
"""

from __future__ import annotations

import builtins
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import atheris  # noqa: E402

with atheris.instrument_imports(include=["pbem", "fuzzing", "tamper"]):
    import fuzzing  # noqa: E402
    from pbem.errors import PbemError  # noqa: E402

NAMES = sorted(fuzzing.TARGETS)


def main() -> None:
    argv = list(sys.argv)
    target = None
    allowed: tuple[type, ...] = (PbemError,)
    for flag in ("--target", "--allow") * 4:
        if flag in argv:
            i = argv.index(flag)
            value = argv.pop(i + 1)
            del argv[i]
            if flag == "--target":
                target = value
            else:
                allowed += (getattr(builtins, value),)
    fuzzing.seeds()  # build the real games before fuzzing (not timed per input)
    if not any(not a.startswith("-") for a in argv[1:]):
        corpus = Path(tempfile.mkdtemp(prefix="pbem-corpus-"))
        for name, datas in fuzzing.seeds().items():
            if target in (None, name):
                for n, data in enumerate(datas):
                    prefix = b"" if target else bytes([NAMES.index(name)])
                    (corpus / f"{name}-{n}").write_bytes(prefix + data)
        argv.append(str(corpus))

    def one_input(data: bytes) -> None:
        if target:
            name = target
        else:
            if not data:
                return
            name, data = NAMES[data[0] % len(NAMES)], data[1:]
        try:
            fuzzing.TARGETS[name](data)
        except allowed:
            pass

    atheris.Setup(argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
