"""OASiS, Algorithm 1 of the paper (§IV-B; spec §3.2): primal-dual online admission and scheduling.

Jobs arrive through an :class:`~optsched.arrivals.ArrivalStream`. For each, Algorithm 2
(:func:`~optsched.oasis.subroutine.best_schedule`) finds the schedule with the best payoff
``μ_i = f_i − cost`` at the current prices and free capacity; the job is admitted iff ``μ_i > 0``
(strict, [A26]), its plan is fixed for good, and the prices of the server-slots it uses rise by (22).

The constants (23)-(26) need every job; by default they come from the instance itself (clairvoyant
constants, as the theorem checks need). Pass ``constants=`` (e.g. computed from a training instance
with :func:`~optsched.oasis.theory.constants`) for the estimated variant, or ``u_scale`` for Fig. 6.

:func:`run_oasis` returns the schedule with the dual solution (final prices ``p``, ``q`` and payoffs
``μ``) and a per-job record of ``P_i − P_{i−1}`` and ``D_i − D_{i−1}`` for Lemmas 1-2.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..arrivals import ArrivalStream
from .instance import Instance
from .schedule import REJECTED, Schedule
from .subroutine import SubroutineCounters, best_schedule
from .theory import Constants, initial_dual
from .theory import constants as compute_constants


@dataclass(frozen=True)
class Step:
    """What happened when job ``job`` arrived."""

    job: int
    admitted: bool
    payoff: float  #: μ_i (0 if rejected)
    utility: float  #: f_i(t̂_i − a_i) if admitted, else 0 (= P_i − P_{i−1})
    dual_increase: float  #: D_i − D_{i−1} = μ_i + Σ c Δp + Σ c Δq
    dual: float  #: D_i
    share: float  #: largest w^r y / c^r this job takes on one server-slot (δ of §4.6)
    seconds: float = 0.0  #: wall time of this decision: Algorithm 2 and the price update


@dataclass
class OasisRun:
    """A run of OASiS (Algorithm 1): the schedule, the constants (23)-(26), the initial dual D_0, each arrival's
    step (payoff, utility, dual increase, share), the final prices, the usage and the counters."""
    schedule: Schedule
    constants: Constants
    initial_dual: float  #: D_0
    steps: list[Step]
    prices_w: np.ndarray  #: final p_h^r(t), shape (T, H, R)
    prices_p: np.ndarray  #: final q_k^r(t), shape (T, K, R)
    used_w: np.ndarray  #: final g_h^r(t)
    used_p: np.ndarray  #: final v_k^r(t)
    counters: SubroutineCounters = field(default_factory=SubroutineCounters)

    @property
    def payoffs(self) -> tuple[float, ...]:
        """μ_i per job, in instance order."""
        by_job = {s.job: s.payoff for s in self.steps}
        return tuple(by_job.get(i, 0.0) for i in range(len(self.schedule.plans)))

    @property
    def primal(self) -> float:
        """P_I, the total utility."""
        return sum(s.utility for s in self.steps)

    @property
    def dual(self) -> float:
        """D_I, the dual objective (19) at OASiS's variables (not necessarily feasible [A10])."""
        return self.steps[-1].dual if self.steps else self.initial_dual

    @property
    def delta(self) -> float:
        """δ: the largest share of any server's resource one admitted job took (Appendix E assumes it small)."""
        return max((s.share for s in self.steps), default=0.0)


def run_oasis(instance: Instance, *, constants: Constants | None = None, u_scale: float = 1.0,
              l_scale: float = 1.0, literal: bool = False) -> OasisRun:
    """Algorithm 1 on the whole arrival sequence; see the module docstring.

    References
    ----------
    .. [1] Y. Bao, Y. Peng, C. Wu, and Z. Li, “Online Job Scheduling in Distributed Machine Learning Clusters,” IEEE
       INFOCOM, 2018; Algorithms 1 and 2.
    """
    c = constants if constants is not None else compute_constants(instance, u_scale=u_scale, l_scale=l_scale)
    T, H, K, R = instance.T, instance.H, instance.K, instance.R
    cap_w, cap_p = np.asarray(instance.worker_servers, float), np.asarray(instance.ps_servers, float)
    used_w, used_p = np.zeros((T, H, R)), np.zeros((T, K, R))
    prices_w, prices_p = c.prices(used_w, cap_w, "worker"), c.prices(used_p, cap_p, "ps")
    d0 = initial_dual(instance, c)
    resource_value = d0  # Σ p c + Σ q c, kept up to date
    payoff_total = 0.0
    plans = [REJECTED] * len(instance.jobs)
    steps: list[Step] = []
    counters = SubroutineCounters()
    stream = ArrivalStream(list(range(len(instance.jobs))), lambda i: instance.jobs[i].arrival)
    while not stream.exhausted:
        for _, i in stream.wait():
            job = instance.jobs[i]
            started = time.perf_counter()
            plan = best_schedule(instance, i, prices_w, prices_p, cap_w - used_w, cap_p - used_p,
                                 literal=literal, counters=counters)
            if plan is None:
                steps.append(Step(i, False, 0.0, 0.0, 0.0, payoff_total + resource_value, 0.0,
                                  time.perf_counter() - started))
                continue
            before = resource_value
            share = 0.0
            for pool, counts, demand, used, prices, cap in (
                    ("worker", plan.workers, job.worker_demand, used_w, prices_w, cap_w),
                    ("ps", plan.ps, job.ps_demand, used_p, prices_p, cap_p)):
                rows, servers = np.nonzero(counts)
                slots = plan.first - 1 + rows
                increment = counts[rows, servers][:, None] * np.asarray(demand)[None, :]
                used[slots, servers] += increment
                old = prices[slots, servers]
                prices[slots, servers] = c.prices(used[slots, servers], cap[servers], pool)
                resource_value += float(((prices[slots, servers] - old) * cap[servers]).sum())
                with np.errstate(divide="ignore", invalid="ignore"):
                    shares = np.where(cap[servers] > 0, increment / cap[servers], 0.0)
                share = max(share, float(shares.max(initial=0.0)))
            payoff_total += plan.payoff
            plans[i] = plan.to_job_plan()
            steps.append(Step(i, True, plan.payoff, plan.utility, plan.payoff + resource_value - before,
                              payoff_total + resource_value, share, time.perf_counter() - started))
    return OasisRun(Schedule(tuple(plans)), c, d0, steps, prices_w, prices_p, used_w, used_p, counters)


def oasis(instance: Instance, *, seed: int = 0, u_scale: float = 1.0, l_scale: float = 1.0,
          literal: bool = False) -> Schedule:
    """OASiS with clairvoyant constants (registry entry); ``u_scale`` and ``l_scale`` perturb U and L
    as in Fig. 6 [A16]; ``literal`` runs the printed chunk DP in the ``chunks`` mode.

    References
    ----------
    .. [1] Y. Bao, Y. Peng, C. Wu, and Z. Li, “Online Job Scheduling in Distributed Machine Learning Clusters,” IEEE
       INFOCOM, 2018; Algorithm 1 (OASiS).
    """
    return run_oasis(instance, u_scale=u_scale, l_scale=l_scale, literal=literal).schedule
