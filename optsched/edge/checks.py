"""The edge paper's claims as slacks for ``optsched search edge --target theorem:NAME`` (a negative
slack is a counterexample). Theorem 3's ratio is every family's ``theorem:bound`` where declared.

* ``lemma2b`` (Lemma 2(b), [E19]): the fitted duals ``(α, β)`` of A_online satisfy (6a) for every
  chunk, worker and slot. The slack is ``−max(α − rhs)`` over all of them
  (:func:`theory.fitted_dual_check`, exact in fractions; CE1 and CE2 violate it).
"""

from __future__ import annotations

from .instance import Instance
from .online import run_aonline
from .theory import fitted_dual_check


def lemma2b_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """Lemma 2(b) as a search target: minus the largest violation of dual constraint (6a) by the fitted duals of
    A_online's run (positive slack: the lemma held), with the violations' details."""
    run = run_aonline(instance, q_mode=params.get("q_mode", "timeline"), repaired=params.get("repaired", False),
                      edge_only=algorithm == "aonline-edge")
    check = fitted_dual_check(run, repaired=params.get("repaired", False))
    worst = None if check.worst is None else [str(part) for part in check.worst]
    return -float(check.max_violation), {"violations": check.violations, "on_selected": check.on_selected,
                                         "max_violation": str(check.max_violation), "worst": worst,
                                         "checked": check.checked}
