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
  Values within a relative :data:`TIE` of each other count as ties, so that summation order (float
  noise) never decides between plans that cost the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..numeric import ceil_tol_array, floor_tol_array
from .instance import Instance
from .schedule import JobPlan

#: Relative difference below which two costs or payoffs are a tie.
TIE = 1e-12


def _first_minimum(candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the minimum, and the first column within :data:`TIE` of it."""
    low = candidates.min(axis=-1)
    return low, np.argmax(candidates <= (low + TIE * np.abs(low))[..., None], axis=-1)


@dataclass
class SubroutineCounters:
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
        """Utility minus the cost at the current prices (Algorithm 1 admits a job when its best plan's payoff is
        positive)."""
        return self.utility - self.cost

    @property
    def completion(self) -> int:
        """The plan's completion slot, its last slot with workers."""
        active = np.flatnonzero(self.workers.sum(axis=1))
        return self.first + int(active[-1])

    def to_job_plan(self) -> JobPlan:
        """This plan as an admitted ``JobPlan``."""
        return JobPlan(True, _entries(self.first, self.workers), _entries(self.first, self.ps))


def _entries(first: int, counts: np.ndarray) -> tuple[tuple[int, int, int], ...]:
    return tuple((first + int(s), int(j), int(counts[s, j])) for s, j in zip(*np.nonzero(counts)))


@dataclass
class SlotCosts:
    """COST_t for every slot of a job: ``cost[s, n]`` for slot ``a_i + s`` and ``n = 0..N``
    (inf when ``n`` workers cannot be placed), with the greedy orders to rebuild placements."""

    cost: np.ndarray
    worker_order: np.ndarray = field(repr=False)
    worker_cap: np.ndarray = field(repr=False)
    ps_order: np.ndarray = field(repr=False)
    ps_cap: np.ndarray = field(repr=False)
    ps_needed: np.ndarray = field(repr=False)

    def place(self, s: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The greedy placement behind ``cost[s, n]``: workers, then PSs."""
        return (_fill(self.worker_order[s], self.worker_cap[s], n),
                _fill(self.ps_order[s], self.ps_cap[s], int(self.ps_needed[n])))


def _fill(order: np.ndarray, cap: np.ndarray, units: int) -> np.ndarray:
    out = np.zeros(len(cap), dtype=np.int64)
    for server in order:
        if units <= 0:
            break
        take = min(int(cap[server]), units)
        out[server] = take
        units -= take
    return out


def _caps(free: np.ndarray, demand: np.ndarray, limit: int) -> np.ndarray:
    """Per slot and server: how many units fit in the free capacity (30)/(31), at most ``limit``."""
    used = demand > 0
    fits = floor_tol_array(free[..., used] / demand[used]).min(axis=-1)
    return np.clip(fits, 0, limit).astype(np.int64)


def _greedy_costs(unit_price: np.ndarray, cap: np.ndarray, order: np.ndarray, limit: int) -> np.ndarray:
    """``out[s, u]``: the cost of the ``u`` cheapest units in slot ``s`` (servers filled in
    ``order``), for ``u = 0..limit``; inf where fewer than ``u`` fit."""
    S, P = cap.shape
    price = np.take_along_axis(unit_price, order, axis=1)
    capacity = np.take_along_axis(cap, order, axis=1)
    cum_cap = np.cumsum(capacity, axis=1)
    cum_cost = np.cumsum(capacity * price, axis=1)
    units = np.arange(limit + 1)
    # first server (in fill order) whose cumulative capacity reaches u, found for all rows at once
    stride = int(cum_cap[:, -1].max()) + limit + 1
    offsets = np.arange(S)[:, None] * stride
    j = np.searchsorted((cum_cap + offsets).ravel(), (units[None, :] + offsets).ravel()).reshape(S, limit + 1)
    j -= np.arange(S)[:, None] * P
    inside = j < P
    jc = np.minimum(j, P - 1)
    before_cap = np.where(jc > 0, np.take_along_axis(cum_cap, np.maximum(jc - 1, 0), axis=1), 0)
    before_cost = np.where(jc > 0, np.take_along_axis(cum_cost, np.maximum(jc - 1, 0), axis=1), 0.0)
    unit = np.take_along_axis(price, jc, axis=1)
    return np.where(inside, before_cost + (units[None, :] - before_cap) * unit, np.inf)


def slot_costs(instance: Instance, i: int, price_w: np.ndarray, price_p: np.ndarray,
               free_w: np.ndarray, free_p: np.ndarray) -> SlotCosts:
    """COST_t(t, n) for the slots ``a_i..T`` and ``n = 0..N_i``, from prices and free capacity of
    shape (slots, H, R) and (slots, K, R)."""
    job = instance.jobs[i]
    N = job.chunks
    w, s = np.asarray(job.worker_demand), np.asarray(job.ps_demand)
    cw, cp = price_w @ w, price_p @ s
    capw, capp = _caps(free_w, w, N), _caps(free_p, s, N)
    ow, op = np.argsort(cw, axis=1, kind="stable"), np.argsort(cp, axis=1, kind="stable")
    workers = _greedy_costs(cw, capw, ow, N)
    pss = _greedy_costs(cp, capp, op, N)
    needed = ceil_tol_array(np.arange(N + 1) * (job.b / job.B)).astype(np.int64)
    feasible = needed <= np.arange(N + 1)  # (7); fails only when b > B
    cost = np.where(feasible[None, :], workers + pss[:, np.minimum(needed, N)], np.inf)
    return SlotCosts(cost, ow, capw, op, capp, needed)


def best_schedule(instance: Instance, i: int, price_w: np.ndarray, price_p: np.ndarray,
                  free_w: np.ndarray, free_p: np.ndarray, *, literal: bool = False,
                  counters: SubroutineCounters | None = None) -> Plan | None:
    """The schedule of job ``i`` with the largest positive payoff, or None (Algorithm 2).

    ``price_w``, ``free_w`` have shape (T, H, R) and ``price_p``, ``free_p`` shape (T, K, R), slot
    ``t`` at index ``t − 1``. ``literal`` selects the printed chunk DP (mode B only). Deadlines stop
    once ``f_i(τ + 1 − a_i)`` cannot beat the best payoff found: ``f`` is non-increasing and costs
    are non-negative, so no later deadline could win.
    """
    job, facts = instance.jobs[i], instance.facts[i]
    if not facts.feasible:  # L_i is empty: nothing can be found
        return None
    counters = counters if counters is not None else SubroutineCounters()
    a, N = job.arrival, job.chunks
    if instance.mode == "worker_slots":
        target, gain = facts.W, np.arange(N + 1)
    else:
        target, gain = facts.chunk_target, floor_tol_array(np.arange(N + 1) / facts.rho).astype(np.int64)
    costs = slot_costs(instance, i, price_w[a - 1:], price_p[a - 1:], free_w[a - 1:], free_p[a - 1:])
    counters.cost_evaluations += costs.cost.size
    step = _literal_chunk_step(facts, target, counters) if literal and instance.mode == "chunks" \
        else _step(gain, target, counters)
    previous = np.full(target + 1, np.inf)
    previous[0] = 0.0
    tables, chosen, consumed = [], [], []
    best, best_payoff = None, 0.0
    for s in range(facts.slots):
        current, n_choice, used = step(costs.cost[s], previous)
        tables.append(current)
        chosen.append(n_choice)
        consumed.append(used)
        previous = current
        payoff = job.utility.value(s) - current[target]
        if payoff > best_payoff + TIE * abs(best_payoff):
            best, best_payoff = s, payoff
        if s + 1 < facts.slots and job.utility.value(s + 1) <= best_payoff:
            break
    if best is None:
        return None
    workers = np.zeros((best + 1, instance.H), dtype=np.int64)
    ps = np.zeros((best + 1, instance.K), dtype=np.int64)
    remaining = target
    for s in range(best, -1, -1):
        workers[s], ps[s] = costs.place(s, int(chosen[s][remaining]))
        remaining = max(0, remaining - int(consumed[s][remaining]))
    return Plan(a, workers, ps, job.utility.value(best), float(tables[best][target]))


def _step(gain: np.ndarray, target: int, counters: SubroutineCounters):
    """One DP slot: ``F[w] = min_n cost[n] + F_prev[max(0, w − gain[n])]`` (mode A: ``gain[n] = n``;
    mode B: ``⌊n/ρ⌋`` chunks, the "at least ``D``" form). Returns the table, the chosen ``n`` per
    cell (smallest on ties) and the workload it supplies."""
    index = np.maximum(0, np.arange(target + 1)[:, None] - gain[None, :])

    def step(cost: np.ndarray, previous: np.ndarray):
        usable = int(np.flatnonzero(np.isfinite(cost))[-1]) + 1  # n beyond the free capacity is inf
        counters.dp_states += target + 1
        counters.dp_transitions += (target + 1) * len(cost)
        candidates = previous[index[:, :usable]]
        candidates += cost[None, :usable]
        low, choice = _first_minimum(candidates)
        return low, choice, gain[choice]

    return step


def _literal_chunk_step(facts, target: int, counters: SubroutineCounters):
    """Lines 10-20 as printed: ``cost(t, D) = min_{d=0..D} COST_t(t, ⌈ρ d⌉) + cost(t−1, D − d)``,
    exactly ``D`` chunks, base ``cost(a−1, 0) = 0``; smallest ``d`` on ties (the strict ``>``).
    Returns the table, the worker counts ``⌈ρ d⌉`` of the choices and their chunks ``d``."""
    workers_for = ceil_tol_array(np.arange(target + 1) * facts.rho).astype(np.int64)

    def step(cost: np.ndarray, previous: np.ndarray):
        cost_d = np.where(workers_for < len(cost), cost[np.minimum(workers_for, len(cost) - 1)], np.inf)
        current = np.full(target + 1, np.inf)
        chosen = np.zeros(target + 1, dtype=np.int64)
        for D in range(target + 1):
            current[D], chosen[D] = _first_minimum(cost_d[: D + 1] + previous[D::-1])
            counters.dp_transitions += D + 1
        counters.dp_states += target + 1
        return current, workers_for[chosen], chosen

    return step
