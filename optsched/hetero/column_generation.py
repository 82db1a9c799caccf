"""Model A's LP relaxation by column generation, with a Lagrangian lower bound at every round: the
bound route at the papers' scale, where model A's columns (every placement of every shape at
every start, :mod:`.columns`) cannot be enumerated (150 servers: more splits than atoms).

The restricted master is model A's LP (:func:`.formulations.configuration`, ``relax=True``) on the
columns generated so far and the capacity rows its solutions have violated so far::

    min  Σ_c w_j(c) (t_c + d_c) x_c
    s.t. Σ_{c of job j} x_c = 1                                   (assign_j)
         Σ_{c: t ∈ [t_c, t_c + d_c)} f^r_h(c) x_c <= C^r_h         (cap_h_r_t, added when violated)

**The bound.** For any prices ``π[h, r, t] >= 0`` (the master's capacity duals, 0 on rows it does
not have), relaxing every capacity row (2b) gives the Lagrangian bound (weak duality)::

    L(π) = Σ_j v_j(π) − Σ_{h,r,t} π[h, r, t] C^r_h,
    v_j(π) = min over job j's single-job schedules l of  w_j (t_l + d_l) + Σ_{t ∈ window(l)} Σ_{h,r} π[h, r, t] f^r_h(l)

which is at most the LP's optimum and so at most the optimum of problem (2) / (15). It holds
for every ``π >= 0`` whatever the master's solver did, provided ``v_j`` is exact: ``v_j`` comes
from the exact oracles (:func:`.online.oracle_pair` with ``"exact"``: Theorem 1 as repaired for
PS, Theorem 6 for Ring-AllReduce), which minimise ``Σ π f`` over the schedules completing by a
deadline. The completion term is handled by a walk over deadlines: the cheapest schedule
completing by ``τ`` (earliest completion ``c`` among ties) dominates every schedule completing in
``(c, τ]``, so the next candidate completes by ``c − 1``; the walk stops when even the earliest
possible completion ``a_j + d_j^min`` plus the cheapest remaining cost cannot beat the best found.
Each oracle call only looks below that threshold (its ``below``), and the best of the job's
master columns at ``π`` starts it. Beyond the last priced slot every start costs ``w_j`` per slot
only, so the deadline covers the first unpriced start with every shape.

**The stop.** A round prices every job; the master's objective, once no row is violated, is an
LP-feasible value (an upper bound on the LP). The LP is solved when the best bound reaches it
(relative :data:`TOL`); a round budget or a time limit stops earlier with both numbers, the bound
still certified. Bounds are rounded down by a relative ``1e-9`` against floating-point sums.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass, field

import highspy
import numpy as np

from ..errors import SolverFailure
from . import oracles
from .instance import Instance
from .online import oracle_pair
from .schedule import JobSchedule

#: Converged when the bound is within this relative distance of the master's LP-feasible value.
TOL = 1e-7
#: Pricing rounds before the generation stops unconverged (a budget that gives the same numbers on every machine).
ROUNDS = 500
#: Wentges smoothing: the weight of the best bound's prices in the prices a round uses.
SMOOTHING = 0.7
#: Floating-point slack: bounds are reported this much (relative) below the computed sum.
SAFETY = 1e-9


@dataclass
class GenerationState:
    """Where column generation stands: ``lower`` the best Lagrangian bound (certified; ``L(0)``, each
    job alone at its earliest completion, before the first round), ``upper``
    the master's objective with every capacity row satisfied (an LP-feasible value; None until
    then), the rounds run, the columns and rows generated, and per round ``(lower, upper)``."""

    lower: float
    #: the prices ``π[h, r, t]`` of the best bound (zero, ``L(0)``'s, until a round beats it)
    prices: np.ndarray
    upper: float | None = None
    converged: bool = False
    rounds: int = 0
    columns: list[tuple[int, JobSchedule]] = field(default_factory=list)
    rows: int = 0
    history: list[tuple[float, float | None]] = field(default_factory=list)
    stopped: str = ""
    #: the greedy start schedule, one per job (None when the time limit came first)
    incumbent: list[JobSchedule] | None = None


class _Master:
    """The restricted master LP in HiGHS, grown column by column and row by row. A capacity cell
    ``(h, r, t)`` is keyed ``t·H·R + h·R + r``; each column keeps the keys it uses and how much."""

    def __init__(self, instance: Instance):
        self.instance = instance
        self.highs = highspy.Highs()
        self.highs.setOptionValue("output_flag", False)
        for _ in instance.jobs:
            self.highs.addRow(1.0, 1.0, 0, np.array([], dtype=np.int32), np.array([], dtype=np.float64))
        self.columns: list[tuple[int, JobSchedule]] = []
        self.by_job: dict[int, list[int]] = defaultdict(list)
        self.keys: list[np.ndarray] = []  # per column: the cells it uses
        self.uses: list[np.ndarray] = []  # per column: how much of each
        self.row_keys = np.zeros(0, dtype=np.int64)  # sorted keys of the capacity rows in the master
        self.row_ids = np.zeros(0, dtype=np.int32)  # their master rows, in the same order

    def _key(self, h, r, t):
        return (np.asarray(t, dtype=np.int64) * self.instance.H + h) * self.instance.R + r

    def cell(self, key: int) -> tuple[int, int, int]:
        H, R = self.instance.H, self.instance.R
        return (key // R) % H, key % R, key // (H * R)

    def add_column(self, j: int, schedule: JobSchedule) -> None:
        inst = self.instance
        hs, rs, us = [], [], []
        for h in range(inst.H):
            if schedule.y[h] or schedule.s[h]:
                for r, u in enumerate(schedule.footprint(inst, h)):
                    if u > 0:
                        hs.append(h)
                        rs.append(r)
                        us.append(u)
        slots = np.arange(schedule.start, schedule.completion)
        keys = self._key(np.repeat(hs, len(slots)), np.repeat(rs, len(slots)), np.tile(slots, len(hs)))
        uses = np.repeat(np.asarray(us, dtype=np.float64), len(slots))
        at = np.searchsorted(self.row_keys, keys)
        inside = at < len(self.row_keys)
        inside[inside] = self.row_keys[at[inside]] == keys[inside]
        index = np.concatenate([[j], self.row_ids[at[inside]]]).astype(np.int32)
        value = np.concatenate([[1.0], uses[inside]])
        self.highs.addCol(inst.jobs[j].weight * schedule.completion, 0.0, highspy.kHighsInf, len(index), index, value)
        self.by_job[j].append(len(self.columns))
        self.columns.append((j, schedule))
        self.keys.append(keys)
        self.uses.append(uses)

    def add_rows(self, keys: np.ndarray) -> None:
        """Capacity rows for the cells ``keys`` (not yet in the master), with every column's use of them."""
        keys = np.unique(keys)
        owner = np.concatenate([np.full(len(k), c, dtype=np.int32) for c, k in enumerate(self.keys)])
        every = np.concatenate(self.keys)
        use = np.concatenate(self.uses)
        hit = np.isin(every, keys)
        order = np.lexsort((owner[hit], every[hit]))
        cells, cols, vals = every[hit][order], owner[hit][order], use[hit][order]
        starts = np.searchsorted(cells, keys)
        first = len(self.instance.jobs) + len(self.row_keys)
        capacity = np.asarray(self.instance.capacity, float)
        upper = np.array([capacity[h, r] for h, r, _ in map(self.cell, keys.tolist())])
        self.highs.addRows(len(keys), np.full(len(keys), -highspy.kHighsInf), upper, len(cols),
                           starts.astype(np.int32), cols, vals)
        merged = np.concatenate([self.row_keys, keys])
        ids = np.concatenate([self.row_ids, np.arange(first, first + len(keys), dtype=np.int32)])
        order = np.argsort(merged, kind="stable")
        self.row_keys, self.row_ids = merged[order], ids[order]

    def solve(self) -> tuple[float, np.ndarray, np.ndarray]:
        """The master's optimum, its values and its row duals."""
        self.highs.run()
        status = self.highs.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverFailure(f"column generation: the master LP ended {self.highs.modelStatusToString(status)}")
        solution = self.highs.getSolution()
        return (self.highs.getInfo().objective_function_value, np.asarray(solution.col_value),
                np.asarray(solution.row_dual))

    def violated(self, x: np.ndarray) -> np.ndarray:
        """The keys of the cells the master's solution ``x`` overfills that have no row yet."""
        every = np.concatenate(self.keys)
        load = np.concatenate([u * x[c] for c, u in enumerate(self.uses)])
        cells, where = np.unique(every, return_inverse=True)
        total = np.bincount(where, weights=load, minlength=len(cells))
        capacity = np.asarray(self.instance.capacity, float).ravel()  # index h·R + r
        limit = capacity[cells % (self.instance.H * self.instance.R)]
        over = cells[total > limit * (1 + 1e-9) + 1e-9]
        return over[~np.isin(over, self.row_keys)]

    @property
    def rows(self) -> int:
        return len(self.row_keys)

    def prices(self, duals: np.ndarray) -> np.ndarray:
        """``π[h, r, t] = max(0, −dual)`` of every capacity row in the master (0 elsewhere)."""
        H, R = self.instance.H, self.instance.R
        T = int(self.row_keys.max()) // (H * R) + 1 if len(self.row_keys) else 1
        pi = np.zeros(T * H * R)
        pi[self.row_keys] = np.maximum(0.0, -duals[self.row_ids])
        return pi.reshape(T, H, R).transpose(1, 2, 0)


def _cost(instance: Instance, j: int, schedule: JobSchedule, pi: np.ndarray) -> float:
    """``w_j (t + d) + Σ π f`` of one schedule."""
    total = instance.jobs[j].weight * schedule.completion
    T = pi.shape[2]
    lo, hi = schedule.start, min(schedule.completion, T)
    if lo < hi:
        for h in range(instance.H):
            if schedule.y[h] or schedule.s[h]:
                total += float(pi[h, :, lo:hi].sum(axis=1) @ np.asarray(schedule.footprint(instance, h)))
    return total


def _cheapest(market: oracles.Market, j: int, below: float = math.inf) -> tuple[float, JobSchedule | None]:
    """Job ``j``'s cheapest schedule in ``market`` costing less than ``below`` (earliest completion
    among ties), by the exact pair of oracles (:func:`.online.oracle_pair`); ``(inf, None)`` if none."""
    colocated, distributed = oracle_pair(market.instance, "exact")
    cost, schedule = colocated(market, j, below=below, tie_break="earliest_completion")
    return distributed(market, j, below=min(cost, below), tie_break="earliest_completion", incumbent=schedule)


def price(instance: Instance, j: int, pi: np.ndarray, start_from: float = math.inf) -> tuple[float, JobSchedule | None]:
    """``v_j(π)`` exactly, and a schedule attaining it when it is below ``start_from`` (the best
    known value, e.g. of the job's master columns), by the walk over deadlines (module docstring).
    Starts are searched in blocks, each with a market just long enough for them (a market caches
    arrays per duration: one over the whole horizon takes gigabytes at 150 servers), earliest
    block first, until even the block's first start cannot beat the best."""
    job = instance.jobs[j]
    a, w = job.arrival, job.weight
    shortest = min(s.d for s in instance.shapes[j])
    longest = max(s.d for s in instance.shapes[j])
    last_priced = int(np.flatnonzero(pi.reshape(-1, pi.shape[2]).any(axis=0)).max(initial=-1))
    first_free = max(a, last_priced + 1)  # from here on no slot has a price
    block = 2 * longest
    capacity = np.asarray(instance.capacity, float)[:, :, None]
    best, found = start_from, None
    offset = a  # the block's local slot 1 is this global slot
    while offset <= first_free and w * (offset + shortest) < best:
        tau = block + longest  # every start of the block, with every shape
        local = np.zeros((instance.H, instance.R, tau + 1))
        span = max(0, min(tau, pi.shape[2] - offset))
        local[:, :, 1:span + 1] = pi[:, :, offset:offset + span]
        market = oracles.Market(instance, tau, local, np.repeat(capacity, tau + 1, axis=2))
        while True:
            if math.isfinite(best):  # completing at c (local) costs at least w (c + offset − 1)
                tau = min(tau, math.ceil(best / w * (1 + 1e-9)) - offset + 1)
            below = best - w * (offset + shortest)  # no schedule costing this much more can beat the best
            if tau <= shortest or below <= 0:
                break
            market.tau = tau
            market.changed()
            cost, schedule = _cheapest(market, j, below)
            if schedule is None:
                break
            total = w * (schedule.completion + offset - 1) + cost
            if total < best:
                best = total
                found = JobSchedule(schedule.start + offset - 1, schedule.d, schedule.m, schedule.p, schedule.q,
                                    schedule.y, schedule.s)
            tau = schedule.completion - 1
        offset += block
    return best, found


def _fastest(instance: Instance, j: int) -> JobSchedule:
    """Job ``j``'s earliest-completing schedule on the empty cluster, starting at its arrival: at
    zero prices every schedule costs 0, so the oracles (earliest completion among ties) on the
    first start alone find it."""
    longest = max(s.d for s in instance.shapes[j])
    market = oracles.Market.empty(instance, longest + 1, max_starts=1)
    _, schedule = _cheapest(market, j)
    if schedule is None:
        raise SolverFailure(f"column generation: job {j} has no schedule on the empty cluster")
    a = instance.jobs[j].arrival
    return JobSchedule(a, schedule.d, schedule.m, schedule.p, schedule.q, schedule.y, schedule.s)


def _earliest(instance: Instance, j: int, capacity: np.ndarray, used: np.ndarray) -> JobSchedule | None:
    """Job ``j``'s earliest-completing schedule in the capacity ``used`` leaves (slots up to
    ``used``'s end), searched in blocks of starts, each with a market just long enough for its
    starts (a market caches arrays per duration, so one over the whole horizon would not fit in
    memory at 150 servers): a completion found no later than the next block's first start plus
    the shortest duration cannot be beaten by any later block."""
    a = instance.jobs[j].arrival
    longest = max(s.d for s in instance.shapes[j])
    shortest = min(s.d for s in instance.shapes[j])
    block = 2 * longest
    best: JobSchedule | None = None
    offset = a  # global slot of the block's local slot 1
    while offset + shortest <= used.shape[2] - 1:
        tau = min(block + longest, used.shape[2] - offset)
        residual = np.zeros((instance.H, instance.R, tau + 1))
        residual[:, :, 1:] = capacity[:, :, None] - used[:, :, offset:offset + tau]
        market = oracles.Market(instance, tau, np.zeros_like(residual), residual)
        _, schedule = _cheapest(market, j)
        if schedule is not None:
            found = JobSchedule(schedule.start + offset - 1, schedule.d, schedule.m, schedule.p, schedule.q,
                                schedule.y, schedule.s)
            if best is None or found.completion < best.completion:
                best = found
        offset += block
        if best is not None and best.completion <= offset + shortest:
            break
    return best


def greedy(instance: Instance, fastest: list[JobSchedule] | None = None,
           deadline: float = math.inf) -> list[JobSchedule] | None:
    """A feasible schedule to start from (and the best schedule the bound is compared with): jobs
    in WSPT order of their fastest schedules, each placed where it completes earliest in the
    capacity the jobs before it left (the oracles at zero prices on that residual, earliest
    completion among ties). No job completes later than the serial schedule in the same order, so
    the residual is kept up to that horizon. None when ``deadline`` (``time.perf_counter()``) passes first."""
    jobs = instance.jobs
    if fastest is None:
        fastest = [_fastest(instance, j) for j in range(len(jobs))]
    order = sorted(range(len(jobs)), key=lambda j: (-jobs[j].weight / fastest[j].d, j))
    clock = 0
    for j in order:
        clock = max(clock, jobs[j].arrival) + fastest[j].d
    capacity = np.asarray(instance.capacity, float)
    used = np.zeros((instance.H, instance.R, clock + 2))
    out = list(fastest)
    for j in order:
        if time.perf_counter() >= deadline:
            return None
        placed = _earliest(instance, j, capacity, used)
        if placed is None:
            raise SolverFailure(f"column generation: no room for job {j} before its serial completion")
        for h in range(instance.H):
            if placed.y[h] or placed.s[h]:
                used[h, :, placed.start:placed.completion] += np.asarray(placed.footprint(instance, h))[:, None]
        out[j] = placed
    return out


def _blend(center: np.ndarray, prices: np.ndarray, alpha: float) -> np.ndarray:
    """``α center + (1 − α) prices``, over the longer of the two horizons."""
    T = max(center.shape[2], prices.shape[2])

    def pad(a: np.ndarray) -> np.ndarray:
        return np.pad(a, ((0, 0), (0, 0), (0, T - a.shape[2])))

    return alpha * pad(center) + (1 - alpha) * pad(prices)


def _pricing_round(instance: Instance, master: _Master, pi: np.ndarray, master_pi: np.ndarray,
                   deadline: float) -> tuple[float, int] | None:
    """Price every job at ``pi``: ``L(π)`` and how many columns were added (those whose reduced cost
    at the master's own prices is negative); None when ``deadline`` passed first."""
    lagrangian = -float((pi * np.asarray(instance.capacity, float)[:, :, None]).sum())
    added = 0
    for j in range(len(instance.jobs)):
        if time.perf_counter() >= deadline:
            return None
        mine = [master.columns[k][1] for k in master.by_job[j]]
        best, found = price(instance, j, pi, min(_cost(instance, j, c, pi) for c in mine))
        lagrangian += best
        if found is not None:
            known = min(_cost(instance, j, c, master_pi) for c in mine)
            if _cost(instance, j, found, master_pi) < known - TOL * max(1.0, abs(known)):
                master.add_column(j, found)
                added += 1
    return lagrangian, added


def run(instance: Instance, *, rounds: int = ROUNDS, time_limit: float | None = None,
        progress=None) -> GenerationState:
    """Column and row generation for model A's LP (module docstring), with Wentges smoothing: a
    round prices at ``α π_center + (1 − α) π_master`` (``π_center`` the prices of the best bound so
    far, ``α =`` :data:`SMOOTHING`), and when that adds no column, again at the master's own prices
    (which then prove the LP solved or add a column). Every round's ``L(π)`` is a bound. Smoothing
    damps the master's degenerate duals (one priced cell of thousands at 150 servers).
    ``progress(generation)`` is called after every round. ``time_limit`` is checked between
    jobs: a round it cuts short is dropped (its bound needs every job), and before the greedy start
    is complete only ``L(0)`` stands."""
    deadline = math.inf if time_limit is None else time.perf_counter() + time_limit
    fastest = [_fastest(instance, j) for j in range(len(instance.jobs))]
    # L(0): every job alone at its earliest completion, the bound before any round
    alone = math.fsum(job.weight * s.completion for job, s in zip(instance.jobs, fastest))
    state = GenerationState(lower=alone - SAFETY * abs(alone), prices=np.zeros((instance.H, instance.R, 1)))
    start = greedy(instance, fastest, deadline)
    if start is None:
        state.stopped = "stopped by the time limit before the greedy start schedule was complete"
        return state
    state.incumbent = start
    master = _Master(instance)
    for j, schedule in enumerate(start):
        master.add_column(j, schedule)
    while not state.stopped and not state.converged:
        try:
            value, x, duals = master.solve()
        except SolverFailure as failure:  # the bounds found so far still hold
            state.stopped = f"stopped: {failure}"
            break
        new_rows = master.violated(x)
        if len(new_rows):
            master.add_rows(new_rows)
            continue
        state.upper = value
        master_pi = master.prices(duals)
        for alpha in (SMOOTHING, 0.0):
            if state.rounds >= rounds:
                state.stopped = f"stopped after {rounds} pricing rounds"
                break
            pi = _blend(state.prices, master_pi, alpha)
            outcome = _pricing_round(instance, master, pi, master_pi, deadline)
            if outcome is None:
                state.stopped = f"stopped by the time limit after {state.rounds} pricing rounds"
                break
            lagrangian, added = outcome
            state.rounds += 1
            bound = lagrangian - SAFETY * abs(lagrangian)
            if bound > state.lower:
                state.lower, state.prices = bound, pi
            state.history.append((bound, state.upper))
            if progress is not None:
                progress(state)
            if state.upper - state.lower <= TOL * max(1.0, abs(state.upper)) or (not added and alpha == 0.0):
                state.converged = True
            if added or state.converged:
                break
    state.columns = list(master.columns)
    state.rows = master.rows
    return state
