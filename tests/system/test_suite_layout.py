"""The test tree itself: test files in a folder per layer (tests/README.md),
shared helpers beside conftest.py, and the quick subset's list of slow files
naming files that exist (a renamed or moved file would otherwise drop out of
`-m slow` silently and slow the quick subset down)."""

from __future__ import annotations

from collections import Counter

from conftest import SLOW_FILES
from paths import TESTS

TEST_FILES = sorted(TESTS.rglob("test_*.py"))


def test_every_slow_file_exists():
    names = {p.name for p in TEST_FILES}
    assert sorted(SLOW_FILES - names) == []


def test_test_files_sit_in_layer_folders_under_unique_names():
    # tests/ holds the helpers only; pytest imports a test file by its
    # bare name (there is no __init__.py), so two folders cannot share one
    assert [p.name for p in TEST_FILES if p.parent == TESTS] == []
    assert [n for n, k in Counter(p.name for p in TEST_FILES).items() if k > 1] == []
