"""Problem (1) with the servers pooled and time cumulated: an upper bound on the optimum at any size, the
prices it suggests, and the schedules those prices give.

**The relaxation.** Whatever its schedule, job ``i`` uses at least ``W_i`` worker-slots (mode A
exactly; mode B ``Σ ⌈ρ d_t⌉ >= ⌈ρ E N⌉``) and, when ``b_i > 0``, at least ``max(⌈W_i b_i/B_i⌉, n)``
PS-slots over its ``n >= e_i − a_i + 1`` active slots, where ``e_i`` is its earliest completion
(at most ``N_i`` workers a slot, ``⌊N_i/ρ_i⌋`` chunks in mode B). So it uses at least
``U_i^r = W_i w_i^r`` of worker resource ``r`` and ``U_i^{p,r}`` of PS resource ``r`` (the
PS-slots times ``s_i^r``), all inside ``[a_i, t̂_i]``. With ``y[i, τ]`` the (fractional) share of
job ``i`` complete by slot ``τ``, every schedule of (1) is a feasible integral point of::

    max  Σ_i Σ_τ f_i(τ − a_i) (y[i, τ] − y[i, τ−1])
    s.t. 0 <= y[i, e_i] <= ... <= y[i, T] <= 1                                   (monotone)
         Σ_{i: a_i >= s, e_i <= τ} U_i^r y[i, τ] <= (τ − s + 1) C^r               (window s, τ, r)

for each pool and resource (``C^r`` the pool's capacity summed over its servers), at the same
utility: its jobs complete by ``τ`` inside ``[s, τ]`` when they arrive at ``s`` or later. The
windows are a grid (any subset of valid rows is a valid relaxation): up to :data:`STARTS` starts
from slot 1 and :data:`ENDS` ends up to slot ``T``, evenly spaced; a window its jobs cannot
overfill is left out.

**The bound.** The LP's optimum is an upper bound on (1), but the route certifies it through the
dual (19) of LP(14) instead, which holds whatever the LP solver's tolerances: for prices ``p >= 0``
on every (slot, server, resource) cell, ``L(p) = Σ_i max(0, max_l f_i(t̂_il − a_i) − cost_l(p)) +
Σ p·c >= LP(14) >= OPT``, its inner maximum by Algorithm 2 (exact, Theorem 1). The window rows'
duals ``λ`` give ``p[t, ·, r] = Σ_{windows ∋ t} λ_{s,τ,r}`` on every server of the pool: then a job
pays at least what the pooled LP charges it, and ``L(p)`` is at most the LP's dual value. The bound
is the smaller of ``L(0)`` (each job alone at its best utility) and ``L(p)``, rounded up by
:data:`SAFETY`.

**The schedules.** Jobs in arrival order and in the LP's order (those it completes at least half
of first, each group by its LP mean completion slot), each given its best plan at the prices
``κ p`` within the capacity still free (Algorithm 2), and admitted when that plan's payoff is
positive; over :data:`SCALES` the largest total utility is kept. The pipeline's verifier judges
the schedule.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import highspy
import numpy as np

from ..errors import SolverFailure
from ..numeric import ceil_tol, floor_tol
from .instance import Instance
from .schedule import REJECTED, Schedule
from .subroutine import best_schedule
from .theory import dual_check

#: At most this many window starts (slot 1 first) and ends (slot T last), evenly spaced: at T = 300,
#: every 20th slot and every 5th.
STARTS = 15
ENDS = 60
#: Price multipliers the schedules are built at.
SCALES = (0.75, 1.0, 1.25, 1.5)
#: Floating-point slack: the bound is reported this much (relative) above the computed sum.
SAFETY = 1e-9


@dataclass(frozen=True)
class Demand:
    """Job ``i``'s least use: its earliest completion slot ``e_i`` and ``use`` (2R), the least of
    each worker resource, then of each PS resource, any schedule of it takes."""

    job: int
    earliest: int
    use: np.ndarray


def least_use(instance: Instance) -> list[Demand]:
    """The :class:`Demand` of every job that can run (module docstring)."""
    out = []
    for i, (job, facts) in enumerate(zip(instance.jobs, instance.facts)):
        if not facts.feasible:
            continue
        if instance.mode == "worker_slots":
            active = ceil_tol(facts.W / facts.max_workers)
        else:
            active = ceil_tol(facts.chunk_target / floor_tol(facts.max_workers / facts.rho))
        ps_slots = max(ceil_tol(facts.W * job.b / job.B), active)
        use = np.concatenate([facts.W * np.asarray(job.worker_demand, float),
                              ps_slots * np.asarray(job.ps_demand, float)])
        out.append(Demand(i, job.arrival + active - 1, use))
    return out


@dataclass(frozen=True)
class Window:
    """One capacity row: jobs arriving at ``start`` or later and complete by ``end`` use at most
    ``(end − start + 1) C`` of column ``resource`` (0..R−1 workers, R..2R−1 PSs)."""

    start: int
    end: int
    resource: int
    members: tuple[int, ...]  #: indices into the demand list
    capacity: float


def windows(instance: Instance, demands: list[Demand]) -> Iterator[Window]:
    """The window rows of the pooled LP that some jobs could overfill."""
    T = instance.T
    capacity = np.concatenate([np.asarray(instance.worker_servers, float).sum(axis=0),
                               np.asarray(instance.ps_servers, float).sum(axis=0)])
    arrival = np.array([instance.jobs[d.job].arrival for d in demands])
    earliest = np.array([d.earliest for d in demands])
    use = np.array([d.use for d in demands]).reshape(len(demands), len(capacity))
    ends = sorted(set(range(T, 0, -math.ceil(T / ENDS))))
    for start in range(1, T + 1, math.ceil(T / STARTS)):
        for end in ends:
            if end < start:
                continue
            members = np.flatnonzero((arrival >= start) & (earliest <= end))
            room = (end - start + 1) * capacity
            for r in np.flatnonzero(use[members].sum(axis=0) > room):
                yield Window(start, end, int(r), tuple(members.tolist()), float(room[r]))


def gain(instance: Instance, d: Demand) -> np.ndarray:
    """Per ``τ = e_i..T``: the objective coefficient of ``y[i, τ]``, ``f(τ − a) − f(τ + 1 − a)``
    (``f(T − a)`` at ``τ = T``), so that the sum telescopes to ``f`` at the completion slot."""
    job = instance.jobs[d.job]
    values = np.array([job.utility.value(t - job.arrival) for t in range(d.earliest, instance.T + 2)])
    values[-1] = 0.0
    return values[:-1] - values[1:]


@dataclass
class PooledBound:
    """The outcome of :func:`run`: the pooled LP's optimum, the certified bounds ``L(0)`` then
    ``L(p)`` (``trajectory``), the prices per slot and pool resource (T, 2R), and the best schedule
    found with its total utility."""

    lp: float
    trajectory: list[float]
    prices: np.ndarray
    schedule: Schedule
    found: float
    rows: int = 0

    @property
    def bound(self) -> float:
        """The certified bound: the last of the trajectory (the smaller of ``L(0)`` and ``L(p)``)."""
        return self.trajectory[-1]


@dataclass
class LpSolution:
    """The pooled LP solved: its optimum, the prices ``p[t − 1, r]`` its window duals give, the number
    of window rows, and per job the share ``y[i, T]`` the LP completes and its mean completion slot
    ``Σ_τ τ (y[i, τ] − y[i, τ−1]) / y[i, T]`` (inf where the share is 0; jobs that cannot run: 0 and inf)."""

    value: float
    prices: np.ndarray
    rows: int
    share: np.ndarray
    completion: np.ndarray


def solve_lp(instance: Instance, demands: list[Demand]) -> LpSolution:
    """The pooled LP in HiGHS (module docstring)."""
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    gains = [gain(instance, d) for d in demands]
    first = np.concatenate([[0], np.cumsum([len(g) for g in gains])]).astype(int)
    n = int(first[-1])
    highs.addVars(n, np.zeros(n), np.ones(n))
    if n:
        highs.changeColsCost(n, np.arange(n, dtype=np.int32), np.concatenate(gains))
    highs.changeObjectiveSense(highspy.ObjSense.kMaximize)
    for f, g in zip(first, gains):
        for k in range(len(g) - 1):
            highs.addRow(-highspy.kHighsInf, 0.0, 2, np.array([f + k, f + k + 1], dtype=np.int32),
                         np.array([1.0, -1.0]))
    monotone = highs.getNumRow()
    rows = list(windows(instance, demands))
    for w in rows:
        index = np.array([first[m] + w.end - demands[m].earliest for m in w.members], dtype=np.int32)
        highs.addRow(-highspy.kHighsInf, w.capacity, len(index), index,
                     np.array([demands[m].use[w.resource] for m in w.members]))
    highs.run()
    status = highs.getModelStatus()
    if status not in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kModelEmpty):  # empty: no rows
        raise SolverFailure(f"pooled: the LP ended {highs.modelStatusToString(status)}")
    solution = highs.getSolution()
    duals = np.abs(np.asarray(solution.row_dual)[monotone:])
    prices = np.zeros((instance.T, 2 * instance.R))
    for w, lam in zip(rows, duals):
        prices[w.start - 1:w.end, w.resource] += lam
    y = np.asarray(solution.col_value)
    share, completion = np.zeros(len(instance.jobs)), np.full(len(instance.jobs), np.inf)
    for d, f, g in zip(demands, first, first[1:]):
        done = np.diff(y[f:g], prepend=0.0)
        share[d.job] = y[g - 1]
        if y[g - 1] > 0:
            completion[d.job] = float(np.arange(d.earliest, instance.T + 1) @ done) / y[g - 1]
    return LpSolution(highs.getInfo().objective_function_value, prices, len(rows), share, completion)


def _cells(instance: Instance, prices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell prices (T, H, R) and (T, K, R): each pool's price on every one of its servers."""
    T, H, K, R = instance.T, instance.H, instance.K, instance.R
    return (np.broadcast_to(prices[:, None, :R], (T, H, R)).copy(),
            np.broadcast_to(prices[:, None, R:], (T, K, R)).copy())


def _capacity(instance: Instance) -> tuple[np.ndarray, np.ndarray]:
    T, H, K, R = instance.T, instance.H, instance.K, instance.R
    return (np.broadcast_to(np.asarray(instance.worker_servers, float), (T, H, R)),
            np.broadcast_to(np.asarray(instance.ps_servers, float), (T, K, R)))


def lagrangian(instance: Instance, prices: np.ndarray) -> float:
    """``L(p)`` of the dual (19): the repaired dual of :func:`.theory.dual_check` at zero payoffs,
    each job priced exactly by Algorithm 2 on the empty cluster."""
    price_w, price_p = _cells(instance, prices)
    return dual_check(instance, price_w, price_p, (0.0,) * len(instance.jobs)).repaired_dual


def priced_schedule(instance: Instance, prices: np.ndarray, order: list[int]) -> tuple[Schedule, float]:
    """Jobs in ``order``, each given its best plan at ``prices`` in the capacity still free, admitted
    when its payoff is positive (Algorithm 2 with free capacity, as OASiS's Algorithm 1 uses it); the
    schedule and the sum of its plans' utilities (the pipeline's verifier judges it)."""
    price_w, price_p = _cells(instance, prices)
    cap_w, cap_p = _capacity(instance)
    free_w, free_p = cap_w.copy(), cap_p.copy()
    plans = [REJECTED] * len(instance.jobs)
    utilities: list[float] = []
    for i in order:
        plan = best_schedule(instance, i, price_w, price_p, free_w, free_p)
        if plan is None:
            continue
        job, a, n = instance.jobs[i], plan.first - 1, plan.workers.shape[0]
        free_w[a:a + n] -= plan.workers[:, :, None] * np.asarray(job.worker_demand, float)
        free_p[a:a + n] -= plan.ps[:, :, None] * np.asarray(job.ps_demand, float)
        plans[i] = plan.to_job_plan()
        utilities.append(plan.utility)
    return Schedule(tuple(plans)), math.fsum(utilities)


def orders(instance: Instance, lp: LpSolution) -> list[list[int]]:
    """Arrival order, and the LP's order: first the jobs the LP completes at least half of, then the
    others, each by its LP mean completion slot (a standard LP-guided list order)."""
    arrival = list(range(len(instance.jobs)))
    return [arrival, sorted(arrival, key=lambda i: (lp.share[i] < 0.5, lp.completion[i], i))]


def run(instance: Instance) -> PooledBound:
    """The pooled LP, the certified bound from its prices, and the best priced schedule (module docstring)."""
    lp = solve_lp(instance, least_use(instance))
    start = lagrangian(instance, np.zeros_like(lp.prices))
    trajectory = [t + SAFETY * abs(t) for t in (start, min(start, lagrangian(instance, lp.prices)))]
    best, found = Schedule(tuple([REJECTED] * len(instance.jobs))), 0.0
    for order in orders(instance, lp):
        for scale in SCALES:
            schedule, total = priced_schedule(instance, scale * lp.prices, order)
            if total > found:
                best, found = schedule, total
    return PooledBound(lp.value, trajectory, lp.prices, best, found, lp.rows)
