"""OASiS's claims as slacks for ``optsched search oasis --target theorem:NAME`` (a negative slack
is a counterexample). Theorem 4 (``OPT/P_I <= 2α``) is every family's ``theorem:bound``.

* ``dual`` (Theorem 2's dual part, [A10]): OASiS's payoffs and final prices are claimed feasible
  for the dual (19)/(20). The slack is ``−Δ``, with ``Δ = Σ_i (μ*_i − μ_i)^+`` the dual
  infeasibility measured by :func:`theory.dual_check` (golden case Ex2 has ``Δ = 4.891``).
"""

from __future__ import annotations

from .instance import Instance
from .online import run_oasis
from .theory import dual_check


def dual_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """Theorem 2 as a search target: minus the infeasibility of OASiS's payoffs and final prices in the dual
    (19)/(20) [A10] (positive: the dual was feasible), with the violating jobs and the dual values."""
    run = run_oasis(instance, **{k: v for k, v in params.items() if k != "seed"})
    check = dual_check(instance, run.prices_w, run.prices_p, run.payoffs)
    return -check.infeasibility, {"infeasibility": check.infeasibility, "violating_jobs": check.violating_jobs,
                                  "dual": check.dual, "repaired_dual": check.repaired_dual, "primal": run.primal}
