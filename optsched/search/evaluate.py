"""One search step's unit of work: an instance scored against a target, on the study engine.

:func:`evaluate` is what the engine runs (a ``task`` unit, so results are cached by the instance's
content and resumable). Targets:

* ``ratio``: ALG/OPT (min families) or OPT/ALG (max families), with OPT the family's exact
  formulation solved within the deterministic node budget on one thread. An instance whose optimum
  is not proven, or where the algorithm earns nothing (a max family's ratio is then unbounded),
  scores nothing and says why.
* ``theorem:NAME``: the slack of one of the family's :class:`~optsched.registry.Check`; the value
  searched for is ``-slack``, so a positive value is a violation. ``theorem:bound`` works for any
  algorithm whose paper proves a competitive bound (:class:`~optsched.registry.Theorem`). A check
  whose slack is flat until it is violated may return a ``guide`` in its details, a number that
  grows as an instance nears a violation; the search breaks ties of the value by it.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InputError
from ..limits import NODE_LIMIT
from ..numeric import ratio
from ..registry import Check, Family, get


def reference_formulation(family: Family) -> str:
    """The exact formulation a study uses by default: the family's first."""
    return next(iter(family.formulations))


def ratio_of(sense: str, alg: float, opt: float) -> float | None:
    """:func:`optsched.ratio`, and None where it is undefined (OPT = 0 for min, ALG = 0 for max):
    such an instance is not scored."""
    if (opt if sense == "min" else alg) <= 0:
        return None
    return ratio(sense, alg, opt)


def bound_slack(instance: Any, algorithm: str, params: dict, optimum: float | None,
                family: Family) -> tuple[float, dict]:
    """``theorem:bound``: the paper's competitive bound ``c`` as ``ALG <= c OPT`` (min) or
    ``OPT <= c ALG`` (max); the slack is ``(c OPT − ALG) / max(c OPT, ALG)`` (min) or
    ``(c ALG − OPT) / max(c ALG, OPT)`` (max), in [−1, 1], so an algorithm that earns nothing where
    OPT earns something is the worst violation (−1) and ``0 = 0`` is none (0)."""
    theorem_of = family.algorithm(algorithm).theorem
    theorem = theorem_of(instance, **params) if theorem_of is not None else None
    if theorem is None:
        raise InputError(f"{family.name}'s {algorithm} has no competitive bound for these parameters")
    alg = family.run(instance, algorithm, **params).objective
    assert optimum is not None and alg is not None  # needs_optimum, and evaluate checked the run
    big, small = (theorem.bound * optimum, alg) if family.sense == "min" else (theorem.bound * alg, optimum)
    slack = (big - small) / max(big, small) if max(big, small) > 0 else 0.0
    return slack, {"theorem": theorem.name, "bound": theorem.bound, "ratio": ratio_of(family.sense, alg, optimum),
                   "alg": alg, "opt": optimum, **dict(theorem.constants)}


def check_of(family: Family, name: str) -> Check:
    """The family's check ``name``; ``bound`` is every family's."""
    if name == "bound":
        return Check("bound", "the algorithm's ratio stays within the paper's competitive bound", (),
                     lambda instance, algorithm, params, optimum: bound_slack(instance, algorithm, params,
                                                                              optimum, family),
                     needs_optimum=True)
    if name not in family.checks:
        known = ", ".join(["bound", *family.checks])
        raise InputError(f"family {family.name} has no theorem check '{name}' (checks: {known})")
    return family.checks[name]


def evaluate(task: tuple) -> dict:
    """Score one instance: ``task = (family, algorithm, params as sorted pairs, target, instance
    JSON text[, the algorithm's per-run budget in seconds])``. Returns ``valid`` (and ``reason``
    when not), ``value`` (the number the search maximises), ``alg``, ``opt``, ``status`` and, for
    theorem targets, ``slack`` and ``details``."""
    name, algorithm, pairs, target, text, *budget = task
    family = get(name)
    params = dict(pairs)
    try:
        instance = family.instance_from_dict(json.loads(text), "instance")
    except InputError as exc:
        return {"valid": False, "reason": f"not an instance: {exc}"}
    refused = family.space().refusal(instance)
    if refused:
        return {"valid": False, "reason": refused}
    ran = family.run(instance, algorithm, budget_s=budget[0] if budget else None, **params)
    if not ran.feasible:
        raise RuntimeError(f"{algorithm} gave an infeasible schedule: {ran.verdict.violations[0]}")
    out: dict[str, Any] = {"valid": True, "alg": ran.objective, "opt": None, "status": None}
    check = None if target == "ratio" else check_of(family, target.removeprefix("theorem:"))
    if check is None or check.needs_optimum:
        solved = family.solve(instance, reference_formulation(family), node_limit=NODE_LIMIT, threads=1)
        out["status"] = solved.result.status
        if not (solved.result.optimal and solved.verdict is not None and solved.verdict.feasible):
            return {**out, "valid": False, "reason": f"optimum not proven ({solved.result.status})"}
        out["opt"] = solved.verdict.objective
        if not out["opt"] > 0:
            return {**out, "valid": False, "reason": "OPT = 0: nothing to compare with"}
    if check is None:
        ratio = ratio_of(family.sense, out["alg"], out["opt"])
        if ratio is None:
            return {**out, "valid": False, "reason": "the algorithm earns nothing: the ratio is unbounded"}
        return {**out, "value": ratio}
    # 0.0 - slack, not -slack: a slack of 0 is a value of 0, not -0
    slack, details = check.slack(instance, algorithm, params, out["opt"])
    return {**out, "value": 0.0 - float(slack), "slack": float(slack), "guide": float(details.get("guide", 0.0)),
            "details": details}
