"""Per-job cost oracles of A_maxweight (spec §3.5-§3.8): the cheapest single-job schedule that fits
the residual capacity within a batch deadline ``τ``, at fixed prices.

A :class:`Market` holds, for the local slots ``1..τ``, the prices ``δ[h, r, t]`` and the residual
capacities ``ω[h, r, t]``. A schedule's cost is ``Σ_{t ∈ window} Σ_h Σ_r δ[h, r, t] f^r_h`` (12).
Every oracle returns ``(cost, schedule)``, or ``(inf, None)`` when nothing fits; ties go to the
first candidate in the paper's loop order (strict ``<``, §3.9).

* :func:`colocated_ps` (A_mincost2, Alg. 5 made concrete, D13): all workers and one PS on one server.
* :func:`distributed_exact` (§3.6.4): for each PS server ``n`` and co-located count ``g``, the
  remaining workers fill the other servers cheapest first, which is optimal for that covering
  problem; ``min(colocated_ps, distributed_exact)`` is the true optimum of (12) (Theorem 1, as
  repaired).
* :func:`brute_force`: every shape, start and placement; for the checks.

Shapes are the instance's W1/W2 shapes; the paper's loop over durations ``L`` visits, for every
worker count, its smallest ``L`` first, so iterating shapes by increasing duration is
output-identical (§2.2 W2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .columns import compositions
from .instance import Instance, Shape
from .schedule import JobSchedule

INF = math.inf


@dataclass
class Market:
    instance: Instance
    tau: int
    price: np.ndarray  #: δ[h, r, t] for t in 0..tau (index 0 unused)
    residual: np.ndarray  #: ω[h, r, t]

    @classmethod
    def empty(cls, instance: Instance, tau: int) -> "Market":
        capacity = np.asarray(instance.capacity, float)[:, :, None]
        return cls(instance, tau, np.zeros((instance.H, instance.R, tau + 1)),
                   np.repeat(capacity, tau + 1, axis=2))

    def window(self, start: int, d: int) -> tuple[np.ndarray, np.ndarray]:
        """Per (h, r): the summed price and the smallest residual over slots ``start..start+d−1``."""
        sl = slice(start, start + d)
        return self.price[:, :, sl].sum(axis=2), self.residual[:, :, sl].min(axis=2)


def _shapes(instance: Instance, j: int, q: int, tau: int) -> list[Shape]:
    """Shapes with flag ``q`` that fit before the deadline (``d <= τ − 1``), in the paper's loop
    order: worker type, PS type, then duration ascending."""
    chosen = [s for s in instance.shapes[j] if s.q == q and s.d <= tau - 1]
    return sorted(chosen, key=lambda s: (s.m, -1 if s.p is None else s.p, s.d))


def _capacity_for(residual: np.ndarray, demand: tuple[float, ...]) -> int:
    """How many items of ``demand`` fit in ``residual`` (E4: resources an item does not use are
    no limit)."""
    limits = [math.floor(residual[r] / need + 1e-9) for r, need in enumerate(demand) if need > 0]
    return min(limits) if limits else 10**9


def colocated_ps(market: Market, j: int) -> tuple[float, JobSchedule | None]:
    inst, best = market.instance, (INF, None)
    H = inst.H
    for shape in _shapes(inst, j, 1, market.tau):
        e, z = inst.worker_demand[shape.m], inst.ps_demand[shape.p]
        need = np.array([shape.workers * e[r] + z[r] for r in range(inst.R)])
        for start in range(1, market.tau - shape.d + 1):
            prices, room = market.window(start, shape.d)
            for h in range(H):
                if np.all(need <= room[h] + 1e-9):
                    cost = float(prices[h] @ need)
                    if cost < best[0]:
                        y = tuple(shape.workers if k == h else 0 for k in range(H))
                        s = tuple(1 if k == h else 0 for k in range(H))
                        best = (cost, JobSchedule(start, shape.d, shape.m, shape.p, 1, y, s))
    return best


def distributed_exact(market: Market, j: int) -> tuple[float, JobSchedule | None]:
    inst, best = market.instance, (INF, None)
    H = inst.H
    for shape in _shapes(inst, j, 0, market.tau):
        e, z, N = inst.worker_demand[shape.m], inst.ps_demand[shape.p], shape.workers
        b, B = inst.b(shape.m), inst.B(shape.p)
        for start in range(1, market.tau - shape.d + 1):
            prices, room = market.window(start, shape.d)
            omega = prices @ np.asarray(e)  # Ω_h: one worker's cost on h over the window
            psi = prices @ np.asarray(z)  # Ψ_h: one PS's cost
            cap = [_capacity_for(room[h], e) for h in range(H)]
            order = sorted(range(H), key=lambda h: (omega[h], h))
            for n in range(H):
                for g in range(min(cap[n], N - 1) + 1):
                    need = max(1, math.ceil(b * (N - g) / B - 1e-9))
                    if any(g * e[r] + need * z[r] > room[n][r] + 1e-9 for r in range(inst.R)):
                        continue
                    y, rem = [0] * H, N - g
                    y[n] = g
                    for h in order:
                        if h != n:
                            y[h] = min(cap[h], rem)
                            rem -= y[h]
                    if rem > 0:
                        continue
                    cost = g * omega[n] + need * psi[n] + sum(y[h] * omega[h] for h in range(H) if h != n)
                    if cost < best[0]:
                        s = tuple(need if k == n else 0 for k in range(H))
                        best = (float(cost), JobSchedule(start, shape.d, shape.m, shape.p, 0, tuple(y), s))
    return best


def brute_force(market: Market, j: int) -> tuple[float, JobSchedule | None]:
    """The cheapest schedule over every shape, start, split of workers and PS server (ps) that fits
    the residual capacity, with the minimal PS count of W3."""
    inst, best = market.instance, (INF, None)
    H = inst.H
    ps = inst.framework == "ps"
    for shape in sorted(inst.shapes[j], key=lambda s: s.d):
        if shape.d > market.tau - 1:
            continue
        e = np.asarray(inst.worker_demand[shape.m])
        z = np.asarray(inst.ps_demand[shape.p]) if ps else np.zeros(inst.R)
        for start in range(1, market.tau - shape.d + 1):
            prices, room = market.window(start, shape.d)
            for y in compositions(shape.workers, H):
                hosts = [h for h in range(H) if y[h]]
                for n in (range(H) if ps else (None,)):
                    s = [0] * H
                    if ps:
                        s[n] = 1 if shape.q else max(1, math.ceil(inst.b(shape.m) * (shape.workers - y[n]) / inst.B(shape.p) - 1e-9))
                    used = {*hosts, *([n] if ps else [])}
                    if shape.q == 1 and len(used) != 1:
                        continue
                    if any(np.any(y[h] * e + s[h] * z > room[h] + 1e-9) for h in range(H)):
                        continue
                    cost = float(sum(prices[h] @ (y[h] * e + s[h] * z) for h in range(H)))
                    if cost < best[0] - 1e-12:
                        best = (cost, JobSchedule(start, shape.d, shape.m, shape.p, shape.q, tuple(y), tuple(s)))
    return best
