"""A_online (Algorithm 1) with A_dual (Algorithm 2) and A_maxweight (Algorithm 3); spec §3.2-§3.4.

* :func:`maxweight`: one batch with deadline ``τ`` on fresh capacity. Jobs are taken in order
  (ascending ``(a_j, j)``, D16); each gets the cheapest schedule from the co-located and the
  distributed oracle (ties to co-located) at the prices ``δ = λ^(β/C) − 1`` (eq. (11)) and is
  accepted iff ``u_j = w_j − cost > 0``; accepting raises ``β`` on its window.
* :func:`a_dual`: up to ``α`` sub-rounds of A_maxweight on the jobs still unscheduled, sub-round ``ι``
  in local slots ``(ι−1)τ+1 .. ιτ``; stops early when all are scheduled or a sub-round accepts none.
* :func:`run_aonline`: rounds ``i = 1, 2, ...`` with ``τ_i = 2^(i−1)``; the batch holds the arrived
  (``a_j <= τ_i``, D6), unscheduled jobs; A_dual's local slot ``t`` becomes absolute slot
  ``α τ_i + t − 1`` (D5), so round ``i`` lives in ``[α τ_i, α τ_{i+1})``.

Ties (§3.9): ``tie_break="paper"`` keeps the first cheapest schedule in the paper's loop order (the
co-located oracle wins ties); ``"earliest_completion"`` (D17) prefers, among equal costs, the one
that completes first, then the smaller footprint. Costs, and so every theorem, are unchanged.

Price units (D18): ``normalization="raw"`` (the paper's) charges ``δ`` per raw unit of each resource
(a GPU, a vCPU, a Mbps); ``"per_capacity"`` charges ``δ / max_h C^r_h``, i.e. prices consumption
measured per capacity as in (A1) with the same choice, so that costs of GPUs, vCPUs and bandwidth are
comparable with the weights. In raw units a schedule touching any priced cell costs far more than
its weight (bandwidth counts thousands of Mbps), so every accepted job costs 0 and ``F`` has no effect.

Oracles (§3.0): ``oracle="exact"`` uses the exact distributed PS oracle (§3.6.4), ``"paper"`` the
printed A_mincost1 with errata E1-E4 (not exact, E5). Ring-AllReduce always uses A_RAmincost1/2 with
errata E6-E9 (exact).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..arrivals import ArrivalStream
from . import oracles
from . import theory as th
from .instance import Instance
from .schedule import JobSchedule, Schedule

ALPHA_MODES = ("fixed", "theorem", "per_round_safe")
ORACLES = ("exact", "paper")


class UnschedulableJob(Exception):
    """A job the chosen oracles cannot place on the empty cluster, whatever the deadline (§3.2)."""


def oracle_pair(instance: Instance, oracle: str):
    """The (co-located, distributed) oracles A_maxweight uses for this framework and choice (§3.0)."""
    if instance.framework == "allreduce":
        return oracles.colocated_allreduce, oracles.distributed_allreduce
    return oracles.colocated_ps, (oracles.distributed_exact if oracle == "exact" else oracles.distributed_paper)


@dataclass
class MaxWeight:
    """What A_maxweight did on one batch (Algorithm 3) and its diagnostics (§3.4)."""

    schedules: dict[int, JobSchedule]  #: accepted job -> schedule in local slots 1..τ−1
    accepted: list[int]
    cost: dict[int, float]  #: per processed job, the oracles' cheapest cost (inf: nothing below w_j)
    payoff: dict[int, float]  #: u_j = w_j − cost
    increment: dict[int, float]  #: per accepted job, ΔD_j = u_j + Σ (δ_after − δ_before) C
    price: np.ndarray  #: final δ[h, r, t]
    dual: float  #: D_alg = Σ max(0, u_j) + Σ δ C
    oracle_tuples: list[tuple[int, int]] = field(default_factory=list)  #: per oracle call: (job, tuples priced)

    def weight(self, instance: Instance) -> float:
        """The total weight of the jobs A_maxweight accepted."""
        return sum(instance.jobs[j].weight for j in self.accepted)


def maxweight(instance: Instance, jobs: list[int], tau: int, lam: float, oracle: str = "exact",
              tie_break: str = "paper", normalization: str = "raw") -> MaxWeight:
    """Algorithm 3 on ``jobs`` with deadline ``τ``; prices per raw unit or per capacity (D18). With
    ``per_capacity`` the prices ``δ`` and capacities ``C`` of the dual are in units of each
    resource's largest server capacity, so ``D_alg = Σ u + Σ δ C`` keeps its meaning."""
    colocated, distributed = oracle_pair(instance, oracle)
    market = oracles.Market.empty(instance, tau)
    unit = th.resource_unit(instance, normalization)[None, :, None]
    capacity = np.asarray(instance.capacity, float)[:, :, None]
    used = np.zeros_like(market.price)
    out = MaxWeight({}, [], {}, {}, {}, market.price, 0.0)
    for j in sorted(jobs, key=lambda k: (instance.jobs[k].arrival, k)):
        w = instance.jobs[j].weight
        seen = market.tuples
        cost, schedule = colocated(market, j, below=w, tie_break=tie_break)
        out.oracle_tuples.append((j, market.tuples - seen))
        if cost > 0 or tie_break != "paper":  # the distributed oracle starts from the co-located result
            seen = market.tuples
            cost, schedule = distributed(market, j, below=min(cost, w), tie_break=tie_break, incumbent=schedule)
            out.oracle_tuples.append((j, market.tuples - seen))
        u = w - cost
        out.cost[j], out.payoff[j] = cost, u
        if not u > 0:
            continue
        before = market.price.copy()
        window = slice(schedule.start, schedule.start + schedule.d)
        touched = []
        for h in range(instance.H):
            footprint = np.asarray(schedule.footprint(instance, h))
            used[h, :, window] += footprint[:, None]
            if footprint.any():
                touched.append(h)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(capacity > 0, used / capacity, 0.0)
        market.price = (lam ** share - 1) * unit
        market.residual = capacity - used
        market.changed(servers=touched)  # the other servers' prices and room are the same floats as before
        out.schedules[j] = schedule
        out.accepted.append(j)
        out.increment[j] = u + float(((market.price - before) * capacity).sum())
    out.price = np.divide(market.price, unit, out=np.zeros_like(market.price), where=unit > 0)  # δ itself
    out.dual = sum(max(0.0, u) for u in out.payoff.values()) + float((market.price * capacity).sum())
    return out


@dataclass
class Dual:
    """A_dual on one batch (Algorithm 2): local schedules in ``1..ατ`` and per-sub-round records."""

    schedules: dict[int, JobSchedule]
    accepted: list[int]
    subrounds: list[MaxWeight]  #: one per sub-round run

    def prefix_weights(self, instance: Instance) -> list[float]:
        """``S_ι``: the weight accepted in sub-rounds ``1..ι`` (Lemma 2, (5))."""
        total, out = 0.0, []
        for sub in self.subrounds:
            total += sub.weight(instance)
            out.append(total)
        return out


def a_dual(instance: Instance, batch: list[int], tau: int, alpha: int, lam: float, oracle: str = "exact",
         tie_break: str = "paper", normalization: str = "raw") -> Dual:
    """A_dual (Algorithm 2): up to ``alpha`` sub-rounds of A_maxweight on fresh capacity for the jobs of ``batch`` not
    yet scheduled, sub-round ι in local slots (ι−1)τ+1..ιτ; stops early when all are scheduled or a sub-round
    accepts none."""
    out = Dual({}, [], [])
    for iota in range(1, alpha + 1):
        remaining = [j for j in batch if j not in out.schedules]
        if not remaining:
            break
        sub = maxweight(instance, remaining, tau, lam, oracle, tie_break, normalization)
        out.subrounds.append(sub)
        if not sub.accepted:  # a fresh sub-round on the same jobs would accept none again
            break
        for j in sub.accepted:
            l = sub.schedules[j]
            out.schedules[j] = JobSchedule((iota - 1) * tau + l.start, l.d, l.m, l.p, l.q, l.y, l.s)
            out.accepted.append(j)
    return out


@dataclass
class Round:
    """One round of A_online (Algorithm 1): its index i, τ_i, α, the batch J_i, and A_dual's result (None when the
    batch was empty)."""
    i: int
    tau: int
    alpha: int
    batch: list[int]  #: J_i: arrived by τ_i and not yet scheduled, in order
    result: Dual | None  #: None when the batch was empty


@dataclass
class OnlineRun:
    """A run of A_online: the schedule, its rounds, λ, γ, and the α Theorem 5's formula gives."""
    schedule: Schedule
    rounds: list[Round]
    lam: float
    gamma: float
    alpha_theorem: int
    calls: int = field(default=0)  #: A_maxweight calls

    @property
    def largest_batch(self) -> int:
        """The most jobs any round batched (property (ii) needs α at least this, D4)."""
        return max((len(r.batch) for r in self.rounds), default=0)


def _check_placeable(instance: Instance) -> None:
    """§3.2 termination guard: with zero prices and a deadline allowing every duration, each job
    must get a schedule from the oracles. The exact ones (and the allreduce pair, exact by
    Theorem 6) find one exactly when the job has a shape that fits the empty cluster
    (:attr:`Instance.shape_tables`). So does the paper greedy: a fitting ``q = 0`` shape implies
    that its one-worker shape fits (the PS server has room for ``s(1) <= s(N − g)`` PSs and
    another server hosts a worker), and with one worker the greedy tries every PS server and puts
    the worker on the first other server with room."""
    unfit = instance.unfittable()
    if unfit:
        raise UnschedulableJob(f"job {unfit[0]} fits the empty cluster in no schedule")


def run_aonline(instance: Instance, *, alpha_mode: str = "fixed", alpha: int = 4, oracle: str = "exact",
                F: float = 1.0, lambda_horizon: str = "T", tie_break: str = "paper",
                normalization: str = "raw") -> OnlineRun:
    """Algorithm 1. ``alpha_mode``: ``fixed`` (``alpha``), ``theorem`` (the formula with the
    instance's total weight, offline knowledge, D3) or ``per_round_safe`` (the running maximum of
    the per-round formula over the weights seen so far). ``lambda_horizon="tau"`` uses ``τ_i`` for
    ``T`` in λ (D19). ``normalization``: prices per raw unit (the paper's) or per capacity (D18).

    References
    ----------
    .. [1] R. Zhou, J. Pang, Q. Zhang, C. Wu, L. Jiao, Y. Zhong, and Z. Li, “Online Scheduling Algorithm for
       Heterogeneous Distributed Machine Learning Jobs,” IEEE Transactions on Cloud Computing, vol. 11, no. 2, 2023.
       doi:10.1109/TCC.2022.3143153; Algorithms 1-3 (A_online, A_dual, A_maxweight).
    """
    if alpha_mode not in ALPHA_MODES:
        raise ValueError(f"alpha_mode must be one of {ALPHA_MODES}")
    if oracle not in ORACLES:
        raise ValueError(f"oracle must be one of {ORACLES}")
    if alpha < 1:
        raise ValueError("alpha must be at least 1")
    if tie_break not in oracles.TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {oracles.TIE_BREAKS}")
    th.resource_unit(instance, normalization)  # refuses an unknown normalization before any work
    _check_placeable(instance)
    jobs = instance.jobs
    lam_T = th.lam(instance, F)
    weights = [job.weight for job in jobs]
    alpha_thm = th.alpha_formula(weights, lam_T)
    stream = ArrivalStream(range(len(jobs)), lambda j: jobs[j].arrival)  # jobs by (arrival, index)
    placed: dict[int, JobSchedule] = {}
    waiting: list[int] = []
    rounds: list[Round] = []
    a_prev, w_min, calls, i = 1, math.inf, 0, 1
    while True:
        tau = 2 ** (i - 1)
        for _, j in stream.advance_to(tau):
            waiting.append(j)
            w_min = min(w_min, jobs[j].weight)
        if waiting:
            lam_i = th.lam(instance, F, tau) if lambda_horizon == "tau" else lam_T
            if alpha_mode == "fixed":
                a = alpha
            elif alpha_mode == "theorem":
                a = alpha_thm
            else:
                a = max(a_prev, th.alpha_formula([jobs[j].weight for j in waiting], lam_i, w_min))
            a_prev = a
            result = a_dual(instance, waiting, tau, a, lam_i, oracle, tie_break, normalization)
            calls += len(result.subrounds)
            rounds.append(Round(i, tau, a, list(waiting), result))
            for j in result.accepted:
                l = result.schedules[j]
                placed[j] = JobSchedule(a * tau + l.start - 1, l.d, l.m, l.p, l.q, l.y, l.s)
            waiting = [j for j in waiting if j not in placed]
        if stream.exhausted and not waiting:
            break
        i += 1
    schedule = Schedule(tuple(placed[j] for j in range(len(jobs))))
    return OnlineRun(schedule, rounds, lam_T, th.gamma(lam_T), alpha_thm, calls)


def aonline(instance: Instance, *, seed: int = 0, alpha_mode: str = "fixed", alpha: int = 4, oracle: str = "exact",
            F: float = 1.0, lambda_horizon: str = "T", tie_break: str = "paper",
            normalization: str = "raw") -> Schedule:
    """The registry's entry point: the schedule of :func:`run_aonline` (deterministic; ``seed`` unused).

    References
    ----------
    .. [1] R. Zhou, J. Pang, Q. Zhang, C. Wu, L. Jiao, Y. Zhong, and Z. Li, “Online Scheduling Algorithm for
       Heterogeneous Distributed Machine Learning Jobs,” IEEE Transactions on Cloud Computing, vol. 11, no. 2, 2023.
       doi:10.1109/TCC.2022.3143153; Algorithm 1 (A_online).
    """
    return run_aonline(instance, alpha_mode=alpha_mode, alpha=alpha, oracle=oracle, F=F,
                       lambda_horizon=lambda_horizon, tie_break=tie_break, normalization=normalization).schedule
