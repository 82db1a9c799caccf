"""From unit results to the study's tidy tables: certified ratios, theorem checks, summaries.

Ratios are "1 is best": ALG/OPT for a min family, OPT/ALG for a max family. A ratio is
``exact`` when the reference solve proved its optimum; otherwise it is measured against the best
proven bound on the optimum (the solver's bound or the LP relaxation, whichever is tighter) and is
an ``upper bound`` on the true ratio, with ``ratio_lower`` from the best schedule found; with
neither, it is ``none``. The two kinds are kept apart in every summary.

A theorem "held" is ``yes`` when the (exact or upper-bound) ratio is within the theorem's bound,
``no`` when the ratio (or its lower end) exceeds it, and ``unknown`` when the bound straddles it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..numeric import better_or_equal, ratio
from ..provenance import version_string

#: Relative slack for "within the theorem's bound", as for every objective comparison (docs/design.md, principle 6).
TOL = 1e-6


@dataclass(frozen=True)
class InstanceRecord:
    """One generated instance of a study: its part, family, sense, preset, seed, size and identity."""
    part: int
    family: str
    sense: str
    preset: str
    seed: int
    jobs: int | None  #: the size asked of the generator (None: the preset's own)
    size: int  #: the number of jobs the instance has
    instance_id: str  #: content fingerprint


def best_bound(sense: str, reference: dict, lp: dict | None) -> float | None:
    """The tightest proven bound on the optimum: the optimum itself when proven, else the solver's
    bound or the LP relaxation's optimum (or, from a bound route stopped unconverged, its bound)."""
    if reference.get("status") == "optimal" and reference.get("objective") is not None:
        return reference["objective"]
    candidates = []
    if reference.get("status") == "feasible" and reference.get("bound") is not None:
        candidates.append(reference["bound"])
    if lp is not None and lp.get("status") == "optimal" and lp.get("objective") is not None:
        candidates.append(lp["objective"])
    elif lp is not None and lp.get("status") == "feasible" and lp.get("bound") is not None:
        candidates.append(lp["bound"])  # a bound route stopped before it converged: its bound still holds
    if not candidates:
        return None
    return max(candidates) if sense == "min" else min(candidates)


def integrality_gap(sense: str, optimum: float | None, lp: dict | None) -> float | None:
    """OPT/LP (min) or LP/OPT (max): at least 1, and 1 when the relaxation is tight."""
    if optimum is None or lp is None or lp.get("status") != "optimal" or lp.get("objective") is None:
        return None
    return ratio(sense, optimum, lp["objective"])


def _held(ratio_value: float | None, kind: str, lower: float | None, bound: float) -> str:
    if ratio_value is None:
        return ""
    if ratio_value <= bound * (1 + TOL):
        return "yes"
    if kind == "exact" or (lower is not None and lower > bound * (1 + TOL)):
        return "no"
    return "unknown"


def reference_row(study: str, inst: InstanceRecord, spec: dict, ref: dict, lp: dict | None) -> dict:
    """The ``references.csv`` row of one instance: its reference solve (status, objective, bound, cross-check) and
    LP relaxation."""
    optimum = ref.get("objective") if ref.get("status") == "optimal" else None
    return {**_instance_columns(study, inst), "formulation": ref.get("formulation", spec["formulation"]),
            "solver": ref.get("solver", spec["solver"]), "node_limit": spec["node_limit"],
            "time_limit": spec["time_limit"], "status": ref.get("status"),
            "objective": ref.get("objective"),
            "bound": ref.get("bound"), "gap": ref.get("gap"), "best_bound": best_bound(inst.sense, ref, lp),
            "runtime_s": ref.get("runtime_s"), "build_s": ref.get("build_s"),
            "cross_check": ref.get("cross_check") or "",
            "lp_formulation": lp.get("formulation", "") if lp else "", "lp_status": lp.get("status") if lp else "",
            "lp_objective": lp.get("objective") if lp else None,
            "lp_runtime_s": lp.get("runtime_s") if lp else None,
            "integrality_gap": integrality_gap(inst.sense, optimum, lp),
            "solver_version": _solver(ref), "optsched_version": version_string(), "code": ref.get("code", ""),
            "message": ref.get("message", "")}


def algorithm_row(study: str, inst: InstanceRecord, method: dict, run: dict, ref: dict, lp: dict | None) -> dict:
    """The ``results.csv`` row of one method on one instance: its objective and its ratio to the reference,
    ``exact`` against a proven optimum or an ``upper bound`` against a bound."""
    sense = inst.sense
    optimal = ref.get("status") == "optimal" and ref.get("objective") is not None
    bound = best_bound(sense, ref, lp)
    value = run.get("objective") if run.get("status") == "feasible" else None
    kind, r, lower = "none", None, None
    if value is not None and bound is not None:
        r = ratio(sense, value, bound)
        if optimal:
            kind, lower = "exact", r
        else:
            kind = "upper bound"
            incumbent = ref.get("objective") if ref.get("status") == "feasible" else None
            lower = max(1.0, ratio(sense, value, incumbent)) if incumbent is not None else None
    contradiction = value is not None and bound is not None and not better_or_equal(bound, value, sense)
    theorem = run.get("theorem") or {}
    row = {**_instance_columns(study, inst), "method": method["label"], "algorithm": method["algorithm"],
           "params": json.dumps(method["params"], sort_keys=True), "status": run.get("status"),
           "objective": value, "violation": run.get("violation", ""), "runtime_s": run.get("runtime_s"),
           "reference_status": ref.get("status"), "reference_objective": ref.get("objective"),
           "best_bound": bound, "ratio": r, "ratio_kind": kind, "ratio_lower": lower,
           "beats_reference": contradiction,
           "theorem": theorem.get("name", ""), "theorem_bound": theorem.get("bound"),
           "theorem_held": _held(r, kind, lower, theorem["bound"]) if theorem else "",
           "theorem_constants": json.dumps(theorem.get("constants", {}), sort_keys=True) if theorem else "",
           "theorem_assumptions": theorem.get("assumptions", ""),
           "solver_version": _solver(ref), "optsched_version": version_string(), "code": run.get("code", ""),
           "message": run.get("message", "")}
    return row


def _solver(ref: dict) -> str:
    """The solver that proved the reference, by name and version (``highs 1.16.0``)."""
    return " ".join(filter(None, (ref.get("solver", ""), ref.get("solver_version", ""))))


def _instance_columns(study: str, inst: InstanceRecord) -> dict:
    return {"study": study, "part": inst.part, "family": inst.family, "sense": inst.sense,
            "instances": inst.preset, "seed": inst.seed, "jobs": inst.jobs, "size": inst.size,
            "instance": inst.instance_id}


def summary(results: pd.DataFrame, references: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per (family, method): counts, exact-ratio statistics, bound-only ratios, theorem checks;
    per family: the reference's record and the LP's integrality gap. An infinite ratio (a max-family
    method earning 0 where the optimum earns more) is counted apart, and the mean, median and
    max are over the finite ratios."""
    methods = []
    for (part, family, method), g in results.groupby(["part", "family", "method"], sort=False):
        exact_all = g.loc[g["ratio_kind"] == "exact", "ratio"].astype(float)
        exact = exact_all[np.isfinite(exact_all)]
        upper = g.loc[g["ratio_kind"] == "upper bound", "ratio"].astype(float)
        held = g["theorem_held"]
        methods.append({
            "part": part, "family": family, "method": method, "instances": len(g),
            "feasible": int((g["status"] == "feasible").sum()),
            "infeasible": int((g["status"] == "infeasible").sum()), "errors": int((g["status"] == "error").sum()),
            "exact_ratios": len(exact_all), "infinite_ratios": len(exact_all) - len(exact),
            "ratio_mean": exact.mean() if len(exact) else None,
            "ratio_median": exact.median() if len(exact) else None, "ratio_max": exact.max() if len(exact) else None,
            "bound_ratios": len(upper), "bound_ratio_max": upper.max() if len(upper) else None,
            "theorem": next((t for t in g["theorem"] if t), ""),
            "theorem_bound_min": g["theorem_bound"].min() if g["theorem_bound"].notna().any() else None,
            "theorem_held": int((held == "yes").sum()), "theorem_violated": int((held == "no").sum()),
            "theorem_unknown": int((held == "unknown").sum()),
            "beats_reference": int(g["beats_reference"].sum()),
        })
    refs = []
    for (part, family), g in references.groupby(["part", "family"], sort=False):
        gaps = g["integrality_gap"].dropna().astype(float)
        refs.append({
            "part": part, "family": family, "formulation": "/".join(dict.fromkeys(g["formulation"])),
            "instances": len(g),
            "optimal": int((g["status"] == "optimal").sum()), "errors": int((g["status"] == "error").sum()),
            "cross_checked": int((g["cross_check"] != "").sum()),
            "cross_check_agree": int((g["cross_check"] == "agree").sum()),
            "cross_check_disagree": int((g["cross_check"] == "disagree").sum()),
            "integrality_gap_mean": gaps.mean() if len(gaps) else None,
            "integrality_gap_max": gaps.max() if len(gaps) else None,
            "solve_median_s": g["runtime_s"].median(), "solve_max_s": g["runtime_s"].max(),
        })
    return pd.DataFrame(methods), pd.DataFrame(refs)
