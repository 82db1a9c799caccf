"""OASiS's claims as slacks for ``optsched search oasis --target theorem:NAME`` (a negative slack
is a counterexample), and the statements ``optsched reproduce oasis-theory`` scores on random
instances. Theorem 4 (``OPT/P_I <= 2α``) is every family's ``theorem:bound``. Each slack is
relative (divided by the quantity it bounds, at least 1), so a tolerance of rounding reads 0.

* ``dual`` (Theorem 2's dual part, [A10]): OASiS's payoffs and final prices are claimed feasible
  for the dual (19)/(20). The slack is ``−Δ``, with ``Δ = Σ_i (μ*_i − μ_i)^+`` the dual
  infeasibility measured by :func:`theory.dual_check` (golden case Ex2 has ``Δ = 4.891``).
* ``prices`` (Appendix A (1)): the price function (22) runs from ``L`` to ``U`` and prices never
  fall: the prices each job met, rebuilt from the schedule alone, stay in ``[L, U^r]`` and each is
  at least the one before. The slack is the least margin, over the floor and ceiling and between
  successive prices, relative to the price.
* ``first-admitted`` (Appendix A (2)): the first job that can run at all is admitted with payoff
  ``μ >= f/2``. The slack is ``(μ − f/2)/f``, and −1 if it is rejected.
* ``full-server`` (Appendix A (3)): a server slot full in one resource prices out every schedule
  through it: with every price at its floor but that one at ``U^r``, no enumerated schedule of a job
  that needs ``r`` with a worker there earns a positive payoff. The slack is the least
  ``(cost − utility)/max(1, utility)`` over schedules, their worker cells and resources; it does not
  apply where a job has too many schedules to enumerate.
* ``theorem1`` (Theorem 1): Algorithm 2 returns each job's best schedule: at the prices and free
  capacity the job met in OASiS's run, its payoff equals the best payoff of every enumerated schedule
  that fits (:func:`columns.enumerate_columns`; 0 when none pays). The slack is the least
  ``(found − best)/max(1, best)``; it does not apply where a job has too many schedules to enumerate.
* ``theorem3`` (Theorem 3, as operation counts, spec §4.4): for every job that can run, at unit
  prices on the empty cluster, ``COST_t`` evaluations at most ``S(N + 1)`` and, in mode A, DP
  transitions at most ``S(W + 1)(N + 1)``. The slack is the least spare share of a count to its bound.
* ``initial-dual`` ((33)-(35)): ``D_0 <= OPT/2``. The slack is ``(OPT/2 − D_0)/OPT``.
* ``lemma1`` (Lemma 1, certified form, spec §4.6): ``P_I >= (OPT/2 − Δ)/α_disc``
  (:func:`theory.certified_lower_bound`). The slack is ``(P_I − bound)/OPT``.
* ``lemma2`` (Lemma 2, the paper's α): every admitted job raises the primal by at least ``1/α`` of
  the dual's rise, ``f_i >= (D_i − D_{i−1})/α``. The slack is the least ``(f_i − ΔD_i/α)/max(1, ΔD_i)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from .columns import TooManyColumns, enumerate_columns
from .instance import Instance
from .online import OasisRun, Step, run_oasis
from .subroutine import SubroutineCounters, best_schedule
from .theory import alpha_discrete, certified_lower_bound, constants, dual_check

#: A price margin within this (relative, or in log price) is floating-point rounding, not a fall.
ROUNDING = 1e-9


def _run(instance: Instance, params: dict) -> OasisRun:
    return run_oasis(instance, **{k: v for k, v in params.items() if k != "seed"})


def dual_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """Theorem 2 as a search target: minus the infeasibility of OASiS's payoffs and final prices in the dual
    (19)/(20) [A10] (positive: the dual was feasible), with the violating jobs and the dual values."""
    run = _run(instance, params)
    check = dual_check(instance, run.prices_w, run.prices_p, run.payoffs)
    return -check.infeasibility, {"infeasibility": check.infeasibility, "violating_jobs": check.violating_jobs,
                                  "dual": check.dual, "repaired_dual": check.repaired_dual, "primal": run.primal}


def _markets(instance: Instance, run: OasisRun) -> Iterator[tuple[Step, dict[str, np.ndarray], np.ndarray, np.ndarray]]:
    """``(step, prices, used_w, used_p)`` before each job of ``run`` is handled, rebuilt from the
    schedule's plans alone (independent of the run's own bookkeeping); ``prices`` per pool."""
    c = run.constants
    cap_w, cap_p = np.asarray(instance.worker_servers, float), np.asarray(instance.ps_servers, float)
    used_w, used_p = np.zeros((instance.T, instance.H, instance.R)), np.zeros((instance.T, instance.K, instance.R))
    for step in run.steps:
        yield step, {"worker": c.prices(used_w, cap_w, "worker"), "ps": c.prices(used_p, cap_p, "ps")}, used_w, used_p
        job, plan = instance.jobs[step.job], run.schedule.plans[step.job]
        for t, h, n in plan.workers:
            used_w[t - 1, h] += n * np.asarray(job.worker_demand)
        for t, k, n in plan.ps:
            used_p[t - 1, k] += n * np.asarray(job.ps_demand)


def prices_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``prices`` check (module docstring): the prices before each job and after the last."""
    run = _run(instance, params)
    c = run.constants
    cap_w, cap_p = np.asarray(instance.worker_servers, float), np.asarray(instance.ps_servers, float)
    seen = [prices for _, prices, _, _ in _markets(instance, run)]
    seen.append({"worker": c.prices(run.used_w, cap_w, "worker"), "ps": c.prices(run.used_p, cap_p, "ps")})
    slack = math.inf
    for before, prices in zip([None, *seen], seen):
        for pool, log_L, log_U in (("worker", c.log_L1, c.log_U1), ("ps", c.log_L2, c.log_U2)):
            price = prices[pool]
            if not price.size:
                continue
            slack = min(slack, float(np.min(np.log(price) - log_L)), float(np.min(np.asarray(log_U) - np.log(price))))
            if before is not None:
                slack = min(slack, float(np.min((price - before[pool]) / price)))
    return (0.0 if slack == math.inf or -ROUNDING < slack < 0 else slack), {"steps": len(run.steps)}


def full_server_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``full-server`` check (module docstring): a schedule's cost with one full cell is its cost
    at the floor prices plus ``y w_r (U^r − L)`` for its ``y`` workers in that cell."""
    c = constants(instance, u_scale=params.get("u_scale", 1.0), l_scale=params.get("l_scale", 1.0))  # OASiS's own
    L1, L2 = math.exp(c.log_L1), math.exp(c.log_L2)
    slack, checked = math.inf, 0
    for i, job in enumerate(instance.jobs):
        w, z = np.asarray(job.worker_demand, float), np.asarray(job.ps_demand, float)
        try:
            columns = enumerate_columns(instance, i)
        except TooManyColumns:
            return 1.0, {"applies": False, "why": f"job {i} has too many schedules to enumerate"}
        for col in columns:
            floor = L1 * w.sum() * sum(y for _, _, y in col.workers) + L2 * z.sum() * sum(n for _, _, n in col.ps)
            for _, h, y in col.workers:
                for r in range(instance.R):
                    if w[r] <= 0 or instance.worker_servers[h][r] <= 0:
                        continue
                    cost = floor + y * w[r] * (math.exp(c.log_U1[r]) - L1)
                    slack = min(slack, (cost - col.utility) / max(1.0, col.utility))
                    checked += 1
    if not checked:
        return 1.0, {"applies": False, "why": "no schedule has a worker on a resource it needs"}
    return (0.0 if -ROUNDING < slack < 0 else slack), {"checked": checked}


def theorem1_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``theorem1`` check (module docstring)."""
    run = _run(instance, params)
    cap_w, cap_p = np.asarray(instance.worker_servers, float), np.asarray(instance.ps_servers, float)
    slack, worst = 1.0, None
    for step, prices, used_w, used_p in _markets(instance, run):
        i, job = step.job, instance.jobs[step.job]
        free_w, free_p = cap_w[None] - used_w, cap_p[None] - used_p
        try:
            columns = enumerate_columns(instance, i)
        except TooManyColumns:
            return 1.0, {"applies": False, "why": f"job {i} has too many schedules to enumerate"}
        w, z = np.asarray(job.worker_demand), np.asarray(job.ps_demand)
        best = 0.0
        for col in columns:
            if all(np.all(w * y <= free_w[t - 1, h] + 1e-9) for t, h, y in col.workers) and \
                    all(np.all(z * n <= free_p[t - 1, k] + 1e-9) for t, k, n in col.ps):
                cost = (sum(y * prices["worker"][t - 1, h] @ w for t, h, y in col.workers)
                        + sum(n * prices["ps"][t - 1, k] @ z for t, k, n in col.ps))
                best = max(best, col.utility - float(cost))
        plan = best_schedule(instance, i, prices["worker"], prices["ps"], free_w, free_p)
        found = plan.payoff if plan is not None else 0.0
        gap = (found - best) / max(1.0, abs(best))
        if gap < slack:
            slack, worst = gap, {"job": i, "found": found, "best": best}
    return (0.0 if slack > -ROUNDING else slack), {"worst": worst}


def theorem3_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``theorem3`` check (module docstring)."""
    T, H, K, R = instance.T, instance.H, instance.K, instance.R
    free_w = np.broadcast_to(np.asarray(instance.worker_servers, float), (T, H, R))
    free_p = np.broadcast_to(np.asarray(instance.ps_servers, float), (T, K, R))
    spare = []
    for i, (job, facts) in enumerate(zip(instance.jobs, instance.facts)):
        if not facts.feasible:
            continue
        counters = SubroutineCounters()
        best_schedule(instance, i, np.ones((T, H, R)), np.ones((T, K, R)), free_w, free_p, counters=counters)
        bound = facts.slots * (job.chunks + 1)
        spare.append((bound - counters.cost_evaluations) / bound)
        if instance.mode == "worker_slots":
            bound = facts.slots * (facts.W + 1) * (job.chunks + 1)
            spare.append((bound - counters.dp_transitions) / bound)
    if not spare:
        return 1.0, {"applies": False, "why": "no job can run"}
    return min(spare), {"jobs": len(spare)}


def first_admitted_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``first-admitted`` check (module docstring); it does not apply where no job can run."""
    run = _run(instance, params)
    first = next((s for s in run.steps if instance.facts[s.job].feasible), None)
    if first is None:
        return 1.0, {"applies": False, "why": "no job can run on the empty cluster"}
    if not first.admitted:
        return -1.0, {"job": first.job, "admitted": False}
    scale = first.utility if first.utility > 0 else 1.0
    return (first.payoff - first.utility / 2) / scale, {"job": first.job, "payoff": first.payoff,
                                                        "utility": first.utility}


def initial_dual_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``initial-dual`` check (module docstring); ``optimum`` is the proven OPT."""
    run = _run(instance, params)
    assert optimum is not None
    return (optimum / 2 - run.initial_dual) / optimum, {"D0": run.initial_dual, "opt": optimum}


def lemma1_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma1`` check (module docstring); ``optimum`` is the proven OPT."""
    run = _run(instance, params)
    assert optimum is not None
    check = dual_check(instance, run.prices_w, run.prices_p, run.payoffs)
    alpha_disc = alpha_discrete(run.constants, run.delta)
    bound = certified_lower_bound(optimum, check.infeasibility, alpha_disc)
    return (run.primal - bound) / optimum, {"primal": run.primal, "bound": bound, "alpha_disc": alpha_disc,
                                            "infeasibility": check.infeasibility}


def lemma2_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma2`` check (module docstring), with the paper's α; the worst job in the details."""
    run = _run(instance, params)
    alpha = run.constants.alpha
    admitted = [s for s in run.steps if s.admitted]
    if not admitted:
        return 1.0, {"applies": False, "why": "no job admitted"}
    gaps = [((s.utility - s.dual_increase / alpha) / max(1.0, s.dual_increase), s.job) for s in admitted]
    slack, job = min(gaps)
    return slack, {"alpha": alpha, "job": job, "failing_jobs": sum(g < 0 for g, _ in gaps), "admitted": len(admitted)}
