"""The CBC backend: the preprocessing bugs it is run around (optsched/solvers/cbc.py)."""

import tempfile

import pulp
import pytest

from optsched.solvers import solve


def cbc_false_infeasible():
    """CBC 2.10.3 with MIP preprocessing says 'infeasible or unbounded' here; the optimum is 26."""
    p = pulp.LpProblem("cbc_false_infeasible", pulp.LpMaximize)
    x = [p.add_variable(f"x{i}", 0, ub) for i, ub in enumerate([1, 1, 4, 1, None, 3])]
    x[4] = p.add_variable("x4", 0, 2, cat="Integer")
    p += -5 * x[0] + 2 * x[1] + 2 * x[2] + 2 * x[3] + 6 * x[4] - x[5] + 2
    p += -2 * x[0] + 6 * x[1] + 5 * x[2] - 2 * x[3] - 2 * x[5] >= 7, "r0"
    p += -2 * x[0] + 5 * x[1] + 4 * x[2] + 5 * x[3] + 6 * x[4] + 2 * x[5] >= 8, "r1"
    p += 3 * x[0] + 4 * x[1] - 2 * x[2] + 4 * x[4] + 2 * x[5] <= 4, "r2"
    return p, 26.0


def cbc_wrong_optimum():
    """CBC 2.10.3 with MIP preprocessing calls -20 optimal here; the optimum is -26."""
    p = pulp.LpProblem("cbc_wrong_optimum", pulp.LpMinimize)
    x = [p.add_variable(f"x{i}", 0, ub) for i, ub in enumerate([1, 2, 2, 3])]
    x += [p.add_variable(f"x{i}", 0, ub, cat="Integer") for i, ub in ((4, 1), (5, 3), (6, 4))]
    p += -4 * x[1] - 6 * x[2] - 2 * x[3] + 6 * x[4] + 3 * x[5]
    p += 6 * x[0] + 5 * x[1] - x[2] + 3 * x[3] + 4 * x[4] + 6 * x[6] >= -2, "r0"
    return p, -26.0


@pytest.mark.parametrize("case", [cbc_false_infeasible, cbc_wrong_optimum])
def test_known_cbc_preprocessing_bugs_are_avoided(case):
    problem, optimum = case()
    result = solve(problem, solver="cbc")
    assert result.status == "optimal" and result.objective == pytest.approx(optimum)
    assert solve(case()[0], cross_check=True).cross_check.verdict == "agree"



def test_a_crashing_cbc_leaves_no_files_behind(tmp_path, monkeypatch):
    """CBC with preprocessing off crashes on this infeasible MILP, and PuLP then leaves its model and
    solution files in the temporary folder; the backend runs CBC in a folder of its own and removes it."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where PuLP puts its files
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # and tempfile, which read TMPDIR once
    p = pulp.LpProblem("no_integer_point", pulp.LpMinimize)
    y = p.add_variable("y", 0, 10, cat="Integer")
    p += y
    p += 2 * y == 3, "c"
    result = solve(p, solver="cbc")
    assert result.status == "infeasible"
    assert "reran with preprocessing on" in result.message  # the crash this test is about happened
    assert list(tmp_path.iterdir()) == []
