"""The edge family's exact models (optsched/edge/formulations.py), spec §4.1-4.2 and P15."""

from dataclasses import replace
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.edge import formulations as F
from optsched.edge.generate import generate
from optsched.edge.instance import Instance, Job, Server
from optsched.edge.schedule import objective, verify
from optsched.edge.strategies import instances
from optsched.solvers import solve


def opt(instance, **kwargs):
    result = solve(F.time_indexed(instance), **kwargs)
    assert result.optimal, result.message
    return result


def srpt_flow_time(jobs):
    """1|r_j, pmtn|Σ C_j by SRPT (optimal), on integer slots."""
    remaining = {i: p for i, (_, p) in enumerate(jobs)}
    total, t = 0, 0
    while remaining:
        ready = [i for i in remaining if jobs[i][0] <= t]
        if ready:
            i = min(ready, key=lambda i: (remaining[i], i))
            remaining[i] -= 1
            if remaining[i] == 0:
                del remaining[i]
                total += t + 1 - jobs[i][0]
        t += 1
    return total


@given(st.lists(st.tuples(st.integers(0, 8), st.integers(1, 5)), min_size=1, max_size=6))
@settings(max_examples=40)
def test_t1a_one_worker_is_srpt(jobs):
    jobs = sorted(jobs)
    instance = Instance((Server(("w",), ("p",)),), tuple(Job(r, 1, p, p, (0,), 0) for r, p in jobs), cloud=False)
    assert opt(instance).objective == pytest.approx(srpt_flow_time(jobs))


@given(st.integers(1, 3), st.lists(st.integers(1, 5), min_size=1, max_size=6))
@settings(max_examples=30)
def test_t1b_identical_workers_at_time_zero_is_spt(workers, sizes):
    machines, total = [0] * workers, 0
    for p in sorted(sizes):  # SPT list scheduling
        k = machines.index(min(machines))
        machines[k] += p
        total += machines[k]
    instance = Instance((Server(("w",) * workers, ("p",) * workers),),
                        tuple(Job(0, 1, p, p, (0,), 0) for p in sizes), cloud=False)
    assert opt(instance).objective == pytest.approx(total)


def exact_by_dp(instance):
    """Independent exact optimum of (2) for edge-only instances: a DP over slots and remaining work,
    every assignment of workers to jobs enumerated per slot ((2c), (2d), (2i))."""
    jobs, workers = instance.jobs, instance.workers

    @cache
    def best(t, remaining):
        if all(r == 0 for r in remaining):
            return 0
        options = [[None] + [j for j, job in enumerate(jobs) if remaining[j] and e in instance.qualified[j]
                             and t >= job.release + job.delay_edge[workers[e][0]]] for e in range(len(workers))]
        value = float("inf")
        for choice in set(product(*options)):
            count = [sum(c == j for c in choice) for j in range(len(jobs))]
            if any(count[j] > jobs[j].chunks for j in range(len(jobs))):
                continue
            nxt = tuple(max(0, remaining[j] - count[j]) for j in range(len(jobs)))
            finished = sum(t + 1 - jobs[j].release for j in range(len(jobs)) if remaining[j] and not nxt[j])
            if nxt == remaining and not any(j.release > t or any(t < j.release + d for d in j.delay_edge) for j in jobs):
                continue  # idling with everything released and uploaded is never better
            value = min(value, finished + best(t + 1, nxt))
        return value

    return best(0, tuple(job.chunks * job.p_edge for job in jobs))


@given(instances(max_jobs=3, max_servers=1, max_workers=2, max_D=2, max_p=2, cloud=False))
@settings(max_examples=40)
def test_t1c_milp2_equals_an_independent_exact_dp(instance):
    assert opt(instance).objective == pytest.approx(exact_by_dp(instance))


@given(instances())
@settings(max_examples=40)
def test_milp2_schedule_verifies_and_cbc_agrees(instance):
    model = F.time_indexed(instance)
    result = solve(model, cross_check=True)
    assert result.optimal and result.cross_check.verdict == "agree"
    schedule = model.decoder(result)
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) == pytest.approx(result.objective)


@given(instances())
@settings(max_examples=40)
def test_l1b_lower_bound_chain_and_p15_strong_duality(instance):
    lp = solve(F.fractional_flow(instance, relax=True)).objective
    lp_e = solve(F.lp4r_plus_e(instance)).objective
    ilp = solve(F.fractional_flow(instance)).objective
    milp = opt(instance).objective
    tol = 1e-6 * max(1.0, milp)
    assert lp <= lp_e + tol and lp_e <= ilp + tol and ilp <= milp + tol
    assert solve(F.dual(instance)).objective == pytest.approx(lp, abs=1e-6)


@given(instances(types=("w", "v")))
@settings(max_examples=40, deadline=None)
def test_the_cp_sat_model_agrees_with_milp2_and_its_schedule_verifies(instance):
    model = F.cp_sat(instance)
    result = solve(model, cross_check=False)
    assert result.optimal and result.solver == "cp-sat"
    assert result.objective == pytest.approx(opt(instance).objective)
    schedule = model.decoder(result)
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) == pytest.approx(result.objective)


@given(instances(types=("w", "v")))
@settings(max_examples=40)
def test_the_pooled_model_bounds_milp2_from_below(instance):
    pooled = solve(F.pooled(instance))
    assert pooled.optimal
    assert pooled.objective <= opt(instance).objective + 1e-6
    assert solve(F.pooled(instance, relax=True)).objective <= pooled.objective + 1e-6


@given(instances(max_servers=1))
@settings(max_examples=30)
def test_on_one_server_pooling_changes_nothing(instance):
    assert solve(F.pooled(instance)).objective == pytest.approx(opt(instance).objective)


def test_pooling_is_a_strict_relaxation_when_delays_differ():
    """Two servers, one worker each; the job's chunks upload in 0 slots to server 0 and 3 to
    server 1. MILP-2 waits for server 1 (or uses server 0 alone); the pool starts both at once."""
    servers = (Server(("w",), ("p",) * 2), Server(("w",), ("p",) * 2))
    instance = Instance(servers, (Job(0, 2, 2, 2, (0, 3), 0),), cloud=False)
    assert opt(instance).objective == pytest.approx(4)  # both chunks on server 0
    assert solve(F.pooled(instance)).objective == pytest.approx(2)


def test_ce3_lp4r_without_4e_collapses_to_zero():
    instance = Instance((Server(("w",) * 4, ("p",) * 4),), (Job(0, 1, 4, 4, (0,), 0),), cloud=False)
    assert solve(F.fractional_flow(instance, relax=True)).objective == pytest.approx(0)
    assert solve(F.lp4r_plus_e(instance)).objective == pytest.approx(1.5)
    assert solve(F.fractional_flow(instance)).objective == pytest.approx(1.5)
    assert opt(instance).objective == pytest.approx(4)


@pytest.mark.parametrize("preset", ["tiny", "f1", "f3", "f4", "f6"])
def test_the_horizon_is_safe(preset):
    """Spec §2.5: re-solving with twice the horizon gives the same optimum."""
    instance = generate(preset, 3)
    base = opt(instance).objective
    far = replace(instance, jobs=tuple(replace(j, delay_cloud=j.delay_cloud) for j in instance.jobs))
    original = Instance.horizon

    def doubled(self, j=None):
        return 2 * original(self, j) - (self.jobs[j].release if j is not None and self.cloud else 0)

    Instance.horizon = doubled
    try:
        assert opt(far).objective == pytest.approx(base)
    finally:
        Instance.horizon = original


@given(instances(types=("w", "v")))
@settings(max_examples=40, deadline=None)
def test_the_mip_starts_of_milp2_and_the_pooled_model_are_feasible(instance):
    """The start is the better online schedule (A_online or BatchSche) within the horizons; where
    there is one it satisfies every row (HiGHS would otherwise drop it silently)."""
    from optsched.solvers import max_violation
    from optsched.solvers.model import variables

    for model in (F.time_indexed(instance), F.pooled(instance)):
        if model.start is None:
            continue
        values = {v.name: model.start.get(v.name, 0.0) for v in variables(model.problem)}
        assert max_violation(model.problem, values) <= 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_milp2_starts_from_the_better_online_schedule_on_small_instances(seed):
    """A job the online schedule ends past its cloud horizon is moved whole to the cloud, which
    only shortens it: the start is never worse than either schedule."""
    from optsched.edge.baselines import batchsche
    from optsched.edge.online import aonline

    instance = generate("small", seed, jobs=10)
    model = F.time_indexed(instance)
    assert model.start is not None
    completions = {name: v for name, v in model.start.items() if name.startswith("phi_")}
    jcts = sum(int(name.split("_")[2]) + 1 - instance.jobs[int(name.split("_")[1])].release for name in completions)
    assert len(completions) == len(instance.jobs)
    assert jcts <= min(objective(instance, aonline(instance)), objective(instance, batchsche(instance)))
    assert verify(instance, F._within_horizons(instance, aonline(instance))) == []
