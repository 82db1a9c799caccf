"""OASiS's constants, price functions and competitive bounds (paper §IV-B, Appendix A, E; spec §3.1, §4).

Constants (23)-(26) as the spec resolves them, over jobs that can run at all [A28]:

* ``U_1^r = max_{i: w_i^r > 0} f_i(n_min − 1) / w_i^r`` [A3]; ``U_2^r`` with ``s_i^r``. If no job uses
  ``r``, ``U := L`` (a flat price) and ``r`` stays out of ``α`` [A4].
* ``η_1 = max(1, max_i T Σ_h Σ_r c_h^r / (W_i Σ_r w_i^r))``, the smallest valid value [A7].
* ``L_1 = (1/(4 η_1)) min_i f_i(T − a_i) / (W_i Σ_r w_i^r)``; ``f`` floored at ``utility_floor``
  where it underflows or is 0 [A8]. Everything is kept as logarithms.
* ``α = max_r (1, ln(U_1^r/L_1), ln(U_2^r/L_2))``; Theorem 4 claims ``OPT / P_I <= 2α``.
* ``u_scale`` (Fig. 6, [A16]) replaces ``U`` by ``max(π U, L)``; ``l_scale`` divides ``L`` instead.

Price functions (22): ``P(g) = L_1 (U_1^r/L_1)^{g/c}`` (exponent 0 when ``c = 0`` [A5]).
The discrete correction of §4.6, ``α_disc``, is what hard assertions use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..registry import Theorem
from .instance import Instance
from .subroutine import best_schedule

#: Utilities below this count as this in L_1, L_2 (log space cannot take log 0) [A8].
UTILITY_FLOOR = 1e-12


@dataclass(frozen=True)
class Constants:
    """The price-function constants (23)-(26) as logarithms [A8]: L_1, L_2, U_1 and U_2 per resource, η_1, η_2, and
    which resources any job uses."""
    log_L1: float
    log_L2: float
    log_U1: tuple[float, ...]  #: per resource
    log_U2: tuple[float, ...]
    eta1: float
    eta2: float
    used1: tuple[bool, ...]  #: some runnable job's worker needs resource r
    used2: tuple[bool, ...]

    @property
    def alpha(self) -> float:
        """``α = max_r(1, ln(U_1^r/L_1), ln(U_2^r/L_2))`` over the resources some job uses."""
        logs = [u - self.log_L1 for u, used in zip(self.log_U1, self.used1) if used]
        logs += [u - self.log_L2 for u, used in zip(self.log_U2, self.used2) if used]
        return max([1.0, *logs])

    def prices(self, used: np.ndarray, capacity: np.ndarray, pool: str) -> np.ndarray:
        """Price function (22) applied element-wise: ``used`` has shape (..., servers, R), ``capacity``
        (servers, R); ``pool`` is ``"worker"`` or ``"ps"``."""
        log_L, log_U = (self.log_L1, self.log_U1) if pool == "worker" else (self.log_L2, self.log_U2)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(capacity > 0, used / capacity, 0.0)
        return np.exp(log_L + share * (np.asarray(log_U) - log_L))

    def to_dict(self) -> dict:
        """This ``Constants`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"L1": math.exp(self.log_L1), "L2": math.exp(self.log_L2),
                "U1": [math.exp(u) for u in self.log_U1], "U2": [math.exp(u) for u in self.log_U2],
                "log_L1": self.log_L1, "log_L2": self.log_L2, "eta1": self.eta1, "eta2": self.eta2,
                "alpha": self.alpha}


def constants(instance: Instance, *, utility_floor: float = UTILITY_FLOOR, u_scale: float = 1.0,
              l_scale: float = 1.0, from_instance: Instance | None = None) -> Constants:
    """Constants (23)-(26) for ``instance``, computed from ``from_instance`` (default: the instance
    itself, i.e. clairvoyant) with the resolutions listed in the module docstring."""
    source = from_instance if from_instance is not None else instance
    runnable = [(job, facts) for job, facts in zip(source.jobs, source.facts) if facts.feasible]
    R = instance.R
    T = instance.T
    floor = math.log(utility_floor)
    if not runnable:
        zero = (0.0,) * R
        return Constants(0.0, 0.0, zero, zero, 1.0, 1.0, (False,) * R, (False,) * R)

    def log_f(job, d):
        return max(job.utility.log_value(d), floor)

    total_w = sum(sum(c) for c in instance.worker_servers)
    total_p = sum(sum(c) for c in instance.ps_servers)
    eta1 = max([1.0] + [T * total_w / (f.W * sum(j.worker_demand)) for j, f in runnable])
    eta2 = max([1.0] + [T * total_p / (f.W * sum(j.ps_demand)) for j, f in runnable])
    log_L1 = -math.log(4 * eta1 * l_scale) + min(log_f(j, T - j.arrival) - math.log(f.W * sum(j.worker_demand))
                                                 for j, f in runnable)
    log_L2 = -math.log(4 * eta2 * l_scale) + min(log_f(j, T - j.arrival) - math.log(f.W * sum(j.ps_demand))
                                                 for j, f in runnable)

    def upper(demand_of, log_L):
        logs, used = [], []
        for r in range(R):
            values = [log_f(j, f.n_min - 1) - math.log(demand_of(j)[r]) for j, f in runnable if demand_of(j)[r] > 0]
            used.append(bool(values))
            log_U = max(values) + math.log(u_scale) if values else log_L
            logs.append(max(log_U, log_L))
        return tuple(logs), tuple(used)

    log_U1, used1 = upper(lambda j: j.worker_demand, log_L1)
    log_U2, used2 = upper(lambda j: j.ps_demand, log_L2)
    return Constants(log_L1, log_L2, log_U1, log_U2, eta1, eta2, used1, used2)


def initial_dual(instance: Instance, c: Constants) -> float:
    """``D_0 = T L_1 Σ_h Σ_r c_h^r + T L_2 Σ_k Σ_r c_k^r`` (all prices at their floor)."""
    return instance.T * (math.exp(c.log_L1) * sum(map(sum, instance.worker_servers))
                         + math.exp(c.log_L2) * sum(map(sum, instance.ps_servers)))


def peak_load(instance: Instance, schedule) -> float:
    """The largest share of one server's resource a schedule uses in one slot, ``max_{t,h,r} Σ_i
    y_ih(t) w_i^r / c_h^r`` over worker and PS servers: 1 where a capacity binds."""
    used: dict[tuple[str, int, int, int], float] = {}
    for job, plan in zip(instance.jobs, schedule.plans):
        for kind, entries, demand in (("worker", plan.workers, job.worker_demand), ("ps", plan.ps, job.ps_demand)):
            for t, h, n in entries:
                for r, need in enumerate(demand):
                    used[kind, t, h, r] = used.get((kind, t, h, r), 0.0) + n * need
    capacity = {"worker": instance.worker_servers, "ps": instance.ps_servers}
    return max((v / capacity[kind][h][r] for (kind, _, h, r), v in used.items() if capacity[kind][h][r] > 0),
               default=0.0)


def largest_share(instance: Instance) -> float:
    """A-priori ``δ``: the largest fraction of one server's resource one job can take in a slot,
    ``max_i max_r min(N_i, cap) w_i^r / c^r`` over servers where the job fits (spec §4.6)."""
    delta = 0.0
    for job, facts in zip(instance.jobs, instance.facts):
        if not facts.feasible:
            continue
        for pool, demand, caps in ((instance.worker_servers, job.worker_demand, facts.worker_cap),
                                   (instance.ps_servers, job.ps_demand, facts.ps_cap)):
            for c, cap in zip(pool, caps):
                for r, need in enumerate(demand):
                    if need > 0 and c[r] > 0 and cap > 0:
                        delta = max(delta, cap * need / c[r])
    return min(delta, 1.0)


def alpha_discrete(c: Constants, delta: float) -> float:
    """``α_disc = max(1, max_r (e^{a_r δ} − 1)/δ)``, ``a_r = ln(U^r/L)``: Definition 1 holds for every
    increment of at most ``δ`` of a server (spec §4.6)."""
    if delta <= 0:
        return c.alpha
    logs = [u - c.log_L1 for u, used in zip(c.log_U1, c.used1) if used]
    logs += [u - c.log_L2 for u, used in zip(c.log_U2, c.used2) if used]
    return max([1.0] + [math.expm1(a * delta) / delta for a in logs])


def paper_bound(c: Constants) -> float:
    """Theorem 4's competitive ratio ``2α`` (holds only when every demand is small next to capacity)."""
    return 2 * c.alpha


def certified_lower_bound(opt: float, infeasibility: float, alpha_disc: float) -> float:
    """``P_I >= (OPT/2 − Δ)/α_disc``: Lemma 1 with the repaired dual (spec §4.6), valid when OPT > 0."""
    return (opt / 2 - infeasibility) / alpha_disc


@dataclass(frozen=True)
class DualCheck:
    """How far OASiS's dual ``(μ, p, q)`` is from feasible for (19)/(20) (spec §2.5 (g), [A10])."""

    best_payoffs: tuple[float, ...]  #: μ*_i: the best payoff of job i at the final prices, empty cluster
    infeasibility: float  #: Δ = Σ_i (μ*_i − μ_i)^+
    violating_jobs: int  #: jobs with μ*_i > μ_i (beyond tolerance)
    dual: float  #: D_I at OASiS's own μ
    repaired_dual: float  #: D^rep = Σ_i max(μ_i, μ*_i) + Σ p c + Σ q c, always >= LP(14) >= OPT


def dual_check(instance: Instance, prices_w: np.ndarray, prices_p: np.ndarray,
               payoffs: tuple[float, ...], tol: float = 1e-9) -> DualCheck:
    """Measure dual feasibility of ``(payoffs, prices)``: (20) holds for job ``i`` iff
    ``μ_i >= μ*_i``, where μ*_i comes from Algorithm 2 with the final prices and the job's
    single-server capacity only (exact for this pricing problem, Theorem 1)."""
    cap_w = np.broadcast_to(np.asarray(instance.worker_servers, float), prices_w.shape)
    cap_p = np.broadcast_to(np.asarray(instance.ps_servers, float), prices_p.shape)
    best = []
    for i in range(len(instance.jobs)):
        plan = best_schedule(instance, i, prices_w, prices_p, cap_w, cap_p)
        best.append(plan.payoff if plan is not None else 0.0)
    resource_value = float((prices_w * cap_w).sum() + (prices_p * cap_p).sum())
    gaps = [max(0.0, b - m) for b, m in zip(best, payoffs)]
    scale = max([1.0, *best])
    return DualCheck(tuple(best), sum(gaps), sum(g > tol * scale for g in gaps),
                     sum(payoffs) + resource_value,
                     sum(max(m, b) for m, b in zip(payoffs, best)) + resource_value)


def theorem4(instance: Instance, *, u_scale: float = 1.0, l_scale: float = 1.0,
             literal: bool = False) -> Theorem | None:
    """Theorem 4 for a run of OASiS with ``params``: ``OPT / P_I <= 2α`` with the clairvoyant
    constants (23)-(26); None when ``u_scale`` or ``l_scale`` perturb them (Fig. 6), where it claims
    nothing. α_disc and δ (spec §4.6) are reported with it: the claim needs δ small."""
    if u_scale != 1.0 or l_scale != 1.0:
        return None
    c = constants(instance)
    delta = largest_share(instance)
    return Theorem("Theorem 4: OPT/P <= 2α", paper_bound(c),
                   {"alpha": c.alpha, "alpha_disc": alpha_discrete(c, delta), "delta": delta},
                   "every job's demand is small next to a server's capacity (δ -> 0)")
