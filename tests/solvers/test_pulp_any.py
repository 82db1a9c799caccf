"""Any solver PuLP drives (optsched/solvers/pulp_any.py), run on whichever this machine has: each
agrees with the HiGHS backend on random MILPs and on infeasible and unbounded models, never calls a
gap-stopped run optimal, and is refused in one line where it is unknown or not installed. Starts
(MIP starts and CP-SAT hints) change nothing that is proven."""

from __future__ import annotations

import math

import pulp
import pytest

import optsched
from optsched.errors import InputError
from optsched.solvers import CROSS_CHECK_RTOL, pulp_any, solve
from optsched.testing import random_milp

from ..contract_helpers import optsched as run_installed

HERE = pulp_any.available()


def test_this_machine_has_at_least_one_pulp_solver_to_test():
    assert HERE, "PuLP finds no solver: the tests below would test nothing"


@pytest.mark.parametrize("solver", HERE)
def test_a_pulp_solver_agrees_with_highs_on_random_milps(solver):
    for seed in range(40):
        ours = solve(random_milp(seed))
        theirs = solve(random_milp(seed), solver=solver)
        assert theirs.status == ours.status, (seed, theirs.message)
        assert theirs.solver == solver
        if ours.status == "optimal":
            assert math.isclose(theirs.objective, ours.objective, rel_tol=CROSS_CHECK_RTOL, abs_tol=CROSS_CHECK_RTOL), seed
            assert theirs.bound == theirs.objective or not theirs.is_mip


def _infeasible() -> pulp.LpProblem:
    problem = pulp.LpProblem("infeasible", pulp.LpMinimize)
    x = problem.add_variable("x", 0, 3, cat="Integer")
    problem += x
    problem += x >= 5, "too_much"
    return problem


def _unbounded() -> pulp.LpProblem:
    problem = pulp.LpProblem("unbounded", pulp.LpMaximize)
    x = problem.add_variable("x", 0, cat="Integer")
    y = problem.add_variable("y", 0, 2)
    problem += x + y
    problem += y <= 2, "cap"
    return problem


@pytest.mark.parametrize("solver", HERE)
def test_infeasible_and_unbounded_are_told_apart(solver):
    assert solve(_infeasible(), solver=solver).status == "infeasible"
    assert solve(_unbounded(), solver=solver).status == "unbounded"


@pytest.mark.parametrize("solver", HERE)
def test_a_run_that_may_stop_at_a_gap_is_never_optimal(solver):
    family = optsched.get("single")
    instance = family.generate("tiny", seed=3)
    solved = family.solve(instance, "time-indexed", solver=solver, gap=0.5)
    assert solved.result.status == "feasible" and solved.verdict.feasible
    exact = family.solve(instance, "time-indexed", solver=solver)
    assert exact.result.optimal and exact.verdict.objective == family.solve(instance, "time-indexed").verdict.objective


@pytest.mark.parametrize("solver", HERE)
def test_an_lp_through_a_pulp_solver_keeps_duals_only_where_the_adapter_gives_them(solver):
    family = optsched.get("single")
    instance = family.generate("tiny", seed=3)
    lp = family.solve(instance, "time-indexed", relax=True, solver=solver)
    assert lp.result.optimal
    if lp.result.duals is not None:
        reference = family.solve(instance, "time-indexed", relax=True).result
        assert math.isclose(lp.result.objective, reference.objective, rel_tol=1e-9)
        assert set(lp.result.duals) == set(reference.duals)


def test_a_cross_check_of_a_pulp_solver_is_highs():
    solver = HERE[0]
    result = solve(random_milp(7), solver=solver, cross_check=True)
    assert result.cross_check.solver == "highs" and result.cross_check.verdict == "agree"


@pytest.mark.parametrize("solver, message", [
    ("pulp:NOPE", "PuLP has no solver 'NOPE'"),
    ("gurobi", "pulp:NAME for any solver PuLP drives"),
    *([("pulp:" + name, "is not available here")
       for name in sorted(set(pulp.listSolvers()) - set(pulp.listSolvers(onlyAvailable=True)))[:1]]),
])
def test_an_unknown_or_missing_solver_is_refused_in_one_line(solver, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        solve(random_milp(1), solver=solver)
    family = optsched.get("single")
    with pytest.raises(InputError, match=message.replace("pulp:NAME for any", "pulp:NAME for any")):
        family.solve(family.generate("tiny", seed=0), "time-indexed", solver=solver)
    assert run_installed("generate", "single", "--preset", "tiny", "-o", tmp_path / "i.json").code == 0
    done = run_installed("solve", tmp_path / "i.json", "--formulation", "time-indexed", "--solver", solver)
    assert done.code == 2 and done.out == "" and done.err.count("\n") == 1, done.err


def test_a_node_limit_is_refused_for_a_pulp_solver():
    with pytest.raises(ValueError, match="a node limit applies to highs and cbc"):
        solve(random_milp(1), solver=HERE[0], node_limit=10)
    family = optsched.get("single")
    with pytest.raises(InputError, match="a node limit applies to highs and cbc"):
        family.solve(family.generate("tiny", seed=0), "time-indexed", solver=HERE[0], node_limit=10)


@pytest.mark.parametrize("formulation", ["time-indexed", "cp-sat"])
def test_a_start_from_an_earlier_solve_proves_the_same_optimum(formulation):
    family = optsched.get("single")
    instance = family.generate("small", seed=2, jobs=8)
    first = family.solve(instance, formulation)
    again = family.solve(instance, formulation, start=first.result.values)
    assert first.result.optimal and again.result.optimal
    assert again.verdict.objective == first.verdict.objective


@pytest.mark.parametrize("start, message", [
    ({"no_such_variable": 1.0}, "has no variable 'no_such_variable'"),
    ({"x_0_0": "one"}, "expected a finite number"),
    ([1, 2], "expected values by variable name"),
])
def test_a_start_the_model_cannot_take_is_refused(start, message):
    family = optsched.get("single")
    instance = family.generate("tiny", seed=0)
    if isinstance(start, dict) and "x_0_0" in start:  # a real name of the model
        name = next(iter(family.solve(instance, "time-indexed").result.values))
        start = {name: "one"}
    with pytest.raises(InputError, match=message):
        family.solve(instance, "time-indexed", start=start)


def test_a_hint_the_cp_sat_model_does_not_read_is_refused():
    family = optsched.get("single")
    with pytest.raises(InputError, match="which the CP-SAT model does not read"):
        family.solve(family.generate("tiny", seed=0), "cp-sat", start={"nope": 1})


def test_the_native_highs_object_is_left_on_the_problem_as_docs_solvers_says():
    import highspy

    single = optsched.get("single")
    model = single.formulation("time-indexed").build(single.generate("tiny", seed=3), relax=True)
    result = solve(model)
    highs = model.problem.solverModel
    assert isinstance(highs, highspy.Highs) and highs.getInfo().simplex_iteration_count > 0
    assert math.isclose(highs.getInfo().objective_function_value, result.objective, rel_tol=1e-9)
