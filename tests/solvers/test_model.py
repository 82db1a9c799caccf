"""Model readings: how far values are from feasible (optsched/solvers/model.py)."""

import math

import pulp
import pytest

from optsched.solvers import max_violation


def test_max_violation_measures_each_kind_of_violation():
    problem = pulp.LpProblem("v", pulp.LpMinimize)
    x = problem.add_variable("x", 0, 4, cat="Integer")
    y = problem.add_variable("y", 0)
    problem += x + y
    problem += x + y <= 5, "le"
    problem += x - y >= 1, "ge"
    assert max_violation(problem, {"x": 2.0, "y": 1.0}) == 0.0
    assert max_violation(problem, {"x": 2.5, "y": 1.0}) == pytest.approx(0.5)  # integrality
    assert max_violation(problem, {"x": 4.0, "y": 3.0}) == pytest.approx(2 / 6)  # le row, scaled
    assert max_violation(problem, {"x": 4.0}) == math.inf  # missing value

