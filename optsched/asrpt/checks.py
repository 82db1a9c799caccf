"""Luo et al.'s Lemma 2 as a slack for ``optsched search asrpt --target theorem:NAME`` (a negative
slack is a counterexample). Theorem 1 is every family's ``theorem:bound``.

* ``lemma2`` (Lemma 2, spec asrpt.md §4): A-SRPT's total completion time is at most
  ``(1 + τ + ρG/(G − g^max)) OPT_{Ã_1} + I g^max α^max ε / (G − g^max) + ρ OPT_A``
  (:func:`theory.lemma2_bound`, with ``OPT_A`` the proven optimum). The slack is
  ``(bound − Γ_A) / max(bound, Γ_A)``, at most 1. Outside the lemma's proof (the non-blocking variant
  [A14], ``g^max >= G``, or an ``α^min`` the placement ILP did not prove) the claim does not apply:
  the slack is 1, the most a holding claim can have, so the search prefers any instance where it does.
"""

from __future__ import annotations

from ..errors import SolverFailure
from ..registry import get
from .instance import Instance
from .theory import constants, lemma2_bound

#: The slack where the lemma does not apply: the largest a relative slack that holds can be.
NOT_APPLICABLE = 1.0


def lemma2_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma2`` check (module docstring); ``optimum`` is the proven ``OPT_A``."""
    tau = float(params.get("tau", 1.0))
    if not params.get("blocking", True) or optimum is None:
        return NOT_APPLICABLE, {"applies": False, "why": "Lemma 2 is proved for the blocking wait [A14]"}
    perfect = algorithm == "asrpt-perfect"
    try:
        c = constants(instance, perfect)
    except SolverFailure as failure:
        return NOT_APPLICABLE, {"applies": False, "why": f"alpha^min not proven: {failure}"}
    if c.g_max >= c.G:
        return NOT_APPLICABLE, {"applies": False, "why": f"g^max = {c.g_max} >= G = {c.G}"}
    bound = lemma2_bound(instance, optimum, tau, perfect)
    ran = get("asrpt").run(instance, algorithm, **params)
    if ran.objective is None:
        raise RuntimeError(f"{algorithm}'s schedule fails the verifier: {ran.verdict.violations[0]}")
    gamma = ran.objective
    return (bound - gamma) / max(bound, gamma), {"applies": True, "alg": gamma, "opt": optimum, "bound": bound}
