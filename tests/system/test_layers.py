"""The layers of `pbem/`: which package may import which, and no import cycle.

Read from the source alone (every ``import`` in every module, those inside
functions and under ``TYPE_CHECKING`` included), so an import hidden in a
function cannot carry an arrow the wrong way. The table is the architecture
in one place: a lower layer never imports a higher one, and `games/` imports
none of the others (its third-party purity is `test_package`'s check)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path
import paths

ROOT = paths.ROOT / "pbem"

#: the top-level modules that are not a layer's: leaves every layer may use
#: (`errors`, `safetext`, `fsio`, the package itself) and the entry points
SHARED = {"pbem", "pbem.errors", "pbem.safetext", "pbem.fsio"}
ENTRY = {"pbem.__main__", "pbem.schemas"}

#: layer: the layers its modules may import, besides their own and SHARED
#: (lowest first; each row names everything it needs, so the table shows
#: the whole reach of a layer)
LAYERS: dict[str, set[str]] = {
    "games": set(),
    "crypto": set(),
    "transport": set(),
    "render": {"games"},
    "protocol": {"crypto", "games"},
    "home": {"crypto", "games", "protocol"},
    "gamedir": {"crypto", "games", "protocol", "home"},
    "app": {"crypto", "games", "protocol", "home", "gamedir", "transport", "render"},
    "cli": {"crypto", "games", "protocol", "home", "gamedir", "transport", "render", "app"},
    "entry": {"crypto", "games", "protocol", "home", "gamedir", "transport", "render", "app", "cli"},
}


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package."""
    out = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules `name` imports anywhere in its source.

    ``from P import x`` is an import of ``P.x`` when that is a module, and
    always of ``P`` (its ``__init__`` runs first)."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in statements(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def statements(body: list[ast.stmt]):
    """Every statement, at any depth (in functions, classes, branches,
    ``try`` and ``with`` blocks): an import is a statement, so expressions
    need not be walked (which keeps the whole package's check under a second)."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, ()):
                yield from statements([child] if isinstance(child, ast.stmt) else child.body)


@functools.cache
def graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def layer(module: str) -> str | None:
    """The layer of a module; None for a loose top-level module, which has none."""
    if module in SHARED:
        return "shared"
    if module in ENTRY:
        return "entry"
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS):
        return parts[1] if parts[1] in LAYERS else None
    return None


def violations(imports_of: dict[str, set[str]]) -> list[str]:
    out = []
    for module, targets in sorted(imports_of.items()):
        own = layer(module)
        if own is None:
            out.append(f"{module} is in no layer")
            continue
        allowed = {own} if own == "shared" else {own, "shared", *LAYERS[own]}
        for target in sorted(targets):
            if layer(target) not in allowed:
                out.append(f"{module} ({own}) imports {target} ({layer(target)})")
    return out


def cycles(imports_of: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's
    algorithm, iterative), each sorted; a package whose ``__init__`` re-exports
    its own modules is not one (importing the package runs them in order)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(imports_of):
        if start in index:
            continue
        work = [(start, iter(sorted(imports_of[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(imports_of.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    comp.sort()
                    if len(comp) > 1 and not all(m.startswith(comp[0] + ".") for m in comp[1:]):
                        found.append(comp)
    return found


def test_every_import_follows_the_layer_table():
    bad = violations(graph())
    assert not bad, "imports against the layer table (tests/system/test_layers.py):\n" + "\n".join(bad)


def test_no_import_cycle_anywhere():
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_layer_is_a_package_with_its_docstring():
    for name in LAYERS.keys() - {"entry"}:
        init = ROOT / name / "__init__.py"
        assert init.is_file(), f"pbem/{name}/ is not a package"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"pbem/{name}/__init__.py says nothing"


def test_the_checks_find_what_they_look_for(tmp_path):
    """A cycle through an import inside a function, and an arrow upwards, are both found."""
    pkg = tmp_path / "pbem"
    for rel, text in {
        "__init__.py": "",
        "protocol/__init__.py": "",
        "protocol/chain.py": "def f():\n    from pbem.app import turns\n",
        "app/__init__.py": "",
        "app/turns.py": "from pbem.app.actions import x\n",
        "app/actions.py": "from ..protocol import chain\nx = 1\n",
        "loose.py": "",
    }.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    found = graph(pkg)
    assert cycles(found) == [["pbem.app.actions", "pbem.app.turns", "pbem.protocol.chain"]]
    assert violations(found) == ["pbem.loose is in no layer",
                                 "pbem.protocol.chain (protocol) imports pbem.app (app)",
                                 "pbem.protocol.chain (protocol) imports pbem.app.turns (app)"]
