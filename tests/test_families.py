"""The conformance suite: one contract, run over every registered family (as scipy runs one set of
linprog tests over every method). A new family gets all of it by registering.

Per family, on small generated instances:
* instances and schedules survive their JSON round trip;
* every formulation that gives a schedule is solved to optimality, and its schedule passes the
  verifier with the solver's objective; HiGHS and CBC agree on each MILP (cross-check), and each
  CP-SAT model has the optimum of every MILP of its family (two independent models);
* its LP relaxation, and its bound route (the bound at the papers' scale), bound the optimum from
  the right side;
* every algorithm's schedule is feasible and never better than the proven optimum.

And the shape (docs/design.md, "How a new family is added"): the files every family has, what
each registration points into, a search space and at least one check. :func:`lacks` says what a
family is missing, file by file.

Elsewhere, over every family as well: the online property (test_online_property.py), the CLI at
the process boundary (test_contract.py), bad input (test_bad_input.py), registry defaults against
the functions' signatures (test_registry.py).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from optsched.numeric import better_or_equal
from optsched.pipeline import judging_functions
from optsched.registry import FAMILY_PACKAGES, Family, get

FAMILIES = list(FAMILY_PACKAGES)
SEEDS = (0, 1, 2, 3)
EXACT = [(f, name) for f in FAMILIES for name, form in get(f).formulations.items() if form.answers == "optimum"]
BOUNDS = [(f, name) for f in FAMILIES for name, form in get(f).formulations.items() if form.answers == "bound"]
ALGORITHMS = [(f, name) for f in FAMILIES for name in get(f).algorithms]


def small(family: str, seed: int):
    """A tiny instance of ``family`` at its smallest demo size."""
    fam = get(family)
    return fam.generate("tiny", seed=seed, jobs=fam.demo_sizes[0] if fam.demo_sizes else None)


def reference(family: str):
    """The family's first formulation that gives a schedule: what algorithms are measured against."""
    return next(name for f, name in EXACT if f == family)


_OPTIMA: dict[tuple[str, str, int], float] = {}


def optimum(family: str, formulation: str, seed: int) -> float:
    key = (family, formulation, seed)
    if key not in _OPTIMA:
        solved = get(family).solve(small(family, seed), formulation)
        assert solved.result.optimal and solved.problem is None, (key, solved.result.status, solved.problem)
        _OPTIMA[key] = solved.verdict.objective
    return _OPTIMA[key]


#: The files every family package has, and what each holds (docs/design.md lists them too).
REQUIRED = {
    "__init__.py": "FAMILY, the registration",
    "instance.py": "the instance model and its JSON reader",
    "generate.py": "seeded presets",
    "schedule.py": "the schedule, its JSON reader, verify and objective",
    "formulations.py": "the solver models (at least one that gives a schedule)",
    "online.py": "the paper's online algorithm",
    "mutate.py": "space(), the search space",
    "checks.py": "the paper's claims as slacks for the search",
}
#: Files a family has when it has something to put in them, and why one may not.
OPTIONAL = {
    "baselines.py": "the algorithms the paper compares with (placement's Table II compares only with the ILP)",
    "theory.py": "the paper's constants and bounds (placement's belong to asrpt's Lemma 1)",
    "reproduce.py": "the paper's evaluation (single's is the template; a family whose paper has none may leave it out)",
}
#: Which file each registered function lives in.
HOMES = {"generate": ("generate",), "instance_from_dict": ("instance",), "schedule_from_dict": ("schedule",),
         "verify": ("schedule",), "objective": ("schedule",), "formulation": ("formulations",),
         "algorithm": ("online", "baselines"), "theorem": ("theory", "online"), "check": ("checks",),
         "space": ("mutate",), "reproduction": ("reproduce",), "best": ("formulations",), "bars": ("schedule",),
         "chart": ("chart",)}


def registered(family: Family) -> list[tuple[str, object]]:
    """``(kind, function)`` for everything ``family`` registers."""
    verify, objective = judging_functions(family)
    return [("generate", family.generator), ("instance_from_dict", family.instance_from_dict),
            ("schedule_from_dict", family.schedule_from_dict), ("verify", verify), ("objective", objective),
            *(("formulation", f.build) for f in family.formulations.values()),
            *(("algorithm", a.run) for a in family.algorithms.values()),
            *(("theorem", a.theorem) for a in family.algorithms.values() if a.theorem is not None),
            *(("check", c.slack) for c in family.checks.values()),
            ("space", family.space),
            *(("reproduction", r.run) for r in family.reproductions.values()),
            *((("best", family.best),) if family.best is not None else ()),
            *((("bars", family.bars),) if family.bars is not None else ()),
            *((("chart", family.chart),) if family.chart is not None else ())]


def lacks(family: Family, package: str) -> list[str]:
    """What ``family`` (registered by ``package``) is missing to have the shape of every family,
    one readable line each; empty when it is complete."""
    folder = Path(importlib.import_module(package).__file__).parent
    missing = [f"{name} ({what})" for name, what in REQUIRED.items() if not (folder / name).is_file()]
    if not family.checks:
        missing.append("checks={...} in the registration: at least one claim of the paper as a slack")
    for kind, function in registered(family):
        target = getattr(function, "target", "")
        module = target.partition(":")[0]
        homes = [f"{package}.{home}" for home in HOMES[kind]]
        if module not in homes:
            missing.append(f"its {kind} {target or function!r} belongs in {' or '.join(homes)}")
    return missing


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_has_the_shape_of_every_family(family):
    assert lacks(get(family), FAMILY_PACKAGES[family]) == []


def test_what_a_new_family_lacks_is_said_file_by_file(monkeypatch):
    """A family copied from ``single`` without a required file or its checks, or with its verifier registered from the wrong module, is told each."""
    single = get("single")
    monkeypatch.setitem(REQUIRED, "strategy.py", "a file the shape might one day require")
    assert lacks(single, "optsched.single") == ["strategy.py (a file the shape might one day require)"]
    monkeypatch.delitem(REQUIRED, "strategy.py")
    verify, objective = judging_functions(single)
    half = replace(single, verify=objective, objective=objective, checks={})
    assert lacks(half, "optsched.single") == [  # both in schedule.py: their right home
        "checks={...} in the registration: at least one claim of the paper as a slack"]
    moved = replace(single, verify=single.generator, objective=objective)
    assert lacks(moved, "optsched.single") == [f"its verify {single.generator.target!r} belongs in "
                                                 "optsched.single.schedule"]
    assert lacks(single, "optsched.edge")[0].startswith("its generate 'optsched.single.generate:generate' belongs")


def test_optional_files_are_the_only_ones_a_family_may_leave_out():
    for family, package in FAMILY_PACKAGES.items():
        folder = Path(importlib.import_module(package).__file__).parent
        assert {p.name for p in folder.glob("*.py")} >= set(REQUIRED), family
    present = {name: [f for f, package in FAMILY_PACKAGES.items()
                      if (Path(importlib.import_module(package).__file__).parent / name).is_file()]
               for name in OPTIONAL}
    assert all(present.values()), present  # each optional file is used by some family


def test_every_family_has_an_exact_formulation_and_an_algorithm():
    for family in FAMILIES:
        assert any(f == family for f, _ in EXACT), f"{family} registers no formulation that gives a schedule"
        assert get(family).algorithms, f"{family} registers no algorithm"


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("seed", SEEDS)
def test_instances_and_schedules_survive_their_json(family, seed):
    fam = get(family)
    instance = small(family, seed)
    text = json.dumps(instance.to_dict())
    again = fam.instance_from_dict(json.loads(text), "instance")
    assert json.dumps(again.to_dict()) == text
    for name in fam.algorithms:
        schedule = fam.run(instance, name, seed=seed).schedule
        read = fam.schedule_from_dict(json.loads(json.dumps(schedule.to_dict())), again, "schedule")
        assert read.to_dict() == schedule.to_dict()
        assert fam.judge(again, read) == fam.judge(instance, schedule)


@pytest.mark.parametrize(("family", "formulation"), EXACT)
@pytest.mark.parametrize("seed", SEEDS)
def test_each_exact_formulation_is_proven_verified_and_agreed_by_both_solvers(family, formulation, seed):
    """A MILP by HiGHS and CBC on the same model; a CP-SAT model by CP-SAT against the family's MILP."""
    fam = get(family)
    how = "solver" if fam.formulation(formulation).engine == "milp" else "model"
    solved = fam.solve(small(family, seed), formulation, cross_check=how)
    assert solved.result.optimal, solved.result.status
    assert solved.verdict is not None and solved.verdict.feasible, solved.verdict
    assert solved.matches_solver and solved.problem is None
    assert solved.result.cross_check.verdict == "agree", solved.result.cross_check.detail


CP_SAT = [(f, name) for f, name in EXACT if get(f).formulation(name).engine == "cp-sat"]


@pytest.mark.parametrize(("family", "formulation"), CP_SAT)
@pytest.mark.parametrize("seed", SEEDS)
def test_each_cp_sat_model_has_the_optimum_of_every_milp_of_its_family(family, formulation, seed):
    """Two independent models of one problem (docs/design.md, principle 2): the CP-SAT optimum equals
    every exact MILP's, and each decoded schedule passes the verifier with its solver's value."""
    fam = get(family)
    solved = fam.solve(small(family, seed), formulation)
    assert solved.result.optimal and solved.problem is None, (solved.result.status, solved.problem)
    for name, form in fam.formulations.items():
        if form.gives_schedule and form.engine == "milp":
            assert better_or_equal(optimum(family, name, seed), solved.verdict.objective, fam.sense)
            assert better_or_equal(solved.verdict.objective, optimum(family, name, seed), fam.sense)


RELAXABLE = [(f, name) for f, name in EXACT if get(f).formulation(name).engine == "milp"]


@pytest.mark.parametrize(("family", "formulation"), RELAXABLE)
@pytest.mark.parametrize("seed", SEEDS)
def test_each_relaxation_bounds_the_optimum_from_the_right_side(family, formulation, seed):
    fam = get(family)
    relaxed = fam.solve(small(family, seed), formulation, relax=True)
    assert relaxed.result.optimal and relaxed.schedule is None
    assert better_or_equal(relaxed.result.objective, optimum(family, formulation, seed), fam.sense)


@pytest.mark.parametrize(("family", "formulation"), BOUNDS)
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_a_bound_formulation_says_so_and_lies_on_the_side_it_names(family, formulation, seed):
    """Every formulation registered as a bound answers "lower bound" (min) or "upper bound" (max),
    and its optimum lies on that side of the proven optimum; an exact one, solved to optimality,
    answers "optimum", and its LP relaxation a bound."""
    fam = get(family)
    solved = fam.solve(small(family, seed), formulation)
    side = "lower bound" if fam.sense == "min" else "upper bound"
    assert solved.answers == solved.to_dict()["answers"] == side
    assert solved.result.objective is not None
    assert better_or_equal(solved.result.objective, optimum(family, reference(family), seed), fam.sense)
    exact = fam.solve(small(family, seed), reference(family))
    assert exact.answers == "optimum" and fam.answer(reference(family), relax=True) == side


BOUND_ROUTES = [f for f in FAMILIES if get(f).bound_route is not None]


@pytest.mark.parametrize("family", BOUND_ROUTES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_bound_route_bounds_the_optimum_from_the_right_side(family, seed):
    """The formulation a study falls back on at the papers' scale gives no schedule, and its bound
    (certified whatever stopped it) is never on the wrong side of the proven optimum."""
    fam = get(family)
    route = fam.formulation(fam.bound_route)
    assert not route.gives_schedule
    best = optimum(family, reference(family), seed)
    for relax in {False, fam.bound_relax}:
        solved = fam.solve(small(family, seed), route.name, relax=relax)
        assert solved.result.bound is not None and solved.schedule is None
        assert better_or_equal(solved.result.bound, best, fam.sense)


@pytest.mark.parametrize(("family", "algorithm"), ALGORITHMS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_algorithm_is_feasible_and_never_beats_the_optimum(family, algorithm, seed):
    fam = get(family)
    ran = fam.run(small(family, seed), algorithm, seed=seed)
    assert ran.feasible, ran.verdict.violations[:3]
    best = optimum(family, reference(family), seed)
    assert better_or_equal(best, ran.objective, fam.sense), (ran.objective, best)


@pytest.mark.parametrize("family", FAMILIES)
def test_best_names_an_exact_formulation_and_solves_it(family):
    fam = get(family)
    for seed in SEEDS[:2]:
        instance = small(family, seed)
        name = fam.best_formulation(instance)
        assert fam.formulation(name).gives_schedule, name
        solved = fam.solve(instance, "best")
        assert solved.formulation == name and solved.result.optimal and solved.problem is None
        assert solved.verdict.objective == pytest.approx(optimum(family, reference(family), seed))


@pytest.mark.parametrize("family", FAMILIES)
def test_all_exact_formulations_of_a_family_agree_on_the_optimum(family):
    names = [name for f, name in EXACT if f == family]
    for seed in SEEDS:
        values = [optimum(family, name, seed) for name in names]
        assert all(better_or_equal(v, values[0], "min") and better_or_equal(values[0], v, "min") for v in values)


def test_the_walk_through_copying_single_gives_a_complete_family(tmp_path, monkeypatch):
    """docs/design.md, "How a new family is added", followed step by step: ``single`` copied under
    a new name, its name replaced where the template says it, registered, given an online view.
    The copy has the shape of every family, and the conformance tests, the online property, its
    search space and its check pass on it unchanged."""
    import shutil
    import sys

    import optsched
    from optsched.online_views import VIEWS
    from optsched.search.space import Space

    from .test_online_property import test_jobs_arriving_after_t_never_change_decisions_before_t as online_property

    name = "copied"
    package = f"optsched.{name}"
    # Step 1: copy the template (into a folder the optsched package also searches, not the source tree).
    shutil.copytree(Path(optsched.__file__).parent / "single", tmp_path / name,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for module in (tmp_path / name).glob("*.py"):  # ... and give it its name: every "single" literal
        module.write_text(module.read_text().replace('"single"', f'"{name}"'))
    monkeypatch.setattr(optsched, "__path__", [*optsched.__path__, str(tmp_path)])
    importlib.invalidate_caches()
    # Step 2: register it. Step 3: say what online means for it.
    monkeypatch.setitem(FAMILY_PACKAGES, name, package)
    monkeypatch.setitem(VIEWS, name, VIEWS["single"])
    try:
        family = get(name)
        assert family.name == name and importlib.import_module(f"{package}.schedule").__file__.startswith(
            str(tmp_path))
        # Step 4: the conformance suite.
        assert lacks(family, package) == []
        formulations = [f for f, form in family.formulations.items() if form.gives_schedule]
        for seed in SEEDS[:2]:
            test_instances_and_schedules_survive_their_json(name, seed)
            for formulation in formulations:
                test_each_exact_formulation_is_proven_verified_and_agreed_by_both_solvers(name, formulation, seed)
                if family.formulation(formulation).engine == "milp":
                    test_each_relaxation_bounds_the_optimum_from_the_right_side(name, formulation, seed)
            for algorithm in family.algorithms:
                ran = family.run(small(name, seed), algorithm, seed=seed)
                assert ran.feasible and better_or_equal(optimum(name, formulations[0], seed), ran.objective, "min")
        for algorithm in family.algorithms:
            online_property(family=name, algorithm=algorithm)
        space = family.space()
        assert isinstance(space, Space) and family.instance_from_dict(space.start(0, 3), "start").n == 3
        for check in family.checks.values():
            instance = replace(small(name, 0), jobs=tuple(replace(job, r=0) for job in small(name, 0).jobs))
            slack, details = check.slack(instance, check.algorithms[0], {}, get(name).solve(
                instance, formulations[0]).verdict.objective)
            assert details["applies"] and slack == 0  # Smith's rule holds on the copy as on the template
    finally:
        for module in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
            del sys.modules[module]
        for key in [k for k in _OPTIMA if k[0] == name]:
            del _OPTIMA[key]


def test_design_md_lists_the_required_and_optional_files():
    """docs/design.md's layout says which family files are required and which optional, as REQUIRED
    and OPTIONAL do: a file moved between the two, or added, is moved in the docs too."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "design.md").read_text()
    required = text[text.index("Required in every family"):text.index("Optional (OPTIONAL")]
    optional = text[text.index("Optional (OPTIONAL"):text.index("family-specific helpers")]
    assert all(f"    {name}" in required for name in REQUIRED), required
    assert all(f"    {name}" in optional for name in OPTIONAL), optional


def test_a_family_outside_optsched_registers_through_an_entry_point(tmp_path):
    """The walk-through done as a package of its own: ``single`` copied to ``toyfam`` outside the
    source tree, its imports made absolute, registered by an entry point of the group
    ``optsched.families`` and given its online view through ``online_view``. The installed optsched
    lists it and generates, solves, runs, studies and checks it online, unchanged."""
    import re
    import shutil

    import optsched

    from .contract_helpers import optsched as run_installed

    site = tmp_path / "site"
    shutil.copytree(Path(optsched.__file__).parent / "single", site / "toyfam",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for module in (site / "toyfam").glob("*.py"):
        text = module.read_text().replace('"single"', '"toyfam"').replace("single-wspt", "toyfam-wspt")
        text = re.sub(r"from \.\. import", "from optsched import", text)
        module.write_text(re.sub(r"from \.\.(\w)", r"from optsched.\1", text))
    init = site / "toyfam" / "__init__.py"
    init.write_text(init.read_text().replace(
        "here = lazy_from(__name__)", "from optsched.online_views import VIEWS\n\nhere = lazy_from(__name__)").replace(
        '    space=here("mutate:space"),', '    online_view=VIEWS["single"],\n    space=here("mutate:space"),'))
    info = site / "toyfam-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toyfam\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[optsched.families]\ntoyfam = toyfam\n")
    env = {"PYTHONPATH": str(site)}

    listed = json.loads(run_installed("families", "--json", cwd=tmp_path, env=env).out)
    assert [f["name"] for f in listed][-1] == "toyfam"
    assert run_installed("generate", "toyfam", "--preset", "tiny", "--seed", "1", "-o", "i.json", cwd=tmp_path,
                         env=env).code == 0
    solved = json.loads(run_installed("solve", "i.json", "--formulation", "time-indexed", "--json", cwd=tmp_path,
                                      env=env).out)
    ran = json.loads(run_installed("run", "i.json", "--algorithm", "wspt", "--json", cwd=tmp_path, env=env).out)
    assert solved["status"] == "optimal" and solved["verified"]["feasible"] and ran["feasible"]
    assert solved["verified"]["objective"] <= ran["objective"]
    studied = run_installed("study", "--family", "toyfam", "--seeds", "0-1", "--jobs", "3", "-o", "s", "--workers", "1",
                            "--quiet", cwd=tmp_path, env=env)
    assert studied.code == 0 and "toyfam  wspt" in studied.out, (studied.out, studied.err)
    checked = subprocess.run(
        [sys.executable, "-c", "import optsched; from optsched.testing import check_online; "
                               "print(check_online(optsched.get('toyfam'), 'wspt', instances=3).cases)"],
        capture_output=True, text=True, env={**os.environ, **env}, cwd=tmp_path)
    assert checked.returncode == 0 and int(checked.stdout) > 0, checked.stderr
