"""Luo et al.'s lemmas as slacks for ``optsched search asrpt --target theorem:NAME`` (a negative
slack is a counterexample), and the statements ``optsched reproduce asrpt-theory`` scores on random
instances. Theorem 1 is every family's ``theorem:bound``. Where a lemma's constants need ``α^min``
and the placement ILP did not prove it, the lemma does not apply (slack 1, :data:`NOT_APPLICABLE`).

* ``lemma1`` (Lemma 1): the virtual single-machine optimum with the true iteration counts
  ``OPT_{A_1}`` is at most ``ρ' OPT_A`` (the sharper form of ``ρ OPT_A``), and with ``α^min``
  at most ``OPT_A`` (:func:`theory.virtual_optimum`). The slack is the smaller margin over ``ρ' OPT_A``.
* ``lemma3`` (Lemma 3, eqs. (13)-(15)): with predicted counts, ``OPT_{Ã_1} <= OPT_{A_1} + I Σ_O δ_i
  − Σ_U δ_i <= OPT_{A_1} + I g^max α^max ε / G`` (:func:`theory.lemma3_sharp`,
  :func:`theory.lemma3_bound`). The slack is the smaller margin over the stated bound.

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
from .theory import constants, lemma2_bound, lemma3_bound, lemma3_sharp, virtual_optimum

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


def lemma1_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma1`` check (module docstring); ``optimum`` is the proven ``OPT_A``."""
    assert optimum is not None
    try:
        c = constants(instance)
    except SolverFailure as failure:
        return NOT_APPLICABLE, {"applies": False, "why": f"alpha^min not proven: {failure}"}
    bound = c.rho_prime * optimum
    true, low = virtual_optimum(instance, "true"), virtual_optimum(instance, "min")
    return min(bound - true, optimum - low) / bound, {"opt": optimum, "rho_prime": c.rho_prime, "virtual": true,
                                                     "virtual_min": low}


def lemma3_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma3`` check (module docstring): SRPT totals only, no optimum."""
    try:
        bound = lemma3_bound(instance)
    except SolverFailure as failure:
        return NOT_APPLICABLE, {"applies": False, "why": f"alpha^min not proven: {failure}"}
    tilde, sharp = virtual_optimum(instance, "tilde"), lemma3_sharp(instance)
    return min(sharp - tilde, bound - sharp) / bound, {"predicted": tilde, "sharp": sharp, "bound": bound}
