"""The conformance suite: one contract, run over every registered family (as scipy runs one set of
linprog tests over every method). A new family gets all of it by registering.

Per family, on small generated instances:
* instances and schedules survive their JSON round trip;
* every formulation that gives a schedule is solved to optimality, and its schedule passes the
  verifier with the solver's objective; HiGHS and CBC agree on it (cross-check);
* its LP relaxation bounds the optimum from the right side;
* every algorithm's schedule is feasible and never better than the proven optimum.

Elsewhere, over every family as well: the online property (test_online_property.py), the CLI at
the process boundary (test_contract.py), bad input (test_bad_input.py), registry defaults against
the functions' signatures (test_registry.py).
"""

from __future__ import annotations

import json

import pytest

from optsched.numeric import better_or_equal
from optsched.registry import FAMILY_PACKAGES, get

FAMILIES = list(FAMILY_PACKAGES)
SEEDS = (0, 1, 2, 3)
EXACT = [(f, name) for f in FAMILIES for name, form in get(f).formulations.items() if form.gives_schedule]
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
    solved = get(family).solve(small(family, seed), formulation, cross_check=True)
    assert solved.result.optimal, solved.result.status
    assert solved.verdict is not None and solved.verdict.feasible, solved.verdict
    assert solved.matches_solver and solved.problem is None
    assert solved.result.cross_check.verdict == "agree", solved.result.cross_check.detail


@pytest.mark.parametrize(("family", "formulation"), EXACT)
@pytest.mark.parametrize("seed", SEEDS)
def test_each_relaxation_bounds_the_optimum_from_the_right_side(family, formulation, seed):
    fam = get(family)
    relaxed = fam.solve(small(family, seed), formulation, relax=True)
    assert relaxed.result.optimal and relaxed.schedule is None
    assert better_or_equal(relaxed.result.objective, optimum(family, formulation, seed), fam.sense)


@pytest.mark.parametrize(("family", "algorithm"), ALGORITHMS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_algorithm_is_feasible_and_never_beats_the_optimum(family, algorithm, seed):
    fam = get(family)
    ran = fam.run(small(family, seed), algorithm, seed=seed)
    assert ran.feasible, ran.verdict.violations[:3]
    best = optimum(family, reference(family), seed)
    assert better_or_equal(best, ran.objective, fam.sense), (ran.objective, best)


@pytest.mark.parametrize("family", FAMILIES)
def test_all_exact_formulations_of_a_family_agree_on_the_optimum(family):
    names = [name for f, name in EXACT if f == family]
    for seed in SEEDS:
        values = [optimum(family, name, seed) for name in names]
        assert all(better_or_equal(v, values[0], "min") and better_or_equal(values[0], v, "min") for v in values)
