"""Per-job cost oracles of A_maxweight (spec §3.5-§3.8): the cheapest single-job schedule that fits
the residual capacity within a batch deadline ``τ``, at fixed prices.

A :class:`Market` holds, for the local slots ``1..τ``, the prices ``δ[h, r, t]`` and the residual
capacities ``ω[h, r, t]``. A schedule may use slots ``start .. start+d−1`` with ``start + d <= τ``
(7b). Its cost is ``Σ_{t ∈ window} Σ_h Σ_r δ[h, r, t] f^r_h`` (12). Every oracle returns
``(cost, schedule)``, or ``(inf, None)`` when nothing fits; ties go to the first candidate in the
paper's loop order (strict ``<``, §3.9): shape, then start, then server(s). With ``below`` an
oracle only looks for schedules cheaper than it (A_maxweight passes ``w_j`` and the other oracle's
cost: nothing else can change its decision). Two lower bounds prune, and pruning is
output-identical: per shape, the ``N d`` cheapest worker slots and ``d`` cheapest PS slots
anywhere before the deadline (:meth:`Market.cheapest_slots`, vectorised over all shapes); per
start, the ``N`` cheapest worker windows plus the cheapest PS window.

PS framework (the paper's names in brackets; exposed by role, §3.0):

* :func:`colocated_ps` (A_mincost2, Alg. 5 made concrete, D13): all workers and one PS on one server.
* :func:`distributed_exact` (§3.6.4): for each PS server ``n`` and co-located count ``g`` the other
  workers fill the other servers cheapest first, optimal for that covering problem; so
  ``min(colocated_ps, distributed_exact)`` is the optimum of (12) (Theorem 1, as repaired).
* :func:`distributed_paper` (A_mincost1, Alg. 4 with errata E1-E4, §3.6.3): the printed greedy. It
  is not exact (E5): golden cases A.1 (cost 10 where 9 exists) and A.5 (infeasible at zero prices).

Ring-AllReduce:

* :func:`colocated_allreduce` (A_RAmincost1, Alg. 6): ``Φ`` workers on one server.
* :func:`distributed_allreduce` (A_RAmincost2, Alg. 7 with errata E6-E9): ``Φ >= 2`` workers fill
  servers cheapest first. With Alg. 6 it is exact (Theorem 6, §3.8).

:func:`brute_force` enumerates every shape, start and placement; the checks compare against it.

Shapes are the instance's W1/W2 shapes; the paper's loop over durations ``L`` visits, for every
worker count, its smallest ``L`` first, so iterating shapes by increasing duration is
output-identical (§2.2 W2, §3.9). All oracles are vectorised over start slots: window sums of
prices come from prefix sums and window minima of the residual from a sliding view (§3.9), cached
per duration until the market changes; window minima by van Herk's filter (``minimum_filter1d``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from scipy.ndimage import minimum_filter1d

from .columns import compositions
from .instance import Instance, Shape, ps_type
from .schedule import JobSchedule

INF = math.inf
#: Slack for comparing float demands with residual capacities.
TOL = 1e-9
#: A market's :attr:`Market.cache_bytes` unless it is given: 1 GiB. It is read when a market is made, so
#: setting ``oracles.CACHE_BYTES`` (None: no bound) before a run sets the budget of every market the run
#: makes. A_online's rounds double their deadline τ, and without a bound a round's caches can outgrow the
#: machine at the paper's sizes; docs/hetero.md ("A_online's cache budget") has what each budget
#: costs in time and memory.
CACHE_BYTES: int | None = 2 ** 30


@dataclass
class Market:
    """What the oracles price a job against: the instance, the deadline τ, the prices δ[h, r, t] and the residual
    capacity ω[h, r, t] of the current sub-round."""
    instance: Instance
    tau: int
    price: np.ndarray  #: δ[h, r, t] for t in 0..tau (index 0 unused)
    residual: np.ndarray  #: ω[h, r, t]
    max_starts: int | None = None  #: consider only the first this many starts of each duration
    #: what the per-duration caches (:meth:`windows`, :meth:`per_unit`, :meth:`cost_order`,
    #: :meth:`fill_cost`) may hold, in bytes (None: no bound). Entries are kept while they fit; past
    #: the budget an entry is kept only until an entry of another duration comes in. The oracles visit
    #: a job's shapes by increasing duration, so that keeps what the current duration reuses, and a
    #: long market (a round of deadline τ caches about 528 H τ² / 2 bytes) stays near its budget.
    cache_bytes: int | None = field(default_factory=lambda: CACHE_BYTES)
    tuples: int = 0  #: oracle evaluations so far: (shape, start, server) tuples priced (Theorems 4 and 8)
    #: Caches, valid until :meth:`changed`: the prices' running sum over slots; per duration, the
    #: window sums and least residuals (:meth:`windows`); per (duration, demand), the per-item cost and
    #: count (:meth:`per_unit`) and the servers in cost order (:meth:`cost_order`); per demand, the
    #: sorted unit-slots (:meth:`cheapest_slots`); per (duration, worker type, count, starts), the cost
    #: of the cheapest workers per start (:meth:`fill_cost`).
    _cumulative: np.ndarray | None = field(default=None, repr=False)
    _by_duration: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _per_unit: dict[tuple[int, tuple], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _order: dict[tuple[int, tuple], tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict,
                                                                                       repr=False)
    _slots: dict[tuple, tuple[int, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _fills: dict[tuple, np.ndarray] = field(default_factory=dict, repr=False)
    #: the servers each :meth:`changed` edited since the caches were last cleared, and per entry of
    #: :meth:`windows` and :meth:`per_unit`, how many of those edits its rows include
    _edits: list[np.ndarray] = field(default_factory=list, repr=False)
    _valid: dict[tuple, int] = field(default_factory=dict, repr=False)
    #: bytes kept within the budget, per cache; the entries kept past it (all of one duration)
    _held: dict[str, int] = field(default_factory=dict, repr=False)
    _over: list[tuple[str, object]] = field(default_factory=list, repr=False)

    @classmethod
    def empty(cls, instance: Instance, tau: int, max_starts: int | None = None) -> Market:
        """Zero prices and full capacity. The empty market is the same at every slot, so
        ``max_starts=1`` loses nothing when only the existence of a schedule matters."""
        capacity = np.asarray(instance.capacity, float)[:, :, None]
        return cls(instance, tau, np.zeros((instance.H, instance.R, tau + 1)),
                   np.repeat(capacity, tau + 1, axis=2), max_starts)

    def changed(self, servers: Iterable[int] | None = None) -> None:
        """Forget the cached window sums; call after editing ``price`` or ``residual``. ``servers``:
        only these servers' rows were edited. The caches computed server by server (the running sums,
        :meth:`windows`, :meth:`per_unit`) then recompute those rows alone when next asked, the same
        floats, bit for bit, as recomputing every row (each row is computed on its own); the orders
        across servers are forgotten."""
        self._forget("_order", "_fills")
        self._slots.clear()
        if servers is None or self._cumulative is None:
            self._cumulative = None
            self._forget("_by_duration", "_per_unit")
            self._edits.clear()
            self._valid.clear()
            return
        rows = np.asarray(sorted(set(servers)), dtype=np.int64)
        self._cumulative[rows] = self._running_sums(rows)
        self._edits.append(rows)

    def _forget(self, *caches: str) -> None:
        """Empty these caches (attribute names) and their share of the budget."""
        for name in caches:
            getattr(self, name).clear()
            self._held[name] = 0
        self._over = [(name, key) for name, key in self._over if name not in caches]

    def _keep(self, name: str, key, value: tuple | np.ndarray) -> None:
        """Store ``value`` under ``key`` (an int duration, or a tuple that starts with one) in the cache
        ``name`` within :attr:`cache_bytes`: kept while the caches fit in it, else until an entry of
        another duration is kept past it."""
        size = nbytes(value)
        getattr(self, name)[key] = value
        if self.cache_bytes is None or sum(self._held.values()) + size <= self.cache_bytes:
            self._held[name] = self._held.get(name, 0) + size
            return
        if self._over and _duration(self._over[0][1]) != _duration(key):
            for other, old in self._over:
                del getattr(self, other)[old]
            self._over = []
        self._over.append((name, key))

    def _stale(self, key: tuple) -> np.ndarray | None:
        """The rows edited since the cache entry ``key`` was last brought up to date (None: none),
        marking it up to date."""
        at, self._valid[key] = self._valid[key], len(self._edits)
        if at == len(self._edits):
            return None
        return np.unique(np.concatenate(self._edits[at:]))

    def _running_sums(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The prices' running sum over slots 1.. (index 0: none yet), for ``rows`` of servers."""
        price = self.price[rows, :, 1:]
        return np.concatenate([np.zeros((*price.shape[:2], 1)), np.cumsum(price, axis=2)], axis=2)

    def _window_rows(self, d: int, starts: int,
                     rows: np.ndarray | slice = slice(None)) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`windows`' two arrays for ``rows`` of servers."""
        assert self._cumulative is not None
        cum = self._cumulative[rows]
        sums = cum[:, :, d:d + starts] - cum[:, :, :starts]
        span = self.residual[rows, :, 1:starts + d]  # the slots some window of these starts covers
        return sums, minimum_filter1d(span, d, axis=2, origin=-(d // 2))[:, :, :starts]

    def windows(self, d: int) -> tuple[np.ndarray, np.ndarray]:
        """For every start ``1..τ−d`` (axis 2, index ``start − 1``), per ``(h, r)``: the summed price
        and the smallest residual over slots ``start .. start+d−1``."""
        if d in self._by_duration:
            sums, room = self._by_duration[d]
            rows = self._stale(("windows", d))
            if rows is not None and sums.shape[2]:
                sums[rows], room[rows] = self._window_rows(d, sums.shape[2], rows)
        else:
            self._valid["windows", d] = len(self._edits)
            starts = max(0, self.tau - d)
            if self.max_starts is not None:
                starts = min(starts, self.max_starts)
            H, R = self.instance.H, self.instance.R
            if starts == 0:
                self._keep("_by_duration", d, (np.zeros((H, R, 0)), np.zeros((H, R, 0))))
            else:
                if self._cumulative is None:
                    self._cumulative = self._running_sums()
                self._keep("_by_duration", d, self._window_rows(d, starts))
        return self._by_duration[d]

    def cheapest_slots(self, key: tuple, demand, k: np.ndarray) -> np.ndarray:
        """The least total price of ``k`` unit-slots, a unit-slot being room for one item of
        ``demand`` on one server in one slot of ``1..τ−1`` priced ``Σ_r δ[h, r, t] demand_r``
        (``inf`` where fewer exist); vectorised over ``k``, cached per ``key``. Needs ``δ >= 0``
        (eq. (11)): slots at price 0 are counted, not sorted."""
        if key not in self._slots:
            demand = np.asarray(demand, float)
            price = np.einsum("hrt,r->ht", self.price[:, :, 1:self.tau], demand).ravel()
            if price.size and price.min() < 0:
                raise ValueError("cheapest_slots needs nonnegative prices")
            room = _capacity(self.residual[:, :, 1:self.tau], demand).ravel()
            free = price == 0
            paid = np.flatnonzero(~free & (room > 0))
            order = paid[np.argsort(price[paid], kind="stable")]
            self._slots[key] = (int(room[free].sum()), price[order],
                                np.cumsum(room[order]), np.cumsum(room[order] * price[order]))
        zero, price, units, cost = self._slots[key]
        rest = np.asarray(k, dtype=np.int64) - zero
        if len(units) == 0:
            return np.where(rest <= 0, 0.0, INF)
        i = np.minimum(np.searchsorted(units, rest), len(units) - 1)  # first sorted slot that completes rest
        before_units = np.where(i > 0, units[i - 1], 0)
        before_cost = np.where(i > 0, cost[i - 1], 0.0)
        out = before_cost + (rest - before_units) * price[i]
        return np.where(rest <= 0, 0.0, np.where(rest <= units[-1], out, INF))

    def per_unit(self, d: int, demand_key: tuple, demand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per (server, start): the window cost of one item of ``demand`` (Ω or Ψ of §3.6) and how
        many such items fit; cached like :meth:`windows`."""
        key = (d, demand_key)
        if key in self._per_unit:
            rows = self._stale(("per_unit", d, demand_key))
            if rows is not None:
                sums, room = self.windows(d)
                omega, cap = self._per_unit[key]
                omega[rows], cap[rows] = np.einsum("hrs,r->hs", sums[rows], demand), _capacity(room[rows], demand)
        else:
            self._valid["per_unit", d, demand_key] = len(self._edits)
            sums, room = self.windows(d)
            self._keep("_per_unit", key, (np.einsum("hrs,r->hs", sums, demand), _capacity(room, demand)))
        return self._per_unit[key]

    def cost_order(self, d: int, demand_key: tuple, demand: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per start, the servers in order ``(Ω_h, h)`` of :meth:`per_unit`'s cost (a stable sort down
        axis 0), with the cost and the item count in that order; cached like :meth:`per_unit`. Shapes
        of one duration and worker type share it, whatever their worker count or PS type."""
        key = (d, demand_key)
        if key not in self._order:
            omega, cap = self.per_unit(d, demand_key, demand)
            order = np.argsort(omega, axis=0, kind="stable")
            self._keep("_order", key, (order, np.take_along_axis(omega, order, axis=0),
                                       np.take_along_axis(cap, order, axis=0)))
        return self._order[key]

    def fill_cost(self, d: int, demand_key: tuple, demand: np.ndarray, count: int, limit: int | None) -> np.ndarray:
        """:func:`_fill_cost` of ``count`` items of ``demand`` per start (the first ``limit`` starts, or
        all), from :meth:`cost_order`; cached like it, since the shapes of one duration, worker type
        and worker count share it whatever their PS type."""
        key = (d, demand_key, count, limit)
        if key not in self._fills:
            _, omega_sorted, cap_sorted = self.cost_order(d, demand_key, demand)
            self._keep("_fills", key, _fill_cost(omega_sorted[:, :limit], cap_sorted[:, :limit], count))
        return self._fills[key]


def nbytes(value: tuple | np.ndarray) -> int:
    """The bytes a cache entry of :class:`Market` holds: an array, or a tuple of arrays."""
    return sum(a.nbytes for a in value) if isinstance(value, tuple) else value.nbytes


def _duration(key) -> int:
    """The duration of a :class:`Market` cache key: the key itself, or its first element."""
    return key if isinstance(key, int) else key[0]


def _shapes(market: Market, j: int, q: int, best: Best) -> list[tuple[Shape, float]]:
    """Shapes with flag ``q`` that fit before the deadline (``d <= τ − 1``), in the paper's loop
    order (:class:`ShapeTable`), each with a lower bound on its cost; shapes that cannot replace
    ``best`` are left out. The bound: the ``N d`` cheapest worker slots plus (ps) the ``d``
    cheapest PS slots anywhere in slots ``1..τ−1`` (:meth:`Market.cheapest_slots`), a relaxation
    of (12) that drops the one-server-per-item and contiguous-window constraints."""
    inst = market.instance
    table = inst.shape_tables[j][q]
    keep = np.flatnonzero(table.d <= market.tau - 1)
    bound = np.zeros(len(keep))
    units = table.workers[keep] * table.d[keep]
    for m in np.unique(table.m[keep]):
        mine = table.m[keep] == m
        bound[mine] = market.cheapest_slots(("worker", int(m)), inst.worker_demand[m], units[mine])
    if inst.framework == "ps":
        for p in np.unique(table.p[keep]):
            mine = table.p[keep] == p
            bound[mine] += market.cheapest_slots(("ps", int(p)), inst.ps_demand[p], table.d[keep][mine])
    chosen = np.flatnonzero(best.admits(bound, 1 + table.d[keep]))
    return [(table.shapes[keep[k]], float(bound[k])) for k in chosen]


TIE_BREAKS = ("paper", "earliest_completion")
#: Costs this close count as equal under ``earliest_completion``.
TIE = 1e-12


class Best:
    """The cheapest schedule found so far, and the tie rule (§3.9). ``paper``: the first in loop
    order wins ties (strict ``<``). ``earliest_completion`` (D17): among costs within ``TIE`` of
    each other, the earlier completion ``t⁻ + L`` wins, then the smaller resource-time footprint
    ``L Σ_h Σ_r f^r_h``, then loop order. It starts from ``below`` and, optionally, an incumbent
    schedule costing ``below`` (the other oracle's result, so that ties between oracles follow the
    same rule)."""

    def __init__(self, instance: Instance, below: float = INF, incumbent: JobSchedule | None = None,
                 tie_break: str = "paper"):
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {TIE_BREAKS}")
        self.instance, self.cost, self.schedule = instance, below, incumbent
        self.earliest = tie_break == "earliest_completion"

    def admits(self, bound, completion):
        """Whether a schedule costing at least ``bound`` and completing at ``completion`` or later
        may replace the best (vectorised); with a rounding slack for bounds summed in another order."""
        lower = np.asarray(bound) * (1 - 1e-9) - 1e-12
        if not self.earliest or self.schedule is None:
            return lower < self.cost
        earlier = np.asarray(completion) <= self.schedule.completion
        return (lower < self.cost - TIE) | ((lower <= self.cost + TIE) & earlier)

    def offer(self, cost: float, schedule: JobSchedule) -> None:
        """Consider ``schedule`` at ``cost``: keep it when it is cheaper than the best so far, or (earliest-completion
        ties) as cheap and earlier (D17)."""
        if not self.earliest or self.schedule is None:
            better = cost < self.cost
        else:
            better = cost < self.cost - TIE or (cost <= self.cost + TIE
                                                and self._key(schedule) < self._key(self.schedule))
        if better:
            self.cost, self.schedule = cost, schedule

    def pick(self, cost: np.ndarray, footprint: np.ndarray | None = None) -> tuple[float, tuple[int, ...]]:
        """An oracle's candidate from a cost array whose first axis is the start (or whose entries
        share one start): ``paper``, the first minimum in C order; ``earliest_completion``, among
        entries within ``TIE`` of the minimum the smallest ``footprint`` (if given) of the earliest
        start, then C order."""
        k = int(np.argmin(cost))
        if self.earliest and np.isfinite(cost.flat[k]):
            tied = cost <= cost.flat[k] + TIE
            if footprint is not None:
                tied &= footprint == footprint[tied].min()
            k = int(np.argmax(tied))
        return float(cost.flat[k]), tuple(int(i) for i in np.unravel_index(k, cost.shape))

    def start_limit(self, d: int) -> int | None:
        """How many starts (from the first) can still replace the best for duration ``d``, or None
        for all: under ``earliest_completion`` at cost 0 nothing is cheaper (prices are >= 0), so
        only a completion ``start + d`` no later than the best's can win."""
        if self.earliest and self.schedule is not None and self.cost <= TIE:
            return max(0, self.schedule.completion - d)
        return None

    @property
    def settled(self) -> bool:
        """Nothing later in loop order can replace the best (``paper`` at cost 0)."""
        return not self.earliest and self.schedule is not None and self.cost == 0

    def result(self) -> tuple[float, JobSchedule | None]:
        """The best ``(cost, schedule)`` offered, or ``(inf, None)`` when none was."""
        return (self.cost, self.schedule) if self.schedule is not None else (INF, None)

    def _key(self, l: JobSchedule) -> tuple[int, float]:
        inst = self.instance
        ps_use = sum(l.s) * sum(inst.ps_demand[l.p]) if l.p is not None else 0.0
        per_slot = l.workers * sum(inst.worker_demand[l.m]) + ps_use
        return l.completion, l.d * per_slot


def _capacity(room: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """How many items of ``demand`` fit in ``room[h, r, start]``, per (h, start) (E4: resources an
    item does not use are no limit)."""
    used = demand > 0
    if not used.any():
        return np.full((room.shape[0], room.shape[2]), 10**9, dtype=np.int64)
    per = np.floor(room[:, used, :] / demand[used][None, :, None] + TOL)
    return per.min(axis=1).astype(np.int64)


def _fill(omega: np.ndarray, cap: np.ndarray, count: int | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Place ``count`` identical workers on servers cheapest first (order ``(Ω_h, h)``), per start:
    returns the cost (``inf`` where the capacity is short) and the counts ``y[h, start]``. Exact for
    this unit-item covering problem (§3.0)."""
    order = np.argsort(omega, axis=0, kind="stable")
    caps = np.take_along_axis(cap, order, axis=0)
    before = np.cumsum(caps, axis=0) - caps
    taken = np.clip(count - before, 0, caps)
    y = np.zeros_like(cap)
    np.put_along_axis(y, order, taken, axis=0)
    cost = (y * omega).sum(axis=0)
    return np.where(y.sum(axis=0) >= count, cost, INF), y


def _fill_cost(omega_sorted: np.ndarray, cap_sorted: np.ndarray, count: int) -> np.ndarray:
    """:func:`_fill`'s cost alone, per start, from the servers already in order ``(Ω_h, h)``
    (:meth:`Market.cost_order`), each holding at most ``count``: ``inf`` where the capacity is
    short. The same greedy, summed in that order rather than by server index, so it may differ from
    :func:`_fill`'s in the last bits; it serves as a lower bound only, against a relative slack
    of 1e-9 (:meth:`Best.admits`)."""
    caps = np.minimum(cap_sorted, count)
    before = np.cumsum(caps, axis=0) - caps
    taken = np.clip(count - before, 0, caps)
    return np.where(taken.sum(axis=0) >= count, (taken * omega_sorted).sum(axis=0), INF)


def _one_hot(H: int, h: int, count: int) -> tuple[int, ...]:
    return tuple(count if k == h else 0 for k in range(H))


def colocated_ps(market: Market, j: int, below: float = INF, tie_break: str = "paper",
                 incumbent: JobSchedule | None = None) -> tuple[float, JobSchedule | None]:
    """A_mincost2 (§3.6.2, made concrete, D13): the cheapest PS schedule of job ``j`` with all its workers and PSs on
    one server, below ``below``, by exact search over shapes and starts."""
    inst = market.instance
    best = Best(inst, below, incumbent, tie_break)
    for shape, bound in _shapes(market, j, 1, best):
        if not best.admits(bound, 1 + shape.d):
            continue
        sums, room = market.windows(shape.d)
        need = shape.workers * np.asarray(inst.worker_demand[shape.m]) + np.asarray(inst.ps_demand[ps_type(shape.p)])
        fits = np.all(room >= need[None, :, None] - TOL, axis=1).T
        cost = np.where(fits, np.einsum("hrs,r->sh", sums, need), INF)
        market.tuples += cost.size
        if cost.size:
            found, (start, h) = best.pick(cost)
            best.offer(found, JobSchedule(start + 1, shape.d, shape.m, shape.p, 1,
                                          _one_hot(inst.H, h, shape.workers), _one_hot(inst.H, h, 1)))
            if best.settled:
                break
    return best.result()


def _ps_window(market: Market, shape: Shape, best: Best):
    """Per-start quantities of a distributed PS shape: Ω (a worker's window cost per server), Ψ (a
    PS's), the worker capacity per server, the residual, and the starts whose lower bound admits
    them (no other start can win, so skipping them is exact; :meth:`Best.start_limit` cuts the
    starts before any work). The bound: the ``N`` cheapest worker slots anywhere (``inf`` if there
    are fewer) plus the cheapest PS."""
    inst = market.instance
    _, room = market.windows(shape.d)
    e, z = np.asarray(inst.worker_demand[shape.m]), np.asarray(inst.ps_demand[ps_type(shape.p)])
    omega, cap = market.per_unit(shape.d, ("worker", shape.m), e)
    psi, _ = market.per_unit(shape.d, ("ps", shape.p), z)
    limit = best.start_limit(shape.d)
    if limit is not None:
        omega, cap, psi, room = omega[:, :limit], cap[:, :limit], psi[:, :limit], room[:, :, :limit]
    if omega.shape[1] == 0:
        return omega, psi, None, room, e, z, []
    lower = market.fill_cost(shape.d, ("worker", shape.m), e, shape.workers, limit) + psi.min(axis=0)
    starts = np.flatnonzero(best.admits(lower, np.arange(1, len(lower) + 1) + shape.d))
    return omega, psi, cap, room, e, z, starts


#: Entries of (start, server, g, resource) that :func:`distributed_exact` holds at once: its starts are
#: costed in chunks of this size (a few MB).
CHUNK_ELEMENTS = 1 << 20


def _distributed_costs(omega: np.ndarray, psi: np.ndarray, cap: np.ndarray, room: np.ndarray,
                       ranked: tuple[np.ndarray, np.ndarray, np.ndarray], starts: np.ndarray, N: int, g: np.ndarray,
                       need: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """:func:`distributed_exact`'s cost ``g Ω_n + s(g) Ψ_n + F_{−n}(N − g)`` per (start, PS server ``n``,
    co-located count ``g``) for the given ``starts`` at once (``inf`` where infeasible). Each start's
    cheapest-first unit list is a row, padded with zeros past its length, and its prefix sums run
    along the row in the same order as on the list alone, so every cost is the same float, bit for
    bit, as costing the starts one by one. ``ranked``: :meth:`Market.cost_order` of the shape's
    duration and worker type, the servers in order ``(Ω_h, h)`` per start with Ω and the count in
    that order."""
    S = len(starts)
    om = omega[:, starts].T  # (start, h)
    cp = np.minimum(cap[:, starts], 2 * N).T  # more than 2N slots never matter
    orders, omega_sorted, cap_sorted = ranked
    order, om_sorted = orders[:, starts].T, omega_sorted[:, starts].T
    cp_sorted = np.minimum(cap_sorted[:, starts], 2 * N).T
    lengths = cp_sorted.sum(axis=1)  # units per start
    offsets = np.cumsum(lengths) - lengths
    units = np.zeros((S, int(lengths.max(initial=0))))
    flat = np.repeat(om_sorted.ravel(), cp_sorted.ravel())
    row = np.repeat(np.arange(S), lengths)
    units[row, np.arange(len(flat)) - offsets[row]] = flat
    cum = np.concatenate([np.zeros((S, 1)), np.cumsum(units, axis=1)], axis=1)
    first = np.empty_like(cp)  # where server n's units start in its start's list
    np.put_along_axis(first, order, np.cumsum(cp_sorted, axis=1) - cp_sorted, axis=1)
    k = N - g[None, None, :]  # workers off n, per (start, n, g)
    size = lengths[:, None, None]
    short = size - cp[:, :, None] < k  # not enough capacity off n
    late = first[:, :, None] >= k
    upto = np.minimum(k + cp[:, :, None], size)
    rows = np.arange(S)[:, None, None]
    fill = np.where(late, cum[rows, np.minimum(k, size)], cum[rows, upto] - cp[:, :, None] * om[:, :, None])
    ok = ~short & (g[None, None, :] <= cap[:, starts].T[:, :, None])
    limits = room[:, :, starts] + TOL  # (h, r, start)
    for r in range(demand.shape[1]):  # room on n for the g workers and the PSs, resource by resource
        ok &= demand[None, None, :, r] <= limits[:, r, :].T[:, :, None]
    return np.where(ok, g[None, None, :] * om[:, :, None] + need[None, None, :] * psi[:, starts].T[:, :, None] + fill,
                    INF)


def distributed_exact(market: Market, j: int, below: float = INF, tie_break: str = "paper",
                      incumbent: JobSchedule | None = None) -> tuple[float, JobSchedule | None]:
    """For every start, PS server ``n`` and co-located count ``g`` (vectorised over ``n`` and
    ``g``): ``g Ω_n + s(g) Ψ_n + F_{−n}(N − g)``, where ``F_{−n}(k)``, the cheapest ``k`` worker
    slots off ``n``, comes from the cheapest-first unit list: ``n``'s units are contiguous in it,
    so ``F_{−n}(k) = F(k)`` if they start at or after ``k``, else ``F(k + cap_n) − cap_n Ω_n``."""
    inst = market.instance
    best = Best(inst, below, incumbent, tie_break)
    H = inst.H
    for shape, bound in _shapes(market, j, 0, best):
        if not best.admits(bound, 1 + shape.d):
            continue
        omega, psi, cap, room, e, z, starts = _ps_window(market, shape, best)
        ranked = market.cost_order(shape.d, ("worker", shape.m), e)
        N = shape.workers
        g = np.arange(N)
        bandwidth = inst.B(ps_type(shape.p))
        need = np.maximum(1, np.ceil(inst.b(shape.m) * (N - g) / bandwidth - 1e-9)).astype(np.int64)  # W3
        market.tuples += len(starts) * H  # one tuple per (start, PS server n); the g loop is inside
        demand = g[:, None] * e + need[:, None] * z  # (g, r): g workers and the PSs for the other N - g on n
        chunk = max(1, CHUNK_ELEMENTS // (H * N * len(e)))
        for at in range(0, len(starts), chunk):
            some = starts[at:at + chunk]
            cost = _distributed_costs(omega, psi, cap, room, ranked, some, N, g, need, demand)
            lowest = cost.reshape(len(some), -1).min(axis=1)
            for i, start in enumerate(some):
                if np.isinf(lowest[i]) or not best.admits(lowest[i], int(start) + 1 + shape.d):
                    continue  # the pick costs at least the lowest: it could not be admitted either
                found, (n, gg) = best.pick(cost[i], np.broadcast_to(need, cost[i].shape))
                if np.isinf(found) or not best.admits(found, int(start) + 1 + shape.d):
                    continue
                others = cap[:, start].copy()
                others[n] = 0
                _, y = _fill(omega[:, start:start + 1], others[:, None], N - gg)
                y = y[:, 0].copy()
                y[n] = gg
                best.offer(found, JobSchedule(int(start) + 1, shape.d, shape.m, shape.p, 0,
                                              tuple(int(v) for v in y), _one_hot(H, n, int(need[gg]))))
                if best.settled:
                    return best.result()
    return best.result()


def distributed_paper(market: Market, j: int, below: float = INF, tie_break: str = "paper",
                      incumbent: JobSchedule | None = None,
                      as_printed: bool = False) -> tuple[float, JobSchedule | None]:
    """A_mincost1 as printed, with E1 (reset per PS server), E2 (``g <= N − 1``), E3 (the PS count
    ``max(1, ⌈(N − g) b / B⌉)``) and E4 (unused resources are no limit); §3.6.3. Servers are walked
    in order ``(Ω_h, h)``; each takes as many workers as fit before the PS server ``n`` is reached
    (Algorithm 4, lines 11-13, which no erratum touches); on ``n`` the largest feasible ``g`` wins.
    ``as_printed``: without E1-E3, line by line: ``N̂`` is set once per ``L`` (line 6) and only ever
    decreased (line 23), ``g`` runs to ``ŷ`` (line 15) and ``s = min(ŝ, ⌈(N − g) b / B⌉)`` (line 19),
    which is 0 at ``g = N``; what it returns may not be a schedule of the job at all (the caller
    checks; docs/hetero.md, "Counterexamples and the search"). Pure Python: meant for small instances."""
    inst = market.instance
    best = Best(inst, below, incumbent, tie_break)
    H = inst.H
    for shape, bound in _shapes(market, j, 0, best):
        if not best.admits(bound, 1 + shape.d):
            continue
        omega, psi, cap, room, e, z, starts = _ps_window(market, shape, best)
        N = shape.workers
        used = z > 0
        market.tuples += len(starts) * H
        left = N  # line 6: N̂ = N_j (as printed, never reset)
        for start in starts:
            order = sorted(range(H), key=lambda h: (omega[h, start], h))
            for n in range(H):
                y, s_n, ok = [0] * H, 0, True  # line 10
                if not as_printed:
                    left = N  # E1
                for k in order:
                    y[k] = min(int(cap[k, start]), left)  # lines 12-13
                    if k == n:
                        s_n = 0
                        for g in range(y[k] + 1 if as_printed else min(y[k], N - 1) + 1):  # line 15 / E2
                            if used.any():
                                spare = np.floor((room[n, used, start] - g * e[used]) / z[used] + TOL).min()
                            else:
                                spare = 10**9
                            need = math.ceil(inst.b(shape.m) * (N - g) / inst.B(ps_type(shape.p)) - 1e-9)
                            if not as_printed:
                                need = max(1, need)  # E3
                            if spare >= need:  # line 17
                                y[n], s_n = g, int(min(spare, need))  # line 19
                        if s_n == 0 and not as_printed:
                            ok = False
                            break
                    left -= y[k]  # line 23
                if not ok or left > 0 or s_n < 1:  # line 25
                    continue
                cost = float(sum(y[h] * omega[h, start] for h in range(H)) + s_n * psi[n, start])
                best.offer(cost, JobSchedule(int(start) + 1, shape.d, shape.m, shape.p, 0, tuple(y),
                                             _one_hot(H, n, s_n)))
    return best.result()


def colocated_allreduce(market: Market, j: int, below: float = INF, tie_break: str = "paper",
                        incumbent: JobSchedule | None = None) -> tuple[float, JobSchedule | None]:
    """A_RAmincost2 (Alg. 7, with E6-E9): the cheapest Ring-AllReduce schedule of job ``j`` with all its workers on one
    server, below ``below``."""
    inst = market.instance
    best = Best(inst, below, incumbent, tie_break)
    for shape, bound in _shapes(market, j, 1, best):
        if not best.admits(bound, 1 + shape.d):
            continue
        sums, room = market.windows(shape.d)
        e = np.asarray(inst.worker_demand[shape.m])
        fits = (_capacity(room, e) >= shape.workers).T
        cost = np.where(fits, shape.workers * np.einsum("hrs,r->sh", sums, e), INF)
        market.tuples += cost.size
        if cost.size:
            found, (start, h) = best.pick(cost)
            best.offer(found, JobSchedule(start + 1, shape.d, shape.m, None, 1,
                                          _one_hot(inst.H, h, shape.workers), (0,) * inst.H))
            if best.settled:
                break
    return best.result()


def distributed_allreduce(market: Market, j: int, below: float = INF, tie_break: str = "paper",
                          incumbent: JobSchedule | None = None) -> tuple[float, JobSchedule | None]:
    """Alg. 7 with E6 (place exactly ``Φ`` workers), E7 (reset per start), E8 (indices) and E9
    (``Φ >= 2``). A greedy that lands on one server is kept, labelled ``q = 0`` with its longer
    duration (allowed by W4); Alg. 6 is never worse there and wins ties (§3.8)."""
    inst = market.instance
    best = Best(inst, below, incumbent, tie_break)
    for shape, bound in _shapes(market, j, 0, best):
        if not best.admits(bound, 1 + shape.d):
            continue
        sums, room = market.windows(shape.d)
        if sums.shape[2] == 0:
            continue
        e = np.asarray(inst.worker_demand[shape.m])
        omega = np.einsum("hrs,r->hs", sums, e)
        if not best.admits(shape.workers * omega.min(), 1 + shape.d):
            continue
        cost, y = _fill(omega, _capacity(room, e), shape.workers)  # exact per start (§3.8)
        market.tuples += cost.size * inst.H  # per start, the fill walks the H servers
        found, (start,) = best.pick(cost)
        if np.isfinite(found):
            best.offer(found, JobSchedule(start + 1, shape.d, shape.m, None, 0,
                                          tuple(int(v) for v in y[:, start]), (0,) * inst.H))
            if best.settled:
                break
    return best.result()


def brute_force(market: Market, j: int) -> tuple[float, JobSchedule | None]:
    """The cheapest schedule over every shape, start, split of workers and PS server (ps) that fits
    the residual capacity, with the minimal PS count of W3."""
    inst = market.instance
    best: tuple[float, JobSchedule | None] = (INF, None)
    H = inst.H
    ps = inst.framework == "ps"
    for shape in sorted(inst.shapes[j], key=lambda s: s.d):
        if shape.d > market.tau - 1:
            continue
        sums, room = market.windows(shape.d)
        e = np.asarray(inst.worker_demand[shape.m])
        z = np.asarray(inst.ps_demand[ps_type(shape.p)]) if ps else np.zeros(inst.R)
        for start in range(sums.shape[2]):
            for y in compositions(shape.workers, H):
                hosts = [h for h in range(H) if y[h]]
                for n in range(H) if ps else range(1):  # n: the PS server (allreduce: one pass, unused)
                    s = [0] * H
                    if ps:
                        s[n] = 1 if shape.q else inst.ps_cover(shape.m, ps_type(shape.p), shape.workers - y[n])
                    used = {*hosts, *([n] if ps else [])}
                    if shape.q == 1 and len(used) != 1:
                        continue
                    if any(np.any(y[h] * e + s[h] * z > room[h, :, start] + TOL) for h in range(H)):
                        continue
                    cost = float(sum(sums[h, :, start] @ (y[h] * e + s[h] * z) for h in range(H)))
                    if cost < best[0] - 1e-12:
                        best = (cost, JobSchedule(start + 1, shape.d, shape.m, shape.p, shape.q, tuple(y), tuple(s)))
    return best
