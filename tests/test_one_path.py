"""One path, enforced (docs/design.md, "One path"): outside ``optsched/pipeline.py`` no code in the
package, the benchmarks or the notebooks calls a family's verifier or objective or a model's decoder.
They judge a schedule through ``Family.judge`` / ``pipeline.judge``, solve through
``Family.solve`` and decode an algorithm's own model through ``pipeline.decide``.

A leak is one of (read statically, like the import-cycle test):

* ``from ...schedule import verify`` (or ``objective``, or ``*``) of a family's schedule module;
* ``schedule.verify`` / ``schedule.objective`` on a name bound to a schedule module;
* reading a family's ``_verify`` / ``_objective`` or a model's ``decoder`` (attribute or ``getattr``);
* a lazy reference ``"...schedule:verify"`` outside the family's registration (its ``__init__``).

The tests on the verifiers themselves (``tests/``) are outside the scan: they test that code.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PIPELINE = REPO / "optsched" / "pipeline.py"
JUDGING = {"verify", "objective"}
PRIVATE = {"_verify", "_objective", "decoder"}


def _is_schedule_module(module: str | None) -> bool:
    return module is not None and (module == "schedule" or module.endswith(".schedule"))


def leaks(source: str, *, registration: bool = False) -> list[str]:
    """Every one-path leak in ``source`` (module text), as ``"line N: what"``; ``registration``:
    the text is a family's ``__init__``, where lazy references to its verifier are the registration."""
    tree = ast.parse(source)
    schedule_modules: set[str] = set()
    found: list[str] = []
    stored = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
              and ast.unparse(node.func) == "object.__setattr__" for arg in node.args}  # a registration's write
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _is_schedule_module(node.module) and alias.name in JUDGING | {"*"}:
                    found.append(f"line {node.lineno}: imports {alias.name} from {node.module}")
                if alias.name == "schedule":
                    schedule_modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            schedule_modules |= {alias.asname for alias in node.names if _is_schedule_module(alias.name) and alias.asname}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr in PRIVATE:
                found.append(f"line {node.lineno}: reads .{node.attr}")
            elif node.attr in JUDGING and (ast.unparse(node.value) in schedule_modules
                                           or _is_schedule_module(ast.unparse(node.value))):
                found.append(f"line {node.lineno}: calls {ast.unparse(node)}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in PRIVATE and id(node) not in stored:
                found.append(f"line {node.lineno}: names {node.value!r}")
            elif not registration and node.value.rpartition(":")[2] in JUDGING and \
                    _is_schedule_module(node.value.rpartition(":")[0]):
                found.append(f"line {node.lineno}: refers to {node.value!r}")
    return found


def notebook_source(path: Path) -> str:
    """A notebook's code cells as one module (IPython magics and shell lines dropped)."""
    cells = json.loads(path.read_text())["cells"]
    lines = [line for cell in cells if cell["cell_type"] == "code" for line in "".join(cell["source"]).splitlines()
             if not line.lstrip().startswith(("%", "!"))]
    return "\n".join(lines)


def scanned() -> list[tuple[Path, str]]:
    files = [p for p in sorted((REPO / "optsched").rglob("*.py")) if p != PIPELINE]
    files += sorted((REPO / "benchmarks").rglob("*.py"))
    out = [(p, p.read_text()) for p in files]
    out += [(p, notebook_source(p)) for p in sorted((REPO / "notebooks").glob("*.ipynb"))]
    return out


def test_nothing_outside_the_pipeline_verifies_decodes_or_computes_an_objective():
    assert len(scanned()) > 100  # the package, the benchmarks and the notebooks were all found
    found = {str(path.relative_to(REPO)): where
             for path, text in scanned()
             if (where := leaks(text, registration=path.name == "__init__.py" and path.parent.parent.name == "optsched"))}
    assert not found, found


@pytest.mark.parametrize("leak", [
    "from .schedule import verify",
    "from optsched.edge.schedule import objective as obj",
    "from ..single.schedule import *",
    "from . import schedule\nschedule.verify(instance, s)",
    "import optsched.hetero.schedule as hs\nhs.objective(instance, s)",
    "optsched.oasis.schedule.objective(instance, s)",
    "family._objective(instance, s)",
    "v = family._verify",
    "model.decoder(result)",
    "getattr(model, 'decoder')(result)",
    "Lazy('optsched.asrpt.schedule:verify')(instance, s)",
])
def test_each_kind_of_leak_is_caught(leak):
    assert leaks(leak), leak


@pytest.mark.parametrize("fine", [
    "from .schedule import Schedule, JobRun",
    "family.judge(instance, s).objective",
    "solved.verdict.objective + run.objective",
    "result.objective",
    "data.decode('utf-8')",
    "Model(problem, decode)",
    "object.__setattr__(self, '_verify', verify)",
])
def test_what_is_not_a_leak(fine):
    assert not leaks(fine), fine


def test_a_family_registers_its_verifier_lazily_in_its_init():
    registration = "FAMILY = Family(verify=here('schedule:verify'), objective=here('schedule:objective'))"
    assert not leaks(registration, registration=True)
    assert leaks("x = Lazy('optsched.single.schedule:objective')")
