"""The time-indexed MILP, its LP and the mean-busy-time bound against textbook truths
(optsched/single/formulations.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.single.formulations import (
    _cost,
    _insertion_costs,
    brute_force_optimum,
    mean_busy_time,
    mean_busy_time_lp,
    reduced_time_indexed,
    time_indexed,
)
from optsched.single.schedule import objective, verify
from optsched.single.strategies import instances
from optsched.solvers import solve


@given(instances())
@settings(max_examples=40)
def test_milp_optimum_equals_brute_force_over_all_orders(instance):
    model = time_indexed(instance)
    result = solve(model)
    assert result.status == "optimal"
    assert result.objective == pytest.approx(brute_force_optimum(instance)[0])
    schedule = model.decoder(result)
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) == pytest.approx(result.objective)


@given(instances())
@settings(max_examples=25)
def test_cbc_proves_the_same_optimum(instance):
    result = solve(time_indexed(instance), cross_check=True)
    assert result.optimal and result.cross_check.verdict == "agree", result.cross_check


@given(instances())
@settings(max_examples=30)
def test_lp_relaxation_is_a_lower_bound(instance):
    lp = solve(time_indexed(instance, relax=True))
    milp = solve(time_indexed(instance))
    assert lp.optimal and not lp.is_mip and lp.duals is not None
    assert lp.objective <= milp.objective + 1e-6 * max(1.0, milp.objective)
    assert time_indexed(instance, relax=True).decoder is None


def test_lp_relaxation_can_be_strictly_weaker():
    """The LP mixes half-schedules: here it averages two ways around the heavy late job."""
    from optsched.single.instance import Instance, Job

    instance = Instance((Job(p=1, w=4.0, r=0), Job(p=4, w=3.0, r=0), Job(p=2, w=8.0, r=4)))
    lp, milp = solve(time_indexed(instance, relax=True)), solve(time_indexed(instance))
    assert milp.objective == pytest.approx(brute_force_optimum(instance)[0])
    assert lp.objective < milp.objective - 1e-6


def test_wspt_is_the_mip_start_so_the_first_incumbent_is_never_worse():
    """Stopped at the root, HiGHS keeps an incumbent at least as good as WSPT's schedule, the start
    it was handed (without it, seed 0 stops at 48,134 against WSPT's 47,885: the seed that tells)."""
    import optsched

    family = optsched.get("single")
    instance = family.generate("small", seed=0, jobs=60)
    model = time_indexed(instance)
    assert len(model.start) == instance.n and set(model.start.values()) == {1.0}
    rooted = solve(model, node_limit=1, threads=1)
    assert rooted.objective <= family.run(instance, "wspt").objective


@given(instances(max_jobs=7, max_p=5, max_r=12))
@settings(max_examples=40)
def test_the_lp_schedule_solves_the_mean_busy_time_lp_and_bounds_the_time_indexed_lp(instance):
    bound = solve(mean_busy_time(instance), cross_check=True)  # the LP written out, solved by HiGHS
    assert bound.optimal and bound.cross_check.verdict == "agree", bound.cross_check
    assert bound.objective == pytest.approx(solve(mean_busy_time_lp(instance)).objective)
    assert bound.objective <= solve(time_indexed(instance, relax=True)).objective * (1 + 1e-9)
    assert bound.objective <= brute_force_optimum(instance)[0] * (1 + 1e-9)


@given(instances())
@settings(max_examples=40)
def test_reduced_cost_fixing_keeps_the_optimum(instance):
    """The reduced model proves brute force's optimum, its start is a schedule of the kept starts,
    and it never has more variables than the full model."""
    model = reduced_time_indexed(instance)
    result = solve(model)
    assert result.optimal
    assert result.objective == pytest.approx(brute_force_optimum(instance)[0])
    assert verify(instance, model.decoder(result)) == []
    names = {v.name for v in model.problem.variables()}
    assert set(model.start) <= names
    assert len(names) <= len(time_indexed(instance).problem.variables())


def test_reduced_cost_fixing_drops_most_starts_and_agrees_with_the_full_milp():
    """At 30 jobs of the small preset the reduced model keeps a minority of the starts and proves
    the full MILP's optimum (a second, independent exact solve of the same instance)."""
    import optsched

    family = optsched.get("single")
    for seed in range(2):
        instance = family.generate("small", seed=seed, jobs=30)
        reduced, full = reduced_time_indexed(instance), time_indexed(instance)
        assert len(reduced.problem.variables()) < 0.6 * len(full.problem.variables())
        a, b = solve(reduced, threads=1), solve(full, threads=1)
        assert a.optimal and b.optimal and a.objective == pytest.approx(b.objective)


@given(instances(max_jobs=9, max_r=30), st.data())
@settings(max_examples=60)
def test_every_insertion_is_priced_as_its_schedule_costs(instance, data):
    """The insertion search prices all places of a job at once by a closed form; each price is the
    left-shifted cost of the order it stands for, computed job by job."""
    n = instance.n
    order = data.draw(st.permutations(range(n)))
    i = data.draw(st.integers(0, n - 1))
    job, rest = order[i], list(order[:i]) + list(order[i + 1:])
    p, w, r = (np.array([getattr(j, a) for j in instance.jobs], dtype=float) for a in "pwr")
    costs = _insertion_costs(p, w, r, rest, job)
    assert len(costs) == n
    for k in range(n):
        assert costs[k] == pytest.approx(_cost(instance, rest[:k] + [job] + rest[k:]), rel=1e-12)


def test_best_is_cp_sat_up_to_twelve_jobs_and_the_reduced_model_above():
    import optsched

    family = optsched.get("single")
    small = family.generate("small", seed=0, jobs=12)
    assert family.best_formulation(small) == "cp-sat"
    assert family.best_formulation(small, relax=True) == "time-indexed"  # CP-SAT has no LP
    assert family.best_formulation(family.generate("small", seed=0, jobs=13)) == "reduced-time-indexed"
    # the two routes agree where they meet
    cp, milp = (family.solve(small, formulation=name) for name in ("cp-sat", "reduced-time-indexed"))
    assert cp.result.status == milp.result.status == "optimal"
    assert cp.result.objective == pytest.approx(milp.result.objective, rel=1e-9)
