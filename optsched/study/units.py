"""Units of work: one solve or one algorithm run on one instance, keyed for the cache.

A unit's payload is plain data (the family's name, the instance as JSON, what to do), so the same
:func:`run_unit` runs in this process, in a local worker process, or on a Dask worker on another
machine. It returns a JSON-ready dict; it never raises for a failure of the method itself (a crash
is recorded as status ``error`` with its message), so one bad run cannot sink a study.

Kinds (what :func:`run_unit` returns):

* ``reference``: the exact formulation solved by the reference solver: status, objective (the
  verifier's, when the solver's schedule verifies), solver bound, gap, cross-check verdict, runtimes.
* ``relaxation``: the formulation's LP relaxation: status and objective (a bound on the optimum).
* ``algorithm``: an algorithm run: the verifier's verdict and objective, runtime, and the paper's
  competitive bound for this algorithm and instance where the family declares one.
"""

from __future__ import annotations

import hashlib
import time
import traceback
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .. import __version__
from ..jsonio import fingerprint
from ..numeric import close
from ..registry import get
from ..solvers import solve


@cache
def code_version() -> str:
    """optsched's version and a hash of its source: results from changed code are never reused."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:10]}"


@dataclass(frozen=True)
class Unit:
    key: str
    payload: dict

    @property
    def kind(self) -> str:
        return self.payload["kind"]


def make_unit(family: str, instance: dict, instance_id: str, kind: str, spec: dict, seed: int,
              solvers: dict[str, str]) -> Unit:
    """A unit keyed by the instance's content, the kind, the method and its parameters, the seed,
    optsched's code version, and (for solves) the solver versions."""
    key_content = {"family": family, "instance": instance_id, "kind": kind, "spec": spec, "seed": seed,
                   "code": code_version()}
    if kind != "algorithm":
        key_content["solvers"] = solvers
    payload = {"family": family, "instance": instance, "kind": kind, "spec": spec, "seed": seed}
    return Unit(fingerprint(key_content), payload)


def run_unit(payload: dict) -> dict:
    """Do one unit of work (see the module docstring); always returns, with ``code`` set to this
    worker's :func:`code_version` so the caller can refuse results from other code."""
    started = time.perf_counter()
    try:
        family = get(payload["family"])
        instance = family.instance_from_dict(payload["instance"], "instance")
        out = _KINDS[payload["kind"]](family, instance, payload["spec"], payload["seed"])
    except Exception as exc:  # a crash of the method is a result, recorded with its message
        last = traceback.extract_tb(exc.__traceback__)[-1]
        out = {"status": "error", "message": f"{type(exc).__name__}: {exc} ({last.filename}:{last.lineno})"}
    out["wall_s"] = time.perf_counter() - started
    out["code"] = code_version()
    return out


def _reference(family, instance, spec: dict, seed: int) -> dict:
    formulation = family.formulation(spec["formulation"])
    started = time.perf_counter()
    model = formulation.build(instance)
    build_s = time.perf_counter() - started
    result = solve(model, solver=spec["solver"], time_limit=spec["time_limit"], threads=1,
                   cross_check=spec["cross_check"])
    out: dict[str, Any] = {
        "status": result.status, "solver_objective": result.objective, "objective": None,
        "bound": result.bound, "gap": result.gap, "runtime_s": result.runtime_s, "build_s": build_s,
        "solver": result.solver, "solver_version": result.solver_version, "message": result.message,
        "cross_check": result.cross_check.verdict if result.cross_check else None,
        "verified": None, "violation": ""}
    if result.has_solution:
        schedule = model.schedule(result)
        violations = family.verify(instance, schedule)
        out["verified"] = not violations
        if violations:
            out["violation"] = violations[0]
            out["status"] = "error"
            out["message"] = f"the solver's schedule fails the verifier: {violations[0]}"
        else:
            checked = family.objective(instance, schedule)
            out["objective"] = checked
            assert result.objective is not None  # has_solution
            if not close(checked, result.objective):
                out["status"] = "error"
                out["message"] = f"the verifier's objective {checked} differs from the solver's {result.objective}"
    return out


def _relaxation(family, instance, spec: dict, seed: int) -> dict:
    model = family.formulation(spec["formulation"]).build(instance, relax=True)
    result = solve(model, solver=spec["solver"], time_limit=spec["time_limit"], threads=1)
    return {"status": result.status, "objective": result.objective, "runtime_s": result.runtime_s,
            "solver_version": result.solver_version, "message": result.message}


def _algorithm(family, instance, spec: dict, seed: int) -> dict:
    algorithm = family.algorithm(spec["algorithm"])
    params = spec["params"]
    started = time.perf_counter()
    schedule = algorithm.run(instance, seed=seed, **params)
    runtime = time.perf_counter() - started
    violations = family.verify(instance, schedule)
    out: dict[str, Any] = {"status": "infeasible" if violations else "feasible",
                           "objective": None if violations else family.objective(instance, schedule),
                           "runtime_s": runtime, "violation": violations[0] if violations else "",
                           "theorem": None}
    if algorithm.theorem is not None:
        theorem = algorithm.theorem(instance, **params)
        if theorem is not None:
            out["theorem"] = {"name": theorem.name, "bound": theorem.bound, "constants": dict(theorem.constants),
                              "assumptions": theorem.assumptions}
    return out


_KINDS = {"reference": _reference, "relaxation": _relaxation, "algorithm": _algorithm}
