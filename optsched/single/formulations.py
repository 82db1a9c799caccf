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
    T = instance.horizon
    model_variables(sum(T - job.p - job.r + 1 for job in instance.jobs), "time-indexed")
    problem = pulp.LpProblem("single_time_indexed", pulp.LpMinimize)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    x = {
        (j, t): problem.add_variable(f"x_{j}_{t}", 0, 1, category)
        for j, job in enumerate(instance.jobs)
        for t in range(job.r, T - job.p + 1)
    }
    problem += pulp.lpSum(instance.jobs[j].w * (t + instance.jobs[j].p) * var for (j, t), var in x.items())
    for j, job in enumerate(instance.jobs):
        problem += pulp.lpSum(x[j, t] for t in range(job.r, T - job.p + 1)) == 1, f"assign_{j}"
    running: dict[int, list] = {t: [] for t in range(T)}
    for (j, s), var in x.items():
        for t in range(s, s + instance.jobs[j].p):
            running[t].append(var)
    for t, occupying in running.items():
        if len(occupying) > 1:
            problem += pulp.lpSum(occupying) <= 1, f"machine_{t}"
    if relax:
        return Model(problem)
    begin = wspt(instance).start  # the MIP start: WSPT's schedule, within the horizon (it is left-shifted)

    def decode(result: Result) -> Schedule:
        start: list[float | None] = [None] * instance.n
        for (j, t), var in x.items():
            if integral(result.value(var)) == 1:
                start[j] = float(t)
        starts = [s for s in start if s is not None]
        if len(starts) < instance.n:
            raise ValueError("time-indexed solution assigns no start time to some job")
        return Schedule(tuple(starts))

    return Model(problem, decode, start={x[j, int(s)].name: 1.0 for j, s in enumerate(begin)})


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

    return CpSatModel(model, "min", read, decode, scale=scale)


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
