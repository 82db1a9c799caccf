"""Exact models of problem (2) (ps) and (15) (allreduce), spec §2.3-§2.5.

Both use the shapes of W1/W2 (:attr:`Instance.shapes`), PSs on one server (W3), the relaxed
co-location rule (W4), and the one-pass horizon of spec §2.7 (:func:`columns.horizon`): job ``j``
completes by ``latest[j]``, which no optimal schedule exceeds. Both are exact, and tests check that
they agree; ``relax=True`` gives their LP relaxations (lower bounds; model A's is much stronger).

``configuration`` (model A; the horizon's sequential schedule, :func:`columns.sequential`, is its MIP start)::

    min  Σ_j Σ_{l ∈ Γ_j} w_j (t_l + d_l) x_l
    s.t. Σ_{l ∈ Γ_j} x_l = 1                                   (assign_j)
         Σ_j Σ_{l: t ∈ T(l)} f^r_h(l) x_l <= C^r_h              (cap_h_r_t; only rows that can bind)

``time-indexed`` (model B): shape-and-start binaries ``X``, integer placements ``Y`` (workers),
``S`` (PSs), PS/co-location server ``Π``, occupancy ``Wo``, ``Vo`` (constraints C1-C7 of §2.4).

``cp-sat`` (model C, a CP-SAT model of the same problem (2) / (15), independent of A and B): a start
``S_j`` and an end ``E_j <= latest[j]`` per job, one literal per placed shape of Γ_j (its options,
:func:`columns.options`) with exactly one chosen (the analogue of (2a)), and an optional interval
``[S_j, S_j + d)`` per option; one ``Cumulative`` per server and resource with the option's
footprint as demand and ``C^r_h`` as capacity (the analogue of (2b)), kept only where the demands
can exceed it; redundant, per resource one ``Cumulative`` of the servers pooled over the jobs'
intervals (:func:`_servers_pooled`). ``min Σ_j w_j E_j``. Resources and weights are scaled to integers exactly
(:func:`optsched.numeric.integer_scale`). Dominance: an option no longer than another and using no
more of any resource on any server replaces it in every schedule, so the dominated one is dropped.
The hint is the horizon's sequential schedule (each job alone, WSPT order, shortest option).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
import pulp

from .. import native_output, pipeline
from ..errors import InputError
from ..numeric import integer_scale, integral
from ..solvers import CpSatModel, Generated, Generation, Model, Result
from . import column_generation as generation
from . import pooled as pooling
from .columns import Option, horizon, options, sequential
from .instance import Instance, ps_type
from .schedule import JobSchedule, Schedule


def configuration(instance: Instance, relax: bool = False) -> Model:
    """Model A: one binary per (job, placed shape, start); exact by W1-W4.

    References
    ----------
    .. [1] R. Zhou, J. Pang, Q. Zhang, C. Wu, L. Jiao, Y. Zhong, and Z. Li, “Online Scheduling Algorithm for
       Heterogeneous Distributed Machine Learning Jobs,” IEEE Transactions on Cloud Computing, vol. 11, no. 2, 2023.
       doi:10.1109/TCC.2022.3143153; problem (2).
    """
    opts = options(instance)
    hz = horizon(instance, opts)
    return _model_a(instance, opts, hz, relax, None, dict(enumerate(sequential(instance, opts, hz))))


def reduced_configuration(instance: Instance, relax: bool = False) -> Model:
    """Model A after reduced-cost fixing: exact, with far fewer columns.

    Column generation (:mod:`.column_generation`) gives prices ``π >= 0`` whose Lagrangian bound
    ``L(π) = Σ_j v_j(π) − Σ π C`` is model A's LP optimum once it converges, and its greedy start
    a schedule of cost ``UB``. For any schedule ``x`` of cost at most ``UB``,
    ``UB >= c(x) >= L(π) + Σ_j δ_j(x)`` with ``δ`` a column's reduced cost
    ``w_j (t + d) + Σ π f − v_j(π) >= 0`` (the capacity rows hold, so ``π (C − Σ f x) >= 0``). So
    every column of an optimal schedule has ``δ <= UB − L(π)``, and model A over those columns
    alone has the same optimum. ``v_j`` and ``L`` are recomputed over the enumerated columns (the
    horizon's), for which the bound holds just the same.

    ``UB`` is the best of three schedules: the horizon's sequential one, the greedy start, and
    model A over the generated columns alone (price-and-branch, within :data:`HEURISTIC_NODES`
    nodes). It is refined once by model A over the columns within :data:`NEAR` of the slack
    (:data:`REFINEMENT_NODES` nodes, and :data:`REFINEMENT_SHARE` of a time limit's seconds left), and
    the best schedule is the MIP start. The tighter ``UB``,
    the fewer columns survive: at 12 jobs about 10% of model A's. ``relax=True`` gives the full
    model A's LP."""
    if relax:
        return configuration(instance, relax=True)
    opts = options(instance)
    hz = horizon(instance, opts)
    with native_output.redirected():  # HiGHS prints a banner when the master is made
        state = generation.run(instance)
    candidates: list[dict[int, tuple[int, int]] | None] = [dict(enumerate(sequential(instance, opts, hz)))]
    if state.incumbent:
        candidates.append(_as_columns(opts, dict(enumerate(state.incumbent))))
    generated = set()
    for j, s in state.columns:
        column = _as_columns(opts, {j: s})
        if column is not None:
            generated.add((j, column[j]))
    if generated:
        heuristic = _model_a(instance, opts, hz, False, generated, _fitting(candidates, generated))
        found = pipeline.decide(heuristic, node_limit=HEURISTIC_NODES, threads=1)
        if found is not None:
            candidates.append(_as_columns(opts, dict(enumerate(found.jobs))))
    costs = [(_columns_cost(instance, opts, c), i) for i, c in enumerate(candidates) if c is not None
             and all(t + opts[j][k].shape.d <= hz.latest[j] for j, (k, t) in c.items())]
    upper, best = min(costs)
    start = candidates[best]
    reduced = _reduced_costs(instance, opts, hz, state.prices)
    # one refinement: model A over the columns within a fraction of the slack (a small model whose
    # root is quick), whose better schedule tightens UB and so drops more columns
    near = _kept(reduced, reduced.lagrangian + NEAR * (upper - reduced.lagrangian))
    found = pipeline.decide(_model_a(instance, opts, hz, False, near, _fitting([start], near)),
                            node_limit=REFINEMENT_NODES, threads=1, share=REFINEMENT_SHARE)
    better = _as_columns(opts, dict(enumerate(found.jobs))) if found is not None else None
    if better is not None and (cost := _columns_cost(instance, opts, better)) < upper:
        start, upper = better, cost
    return _model_a(instance, opts, hz, False, _kept(reduced, upper), start)


#: Branch-and-bound nodes for model A over the generated columns (the upper bound of
#: :func:`reduced_configuration`): a deterministic budget.
HEURISTIC_NODES = 1_000
#: The refinement searches model A over the columns whose reduced cost is within this fraction of
#: ``UB − L``, for :data:`REFINEMENT_NODES` nodes.
NEAR = 1 / 3
REFINEMENT_NODES = 200
#: Under a time limit the refinement gets at most this share of the seconds left, so that the exact
#: solve keeps most of them (at 24 jobs, seed 0, the 200 nodes outlast a 60 s limit).
REFINEMENT_SHARE = 0.25


def _columns_cost(instance: Instance, opts, columns: dict[int, tuple[int, int]]) -> float:
    return sum(instance.jobs[j].weight * (t + opts[j][k].shape.d) for j, (k, t) in columns.items())


def _fitting(candidates: list, keep: set) -> dict[int, tuple[int, int]] | None:
    """The first candidate schedule all of whose columns are in ``keep``."""
    return next((c for c in candidates if c is not None and all(col in keep for col in c.items())), None)


@dataclass(frozen=True)
class _Reduced:
    """Every column's cost at ``π`` per job and option (``(k, starts, costs)``), each job's least
    ``v_j(π)``, and ``L(π)``."""

    costs: list
    least: list[float]
    lagrangian: float


def _kept(reduced: _Reduced, upper: float) -> set[tuple[int, tuple[int, int]]]:
    """The columns ``(j, (k, t))`` whose reduced cost is at most ``upper − L``."""
    slack = upper - reduced.lagrangian + 1e-7 * max(1.0, abs(upper))  # keeping more columns is always safe
    keep = set()
    for j, mine in enumerate(reduced.costs):
        for k, starts, total in mine:
            for t in starts[total - reduced.least[j] <= slack].tolist():
                keep.add((j, (k, t)))
    return keep


def _reduced_costs(instance: Instance, opts, hz, prices) -> _Reduced:
    """Every enumerated column's cost ``w_j (t + d) + Σ π f`` at ``prices``, with ``v_j`` and ``L``."""
    import numpy as np

    H, R = instance.H, instance.R
    T = hz.last_slot + 2
    pi = np.zeros((H, R, T))
    span = min(T, prices.shape[2])
    pi[:, :, :span] = prices[:, :, :span]
    before = np.concatenate([np.zeros((H, R, 1)), np.cumsum(pi, axis=2)], axis=2)  # Σ π over slots < t
    costs = []
    for j, job in enumerate(instance.jobs):
        mine = []
        for k, option in enumerate(opts[j]):
            d = option.shape.d
            starts = np.arange(job.arrival, hz.latest[j] - d + 1)
            if not len(starts):
                continue
            total = job.weight * (starts + d).astype(float)
            placed = option.at(int(starts[0]))
            for h in range(H):
                if option.y[h] or option.s[h]:
                    for r, u in enumerate(placed.footprint(instance, h)):
                        if u > 0:
                            total += u * (before[h, r, starts + d] - before[h, r, starts])
            mine.append((k, starts, total))
        costs.append(mine)
    v = [min(float(total.min()) for _, _, total in mine) for mine in costs]
    return _Reduced(costs, v, sum(v) - float((pi * np.asarray(instance.capacity, float)[:, :, None]).sum()))


def _as_columns(opts, schedules: dict[int, JobSchedule]) -> dict[int, tuple[int, int]] | None:
    """Each job's schedule as ``(option index, start)``; None if some schedule is no option."""
    found = {}
    for j, s in schedules.items():
        k = next((k for k, o in enumerate(opts[j]) if (o.shape.d, o.shape.m, o.shape.p, o.shape.q, o.y, o.s)
                  == (s.d, s.m, s.p, s.q, s.y, s.s)), None)
        if k is None:
            return None
        found[j] = (k, s.start)
    return found


def _model_a(instance: Instance, opts, hz, relax: bool, keep: set | None,
             start_columns: dict[int, tuple[int, int]] | None) -> Model:
    """Model A over ``keep`` (every column when None), started from ``start_columns``."""
    problem = pulp.LpProblem("hetero_configuration", pulp.LpMinimize)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    columns = []  # (job, option, start, variable)
    for j, job in enumerate(instance.jobs):
        for k, option in enumerate(opts[j]):
            for t in range(job.arrival, hz.latest[j] - option.shape.d + 1):
                if keep is None or (j, (k, t)) in keep:
                    columns.append((j, option, t, problem.add_variable(f"x_{j}_{k}_{t}", 0, 1, category)))
    start = ({f"x_{j}_{k}_{t}": 1.0 for j, (k, t) in start_columns.items()} if start_columns is not None else None)
    # Expressions are built from (variable, coefficient) lists: PuLP's operators make one object per
    # term, which took 32 of 40 s at 10 jobs.
    problem += pulp.LpAffineExpression([(x, instance.jobs[j].weight * (t + o.shape.d)) for j, o, t, x in columns])
    by_job = defaultdict(list)
    rows = defaultdict(list)  # (h, r, t) -> [(x, usage)]
    footprints: dict[int, list[tuple[int, int, float]]] = {}  # per option: (h, r, usage > 0)
    for j, option, t, x in columns:
        by_job[j].append((x, 1))
        used = footprints.get(id(option))
        if used is None:
            placed = option.at(t)
            used = footprints[id(option)] = [(h, r, u) for h in range(instance.H)
                                             for r, u in enumerate(placed.footprint(instance, h)) if u > 0]
        for h, r, u in used:
            for slot in range(t, t + option.shape.d):
                rows[(h, r, slot)].append((x, u))
    for j in range(len(instance.jobs)):
        problem += pulp.LpConstraint(pulp.LpAffineExpression(by_job[j]), pulp.LpConstraintEQ, f"assign_{j}", 1)
    for (h, r, t), terms in sorted(rows.items()):
        if sum(u for _, u in terms) > instance.capacity[h][r] + 1e-9:
            problem += pulp.LpConstraint(pulp.LpAffineExpression(terms), pulp.LpConstraintLE, f"cap_{h}_{r}_{t}",
                                         instance.capacity[h][r])
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

    return Model(problem, decode, start=start)


def _undominated(candidates: list[tuple[Option, tuple]]) -> list[tuple[Option, tuple]]:
    """The options no other option dominates (no longer, and no more of any resource on any
    server); of options equal in duration and use, the first."""
    if len(candidates) < 2:
        return list(candidates)
    d = np.array([option.shape.d for option, _ in candidates])
    use = np.array([[x for row in used for x in row] for _, used in candidates])
    # dominates[a, b]: a is no longer than b and uses no more anywhere
    dominates = (d[:, None] <= d[None, :]) & (use[:, None, :] <= use[None, :, :]).all(axis=2)
    same = dominates & dominates.T
    earlier = ~np.tri(len(candidates), dtype=bool)  # earlier[a, b]: a comes before b
    beaten = dominates & (~same | earlier)  # an option is the same as itself and not before itself
    return [c for c, lost in zip(candidates, beaten.any(axis=0)) if not lost]


#: Jobs up to which model C is solved without CP-SAT's presolve (:func:`cp_sat_params`).
CP_SAT_NO_PRESOLVE_UP_TO = 6


def cp_sat_params(jobs: int) -> dict[str, int | bool]:
    """CP-SAT's parameters for model C with ``jobs`` jobs, measured (docs/hetero.md, "Formulations",
    ``benchmarks/cp_sat_params.py``): no probing in presolve at every size (it halves the
    deterministic time, or better, from 4 to 12 jobs); up to :data:`CP_SAT_NO_PRESOLVE_UP_TO` jobs no
    presolve at all, which is where the time of a small model goes. At 8 jobs no presolve together
    with no probing is slower than either alone, and from 10 jobs presolve pays for itself."""
    params: dict[str, int | bool] = {"cp_model_probing_level": 0}
    if jobs <= CP_SAT_NO_PRESOLVE_UP_TO:
        params["cp_model_presolve"] = False
    return params


def cp_sat(instance: Instance, relax: bool = False) -> CpSatModel:
    """Model C (module docstring): interval variables, one cumulative per server and resource."""
    from ortools.sat.python import cp_model

    if relax:
        raise InputError("formulation cp-sat has no LP relaxation")
    opts = options(instance)
    hz = horizon(instance, opts)
    H, R = instance.H, instance.R
    demands = [*instance.capacity, *instance.worker_demand, *instance.ps_demand]
    scale = [integer_scale((row[r] for row in demands), f"cp-sat: resource {r}") for r in range(R)]
    weight_scale = integer_scale((job.weight for job in instance.jobs), "cp-sat: job weights")
    worker = [[round(e[r] * scale[r]) for r in range(R)] for e in instance.worker_demand]
    server = [[round(z[r] * scale[r]) for r in range(R)] for z in instance.ps_demand]

    def usage(option: Option) -> tuple[tuple[int, ...], ...]:
        sh = option.shape
        z = server[sh.p] if sh.p is not None else [0] * R
        return tuple(tuple(option.y[h] * worker[sh.m][r] + option.s[h] * z[r] for r in range(R)) for h in range(H))

    model = cp_model.CpModel()
    read: dict = {}
    chosen: list[list[tuple[Option, Any]]] = []
    usages: list[list] = []
    demand: dict[tuple[int, int], list] = defaultdict(list)
    ends = []
    for j, job in enumerate(instance.jobs):
        fits = [(o, usage(o)) for o in opts[j] if job.arrival + o.shape.d <= hz.latest[j]]
        kept = _undominated(fits)
        shortest = min(o.shape.d for o, _ in kept)
        start = read[f"S_{j}"] = model.new_int_var(job.arrival, hz.latest[j] - shortest, f"S_{j}")
        end = model.new_int_var(job.arrival + shortest, hz.latest[j], f"E_{j}")
        literals = []
        usages.append([used for _, used in kept])
        for k, (option, used) in enumerate(kept):
            b = read[f"b_{j}_{k}"] = model.new_bool_var(f"b_{j}_{k}")
            literals.append((option, b))
            interval = model.new_optional_fixed_size_interval_var(start, option.shape.d, b, f"I_{j}_{k}")
            model.add(end == start + option.shape.d).only_enforce_if(b)
            for h in range(H):
                for r in range(R):
                    if used[h][r] > 0:
                        demand[(h, r)].append((interval, used[h][r]))
        model.add_exactly_one(b for _, b in literals)
        chosen.append(literals)
        ends.append(end)
    for (h, r), items in sorted(demand.items(), key=lambda item: item[0]):
        capacity = round(instance.capacity[h][r] * scale[r])
        if sum(d for _, d in items) > capacity:
            model.add_cumulative([i for i, _ in items], [d for _, d in items], capacity)
    _servers_pooled(model, instance, scale, chosen, usages, ends, read)
    model.minimize(sum(round(job.weight * weight_scale) * end for job, end in zip(instance.jobs, ends)))
    for j, (_, begin) in enumerate(sequential(instance, opts, hz)):  # the hint: the horizon's schedule
        # a shortest option survives dominance (whatever dominates it is as short), so one is kept
        k = next(i for i, (o, _) in enumerate(chosen[j]) if o.shape.d == hz.shortest[j])
        model.add_hint(read[f"S_{j}"], begin)
        model.add_hint(ends[j], begin + hz.shortest[j])
        for i, (_, b) in enumerate(chosen[j]):
            model.add_hint(b, int(i == k))

    def decode(result: Result) -> Schedule:
        picked = []
        for j, literals in enumerate(chosen):
            options_on = [k for k, _ in enumerate(literals) if integral(result.value(f"b_{j}_{k}")) == 1]
            if len(options_on) != 1:
                raise ValueError(f"cp-sat solution chooses {len(options_on)} options for job {j}")
            picked.append(literals[options_on[0]][0].at(integral(result.value(f"S_{j}"))))
        return Schedule(tuple(picked))

    return CpSatModel(model, "min", read, decode, scale=weight_scale, params=cp_sat_params(len(instance.jobs)))


def _servers_pooled(model: Any, instance: Instance, scale: list[int], chosen: list[list[tuple[Option, Any]]],
                    usages: list[list], ends: list, read: dict) -> None:
    """Model C's redundant constraints: per resource, the servers pooled, one ``Cumulative`` of
    capacity ``Σ_h C^r_h`` over every job's interval ``[S_j, E_j)``, of the chosen option's length,
    demanding the option's use of the resource summed over the servers. Valid for every schedule
    (the per-server capacities add up); it lets CP-SAT reason about the whole cluster's load."""
    from ortools.sat.python import cp_model

    H, R = instance.H, instance.R
    whole = []
    for j, literals in enumerate(chosen):
        length = model.new_int_var_from_domain(cp_model.Domain.from_values(sorted({o.shape.d for o, _ in literals})),
                                               f"D_{j}")
        model.add(length == sum(o.shape.d * b for o, b in literals))
        whole.append(model.new_interval_var(read[f"S_{j}"], length, ends[j], f"J_{j}"))
    for r in range(R):
        demands = []
        for j, literals in enumerate(chosen):
            totals = [sum(used[h][r] for h in range(H)) for used in usages[j]]
            total = model.new_int_var(min(totals), max(totals), f"U_{j}_{r}")
            model.add(total == sum(v * b for v, (_, b) in zip(totals, literals)))
            demands.append(total)
        model.add_cumulative(whole, demands, round(sum(instance.capacity[h][r] for h in range(H)) * scale[r]))


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
    """Model B (spec §2.4; for allreduce without S, C3 and C4, §2.5); exact by W1-W4.

    References
    ----------
    .. [1] R. Zhou, J. Pang, Q. Zhang, C. Wu, L. Jiao, Y. Zhong, and Z. Li, “Online Scheduling Algorithm for
       Heterogeneous Distributed Machine Learning Jobs,” IEEE Transactions on Cloud Computing, vol. 11, no. 2, 2023.
       doi:10.1109/TCC.2022.3143153; problem (2).
    """
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


def column_generation(instance: Instance, relax: bool = False) -> Generated:
    """Model A's LP relaxation generated column by column and row by row, with a Lagrangian bound at
    every round (:mod:`.column_generation`): the bound of problem (2) / (15) at the paper's scale,
    where model A cannot be written out. It is an LP; ``relax`` is accepted and changes nothing.
    Its cross-check is model A's LP written out in full (small instances only)."""
    def run(time_limit: float | None, rounds: int | None = None) -> Generation:
        state = generation.run(instance, time_limit=time_limit, rounds=generation.ROUNDS if rounds is None else rounds)
        done = ("converged: no column prices out and no capacity row is violated, so the objective is the LP's "
                "optimum" if state.converged else
                f"{state.stopped}: the bound holds, the objective is an LP-feasible value")
        return Generation(state.upper, state.lower, state.converged,
                          f"{done} ({state.rounds} rounds, {len(state.columns)} columns, {state.rows} capacity rows; "
                          "the bound is Lagrangian, from the exact oracles)")

    return Generated("min", run, "column-generation", lambda: configuration(instance, relax=True))


def pooled(instance: Instance, relax: bool = False) -> Generated:
    """Model A's LP with the servers pooled per resource (:mod:`.pooled`), by column generation with
    a Lagrangian bound every round: a lower bound on problem (2) / (15) at any size, and a schedule
    placed in the order of its LP completion times (verified by the pipeline). It is an LP;
    ``relax`` is accepted and changes nothing. Its cross-check is the same LP written out in full
    (:func:`pooled_lp`, small instances only)."""
    def run(time_limit: float | None, rounds: int | None = None) -> Generation:
        state = pooling.run(instance, rounds=pooling.ROUNDS if rounds is None else rounds, time_limit=time_limit)
        done = ("converged: no column prices out, so the objective is the pooled LP's optimum" if state.converged
                else f"{state.stopped}: the bound holds, the objective is an LP-feasible value")
        return Generation(state.upper, state.lower, state.converged,
                          f"{done} ({state.rounds} rounds, {len(state.columns)} columns; the bound is Lagrangian, "
                          "priced exactly by enumeration)", tuple(state.trajectory),
                          pooling.list_schedule(instance, state))

    return Generated("min", run, "pooled-column-generation", lambda: pooled_lp(instance))


def pooled_lp(instance: Instance) -> Model:
    """The pooled LP of :mod:`.pooled` written out: every shape at every start up to the serial
    schedule's horizon, where its capacity rows end (a start there or later uses none), so its
    optimum is the value the column generation converges to. Small instances only."""
    shapes = pooling.pooled_shapes(instance)
    serial = pooling.serial(instance, shapes)
    end = max(t + int(shapes[j].d[k]) for j, (k, t) in enumerate(serial)) + 1
    if sum(len(s.d) for s in shapes) * end > 200_000:
        raise InputError(f"pooled: {end} slots for {sum(len(s.d) for s in shapes)} shapes is too large to write "
                         "out; the column generation solves it")
    capacity = [sum(column) for column in zip(*instance.capacity)]
    prob = pulp.LpProblem("hetero_pooled", pulp.LpMinimize)
    use: dict[tuple[int, int], list] = defaultdict(list)
    cost = []
    for j, (job, s) in enumerate(zip(instance.jobs, shapes)):
        own = []
        for k, d in enumerate(s.d.tolist()):
            for t in range(job.arrival, max(job.arrival, end) + 1):
                x = prob.add_variable(f"x_{j}_{k}_{t}", 0, None)
                own.append(x)
                cost.append(job.weight * (t + d) * x)
                for tau in range(t, min(t + d, end)):
                    for r in range(instance.R):
                        if s.footprint[k][r] > 0:
                            use[r, tau].append(float(s.footprint[k][r]) * x)
        prob += pulp.lpSum(own) == 1, f"assign_{j}"
    for (r, tau), terms in use.items():
        prob += pulp.lpSum(terms) <= capacity[r], f"pool_{r}_{tau}"
    prob += pulp.lpSum(cost)
    return Model(prob)


#: Jobs up to which ``best`` is model C; above, model A after reduced-cost fixing.
BEST_CP_SAT_UP_TO = 12


def best(instance: Instance) -> str:
    """``--formulation best``, from the measured frontier (docs/benchmarks.md, "Exact frontier"):
    model C (CP-SAT) up to :data:`BEST_CP_SAT_UP_TO` jobs, where it is fastest (seeds 0-2, one
    thread, in one run: at 10 jobs 1.6/0.5/0.9 s against 9.3/0.3/3.3 s; at 12, 35.9/1.7/2.0 s against
    a 60 s stop/1.9/4.4 s); above, ``reduced-configuration``, which proves every seed up to 16 jobs
    where model C proves none of three."""
    return "cp-sat" if len(instance.jobs) <= BEST_CP_SAT_UP_TO else "reduced-configuration"
