"""Algorithm 2 of OASiS: the best schedule of one job at given prices (paper §IV-C; spec §3.3).

``best_schedule`` maximises the payoff ``f_i(t̂ − a_i) − cost_l(p, q)`` over the job's schedules that
fit the free capacity (problem (27)). It is used by OASiS (prices from (22), free capacity
``c − g``), by column generation (LP duals as prices, the empty cluster) and by the dual checks.

* ``slot_costs``: COST_t (lines 21-41), the cheapest placement of ``n`` workers and their
  ``⌈n b/B⌉`` PSs in one slot, for every ``n = 0..N_i`` at once: workers and PSs go greedily to the
  cheapest servers (per-unit cost ``Σ_r p_h^r(t) w^r``), which is optimal for identical units
  with linear costs (Theorem 1).
* Mode A (``worker_slots``): ``F[t][w]`` = cheapest way to supply at least ``w`` worker-slots in
  ``[a_i, t]``, ``F[t][w] = min_n COST_t(t, n) + F[t−1][max(0, w−n)]``, with the base case the
  paper omits [A2]. One table serves every deadline.
* Mode B (``chunks``): the paper's DP over chunk workloads, ``cost_t(t, d) = COST_t(t, ⌈ρ d⌉)``.
  ``literal=True`` runs lines 10-20 as printed (``O((E N)^2)`` per slot); the default uses the
  equivalent "at least ``D`` chunks" form whose transitions are ``d = ⌊n/ρ⌋``.
* Deadlines ``τ = a_i..T``: keep the first strictly largest payoff, and only a positive one (lines
  2-8, strict ``>``). Ties in the DP prefer the smallest ``n``; servers sort stably by index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..numeric import ceil_tol_array, floor_tol_array
from .instance import Instance
from .schedule import JobPlan


@dataclass
class Counters:
    """Operation counts for Theorem 3's checks (spec §4.4)."""

    cost_evaluations: int = 0  #: COST_t(t, n) values computed
    dp_states: int = 0  #: (t, workload) cells filled
    dp_transitions: int = 0  #: candidate (t, workload, choice) combinations examined


@dataclass
class Plan:
    """One schedule of one job: workers and PSs per slot, from slot ``first`` on."""

    first: int
    workers: np.ndarray  #: (slots, H) worker counts
    ps: np.ndarray  #: (slots, K) PS counts
    utility: float
    cost: float

    @property
    def payoff(self) -> float:
        return self.utility - self.cost

    @property
    def completion(self) -> int:
        active = np.flatnonzero(self.workers.sum(axis=1))
        return self.first + int(active[-1])

    def to_job_plan(self) -> JobPlan:
        return JobPlan(True, _entries(self.first, self.workers), _entries(self.first, self.ps))


def _entries(first: int, counts: np.ndarray) -> tuple[tuple[int, int, int], ...]:
    return tuple((first + int(s), int(j), int(counts[s, j])) for s, j in zip(*np.nonzero(counts)))


@dataclass
class SlotCost:
    """COST_t for one slot: ``cost[n]`` for ``n = 0..N`` (inf when ``n`` cannot be placed)."""

    cost: np.ndarray
    worker_order: np.ndarray = field(repr=False)
    worker_cap: np.ndarray = field(repr=False)
    ps_order: np.ndarray = field(repr=False)
    ps_cap: np.ndarray = field(repr=False)
    ps_needed: np.ndarray = field(repr=False)

    def place(self, n: int, H: int, K: int) -> tuple[np.ndarray, np.ndarray]:
        """The greedy placement behind ``cost[n]``."""
        return _fill(self.worker_order, self.worker_cap, n, H), _fill(self.ps_order, self.ps_cap, int(self.ps_needed[n]), K)


def _fill(order: np.ndarray, cap: np.ndarray, units: int, size: int) -> np.ndarray:
    out = np.zeros(size, dtype=np.int64)
    for s in order:
        if units <= 0:
            break
        take = min(int(cap[s]), units)
        out[s] = take
        units -= take
    return out


def _unit_costs(unit_price: np.ndarray, cap: np.ndarray, order: np.ndarray, limit: int) -> np.ndarray:
    """Cost of the cheapest ``u`` units for ``u = 0..limit`` (inf where fewer fit)."""
    units = np.repeat(unit_price[order], cap[order])[:limit]
    out = np.full(limit + 1, np.inf)
    out[: len(units) + 1] = np.concatenate(([0.0], np.cumsum(units)))
    return out


def _caps(free: np.ndarray, demand: np.ndarray, limit: int) -> np.ndarray:
    """Per server: how many units fit in the free capacity (30)/(31), at most ``limit``."""
    used = demand > 0
    fits = floor_tol_array(free[:, used] / demand[used]).min(axis=1)
    return np.clip(fits, 0, limit).astype(np.int64)


def slot_costs(instance: Instance, i: int, price_w: np.ndarray, price_p: np.ndarray,
               free_w: np.ndarray, free_p: np.ndarray) -> SlotCost:
    """COST_t(t, n) for ``n = 0..N_i`` in one slot, from that slot's prices and free capacity
    (arrays of shape (H, R) and (K, R))."""
    job = instance.jobs[i]
    N = job.chunks
    w, s = np.asarray(job.worker_demand), np.asarray(job.ps_demand)
    cw, cp = price_w @ w, price_p @ s
    capw, capp = _caps(free_w, w, N), _caps(free_p, s, N)
    ow, op = np.argsort(cw, kind="stable"), np.argsort(cp, kind="stable")
    workers = _unit_costs(cw, capw, ow, N)
    pss = _unit_costs(cp, capp, op, N)
    needed = ceil_tol_array(np.arange(N + 1) * (job.b / job.B)).astype(np.int64)
    feasible = needed <= np.arange(N + 1)  # (7); fails only when b > B
    cost = np.where(feasible, workers + pss[np.minimum(needed, N)], np.inf)
    return SlotCost(cost, ow, capw, op, capp, needed)


def best_schedule(instance: Instance, i: int, price_w: np.ndarray, price_p: np.ndarray,
                  free_w: np.ndarray, free_p: np.ndarray, *, literal: bool = False,
                  counters: Counters | None = None) -> Plan | None:
    """The schedule of job ``i`` with the largest positive payoff, or None (Algorithm 2).

    ``price_w``, ``free_w`` have shape (T, H, R) and ``price_p``, ``free_p`` shape (T, K, R), slot
    ``t`` at index ``t − 1``. ``literal`` selects the printed chunk DP (mode B only).
    """
    job, facts = instance.jobs[i], instance.facts[i]
    if not facts.feasible:  # L_i is empty: nothing can be found
        return None
    counters = counters if counters is not None else Counters()
    a, T, N = job.arrival, instance.T, job.chunks
    if instance.mode == "worker_slots":
        target, gain = facts.W, np.arange(N + 1)
    else:
        target, gain = facts.chunk_target, floor_tol_array(np.arange(N + 1) / facts.rho).astype(np.int64)
    slots = [slot_costs(instance, i, price_w[t - 1], price_p[t - 1], free_w[t - 1], free_p[t - 1])
             for t in range(a, T + 1)]
    counters.cost_evaluations += len(slots) * (N + 1)
    if literal and instance.mode == "chunks":
        tables, workers_chosen, consumed = _chunk_dp_literal(slots, facts, target, counters)
    else:
        tables, workers_chosen, consumed = _dp(slots, gain, target, counters)
    best, best_payoff = None, 0.0
    for s in range(len(slots)):
        payoff = job.utility.value(s) - tables[s][target]
        if payoff > best_payoff:
            best, best_payoff = s, payoff
    if best is None:
        return None
    workers = np.zeros((best + 1, instance.H), dtype=np.int64)
    ps = np.zeros((best + 1, instance.K), dtype=np.int64)
    remaining = target
    for s in range(best, -1, -1):
        workers[s], ps[s] = slots[s].place(int(workers_chosen[s][remaining]), instance.H, instance.K)
        remaining = max(0, remaining - int(consumed[s][remaining]))
    return Plan(a, workers, ps, job.utility.value(best), float(tables[best][target]))


def _dp(slots: list[SlotCost], gain: np.ndarray, target: int, counters: Counters):
    """``F[s][w] = min_n cost_s[n] + F[s−1][max(0, w − gain[n])]``. Returns, per slot, the table,
    the chosen ``n`` per cell (smallest on ties) and the workload it supplies, ``gain[n]``."""
    previous = np.full(target + 1, np.inf)
    previous[0] = 0.0
    contiguous = bool(np.all(gain == np.arange(len(gain))))
    tables, chosen, consumed = [], [], []
    for slot in slots:
        cost = slot.cost
        counters.dp_states += target + 1
        counters.dp_transitions += (target + 1) * len(cost)
        if contiguous:
            # window[w, n] = previous[max(0, w − n)]
            padded = np.concatenate((np.full(len(cost) - 1, previous[0]), previous))
            window = sliding_window_view(padded, len(cost))[:, ::-1]
        else:
            index = np.maximum(0, np.arange(target + 1)[:, None] - gain[None, :])
            window = previous[index]
        candidates = window + cost[None, :]
        choice = np.argmin(candidates, axis=1)
        current = candidates[np.arange(target + 1), choice]
        tables.append(current)
        chosen.append(choice)
        consumed.append(gain[choice])
        previous = current
    return tables, chosen, consumed


def _chunk_dp_literal(slots: list[SlotCost], facts, target: int, counters: Counters):
    """Lines 10-20 as printed: ``cost(t, D) = min_{d=0..D} COST_t(t, ⌈ρ d⌉) + cost(t−1, D − d)``,
    exactly ``D`` chunks, base ``cost(a−1, 0) = 0``. Returns tables, worker counts ``⌈ρ d⌉`` and
    chunk counts ``d`` of the choices (smallest ``d`` on ties, the paper's strict ``>``)."""
    workers_for = ceil_tol_array(np.arange(target + 1) * facts.rho).astype(np.int64)
    previous = np.full(target + 1, np.inf)
    previous[0] = 0.0
    tables, chosen_workers, chosen_chunks = [], [], []
    for slot in slots:
        cost_d = np.where(workers_for < len(slot.cost), slot.cost[np.minimum(workers_for, len(slot.cost) - 1)], np.inf)
        current = np.full(target + 1, np.inf)
        chosen = np.zeros(target + 1, dtype=np.int64)
        for D in range(target + 1):
            candidates = cost_d[: D + 1] + previous[D::-1]
            d = int(np.argmin(candidates))
            current[D], chosen[D] = candidates[d], d
            counters.dp_transitions += D + 1
        counters.dp_states += target + 1
        tables.append(current)
        chosen_workers.append(workers_for[chosen])
        chosen_chunks.append(chosen)
        previous = current
    return tables, chosen_workers, chosen_chunks
