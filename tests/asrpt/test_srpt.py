"""Preemptive single-machine SRPT (optsched/asrpt/srpt.py; spec asrpt.md §2.5)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.asrpt.formulations import completion_order_milp
from optsched.asrpt.srpt import srpt
from optsched.solvers import solve


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), min_size=1, max_size=5))
@settings(max_examples=20)
def test_srpt_equals_the_single_machine_milp(jobs):
    releases, sizes = [float(r) for r, _ in jobs], [float(p) for _, p in jobs]
    done = srpt(releases, sizes)
    assert all(c >= r + p - 1e-9 for c, r, p in zip(done, releases, sizes))
    assert all(c == r for c, r, p in zip(done, releases, sizes) if p == 0)
    # brute check of optimality: the time-indexed model of F3 on unit-slot sizes
    import pulp

    horizon = max(releases) + sum(sizes)
    prob = pulp.LpProblem("f3", pulp.LpMinimize)
    H = int(horizon)
    x = {(j, t): prob.add_variable(f"x_{j}_{t}", 0, 1, pulp.LpBinary) for j in range(len(jobs))
         for t in range(int(releases[j]), H)}
    c = {(j, t): prob.add_variable(f"c_{j}_{t}", 0, 1, pulp.LpBinary) for j in range(len(jobs))
         for t in range(int(releases[j]), H + 1)}
    for j in range(len(jobs)):
        prob += pulp.lpSum(c[j, t] for t in range(int(releases[j]), H + 1)) == 1
        for t in range(int(releases[j]), H):
            prob += x[j, t] <= pulp.lpSum(c[j, v] for v in range(t + 1, H + 1))
        prob += pulp.lpSum(x[j, t] for t in range(int(releases[j]), H)) == sizes[j]
        for t in range(int(releases[j]), H + 1):  # done at t only if all the work is before t
            prob += pulp.lpSum(x[j, v] for v in range(int(releases[j]), min(t, H))) >= sizes[j] * c[j, t]
    for t in range(H):
        prob += pulp.lpSum(x[j, t] for j in range(len(jobs)) if (j, t) in x) <= 1
    prob += pulp.lpSum(t * v for (j, t), v in c.items())
    result = solve(prob)
    assert result.optimal
    assert sum(done) == pytest.approx(result.objective, abs=1e-6)



@given(st.lists(st.tuples(st.floats(0, 20), st.floats(0, 8)), min_size=1, max_size=7),
       st.sampled_from(["highs", "cbc"]))
@settings(max_examples=25, deadline=None)
def test_the_completion_order_milp_proves_what_srpt_computes(jobs, solver):
    """F3's cross-check (formulations.completion_order_milp): a model over completion orders, with no
    time unit, proves SRPT's total on any releases and sizes, by either solver; with a floor, the
    larger of the two."""
    releases, sizes = [r for r, _ in jobs], [p for _, p in jobs]
    total = sum(srpt(releases, sizes))
    result = solve(completion_order_milp(releases, sizes), solver=solver)
    assert result.optimal and result.objective == pytest.approx(total, rel=1e-7, abs=1e-6)
    floored = solve(completion_order_milp(releases, sizes, floor=total + 1.5), solver=solver)
    assert floored.optimal and floored.objective == pytest.approx(total + 1.5, rel=1e-7, abs=1e-6)
