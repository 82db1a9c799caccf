"""Certified ratios: exact against proven optima, upper bounds otherwise, never mixed."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.study.table import (
    InstanceRecord,
    algorithm_row,
    best_bound,
    integrality_gap,
    ratio,
)

MIN = InstanceRecord(0, "f", "min", "tiny", 0, None, 3, "abc")
MAX = InstanceRecord(0, "f", "max", "tiny", 0, None, 3, "abc")
METHOD = {"label": "alg", "algorithm": "alg", "params": {}}


def ran(objective, theorem=None):
    return {"status": "feasible", "objective": objective, "runtime_s": 0.1, "theorem": theorem}


def test_ratio_is_one_is_best_in_both_senses():
    assert ratio("min", 12, 10) == pytest.approx(1.2)
    assert ratio("max", 10, 12) == pytest.approx(1.2)
    assert ratio("max", 0, 5) == math.inf
    assert ratio("min", 3, 0) == math.inf
    assert ratio("min", 10 + 1e-9, 10) == 1.0


def test_an_optimal_reference_gives_an_exact_ratio():
    ref = {"status": "optimal", "objective": 10.0, "bound": 10.0}
    row = algorithm_row("s", MIN, METHOD, ran(12.0), ref, {"status": "optimal", "objective": 8.0})
    assert row["ratio_kind"] == "exact" and row["ratio"] == pytest.approx(1.2) and row["best_bound"] == 10.0
    assert not row["beats_reference"]


def test_a_time_limited_reference_gives_an_upper_bound_from_the_tighter_of_solver_and_lp_bounds():
    ref = {"status": "feasible", "objective": 11.0, "bound": 8.0}
    row = algorithm_row("s", MIN, METHOD, ran(12.0), ref, {"status": "optimal", "objective": 9.0})
    assert row["ratio_kind"] == "upper bound"
    assert row["best_bound"] == 9.0 and row["ratio"] == pytest.approx(12 / 9)
    assert row["ratio_lower"] == pytest.approx(12 / 11)
    row = algorithm_row("s", MAX, METHOD, ran(6.0), {"status": "feasible", "objective": 7.0, "bound": 9.0},
                        {"status": "optimal", "objective": 10.0})
    assert row["best_bound"] == 9.0 and row["ratio"] == pytest.approx(1.5) and row["ratio_lower"] == pytest.approx(7 / 6)


def test_without_any_bound_there_is_no_ratio():
    row = algorithm_row("s", MIN, METHOD, ran(12.0), {"status": "not_solved", "objective": None}, None)
    assert row["ratio_kind"] == "none" and row["ratio"] is None


def test_an_infeasible_run_has_no_ratio_and_a_schedule_better_than_the_optimum_is_flagged():
    ref = {"status": "optimal", "objective": 10.0}
    row = algorithm_row("s", MIN, METHOD, {"status": "infeasible", "objective": None, "violation": "x"}, ref, None)
    assert row["ratio"] is None and row["status"] == "infeasible"
    assert algorithm_row("s", MIN, METHOD, ran(9.0), ref, None)["beats_reference"]
    assert algorithm_row("s", MAX, METHOD, ran(11.0), ref, None)["beats_reference"]


@pytest.mark.parametrize("objective, ref, held", [
    (12.0, {"status": "optimal", "objective": 10.0}, "yes"),
    (16.0, {"status": "optimal", "objective": 10.0}, "no"),
    (12.0, {"status": "feasible", "objective": 11.0, "bound": 7.0}, "unknown"),  # 12/11 <= 1.5 < 12/7
    (12.0, {"status": "feasible", "objective": 11.0, "bound": 9.0}, "yes"),
    (18.0, {"status": "feasible", "objective": 11.0, "bound": 7.0}, "no"),  # even 18/11 > 1.5
])
def test_theorem_checks_are_yes_no_or_unknown_never_guessed(objective, ref, held):
    theorem = {"name": "T", "bound": 1.5, "constants": {"alpha": 0.75}}
    row = algorithm_row("s", MIN, METHOD, ran(objective, theorem), ref, None)
    assert row["theorem_held"] == held and row["theorem_bound"] == 1.5 and '"alpha": 0.75' in row["theorem_constants"]


@given(opt=st.floats(1, 100), slack=st.floats(0, 1), alg=st.floats(1, 300), sense=st.sampled_from(["min", "max"]))
def test_a_bound_ratio_is_never_below_the_exact_ratio_it_stands_for(opt, slack, alg, sense):
    """With a valid bound (below OPT for min, above for max) the reported ratio bounds the true one."""
    inst = MIN if sense == "min" else MAX
    if sense == "min":
        alg, bound = max(alg, opt), opt * (1 - slack)
    else:
        alg, bound = min(alg, opt), opt * (1 + slack)
    exact = algorithm_row("s", inst, METHOD, ran(alg), {"status": "optimal", "objective": opt}, None)
    upper = algorithm_row("s", inst, METHOD, ran(alg), {"status": "feasible", "objective": opt, "bound": bound}, None)
    assert upper["ratio"] >= exact["ratio"] * (1 - 1e-9)
    assert upper["ratio_lower"] <= exact["ratio"] * (1 + 1e-9)


def test_best_bound_and_integrality_gap():
    assert best_bound("min", {"status": "optimal", "objective": 5.0, "bound": 4.0}, None) == 5.0
    assert best_bound("min", {"status": "error", "objective": None}, {"status": "optimal", "objective": 3.0}) == 3.0
    assert integrality_gap("min", 10.0, {"status": "optimal", "objective": 8.0}) == pytest.approx(1.25)
    assert integrality_gap("max", 8.0, {"status": "optimal", "objective": 10.0}) == pytest.approx(1.25)
    assert integrality_gap("max", 8.0, {"status": "not_solved", "objective": None}) is None
    # a bound route stopped before it converged: its objective is LP-feasible, not a bound; its bound is one
    stopped = {"status": "feasible", "objective": 7.0, "bound": 4.5}
    assert best_bound("min", {"status": "error", "objective": None}, stopped) == 4.5
    assert best_bound("max", {"status": "error", "objective": None}, {**stopped, "objective": 4.0, "bound": 9.0}) == 9.0
