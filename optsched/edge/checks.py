"""The edge paper's claims as slacks for ``optsched search edge --target theorem:NAME`` (a negative
slack is a counterexample). Theorem 3's ratio is every family's ``theorem:bound`` where declared.

* ``lemma2b`` (Lemma 2(b), [E19]): the fitted duals ``(α, β)`` of A_online satisfy (6a) for every
  chunk, worker and slot. The slack is ``−max(α − rhs)`` over all of them
  (:func:`theory.fitted_dual_check`, exact in fractions; CE1 and CE2 violate it).
* ``lemma1`` (Lemma 1): on A_online's run, ``Σ f_jd <= Σ (1/D_j)(C_jd − r_j) <= Σ_j (C_j − r_j)``
  (:func:`theory.lemma1_chain`). The slack is the smaller of the two margins over the total JCT.
* ``lemma4`` (Lemma 4, with β from the final completions [E15] and the timeline ``Q`` [E16]):
  ``Σα = Σ (1/D)(C − r) = Σβ``, exactly. The slack is minus the two differences over ``Σα``.
* ``theorem3`` (Theorem 3): A_online at speed ``1 + ε`` against the speed-1 optima on the same grid
  (:func:`instance.speed_augmented`): ``Σ f <= (1 + 1/ε) OPT(4)`` (i) and
  ``JCT <= D_max (1 + 1/ε) OPT(2)`` (ii), for ε in :data:`EPSILONS`. The slack is the least
  ``(bound − value)/max(bound, value)`` over both parts and every ε; it does not apply where an
  optimum is not proven within the node budget.
"""

from __future__ import annotations

from fractions import Fraction

from ..limits import NODE_LIMIT
from ..registry import get
from .instance import Instance, speed_augmented
from .online import EdgeRun, run_aonline
from .theory import fitted_dual_check, flow_bound, jct_bound, lemma1_chain

#: The speed-ups ``1 + ε`` Theorem 3 is checked at (the paper's Figs. 12/13 sweep ε up to 0.5).
EPSILONS = (Fraction(1, 2), Fraction(1))


def _run(instance: Instance, algorithm: str, params: dict) -> EdgeRun:
    return run_aonline(instance, q_mode=params.get("q_mode", "timeline"), repaired=params.get("repaired", False),
                       edge_only=algorithm == "aonline-edge")


def lemma2b_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """Lemma 2(b) as a search target: minus the largest violation of dual constraint (6a) by the fitted duals of
    A_online's run (positive slack: the lemma held), with the violations' details."""
    run = _run(instance, algorithm, params)
    check = fitted_dual_check(run, repaired=params.get("repaired", False))
    worst = None if check.worst is None else [str(part) for part in check.worst]
    return -float(check.max_violation), {"violations": check.violations, "on_selected": check.on_selected,
                                         "max_violation": str(check.max_violation), "worst": worst,
                                         "checked": check.checked}


def lemma1_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma1`` check (module docstring), exact in fractions."""
    chain = lemma1_chain(_run(instance, algorithm, params))
    margin = min(chain.chunk_weighted - chain.fractional_flow, chain.jct - chain.chunk_weighted)
    return float(margin / max(1, chain.jct)), {"fractional_flow": str(chain.fractional_flow),
                                                "chunk_weighted": str(chain.chunk_weighted), "jct": chain.jct}


def lemma4_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma4`` check (module docstring), exact in fractions."""
    run = _run(instance, algorithm, params)
    weighted = lemma1_chain(run).chunk_weighted
    beta_gap = fitted_dual_check(run).dual_objective  # Σα − Σβ at speed 1
    off = abs(run.alpha_sum - weighted) + abs(beta_gap)
    return 0.0 - float(off) / max(1.0, float(run.alpha_sum)), {"alpha": str(run.alpha_sum), "weighted": str(weighted),
                                                  "alpha_minus_beta": str(beta_gap)}


def theorem3_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``theorem3`` check (module docstring): both parts at every ε of :data:`EPSILONS`."""
    edge = get("edge")
    slack, parts = 1.0, []
    for epsilon in EPSILONS:
        offline, online = speed_augmented(instance, epsilon)
        run = _run(online, algorithm, params)
        for part, formulation, value, bound in (
                ("i", "fractional-flow", run.fractional_flow, flow_bound(epsilon)),
                ("ii", "time-indexed", Fraction(run.total_jct), jct_bound(instance.max_chunks, epsilon))):
            solved = edge.solve(offline, formulation, node_limit=NODE_LIMIT, threads=1).result
            if not solved.optimal or solved.objective is None:
                return 1.0, {"applies": False, "why": f"OPT of {formulation} not proven at ε = {epsilon}"}
            big = float(bound) * solved.objective
            part_slack = (big - float(value)) / max(big, float(value)) if max(big, float(value)) > 0 else 0.0
            parts.append({"epsilon": str(epsilon), "part": part, "value": float(value), "opt": solved.objective,
                          "factor": float(bound)})
            slack = min(slack, part_slack)
    return slack, {"parts": parts}
