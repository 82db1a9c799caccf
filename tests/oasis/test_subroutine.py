"""Algorithm 2 (optsched/oasis/subroutine.py): Theorem 1 exactly, and Theorem 3's counts."""

from itertools import product

import networkx as nx
import numpy as np
import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from optsched.oasis.columns import Column, TooManyColumns, enumerate_columns
from optsched.oasis.formulations import single_job
from optsched.oasis.strategies import instances
from optsched.oasis.subroutine import SubroutineCounters, best_schedule, slot_costs
from optsched.solvers import solve


@st.composite
def market(draw, instance):
    """Random prices in [0, 10] (with zeros and ties) and current usage within capacity."""
    T, H, K, R = instance.T, instance.H, instance.K, instance.R
    price = st.sampled_from([0.0, 0.5, 1.0, 2.5, 10.0])
    pw = np.array([[[draw(price) for _ in range(R)] for _ in range(H)] for _ in range(T)])
    pp = np.array([[[draw(price) for _ in range(R)] for _ in range(K)] for _ in range(T)])
    cw, cp = np.asarray(instance.worker_servers), np.asarray(instance.ps_servers)
    gw = np.array([[[draw(st.integers(0, int(cw[h, r]))) for r in range(R)] for h in range(H)] for _ in range(T)], float)
    gp = np.array([[[draw(st.integers(0, int(cp[k, r]))) for r in range(R)] for k in range(K)] for _ in range(T)], float)
    return pw, pp, cw[None] - gw, cp[None] - gp


def column_cost(instance, i, col, pw, pp):
    job = instance.jobs[i]
    w, s = np.asarray(job.worker_demand), np.asarray(job.ps_demand)
    return sum(y * pw[t - 1, h] @ w for t, h, y in col.workers) + sum(z * pp[t - 1, k] @ s for t, k, z in col.ps)


def fits(instance, i, col, fw, fp):
    job = instance.jobs[i]
    return (all(job.worker_demand[r] * y <= fw[t - 1, h, r] + 1e-9 for t, h, y in col.workers for r in range(instance.R))
            and all(job.ps_demand[r] * z <= fp[t - 1, k, r] + 1e-9 for t, k, z in col.ps for r in range(instance.R)))


@given(data=st.data(), instance=instances())
@settings(max_examples=150)
def test_theorem1_payoff_equals_the_best_enumerated_schedule(data, instance):
    try:
        columns = [list(enumerate_columns(instance, i)) for i in range(len(instance.jobs))]
    except TooManyColumns:
        reject()  # the brute force cannot enumerate this job's schedules (rare: 1 in ~1,000 draws)
    pw, pp, fw, fp = data.draw(market(instance))
    for i in range(len(instance.jobs)):
        best = max([0.0] + [c.utility - column_cost(instance, i, c, pw, pp)
                            for c in columns[i] if fits(instance, i, c, fw, fp)])
        variants = [best_schedule(instance, i, pw, pp, fw, fp)]
        if instance.mode == "chunks":
            variants.append(best_schedule(instance, i, pw, pp, fw, fp, literal=True))
        for plan in variants:
            assert (plan.payoff if plan else 0.0) == pytest.approx(best, rel=1e-9, abs=1e-9)
            if plan is not None:  # the plan is real: it fits, and its cost is what was charged
                jp = plan.to_job_plan()
                col = Column(i, plan.completion, plan.utility, jp.workers, jp.ps)
                assert fits(instance, i, col, fw, fp)
                assert column_cost(instance, i, col, pw, pp) == pytest.approx(plan.cost, rel=1e-9, abs=1e-12)
                assert plan.completion >= instance.jobs[i].arrival


def brute_slot_cost(instance, i, pw_t, pp_t, fw_t, fp_t, n):
    """min over every placement of n workers and ⌈n b/B⌉ PSs that fits, by enumeration."""
    job = instance.jobs[i]
    m = int(np.ceil(n * job.b / job.B - 1e-9))
    if m > n:
        return np.inf
    w, s = np.asarray(job.worker_demand), np.asarray(job.ps_demand)
    best = np.inf
    for y in product(range(n + 1), repeat=instance.H):
        if sum(y) != n or any(np.any(w * y[h] > fw_t[h] + 1e-9) for h in range(instance.H)):
            continue
        for z in product(range(m + 1), repeat=instance.K):
            if sum(z) != m or any(np.any(s * z[k] > fp_t[k] + 1e-9) for k in range(instance.K)):
                continue
            best = min(best, sum(y[h] * pw_t[h] @ w for h in range(instance.H)) + sum(z[k] * pp_t[k] @ s for k in range(instance.K)))
    return best


@given(data=st.data(), instance=instances(max_T=2))
@settings(max_examples=80)
def test_cost_t_is_the_cheapest_placement(data, instance):
    pw, pp, fw, fp = data.draw(market(instance))
    i = data.draw(st.integers(0, len(instance.jobs) - 1))
    costs = slot_costs(instance, i, pw, pp, fw, fp)
    for s in range(instance.T):
        for n in range(instance.jobs[i].chunks + 1):
            expected = brute_slot_cost(instance, i, pw[s], pp[s], fw[s], fp[s], n)
            assert costs.cost[s, n] == pytest.approx(expected, rel=1e-9, abs=1e-12) or costs.cost[s, n] == expected == np.inf


@given(data=st.data(), instance=instances(modes=("worker_slots",)))
@settings(max_examples=60)
def test_mode_a_dp_matches_a_shortest_path(data, instance):
    """Independent cross-check (spec §3.3): the DP is a shortest path in the layered (slot, work) DAG."""
    pw, pp, fw, fp = data.draw(market(instance))
    i = data.draw(st.integers(0, len(instance.jobs) - 1))
    job, facts = instance.jobs[i], instance.facts[i]
    assume(facts.feasible)
    a, W = job.arrival, facts.W
    costs = slot_costs(instance, i, pw[a - 1:], pp[a - 1:], fw[a - 1:], fp[a - 1:])
    graph = nx.DiGraph()
    for s in range(facts.slots):
        for w in range(W + 1):
            for n, c in enumerate(costs.cost[s]):
                if np.isfinite(c):
                    v = (s + 1, min(W, w + n))
                    if not graph.has_edge((s, w), v) or graph[(s, w)][v]["weight"] > c:
                        graph.add_edge((s, w), v, weight=float(c))
    best = 0.0
    for s in range(facts.slots):
        try:
            cheapest = nx.shortest_path_length(graph, (0, 0), (s + 1, W), weight="weight")
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            continue
        best = max(best, job.utility.value(s) - cheapest)
    plan = best_schedule(instance, i, pw, pp, fw, fp)
    assert (plan.payoff if plan else 0.0) == pytest.approx(best, rel=1e-9, abs=1e-9)


@given(instance=instances())
@settings(max_examples=60)
def test_theorem3_operation_counts(instance):
    T, H, K, R = instance.T, instance.H, instance.K, instance.R
    zeros_w, zeros_p = np.zeros((T, H, R)), np.zeros((T, K, R))
    cw = np.broadcast_to(np.asarray(instance.worker_servers), (T, H, R))
    cp = np.broadcast_to(np.asarray(instance.ps_servers), (T, K, R))
    for i, (job, facts) in enumerate(zip(instance.jobs, instance.facts)):
        if not facts.feasible:
            continue
        counters = SubroutineCounters()
        best_schedule(instance, i, zeros_w + 1.0, zeros_p + 1.0, cw, cp, counters=counters)
        assert counters.cost_evaluations <= facts.slots * (job.chunks + 1)
        if instance.mode == "worker_slots":
            assert counters.dp_transitions <= facts.slots * (facts.W + 1) * (job.chunks + 1)
        else:
            literal = SubroutineCounters()
            best_schedule(instance, i, zeros_w + 1.0, zeros_p + 1.0, cw, cp, literal=True, counters=literal)
            D = facts.chunk_target
            slots_run = literal.dp_states // (D + 1)
            assert literal.dp_transitions == slots_run * (D + 1) * (D + 2) // 2


@given(data=st.data(), instance=instances(max_T=3, max_jobs=2))
@settings(max_examples=60)
def test_theorem1_payoff_equals_the_single_job_milp(data, instance):
    """Algorithm 2 = max(0, optimum of problem (27)), with HiGHS and CBC agreeing on (27)."""
    pw, pp, fw, fp = data.draw(market(instance))
    for i in range(len(instance.jobs)):
        result = solve(single_job(instance, i, pw, pp, fw, fp), cross_check=True)
        if result.status == "infeasible":
            expected = 0.0
        else:
            assert result.optimal and result.cross_check.verdict == "agree", result.message
            expected = max(0.0, result.objective)
        plan = best_schedule(instance, i, pw, pp, fw, fp)
        assert (plan.payoff if plan else 0.0) == pytest.approx(expected, rel=1e-7, abs=1e-7)
