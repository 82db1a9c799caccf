"""Random small MILPs for cross-checking solvers (optsched/testing.py): reproducible by seed, of
the documented shape, and solved to the same optimum by HiGHS and CBC."""

from optsched.solvers import solve
from optsched.testing import random_milp


def test_the_same_seed_gives_the_same_model_and_shapes_stay_small():
    for seed in range(20):
        a, b = random_milp(seed), random_milp(seed)
        assert str(a) == str(b)
        assert 2 <= len(a.variables()) <= 7 and 1 <= len(a.constraints()) <= 5
        assert all(v.lowBound == 0 and 1 <= v.upBound <= 4 for v in a.variables())
    assert str(random_milp(1)) != str(random_milp(2))


def test_both_solvers_agree_on_a_dozen_of_them():
    for seed in range(12):
        result = solve(random_milp(seed), cross_check=True)
        assert result.cross_check.verdict == "agree", (seed, result.cross_check)
        assert result.status in ("optimal", "infeasible", "unbounded")
