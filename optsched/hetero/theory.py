"""The constants of Zhou et al.'s analysis and the theorem hook studies use (spec §3.1, §4).

* ``λ = 2 T H R F + 1`` (eq. (11)); the price of a resource at utilisation ``β/C`` is ``λ^(β/C) − 1``.
* ``γ = 2 log2 λ``, the approximation ratio of A_maxweight claimed by Theorem 3 (log base 2, D1).
* ``α = ⌊log(w(J)/w_min) / log(γ/(γ−1))⌋ + 1`` (Lemma 2 / Theorem 5); A_online is claimed
  ``4α``-competitive. The formula gives tens to hundreds (D2); the paper's simulations use α = 4.
* (A1) ``1 <= w_j / cons_j(l) <= F`` for every schedule ``l`` and (A2) ``f/C <= 1/log2 λ``:
  :func:`assumptions` reports whether an instance satisfies them.

Bounds for the checks: :func:`dual_bound` (``D*(δ)``, an upper bound on a batch's optimum for any
prices), :func:`lb_solo` and :func:`lb_fluid` (lower bounds on the offline optimum, §2.7).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..registry import Theorem
from .columns import horizon, options
from .instance import Instance, ps_type
from .oracles import Market


def lam(instance: Instance, F: float = 1.0, horizon: int | None = None) -> float:
    """``λ = 2 T H R F + 1`` (eq. (11)), with ``T`` the instance's horizon unless ``horizon`` (D19)."""
    T = instance.T if horizon is None else horizon
    return 2 * T * instance.H * instance.R * F + 1


def gamma(lam_: float) -> float:
    """``γ = 2 log2 λ`` (Theorem 3, D1)."""
    return 2 * math.log2(lam_)


def alpha_formula(weights: list[float], lam_: float, w_min: float | None = None) -> int:
    """``⌊log(w(J)/w_min) / log(γ/(γ−1))⌋ + 1`` (Lemma 2); the form does not depend on the log base."""
    g = gamma(lam_)
    lowest = min(weights) if w_min is None else w_min
    return math.floor(math.log(sum(weights) / lowest) / math.log(g / (g - 1)) + 1e-12) + 1


NORMALIZATIONS = ("raw", "per_capacity")


def resource_unit(instance: Instance, normalization: str) -> np.ndarray:
    """Per resource, what one unit counts for in (A1): 1 (``raw``, faithful) or ``1 / max_h C^r_h``
    (``per_capacity``), which makes (A1) independent of the units chosen (D18)."""
    if normalization not in NORMALIZATIONS:
        raise ValueError(f"normalization must be one of {NORMALIZATIONS}")
    if normalization == "raw":
        return np.ones(instance.R)
    top = np.asarray(instance.capacity, float).max(axis=0)
    return np.divide(1.0, top, out=np.zeros_like(top), where=top > 0)


def consumption(instance: Instance, schedule, normalization: str = "raw") -> float:
    """``cons_j(l)``: the schedule's resource-time summed over servers, slots and resources (A1),
    in raw units or per capacity (D18)."""
    unit = resource_unit(instance, normalization)
    return schedule.d * float(sum(np.asarray(schedule.footprint(instance, h)) @ unit for h in range(instance.H)))


def instance_F(instance: Instance, normalization: str = "raw") -> float:
    """``max_j w_j / min_l cons_j(l)`` over the schedules that fit the empty cluster (spec §3.1)."""
    best = 0.0
    for j, opts in enumerate(options(instance)):
        least = min((consumption(instance, o.at(1), normalization) for o in opts), default=math.inf)
        best = max(best, instance.jobs[j].weight / least)
    return best


@dataclass(frozen=True)
class Assumptions:
    """Whether an instance meets the paper's assumptions: (A1) 1 <= w_j / cons_j(l) <= F for every schedule, (A2) every
    schedule takes at most 1/log2 λ of any server's resource, and the largest share seen."""
    a1: bool  #: 1 <= w_j / cons_j(l) <= F for every job and schedule
    a2: bool  #: f^r_h(l) / C^r_h <= 1 / log2 λ everywhere
    largest_share: float  #: max f/C over every schedule, server and resource


def assumptions(instance: Instance, F: float, lam_: float, normalization: str = "raw") -> Assumptions:
    """Whether (A1) (with consumption in raw units or per capacity, D18) and (A2) hold, over every
    schedule that fits the empty cluster."""
    a1, share = True, 0.0
    for j, opts in enumerate(options(instance)):
        w = instance.jobs[j].weight
        for o in opts:
            schedule = o.at(1)
            if not 1 <= w / consumption(instance, schedule, normalization) <= F:
                a1 = False
            for h in range(instance.H):
                for r, used in enumerate(schedule.footprint(instance, h)):
                    cap = instance.capacity[h][r]
                    if used > 0:
                        share = max(share, used / cap if cap > 0 else math.inf)
    return Assumptions(a1, share <= 1 / math.log2(lam_) + 1e-12, share)


def theorem5(instance: Instance, *, alpha_mode: str = "fixed", alpha: int = 4, oracle: str = "exact",
             F: float = 1.0, lambda_horizon: str = "T", tie_break: str = "paper",
             normalization: str = "raw") -> Theorem | None:
    """The bound the paper claims for a run of A_online with these parameters: ``ALG/OPT <= 4α``.
    The tie rule does not change any cost, so not the bound either (§3.9); the price units (D18)
    change which (A1) holds, not the bound.

    * ``alpha_mode="theorem"``: Theorem 5, with α from the formula. Its proof inherits a gap of
      Lemma 2 (D4); it is rigorous when α is at least the largest batch and the oracles are exact.
    * ``alpha_mode="fixed"``: Lemma 1 with the given α; it needs property (ii) (the weight of every
      round at least the batch optimum), guaranteed when α is at least the largest batch.
    * ``per_round_safe``: α changes per round, so no single bound is claimed (None).
    """
    if alpha_mode == "per_round_safe":
        return None
    lam_ = lam(instance, F)
    constants = {"lambda": lam_, "gamma": gamma(lam_), "F": F}
    weights = [job.weight for job in instance.jobs]
    if alpha_mode == "theorem":
        a = alpha_formula(weights, lam_)
        name = "Theorem 5: ALG/OPT <= 4α"
        needs = "(A1), (A2); rigorous when α >= the largest batch with exact oracles (D4)"
    else:
        a, name = alpha, "Lemma 1: ALG/OPT <= 4α"
        needs = "property (ii) in every round; guaranteed when α >= the largest batch with exact oracles"
    constants.update({"alpha": a, "4alpha": 4 * a, "jobs": len(instance.jobs)})
    if oracle == "paper":
        needs += "; the paper oracle is not exact (E5)"
    return Theorem(name, 4.0 * a, constants, needs)


def dual_bound(instance: Instance, jobs: list[int], tau: int, price: np.ndarray) -> float:
    """``D*(δ) = Σ_j max(0, w_j − min_{l ∈ Γ_j} cost_l(δ)) + Σ δ C`` (eq. (10)): for any prices
    ``δ[h, r, t] >= 0`` on local slots ``0..τ`` (slot 0 unused) an upper bound on LP(8) and so on
    the batch optimum (weak duality, spec §2.6). ``Γ_j``: every schedule on the empty cluster."""
    market = Market(instance, tau, price, np.zeros_like(price))
    opts = options(instance)
    total = float((price[:, :, 1:] * np.asarray(instance.capacity, float)[:, :, None]).sum())
    for j in jobs:
        cheapest = math.inf
        for option in opts[j]:
            sums, _ = market.windows(option.shape.d)
            if sums.shape[2]:
                footprint = np.array([option.at(1).footprint(instance, h) for h in range(instance.H)])
                cheapest = min(cheapest, float(np.einsum("hrs,hr->s", sums, footprint).min()))
        total += max(0.0, instance.jobs[j].weight - cheapest)
    return total


def lb_solo(instance: Instance) -> float:
    """LB-solo (§2.7): ``Σ_j w_j (a_j + d^min_j)``, the shortest duration over schedules that fit
    the empty cluster."""
    shortest = horizon(instance, options(instance)).shortest
    return sum(job.weight * (job.arrival + d) for job, d in zip(instance.jobs, shortest))


def lb_fluid(instance: Instance, r: int) -> float:
    """LB-fluid_r (§2.7, Goemans' mean-busy-time bound): resource ``r`` pooled over all servers is
    one machine; job ``j`` needs ``p_j = V_j / ΣC`` time, with ``V_j`` its least volume of ``r`` over
    shapes (one PS). Preemptive WSPT with release dates gives the mean busy times ``M_j`` and
    ``Σ w_j (M_j + p_j / 2)`` is at most any schedule's objective."""
    pool = sum(c[r] for c in instance.capacity)
    jobs = instance.jobs
    ps = instance.framework == "ps"
    p = []
    for j in range(len(jobs)):
        volumes = [s.d * (s.workers * instance.worker_demand[s.m][r]
                          + (instance.ps_demand[ps_type(s.p)][r] if ps else 0.0)) for s in instance.shapes[j]]
        p.append(min(volumes) / pool if pool > 0 else 0.0)
    left = list(p)
    busy = [0.0] * len(jobs)  # Σ piece length x midpoint
    clock = 0.0
    pending = sorted(range(len(jobs)), key=lambda j: (jobs[j].arrival, j))
    while any(x > 1e-12 for x in left):
        ready = [j for j in pending if jobs[j].arrival <= clock + 1e-12 and left[j] > 1e-12]
        if not ready:
            clock = min(jobs[j].arrival for j in pending if left[j] > 1e-12)
            continue
        j = max(ready, key=lambda k: (jobs[k].weight / p[k], -k))
        releases = [jobs[k].arrival for k in pending if jobs[k].arrival > clock + 1e-12]
        run = min([left[j], *(a - clock for a in releases)])
        busy[j] += run * (clock + run / 2)
        left[j] -= run
        clock += run
    return sum(job.weight * (busy[j] / p[j] + p[j] / 2 if p[j] > 0 else job.arrival)
               for j, job in enumerate(jobs))
