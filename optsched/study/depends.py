"""What a unit of work depends on, hashed: the code version in every cache key (units.py).

A cached result is reused as long as the code it ran did not change, and only that code: a
reference solve depends on its formulation, the solver layer and the verifier (``best`` and a
cross-checked one on every exact formulation of its family, since either may solve any of them); a
relaxation on the formulation whose LP it is (runner.py names it per instance) and the family's
bound route; an algorithm run on that algorithm and what it calls. An edit to the CLI, the report,
another family, another algorithm, a comment or a docstring changes no key.

How the code a unit runs is found, statically (:mod:`ast`, nothing is imported):

* **A root function** (a family's registered function, named by its :class:`~optsched.registry.Lazy`
  target, or a reproduction's task function) is followed name by name inside its own module: the
  function's definition, the module-level definitions and assignments its names reach, and what
  those reached definitions import. Other functions of the same module are left out, so an edit to
  ``fifo`` in ``baselines.py`` does not touch ``drf``'s results.
* **Imports**: ``from M import name`` is followed the same way, name by name, into ``M``; a module
  imported as a whole (``import M``, ``from . import M``) counts whole, with everything it imports.
* **Dynamic look-ups** through the registry in the code a root function reaches:
  ``get("oasis").run(instance, "rrh")`` (or ``.algorithm("rrh")``, ``.formulation("milp")``) brings
  in that one function with the family's verifier and objective, ``get("oasis").judge(...)`` and
  ``judge(get("oasis"), ...)`` the verifier and objective alone, ``run_verified(get("oasis"), ...)``
  (the reproduction kit's, whose method is data) every algorithm of the family with them; any other
  use of ``get("oasis")``
  (kept in a variable, a name that is not a literal) the whole family, and a look-up by a variable
  every family.
  Whole imported modules are not searched for them: the registry, the pipeline and the unit runner
  take the family as data, and a study unit names its family's functions as roots itself.
* Each definition counts by its syntax tree without docstrings, so comments, docstrings and
  formatting never change a key.

The digest also carries optsched's version, and a unit's key carries the solver versions where it
solves (units.py).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .. import __version__, plugins
from ..pipeline import BEST, judging_functions
from ..registry import Lazy, family_packages, get

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "optsched"
#: Modules every study unit runs through: the unit itself (its record), the pipeline (decode,
#: verify, objective) and the solver layer.
UNIT_MODULES = ("optsched.study.units", "optsched.pipeline", "optsched.solvers")


@cache
def _file_of(module: str) -> Path | None:
    """The source file of an optsched module (a package's ``__init__.py``), or None."""
    if module != PACKAGE and not module.startswith(PACKAGE + "."):
        return None
    parts = module.split(".")[1:]
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py") if parts else None, base / "__init__.py"):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


@cache
def _tree(module: str) -> ast.Module:
    """The module's syntax tree, without docstrings."""
    path = _file_of(module)
    if path is None:
        raise LookupError(f"no optsched module {module}")
    return _strip_docstrings(ast.parse(path.read_text(encoding="utf-8"), str(path)))


def _is_package(module: str) -> bool:
    path = _file_of(module)
    return path is not None and path.name == "__init__.py"


def _strip_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with the docstrings of its module, classes and functions removed (in place)."""
    for item in ast.walk(tree):
        body = getattr(item, "body", None)
        if (isinstance(item, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            item.body = body[1:] or [ast.Pass()]
    return tree


@cache
def _statement_digests(module: str) -> dict[tuple[int, int], str]:
    """The digest of each module-level statement, by where it starts."""
    return {(stmt.lineno, stmt.col_offset): hashlib.sha256(ast.dump(stmt).encode()).hexdigest()
            for stmt in _tree(module).body}


def _digest_of(module: str, statements: Iterable[ast.stmt]) -> str:
    digests = _statement_digests(module)
    ordered = _in_order(statements)
    return hashlib.sha256("".join(digests[stmt.lineno, stmt.col_offset] for stmt in ordered).encode()).hexdigest()


@dataclass(frozen=True)
class _Facts:
    """What one statement refers to, read in one walk of its tree."""

    names: frozenset[str]  #: every name it uses or binds
    imports: tuple[ast.Import | ast.ImportFrom, ...]  #: its import statements, nested ones included
    lookups: frozenset[str]  #: the ``"module:qualname"`` targets its registry look-ups run (:func:`_lookup`)


@cache
def _facts(stmt: ast.AST) -> _Facts:
    names: set[str] = set()
    imports: list[ast.Import | ast.ImportFrom] = []
    lookups: set[str] = set()
    parents = {child: node for node in ast.walk(stmt) for child in ast.iter_child_nodes(node)}
    for item in ast.walk(stmt):
        if isinstance(item, ast.Name):
            names.add(item.id)
        elif isinstance(item, (ast.Import, ast.ImportFrom)):
            imports.append(item)
        elif isinstance(item, ast.Call) and isinstance(item.func, ast.Name):
            if item.func.id == "families":
                lookups.update(t for family in family_packages() for t in family_targets(family))
            elif item.func.id == "get":
                lookups.update(_lookup(item, parents))
    return _Facts(frozenset(names), tuple(imports), frozenset(lookups))


#: Functions that run only the verifier and objective of the family they are given first:
#: ``pipeline.judge`` and the reproduction kit's ``verified_objective``.
JUDGING_CALLS = ("judge", "verified_objective")
#: Functions that run one of the family's algorithms (which, named by a variable) and judge its
#: schedule: the reproduction kit's ``run_verified``.
RUNNING_CALLS = ("run_verified",)
#: A family's methods that run one named function of it: the method, the position and keyword of the name.
_NAMED = {"run": ("algorithm", 1, "algorithm"), "algorithm": ("algorithm", 0, "name"),
          "formulation": ("formulation", 0, "name")}


def _lookup(call: ast.Call, parents: dict[ast.AST, ast.AST]) -> set[str]:
    """The targets a registry look-up ``get(...)`` runs. ``get("edge").run(instance, "aonline")`` (or
    ``.algorithm("aonline")``, ``.formulation("milp")``) runs that one function and the family's
    judging functions; ``get("edge").judge(...)`` and ``judge(get("edge"), ...)`` (or another of
    :data:`JUDGING_CALLS`) the judging functions alone; ``run_verified(get("edge"), ...)`` (or
    another of :data:`RUNNING_CALLS`) every algorithm of the family and the judging functions.
    Anything else (the family kept in a variable, a name that is not a literal) may run any of the
    family's functions, and ``get(name)`` any family's."""
    arg = call.args[0] if call.args else None
    if not (isinstance(arg, ast.Constant) and arg.value in family_packages()):
        return {t for family in family_packages() for t in family_targets(family)}
    family = get(arg.value)
    judging = {_target(f) for f in judging_functions(family)}
    parent = parents.get(call)
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is call:
        called = _called(parent)
        if called in JUDGING_CALLS:
            return judging
        if called in RUNNING_CALLS:
            return judging | {_target(a.run) for a in family.algorithms.values()}
    outer = parents.get(parent) if isinstance(parent, ast.Attribute) else None
    if not (isinstance(parent, ast.Attribute) and isinstance(outer, ast.Call) and outer.func is parent):
        return set(family_targets(arg.value))
    if parent.attr == "judge":
        return judging
    if parent.attr in _NAMED:
        kind, position, keyword = _NAMED[parent.attr]
        given = [k.value for k in outer.keywords if k.arg == keyword]
        name = outer.args[position] if len(outer.args) > position else given[0] if given else None
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            if kind == "algorithm" and name.value in family.algorithms:
                return judging | {_target(family.algorithms[name.value].run)}
            if kind == "formulation" and name.value in family.formulations:
                return judging | {_target(family.formulations[name.value].build)}
    return set(family_targets(arg.value))


def _called(call: ast.Call) -> str:
    """The name a call calls: ``judge`` for ``judge(...)`` and ``pipeline.judge(...)`` ("" for others)."""
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def family_targets(family: str) -> tuple[str, ...]:
    """The ``"module:qualname"`` of every function a family registers for running (generator,
    reader, verifier, formulations, algorithms, theorems, checks, search space; its reproductions
    are not code that a look-up of the family runs)."""
    fam = get(family)
    functions = [fam.generator, fam.instance_from_dict, fam.schedule_from_dict, *judging_functions(fam),
                 *(f.build for f in fam.formulations.values()), *(a.run for a in fam.algorithms.values()),
                 *(a.theorem for a in fam.algorithms.values() if a.theorem is not None),
                 *(c.slack for c in fam.checks.values()), fam.space]
    return tuple(sorted({_target(function) for function in functions}))


@cache
def _module_digest(module: str) -> str:
    return _digest_of(module, _tree(module).body)


def _binding_imports(module: str, stmt: ast.AST, name: str | None) -> tuple[set[tuple[str, str]], set[str]]:
    """What an import statement gives: ``(module, name)`` pairs to follow name by name (``from M
    import f``) and modules to take whole (``import M``, or a submodule imported by name). With
    ``name``, only the alias bound to it counts."""
    follow: set[tuple[str, str]] = set()
    whole: set[str] = set()
    for node in _facts(stmt).imports:
        for alias in node.names:
            bound = (alias.asname or alias.name).split(".")[0]
            if name is not None and bound != name:
                continue
            if isinstance(node, ast.Import):
                if _file_of(alias.name):
                    whole.add(alias.name)
                continue
            base = _resolve(module, node)
            sub = f"{base}.{alias.name}"
            if _file_of(sub):
                whole.add(sub)
            elif _file_of(base):
                follow.add((base, alias.name))
    return follow, whole


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` statement in ``module`` imports from."""
    if not node.level:
        return node.module or ""
    package = module if _is_package(module) else module.rpartition(".")[0]
    parts = package.split(".")
    parts = parts[:len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def _split(target: str) -> tuple[str, str]:
    """``"module:Name.attr"`` -> ``("module", "Name")``: the module and the name it binds."""
    module, _, qualname = target.partition(":")
    return module, qualname.split(".")[0]


def _names(stmt: ast.AST) -> frozenset[str]:
    return _facts(stmt).names


@cache
def closure(module: str) -> frozenset[str]:
    """``module`` and every optsched module it imports, transitively (whole modules)."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for stmt in _tree(current).body:
            follow, whole = _binding_imports(current, stmt, None)
            todo.extend({m for m, _ in follow} | whole)
    return frozenset(seen)


def _top_level(tree: ast.Module) -> tuple[dict[str, list[ast.stmt]], list[ast.stmt]]:
    """Module-level statements by the names they bind, and those that bind none (always run when
    the module is imported, so always counted); typing-only imports and the docstring are left out."""
    binds: dict[str, list[ast.stmt]] = {}
    glue: list[ast.stmt] = []
    for stmt in tree.body:
        names: list[str] = []
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [stmt.name]
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names = [(alias.asname or alias.name).split(".")[0] for alias in stmt.names]
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the module docstring
        elif isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Name) and stmt.test.id == "TYPE_CHECKING":
            continue
        for name in names:
            binds.setdefault(name, []).append(stmt)
        if not names:
            glue.append(stmt)
    return binds, glue


@cache
def _layout(module: str) -> tuple[dict[str, list[ast.stmt]], list[ast.stmt]]:
    return _top_level(_tree(module))


@cache
def reach(module: str, qualname: str) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """What ``module.qualname`` (a module-level name) runs: per module, the digest of the module-level definitions it
    reaches, name by name, across ``from M import name``; and the modules it needs whole."""
    statements: dict[str, dict[int, ast.stmt]] = {}
    whole: set[str] = set()
    seen: set[tuple[str, str]] = set()
    todo = [(module, qualname, True)]
    while todo:
        current, name, strict = todo.pop()
        if (current, name) in seen:
            continue
        seen.add((current, name))
        binds, glue = _layout(current)
        if current not in statements:
            statements[current] = {}
            todo.extend((current, n, False) for stmt in glue for n in _names(stmt))
            for stmt in glue:
                statements[current][id(stmt)] = stmt
        if name not in binds:
            if strict:
                raise LookupError(f"{current} defines no {name}")
            continue
        for stmt in binds[name]:
            new = id(stmt) not in statements[current]
            statements[current][id(stmt)] = stmt
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):  # each name it binds leads elsewhere
                follow, modules = _binding_imports(current, stmt, name)
            elif not new:
                continue
            else:
                follow, modules = _binding_imports(current, stmt, None)
                todo.extend((current, n, False) for n in _names(stmt))
                follow |= {_split(target) for target in _facts(stmt).lookups}
            todo.extend((m, n, False) for m, n in follow)
            for other in modules:
                whole |= closure(other)
    parts = tuple((f"{m}#{qualname if m == module else 'reached'}", _digest_of(m, found.values()))
                  for m, found in sorted(statements.items()))
    return parts, frozenset(whole)


def _in_order(statements: Iterable[ast.stmt]) -> list[ast.stmt]:
    return sorted(statements, key=lambda stmt: (stmt.lineno, stmt.col_offset))


def _combine(parts: Iterable[tuple[str, str]]) -> str:
    digest = hashlib.sha256(__version__.encode())
    for name, part in sorted(set(parts)):
        digest.update(f"{name}={part}\n".encode())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def _foreign(module: str) -> str:
    """:func:`_foreign_digest` of ``module``, as its source file is now (an edit in a long-lived
    process changes the digest)."""
    loaded = sys.modules.get(module)
    origin = getattr(loaded, "__file__", None)
    if origin is None:
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
    if origin is None or not origin.endswith(".py"):
        raise LookupError(f"cannot find the source of module {module}")
    return _foreign_digest(origin, Path(origin).stat().st_mtime_ns)


@cache
def _foreign_digest(origin: str, changed: int) -> str:
    """The digest of a module outside optsched (a test's, or a researcher's task or algorithm, loaded
    from a file by :mod:`optsched.plugins` or imported): its whole source, as it was at ``changed``."""
    return hashlib.sha256(Path(origin).read_bytes()).hexdigest()


def code_of_targets(targets: Iterable[str], modules: Iterable[str] = ()) -> str:
    """The digest of the code ``targets`` (``"module:qualname"``) reach, and of whole ``modules``.
    A target outside optsched counts with its module's whole source and all of optsched's."""
    parts: list[tuple[str, str]] = []
    whole: set[str] = set()
    for module in modules:
        whole |= closure(module)
    for target in targets:
        module, name = _split(target)
        if _file_of(module) is None:
            parts += [(target, _foreign(module)), ("optsched", whole_code())]
            continue
        reached, needed = reach(module, name)
        parts += reached
        whole |= needed
    parts += [(module, _module_digest(module)) for module in whole]
    return _combine(parts)


def _target(function) -> str:
    return function.target if isinstance(function, Lazy) else f"{function.__module__}:{function.__qualname__}"


def code_of(payload: dict) -> str:
    """The code version of a unit (:mod:`units`), from what its payload runs (see the module docstring)."""
    if payload["kind"] == "task":
        return _code_of(payload["kind"], payload["function"], "")
    spec = payload["spec"]
    method = spec["algorithm"] if payload["kind"] == "algorithm" else spec["formulation"]
    return _code_of(payload["kind"], payload["family"], method, bool(spec.get("cross_check")), plugins.stamp(method))


@cache
def _code_of(kind: str, family_or_function: str, method: str, cross_checked: bool = False,
             changed: int | None = None) -> str:
    """The code version of a unit; ``changed`` (a researcher's file's :func:`optsched.plugins.stamp`)
    only keys the cache, so that an edited file is hashed again."""
    if kind == "task":
        return code_of_targets([family_or_function], ["optsched.study.units"])
    family = get(family_or_function)
    roots = [family.instance_from_dict, family.schedule_from_dict, *judging_functions(family)]
    if kind == "algorithm":
        algorithm = family.algorithm(method)
        roots.append(algorithm.run)
        if algorithm.theorem is not None:
            roots.append(algorithm.theorem)
    elif kind == "relaxation" and method != BEST:  # its formulation's LP
        roots.append(family.formulation(method).build)
    elif method == BEST or cross_checked:  # best may name, and a cross-check solve, any exact model
        roots += [f.build for f in family.formulations.values() if f.gives_schedule or f.name == method]
        if family.best is not None:
            roots.append(family.best)
    else:
        roots.append(family.formulation(method).build)
    if kind == "relaxation" and family.bound_route is not None:  # where the LP is refused, the bound route bounds
        roots.append(family.formulation(family.bound_route).build)
    return code_of_targets([_target(root) for root in roots], UNIT_MODULES)


@cache
def whole_code() -> str:
    """optsched's version and a digest of all of its source (docstrings and comments aside): the
    provenance a study records, not a cache key."""
    modules = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join((PACKAGE, *parts))
        modules.append(name.removesuffix(".__init__"))
    return _combine((module, _module_digest(module)) for module in modules)
