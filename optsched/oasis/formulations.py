"""Solver models of OASiS's offline problem (paper §III-B, §IV-A; spec §2).

* ``time-indexed``: problem (1) in the ``x``-free encoding of spec §2.5 (a). ``φ[i,t] = 1`` iff job
  ``i`` completes in slot ``t``; ``x_i = Σ_t φ[i,t]`` (a separate ``x`` variable triggered a wrong
  HiGHS "optimal" once, spec §6.3). Workload (2), or (2B) with chunk variables in the ``chunks``
  mode; no work after the completion slot, and a worker in it, make ``φ`` match (8) exactly. The
  work done by each slot ``t`` covers the target times the completion mass up to ``t``: implied
  by those rows for integral ``φ``, it tightens the LP (by 0.7-2% at 32 jobs, docs/oasis.md).
* ``compact-exponential``: the ILP (14) over explicitly enumerated non-dominated schedules
  (:mod:`~optsched.oasis.columns`); ``relax=True`` gives its LP, whose row duals are ``p``, ``q``, ``μ``.
* ``dual``: the dual LP (19)/(20) built and solved directly (one row per enumerated schedule).
* ``column-generation``: the LP of (14) by column generation, the pricing step being Algorithm 2 at
  the LP's duals on the empty cluster. It runs to convergence and returns the final restricted
  master LP, whose optimum is then LP(14), an upper bound on the optimum.

Utilities below ``1e-12`` are set to 0 in objectives (spec §6.3); schedules keep exact utilities.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pulp

from ..errors import InputError, SolverFailure
from ..limits import model_variables
from ..numeric import close, integral
from ..solvers import CpSatModel, Generated, Generation, Model, Result, solve
from . import pooled as pooling
from .columns import COLUMN_LIMIT, Column, all_columns
from .instance import Instance
from .schedule import REJECTED, JobPlan, Schedule
from .subroutine import best_schedule

TINY_UTILITY = 1e-12


def _objective_utility(value: float) -> float:
    return value if value >= TINY_UTILITY else 0.0


def time_indexed(instance: Instance, relax: bool = False) -> Model:
    """Problem (1) as a MILP (or its LP relaxation), started from the better of OASiS's and RRH's
    schedules (a MIP start).

    References
    ----------
    .. [1] Y. Bao, Y. Peng, C. Wu, and Z. Li, “Online Job Scheduling in Distributed Machine Learning Clusters,” IEEE
       INFOCOM, 2018; problem (1).
    """
    T, R = instance.T, instance.R
    kind = pulp.LpContinuous if relax else pulp.LpInteger
    prob = pulp.LpProblem("oasis_time_indexed", pulp.LpMaximize)
    phi, y, z = {}, {}, {}
    runnable = [i for i, f in enumerate(instance.facts) if f.feasible]
    model_variables(sum(T + 1 - instance.jobs[i].arrival for i in runnable), "time-indexed")
    for i in runnable:
        job, facts = instance.jobs[i], instance.facts[i]
        for t in range(job.arrival, T + 1):
            phi[i, t] = prob.add_variable(f"phi_{i}_{t}", 0, 1, pulp.LpContinuous if relax else pulp.LpBinary)
            for h, cap in enumerate(facts.worker_cap):
                if cap:
                    y[i, h, t] = prob.add_variable(f"y_{i}_{h}_{t}", 0, cap, kind)
            for k, cap in enumerate(facts.ps_cap):
                if cap:
                    z[i, k, t] = prob.add_variable(f"z_{i}_{k}_{t}", 0, cap, kind)
    prob += pulp.lpSum(_objective_utility(instance.jobs[i].utility.value(t - instance.jobs[i].arrival)) * v
                       for (i, t), v in phi.items())
    for i in runnable:
        job, facts = instance.jobs[i], instance.facts[i]
        slots = range(job.arrival, T + 1)
        workers = {t: pulp.lpSum(y[i, h, t] for h in range(instance.H) if (i, h, t) in y) for t in slots}
        pss = {t: pulp.lpSum(z[i, k, t] for k in range(instance.K) if (i, k, t) in z) for t in slots}
        admitted = pulp.lpSum(phi[i, t] for t in slots)
        prob += admitted <= 1, f"admit_{i}"
        if instance.mode == "worker_slots":
            prob += pulp.lpSum(workers.values()) >= facts.W * admitted, f"work_{i}"
        else:
            d = {t: prob.add_variable(f"d_{i}_{t}", 0, facts.chunks_of(job.chunks), kind) for t in slots}
            prob += pulp.lpSum(d.values()) >= facts.chunk_target * admitted, f"work_{i}"
            for t in slots:
                prob += workers[t] >= facts.rho * d[t], f"chunks_{i}_{t}"
        # the work done by slot t covers the whole target times the completion mass up to t: valid
        # because nothing runs after the completion slot, and tighter than (2) alone in the LP; at
        # the last slot it is work_i itself
        target, done = (facts.W, workers) if instance.mode == "worker_slots" else (facts.chunk_target, d)
        for t in slots[:-1]:
            prob += (pulp.lpSum(done[u] for u in range(job.arrival, t + 1))
                     >= target * pulp.lpSum(phi[i, u] for u in range(job.arrival, t + 1))), f"work_by_{i}_{t}"
        for t in slots:
            later = pulp.lpSum(phi[i, u] for u in range(t, T + 1))
            prob += workers[t] <= job.chunks * later, f"until_done_{i}_{t}"  # (3), and nothing after t̂
            prob += workers[t] >= phi[i, t], f"last_slot_{i}_{t}"  # a worker in the completion slot (8)
            prob += job.b * workers[t] <= job.B * pss[t], f"bandwidth_{i}_{t}"  # (6)
            prob += pss[t] <= workers[t], f"ps_le_workers_{i}_{t}"  # (7)
    for pool, counts, servers, demand_of in (("w", y, instance.worker_servers, lambda j: j.worker_demand),
                                             ("p", z, instance.ps_servers, lambda j: j.ps_demand)):
        for t in range(1, T + 1):
            for s, limits in enumerate(servers):
                for r in range(R):
                    terms = [demand_of(instance.jobs[i])[r] * counts[i, s, t] for i in runnable
                             if (i, s, t) in counts and demand_of(instance.jobs[i])[r] > 0]
                    if terms:
                        prob += pulp.lpSum(terms) <= limits[r], f"cap_{pool}_{t}_{s}_{r}"  # (4) or (5)
    if relax:
        return Model(prob)

    start: dict[str, float] = {}
    plans = _best_online(instance).plans
    for i in runnable:
        plan, facts = plans[i], instance.facts[i]
        end = plan.completion()
        if not plan.admitted or end is None:
            continue
        start[phi[i, end].name] = 1.0
        for counts, entries in ((y, plan.workers), (z, plan.ps)):
            for t, s, n in entries:
                start[counts[i, s, t].name] = float(n)
        if instance.mode != "worker_slots":
            for t, n in plan.workers_per_slot().items():
                start[f"d_{i}_{t}"] = float(facts.chunks_of(n))

    def decode(result: Result) -> Schedule:
        plans = []
        for i in range(len(instance.jobs)):
            admitted = i in runnable and integral(
                sum(result.value(phi[i, t]) for t in range(instance.jobs[i].arrival, T + 1))) == 1
            if not admitted:
                plans.append(REJECTED)
                continue
            plans.append(JobPlan(True, _placed(result, y, i), _placed(result, z, i)))
        return Schedule(tuple(plans))

    return Model(prob, decode, start=start)


def _best_online(instance: Instance) -> Schedule:
    """The better of OASiS's (Algorithm 1) and RRH's schedules: the MIP start and the CP-SAT hint."""
    from ..registry import get

    # each algorithm named by a literal, so that a cache key depends on these two alone (study/depends.py)
    runs = [get("oasis").run(instance, "oasis"), get("oasis").run(instance, "rrh")]
    return max(runs, key=lambda ran: -math.inf if ran.objective is None else ran.objective).schedule


def _placed(result: Result, counts: dict, i: int) -> tuple[tuple[int, int, int], ...]:
    """The positive (slot, server, count) entries of job ``i`` in a solution (of the MILP or the
    CP-SAT model: ``counts`` maps ``(job, server, slot)`` to either's variables)."""
    entries = []
    for (j, server, t), var in counts.items():
        if j != i:
            continue
        n = integral(result.value(var))
        if n:
            entries.append((t, server, n))
    return tuple(sorted(entries))


def compact_exponential(instance: Instance, relax: bool = False, column_limit: int = COLUMN_LIMIT) -> Model:
    """ILP (14) over the enumerated columns (or its LP relaxation); rows are named ``cap_w_t_h_r``
    (15), ``cap_p_t_k_r`` (16) and ``job_i`` (17), so that LP duals read as ``p``, ``q``, ``μ``.

    References
    ----------
    .. [1] Y. Bao, Y. Peng, C. Wu, and Z. Li, “Online Job Scheduling in Distributed Machine Learning Clusters,” IEEE
       INFOCOM, 2018; ILP (14).
    """
    columns = all_columns(instance, column_limit)
    return _master(instance, columns, relax)


def _master(instance: Instance, columns: list[list[Column]], relax: bool) -> Model:
    prob = pulp.LpProblem("oasis_compact_exponential", pulp.LpMaximize)
    x = {}
    for i, job_columns in enumerate(columns):
        for l in range(len(job_columns)):
            x[i, l] = prob.add_variable(f"x_{i}_{l}", 0, None if relax else 1,
                                        pulp.LpContinuous if relax else pulp.LpBinary)
    prob += pulp.lpSum(_objective_utility(columns[i][l].utility) * v for (i, l), v in x.items())
    rows: dict[str, list] = {}
    for (i, l), v in x.items():
        job, col = instance.jobs[i], columns[i][l]
        for t, h, n in col.workers:
            for r, need in enumerate(job.worker_demand):
                if need > 0:
                    rows.setdefault(f"cap_w_{t}_{h}_{r}", []).append(need * n * v)
        for t, k, n in col.ps:
            for r, need in enumerate(job.ps_demand):
                if need > 0:
                    rows.setdefault(f"cap_p_{t}_{k}_{r}", []).append(need * n * v)
    for name, terms in rows.items():
        pool, _, server, resource = name.split("_")[1:]
        capacity = (instance.worker_servers if pool == "w" else instance.ps_servers)[int(server)][int(resource)]
        prob += pulp.lpSum(terms) <= capacity, name
    for i, job_columns in enumerate(columns):
        if job_columns:
            prob += pulp.lpSum(x[i, l] for l in range(len(job_columns))) <= 1, f"job_{i}"
    if relax:
        return Model(prob)

    def decode(result: Result) -> Schedule:
        plans = [REJECTED] * len(instance.jobs)
        for (i, l), v in x.items():
            if integral(result.value(v)) == 1:
                plans[i] = columns[i][l].to_job_plan()
        return Schedule(tuple(plans))

    return Model(prob, decode)


def dual(instance: Instance, relax: bool = False, column_limit: int = COLUMN_LIMIT) -> Model:
    """The dual (19)/(20) of LP(14), built directly: minimise ``Σ μ + Σ p c + Σ q c`` subject to
    ``μ_i + cost_l(p, q) >= f_i(t_il − a_i)`` for every enumerated schedule. It is an LP already;
    ``relax`` is accepted and changes nothing.

    References
    ----------
    .. [1] Y. Bao, Y. Peng, C. Wu, and Z. Li, “Online Job Scheduling in Distributed Machine Learning Clusters,” IEEE
       INFOCOM, 2018; the dual (19)/(20).
    """
    columns = all_columns(instance, column_limit)
    prob = pulp.LpProblem("oasis_dual", pulp.LpMinimize)
    mu = {i: prob.add_variable(f"mu_{i}", 0) for i, cols in enumerate(columns) if cols}
    p: dict[tuple, pulp.LpVariable] = {}

    def price(pool: str, t: int, s: int, r: int) -> pulp.LpVariable:
        if (pool, t, s, r) not in p:
            p[pool, t, s, r] = prob.add_variable(f"{'p' if pool == 'w' else 'q'}_{t}_{s}_{r}", 0)
        return p[pool, t, s, r]

    rows = []
    for i, job_columns in enumerate(columns):
        job = instance.jobs[i]
        for l, col in enumerate(job_columns):
            cost = [need * n * price("w", t, h, r) for t, h, n in col.workers
                    for r, need in enumerate(job.worker_demand) if need > 0]
            cost += [need * n * price("p", t, k, r) for t, k, n in col.ps
                     for r, need in enumerate(job.ps_demand) if need > 0]
            rows.append((mu[i] + pulp.lpSum(cost) >= _objective_utility(col.utility), f"schedule_{i}_{l}"))
    prob += pulp.lpSum(mu.values()) + pulp.lpSum(
        (instance.worker_servers if pool == "w" else instance.ps_servers)[s][r] * v for (pool, t, s, r), v in p.items())
    for row, name in rows:
        prob += row, name
    return Model(prob)


@dataclass
class ColumnGeneration:
    """The outcome of :func:`run_column_generation`: the final master LP, its columns, and per
    iteration the master's value and the Lagrangian upper bound on LP(14)."""

    columns: list[list[Column]]
    master_values: list[float] = field(default_factory=list)
    upper_bounds: list[float] = field(default_factory=list)
    result: Result | None = None
    converged: bool = False
    stopped: str = ""

    @property
    def iterations(self) -> int:
        """The number of master solves."""
        return len(self.master_values)


def run_column_generation(instance: Instance, *, tol: float = 1e-9, max_iterations: int = 10_000,
                          solver: str = "highs", time_limit: float | None = None) -> ColumnGeneration:
    """LP(14) by column generation; the pricing problem of job ``i`` is Algorithm 2 with the master's
    duals as prices and the empty cluster (single-server capacity only), which is exact (Theorem 1).

    Stops when no job has a schedule with reduced cost ``payoff − μ_i > tol · max(1, max f)``;
    after every complete pricing round ``Σ_i max(μ_i, best payoff_i) + Σ p c + Σ q c`` is an upper
    bound on LP(14) (a feasible solution of the dual (19); at zero prices before the first master).
    ``time_limit`` (seconds) is checked between jobs: a round it cuts short adds no bound, and the
    state is returned with ``stopped`` saying so."""
    deadline = math.inf if time_limit is None else time.perf_counter() + time_limit
    T, H, K, R = instance.T, instance.H, instance.K, instance.R
    cap_w = np.broadcast_to(np.asarray(instance.worker_servers, float), (T, H, R))
    cap_p = np.broadcast_to(np.asarray(instance.ps_servers, float), (T, K, R))
    state = ColumnGeneration([[] for _ in instance.jobs])
    scale = max([1.0] + [job.utility.value(0) for job in instance.jobs])
    prices_w, prices_p = np.zeros((T, H, R)), np.zeros((T, K, R))
    payoffs = [0.0] * len(instance.jobs)
    for _ in range(max_iterations):
        added = 0
        best = []
        for i in range(len(instance.jobs)):
            if time.perf_counter() >= deadline:
                state.stopped = f"stopped by the time limit after {state.iterations} master solves"
                return state
            plan = best_schedule(instance, i, prices_w, prices_p, cap_w, cap_p)
            value = plan.payoff if plan is not None else 0.0
            best.append(value)
            if plan is not None and value - payoffs[i] > tol * scale:
                jp = plan.to_job_plan()
                state.columns[i].append(Column(i, plan.completion, plan.utility, jp.workers, jp.ps))
                added += 1
        resource_value = float((prices_w * cap_w).sum() + (prices_p * cap_p).sum())
        state.upper_bounds.append(sum(max(m, b, 0.0) for m, b in zip(payoffs, best)) + resource_value)
        if not added:
            state.converged = True
            return state
        master = state.result = solve(_master(instance, state.columns, relax=True), solver=solver)
        if not master.optimal or master.objective is None:
            raise SolverFailure(f"column generation: the master LP ended {master.status}")
        if master.duals is None:
            raise SolverFailure(f"column generation: {master.solver} returned no duals for the master LP")
        state.master_values.append(master.objective)
        prices_w, prices_p = np.zeros((T, H, R)), np.zeros((T, K, R))
        for name, value in master.duals.items():
            parts = name.split("_")
            if parts[0] == "cap":
                t, s, r = map(int, parts[2:])
                (prices_w if parts[1] == "w" else prices_p)[t - 1, s, r] = max(0.0, value)
        payoffs = [max(0.0, master.duals.get(f"job_{i}", 0.0)) for i in range(len(instance.jobs))]
    state.stopped = f"stopped after {max_iterations} master solves"
    return state


def column_generation(instance: Instance, relax: bool = False) -> Generated:
    """LP(14) by :func:`run_column_generation`: ``optimal`` (the master's value) when it converges,
    else the last master's value (LP-feasible, below LP(14)) and the least upper bound, certified by
    the exact pricing. It is an LP; ``relax`` is accepted and changes nothing. Its cross-check is
    LP(14) written out with every enumerated schedule (small instances only)."""
    def run(time_limit: float | None, rounds: int | None = None) -> Generation:
        state = run_column_generation(instance, time_limit=time_limit,
                                      max_iterations=10_000 if rounds is None else rounds)
        value = state.master_values[-1] if state.master_values else 0.0  # admitting no job is LP-feasible
        done = ("converged: no schedule prices out, so the objective is LP(14)" if state.converged else
                f"{state.stopped}: the bound holds (a dual-feasible point of (19)), the objective is "
                "an LP-feasible value")
        # before a complete round: each job admitted at most once (job_i), at its best utility at most
        each_at_best = math.fsum(max(job.utility.value(d) for d in range(instance.T + 1)) for job in instance.jobs)
        return Generation(value, min(state.upper_bounds, default=each_at_best), state.converged,
                          f"{done} ({state.iterations} master solves, {sum(map(len, state.columns))} columns)")

    return Generated("max", run, "column-generation", lambda: compact_exponential(instance, relax=True))


def pooled(instance: Instance, relax: bool = False) -> Generated:
    """An upper bound on LP(14) at any size (:mod:`.pooled`): the dual (19) at the prices of the LP
    with the servers pooled and time cumulated, priced exactly by Algorithm 2; its objective is the
    best schedule those prices give (integral, so LP(14)-feasible; verified by the pipeline). It is
    an LP; ``relax`` is accepted and changes nothing. Its cross-check is LP(14) written out with
    every enumerated schedule (small instances only), whose optimum lies between the two."""
    def run(time_limit: float | None, rounds: int | None = None) -> Generation:
        out = pooling.run(instance)
        met = close(out.found, out.bound)  # the schedule meets the bound: both are LP(14)'s optimum
        message = (f"the bound is L(p) of the dual (19) at the prices of the pooled LP (optimum {out.lp:.6g}, "
                   f"{out.rows} window rows), priced exactly by Algorithm 2; the objective is the best schedule "
                   "at those prices" + (", which meets the bound" if met else ""))
        return Generation(out.found, out.bound, met, message, tuple(out.trajectory), out.schedule)

    return Generated("max", run, "pooled-lp-prices", lambda: compact_exponential(instance, relax=True))


def single_job(instance: Instance, i: int, price_w: np.ndarray, price_p: np.ndarray,
               free_w: np.ndarray, free_p: np.ndarray) -> Model:
    """Problem (27) as a MILP (spec §2.5 (f)): job ``i``'s best payoff at prices ``price_*`` within
    the free capacity ``free_*`` (arrays (T, servers, R)). Algorithm 2 claims its optimum
    (Theorem 1); ``μ_i = max(0, optimum)``, or 0 when the model is infeasible."""
    job, facts = instance.jobs[i], instance.facts[i]
    T = instance.T
    w, s = np.asarray(job.worker_demand), np.asarray(job.ps_demand)
    prob = pulp.LpProblem(f"oasis_single_job_{i}", pulp.LpMaximize)
    slots = range(job.arrival, T + 1)
    phi = {t: prob.add_variable(f"phi_{t}", 0, 1, pulp.LpBinary) for t in slots}

    def room(free: np.ndarray, demand: np.ndarray, t: int, server: int) -> int:
        fits = [int(np.floor(free[t - 1, server, r] / demand[r] + 1e-9)) for r in range(len(demand)) if demand[r] > 0]
        return max(0, min([job.chunks, *fits]))

    y = {(h, t): prob.add_variable(f"y_{h}_{t}", 0, room(free_w, w, t, h), pulp.LpInteger)
         for t in slots for h in range(instance.H)}
    z = {(k, t): prob.add_variable(f"z_{k}_{t}", 0, room(free_p, s, t, k), pulp.LpInteger)
         for t in slots for k in range(instance.K)}
    prob += (pulp.lpSum(job.utility.value(t - job.arrival) * phi[t] for t in slots)
             - pulp.lpSum(float(price_w[t - 1, h] @ w) * v for (h, t), v in y.items())
             - pulp.lpSum(float(price_p[t - 1, k] @ s) * v for (k, t), v in z.items()))
    prob += pulp.lpSum(phi.values()) == 1, "admitted"
    workers = {t: pulp.lpSum(y[h, t] for h in range(instance.H)) for t in slots}
    pss = {t: pulp.lpSum(z[k, t] for k in range(instance.K)) for t in slots}
    if instance.mode == "worker_slots":
        prob += pulp.lpSum(workers.values()) >= facts.W, "work"
    else:
        d = {t: prob.add_variable(f"d_{t}", 0, None, pulp.LpInteger) for t in slots}
        prob += pulp.lpSum(d.values()) >= facts.chunk_target, "work"
        for t in slots:
            prob += workers[t] >= facts.rho * d[t], f"chunks_{t}"
    for t in slots:
        prob += workers[t] <= job.chunks * pulp.lpSum(phi[u] for u in range(t, T + 1)), f"until_done_{t}"
        prob += workers[t] >= phi[t], f"last_slot_{t}"
        prob += job.b * workers[t] <= job.B * pss[t], f"bandwidth_{t}"
        prob += pss[t] <= workers[t], f"ps_le_workers_{t}"
    return Model(prob)


def dorm_milp(instance: Instance, jobs: list[int], drf_counts: dict[int, int], previous: dict[int, int],
              fairness: float, adjust: float) -> Model:
    """The MILP the Dorm baseline (Sun et al., as OASiS Section V describes it) solves at each event
    for the unfinished ``jobs``: maximise the resource-weighted number of workers and PSs placed,
    within the capacities, each job's chunks, its bandwidth and PS ratio, at least ``fairness`` of
    its DRF share (``drf_counts``), and at most ``adjust`` of the jobs changed from ``previous``.
    Its decoder gives, per job, workers and PSs per server. Expressions are built from (variable,
    coefficient) pairs: PuLP's operator arithmetic is too slow here."""
    H, K, R = instance.H, instance.K, instance.R
    cap_w, cap_p = np.asarray(instance.worker_servers, float), np.asarray(instance.ps_servers, float)
    total_w, total_p = cap_w.sum(axis=0), cap_p.sum(axis=0)
    prob = pulp.LpProblem("dorm", pulp.LpMaximize)
    y, z, delta = {}, {}, {}
    for i in jobs:
        facts = instance.facts[i]
        y[i] = {h: prob.add_variable(f"y_{i}_{h}", 0, facts.worker_cap[h], pulp.LpInteger)
                for h in range(H) if facts.worker_cap[h]}
        z[i] = {k: prob.add_variable(f"z_{i}_{k}", 0, facts.ps_cap[k], pulp.LpInteger)
                for k in range(K) if facts.ps_cap[k]}
        delta[i] = prob.add_variable(f"delta_{i}", 0, 1, pulp.LpBinary)

    def expr(pairs, constant=0.0):
        return pulp.LpAffineExpression(pairs, constant=constant)

    objective = []
    for i in jobs:
        job = instance.jobs[i]
        weight_w = sum(job.worker_demand[r] / total_w[r] for r in range(R) if total_w[r] > 0)
        weight_p = sum(job.ps_demand[r] / total_p[r] for r in range(R) if total_p[r] > 0)
        objective += [(v, weight_w) for v in y[i].values()] + [(v, weight_p) for v in z[i].values()]
    prob += expr(objective)
    for pool, counts, cap, demand_of, size in (("w", y, cap_w, lambda j: j.worker_demand, H),
                                                ("p", z, cap_p, lambda j: j.ps_demand, K)):
        for server in range(size):
            for r in range(R):
                pairs = [(counts[i][server], demand_of(instance.jobs[i])[r]) for i in jobs
                         if server in counts[i] and demand_of(instance.jobs[i])[r] > 0]
                if pairs:
                    prob += pulp.LpConstraint(expr(pairs), pulp.LpConstraintLE, f"cap_{pool}_{server}_{r}",
                                              cap[server, r])
    for i in jobs:
        job = instance.jobs[i]
        workers = [(v, 1.0) for v in y[i].values()]
        pss = [(v, 1.0) for v in z[i].values()]
        before = previous.get(i, 0)
        rows = {
            f"chunks_{i}": (workers, pulp.LpConstraintLE, job.chunks),
            f"bandwidth_{i}": ([(v, job.b) for v, _ in workers] + [(v, -job.B) for v, _ in pss],
                               pulp.LpConstraintLE, 0),
            f"ps_le_workers_{i}": (pss + [(v, -1.0) for v, _ in workers], pulp.LpConstraintLE, 0),
            f"grow_{i}": (workers + [(delta[i], -job.chunks)], pulp.LpConstraintLE, before),
            f"shrink_{i}": ([(v, -1.0) for v, _ in workers] + [(delta[i], -job.chunks)], pulp.LpConstraintLE, -before),
        }
        if fairness > 0:
            rows[f"fair_{i}"] = (workers, pulp.LpConstraintGE, math.floor(fairness * drf_counts.get(i, 0)))
        for name, (pairs, sense, rhs) in rows.items():
            prob += pulp.LpConstraint(expr(pairs), sense, name, rhs)
    prob += pulp.LpConstraint(expr([(d, 1.0) for d in delta.values()]), pulp.LpConstraintLE, "adjustments",
                              math.ceil(adjust * len(jobs)))

    def decode(result: Result) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        placement = {}
        for i in jobs:
            w = np.zeros(H, np.int64)
            p = np.zeros(K, np.int64)
            for h, v in y[i].items():
                w[h] = integral(result.value(v))
            for k, v in z[i].items():
                p[k] = integral(result.value(v))
            placement[i] = (w, p)
        return placement

    return Model(prob, decode)


#: Utilities enter the CP-SAT objective as integers in units of ``1 / UTILITY_SCALE``.
UTILITY_SCALE = 10**9


def cp_sat(instance: Instance, relax: bool = False) -> CpSatModel:
    """Problem (1) as a CP-SAT model, written independently of the MILP for cross-checks.

    Per runnable job a literal ``last[i,t]`` per slot (at most one: admitted, completing in ``t``),
    ``run[i,t] = Σ_{u >= t} last[i,u]``, and integer worker and PS counts per server and slot. (3)
    ``Σ_h y <= N run``; a worker in the completion slot (8); (6) as an element constraint, the PSs
    at least ``⌈n b / B⌉`` of the slot's ``n`` workers (``JobFacts.ps_needed``); (7) ``Σ_k z <= Σ_h y``;
    the workload (2) ``Σ y >= W`` if admitted, or (2B) with chunks ``d_t <= ⌊n / ρ⌋`` (an element
    table); capacities (4)/(5) per server, slot and resource, the demands scaled to integers
    (refused beyond six decimals). ``max Σ f_i(t − a_i) last[i,t]``, each utility rounded to
    ``1 / UTILITY_SCALE``: the optimum is exact for the rounded objective, and within
    ``J / (2 UTILITY_SCALE)`` of (1)'s. The hint is the better of OASiS's and RRH's schedules."""
    from ortools.sat.python import cp_model

    from ..numeric import integer_scale

    if relax:
        raise InputError("formulation cp-sat has no LP relaxation")
    T, R = instance.T, instance.R
    runnable = [i for i, f in enumerate(instance.facts) if f.feasible]
    model_variables(sum(T + 1 - instance.jobs[i].arrival for i in runnable), "cp-sat")
    model = cp_model.CpModel()
    last, y, z = {}, {}, {}
    objective = []
    for i in runnable:
        job, facts = instance.jobs[i], instance.facts[i]
        slots = range(job.arrival, T + 1)
        ends = {t: model.new_bool_var(f"last_{i}_{t}") for t in slots}
        model.add_at_most_one(ends.values())
        last.update({(i, t): v for t, v in ends.items()})
        totals, chunks = [], []
        need = [facts.ps_needed(n, job.b, job.B) for n in range(job.chunks + 1)]
        trained = [facts.chunks_of(n) for n in range(job.chunks + 1)]
        for t in slots:
            running = sum(ends[u] for u in slots if u >= t)
            for h, cap in enumerate(facts.worker_cap):
                if cap:
                    y[i, h, t] = model.new_int_var(0, cap, f"y_{i}_{h}_{t}")
            for k, cap in enumerate(facts.ps_cap):
                if cap:
                    z[i, k, t] = model.new_int_var(0, cap, f"z_{i}_{k}_{t}")
            ws = [y[i, h, t] for h in range(instance.H) if (i, h, t) in y]
            ps = [z[i, k, t] for k in range(instance.K) if (i, k, t) in z]
            n = model.new_int_var(0, job.chunks, f"n_{i}_{t}")
            model.add(n == sum(ws))
            model.add(n <= job.chunks * running)  # (3), and nothing after the completion slot
            model.add(n >= ends[t])  # a worker in the completion slot (8)
            least = model.new_int_var(0, max(need), f"ps_need_{i}_{t}")
            model.add_element(n, need, least)
            model.add(sum(ps) >= least)  # (6)
            model.add(sum(ps) <= n)  # (7)
            totals.append(n)
            if instance.mode != "worker_slots":
                d = model.new_int_var(0, max(trained), f"d_{i}_{t}")
                most = model.new_int_var(0, max(trained), f"d_most_{i}_{t}")
                model.add_element(n, trained, most)
                model.add(d <= most)
                chunks.append(d)
            objective.append(round(_objective_utility(job.utility.value(t - job.arrival)) * UTILITY_SCALE) * ends[t])
        admitted = sum(ends.values())
        if instance.mode == "worker_slots":
            model.add(sum(totals) >= facts.W * admitted)  # (2)
        else:
            model.add(sum(chunks) >= facts.chunk_target * admitted)  # (2B)
    for counts, servers, demand_of in ((y, instance.worker_servers, lambda j: j.worker_demand),
                                       (z, instance.ps_servers, lambda j: j.ps_demand)):
        for r in range(R):
            scale = integer_scale([demand_of(job)[r] for job in instance.jobs] + [c[r] for c in servers],
                                  f"cp-sat: resource {instance.resources[r]}")
            for t in range(1, T + 1):
                for s, limits in enumerate(servers):
                    terms = [round(demand_of(instance.jobs[i])[r] * scale) * counts[i, s, t] for i in runnable
                             if (i, s, t) in counts and demand_of(instance.jobs[i])[r] > 0]
                    if terms:
                        model.add(sum(terms) <= round(limits[r] * scale))  # (4) or (5)
    model.maximize(sum(objective))
    _hint(model, instance, last, y, z)
    read = {v.name: v for v in (*last.values(), *y.values(), *z.values())}

    def decode(result: Result) -> Schedule:
        plans = []
        for i in range(len(instance.jobs)):
            if not any(integral(result.value(v)) for (j, _), v in last.items() if j == i):
                plans.append(REJECTED)
                continue
            plans.append(JobPlan(True, _placed(result, y, i), _placed(result, z, i)))
        return Schedule(tuple(plans))

    return CpSatModel(model, "max", read, decode, scale=UTILITY_SCALE)


def _hint(model, instance: Instance, last: dict, y: dict, z: dict) -> None:
    """Hint the better online schedule (:func:`_best_online`), job by job where it fits the model."""
    for i, plan in enumerate(_best_online(instance).plans):
        keys = [k for k in last if k[0] == i]
        if not keys:
            continue
        end = plan.completion() if plan.admitted else None
        workers = {(i, s, t): n for t, s, n in plan.workers}
        pss = {(i, s, t): n for t, s, n in plan.ps}
        if any(k not in y for k in workers) or any(k not in z for k in pss):
            continue
        for key in keys:
            model.add_hint(last[key], int(key[1] == end))
        for key, v in y.items():
            if key[0] == i:
                model.add_hint(v, workers.get(key, 0))
        for key, v in z.items():
            if key[0] == i:
                model.add_hint(v, pss.get(key, 0))
