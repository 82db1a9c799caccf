"""Solver models of edge-cloud preemptive scheduling (paper §III-IV; spec §2.5).

* ``time-indexed``: MILP-2, the exact optimum of problem (2), job level, the ζ-dependent rate
  linearised exactly (``u = ζ k``). ``φ[j,t] = 1`` iff job ``j``'s last busy slot is ``t``; the work
  done by slot ``t`` covers the whole job times the completion mass up to ``t`` (a strong form of
  (2b)), no work after the completion slot, a worker in it. Identical workers of a server are
  aggregated (exact for the job-level (2)); completions before a trivial lower bound are fixed to 0.
  Per-job horizon ``r + Δ_c + p^1`` with a cloud, the global one without. PSs are left out: a cloud
  PS is always free, or edge PSs cannot run out [R]; decoded schedules get a cloud PS, or the first
  free qualified edge PS.
* ``fractional-flow``: ILP-4, the chunk-level average-fractional-flow ILP (4), with ζ linearised by
  splitting cloud columns by rate (every chunk has a private cloud worker). Lemma 1: OPT(4) <= OPT(2).
  Its objective is not total JCT, so it gives no schedule. ``relax=True`` gives **LP-4R**, the paper's
  relaxation: fixed rates (edge ``p^0``, cloud ``p^1``, a valid lower bound [E7]), no (4e) [E6],
  continuous ``y >= 0`` with capacity rows, coverage rows normalised to ``Σ y/p >= 1`` [E4].
* ``dual``: the dual (6) of LP-4R built directly: ``max Σα − Σβ`` with one row per primal column
  (``t >= r + Δ`` only [E5]); equal to LP-4R by strong duality.

:func:`lp4r_plus_e` adds (4e) to LP-4R: the tighter cheap bound of the chain
``LP-4R <= LP-4R+e <= ILP-4 <= MILP-2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulp

from ..errors import InputError
from ..limits import model_variables
from ..numeric import integral
from ..solvers import CpSatModel, Model, Result
from .instance import Instance, Place
from .schedule import JobRun, Schedule

#: What a refusal names: the bound route at the papers' scale.
POOLED = "--formulation pooled --relax bounds instances this large"


def worker_groups(instance: Instance) -> list[tuple[tuple[int, ...], str, tuple[int, ...]]]:
    """Edge workers grouped by (server, type): interchangeable in problem (2), which is job-level
    and lets work move between workers; as ``((server,), type, worker positions)``."""
    groups: dict[tuple[int, str], list[int]] = {}
    for e, (s, w) in enumerate(instance.workers):
        groups.setdefault((s, instance.servers[s].workers[w]), []).append(e)
    return [((s,), kind, tuple(members)) for (s, kind), members in groups.items()]


def _completion_floor(instance: Instance, j: int) -> int:
    """A slot count no schedule can beat: the job's best of all-cloud, and all-edge with every
    qualified worker from its earliest upload (valid lower bound on ``C_j − r_j``)."""
    job = instance.jobs[j]
    options = []
    if instance.cloud:
        options.append(job.delay_cloud + job.p_cloud)
    workers = min(job.chunks, len(instance.qualified[j]))
    if workers:
        first = min(job.delay_edge[instance.workers[e][0]] for e in instance.qualified[j])
        options.append(first + -(-job.chunks * job.p_edge // workers))
        if instance.cloud:  # a split job runs at p^0 wherever it runs
            options.append(min(first, job.delay_cloud) + job.p_edge)
    return min(options)


def time_indexed(instance: Instance, relax: bool = False) -> Model:
    """MILP-2 (or its LP relaxation): the exact optimum of (2), total JCT. Identical workers of a
    server are aggregated (``x[j,g,t]`` workers of group ``g``), which removes their symmetry.

    References
    ----------
    .. [1] N. Wang, R. Zhou, L. Jiao, R. Zhang, B. Li, and Z. Li, “Preemptive Scheduling for Distributed Machine
       Learning Jobs in Edge-Cloud Networks,” IEEE Journal on Selected Areas in Communications, vol. 40, no. 8, pp.
       2411-2425, 2022. doi:10.1109/JSAC.2022.3180772; problem (2).
    """
    return _milp2(instance, relax, worker_groups(instance), "time-indexed", POOLED)


def pooled(instance: Instance, relax: bool = False) -> Model:
    """MILP-2 with every worker type pooled across the edge servers: a relaxation of (2), so its
    optimum (and any bound a solver proves on it) is a lower bound on OPT(2).

    Every schedule of (2) is one of the pooled model: (2d) per worker implies the pooled capacity
    (the type's worker count per slot), and a chunk on server ``s`` starts no earlier than
    ``r + Δ_js >= r + min_s Δ_js``, the pool's upload delay. The model has one edge group per type
    instead of one per server and type, and a job's slots end at its cloud horizon ``r + Δ_c + p^1``,
    so it reaches the papers' 300 jobs on 100 servers (spec §5) where MILP-2 is refused."""
    model = _milp2(instance, relax, pooled_groups(instance), "pooled")
    return Model(model.problem, start=model.start)  # the pool forgets servers: no schedule to decode


def pooled_groups(instance: Instance) -> list[tuple[tuple[int, ...], str, tuple[int, ...]]]:
    """Edge workers grouped by type alone, as ``(servers, type, worker positions)``."""
    groups: dict[str, list[int]] = {}
    for e, (s, w) in enumerate(instance.workers):
        groups.setdefault(instance.servers[s].workers[w], []).append(e)
    return [(tuple(sorted({instance.workers[e][0] for e in members})), kind, tuple(members))
            for kind, members in groups.items()]


def _milp2(instance: Instance, relax: bool, groups: list, name: str, instead: str = "") -> Model:
    """MILP-2 over edge worker ``groups`` ``(servers, type, worker positions)``: a group's
    workers are interchangeable from the earliest upload delay of its servers on. ``instead``
    names what bounds instances too large for it."""
    kind = pulp.LpContinuous if relax else pulp.LpInteger
    binary = pulp.LpContinuous if relax else pulp.LpBinary
    prob = pulp.LpProblem(f"edge_{name.replace('-', '_')}", pulp.LpMinimize)
    model_variables(sum(instance.horizon(j) for j in range(len(instance.jobs))) * len(groups), name, instead)
    x, k, objective = {}, {}, []
    group_rows: dict[tuple[int, int], list] = {}
    for j, job in enumerate(instance.jobs):
        H = instance.horizon(j)
        D = job.chunks
        zeta = prob.add_variable(f"zeta_{j}", 0, 1, binary)
        for g, (servers, worker_type, members) in enumerate(groups):
            if worker_type != job.worker_type:
                continue
            size = min(len(members), D)
            for t in range(job.release + min(job.delay_edge[s] for s in servers), H):
                v = x[j, g, t] = prob.add_variable(f"x_{j}_{g}_{t}", 0, size, kind)
                prob += v <= size * (1 - zeta), f"edge_means_split_{j}_{g}_{t}"  # (2g)/(2h)
                group_rows.setdefault((g, t), []).append(v)
        u = {}
        if instance.cloud:
            for t in range(job.release + job.delay_cloud, H):
                k[j, t] = prob.add_variable(f"k_{j}_{t}", 0, D, kind)
                u[t] = prob.add_variable(f"u_{j}_{t}", 0, D)  # = ζ_j k_jt
                prob += u[t] <= k[j, t], f"u_le_k_{j}_{t}"
                prob += u[t] <= D * zeta, f"u_le_zeta_{j}_{t}"
        else:
            prob += zeta == 0, f"no_cloud_{j}"
        p0, p1 = job.p_edge, job.p_cloud
        slots = range(job.release, H)
        earliest = job.release + _completion_floor(instance, j) - 1  # no schedule completes it sooner
        done = {t: prob.add_variable(f"phi_{j}_{t}", 0, 1 if t >= earliest else 0, binary) for t in slots}
        prob += pulp.lpSum(done.values()) == 1, f"completes_{j}"
        cumulative = []
        for t in slots:
            here = [x[j, g, t] for g in range(len(groups)) if (j, g, t) in x] + ([k[j, t]] if (j, t) in k else [])
            work = p1 * pulp.lpSum(here) + (p0 - p1) * (u[t] if t in u else 0)  # (2b) at the ζ-dependent rate
            cumulative.append(work)
            # all the work is done by the completion slot: a strong form of (2b)
            finished_by_t = pulp.lpSum(done[v] for v in slots if v <= t)
            prob += pulp.lpSum(cumulative) >= D * p0 * p1 * finished_by_t, f"work_{j}_{t}"
            if here:
                later = pulp.lpSum(done[v] for v in slots if v >= t)
                prob += pulp.lpSum(here) <= D * later, f"until_done_{j}_{t}"  # (2c), and nothing after C_j
                prob += pulp.lpSum(here) >= done[t], f"busy_when_done_{j}_{t}"  # (2j): a worker in the last slot
            else:
                prob += done[t] == 0, f"idle_{j}_{t}"
        objective += [(t + 1 - job.release) * done[t] for t in slots]  # C_j − r_j, end-exclusive [E1]
    for (g, t), users in group_rows.items():
        prob += pulp.lpSum(users) <= len(groups[g][2]), f"group_{g}_{t}"  # (2d), per worker group
    prob += pulp.lpSum(objective)
    if relax:
        return Model(prob)
    # pooled: a schedule of (2) is one of the pool too, so the same start serves
    return Model(prob, _decoder(instance, groups, x, k), start=_milp2_start(instance, groups, x, k))


def _milp2_start(instance: Instance, groups: list, x: dict, k: dict) -> dict[str, float] | None:
    """MILP-2's MIP start: the best of A_online's and BatchSche's schedules whose every job fits
    the model (:func:`_fitted`), as ``x``, ``k``, ``u = ζ k``, ``ζ`` and the completion slot's ``φ``."""
    for schedule in _online_schedules(instance):
        fitted = _fitted(instance, groups, x, k, schedule)
        if any(fit is None for fit in fitted):
            continue
        start: dict[str, float] = {}
        for j, (run, end, counts) in enumerate(fitted):
            start[f"phi_{j}_{end - 1}"] = 1.0
            start[f"zeta_{j}"] = float(run.zeta)
            start.update({x[key].name: float(n) for key, n in counts.items()})
            for t, n in run.cloud:
                if n:
                    start[k[j, t].name] = float(n)
                    if run.zeta:
                        start[f"u_{j}_{t}"] = float(n)
        return start
    return None


def _fitted(instance: Instance, groups: list, x: dict, k: dict, schedule: Schedule) -> list:
    """Per job of ``schedule``, ``(run, completion, edge workers per (job, group, slot))`` when the
    job ends within its horizon on slots the model has variables for (``x``, ``k``); else None."""
    fitted: list = []
    for j, run in enumerate(schedule.jobs):
        end = run.completion()
        counts = _group_counts(instance, groups, j, run)
        fits = end is not None and end <= instance.horizon(j) and all(key in x for key in counts) \
            and all((j, t) in k for t, n in run.cloud if n)
        fitted.append((run, end, counts) if fits else None)
    return fitted


def _online_schedules(instance: Instance) -> list[Schedule]:
    """A_online's and BatchSche's schedules within the horizons, the better first: the starts and
    hints of the exact models."""
    from .. import pipeline
    from ..registry import get

    # each algorithm named by a literal, so that a cache key depends on these two alone (study/depends.py)
    found = [_within_horizons(instance, get("edge").run(instance, "aonline").schedule),
             _within_horizons(instance, get("edge").run(instance, "batchsche").schedule)]
    values = [pipeline.judge(get("edge"), instance, s).objective for s in found]
    return [found[i] for _, i in sorted((v, i) for i, v in enumerate(values) if v is not None)]


def _within_horizons(instance: Instance, schedule: Schedule) -> Schedule:
    """``schedule`` with every job that ends past its cloud horizon moved whole to the cloud, where it
    ends at ``r + Δ_c + p^1`` (spec §2.5's horizon argument: no later, and no other job is hurt)."""
    if not instance.cloud:
        return schedule
    runs = []
    for j, run in enumerate(schedule.jobs):
        job = instance.jobs[j]
        if (run.completion() or 0) > instance.horizon(j):
            slots = range(job.release + job.delay_cloud, instance.horizon(j))
            run = JobRun((), tuple((t, job.chunks) for t in slots), (), tuple(slots))
        runs.append(run)
    return Schedule(tuple(runs))


def _group_counts(instance: Instance, groups: list, j: int, run: JobRun) -> dict[tuple[int, int, int], int]:
    """Job ``j``'s edge workers per (job, group, slot) in ``run``."""
    group_of = {e: g for g, (_, _, members) in enumerate(groups) for e in members}
    position = {w: e for e, w in enumerate(instance.workers)}
    counts: dict[tuple[int, int, int], int] = {}
    for t, s, w in run.edge:
        key = (j, group_of[position[s, w]], t)
        counts[key] = counts.get(key, 0) + 1
    return counts


def _hint(model, instance: Instance, groups: list, ends: list, zetas: list, x: dict, k: dict) -> None:
    """Hint the better of A_online's and BatchSche's schedules (:func:`_online_schedules`: with a
    cloud every job is within its horizon; without one, a job past the global horizon or using a
    slot the model has no variable for is left unhinted)."""
    schedules = _online_schedules(instance)
    if not schedules:
        return
    for j, fit in enumerate(_fitted(instance, groups, x, k, schedules[0])):
        if fit is None:
            continue
        run, end, counts = fit
        model.add_hint(ends[j], end)
        model.add_hint(zetas[j], int(run.zeta))
        for key, v in x.items():
            if key[0] == j:
                model.add_hint(v, counts.get(key, 0))
        cloud = dict(run.cloud)
        for (i, t), v in k.items():
            if i == j:
                model.add_hint(v, cloud.get(t, 0))


def _decoder(instance: Instance, groups: list, x: dict, k: dict):
    """The decoder of MILP-2 and of the CP-SAT model: ``x[j, g, t]`` edge workers of group ``g``
    and ``k[j, t]`` cloud workers per job and slot, distinct workers of each group handed out in
    order, PSs added."""
    def decode(result: Result) -> Schedule:
        edge: dict[int, list] = {j: [] for j in range(len(instance.jobs))}
        cloud: dict[int, list] = {j: [] for j in range(len(instance.jobs))}
        next_free: dict[tuple[int, int], int] = {}
        for (j, g, t), v in sorted(x.items()):
            n = integral(result.value(v))
            first = next_free.get((g, t), 0)
            for e in groups[g][2][first:first + n]:
                edge[j].append((t, *instance.workers[e]))
            next_free[g, t] = first + n
        for (j, t), v in k.items():
            machines = integral(result.value(v))
            if machines:
                cloud[j].append((t, machines))
        return with_ps(instance, edge, cloud)

    return decode


def cp_sat(instance: Instance, relax: bool = False) -> CpSatModel:
    """Problem (2) as a CP-SAT model, written independently of MILP-2 for cross-checks.

    Per job an integer completion ``C_j`` (end-exclusive [E1]) and a literal ``ζ_j``; per slot a
    literal ``a[j,t] ⇔ t < C_j`` (the job is still running), integer workers ``x[j,g,t]`` per
    (server, type) group from ``r + Δ_js`` on, and cloud workers ``k[j,t]`` from ``r + Δ_c``. The
    work of (2b) is two reified sums: ``Σ k >= D p^1`` if ``ζ_j`` (and no edge worker, (2g)/(2h)),
    else ``Σ (x + k) >= D p^0``. At most ``D`` workers while running and none after (2c); a worker
    in the last slot ``C_j − 1``; one job per worker (2d) as a group's count. ``min Σ (C_j − r_j)``.
    Horizons as MILP-2's; the hint is the better of A_online's and BatchSche's schedules."""
    from ortools.sat.python import cp_model

    if relax:
        raise InputError("formulation cp-sat has no LP relaxation")
    groups = worker_groups(instance)
    model_variables(sum(instance.horizon(j) for j in range(len(instance.jobs))) * len(groups), "cp-sat", POOLED)
    model = cp_model.CpModel()
    x: dict[tuple[int, int, int], Any] = {}
    k: dict[tuple[int, int], Any] = {}
    ends, zetas = [], []
    per_group: dict[tuple[int, int], list] = {}
    for j, job in enumerate(instance.jobs):
        H, D = instance.horizon(j), job.chunks
        end = model.new_int_var(job.release + _completion_floor(instance, j), H, f"C_{j}")
        zeta = model.new_bool_var(f"zeta_{j}")
        if not instance.cloud:
            model.add(zeta == 0)
        edge, cloud = [], []
        running = {}
        for t in range(job.release, H):
            a = running[t] = model.new_bool_var(f"a_{j}_{t}")
            model.add(end >= t + 1).only_enforce_if(a)
            model.add(end <= t).only_enforce_if(a.negated())
            here = []
            for g, ((s,), kind, members) in enumerate(groups):
                if kind == job.worker_type and t >= job.release + job.delay_edge[s]:
                    v = x[j, g, t] = model.new_int_var(0, min(len(members), D), f"x_{j}_{g}_{t}")
                    per_group.setdefault((g, t), []).append(v)
                    here.append(v)
                    edge.append(v)
            if instance.cloud and t >= job.release + job.delay_cloud:
                v = k[j, t] = model.new_int_var(0, D, f"k_{j}_{t}")
                here.append(v)
                cloud.append(v)
            if here:
                model.add(sum(here) <= D * a)  # (2c), and nothing after C_j
        for t in range(job.release, H):
            still = running.get(t + 1)
            last = [running[t]] + ([still.negated()] if still is not None else [])  # C_j = t + 1
            here = [x[j, g, t] for g in range(len(groups)) if (j, g, t) in x] + ([k[j, t]] if (j, t) in k else [])
            if here:
                model.add(sum(here) >= 1).only_enforce_if(last)  # a worker in the last slot
            else:
                model.add_bool_or([literal.negated() for literal in last])
        model.add(sum(cloud) >= D * job.p_cloud).only_enforce_if(zeta)
        model.add(sum(edge) == 0).only_enforce_if(zeta)
        model.add(sum(edge) + sum(cloud) >= D * job.p_edge).only_enforce_if(zeta.negated())
        ends.append(end)
        zetas.append(zeta)
    for (g, _), users in per_group.items():
        model.add(sum(users) <= len(groups[g][2]))  # (2d)
    model.minimize(sum(ends) - sum(job.release for job in instance.jobs))
    _hint(model, instance, groups, ends, zetas, x, k)
    read = {v.name: v for v in (*x.values(), *k.values())}
    return CpSatModel(model, "min", read, _decoder(instance, groups, x, k))


def with_ps(instance: Instance, edge: dict[int, list], cloud: dict[int, list]) -> Schedule:
    """A job-level schedule with a PS in every busy slot: a cloud PS, or without a cloud the first
    free qualified edge PS (the instance guarantees enough)."""
    taken: dict[int, set] = {}
    runs = []
    for j, job in enumerate(instance.jobs):
        slots = sorted({t for t, _, _ in edge[j]} | {t for t, _ in cloud[j]})
        edge_ps, cloud_ps = [], []
        for t in slots:
            if instance.cloud:
                cloud_ps.append(t)
                continue
            used = taken.setdefault(t, set())
            ps = next((s, p) for s, server in enumerate(instance.servers) for p, kind in enumerate(server.ps)
                      if kind == job.ps_type and (s, p) not in used)
            used.add(ps)
            edge_ps.append((t, *ps))
        runs.append(JobRun(tuple(sorted(edge[j])), tuple(sorted(cloud[j])), tuple(edge_ps), tuple(cloud_ps)))
    return Schedule(tuple(runs))


def fractional_flow(instance: Instance, relax: bool = False) -> Model:
    """ILP-4 (spec §2.5 (b)); with ``relax=True`` LP-4R, the paper's relaxation (see module doc).

    References
    ----------
    .. [1] N. Wang, R. Zhou, L. Jiao, R. Zhang, B. Li, and Z. Li, “Preemptive Scheduling for Distributed Machine
       Learning Jobs in Edge-Cloud Networks,” IEEE Journal on Selected Areas in Communications, vol. 40, no. 8, pp.
       2411-2425, 2022. doi:10.1109/JSAC.2022.3180772; ILP (4).
    """
    return lp4r(instance) if relax else _ilp4(instance)


def _ilp4(instance: Instance) -> Model:
    prob = pulp.LpProblem("edge_fractional_flow", pulp.LpMinimize)
    T = instance.horizon()
    model_variables(sum(job.chunks * (len(instance.qualified[j]) + 2) for j, job in enumerate(instance.jobs)) * T,
                    "fractional-flow", POOLED)
    objective: list[Any] = []
    capacity: dict[tuple[int, int], list[Any]] = {}
    for j, job in enumerate(instance.jobs):
        p0, p1, D, r = job.p_edge, job.p_cloud, job.chunks, job.release
        zeta = prob.add_variable(f"zeta_{j}", 0, 1, pulp.LpBinary)
        if not instance.cloud:
            prob += zeta == 0, f"no_cloud_{j}"
        for d in range(D):
            coverage: list[Any] = []
            per_slot: dict[int, list[Any]] = {}
            for e in instance.qualified[j]:
                for t in range(r + job.delay_edge[instance.workers[e][0]], T):
                    v = prob.add_variable(f"y_{j}_{d}_{e}_{t}", 0, 1, pulp.LpBinary)
                    prob += v <= 1 - zeta, f"edge_split_{v.name}"
                    coverage.append(p1 * v)
                    objective.append((t - r) * v / (D * p0))
                    capacity.setdefault((e, t), []).append(v)
                    per_slot.setdefault(t, []).append(v)
            if instance.cloud:
                for t in range(r + job.delay_cloud, T):
                    g0 = prob.add_variable(f"g0_{j}_{d}_{t}", 0, 1, pulp.LpBinary)
                    g1 = prob.add_variable(f"g1_{j}_{d}_{t}", 0, 1, pulp.LpBinary)
                    prob += g0 <= 1 - zeta, f"cloud_split_{j}_{d}_{t}"
                    prob += g1 <= zeta, f"cloud_whole_{j}_{d}_{t}"
                    coverage += [p1 * g0, p0 * g1]
                    objective += [(t - r) * g0 / (D * p0), (t - r) * g1 / (D * p1)]
                    per_slot.setdefault(t, []).extend([g0, g1])
            prob += pulp.lpSum(coverage) >= p0 * p1, f"cover_{j}_{d}"  # (4a), times p0 p1
            for t, vs in per_slot.items():
                if len(vs) > 1:
                    prob += pulp.lpSum(vs) <= 1, f"one_place_{j}_{d}_{t}"  # (4e)
    for (e, t), vs in capacity.items():
        if len(vs) > 1:
            prob += pulp.lpSum(vs) <= 1, f"worker_{e}_{t}"  # (4b)
    prob += pulp.lpSum(objective)
    return Model(prob)


@dataclass(frozen=True)
class ChunkColumn:
    """A column of LP-4R: chunk ``d`` of job ``j`` on worker ``place`` (an edge worker position, or
    ``("cloud", j, d)`` for the chunk's private cloud worker) in slot ``t``, at ``p`` slots per chunk."""

    j: int
    d: int
    place: Place
    t: int
    p: int


def lp4r_columns(instance: Instance) -> list[ChunkColumn]:
    """LP-4R's columns: edge columns from ``r + Δ_js`` and private cloud columns from ``r + Δ_c``,
    up to the per-job horizon (cloud rate ``p^1``) or the global one without a cloud."""
    model_variables(sum(job.chunks * (len(instance.qualified[j]) + 1)
                        * (instance.horizon(j) if instance.cloud else instance.horizon())
                        for j, job in enumerate(instance.jobs)), "LP-4R", POOLED)
    columns = []
    for j, job in enumerate(instance.jobs):
        H = instance.horizon(j) if instance.cloud else instance.horizon()
        for d in range(job.chunks):
            for e in instance.qualified[j]:
                for t in range(job.release + job.delay_edge[instance.workers[e][0]], H):
                    columns.append(ChunkColumn(j, d, e, t, job.p_edge))
            if instance.cloud:
                for t in range(job.release + job.delay_cloud, H):
                    columns.append(ChunkColumn(j, d, ("cloud", j, d), t, job.p_cloud))
    return columns


def lp4r(instance: Instance, with_4e: bool = False) -> Model:
    """LP-4R; rows ``cover_j_d`` (duals α) and ``capacity_*`` (duals β)."""
    prob = pulp.LpProblem("edge_lp4r_e" if with_4e else "edge_lp4r", pulp.LpMinimize)
    objective: list[Any] = []
    cover: dict[tuple[int, int], list[Any]] = {}
    capacity: dict[Place, dict[int, list[Any]]] = {}
    per_slot: dict[tuple[int, int, int], list[Any]] = {}
    for c in lp4r_columns(instance):
        job = instance.jobs[c.j]
        v = prob.add_variable(f"y_{c.j}_{c.d}_{_place_name(c.place)}_{c.t}", 0, None)
        objective.append(v * ((c.t - job.release) / (job.chunks * c.p)))
        cover.setdefault((c.j, c.d), []).append(v / c.p)
        capacity.setdefault(c.place, {}).setdefault(c.t, []).append(v)
        per_slot.setdefault((c.j, c.d, c.t), []).append(v)
    prob += pulp.lpSum(objective)
    for (j, d), terms in cover.items():
        prob += pulp.lpSum(terms) >= 1, f"cover_{j}_{d}"
    for place, by_slot in capacity.items():
        for t, vs in by_slot.items():
            prob += pulp.lpSum(vs) <= 1, f"capacity_{_place_name(place)}_{t}"
    if with_4e:
        for (j, d, t), vs in per_slot.items():
            if len(vs) > 1:
                prob += pulp.lpSum(vs) <= 1, f"one_place_{j}_{d}_{t}"
    return Model(prob)


def lp4r_plus_e(instance: Instance) -> Model:
    """LP-4R with (4e) (a chunk on at most one worker per slot): a tighter lower bound than LP-4R."""
    return lp4r(instance, with_4e=True)


def _place_name(place: Place) -> str:
    return f"c{place[1]}x{place[2]}" if isinstance(place, tuple) else f"e{place}"


def dual(instance: Instance, relax: bool = False) -> Model:
    """The dual (6) of LP-4R, built directly: ``max Σ_{j,d} α_jd − Σ β_e(t)`` subject to
    ``α_jd / p − β_e(t) <= (t − r_j)/(D_j p)`` for every LP-4R column. An LP; ``relax`` changes nothing.

    References
    ----------
    .. [1] N. Wang, R. Zhou, L. Jiao, R. Zhang, B. Li, and Z. Li, “Preemptive Scheduling for Distributed Machine
       Learning Jobs in Edge-Cloud Networks,” IEEE Journal on Selected Areas in Communications, vol. 40, no. 8, pp.
       2411-2425, 2022. doi:10.1109/JSAC.2022.3180772; the dual (6).
    """
    prob = pulp.LpProblem("edge_dual", pulp.LpMaximize)
    alpha, beta, rows = {}, {}, []
    for c in lp4r_columns(instance):
        job = instance.jobs[c.j]
        if (c.j, c.d) not in alpha:
            alpha[c.j, c.d] = prob.add_variable(f"alpha_{c.j}_{c.d}", 0, None)
        key = (_place_name(c.place), c.t)
        if key not in beta:
            beta[key] = prob.add_variable(f"beta_{key[0]}_{c.t}", 0, None)
        a, b = alpha[c.j, c.d], beta[key]
        rows.append((a * (1 / c.p) - b <= (c.t - job.release) / (job.chunks * c.p),
                     f"column_{c.j}_{c.d}_{key[0]}_{c.t}"))
    prob += pulp.lpSum(alpha.values()) - pulp.lpSum(beta.values())
    for row, name in rows:
        prob += row, name
    return Model(prob)
