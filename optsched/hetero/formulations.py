"""Exact models of problem (2) (ps) and (15) (allreduce), spec §2.3-§2.5.

Both use the shapes of W1/W2 (:attr:`Instance.shapes`), PSs on one server (W3), the relaxed
co-location rule (W4), and the one-pass horizon of spec §2.7 (:func:`columns.horizon`): job ``j``
completes by ``latest[j]``, which no optimal schedule exceeds. Both are exact, and tests check that
they agree; ``relax=True`` gives their LP relaxations (lower bounds; model A's is much stronger).

``configuration`` (model A)::

    min  Σ_j Σ_{l ∈ Γ_j} w_j (t_l + d_l) x_l
    s.t. Σ_{l ∈ Γ_j} x_l = 1                                   (assign_j)
         Σ_j Σ_{l: t ∈ T(l)} f^r_h(l) x_l <= C^r_h              (cap_h_r_t; only rows that can bind)

``time-indexed`` (model B): shape-and-start binaries ``X``, integer placements ``Y`` (workers),
``S`` (PSs), PS/co-location server ``Π``, occupancy ``Wo``, ``Vo`` (constraints C1-C7 of §2.4).
"""

from __future__ import annotations

import math
from collections import defaultdict

import pulp

from ..numeric import integral
from ..solvers import Model, Result
from .columns import horizon, options
from .instance import Instance, ps_type
from .schedule import JobSchedule, Schedule


def configuration(instance: Instance, relax: bool = False) -> Model:
    """Model A: one binary per (job, placed shape, start); exact by W1-W4."""
    opts = options(instance)
    hz = horizon(instance, opts)
    problem = pulp.LpProblem("hetero_configuration", pulp.LpMinimize)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    columns = []  # (job, option, start, variable)
    for j, job in enumerate(instance.jobs):
        for k, option in enumerate(opts[j]):
            for t in range(job.arrival, hz.latest[j] - option.shape.d + 1):
                columns.append((j, option, t, problem.add_variable(f"x_{j}_{k}_{t}", 0, 1, category)))
    problem += pulp.lpSum(instance.jobs[j].weight * (t + o.shape.d) * x for j, o, t, x in columns)
    by_job = defaultdict(list)
    rows = defaultdict(list)  # (h, r, t) -> [(usage, x)]
    for j, option, t, x in columns:
        by_job[j].append(x)
        schedule = option.at(t)
        for h in range(instance.H):
            footprint = schedule.footprint(instance, h)
            for r, used in enumerate(footprint):
                if used > 0:
                    for slot in range(t, t + option.shape.d):
                        rows[(h, r, slot)].append((used, x))
    for j in range(len(instance.jobs)):
        problem += pulp.lpSum(by_job[j]) == 1, f"assign_{j}"
    for (h, r, t), terms in sorted(rows.items()):
        if sum(u for u, _ in terms) > instance.capacity[h][r] + 1e-9:
            problem += pulp.lpSum(u * x for u, x in terms) <= instance.capacity[h][r], f"cap_{h}_{r}_{t}"
    if relax:
        return Model(problem)

    def decode(result: Result) -> Schedule:
        chosen: dict[int, JobSchedule] = {}
        for j, option, t, x in columns:
            if integral(result.value(x)) == 1:
                chosen[j] = option.at(t)
        if len(chosen) != len(instance.jobs):
            raise ValueError("configuration solution leaves some job without a schedule")
        return Schedule(tuple(chosen[j] for j in range(len(instance.jobs))))

    return Model(problem, decode)


def _occupancy(problem: pulp.LpProblem, name: str, amount, bound: int, run, demand, terms: dict) -> None:
    """C6: ``o >= amount − bound (1 − run)`` (the count present in a slot), and ``o``'s usage in C7."""
    if not any(demand):
        return
    present = problem.add_variable(name, 0, None, pulp.LpContinuous)
    problem += present >= amount - bound * (1 - run), f"C6_{name}"
    for r, need in enumerate(demand):
        if need > 0:
            terms[r].append(need * present)


def time_indexed(instance: Instance, relax: bool = False) -> Model:
    """Model B (spec §2.4; for allreduce without S, C3 and C4, §2.5); exact by W1-W4."""
    opts = options(instance)
    hz = horizon(instance, opts)
    ps = instance.framework == "ps"
    H, M, P = instance.H, instance.M, instance.P
    problem = pulp.LpProblem("hetero_time_indexed", pulp.LpMinimize)
    binary = pulp.LpContinuous if relax else pulp.LpBinary
    integer = pulp.LpContinuous if relax else pulp.LpInteger
    X: dict[int, tuple] = {}
    objective: list = []
    cap_terms: dict = defaultdict(lambda: defaultdict(list))  # (h, slot) -> r -> terms of C7
    b_max = max(instance.b(m) for m in range(M))
    for j, job in enumerate(instance.jobs):
        D = job.chunks
        shapes = list(dict.fromkeys(o.shape for o in opts[j]))  # shapes with a placement that fits
        Xj = {(k, t): problem.add_variable(f"X_{j}_{k}_{t}", 0, 1, binary)
              for k, sh in enumerate(shapes) for t in range(job.arrival, hz.latest[j] - sh.d + 1)}
        X[j] = (shapes, Xj)
        objective += [job.weight * (t + shapes[k].d) * x for (k, t), x in Xj.items()]
        problem += pulp.lpSum(Xj.values()) == 1, f"C1_{j}"
        Y = {(h, m): problem.add_variable(f"Y_{j}_{h}_{m}", 0, D, integer) for h in range(H) for m in range(M)}
        Pi = {h: problem.add_variable(f"Pi_{j}_{h}", 0, 1, binary) for h in range(H)}
        problem += pulp.lpSum(Pi.values()) == 1, f"C3one_{j}"
        for m in range(M):
            workers_of_m = pulp.lpSum(shapes[k].workers * x for (k, t), x in Xj.items() if shapes[k].m == m)
            problem += pulp.lpSum(Y[h, m] for h in range(H)) == workers_of_m, f"C2_{j}_{m}"
        Q = pulp.lpSum(x for (k, t), x in Xj.items() if shapes[k].q == 1)
        for h in range(H):
            for m in range(M):
                problem += Y[h, m] <= D * (Pi[h] + 1 - Q), f"C5_{j}_{h}_{m}"
        S, s_max = {}, 0
        if ps:
            s_max = max(1, math.ceil(D * b_max / min(instance.B(p) for p in range(P)) - 1e-9))
            S = {(h, p): problem.add_variable(f"S_{j}_{h}_{p}", 0, s_max, integer) for h in range(H) for p in range(P)}
            for p in range(P):
                nu = pulp.lpSum(x for (k, t), x in Xj.items() if shapes[k].p == p)
                for h in range(H):
                    problem += S[h, p] <= s_max * nu, f"C3type_{j}_{h}_{p}"
                    problem += S[h, p] <= s_max * Pi[h], f"C3server_{j}_{h}_{p}"
            for h in range(H):
                problem += pulp.lpSum(S[h, p] for p in range(P)) >= Pi[h], f"C3ps_{j}_{h}"
                remote = pulp.lpSum(instance.b(m) * (pulp.lpSum(Y[g, m] for g in range(H)) - Y[h, m]) for m in range(M))
                problem += (pulp.lpSum(instance.B(p) * S[h, p] for p in range(P))
                            >= remote - D * b_max * (1 - Pi[h])), f"C4_{j}_{h}"
        starts = defaultdict(list)
        for (k, t), x in Xj.items():
            for slot in range(t, t + shapes[k].d):
                starts[slot].append(x)
        for slot, running in sorted(starts.items()):
            run = pulp.lpSum(running)
            for h in range(H):
                for m in range(M):
                    _occupancy(problem, f"Wo_{j}_{h}_{m}_{slot}", Y[h, m], D, run, instance.worker_demand[m],
                               cap_terms[h, slot])
                for p in range(P):
                    _occupancy(problem, f"Vo_{j}_{h}_{p}_{slot}", S[h, p], s_max, run, instance.ps_demand[p],
                               cap_terms[h, slot])
        X[j] = (shapes, Xj, Y, S)
    problem += pulp.lpSum(objective)
    for (h, slot), by_resource in sorted(cap_terms.items()):
        for r, terms in sorted(by_resource.items()):
            problem += pulp.lpSum(terms) <= instance.capacity[h][r], f"C7_{h}_{r}_{slot}"
    if relax:
        return Model(problem)

    def decode(result: Result) -> Schedule:
        jobs = []
        for j in range(len(instance.jobs)):
            shapes, Xj, Y, S = X[j]
            (k, t), = [key for key, x in Xj.items() if integral(result.value(x)) == 1]
            sh = shapes[k]
            y = tuple(integral(result.value(Y[h, sh.m])) for h in range(H))
            s = tuple(integral(result.value(S[h, ps_type(sh.p)])) for h in range(H)) if ps else (0,) * H
            jobs.append(JobSchedule(t, sh.d, sh.m, sh.p, sh.q, y, s))
        return Schedule(tuple(jobs))

    return Model(problem, decode)


def _batch_columns(instance: Instance, jobs: list[int], tau: int):
    """Γ_j of (8) for every job of the batch (D10: all single-job constraints): every placed shape
    that fits the empty cluster, at every start with ``t + d <= τ`` (7b); the batch is available at
    time 0, so arrivals do not restrict it (Definition 1)."""
    opts = options(instance)
    for j in jobs:
        for k, option in enumerate(opts[j]):
            for t in range(1, tau - option.shape.d + 1):
                yield j, k, option.at(t)


def _usage_rows(instance: Instance, columns) -> dict:
    rows = defaultdict(list)  # (h, r, slot) -> [(usage, key)]
    for key, schedule in columns:
        for h in range(instance.H):
            for r, used in enumerate(schedule.footprint(instance, h)):
                if used > 0:
                    for slot in range(schedule.start, schedule.completion):
                        rows[(h, r, slot)].append((used, key))
    return rows


def mwsp(instance: Instance, jobs: list[int], tau: int, relax: bool = False) -> Model:
    """The maximum weighted schedule problem (7) of one batch with deadline ``τ`` as the
    configuration ILP (8): ``max Σ w_j x_l`` s.t. at most one schedule per job (8b) and capacity in
    every slot (8a). Exact (model A with ``<= 1``, spec §2.6); ``relax=True`` gives LP(8), an upper
    bound. The decoded value is ``{job: schedule}`` for the accepted jobs."""
    problem = pulp.LpProblem("hetero_mwsp", pulp.LpMaximize)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    columns = [((j, k, s.start), s) for j, k, s in _batch_columns(instance, jobs, tau)]
    x = {key: problem.add_variable(f"x_{key[0]}_{key[1]}_{key[2]}", 0, 1, category) for key, _ in columns}
    problem += pulp.lpSum(instance.jobs[key[0]].weight * x[key] for key, _ in columns)
    for j in jobs:
        mine = [x[key] for key, _ in columns if key[0] == j]
        if mine:
            problem += pulp.lpSum(mine) <= 1, f"one_{j}"
    for (h, r, slot), terms in sorted(_usage_rows(instance, columns).items()):
        if sum(u for u, _ in terms) > instance.capacity[h][r] + 1e-9:
            problem += pulp.lpSum(u * x[key] for u, key in terms) <= instance.capacity[h][r], f"cap_{h}_{r}_{slot}"
    if relax:
        return Model(problem)
    chosen = dict(columns)

    def decode(result: Result) -> dict[int, JobSchedule]:
        return {key[0]: chosen[key] for key, var in x.items() if integral(result.value(var)) == 1}

    return Model(problem, decode)


def mwsp_dual(instance: Instance, jobs: list[int], tau: int) -> Model:
    """The dual LP (9) of LP(8), built directly: ``min Σ u_j + Σ δ^r_h(t) C^r_h`` s.t.
    ``u_j + Σ_{t ∈ T(l)} Σ_h Σ_r δ^r_h(t) f^r_h(l) >= w_j`` for every ``l ∈ Γ_j`` (9a), ``u, δ >= 0``.
    Its optimum equals LP(8); prices ``δ`` are the duals of the capacity rows."""
    problem = pulp.LpProblem("hetero_mwsp_dual", pulp.LpMinimize)
    columns = [((j, k, s.start), s) for j, k, s in _batch_columns(instance, jobs, tau)]
    u = {j: problem.add_variable(f"u_{j}", 0, None, pulp.LpContinuous) for j in jobs}
    delta = {}
    for (h, r, slot) in sorted(_usage_rows(instance, columns)):
        delta[(h, r, slot)] = problem.add_variable(f"delta_{h}_{r}_{slot}", 0, None, pulp.LpContinuous)
    problem += pulp.lpSum(u.values()) + pulp.lpSum(instance.capacity[h][r] * v for (h, r, _), v in delta.items())
    for (j, k, t), schedule in columns:
        price = [used * delta[(h, r, slot)] for h in range(instance.H)
                 for r, used in enumerate(schedule.footprint(instance, h)) if used > 0
                 for slot in range(schedule.start, schedule.completion)]
        problem += u[j] + pulp.lpSum(price) >= instance.jobs[j].weight, f"cover_{j}_{k}_{t}"
    return Model(problem)
