"""The card data: every key known and every named function registered
(`datacheck`); names and numbers are the facts of the card database, and
no card's words are the publisher's printed text (checked against the
database where it is at hand, ``../shared/codex_data/raw_data``)."""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

from pbem.games.codex import cards, datacheck
from paths import ROOT

RAW = ROOT.parent / "shared" / "codex_data" / "raw_data"
if not RAW.is_dir():
    RAW = Path("/work/shared/codex_data/raw_data")


def test_the_data_has_no_problems():
    assert datacheck.problems() == []


def test_a_mistake_in_a_card_is_reported_with_its_name():
    names = cards.add("neutral", {"Test Typo": {"type": "unit", "cost": 1, "atk": 1, "hp": 1, "text": "",
                                                "abilities": [{"on": "arrives", "do": [{"damag": 1, "to": "self"}]}]},
                                  "Test Typo 2": {"type": "unit", "cost": 1, "atk": 1, "hp": 1, "text": "",
                                                  "abilities": [{"static": {"to": {"sides": "mine"}, "atk": 1}}]}})
    try:
        found = datacheck.problems()
        assert any(p.startswith("Test Typo:") and "unknown effect 'damag'" in p for p in found)
        assert any(p.startswith("Test Typo 2:") and "sides" in p for p in found)
    finally:
        cards.remove(names)


def _raw() -> dict[str, dict]:
    if not RAW.is_dir():
        pytest.skip("the card database is not at hand")
    out = {}
    for f in RAW.glob("*.json"):
        if f.stem in ("rulings", "maps"):
            continue
        for c in json.loads(f.read_text()):
            out.setdefault(c["name"], c)
    return out


def test_names_and_numbers_are_the_card_databases():
    raw = _raw()
    for name, c in cards.CARDS.items():
        if name.startswith("Test ") or name not in raw:
            continue
        r = raw[name]
        if c.type == "hero":
            bands = [(b["from"], b["atk"], b["hp"]) for b in c.bands]
            assert bands == [(1, r["ATK_1"], r["HP_1"]), (r["mid_level"], r["ATK_2"], r["HP_2"]),
                             (r["max_level"], r["ATK_3"], r["HP_3"])], name
            assert c.cost == r["cost"] and c.spec == r["spec"], name
            continue
        assert c.cost == r.get("cost", 0), name
        if c.type in ("unit", "token"):
            assert (c.atk, c.hp) == (r["ATK"], r["HP"]), name
        if c.type == "building":
            assert c.hp == r["HP"], name
        if "tech_level" in r and c.type != "spell":
            assert c.tech == r["tech_level"], name
        assert c.spec == (r.get("spec") or ""), name
        assert " ".join(c.subtypes) == (r.get("subtype") or ""), name
        assert c.legendary == r["type"].startswith("Legendary"), name
        assert c.ultimate == ("Ultimate" in r["type"]), name


def test_no_card_copies_the_printed_words():
    raw = _raw()
    for name, c in cards.CARDS.items():
        if name not in raw:
            continue
        r = raw[name]
        printed = " ".join(r.get(k, "") for k in r if k.startswith(("rules_text", "base_text", "mid_text", "max_text")))
        ours = c.text if c.type != "hero" else " ".join(b["text"] for b in c.bands)
        printed, ours = re.sub(r"\\s+", " ", printed.lower()), re.sub(r"\\s+", " ", ours.lower())
        m = difflib.SequenceMatcher(None, printed, ours, autojunk=False).find_longest_match()
        # a short plain phrase ("a tech 0 or tech I unit") may match; a sentence may not
        assert m.size < 28, f"{name}: {ours[m.b:m.b + m.size]!r} is the printed wording"


def test_no_card_is_named_in_the_core():
    """The engine, combat and rules read what cards do from their data: no
    string in the core modules is a card's name (per-colour modules in
    ``abilities/`` may name the cards they serve)."""
    import ast

    import pbem.games.codex as package

    core = Path(package.__file__).parent
    names = set(cards.CARDS) | {s["hero"] for s in cards.SPECS.values()} | {n for s in cards.SPECS.values()
                                                                             for n in s["cards"]}
    for path in sorted(core.glob("*.py")):
        tree = ast.parse(path.read_text())
        doc_nodes = {id(n.body[0].value) for n in ast.walk(tree)
                     if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                     and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in doc_nodes:
                assert node.value not in names, f"{path.name}:{node.lineno} names the card {node.value!r}"
