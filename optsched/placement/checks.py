"""A claim of Luo et al.'s analysis about Heavy-Edge as a slack for ``optsched search placement
--target theorem:NAME`` (a negative slack is a counterexample).

* ``alpha-max`` (spec asrpt.md §1.3, [A23]): ``α^max``, every replica on a server of its own
  (:func:`timing.alpha_max`), is the largest per-iteration time of any placement when
  ``B_intra >= B_inter / g``; Lemma 1's ``ρ = α^max / α^min`` rests on it. So Heavy-Edge's ``α`` is
  at most ``α^max``. The slack is ``(α^max − α_HE) / α^max``, at most 1; where ``B_intra < B_inter / g``
  the claim does not apply: the slack is 1, so the search prefers any instance where it does.
"""

from __future__ import annotations

from ..registry import get
from .instance import Instance
from .timing import alpha_max

#: The slack where the claim does not apply: the largest a relative slack that holds can be.
NOT_APPLICABLE = 1.0


def alpha_max_slack(instance: Instance, algorithm: str, params: dict,
                    optimum: float | None) -> tuple[float, dict]:
    """The ``alpha-max`` check (module docstring)."""
    cluster = instance.cluster
    if cluster.phi > cluster.theta:
        return NOT_APPLICABLE, {"applies": False, "why": "B_intra < B_inter / g: alpha^max is not the largest time"}
    ran = get("placement").run(instance, algorithm, **params)
    if ran.objective is None:
        raise RuntimeError(f"{algorithm}'s placement fails the verifier: {ran.verdict.violations[0]}")
    top = 1000.0 * alpha_max(instance.job, cluster)  # ms, as the family's objective
    return (top - ran.objective) / top, {"applies": True, "alg_ms": ran.objective, "alpha_max_ms": top}
