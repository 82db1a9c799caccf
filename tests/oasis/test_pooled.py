"""The pooled route (optsched/oasis/pooled.py): every bound it reports lies at or above the proven
optimum, its prices are the pooled LP's duals (the bound at them is at most the LP's optimum), the
pooled LP relaxes LP(14), and its schedule passes the verifier and never beats the optimum."""

import numpy as np
from hypothesis import given, settings

from optsched.numeric import better_or_equal, close
from optsched.oasis import pooled
from optsched.oasis.formulations import compact_exponential
from optsched.oasis.generate import generate
from optsched.oasis.strategies import instances
from optsched.registry import get
from optsched.solvers import solve


def _check(inst) -> None:
    oasis = get("oasis")
    optimum = oasis.solve(inst, "time-indexed")
    assert optimum.result.optimal
    opt = optimum.verdict.objective
    solved = oasis.solve(inst, "pooled")
    trajectory = solved.result.trajectory
    assert trajectory and all(better_or_equal(bound, opt, "max") for bound in trajectory), (trajectory, opt)
    assert list(trajectory) == sorted(trajectory, reverse=True) and close(trajectory[-1], solved.result.bound)
    assert solved.answers == "upper bound" and solved.found_verdict.feasible, solved.found_verdict.violations[:2]
    assert better_or_equal(opt, solved.found_verdict.objective, "max")
    assert close(solved.result.objective, solved.found_verdict.objective)
    gap = solved.certified_gap  # None when nothing was admitted (a gap relative to 0)
    assert (gap is None) == (solved.found_verdict.objective == 0) and (gap is None or gap >= 0) and solved.problem is None


@settings(max_examples=30, deadline=None)
@given(instances(max_T=5, max_jobs=4))
def test_every_bound_is_at_least_the_optimum_and_the_schedule_verifies(inst):
    _check(inst)


def test_on_congested_small_instances_too():
    for seed in range(3):
        _check(generate("small", seed))


@settings(max_examples=20, deadline=None)
@given(instances(max_T=5, max_jobs=4))
def test_the_prices_are_the_pooled_lps_duals_and_it_relaxes_lp14(inst):
    demands = pooled.least_use(inst)
    lp = pooled.solve_lp(inst, demands)
    value, prices = lp.value, lp.prices
    assert (prices >= 0).all() and ((lp.share >= -1e-9) & (lp.share <= 1 + 1e-9)).all()
    assert pooled.lagrangian(inst, prices) <= value + 1e-6 * max(1.0, abs(value))
    lp14 = solve(compact_exponential(inst, relax=True))
    assert lp14.optimal and better_or_equal(value, lp14.objective, "max")


def test_pooling_leaves_each_job_alone_behind_where_jobs_compete():
    """On the paper's congested cluster the bound at the pooled LP's prices is below L(0)."""
    inst = generate("paper", 0, jobs=60, slots=40, servers=5)
    out = pooled.run(inst)
    assert out.rows > 0 and out.trajectory[-1] < 0.99 * out.trajectory[0]
    assert out.found > 0 and out.found <= out.bound
    assert np.isfinite(out.prices).all()
