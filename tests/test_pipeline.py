"""The one pipeline (optsched/pipeline.py): solve -> decode -> verify, run -> verify, judge, decide;
and its doctests."""

import dataclasses
import doctest

import pytest

import optsched
import optsched.pipeline
from optsched.single.schedule import Schedule


@pytest.fixture(scope="module")
def family():
    return optsched.get("single")


@pytest.fixture(scope="module")
def instance(family):
    return family.generate("tiny", seed=2)


def test_the_documented_examples_run():
    outcome = doctest.testmod(optsched.pipeline, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_a_solve_is_decoded_verified_and_agrees_with_the_solver(family, instance):
    solved = family.solve(instance, "time-indexed", cross_check=True)
    assert solved.result.optimal and solved.schedule is not None
    assert solved.verdict.feasible and solved.verdict.objective == pytest.approx(solved.result.objective)
    assert solved.matches_solver and solved.problem is None
    assert solved.to_dict()["verified"] == {**solved.verdict.to_dict(), "matches_solver": True}


def test_a_relaxation_has_no_schedule_to_judge(family, instance):
    relaxed = family.solve(instance, "time-indexed", relax=True)
    assert relaxed.relaxed and relaxed.schedule is None and relaxed.verdict is None
    assert relaxed.problem is None and relaxed.matches_solver is None and "verified" not in relaxed.to_dict()


def test_a_verifier_that_disagrees_with_the_solver_is_a_problem(family, instance):
    verify, _ = optsched.pipeline.judging_functions(family)
    lying = dataclasses.replace(family, verify=verify, objective=lambda inst, schedule: 1e9)
    solved = optsched.solve(lying, instance, "time-indexed")
    assert solved.verdict.feasible and solved.matches_solver is False
    assert "differs from the solver's" in solved.problem


def test_an_infeasible_schedule_has_violations_and_no_objective(family, instance):
    verdict = family.judge(instance, Schedule((0.0,) * len(instance.jobs)))
    assert not verdict.feasible and verdict.violations and verdict.objective is None
    assert verdict.to_dict() == {"feasible": False, "objective": None, "violations": list(verdict.violations)}


def test_a_run_is_verified_and_records_what_it_ran_with(family, instance):
    ran = family.run(instance, "fifo", seed=3)
    _, objective = optsched.pipeline.judging_functions(family)
    assert ran.feasible and ran.objective == objective(instance, ran.schedule)
    assert (ran.family, ran.algorithm, ran.seed, dict(ran.params)) == ("single", "fifo", 3, {})
    assert ran.to_dict()["objective"] == ran.objective


def test_the_module_functions_and_the_family_methods_are_one_pipeline(family, instance):
    assert optsched.run(family, instance, "wspt").objective == family.run(instance, "wspt").objective
    with pytest.raises(optsched.InputError, match="no algorithm"):
        family.run(instance, "no-such-algorithm")


def test_a_family_keeps_its_verifier_and_objective_private(family):
    """Only the pipeline judges: a Family has no public ``verify`` or ``objective`` to call."""
    assert not hasattr(family, "verify") and not hasattr(family, "objective")
    assert all(callable(f) for f in optsched.pipeline.judging_functions(family))


def test_decide_decodes_an_algorithms_own_model_and_nothing_else():
    """``pipeline.decide`` (Dorm's allocation): the decoded solution, None without one, and an
    error for a model with no decoder."""
    import pulp

    from optsched.numeric import integral
    from optsched.solvers import Model

    problem = pulp.LpProblem("one", pulp.LpMinimize)
    x = pulp.LpVariable("x", 1, 3, pulp.LpInteger)
    problem += x
    assert optsched.pipeline.decide(Model(problem, lambda r: integral(r.values["x"])), node_limit=10) == 1
    problem += x >= 5
    assert optsched.pipeline.decide(Model(problem, lambda r: integral(r.values["x"]))) is None
    with pytest.raises(ValueError, match="decoder"):
        optsched.pipeline.decide(Model(problem))
