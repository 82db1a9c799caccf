"""SRPT, F3, F4, A-SRPT and the baselines on job streams (spec asrpt.md §2.4, §2.5, §3.7-§3.9, §4.8)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.asrpt import baselines
from optsched.asrpt.cluster_state import estimates
from optsched.asrpt.formulations import single_machine, single_machine_milp, time_indexed
from optsched.asrpt.generate import generate_stream
from optsched.asrpt.instance import Instance, StreamJob
from optsched.asrpt.online import run_asrpt
from optsched.asrpt.schedule import completions, objective, verify
from optsched.asrpt.srpt import srpt
from optsched.asrpt.theory import virtual_optimum
from optsched.solvers import solve

from .strategies import integral_streams

BASELINES = ("spjf", "spwf", "wcs_duration", "wcs_workload", "wcs_subtime")


def optimum(instance, **kwargs):
    model = time_indexed(instance)
    result = solve(model, **kwargs)
    assert result.optimal, result.message
    return result, model.decoder(result)


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


def test_single_machine_formulation_is_srpt_on_a_min_and_below_the_optimum():
    for seed in range(2):
        instance = generate_stream("tiny", seed)
        result = solve(single_machine(instance), cross_check=True)
        assert result.optimal and result.solver == "srpt"
        assert result.cross_check.verdict == "agree", result.cross_check  # the time-indexed MILP of F3, by HiGHS
        assert result.objective == pytest.approx(virtual_optimum(instance, "min"), rel=1e-6)
        opt, _ = optimum(instance)
        assert result.objective <= opt.objective * (1 + 1e-9)


@pytest.mark.parametrize("seed", [2, 3, 5, 6, 7, 8])  # seed 4: CBC needs 40 s for its F3 MILP
def test_the_computed_single_machine_bound_equals_the_f3_milp_by_both_solvers(seed):
    instance = generate_stream("tiny", seed)
    computed = solve(single_machine(instance))
    for solver in ("highs", "cbc"):
        milp = solve(single_machine_milp(instance), solver=solver)
        assert milp.optimal, milp.message
        assert computed.objective == pytest.approx(milp.objective, rel=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_tiny_streams_milp_verifies_solvers_agree_and_no_algorithm_beats_it(seed):
    instance = generate_stream("tiny", seed)
    result, schedule = optimum(instance, cross_check=True)
    assert result.cross_check.verdict == "agree", result.cross_check
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) == pytest.approx(result.objective, rel=1e-9)
    relaxed = solve(time_indexed(instance, relax=True))
    assert relaxed.objective <= result.objective * (1 + 1e-9)
    runs = [run_asrpt(instance).schedule, run_asrpt(instance, perfect=True).schedule,
            run_asrpt(instance, blocking=False, tau=2.0).schedule]
    runs += [getattr(baselines, name)(instance) for name in BASELINES]
    for run in runs:
        assert verify(instance, run) == []
        assert objective(instance, run) >= result.objective * (1 - 1e-9)


@given(integral_streams(max_jobs=6), st.sampled_from([0.0, 0.5, 1.0, 2.0, 4.0]), st.booleans())
@settings(max_examples=80)
def test_asrpt_invariants(instance, tau, blocking):
    out = run_asrpt(instance, tau=tau, blocking=blocking)
    assert verify(instance, out.schedule) == []
    runs = out.schedule.jobs
    for i, (sj, run) in enumerate(zip(instance.jobs, runs)):
        assert run.start >= out.virtual_completion[i] - 1e-9 >= sj.release - 1e-9  # virtual gating
    est = estimates(instance, False)
    for i, wait in out.waited.items():  # only a communication-heavy job is held, for at most τ p̃_i
        assert out.comm_heavy[i] and 0 <= wait <= tau * est[i].virtual_size + 1e-9
    if blocking:  # strict queue order: starts are non-decreasing in (C̃, id)
        order = sorted(range(len(runs)), key=lambda i: (out.virtual_completion[i], i))
        starts = [runs[i].start for i in order]
        assert starts == sorted(starts)


@given(integral_streams(max_jobs=6))
@settings(max_examples=40)
def test_without_classification_asrpt_is_list_scheduling_in_virtual_order(instance):
    """τ = 0 and COMM_HEAVY = ∞: strict list scheduling in C̃ order on LEAST allotments (spec §4.8)."""
    out = run_asrpt(instance, tau=0.0, comm_heavy=math.inf)
    order = sorted(range(len(instance.jobs)), key=lambda i: (out.virtual_completion[i], i))
    ends = completions(instance, out.schedule)
    for pos, i in enumerate(order):
        start = out.schedule.jobs[i].start
        earlier = [out.schedule.jobs[j].start for j in order[:pos]]
        assert start >= max(earlier, default=0.0) - 1e-9
        # it starts at its virtual completion, the previous start, or when some job completed
        moments = {out.virtual_completion[i], *earlier, *ends}
        assert any(abs(start - m) <= 1e-9 for m in moments)


@given(integral_streams(max_jobs=6))
@settings(max_examples=40)
def test_baseline_orders(instance):
    for name in ("wcs_duration", "wcs_workload", "wcs_subtime"):
        schedule = getattr(baselines, name)(instance)
        assert verify(instance, schedule) == []
        # work conserving: no job waits while the cluster has room for it
        ends = sorted(set(completions(instance, schedule)))
        for sj, run in zip(instance.jobs, schedule.jobs):
            for t in [sj.release] + [e for e in ends if sj.release <= e < run.start]:
                if t >= run.start:
                    continue
                busy = sum(sum(sum(r) for r in other.counts.values())
                           for j, other in enumerate(schedule.jobs)
                           if other.start <= t < other.start + (completions(instance, schedule)[j] - other.start))
                assert instance.cluster.total_gpus - busy < sj.job.gpus


def test_stream_json_round_trip_and_trace_preset_is_labelled():
    instance = generate_stream("tiny", 1)
    assert Instance.from_dict(instance.to_dict()) == instance
    schedule = run_asrpt(instance).schedule
    from optsched.asrpt.schedule import Schedule

    assert Schedule.from_dict(schedule.to_dict(), instance) == schedule
    jobs = [StreamJob(sj.job, sj.release, sj.iterations, sj.predicted) for sj in instance.jobs]
    assert Instance(instance.cluster, tuple(jobs)) == instance
