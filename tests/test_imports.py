"""The package's import graph has no cycles: every ``import`` of an optsched module, at module level
or inside a function (a lazy import hides a cycle, it does not remove it), except those under
``if TYPE_CHECKING:``, which never run."""

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1] / "optsched"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, known: set[str]) -> set[str]:
    """The optsched modules ``path`` imports (``from . import x`` counts as module ``x`` when it is one,
    as the package otherwise)."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    skipped = {id(node) for guard in ast.walk(tree) if isinstance(guard, ast.If)
               and ast.unparse(guard.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
               for stmt in guard.body for node in ast.walk(stmt)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
            for alias in node.names:  # a submodule by name, else a name the package itself defines
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target)
    return {name for name in found if name in known and name != here}


def import_graph() -> nx.DiGraph:
    paths = sorted(ROOT.rglob("*.py"))
    known = {module_name(p) for p in paths}
    graph = nx.DiGraph()
    for path in paths:
        graph.add_node(module_name(path))
        graph.add_edges_from((module_name(path), target) for target in imported_modules(path, known))
    return graph


def test_the_graph_sees_imports_of_every_kind():
    graph = import_graph()
    assert ("optsched.cli", "optsched.registry") in graph.edges  # module level
    assert ("optsched.registry", "optsched.pipeline") in graph.edges  # inside a method
    assert ("optsched.pipeline", "optsched.registry") not in graph.edges  # TYPE_CHECKING only


def test_the_package_has_no_import_cycles():
    cycles = list(nx.simple_cycles(import_graph()))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join([*c, c[0]]) for c in sorted(cycles, key=len)[:10])
