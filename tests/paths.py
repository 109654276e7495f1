"""Where things are, for test files at any depth under `tests/`: the
checkout's root and the recorded vectors (a test file moved to another
folder keeps finding them)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
VECTORS = TESTS / "vectors"
