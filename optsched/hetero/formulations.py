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

from ..numeric import round_if_integral
from ..solve import Model, Result
from .columns import horizon, options
from .instance import Instance
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
            if round_if_integral(result.value(x)) == 1:
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
    X, objective = {}, []
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
            problem += (pulp.lpSum(Y[h, m] for h in range(H))
                        == pulp.lpSum(shapes[k].workers * x for (k, t), x in Xj.items() if shapes[k].m == m)), f"C2_{j}_{m}"
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
            (k, t), = [key for key, x in Xj.items() if round_if_integral(result.value(x)) == 1]
            sh = shapes[k]
            y = tuple(int(round_if_integral(result.value(Y[h, sh.m]))) for h in range(H))
            s = tuple(int(round_if_integral(result.value(S[h, sh.p]))) for h in range(H)) if ps else (0,) * H
            jobs.append(JobSchedule(t, sh.d, sh.m, sh.p, sh.q, y, s))
        return Schedule(tuple(jobs))

    return Model(problem, decode)
