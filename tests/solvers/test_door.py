"""The solver door: status mapping, bounds, LP duals, cross-checks, budgets and bad options (optsched/solvers/door.py), on both backends."""

import math
import random

import pulp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.solvers import highs as highs_backend
from optsched.solvers import max_violation, solve
from optsched.testing import random_milp

from .models import knapsack, split_deviation

SOLVERS = ("highs", "cbc")


def market_split(n=50, m=6, seed=1):
    """Equality knapsacks with a planted solution (Cornuejols-Dawande): feasible, but no solver
    finds an incumbent in a fraction of a second."""
    rnd = random.Random(seed)
    p = pulp.LpProblem("market_split", pulp.LpMinimize)
    x = [p.add_variable(f"x{i}", 0, 3, cat="Integer") for i in range(n)]
    planted = [rnd.randint(0, 3) for _ in range(n)]
    p += pulp.lpSum(rnd.randint(1, 9) * v for v in x)
    for k in range(m):
        a = [rnd.randint(1000, 99999) for _ in range(n)]
        p += pulp.lpSum(a[i] * x[i] for i in range(n)) == sum(a[i] * planted[i] for i in range(n)), f"e{k}"
    return p


def brute_force(problem):
    """Optimum of a pure-binary problem by enumeration (None if infeasible)."""
    variables = problem.variables()
    best = None
    for mask in range(2 ** len(variables)):
        values = {v.name: float((mask >> i) & 1) for i, v in enumerate(variables)}
        if max_violation(problem, values) > 1e-9:
            continue
        value = sum(c * values[v.name] for v, c in problem.objective.items()) + problem.objective.constant
        if best is None or (value > best if problem.sense == pulp.LpMaximize else value < best):
            best = value
    return best


@pytest.mark.parametrize("solver", SOLVERS)
def test_optimal_milp_matches_brute_force_and_bound_is_the_solvers(solver):
    problem = knapsack(n=10, constant=7.5)
    result = solve(problem, solver=solver)
    assert result.status == "optimal" and result.is_mip and result.sense == "max"
    assert result.objective == pytest.approx(brute_force(knapsack(n=10, constant=7.5)))
    assert result.bound == pytest.approx(result.objective) and result.gap == 0.0
    assert max_violation(problem, result.values) <= 1e-9
    assert all(v in (0.0, 1.0) for v in result.values.values())  # integers snapped


@pytest.mark.parametrize("solver", SOLVERS)
def test_infeasible_lp_and_milp(solver):
    lp = pulp.LpProblem("lp", pulp.LpMinimize)
    x = lp.add_variable("x", 0, 1)
    lp += x
    lp += x >= 2, "c"
    mip = pulp.LpProblem("mip", pulp.LpMinimize)
    y = mip.add_variable("y", 0, 10, cat="Integer")
    mip += y
    mip += 2 * y == 3, "c"  # feasible LP relaxation, no integer point
    for problem in (lp, mip):
        result = solve(problem, solver=solver)
        assert result.status == "infeasible", result
        assert result.objective is None and not result.has_solution


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("integer", [False, True])
def test_unbounded_is_not_reported_as_infeasible(solver, integer):
    problem = pulp.LpProblem("u", pulp.LpMaximize)
    x = problem.add_variable("x", 0, cat="Integer" if integer else "Continuous")
    y = problem.add_variable("y", 0)
    problem += x + y
    problem += x - y <= 1, "c"
    assert solve(problem, solver=solver).status == "unbounded"


@pytest.mark.parametrize("solver", SOLVERS)
def test_time_limit_with_incumbent_is_feasible_with_real_bound(solver):
    result = solve(knapsack(n=200, m=30), solver=solver, time_limit=1.0)
    assert result.status == "feasible", result
    assert result.message.startswith("time limit reached (a wall-clock budget")
    # a maximisation: the bound is above the incumbent, and it is the solver's, not a copy
    assert result.bound > result.objective and 0 < result.gap < 0.05


@pytest.mark.parametrize("solver", SOLVERS)
def test_time_limit_without_incumbent_is_not_solved(solver):
    result = solve(market_split(), solver=solver, time_limit=0.3)
    assert result.status == "not_solved", result
    assert result.objective is None and result.values == {}
    assert result.bound is not None and result.bound > 0  # a proven lower bound, still reported


@pytest.mark.parametrize("solver", SOLVERS)
def test_positive_gap_stop_is_not_called_optimal(solver):
    result = solve(knapsack(n=200, m=30), solver=solver, gap=0.05, time_limit=20)
    assert result.status == "feasible"
    assert result.gap is not None and 0 < result.gap <= 0.05 + 1e-9


def reference_lp(sense):
    """min 2x + 3y  s.t. x + y >= 4 (c1), x <= 3 (c2), x, y >= 0   (x=3, y=1, value 9);
    the max version negates the objective. Known duals d(value)/d(rhs): c1 3, c2 -1 (min)."""
    problem = pulp.LpProblem("ref", sense)
    x, y = problem.add_variable("x", 0), problem.add_variable("y", 0)
    sign = 1 if sense == pulp.LpMinimize else -1
    problem += sign * (2 * x + 3 * y)
    problem += x + y >= 4, "c1"
    problem += x <= 3, "c2"
    return problem


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("sense", [pulp.LpMinimize, pulp.LpMaximize])
def test_lp_duals_are_in_the_models_own_sense(solver, sense):
    sign = 1 if sense == pulp.LpMinimize else -1
    result = solve(reference_lp(sense), solver=solver)
    assert result.status == "optimal" and not result.is_mip
    assert result.objective == pytest.approx(sign * 9)
    assert result.duals["c1"] == pytest.approx(sign * 3)
    assert result.duals["c2"] == pytest.approx(sign * -1)
    # the dual's value equals the primal's (strong duality): 4*y1 + 3*y2
    assert 4 * result.duals["c1"] + 3 * result.duals["c2"] == pytest.approx(result.objective)


def random_lp(seed, n=6, m=4):
    rnd = random.Random(seed)
    problem = pulp.LpProblem("rand", pulp.LpMinimize)
    x = [problem.add_variable(f"x{i}", 0, rnd.randint(2, 6)) for i in range(n)]
    problem += pulp.lpSum(rnd.randint(-5, 9) * v for v in x)
    for k in range(m):
        coef = [rnd.randint(0, 5) for _ in range(n)]
        if k % 2:
            problem += pulp.lpSum(c * v for c, v in zip(coef, x)) >= rnd.randint(1, 6), f"g{k}"
        else:
            problem += pulp.lpSum(c * v for c, v in zip(coef, x)) <= rnd.randint(4, 20), f"l{k}"
    return problem


@pytest.mark.parametrize("solver", SOLVERS)
@given(seed=st.integers(0, 10**6))
@settings(max_examples=15, deadline=None)
def test_lp_duals_satisfy_complementary_slackness(solver, seed):
    problem = random_lp(seed)
    result = solve(problem, solver=solver)
    if result.status != "optimal":
        return
    for c in problem.constraints():
        name = c.name
        activity = sum(coef * result.value(v) for v, coef in c.items()) + c.constant
        pi = result.duals[name]
        # sign feasibility for a min problem: >= rows have pi >= 0, <= rows pi <= 0
        assert (pi >= -1e-7) if c.sense == pulp.LpConstraintGE else (pi <= 1e-7)
        assert abs(pi * activity) <= 1e-6  # slack row => zero dual
    for v in problem.variables():
        d, value = result.reduced_costs[v.name], result.value(v)
        if d > 1e-7:
            assert value == pytest.approx(v.lowBound, abs=1e-7)
        if d < -1e-7:
            assert value == pytest.approx(v.upBound, abs=1e-7)
    # dual objective = primal objective: sum pi*rhs + sum of reduced costs at the bounds
    terms = [result.duals[c.name] * -c.constant for c in problem.constraints()]
    terms += [result.reduced_costs[v.name] * result.value(v) for v in problem.variables()]
    # CBC reports duals to 8 significant digits (10.333333 for 31/3), so each term carries a
    # relative error near 1e-8: the tolerance scales with the terms' sizes.
    assert sum(terms) == pytest.approx(result.objective, abs=1e-6 * max(1.0, sum(map(abs, terms))))


@given(seed=st.integers(0, 10**9))
@settings(max_examples=40, deadline=None)
def test_highs_and_cbc_agree_on_random_small_milps(seed):
    result = solve(random_milp(seed), cross_check=True)
    assert result.cross_check.verdict == "agree", (result.status, result.cross_check)
    if result.status == "optimal":
        assert max_violation(random_milp(seed), result.values) <= 1e-6


def test_a_wrong_optimum_cannot_pass_a_cross_check(monkeypatch):
    """Reproduce the failure of oasis spec §6.3: HiGHS calls a suboptimal solution optimal."""
    honest = highs_backend.run

    def lying_highs(problem, options, msg, start=None):
        raw = honest(problem, options, msg, start)
        # drop the most profitable chosen item: still feasible, strictly worse, still "optimal"
        profit = {v.name: c for v, c in problem.objective.items()}
        best_item = max((n for n, v in raw.values.items() if v > 0.5), key=profit.get)
        raw.values = {**raw.values, best_item: 0.0}
        raw.bound = sum(c * raw.values[v.name] for v, c in problem.objective.items())
        return raw

    monkeypatch.setattr(highs_backend, "run", lying_highs)
    problem = knapsack(n=12)
    true_optimum = brute_force(knapsack(n=12))
    alone = solve(problem)
    assert alone.status == "optimal" and alone.objective < true_optimum  # the lie, unchecked
    checked = solve(problem, cross_check=True)
    assert checked.cross_check.verdict == "disagree"
    assert checked.status == "feasible" and checked.bound is None and checked.gap is None
    assert checked.objective == pytest.approx(true_optimum)  # CBC's incumbent, verified, is kept
    assert "disagree" in checked.message


def test_presolve_on_gives_the_same_optimum_on_an_ordinary_model():
    on, off = solve(knapsack(n=14, seed=3), presolve=True), solve(knapsack(n=14, seed=3))
    assert on.optimal and off.optimal and on.objective == pytest.approx(off.objective)
    assert off.options["presolve"] is False  # the default


def highs_presolve_trap():
    """An OASiS time-indexed MILP (one job, W = 4 over two slots) on which HiGHS 1.15.1 with presolve
    on reports 'optimal' 0; the optimum is 2 (admit, two workers and one PS in both slots)."""
    p = pulp.LpProblem("highs_presolve_trap", pulp.LpMaximize)
    phi = {t: p.add_variable(f"phi_{t}", 0, 1, pulp.LpBinary) for t in (2, 3)}
    y = {(h, t): p.add_variable(f"y_{h}_{t}", 0, 1, pulp.LpBinary) for h in (0, 1) for t in (2, 3)}
    z = {(k, t): p.add_variable(f"z_{k}_{t}", 0, 1, pulp.LpBinary) for k in (0, 1) for t in (2, 3)}
    p += 2 * phi[2] + 2 * phi[3]
    p += phi[2] + phi[3] <= 1, "admit"
    p += pulp.lpSum(y.values()) - 4 * phi[2] - 4 * phi[3] >= 0, "work"
    for t in (2, 3):
        workers, pss = y[0, t] + y[1, t], z[0, t] + z[1, t]
        p += workers - 2 * pulp.lpSum(phi[u] for u in (2, 3) if u >= t) <= 0, f"until_done_{t}"
        p += workers - phi[t] >= 0, f"last_slot_{t}"
        p += workers - 2 * pss <= 0, f"bandwidth_{t}"
        p += pss - workers <= 0, f"ps_le_workers_{t}"
    return p


@pytest.mark.parametrize("solver", SOLVERS)
def test_the_default_solves_the_highs_presolve_trap(solver):
    result = solve(highs_presolve_trap(), solver=solver)
    assert result.optimal and result.objective == pytest.approx(2.0)


def test_with_presolve_on_a_cross_check_never_passes_a_wrong_optimum():
    result = solve(highs_presolve_trap(), presolve=True, cross_check=True)
    assert result.objective == pytest.approx(2.0)  # CBC's verified incumbent if HiGHS errs
    assert result.optimal == (result.cross_check.verdict == "agree")


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="time limit"):
        solve(knapsack(), time_limit=-1)
    with pytest.raises(ValueError, match="unknown solver"):
        solve(knapsack(), solver="gurobi")
    with pytest.raises(ValueError, match="gap"):
        solve(knapsack(), gap=math.nan)


def test_solver_tolerance_noise_is_not_a_disagreement():
    """HiGHS returns x2 = 0.4999998 (row r0 violated by 3e-7, within its tolerance), so its maximum
    reads -0.999999 while CBC's reads -1: the same optimum, not a disagreement."""
    p = pulp.LpProblem("noise", pulp.LpMaximize)
    x0, x1 = p.add_variable("x0", 0, 4, cat="Integer"), p.add_variable("x1", 0, 4, cat="Integer")
    x2, x3 = p.add_variable("x2", 0, 3), p.add_variable("x3", 0, 4)
    p += -4 * x1 - 6 * x2 - 5 * x3 + 2
    p += 4 * x0 - 2 * x1 - 2 * x2 + 3 * x3 <= -1, "r0"
    p += 6 * x0 + 2 * x1 - 2 * x3 <= 5, "r1"
    result = solve(p, cross_check=True)
    assert result.optimal and result.objective == pytest.approx(-1, abs=1e-5)
    assert result.cross_check.verdict == "agree"


@pytest.mark.parametrize("solver", SOLVERS)
def test_constant_objectives_and_empty_rows_survive_pulps_dummy_variable(solver):
    problem = pulp.LpProblem("constant", pulp.LpMinimize)
    x = problem.add_variable("x", 0, 3, cat="Integer")
    problem += pulp.LpAffineExpression(constant=4.0)
    problem += x >= 1, "row"
    problem += pulp.LpConstraint(pulp.LpAffineExpression(), pulp.LpConstraintLE, rhs=2, name="empty")
    result = solve(problem, solver=solver)
    assert result.status == "optimal" and result.objective == 4.0
    assert max_violation(problem, result.values) == 0.0


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_model_without_variables_is_solved_not_an_error(solver):
    problem = pulp.LpProblem("empty", pulp.LpMaximize)
    problem += pulp.LpAffineExpression(constant=0.0)
    result = solve(problem, solver=solver)
    assert result.status == "optimal" and result.objective == 0.0 and result.has_solution


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_node_limit_stops_branch_and_bound_with_an_honest_feasible_result(solver):
    problem = split_deviation()
    first = solve(problem, solver=solver, node_limit=10, threads=1)
    assert first.status == "feasible" and first.message == "node limit reached"
    assert first.bound is not None and first.bound <= first.objective and max_violation(problem, first.values) <= 1e-6
    again = solve(problem, solver=solver, node_limit=10, threads=1)
    assert (again.objective, again.values) == (first.objective, first.values)  # a budget, not a clock
    with pytest.raises(ValueError, match="node limit"):
        solve(problem, solver=solver, node_limit=0)


def test_no_module_of_the_solver_package_holds_mutable_state():
    """Module-level names in optsched/solvers/ are constants: literals, tuples, frozensets, compiled
    patterns; a list, dict, set or other object at module level would be state shared by every solve."""
    import ast
    from pathlib import Path

    import optsched.solvers

    allowed_calls = {"frozenset", "compile"}
    folder = Path(optsched.solvers.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert {p.stem for p in modules} >= {"__init__", "door", "model", "backend", "highs", "cbc"}
    for path in modules:
        for stmt in ast.parse(path.read_text()).body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
                value = stmt.value
                call = value.func.attr if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    else value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
                constant = isinstance(value, ast.Constant) or (
                    isinstance(value, ast.Tuple) and all(isinstance(e, ast.Constant) for e in value.elts))
                assert constant or call in allowed_calls, f"{path.name}:{stmt.lineno} holds module-level state"



def test_the_status_is_an_enum_that_still_reads_as_its_string(tmp_path):
    """SolveStatus is a str: comparisons, JSON, CSV and f-strings see "optimal" as before; success
    is True only for a proven optimum."""
    import csv
    import json

    from optsched.solvers import SolveStatus

    optimal = solve(knapsack(n=10, constant=7.5))
    assert optimal.status is SolveStatus.OPTIMAL and optimal.status == "optimal" and optimal.success
    assert json.dumps({"status": optimal.status}) == '{"status": "optimal"}'
    assert f"{optimal.status}|{optimal.status:>8}" == "optimal| optimal" and str(optimal.status) == "optimal"
    with open(tmp_path / "s.csv", "w", newline="") as handle:
        csv.writer(handle).writerow([optimal.status])
    assert (tmp_path / "s.csv").read_text().strip() == "optimal"
    stopped = solve(market_split(), time_limit=0.3)
    assert stopped.status is SolveStatus.NOT_SOLVED and not stopped.success and not stopped.optimal
    with pytest.raises(ValueError):
        SolveStatus("proven")


def test_statuses_are_the_enums_values():
    from optsched.solvers import STATUSES, SolveStatus

    assert STATUSES == tuple(status.value for status in SolveStatus)


def _optimal(objective: float, solver: str):
    from optsched.solvers import Result, SolveStatus

    return Result(SolveStatus.OPTIMAL, "min", True, objective, objective, 0.0, 0.01, solver, "1")


def test_one_adjudicator_keeps_the_better_trusted_incumbent_or_claims_nothing():
    """The rule both cross-checks share (two solvers on a model; two models of a problem): agreeing
    results pass as they are; contradicting ones keep the better trusted incumbent with no bound, ties to
    the first, and with none trusted nothing is claimed."""
    from optsched.solvers import Incumbent, SolveStatus, adjudicate

    a, b = _optimal(5.0, "highs"), _optimal(7.0, "cbc")
    same, kept = adjudicate(a, _optimal(5.0, "cbc"), [None, None], between="solvers")
    assert kept is None and same.status == SolveStatus.OPTIMAL and same.cross_check.verdict == "agree"
    trusted = [Incumbent(6.0, "highs", {"x": 1.0}, "verified incumbent"), Incumbent(6.0, "cbc", {}, "verified one")]
    result, kept = adjudicate(a, b, trusted, between="solvers")
    assert kept == 0 and result.status == SolveStatus.FEASIBLE and result.objective == 6.0 and result.bound is None
    assert result.values == {"x": 1.0} and "solvers disagree" in result.message and "highs's verified incumbent" \
        in result.message
    result, kept = adjudicate(a, b, [None, trusted[1]], between="models", formulation="cp-sat")
    assert kept == 1 and result.cross_check.formulation == "cp-sat" and "models disagree" in result.message
    result, kept = adjudicate(a, b, [None, None], between="models")
    assert kept is None and result.status == SolveStatus.NOT_SOLVED and result.objective is None


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_an_lp_gives_each_row_its_dual_slack_and_binding_and_each_column_its_reduced_cost(solver):
    """max 3x + 2y s.t. x + y <= 4, x + 3y <= 6, x <= 5: the optimum x = 4, y = 0 binds the first row
    only (dual 3); the others have slack 2 and 1; y's reduced cost is 2 - 3 = -1. HiGHS also names
    the basis."""
    prob = pulp.LpProblem("sensitivity", pulp.LpMaximize)
    x, y = prob.add_variable("x", 0), prob.add_variable("y", 0)
    prob += 3 * x + 2 * y
    prob += x + y <= 4, "c1"
    prob += x + 3 * y <= 6, "c2"
    prob += x <= 5, "c3"
    result = solve(prob, solver=solver)
    rows = {r["name"]: r for r in result.rows()}
    assert result.objective == pytest.approx(12)
    assert [rows[c]["binding"] for c in ("c1", "c2", "c3")] == [True, False, False]
    assert [rows[c]["slack"] for c in ("c1", "c2", "c3")] == pytest.approx([0, 2, 1])
    assert [rows[c]["dual"] for c in ("c1", "c2", "c3")] == pytest.approx([3, 0, 0])
    columns = {c["name"]: c for c in result.columns()}
    assert columns["x"]["value"] == pytest.approx(4) and columns["y"]["reduced_cost"] == pytest.approx(-1)
    if solver == "highs":
        assert columns["x"]["basis"] == "basic" and columns["y"]["basis"] == "at lower"
        assert rows["c1"]["basis"] != "basic" and rows["c2"]["basis"] == "basic"
    else:
        assert rows["c1"]["basis"] is None
    assert solve(prob, solver=solver).to_dict()["rows"] == result.rows()


@given(st.integers(0, 10_000))
@settings(max_examples=40, deadline=None)
def test_lp_rows_obey_complementary_slackness(seed):
    """On random LPs (relaxed random MILPs): every slack is >= 0 up to tolerance, and a row with a
    non-zero dual binds; a MILP gives no rows."""
    from optsched.testing import random_milp

    prob = random_milp(seed)
    if any(v.cat == pulp.LpInteger for v in prob.variables()):
        milp = solve(prob)
        assert milp.rows() == [] and "rows" not in milp.to_dict()
    for v in prob.variables():
        v.cat = pulp.LpContinuous
    result = solve(prob)
    if not result.optimal:
        assert result.rows() == []
        return
    for row in result.rows():
        assert row["slack"] >= 0
        assert row["binding"] or abs(row["dual"]) <= 1e-7, row
