"""Model A's LP with the servers pooled per resource, by column generation: a lower bound on problem
(2) / (15) at any size, and the schedule its solution suggests.

**The relaxation.** A run of job ``j`` with worker type ``m``, PS type ``p``, ``N`` workers and flag
``q`` uses, summed over the servers, at least ``F(m, p, N) = N e_m + z_p`` of every resource in every
slot it runs (at least one PS, W3/V4; no PS for Ring-AllReduce), for at least ``d(m, p, N)`` slots,
the shortest duration of those workers over both flags. Pooling the servers (``C_r = Σ_h C^r_h``)
and keeping only this, every schedule of problem (2) / (15) is a feasible integral solution of::

    min  Σ_j Σ_{(k, t)} w_j (t + d_k) x_{j,k,t}
    s.t. Σ_{(k, t)} x_{j,k,t} = 1                                  (assign_j)
         Σ_{j,k,t: τ ∈ [t, t + d_k)} F_k^r x_{j,k,t} <= C_r          (pool_r_τ)

at no greater cost (its run maps to the column of its (m, p, N) at its own start), so the LP's
optimum is at most the problem's. Only shapes that fit the empty cluster count
(:attr:`Instance.shape_tables`): no schedule runs the others.

**The bound.** For prices ``π[r, τ] >= 0`` (the master's capacity duals), weak duality gives::

    L(π) = Σ_j min_{k, t >= a_j} [w_j (t + d_k) + Σ_r F_k^r Σ_{τ ∈ [t, t + d_k)} π[r, τ]] − Σ_{r,τ} π[r, τ] C_r

for every ``π >= 0``, whatever the master's solver did: the minimum is taken over every start,
exactly (prices are zero after the last priced slot, so a later start only completes later), by
enumeration with prefix sums. At convergence ``L(π)`` meets the master's value: the pooled LP is
solved. Bounds are rounded down by a relative :data:`SAFETY`.

**The master** starts from the serial schedule (each job alone on its fastest shape, in WSPT
order), which is pooled-feasible and fixes the horizon of its capacity rows; each round adds, per
job, the column of least reduced cost when it is negative.

**The schedule.** :func:`list_schedule` places the jobs one by one in the order of their LP
completion times ``Σ x (t + d)`` (a standard LP-guided order), each at the earliest completion
over its shapes by first-fit placement (:class:`.baselines.ClusterUsage`); the verifier judges it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import highspy
import numpy as np

from ..errors import SolverFailure
from .baselines import ClusterUsage, Config
from .instance import Instance
from .schedule import JobSchedule, Schedule

#: Pricing rounds before the generation stops unconverged (a deterministic budget; at 200 jobs on 150
#: servers it converges in about 50).
ROUNDS = 1000
#: Columns a job may add per round: its cheapest start of each of this many shapes of negative
#: reduced cost (more per round, fewer rounds).
COLUMNS_PER_JOB = 5
#: Wentges smoothing: the weight of the best bound's prices in the prices a round uses.
SMOOTHING = 0.5
#: Converged when the bound is within this relative distance of the master's value.
TOL = 1e-7
#: Floating-point slack: bounds are reported this much (relative) below the computed sum.
SAFETY = 1e-9


@dataclass(frozen=True)
class PooledShapes:
    """One job's pooled shapes: per ``(m, p, N)`` its configuration, shortest duration ``d`` and
    footprint ``F`` summed over the servers (rows of ``footprint``)."""

    configs: tuple[Config, ...]
    d: np.ndarray
    footprint: np.ndarray


def pooled_shapes(instance: Instance) -> list[PooledShapes]:
    """Per job, the ``(m, p, N)`` of its shapes that fit the empty cluster, each with its shortest
    duration over both flags and its pooled footprint ``N e_m + z_p`` (module docstring), less the
    dominated ones: a shape no shorter than another and using at least as much of every resource
    costs at least as much at every start and every prices ``π >= 0``, so it changes neither
    ``v_j(π)`` nor the LP's optimum (of two equal shapes the first is kept)."""
    e = np.asarray(instance.worker_demand, float)
    z = np.asarray(instance.ps_demand, float) if instance.P else np.zeros((0, instance.R))
    out = []
    for tables in instance.shape_tables:
        shortest: dict[Config, int] = {}
        for table in tables.values():
            for s in table.shapes:
                c = Config(s.m, s.p, s.workers)
                shortest[c] = min(s.d, shortest.get(c, s.d))
        if not shortest:
            raise SolverFailure("pooled: a job fits the empty cluster with no shape")
        configs = tuple(shortest)
        footprint = np.array([c.workers * e[c.m] + (z[c.p] if c.p is not None else 0.0) for c in configs])
        d = np.array([shortest[c] for c in configs], dtype=np.int64)
        keep = np.flatnonzero(~_dominated(d, footprint))
        out.append(PooledShapes(tuple(configs[k] for k in keep), d[keep], footprint[keep]))
    return out


def _dominated(d: np.ndarray, footprint: np.ndarray) -> np.ndarray:
    """Per shape, whether another is no longer and uses no more of any resource, and is strictly
    better somewhere or equal and listed earlier."""
    no_worse = (d[None, :] <= d[:, None]) & np.all(footprint[None, :, :] <= footprint[:, None, :], axis=2)
    np.fill_diagonal(no_worse, False)
    equal = no_worse & no_worse.T
    strictly = no_worse & ~equal
    return strictly.any(axis=1) | np.tril(equal, -1).any(axis=1)


@dataclass
class PooledState:
    """Where the generation stands: ``lower`` the best Lagrangian bound (certified; each job alone at
    its earliest completion before the first round), ``upper`` the master's value, the rounds run,
    ``trajectory`` (the bound before the first round, then the best after each round), the jobs'
    pooled shapes and the master's columns ``(job, shape index, start)`` with their values ``x``."""

    lower: float
    shapes: list[PooledShapes]
    upper: float = math.inf
    converged: bool = False
    rounds: int = 0
    trajectory: list[float] = field(default_factory=list)
    columns: list[tuple[int, int, int]] = field(default_factory=list)
    x: np.ndarray = field(default_factory=lambda: np.zeros(0))
    stopped: str = ""


#: HiGHS's ``simplex_strategy`` values: dual (its default, the master's) and primal (the fallback).
DUAL_SIMPLEX, PRIMAL_SIMPLEX = 1, 4


class _Master:
    """The restricted master in HiGHS: one row per job, one per resource and slot below the horizon."""

    def __init__(self, instance: Instance, shapes: list[PooledShapes], horizon: int):
        self.shapes, self.horizon, self.R, self.J = shapes, horizon, instance.R, len(instance.jobs)
        self.weights = [job.weight for job in instance.jobs]
        self.highs = highspy.Highs()
        self.highs.setOptionValue("output_flag", False)
        empty_i, empty_v = np.array([], dtype=np.int32), np.array([], dtype=np.float64)
        for _ in range(self.J):
            self.highs.addRow(1.0, 1.0, 0, empty_i, empty_v)
        capacity = np.asarray(instance.capacity, float).sum(axis=0)
        self.capacity = capacity
        rows = horizon * self.R
        self.highs.addRows(rows, np.full(rows, -highspy.kHighsInf), np.tile(capacity, horizon), 0,
                           np.zeros(rows, dtype=np.int32), empty_i, empty_v)
        self.columns: list[tuple[int, int, int]] = []

    def add(self, j: int, k: int, t: int) -> None:
        d, footprint = int(self.shapes[j].d[k]), self.shapes[j].footprint[k]
        slots = np.arange(t, min(t + d, self.horizon))
        used = np.flatnonzero(footprint > 0)
        rows = (self.J + slots[:, None] * self.R + used[None, :]).ravel()
        index = np.concatenate([[j], rows]).astype(np.int32)
        value = np.concatenate([[1.0], np.tile(footprint[used], len(slots))])
        self.highs.addCol(self.weights[j] * (t + d), 0.0, highspy.kHighsInf, len(index), index, value)
        self.columns.append((j, k, t))

    def solve(self) -> tuple[float, np.ndarray, np.ndarray]:
        """The master's optimum, the job rows' duals and the prices ``π[r, τ] = max(0, −dual)``. Dual
        simplex from the last basis first; where it ends without an optimum (HiGHS's "Unknown" on a
        degenerate master, seeds 4 and 9 of the paper's 200 jobs on 150 servers), primal simplex from
        scratch; :class:`~optsched.errors.SolverFailure` when that ends without one too."""
        self.highs.run()
        status = self.highs.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal:
            self.highs.clearSolver()
            self.highs.setOptionValue("simplex_strategy", PRIMAL_SIMPLEX)
            self.highs.run()
            self.highs.setOptionValue("simplex_strategy", DUAL_SIMPLEX)
            status = self.highs.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverFailure(f"pooled: the master LP ended {self.highs.modelStatusToString(status)}")
        duals = np.asarray(self.highs.getSolution().row_dual)
        prices = np.maximum(0.0, -duals[self.J:]).reshape(self.horizon, self.R).T
        return self.highs.getInfo().objective_function_value, duals[:self.J], prices

    def values(self) -> np.ndarray:
        return np.asarray(self.highs.getSolution().col_value)


def price(shapes: PooledShapes, arrival: int, weight: float, prefix: np.ndarray,
          last: int) -> tuple[np.ndarray, np.ndarray]:
    """Per shape, the cost and the start of the job's cheapest column of that shape at the prices
    whose prefix sums are ``prefix[r, τ]`` (``τ`` slots summed), ``last`` the last priced slot:
    every start from the arrival to ``last + 1`` (later starts cost only their later completion).
    The job's ``v(π)`` is the least of the costs."""
    starts = np.arange(arrival, max(arrival, last + 1) + 1)
    top = prefix.shape[1] - 1
    ends = np.minimum(starts[None, :] + shapes.d[:, None], top)
    paid = shapes.footprint @ prefix  # [k, τ]: the footprint's price over slots before τ
    cost = (weight * (starts[None, :] + shapes.d[:, None]) + np.take_along_axis(paid, ends, axis=1)
            - paid[:, np.minimum(starts, top)])
    at = np.argmin(cost, axis=1)
    return cost[np.arange(len(at)), at], starts[at]


def serial(instance: Instance, shapes: list[PooledShapes]) -> list[tuple[int, int]]:
    """Per job ``(shape index, start)``: each alone on its fastest shape, in WSPT order."""
    jobs = instance.jobs
    fastest = [int(np.argmin(s.d)) for s in shapes]
    order = sorted(range(len(jobs)), key=lambda j: (-jobs[j].weight / shapes[j].d[fastest[j]], j))
    out: list[tuple[int, int]] = [(0, 0)] * len(jobs)
    clock = 0
    for j in order:
        clock = max(clock, jobs[j].arrival)
        out[j] = (fastest[j], clock)
        clock += int(shapes[j].d[fastest[j]])
    return out


def run(instance: Instance, *, rounds: int = ROUNDS, time_limit: float | None = None, progress=None) -> PooledState:
    """Column generation for the pooled LP (module docstring); ``progress(state)`` after every round.
    ``rounds`` is the deterministic budget; ``time_limit`` (seconds) is checked between rounds."""
    deadline = math.inf if time_limit is None else time.perf_counter() + time_limit
    shapes = pooled_shapes(instance)
    jobs = instance.jobs
    alone = math.fsum(job.weight * (job.arrival + float(s.d.min())) for job, s in zip(jobs, shapes))
    state = PooledState(lower=alone - SAFETY * abs(alone), shapes=shapes)
    state.trajectory.append(state.lower)
    start = serial(instance, shapes)
    master = _Master(instance, shapes, max(t + int(shapes[j].d[k]) for j, (k, t) in enumerate(start)) + 1)
    for j, (k, t) in enumerate(start):
        master.add(j, k, t)
    center = np.zeros((instance.R, master.horizon))  # the prices of the best bound: L(0)'s until a round beats it
    while not state.converged:
        try:
            state.upper, job_duals, prices = master.solve()
        except SolverFailure as failure:  # the bound so far stays certified: it never used the master
            state.stopped = f"{failure} after {state.rounds} pricing rounds"
            break
        state.columns, state.x = list(master.columns), master.values()
        for alpha in (SMOOTHING, 0.0):
            if state.rounds >= rounds:
                state.stopped = f"stopped after {rounds} pricing rounds"
            elif time.perf_counter() >= deadline:
                state.stopped = f"stopped by the time limit after {state.rounds} pricing rounds"
            if state.stopped:
                break
            pi = alpha * center + (1 - alpha) * prices
            bound, added = _round(instance, shapes, master, pi, prices, job_duals)
            state.rounds += 1
            if bound > state.lower:
                state.lower, center = bound, pi
            state.trajectory.append(state.lower)
            if progress is not None:
                progress(state)
            if state.upper - state.lower <= TOL * max(1.0, abs(state.upper)) or (not added and alpha == 0.0):
                state.converged = True
            if added or state.converged:
                break
        if state.stopped:
            break
    return state


def _prefix(prices: np.ndarray) -> np.ndarray:
    """``prefix[r, τ]``: the prices of resource ``r`` summed over the slots before ``τ``."""
    prefix = np.zeros((prices.shape[0], prices.shape[1] + 1))
    prefix[:, 1:] = np.cumsum(prices, axis=1)
    return prefix


def _round(instance: Instance, shapes: list[PooledShapes], master: _Master, pi: np.ndarray,
           master_prices: np.ndarray, job_duals: np.ndarray) -> tuple[float, int]:
    """Price every job at ``pi``: the certified ``L(π)`` (rounded down by :data:`SAFETY`), and how
    many columns were added (per job, up to :data:`COLUMNS_PER_JOB` of the cheapest at ``pi``
    whose reduced cost at the master's own prices is negative)."""
    prefix, own = _prefix(pi), _prefix(master_prices)
    last = int(np.flatnonzero(pi.any(axis=0)).max(initial=-1))
    lagrangian = -float((pi * master.capacity[:, None]).sum())
    added = 0
    for j, job in enumerate(instance.jobs):
        costs, starts = price(shapes[j], job.arrival, job.weight, prefix, last)
        lagrangian += float(costs.min())
        top = own.shape[1] - 1
        ends = np.minimum(starts + shapes[j].d, top)
        at_master = (job.weight * (starts + shapes[j].d)
                     + np.einsum("kr,rk->k", shapes[j].footprint, own[:, ends] - own[:, np.minimum(starts, top)]))
        negative = np.flatnonzero(at_master - job_duals[j] < -TOL * np.maximum(1.0, np.abs(at_master)))
        for k in negative[np.argsort(costs[negative], kind="stable")][:COLUMNS_PER_JOB]:
            master.add(j, int(k), int(starts[k]))
            added += 1
    return lagrangian - SAFETY * abs(lagrangian), added


def list_schedule(instance: Instance, state: PooledState) -> Schedule:
    """Every job placed in the order of its LP completion time, at the earliest completion over its
    shapes by first-fit placement (module docstring)."""
    shapes, jobs = state.shapes, instance.jobs
    completion = np.zeros(len(jobs))
    for (j, k, t), value in zip(state.columns, state.x):
        completion[j] += value * (t + shapes[j].d[k])
    cluster = ClusterUsage(instance)
    pool = _Pool(np.asarray(instance.capacity, float).sum(axis=0))
    placed: dict[int, JobSchedule] = {}
    for j in sorted(range(len(jobs)), key=lambda j: (completion[j], j)):
        placed[j] = run = _earliest(cluster, pool, j, jobs[j].arrival, shapes[j])
        cluster.book(run)
        pool.book(run.start, run.completion, cluster.footprints(run).sum(axis=0))
    return Schedule(tuple(placed[j] for j in range(len(jobs))))


class _Pool:
    """The usage summed over the servers, per resource and slot: a run whose pooled footprint does not
    fit it cannot be placed on the servers either, so :func:`_earliest` asks first-fit only where it does."""

    def __init__(self, capacity: np.ndarray):
        self.capacity = capacity * (1 + 1e-9) + 1e-9
        self.load = np.zeros((len(capacity), 64))

    def book(self, start: int, end: int, use: np.ndarray) -> None:
        if end > self.load.shape[1]:
            self.load = np.pad(self.load, ((0, 0), (0, max(end, 2 * self.load.shape[1]) - self.load.shape[1])))
        self.load[:, start:end] += use[:, None]

    def fits(self, start: int, d: int, footprint: np.ndarray) -> bool:
        window = self.load[:, start:start + d]
        most = window.max(axis=1) if window.shape[1] else 0.0
        return bool(np.all(most + footprint <= self.capacity))


def _earliest(cluster: ClusterUsage, pool: _Pool, j: int, arrival: int, shapes: PooledShapes) -> JobSchedule:
    """Job ``j``'s earliest-completing first-fit placement over its shapes: per shape (shortest
    first) the first start that fits, from the arrival and then the slots where usage changes
    (between them nothing frees up), first-fit asked only where the pooled usage leaves room; a
    shape that cannot beat the best found is skipped."""
    best: JobSchedule | None = None
    starts = [arrival, *(p for p in cluster.points if p > arrival)]
    for k in np.argsort(shapes.d, kind="stable"):
        d = int(shapes.d[k])
        if best is not None and arrival + d >= best.completion:
            break
        for start in starts:
            if best is not None and start + d >= best.completion:
                break
            if not pool.fits(start, d, shapes.footprint[k]):
                continue
            run = cluster.place(j, shapes.configs[k], start)
            if run is not None:
                if best is None or run.completion < best.completion:
                    best = run
                break
    if best is None:
        raise SolverFailure(f"pooled: job {j} fits nowhere")
    return best
