"""Solver models of 1|r_j|Σ w_j C_j.

``time-indexed``: the classic time-indexed formulation (Sousa & Wolsey 1992; Dyer & Wolsey 1990).
``x[j,t] = 1`` iff job ``j`` starts at integer time ``t``, for ``r_j <= t <= T - p_j`` with the
safe horizon ``T = max_j r_j + Σ_j p_j`` (see :attr:`Instance.horizon`)::

    min  Σ_j Σ_t w_j (t + p_j) x[j,t]
    s.t. Σ_t x[j,t] = 1                                  for every job j         (assign_j)
         Σ_j Σ_{s = t-p_j+1}^{t} x[j,s] <= 1              for every slot t < T    (machine_t)
         x[j,t] ∈ {0,1}   (relax=True: 0 <= x[j,t] <= 1)

Integer data make integral start times without loss of generality, so the MILP is exact; its LP
relaxation is a lower bound (one of the strongest known for this problem). WSPT's schedule is the
MIP start.

``mean-busy-time``: the LP relaxation of Dyer & Wolsey (1990) in unit pieces ``y[j,τ]`` (job ``j``
runs in ``[τ, τ+1)``, any order, preemption allowed)::

    min  Σ_j w_j (p_j / 2 + (1 / p_j) Σ_τ (τ + 1/2) y[j,τ])
    s.t. Σ_τ y[j,τ] = p_j  (size_j),   Σ_j y[j,τ] <= 1  (machine_τ),   y >= 0,  τ >= r_j

Its terms are mean busy times: ``C_j >= M_j + p_j / 2`` in every schedule. Goemans (1997,
Theorem 3.1) shows the preemptive WSPT schedule (at every moment, the available unfinished job of
largest ``w/p``) is an optimal solution, so the bound is computed exactly, in ``O(n log n)``, at
any size; the LP written out (:func:`mean_busy_time_lp`) is its cross-check. It is weaker than the
time-indexed LP and scales where that does not: the bound route at large sizes.

``cp-sat``: the same problem as a CP-SAT model, an independent second model for cross-checks. A start
variable ``S_j ∈ [r_j, T − p_j]`` and a fixed-size interval ``[S_j, S_j + p_j)`` per job, one
``NoOverlap`` over the intervals (the machine), and ``min Σ_j w_j (S_j + p_j)``, with the weights
scaled to integers (:func:`optsched.numeric.integer_scale`). WSPT's schedule is the solver's hint.
It proves small instances only (its bound is weak for Σ w_j C_j); the MILP is the one to use.

:func:`brute_force_optimum` is the second exact method the tests check the MILP against: for a
fixed job order the best schedule starts each job as early as possible, so the optimum is the best
left-shifted schedule over all orders (at most 8 jobs).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from fractions import Fraction
from itertools import permutations

import pulp

from ..errors import InputError
from ..limits import model_variables
from ..numeric import integer_scale, integral
from ..solvers import Computed, CpSatModel, Model, Result
from .instance import Instance
from .online import wspt
from .schedule import Schedule, left_shifted


def time_indexed(instance: Instance, relax: bool = False) -> Model:
    """Build the time-indexed MILP (or its LP relaxation with ``relax=True``).

    References
    ----------
    .. [1] J. P. Sousa and L. A. Wolsey, “A Time Indexed Formulation of Non-Preemptive Single Machine Scheduling
       Problems,” Mathematical Programming, vol. 54, pp. 353-367, 1992; the time-indexed formulation.
    """
    return _time_indexed(instance, _every_start(instance, "time-indexed"), relax, None if relax else wspt(instance))


def _every_start(instance: Instance, name: str) -> dict[int, range]:
    """Each job's start times within the horizon, ``r_j <= t <= T − p_j``, refused above the model
    size limit under the formulation's ``name``."""
    T = instance.horizon
    starts = {j: range(job.r, T - job.p + 1) for j, job in enumerate(instance.jobs)}
    model_variables(sum(len(times) for times in starts.values()), name)
    return starts


def _time_indexed(instance: Instance, starts: Mapping[int, Iterable[int]], relax: bool,
                  begin: Schedule | None) -> Model:
    """The time-indexed model over the start times ``starts[j]`` of each job, started from ``begin``
    (a schedule whose every start is among them)."""
    problem = pulp.LpProblem("single_time_indexed", pulp.LpMinimize)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    x = {(j, t): problem.add_variable(f"x_{j}_{t}", 0, 1, category) for j in range(instance.n) for t in starts[j]}
    problem += pulp.lpSum(instance.jobs[j].w * (t + instance.jobs[j].p) * var for (j, t), var in x.items())
    for j in range(instance.n):
        problem += pulp.lpSum(x[j, t] for t in starts[j]) == 1, f"assign_{j}"
    running: dict[int, list] = {}
    for (j, s), var in x.items():
        for t in range(s, s + instance.jobs[j].p):
            running.setdefault(t, []).append(var)
    for t, occupying in sorted(running.items()):
        if len(occupying) > 1:
            problem += pulp.lpSum(occupying) <= 1, f"machine_{t}"
    if relax:
        return Model(problem)

    def decode(result: Result) -> Schedule:
        start: list[float | None] = [None] * instance.n
        for (j, t), var in x.items():
            if integral(result.value(var)) == 1:
                start[j] = float(t)
        starts = [s for s in start if s is not None]
        if len(starts) < instance.n:
            raise ValueError("time-indexed solution assigns no start time to some job")
        return Schedule(tuple(starts))

    return Model(problem, decode, start=None if begin is None else {x[j, int(s)].name: 1.0
                                                                    for j, s in enumerate(begin.start)})


def reduced_time_indexed(instance: Instance, relax: bool = False) -> Model:
    """The time-indexed MILP after reduced-cost fixing: exact, with far fewer variables.

    The LP relaxation's duals, ``u_j`` of ``assign_j`` and ``v_t <= 0`` of ``machine_t``, give each
    variable the reduced cost ``δ[j,t] = w_j (t + p_j) − u_j − Σ_{s=t}^{t+p_j−1} v_s``. For every
    schedule ``x`` (Lagrangian duality: ``Σ_t v_t (occupancy_t − 1) >= 0``),
    ``c(x) >= L + Σ_j (δ[j, S_j] − min_t δ[j,t])`` with ``L = Σ_j u_j + Σ_t v_t + Σ_j min_t δ[j,t]``,
    which is the LP's optimum. So a start ``t`` of job ``j`` with ``δ[j,t] − min_t δ[j,t] > UB − L``
    is in no schedule of cost at most ``UB``, and the model over the remaining starts has the same
    optimum. ``L`` and ``δ`` are recomputed here from the duals (``v`` clipped at 0), so the bound
    holds whatever the LP's precision; a tolerance keeps more starts, which is always safe.

    ``UB`` is the best left-shifted schedule of :func:`_upper_order` (online WSPT, FIFO and the LP's
    orders, each improved by moving one job at a time), and that schedule is the MIP start (its
    starts always survive, since its cost is ``UB``). ``relax=True`` gives the full time-indexed LP.
    Tanaka and Fujikuma's SSDP prunes its dynamic programme's states the same way."""
    import numpy as np

    from .. import pipeline

    if relax:
        return time_indexed(instance, relax=True)
    full = _every_start(instance, "reduced-time-indexed")
    lp, _ = pipeline.inner_solve(time_indexed(instance, relax=True), share=0.5, threads=1)
    upper, order = _upper_order(instance, lp.values if lp.optimal else {})
    begin = left_shifted(instance, tuple(order))
    if not lp.optimal or lp.duals is None:  # no duals: fix nothing
        return _time_indexed(instance, full, False, begin)
    T = instance.horizon
    v = np.zeros(T + 1)
    for t in range(T):
        v[t] = min(0.0, lp.duals.get(f"machine_{t}", 0.0))
    before = np.concatenate([[0.0], np.cumsum(v)])  # Σ v over slots < t
    reduced, least = [], []
    for j, job in enumerate(instance.jobs):
        times = np.arange(job.r, T - job.p + 1)
        delta = job.w * (times + job.p) - lp.duals[f"assign_{j}"] - (before[times + job.p] - before[times])
        reduced.append((times, delta))
        least.append(float(delta.min()))
    bound = sum(lp.duals[f"assign_{j}"] for j in range(instance.n)) + float(v.sum()) + sum(least)
    slack = upper - bound + 1e-7 * max(1.0, abs(upper))
    kept = {j: times[delta - least[j] <= slack].tolist() for j, (times, delta) in enumerate(reduced)}
    for j, s in enumerate(begin.start):  # the start's own columns are within the slack; kept however rounding falls
        if int(s) not in kept[j]:
            kept[j] = sorted(kept[j] + [int(s)])
    return _time_indexed(instance, kept, False, begin)


def _upper_order(instance: Instance, lp_values: Mapping[str, float]) -> tuple[float, list[int]]:
    """A good job order and its cost (:func:`_cost`): the best of online WSPT's and FIFO's orders and
    the LP solution's (by each job's mean start and by its α-points, α = 0.1, 0.3, 0.5, 0.7, 0.9),
    after moving single jobs to better places (:func:`_insertions`) until no move improves the
    left-shifted schedule."""
    from .baselines import fifo

    orders = [_order_of(s) for s in (wspt(instance), fifo(instance))]
    spread: dict[int, list[tuple[int, float]]] = {}
    for name, value in lp_values.items():
        if value > 1e-9:
            _, j, t = name.split("_")
            spread.setdefault(int(j), []).append((int(t), value))
    if len(spread) == instance.n:
        for parts in spread.values():
            parts.sort()
        orders.append(sorted(range(instance.n), key=lambda j: (sum(t * x for t, x in spread[j]), j)))
        for alpha in (0.1, 0.3, 0.5, 0.7, 0.9):
            orders.append(sorted(range(instance.n), key=lambda j: (_alpha_point(spread[j], alpha), j)))
    return min(_insertions(instance, order) for order in orders)


def _order_of(schedule: Schedule) -> list[int]:
    """The jobs by start time (ties by index)."""
    return sorted(range(len(schedule.start)), key=lambda j: (schedule.start[j], j))


def _alpha_point(parts: list[tuple[int, float]], alpha: float) -> int:
    """The first start time by which a share ``alpha`` of the job has started in the LP solution."""
    total = 0.0
    for t, x in parts:
        total += x
        if total >= alpha - 1e-9:
            return t
    return parts[-1][0]


def _cost(instance: Instance, order: list[int]) -> float:
    """``Σ w_j C_j`` of the left-shifted schedule of ``order``."""
    clock, total = 0, 0.0
    for j in order:
        job = instance.jobs[j]
        clock = max(clock, job.r) + job.p
        total += job.w * clock
    return total


#: Passes of :func:`_insertions` over the jobs at most (each tries every job at every place).
INSERTION_PASSES = 10


def _insertions(instance: Instance, order: list[int]) -> tuple[float, list[int]]:
    """``order`` after first-improvement moves of one job to another place, until a pass over every
    job and place improves nothing (or :data:`INSERTION_PASSES`), with its cost.

    Every place of a job is priced at once (:func:`_insertion_costs`), so a pass costs ``O(n²)``
    rather than the ``O(n³)`` of pricing each trial order from scratch; the moves are the same."""
    import numpy as np

    jobs = instance.jobs
    p = np.array([job.p for job in jobs], dtype=float)
    w = np.array([job.w for job in jobs], dtype=float)
    r = np.array([job.r for job in jobs], dtype=float)
    order, best = list(order), _cost(instance, order)
    for _ in range(INSERTION_PASSES):
        improved = False
        for i in range(len(order)):
            job, rest = order[i], order[:i] + order[i + 1:]
            costs = _insertion_costs(p, w, r, rest, job)
            costs[i] = np.inf  # its own place
            better = np.flatnonzero(costs < best - 1e-12 * max(1.0, abs(best)))
            if better.size:
                k = int(better[0])
                order = rest[:k] + [job] + rest[k:]
                best, improved = _cost(instance, order), True
        if not improved:
            break
    return best, order


def _insertion_costs(p, w, r, rest: list[int], job: int):
    """``Σ w_j C_j`` of the left-shifted schedule of ``rest`` with ``job`` inserted before position
    ``k``, for every ``k`` (``k = len(rest)``: at the end), as an array.

    In ``rest`` alone, ``C_m = P_m + A_m`` with ``P`` the processing times' prefix sums and ``A_m =
    max(0, max_{l <= m} (r_l − P_{l−1}))`` the idle time before ``m``, non-decreasing. Inserting
    ``job`` at ``k`` completes it at ``C = max(C_{k−1}, r) + p`` and delays each later ``m`` to
    ``P_m + max(A_m, C − P_{k−1}) = C_m + max(0, C − P_{k−1} − A_m)``: the jobs that move are a run
    from ``k`` on, found by bisection."""
    import numpy as np

    idx = np.array(rest, dtype=int)
    pr, wr, rr = p[idx], w[idx], r[idx]
    P = np.cumsum(pr)
    before = np.concatenate([[0.0], P[:-1]])  # P_{m−1}
    A = np.maximum.accumulate(np.maximum(rr - before, 0.0))
    C = P + A
    W = np.concatenate([[0.0], np.cumsum(wr)])  # Σ w over positions < m
    WA = np.concatenate([[0.0], np.cumsum(wr * A)])
    WC = np.concatenate([[0.0], np.cumsum(wr * C)])
    k = np.arange(len(rest) + 1)
    done_before = np.concatenate([[0.0], C])  # C_{k−1}, 0 before the first
    finish = np.maximum(done_before, r[job]) + p[job]
    shift = finish - np.concatenate([[0.0], P])  # C − P_{k−1}
    end = np.maximum(np.searchsorted(A, shift, side="left"), k)  # positions k..end−1 are delayed
    delayed = shift * (W[end] - W[k]) - (WA[end] - WA[k])
    return WC[-1] + w[job] * finish + delayed


#: Jobs up to which ``best`` is ``cp-sat``; above, ``reduced-time-indexed``.
BEST_CP_SAT_UP_TO = 12


def best(instance: Instance) -> str:
    """``--formulation best``, from measurements (docs/single.md, ``benchmarks/single_small.py``,
    seeds 0-9, the whole call): ``cp-sat`` up to :data:`BEST_CP_SAT_UP_TO` jobs, where it is the
    faster on every seed (medians 8 ms against 33.5 ms at 10 jobs, 14.5 against 51.5 at 12); at 14 jobs
    each wins on half the seeds and ``cp-sat`` has the long tail (243 against 68 ms on seed 1);
    above, ``reduced-time-indexed`` (docs/benchmarks.md, "Exact optima against peer models": every
    seed of 3 up to 60 jobs within 60 s, up to 80 within 20,000 nodes)."""
    return "cp-sat" if instance.n <= BEST_CP_SAT_UP_TO else "reduced-time-indexed"


def lp_schedule_value(instance: Instance) -> Fraction:
    """``Σ_j w_j (M_j + p_j / 2)`` of the preemptive WSPT schedule (Goemans's LP schedule), exactly:
    the optimum of the mean-busy-time LP. Ties in ``w/p`` go to the lower index (any order is optimal)."""
    jobs = instance.jobs
    order = sorted(range(instance.n), key=lambda j: (jobs[j].r, j))
    left = [Fraction(job.p) for job in jobs]
    busy = [Fraction(0)] * instance.n  # ∫ t dt over the time j runs
    ready: list[tuple[Fraction, int]] = []
    clock, k = Fraction(0), 0
    while k < len(order) or ready:
        if not ready:
            clock = max(clock, Fraction(jobs[order[k]].r))
        while k < len(order) and jobs[order[k]].r <= clock:
            j = order[k]
            heapq.heappush(ready, (-Fraction(jobs[j].w) / jobs[j].p, j))
            k += 1
        j = ready[0][1]
        until = Fraction(jobs[order[k]].r) if k < len(order) else clock + left[j]
        run = min(left[j], until - clock)
        busy[j] += run * (clock + run / 2)
        left[j] -= run
        clock += run
        if left[j] == 0:
            heapq.heappop(ready)
    return sum((Fraction(job.w) * (busy[j] / job.p + Fraction(job.p, 2)) for j, job in enumerate(jobs)), Fraction(0))


def mean_busy_time(instance: Instance, relax: bool = False) -> Computed:
    """The mean-busy-time LP (module docstring), computed by the LP schedule; a lower bound on the
    optimum. It is an LP; ``relax`` is accepted and changes nothing."""
    return Computed("min", lambda: float(lp_schedule_value(instance)), "lp-schedule",
                    "computed by preemptive WSPT, optimal for the mean-busy-time LP (Goemans 1997, Thm 3.1); "
                    "a lower bound on the optimum", lambda: mean_busy_time_lp(instance), is_mip=False)


def mean_busy_time_lp(instance: Instance) -> Model:
    """The mean-busy-time LP written out in unit pieces, for the cross-check (horizon ``max r + Σ p``)."""
    T = instance.horizon
    model_variables(sum(T - job.r for job in instance.jobs), "mean-busy-time")
    problem = pulp.LpProblem("single_mean_busy_time", pulp.LpMinimize)
    y = {(j, t): problem.add_variable(f"y_{j}_{t}", 0, 1, pulp.LpContinuous)
         for j, job in enumerate(instance.jobs) for t in range(job.r, T)}
    problem += pulp.LpAffineExpression([(v, instance.jobs[j].w * (t + 0.5) / instance.jobs[j].p)
                                        for (j, t), v in y.items()],
                                       constant=sum(job.w * job.p / 2 for job in instance.jobs))
    running: dict[int, list] = {t: [] for t in range(T)}
    for j, job in enumerate(instance.jobs):
        problem += pulp.LpAffineExpression([(y[j, t], 1) for t in range(job.r, T)]) == job.p, f"size_{j}"
        for t in range(job.r, T):
            running[t].append((y[j, t], 1))
    for t, terms in running.items():
        if len(terms) > 1:
            problem += pulp.LpAffineExpression(terms) <= 1, f"machine_{t}"
    return Model(problem)


#: CP-SAT's parameters for :func:`cp_sat`: ``linearization_level`` 2 adds the no-overlap's LP cuts,
#: which bound ``Σ w_j C_j`` far better than the default level (20 seeds at 12 jobs: 0.036 against
#: 0.614 deterministic seconds in all; docs/single.md, "Formulation `cp-sat`").
CP_SAT_PARAMS = {"linearization_level": 2}


def cp_sat(instance: Instance, relax: bool = False) -> CpSatModel:
    """Build the CP-SAT model (module docstring); it has no relaxation."""
    from ortools.sat.python import cp_model

    if relax:
        raise InputError("formulation cp-sat has no LP relaxation")
    T = instance.horizon
    scale = integer_scale((job.w for job in instance.jobs), "cp-sat: job weights")
    model = cp_model.CpModel()
    start = [model.new_int_var(job.r, T - job.p, f"S_{j}") for j, job in enumerate(instance.jobs)]
    model.add_no_overlap([model.new_fixed_size_interval_var(s, job.p, f"I_{j}")
                          for j, (s, job) in enumerate(zip(start, instance.jobs))])
    model.minimize(sum(round(job.w * scale) * (s + job.p) for s, job in zip(start, instance.jobs)))
    for s, hint in zip(start, wspt(instance).start):
        model.add_hint(s, int(hint))
    read = {f"S_{j}": s for j, s in enumerate(start)}

    def decode(result: Result) -> Schedule:
        return Schedule(tuple(float(integral(result.value(f"S_{j}"))) for j in range(instance.n)))

    return CpSatModel(model, "min", read, decode, scale=scale, params=CP_SAT_PARAMS)


#: Brute force enumerates n! orders; beyond this it refuses.
BRUTE_FORCE_MAX_JOBS = 8


def brute_force_optimum(instance: Instance) -> tuple[float, Schedule]:
    """The exact optimum and a schedule attaining it: every job order's left-shifted schedule,
    judged by the pipeline (:func:`optsched.pipeline.judge`); at most 8 jobs."""
    from .. import pipeline
    from . import FAMILY

    if instance.n > BRUTE_FORCE_MAX_JOBS:
        raise InputError(f"brute force enumerates {instance.n}! orders; it is limited to {BRUTE_FORCE_MAX_JOBS} jobs")
    best: tuple[float, Schedule] | None = None
    for order in permutations(range(instance.n)):
        schedule = left_shifted(instance, order)
        value = pipeline.judge(FAMILY, instance, schedule).objective
        if value is None:
            raise AssertionError(f"a left-shifted schedule of order {order} fails the verifier")
        if best is None or value < best[0]:
            best = (value, schedule)
    assert best is not None, "an instance has at least one job order"
    return best
