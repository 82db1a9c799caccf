"""Tests mirror the code: every source module with behaviour of its own has a test module named
after it (``optsched/edge/schedule.py`` -> ``tests/edge/test_schedule.py``; a package's
``__init__.py`` that defines functions -> ``tests/<package>/test_<package>.py``). The modules
without one are listed here with the reason; the cross-cutting suites (conformance, contract, bad
input, one path, imports) come on top."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "optsched"

#: Modules with no behaviour of their own to test, and where what they hold is exercised.
WITHOUT_TESTS = {
    "errors.py": "exception classes only; every bad-input test matches them",
    "solvers/backend.py": "the record of one backend run and a constant; tests/solvers/test_highs.py and "
                          "test_cbc.py read them",
    "*/mutate.py": "a family's search space is a declaration; tests/search/test_space.py runs every family's",
    "*/strategies.py": "a family's hypothesis strategies; its own tests draw from them, tests/test_strategies.py "
                       "checks them as public",
    "online_views.py": "what online means per family; tests/test_online_property.py and tests/test_testing.py "
                       "run the property through them",
}


def expected_test(path: Path) -> Path | None:
    """The test module ``path`` needs, or None for an ``__init__.py`` that only declares (a family's
    registration, a package's re-exports)."""
    relative = path.relative_to(PACKAGE)
    folder = REPO / "tests" / relative.parent
    if path.name == "__init__.py":
        tree = ast.parse(path.read_text())
        if not any(isinstance(node, ast.FunctionDef) for node in tree.body):
            return None
        name = relative.parent.name or "optsched"
        return folder / f"test_{name}.py"
    return folder / f"test_{path.stem}.py"


def exempt(path: Path) -> bool:
    relative = path.relative_to(PACKAGE)
    return str(relative) in WITHOUT_TESTS or f"*/{relative.name}" in WITHOUT_TESTS and len(relative.parts) == 2


def missing() -> dict[str, str]:
    """Source module -> the test module it lacks."""
    return {str(p.relative_to(REPO)): str(t.relative_to(REPO)) for p in sorted(PACKAGE.rglob("*.py"))
            if not exempt(p) and (t := expected_test(p)) is not None and not t.is_file()}


def test_every_module_with_behaviour_has_a_test_module_named_after_it():
    assert missing() == {}


def test_every_exemption_still_names_a_module():
    for entry in WITHOUT_TESTS:
        assert list(PACKAGE.glob(entry)), entry


def test_a_new_module_without_tests_is_caught(tmp_path, monkeypatch):
    """In a copy of the layout: a new module is reported, its test module clears it, a registration
    needs none, an exempt module needs none."""
    package = tmp_path / "optsched"
    for source in ("__init__.py", "edge/__init__.py", "edge/schedule.py", "edge/mutate.py", "edge/fresh.py"):
        (package / source).parent.mkdir(parents=True, exist_ok=True)
        (package / source).write_text("def f():\n    pass\n" if source.endswith(("schedule.py", "fresh.py"))
                                      else "FAMILY = None\n")
    (tmp_path / "tests" / "edge").mkdir(parents=True)
    (tmp_path / "tests" / "edge" / "test_schedule.py").write_text("")
    monkeypatch.setitem(globals(), "REPO", tmp_path)
    monkeypatch.setitem(globals(), "PACKAGE", package)
    assert missing() == {"optsched/edge/fresh.py": "tests/edge/test_fresh.py"}
    (tmp_path / "tests" / "edge" / "test_fresh.py").write_text("")
    assert missing() == {}


def test_maintenance_scripts_live_in_tools_not_in_the_installed_package():
    """A module of the package is library code; a script that regenerates bundled data or docs lives in
    tools/ (issue 50). Only the command line's module runs as a script."""
    scripts = [str(p.relative_to(REPO)) for p in sorted(PACKAGE.rglob("*.py"))
               if p.name != "cli.py" and 'if __name__ == "__main__"' in p.read_text()]
    assert scripts == []
    assert {p.name for p in (REPO / "tools").glob("*.py")} >= {"refresh_claims.py", "table1_models.py",
                                                                "philly_recurring.py", "compare_reports.py"}


def test_public_class_names_say_which_class_they_are():
    """No two public classes share a name (issue 50: three Outcomes, three Runs), except a family's
    classes of one role, which share the name of the same class in another family's module of the same
    file name (every family's ``instance.Instance``, ``schedule.Schedule``, ``reproduce.Preset``)."""
    import ast

    families = {"single", "oasis", "edge", "hetero", "placement", "asrpt"}
    places: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        in_family = len(relative.parts) == 2 and relative.parts[0] in families
        where = f"<family>/{relative.name}" if in_family else str(relative)
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                places.setdefault(node.name, set()).add(where)
    assert {name: sorted(found) for name, found in places.items() if len(found) > 1} == {}
