"""Solver models of the job stream of Luo et al. (spec asrpt.md §2.4-§2.5); F1 and F2, one job's
placement, are in :mod:`optsched.placement.formulations`. Each returns a
:class:`~optsched.solvers.Model`; ``relax=True`` gives the LP relaxation.

* :func:`single_machine` (F3, §2.4): ``1|r_j, pmtn|ΣC_j`` on the virtual instance ``A_1^min``
  (sizes ``g_i n_i α_i^min / G``). Its optimum is at most the stream's optimum (spec §4.1, the sharp
  form of Lemma 1), so it is a certified lower bound. Time-indexed in the unit that makes every
  size and release integral; preemptive SRPT (``srpt.py``) reaches the same optimum.
* :func:`lower_bound`: the larger of F3 and the per-job floor ``Σ_i (r_i + n_i α_i^min)``, the
  family's bound route at the paper's scale.
* :func:`time_indexed` (F4, §2.5): the exact offline optimum of (8). A job's pattern is its split of
  GPUs over the ``M`` servers; each pattern runs with its best stage counts
  (``patterns.best_counts``) for ``⌈n α / Δ⌉`` slots. Capacity (3) per server over half-open slots
  [A6]; horizon ``max r + Σ_i max_u D_iu`` (safe, §2.5), and per job the deadline
  ``UB − LB_{−i}``: ``UB`` the best list-scheduling baseline's total (a slotted schedule on these
  instances), ``LB_{−i}`` a lower bound on the total of the other jobs (F3 and the per-job floor on
  the stream without job ``i``), so no optimum is cut off. That schedule is the MIP start.
* :func:`cp_sat` (F4 as a CP-SAT model, independent of the MILP): per job a start ``S_i``, a length
  ``D_i`` and an end, one literal per split (``pattern``) of its GPUs with exactly one chosen and
  fixing ``D_i``, and per server an optional copy of the job's interval, present when the split uses
  the server, demanding its GPUs there; one ``Cumulative`` of capacity ``g`` per server;
  ``min Δ Σ_i E_i``. Redundant and valid: a cumulative of the pooled ``M g`` GPUs and
  ``Σ_i E_i >= F3``. The same deadlines and symmetry breaking as F4; the hint is the best
  list-scheduling schedule.
* :func:`pooled`: the GPUs pooled (no servers, each job its shortest split), time-indexed: a lower
  bound on (8) between F3 and the optimum.
* :func:`pool_and_place`: :func:`cp_sat`'s model with the pooled MILP's bound added and its schedule,
  placed on the servers, as the hint (``--formulation best`` above :data:`CP_SAT_UP_TO` jobs).

F3 and F4 are exact only when the durations (and releases) they need are whole numbers of their
time unit (integral instances, spec §4.7); otherwise they refuse the instance with one line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce
from typing import Any

import pulp

from ..errors import InputError
from ..numeric import floor_tol, integral, round_if_integral
from ..placement import patterns
from ..registry import get
from ..solvers import Computed, CpSatModel, Model, Result
from .baselines import KEYS, list_schedule
from .instance import Instance
from .schedule import JobRun, Schedule
from .srpt import srpt

PATTERN_LIMIT = 20_000  #: server splits over all jobs beyond which F4 refuses an instance
ORDER_LIMIT = 40  #: jobs beyond which the completion-order MILP (F3's cross-check) refuses a stream


def _unit(values: list[float], where: str) -> float:
    """The largest unit (a divisor of 1) in which every value is an integer; refuses otherwise."""
    scale = 1
    for value in values:
        for denominator in range(1, 10_001):
            if round_if_integral(value * scale * denominator, 1e-7) is not None:
                scale *= denominator
                break
        else:
            raise InputError(f"{where}: needs integral durations and releases in some unit (spec §4.7); "
                             f"{value:g} is not")
    integers = [round(value * scale) for value in values]
    divisor = reduce(math.gcd, integers, 0) or 1
    return divisor / scale


def single_machine(instance: Instance, relax: bool = False) -> Computed | Model:
    """F3 on ``A_1^min``: a lower bound (s) on the stream's least total completion time.

    F3 is ``1|r_j, pmtn|ΣC_j`` on the virtual single machine (sizes ``g_i n_i α_i^min / G``, Lemma 1),
    whose optimum SRPT attains (Schrage 1968), so the bound is computed by SRPT in milliseconds; the
    MILP over completion orders (:func:`completion_order_milp`) is its cross-check, and the
    time-indexed MILP of F3 (:func:`single_machine_milp`) gives ``relax``'s LP.

    References
    ----------
    .. [1] Z. Luo, J. Liu, M. Lee, and N. B. Shroff, “Prediction-Assisted Online Distributed Deep Learning Workload
       Scheduling in GPU Clusters,” arXiv preprint, 2025. arXiv:2501.05563; the virtual single-machine instance behind
       Algorithm 1.
    """
    if relax:
        return single_machine_milp(instance, relax=True)
    G = instance.cluster.total_gpus
    sizes = [sj.job.gpus * sj.iterations * patterns.alpha_min(sj.job, instance.cluster) / G for sj in instance.jobs]
    releases = [sj.release for sj in instance.jobs]
    return Computed("min", lambda: math.fsum(srpt(releases, sizes)),
                    "srpt", "computed by SRPT, exact for 1|r_j,pmtn|ΣC_j (Schrage 1968); no solver model",
                    lambda: completion_order_milp(releases, sizes))


def lower_bound(instance: Instance, relax: bool = False) -> Computed | Model:
    """The larger of two certified lower bounds on (8): F3 (:func:`single_machine`, the cluster
    as one machine) and the per-job floor ``Σ_i (r_i + n_i α_i^min)`` (each job alone on an empty
    cluster: non-preemptive, every iteration at least ``α_i^min``, §1.3).

    F3 lets the pooled GPUs run a long job as fast as its GPU-time allows; the floor charges each
    job its own length. On the paper's trace the floor is the tighter one (docs/asrpt.md). Both use
    ``patterns.alpha_floor`` (``α^min`` itself unless its search is large, then a closed-form lower
    bound of it), so the bound stays certified and takes seconds at 75,000 jobs. Its cross-check
    solves F3 as :func:`completion_order_milp` with ``z >= F3`` and ``z >= floor``, minimising ``z``;
    ``relax=True`` gives the LP of the same with F3 time-indexed (:func:`single_machine_milp`)."""
    G = instance.cluster.total_gpus
    alphas = [patterns.alpha_floor(sj.job, instance.cluster) for sj in instance.jobs]
    floor = math.fsum(sj.release + sj.iterations * a for sj, a in zip(instance.jobs, alphas))
    sizes = [sj.job.gpus * sj.iterations * a / G for sj, a in zip(instance.jobs, alphas)]
    releases = [sj.release for sj in instance.jobs]
    if relax:  # a weaker lower bound, as single-machine's relax gives F3's LP
        f3 = single_machine_milp(instance, relax=True, alpha=patterns.alpha_floor)
        prob = f3.problem
        z = prob.add_variable("z", 0, None)
        prob += z >= prob.objective, "z_at_least_f3"
        prob += z >= floor, "z_at_least_the_job_floor"
        prob.setObjective(z)
        return f3
    return Computed("min", lambda: max(math.fsum(srpt(releases, sizes)), floor), "srpt + job floor",
                    "the larger of F3 (SRPT, exact for 1|r_j,pmtn|ΣC_j) and Σ (r_i + n_i α_i^min), "
                    "both certified lower bounds on (8)", lambda: completion_order_milp(releases, sizes, floor))


def single_machine_milp(instance: Instance, relax: bool = False, alpha=patterns.alpha_min) -> Model:
    """F3 on ``A_1^min`` as a time-indexed MILP (unit steps of the sizes' and releases' common
    divisor): the optimum :func:`single_machine` computes by SRPT. ``alpha(job, cluster)`` gives
    each job's per-iteration time (``α^min``, or a lower bound of it)."""
    G = instance.cluster.total_gpus
    _unit([sj.release for sj in instance.jobs], "single-machine")  # refuse a non-integral stream before any work
    sizes = [sj.job.gpus * sj.iterations * alpha(sj.job, instance.cluster) / G for sj in instance.jobs]
    releases = [sj.release for sj in instance.jobs]
    unit = _unit(sizes + releases, "single-machine")
    p = [round(size / unit) for size in sizes]
    r = [round(release / unit) for release in releases]
    horizon = max(r) + sum(p)
    if horizon * len(p) > PATTERN_LIMIT * 10:
        raise InputError(f"single-machine: {horizon} time units for {len(p)} jobs is too large for the time-indexed "
                         f"model; SRPT (optsched.asrpt.theory.virtual_optimum) gives the same optimum")
    kind = pulp.LpContinuous if relax else pulp.LpBinary
    prob = pulp.LpProblem("single_machine", pulp.LpMinimize)
    x, u = {}, {}
    for j in range(len(p)):
        for t in range(r[j], horizon):
            x[j, t] = prob.add_variable(f"x_{j}_{t}", 0, 1, kind)  # job j runs in unit t
            u[j, t] = prob.add_variable(f"u_{j}_{t}", 0, 1, kind)  # job j unfinished after unit t
        prob += pulp.lpSum(x[j, t] for t in range(r[j], horizon)) == p[j], f"size_{j}"
        done = None  # the units job j has run by the end of unit t: a running sum, so each row is short
        for t in range(r[j], horizon):
            ran = prob.add_variable(f"y_{j}_{t}", 0, p[j])
            prob += ran == (x[j, t] if done is None else done + x[j, t]), f"ran_{j}_{t}"
            done = ran
            prob += ran >= p[j] * (1 - u[j, t]), f"done_{j}_{t}"
            if t > r[j]:
                prob += u[j, t] <= u[j, t - 1], f"stays_done_{j}_{t}"
                prob += x[j, t] <= u[j, t - 1], f"nothing_after_{j}_{t}"
    for t in range(horizon):
        running = [x[j, t] for j in range(len(p)) if (j, t) in x]
        if running:
            prob += pulp.lpSum(running) <= 1, f"machine_{t}"
    prob += unit * pulp.lpSum([r[j] + (1 if p[j] > 0 else 0) for j in range(len(p))]
                              + [u[j, t] for j in range(len(p)) for t in range(r[j], horizon)])
    return Model(prob)


def completion_order_milp(releases: list[float], sizes: list[float], floor: float | None = None) -> Model:
    """``1|r_j, pmtn|ΣC_j`` as a MILP over the order in which the jobs complete, the cross-check of
    :func:`single_machine` and :func:`lower_bound` (an optimum SRPT does not compute, and no time unit).

    Binaries ``δ_ij`` (job ``i`` completes no later than ``j``; ``δ_ij + δ_ji = 1``, transitive). When
    the jobs ``S_j`` completing by ``C_j`` are known, the earliest ``C_j`` is their makespan with
    releases, ``max_{k ∈ S_j} (r_k + Σ_{i ∈ S_j, r_i >= r_k} p_i)``, and running the jobs by priority in
    that order reaches it for every job at once; so the optimum is the least ``Σ_j C_j`` with ``C_j >=
    r_k δ_kj + Σ_{i: r_i >= r_k} p_i δ_ij`` for every pair ``k, j`` (``δ_jj = 1``). ``floor`` adds
    ``z >= floor`` beside ``z >= Σ_j C_j`` and minimises ``z``: :func:`lower_bound`'s larger of the two."""
    n = len(sizes)
    if n > ORDER_LIMIT:
        raise InputError(f"the cross-check's completion-order MILP takes at most {ORDER_LIMIT} jobs, this stream has "
                         f"{n}; SRPT's optimum stands without it (Schrage 1968)")
    prob = pulp.LpProblem("completion_order", pulp.LpMinimize)
    before = {(i, j): prob.add_variable(f"d_{i}_{j}", 0, 1, pulp.LpBinary) for i in range(n) for j in range(i + 1, n)}

    def first(i: int, j: int):  # 1 when job i completes no later than job j
        return 1 if i == j else (before[i, j] if i < j else 1 - before[j, i])

    done = [prob.add_variable(f"C_{j}", 0, None) for j in range(n)]
    for j in range(n):
        for k in range(n):
            later = [i for i in range(n) if releases[i] >= releases[k]]
            prob += (done[j] >= releases[k] * first(k, j) + pulp.lpSum(sizes[i] * first(i, j) for i in later),
                     f"makespan_{k}_{j}")
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):  # no cycle i -> j -> k -> i, nor i -> k -> j -> i
                prob += first(i, j) + first(j, k) + first(k, i) <= 2, f"order_{i}_{j}_{k}"
                prob += first(i, k) + first(k, j) + first(j, i) <= 2, f"order_{i}_{k}_{j}"
    total = pulp.lpSum(done)
    if floor is not None:
        z = prob.add_variable("z", 0, None)
        prob += z >= total, "z_at_least_f3"
        prob += z >= floor, "z_at_least_the_job_floor"
        prob.setObjective(z)
    else:
        prob.setObjective(total)
    return Model(prob)


@dataclass(frozen=True)
class Stream:
    """What F4 and the CP-SAT model share (§2.5): per job its options ``(pattern, counts per server,
    D slots)``, its release and its deadline slot, and the best list-scheduling baseline's schedule
    (the upper bound the deadlines come from)."""

    options: list[list[tuple[tuple[int, ...], dict[int, tuple[int, ...]], int]]]
    releases: list[int]
    latest: list[int]
    incumbent: Schedule


def stream(instance: Instance, where: str) -> Stream:
    """The options, releases and deadlines of F4 (module docstring); refuses what F4 cannot model exactly."""
    cluster, delta = instance.cluster, instance.slot
    count = sum(_pattern_count(sj.job.gpus, cluster.servers, cluster.gpus) for sj in instance.jobs)
    if count > PATTERN_LIMIT:
        raise InputError(f"{where}: more than {PATTERN_LIMIT} splits of the jobs' GPUs over the servers; the "
                         f"model is for small integral instances (--preset tiny or small)")
    options = []  # per job: [(pattern, counts per server, D)]
    for i, sj in enumerate(instance.jobs):
        if round_if_integral(sj.release / delta) is None:
            raise InputError(f"{where}: job {i} is released at {sj.release:g} s, not on a slot boundary "
                             f"(slot {delta:g} s)")
        choices = []
        for pattern in _patterns(sj.job.gpus, cluster.servers, cluster.gpus):
            order = sorted((m for m in range(cluster.servers) if pattern[m]), key=lambda m: (-pattern[m], m))
            best, counts = patterns.best_counts(sj.job, tuple(pattern[m] for m in order), cluster)
            slots = round_if_integral(sj.iterations * best / delta, 1e-7)
            if slots is None:
                raise InputError(f"{where}: job {i} runs {sj.iterations * best:g} s on a split of its GPUs, "
                                 f"not a whole number of {delta:g} s slots (integral instances, spec §4.7)")
            choices.append((pattern, dict(zip(order, counts)), slots))
        options.append(choices)
    releases = [round(sj.release / delta) for sj in instance.jobs]
    horizon = max(releases) + sum(max(D for _, _, D in choices) for choices in options)
    # Deadlines from an upper bound: a list-scheduling baseline starts jobs at releases and
    # completions, whole slots here, so its total UB is a slotted schedule's. In an optimum,
    # C_i <= UB - Σ_{j≠i} C_j, and the other jobs alone are a schedule of the stream without job i,
    # so Σ_{j≠i} C_j is at least that stream's lower bound (F3 and the per-job floor, in slots).
    schedules = [list_schedule(instance, name) for name in KEYS]
    verdicts = [get("asrpt").judge(instance, schedule) for schedule in schedules]
    upper, best = min((v.objective, k) for k, v in enumerate(verdicts) if v.objective is not None)
    latest = [min(horizon, floor_tol(upper / delta - rest)) for rest in _without_each(instance, releases, options)]
    return Stream(options, releases, latest, schedules[best])


def _without_each(instance: Instance, releases: list[int], options: list) -> list[float]:
    """Per job ``i``, a lower bound (slots) on the total completion time of the stream without job
    ``i``: the larger of F3 (:func:`_f3_slots`, each job its shortest split) and
    ``Σ_{j≠i} (r_j + D_j)``, with ``D_j`` the shortest split's slots."""
    shortest = [min(D for *_, D in choices) for choices in options]
    floor = sum(releases) + sum(shortest)
    n = len(options)
    return [max(_f3_slots(instance, releases, shortest, [j for j in range(n) if j != i]),
                floor - releases[i] - shortest[i]) for i in range(n)]


def _f3_slots(instance: Instance, releases: list[int], lengths: list[int], jobs: list[int]) -> float:
    """F3 in slots over ``jobs``: SRPT on the pooled ``G`` GPUs, job ``j`` a piece of ``lengths[j] g_j / G``
    (its GPU-slots spread over the pool; Lemma 1), a lower bound on their total completion time."""
    G = instance.cluster.total_gpus
    sizes = [lengths[j] * instance.jobs[j].job.gpus / G for j in jobs]
    return math.fsum(srpt([float(releases[j]) for j in jobs], sizes))


def time_indexed(instance: Instance, relax: bool = False) -> Model:
    """F4: the least total completion time (s) of problem (8), with the best counts per pattern.

    References
    ----------
    .. [1] Z. Luo, J. Liu, M. Lee, and N. B. Shroff, “Prediction-Assisted Online Distributed Deep Learning Workload
       Scheduling in GPU Clusters,” arXiv preprint, 2025. arXiv:2501.05563; problem (8).
    """
    cluster, delta = instance.cluster, instance.slot
    shared = stream(instance, "time-indexed")
    options, releases, latest = shared.options, shared.releases, shared.latest
    kind = pulp.LpContinuous if relax else pulp.LpBinary
    prob = pulp.LpProblem("asrpt_time_indexed", pulp.LpMinimize)
    z, objective = {}, []
    busy: dict[tuple[int, int], list] = {}
    for i, choices in enumerate(options):
        mine = []
        for u, (pattern, _, D) in enumerate(choices):
            if i == 0 and list(pattern) != sorted(pattern, reverse=True):
                continue  # servers are identical: relabel them so that the first job's split is non-increasing
            for t in range(releases[i], latest[i] - D + 1):
                v = z[i, u, t] = prob.add_variable(f"z_{i}_{u}_{t}", 0, 1, kind)
                mine.append(v)
                objective.append(delta * (t + D) * v)
                for m in range(cluster.servers):
                    if pattern[m]:
                        for tau in range(t, t + D):
                            busy.setdefault((m, tau), []).append(pattern[m] * v)
        prob += pulp.lpSum(mine) == 1, f"start_once_{i}"  # (M1)
    for (m, tau), users in sorted(busy.items()):
        prob += pulp.lpSum(users) <= cluster.gpus, f"capacity_{m}_{tau}"  # (M2)
    prob += pulp.lpSum(objective)
    if relax:
        return Model(prob)
    incumbent = _placed(instance, shared, shared.incumbent)  # the MIP start, when F4 offers every job's split
    start = {z[i, u, t].name: 1.0 for i, (u, t) in enumerate(incumbent)
             if (i, u, t) in z} if all(u >= 0 for u, _ in incumbent) else None

    def decode(result: Result) -> Schedule:
        runs = []
        for i, choices in enumerate(options):
            (u, t), = [(u, t) for (j, u, t), v in z.items() if j == i and integral(result.value(v)) == 1]
            runs.append(JobRun(t * delta, {m: tuple(c) for m, c in choices[u][1].items()}))
        return Schedule(tuple(runs))

    return Model(prob, decode, start=start)


def cp_sat(instance: Instance, relax: bool = False) -> CpSatModel:
    """F4 as a CP-SAT model (module docstring), hinted with the best list-scheduling schedule."""
    if relax:
        raise InputError("formulation cp-sat has no LP relaxation")
    shared = stream(instance, "cp-sat")
    return _cp_sat_model(instance, shared, _placed(instance, shared, shared.incumbent), 0)


def pooled(instance: Instance, relax: bool = False) -> Model:
    """The GPUs pooled: a lower bound (s) on (8), time-indexed.

    Every job runs its shortest split's ``D_i`` slots, non-preemptively, on ``G = M g`` GPUs with no
    servers (``Σ_i g_i`` over the jobs running in a slot at most ``G``), released at ``r_i`` and done
    by F4's deadline. A schedule of (8) is one of this problem (its jobs take at least ``D_i`` and use
    at most ``G`` GPUs at once), so its optimum is at most (8)'s; unlike F3 it keeps each job in one
    piece and its GPUs busy the whole time. ``relax=True`` gives its LP."""
    return Model(_pooled(instance, stream(instance, "pooled"), relax).problem)  # a bound: nothing to decode


def _pooled(instance: Instance, shared: Stream, relax: bool) -> Model:
    """:func:`pooled`'s model; its decoder (for :func:`pool_and_place`) reads each job's start slot."""
    delta, kind = instance.slot, (pulp.LpContinuous if relax else pulp.LpBinary)
    prob = pulp.LpProblem("asrpt_pooled", pulp.LpMinimize)
    starts: list[dict[int, Any]] = []  # per job, its start variables by slot
    objective: list = []
    busy: dict[int, list] = {}
    for i, (choices, release, latest) in enumerate(zip(shared.options, shared.releases, shared.latest)):
        length, gpus = min(D for *_, D in choices), instance.jobs[i].job.gpus
        mine = {t: prob.add_variable(f"x_{i}_{t}", 0, 1, kind) for t in range(release, latest - length + 1)}
        for t, v in mine.items():
            objective.append(delta * (t + length) * v)
            for tau in range(t, t + length):
                busy.setdefault(tau, []).append(gpus * v)
        prob += pulp.lpSum(mine.values()) == 1, f"start_once_{i}"
        starts.append(mine)
    for tau, users in sorted(busy.items()):
        prob += pulp.lpSum(users) <= instance.cluster.total_gpus, f"capacity_{tau}"
    prob += pulp.lpSum(objective)

    def decode(result: Result) -> list[int]:
        return [next(t for t, v in mine.items() if integral(result.value(v)) == 1) for mine in starts]

    return Model(prob, None if relax else decode)


#: :func:`pool_and_place`'s shares of the seconds left of a time-limited solve: the pooled MILP, then
#: the placement of its schedule; F4's CP-SAT model gets what remains.
POOLED_SHARE, PLACEMENT_SHARE = 0.6, 0.25


def pool_and_place(instance: Instance, relax: bool = False) -> CpSatModel:
    """F4's CP-SAT model, started from the pooled problem (:func:`pooled`): exact.

    1. The pooled MILP is solved (HiGHS, one thread): its bound ``L`` is a lower bound on (8).
    2. Its schedule is placed on the servers: F4's CP-SAT model with every start fixed to the pooled
       one, each job free to take any split (a split longer than ``D_i`` delays only that job).
    3. F4's CP-SAT model, hinted with the better of that placement and the best list-scheduling
       schedule, with ``Σ_i E_i >= L`` added. When the placement keeps every ``D_i`` and the pooled
       solve was optimal, the hint meets the bound and CP-SAT proves it at once.
    A time-limited solve gives steps 1 and 2 :data:`POOLED_SHARE` and :data:`PLACEMENT_SHARE` of the
    seconds left; without one, step 1 runs to its optimum."""
    from ..pipeline import inner_solve

    if relax:
        raise InputError("formulation pool-and-place has no LP relaxation")
    shared = stream(instance, "pool-and-place")
    result, starts = inner_solve(_pooled(instance, shared, False), share=POOLED_SHARE, threads=1)
    floor = 0 if result.bound is None else math.ceil(result.bound / instance.slot - 1e-6)
    picked = _placed(instance, shared, shared.incumbent)
    if starts is not None:
        placed = inner_solve(_cp_sat_model(instance, shared, picked, 0, starts), share=PLACEMENT_SHARE,
                             threads=1)[1]
        if placed is not None and _total(shared, better := _placed(instance, shared, placed)) < _total(shared, picked):
            picked = better
    return _cp_sat_model(instance, shared, picked, floor)


def _total(shared: Stream, picked: list[tuple[int, int]]) -> float:
    """Σ_i E_i (slots) of a schedule as :func:`_placed` reads it, infinite when it takes a split the
    models do not offer."""
    return sum(start + shared.options[i][u][2] for i, (u, start) in enumerate(picked)) \
        if all(u >= 0 for u, _ in picked) else math.inf


def _cp_sat_model(instance: Instance, shared: Stream, picked: list[tuple[int, int]], floor: int,
                  starts: list[int] | None = None) -> CpSatModel:
    """F4 as a CP-SAT model (module docstring), hinted with ``picked`` (:func:`_placed`), with
    ``Σ_i E_i`` at least ``floor`` (slots); ``starts``: every job's start fixed (a placement)."""
    from ortools.sat.python import cp_model

    cluster, delta = instance.cluster, instance.slot
    model = cp_model.CpModel()
    read: dict = {}
    ends, kept, whole = [], [], []
    demand: dict[int, tuple[list, list, list]] = {m: ([], [], []) for m in range(cluster.servers)}
    for i, choices in enumerate(shared.options):
        fits = [u for u, (pattern, _, D) in enumerate(choices) if shared.releases[i] + D <= shared.latest[i]
                and (i > 0 or list(pattern) == sorted(pattern, reverse=True))]  # identical servers, as in F4
        lengths = sorted({choices[u][2] for u in fits})
        first, last = (starts[i], starts[i]) if starts else (shared.releases[i], shared.latest[i] - lengths[0])
        start = read[f"S_{i}"] = model.new_int_var(first, last, f"S_{i}")
        length = read[f"D_{i}"] = model.new_int_var_from_domain(cp_model.Domain.from_values(lengths), f"D_{i}")
        end = model.new_int_var(shared.releases[i] + lengths[0], shared.latest[i], f"E_{i}")
        model.add(end == start + length)
        whole.append(model.new_interval_var(start, length, end, f"J_{i}"))
        picks = {u: model.new_bool_var(f"b_{i}_{u}") for u in fits}
        read.update({f"b_{i}_{u}": b for u, b in picks.items()})
        model.add_exactly_one(picks.values())
        model.add(length == sum(choices[u][2] * b for u, b in picks.items()))
        for m in range(cluster.servers):
            using = {u: choices[u][0][m] for u in fits if choices[u][0][m]}
            if not using:
                continue
            present = read[f"p_{i}_{m}"] = model.new_bool_var(f"p_{i}_{m}")
            model.add(present == sum(picks[u] for u in using))
            most = max(using.values())
            there = read[f"g_{i}_{m}"] = model.new_int_var(0, most, f"g_{i}_{m}")
            model.add(there == sum(g * picks[u] for u, g in using.items()))
            demand[m][0].append(model.new_optional_interval_var(start, length, end, present, f"I_{i}_{m}"))
            demand[m][1].append(there)
            demand[m][2].append(most)
        ends.append(end)
        kept.append(fits)
    for intervals, gpus, maxima in demand.values():
        if sum(maxima) > cluster.gpus:
            model.add_cumulative(intervals, gpus, cluster.gpus)
    # Redundant, both valid for every schedule: the cluster's GPUs pooled, and Σ E_i at least F3 on the
    # splits kept (each job a piece of its least GPU-slots over the pool, SRPT's optimum, Lemma 1).
    model.add_cumulative(whole, [sj.job.gpus for sj in instance.jobs], cluster.total_gpus)
    shortest = [min(shared.options[i][u][2] for u in fits) for i, fits in enumerate(kept)]
    f3 = math.ceil(_f3_slots(instance, shared.releases, shortest, list(range(len(kept)))) - 1e-6)
    model.add(sum(ends) >= max(f3, floor))
    model.minimize(sum(ends))
    _hint(model, read, ends, shared, [(u, begin) if u in kept[i] and (not starts or begin == starts[i]) else None
                                      for i, (u, begin) in enumerate(picked)])

    def decode(result: Result) -> Schedule:
        runs = []
        for i, fits in enumerate(kept):
            (u,) = [u for u in fits if integral(result.value(f"b_{i}_{u}")) == 1]
            counts = shared.options[i][u][1]
            runs.append(JobRun(integral(result.value(f"S_{i}")) * delta, {m: tuple(c) for m, c in counts.items()}))
        return Schedule(tuple(runs))

    return CpSatModel(model, "min", read, decode, unit=delta)


def _hint(model, read: dict, ends: list, shared: Stream, picked: list[tuple[int, int] | None]) -> None:
    """Hint every variable of each job the schedule ``picked`` gives (``(split, start slot)``, None to
    leave a job unhinted): start, length, end, split, and per server presence and GPUs."""
    for i, chosen in enumerate(picked):
        if chosen is None:
            continue
        u, begin = chosen
        pattern, _, slots = shared.options[i][u]
        model.add_hint(ends[i], begin + slots)
        values = {f"S_{i}": begin, f"D_{i}": slots} | {f"b_{i}_{k}": int(k == u) for k in range(len(shared.options[i]))}
        for m, gpus in enumerate(pattern):
            values.update({f"p_{i}_{m}": int(gpus > 0), f"g_{i}_{m}": gpus})
        for name, value in values.items():
            if name in read:
                model.add_hint(read[name], value)


def _placed(instance: Instance, shared: Stream, schedule: Schedule) -> list[tuple[int, int]]:
    """A schedule as ``(split index, start slot)`` per job, with the servers relabelled so that the
    first job's split is non-increasing (the models' symmetry breaking; servers are identical); the
    split index is -1 for a job whose split the models do not offer."""
    runs = schedule.jobs
    servers = instance.cluster.servers

    def split(run: JobRun) -> list[int]:
        return [sum(run.counts.get(m, ())) for m in range(servers)]

    relabel = sorted(range(servers), key=lambda m: (-split(runs[0])[m], m))  # new label k <- old server relabel[k]
    picked = []
    for i, run in enumerate(runs):
        used = split(run)
        pattern = tuple(used[relabel[k]] for k in range(servers))
        matches = [u for u, (p, _, _) in enumerate(shared.options[i]) if p == pattern]
        picked.append((matches[0] if matches else -1, round(run.start / instance.slot)))
    return picked


def _pattern_count(gpus: int, servers: int, per_server: int) -> int:
    """How many splits :func:`_patterns` yields (a dynamic program over servers)."""
    ways = [1] + [0] * gpus
    for _ in range(servers):
        ways = [sum(ways[left - x] for x in range(min(left, per_server) + 1)) for left in range(gpus + 1)]
    return ways[gpus]


def _patterns(gpus: int, servers: int, per_server: int):
    """Every ``u`` in ``N^M`` with ``Σ u = gpus`` and ``u_m <= per_server``."""
    def walk(left: int, room: int):
        if room == 1:
            if left <= per_server:
                yield (left,)
            return
        for first in range(min(left, per_server) + 1):
            for tail in walk(left - first, room - 1):
                yield (first,) + tail

    yield from walk(gpus, servers)


#: ``best`` takes the CP-SAT model up to this many jobs, pool-and-place above.
CP_SAT_UP_TO = 10


def best(instance: Instance) -> str:
    """``--formulation best``: the CP-SAT model up to :data:`CP_SAT_UP_TO` jobs, pool-and-place above.
    Measured on seeds 0-2 of the small preset, one thread, 60 s (docs/benchmarks.md, "Exact
    frontier"): at 8 and 10 jobs the CP-SAT model proves each seed in at most 0.2 s, 5-10 times
    faster than pool-and-place (whose pooled MILP costs tenths of a second); at 14 pool-and-place
    proves each in at most 3.8 s where the CP-SAT model takes 9-42 s, and at 20 it proves two of
    three where the CP-SAT model proves none."""
    return "cp-sat" if len(instance.jobs) <= CP_SAT_UP_TO else "pool-and-place"
