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
* ``initial-dual`` ((33)-(35)): ``D_0 <= OPT/2``. The slack is ``(OPT/2 − D_0)/OPT``.
* ``lemma1`` (Lemma 1, certified form, spec §4.6): ``P_I >= (OPT/2 − Δ)/α_disc``
  (:func:`theory.certified_lower_bound`). The slack is ``(P_I − bound)/OPT``.
* ``lemma2`` (Lemma 2, the paper's α): every admitted job raises the primal by at least ``1/α`` of
  the dual's rise, ``f_i >= (D_i − D_{i−1})/α``. The slack is the least ``(f_i − ΔD_i/α)/max(1, ΔD_i)``.
"""

from __future__ import annotations

import math

import numpy as np

from .instance import Instance
from .online import OasisRun, run_oasis
from .theory import alpha_discrete, certified_lower_bound, dual_check

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


def prices_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``prices`` check (module docstring): usage rebuilt job by job from the schedule's plans."""
    run = _run(instance, params)
    c = run.constants
    cap_w, cap_p = np.asarray(instance.worker_servers, float), np.asarray(instance.ps_servers, float)
    used_w, used_p = np.zeros((instance.T, instance.H, instance.R)), np.zeros((instance.T, instance.K, instance.R))
    slack = math.inf
    previous: dict[str, np.ndarray] = {}
    for step in run.steps:
        job, plan = instance.jobs[step.job], run.schedule.plans[step.job]
        for t, h, n in plan.workers:
            used_w[t - 1, h] += n * np.asarray(job.worker_demand)
        for t, k, n in plan.ps:
            used_p[t - 1, k] += n * np.asarray(job.ps_demand)
        for pool, used, cap, log_L, log_U in (("worker", used_w, cap_w, c.log_L1, c.log_U1),
                                              ("ps", used_p, cap_p, c.log_L2, c.log_U2)):
            price = c.prices(used, cap, pool)
            slack = min(slack, float(np.min(np.log(price) - log_L)), float(np.min(np.asarray(log_U) - np.log(price))))
            if pool in previous:
                slack = min(slack, float(np.min((price - previous[pool]) / price)))
            previous[pool] = price
    return (0.0 if slack == math.inf or -ROUNDING < slack < 0 else slack), {"steps": len(run.steps)}


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
