"""The table of protocol versions (`pbem.protocol.versions`): one place that
says what a version has, and no rule elsewhere that compares numbers."""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest

import pbem
from pbem.errors import FormatError
from pbem.protocol import versions
from pbem.protocol.formats import PROTOCOL_VERSION, GenesisBody

FEATURES = [f.name for f in msgspec.structs.fields(versions.Version) if f.type is bool]


def test_each_version_keeps_every_feature_of_the_one_before():
    numbers = sorted(versions.VERSIONS)
    assert numbers == list(range(1, versions.NEWEST + 1))
    assert not any(getattr(versions.of(1), f) for f in FEATURES)  # version 1: the game as pbem 0.2 played it
    for older, newer in zip(numbers, numbers[1:]):
        for feature in FEATURES:
            assert getattr(versions.of(newer), feature) >= getattr(versions.of(older), feature), (newer, feature)
    for feature in FEATURES:  # every feature is some version's
        assert getattr(versions.of(versions.NEWEST), feature)
        assert versions.first(feature) == min(n for n in numbers if getattr(versions.of(n), feature))


def test_what_each_version_has():
    """The versions as docs/protocol.md tells them."""
    v2, v3, v4 = versions.of(2), versions.of(3), versions.of(4)
    assert v2.contributions and v2.unforeseen_chance and v2.deck_changes and not v2.setup_from_links
    assert v3.modes == ("peer",) and v3.setup_from_links and v3.late_decks and not v3.void_ballots
    assert v4.void_ballots and v4.renewed_beacons and v4.chance_from_every_seat and v4.modes == versions.MODES


def test_pbem_writes_the_newest_and_reads_no_later():
    assert PROTOCOL_VERSION == versions.NEWEST
    with pytest.raises(FormatError, match="unknown"):
        versions.of(versions.NEWEST + 1)
    schema = msgspec.json.schema(GenesisBody)["$defs"]["GenesisBody"]["properties"]["version"]
    assert schema["maximum"] == versions.NEWEST


def _compares_a_version(node: ast.Compare) -> bool:
    operands = [node.left, *node.comparators]
    named = any(isinstance(o, ast.Attribute) and o.attr == "version" for o in operands)
    numbered = any(isinstance(o, ast.Constant) and isinstance(o.value, int) for o in operands)
    about_version = any("version" in ast.unparse(o).lower() for o in operands)
    return named or (numbered and about_version)


def test_no_rule_compares_version_numbers():
    """Every rule that differs by version reads a named feature of the table
    (`chain.version.void_ballots`), never `genesis.version >= 4`: a new
    version is one row of the table, not a hunt through the code."""
    root = Path(pbem.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "versions.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare) and _compares_a_version(node):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)
