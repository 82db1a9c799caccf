"""Units of work: one solve or one algorithm run on one instance, keyed for the cache.

A unit's payload is plain data (the family's name, the instance as JSON, what to do), so the same
:func:`run_unit` runs in this process, in a local worker process, or on a Dask worker on another
machine. It returns a JSON-ready dict; it never raises for a failure of the method itself (a crash
is recorded as status ``error`` with its message), so one bad run cannot sink a study.

Kinds (what :func:`run_unit` returns; the first three are a study's, the last a reproduction's):

* ``reference``: the exact formulation solved by the reference solver: status, objective (the
  verifier's, when the solver's schedule verifies), solver bound, gap, cross-check verdict, runtimes.
* ``relaxation``: the formulation's LP relaxation: status and objective (a bound on the optimum).
* ``algorithm``: an algorithm run: the verifier's verdict and objective, runtime, and the paper's
  competitive bound for this algorithm and instance where the family declares one.
* ``task``: ``function(task)`` for a module-level function named ``"module:qualname"``, its value
  as plain JSON data (numpy numbers and fractions become floats) so that a cached value and a
  fresh one are the same.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..jsonio import fingerprint
from ..plugins import AlgorithmFailure, OverBudget
from ..registry import Lazy, get
from .depends import code_of


@dataclass(frozen=True)
class Unit:
    """One unit of work of a study: its key (content and code version), its payload and the version of the code it
    runs."""
    key: str
    payload: dict
    code: str  #: the version of the code the unit runs (depends.py), part of its key

    @property
    def kind(self) -> str:
        """What the unit does: ``reference``, ``relaxation`` or ``algorithm`` (a study's), or ``task`` (a
        reproduction's or a search's)."""
        return self.payload["kind"]


def make_unit(family: str, instance: dict, instance_id: str, kind: str, spec: dict, seed: int,
              solvers: dict[str, str], budget_s: float | None = None) -> Unit:
    """A unit keyed by the instance's content, the kind, the method and its parameters, the seed,
    the version of the code it runs (:func:`depends.code_of`), and (for solves) the solver versions.
    ``budget_s`` (an algorithm unit's per-run budget for a researcher's function) is not part of the
    key: a run that finished within one budget is the same run under another."""
    payload = {"family": family, "instance": instance, "kind": kind, "spec": spec, "seed": seed}
    if budget_s is not None:
        payload["budget_s"] = budget_s
    code = code_of(payload)
    key_content = {"family": family, "instance": instance_id, "kind": kind, "spec": spec, "seed": seed,
                   "code": code}
    if kind != "algorithm":
        key_content["solvers"] = solvers
    return Unit(fingerprint(key_content), payload, code)


def make_task_unit(function: Callable[[Any], Any], task: Any) -> Unit:
    """A ``task`` unit: ``function(task)``, keyed by the function's name, ``repr(task)`` and the
    version of the code the function runs."""
    target = f"{function.__module__}:{function.__qualname__}"
    payload = {"kind": "task", "function": target, "task": task}
    code = code_of(payload)
    key = fingerprint({"kind": "task", "function": target, "task": repr(task), "code": code})
    return Unit(key, payload, code)


def _plain(value: Any) -> Any:
    """``value`` as the JSON the cache stores would give it back."""
    def convert(x: Any) -> Any:
        if isinstance(x, Fraction):
            return float(x)
        if hasattr(x, "item") and callable(x.item):  # a numpy scalar
            return x.item()
        raise TypeError(f"a task returned a {type(x).__name__}, which is not plain JSON data")

    return json.loads(json.dumps(value, default=convert, allow_nan=True))


def run_unit(payload: dict) -> dict:
    """Do one unit of work (see the module docstring); always returns, with ``code`` set to this
    worker's version of the code the unit runs, so that the caller can refuse results from other code."""
    started = time.perf_counter()
    try:
        if payload["kind"] == "task":
            out = {"status": "done", "value": _plain(Lazy(payload["function"])(payload["task"]))}
        else:
            family = get(payload["family"])
            instance = family.instance_from_dict(payload["instance"], "instance")
            budget = {"budget_s": payload["budget_s"]} if "budget_s" in payload else {}
            out = _KINDS[payload["kind"]](family, instance, payload["spec"], payload["seed"], **budget)
    except OverBudget as exc:  # stopped by the wall clock: recorded, not cached (a rerun tries again)
        out = {"status": "error", "message": str(exc), "over_budget": True}
    except AlgorithmFailure as exc:  # a researcher's function failed: the message names it and where
        out = {"status": "error", "message": str(exc)}
    except Exception as exc:  # a crash of the method is a result, recorded with its message
        last = traceback.extract_tb(exc.__traceback__)[-1]
        out = {"status": "error", "message": f"{type(exc).__name__}: {exc} ({_where(last.filename)}:{last.lineno})"}
    out["wall_s"] = time.perf_counter() - started
    out["code"] = code_of(payload)
    return out


def _where(filename: str) -> str:
    """A source file as a stored message names it: relative to the installed package
    (``optsched/single/online.py``), never the machine's absolute path; a file outside it by its name."""
    path = Path(filename).resolve()
    root = Path(__file__).resolve().parent.parent
    return path.relative_to(root.parent).as_posix() if path.is_relative_to(root) else path.name


def _reference(family, instance, spec: dict, seed: int) -> dict:
    solved = family.solve(instance, spec["formulation"], solver=spec["solver"], time_limit=spec["time_limit"],
                          node_limit=spec["node_limit"], work_limit=spec["work_limit"], threads=1,
                          cross_check=spec["cross_check"])
    result, verdict = solved.result, solved.verdict
    out: dict[str, Any] = {
        "formulation": solved.formulation, "status": result.status, "solver_objective": result.objective,
        "objective": None,
        "bound": result.bound, "gap": result.gap, "runtime_s": result.runtime_s, "build_s": solved.build_s,
        "solver": result.solver, "solver_version": result.solver_version, "message": result.message,
        "cross_check": result.cross_check.verdict if result.cross_check else None,
        "verified": None, "violation": ""}
    if verdict is not None:
        out["verified"] = verdict.feasible
        out["objective"] = verdict.objective
        out["violation"] = verdict.violations[0] if verdict.violations else ""
        if solved.problem:
            out["status"] = "error"
            out["message"] = solved.problem
    return out


def _relaxation(family, instance, spec: dict, seed: int) -> dict:
    """The reference's LP relaxation; where it cannot be built (too large), the family's bound route,
    whose ``bound`` holds even when it stops unconverged."""
    try:
        solved = family.solve(instance, spec["formulation"], relax=True, solver=spec["solver"],
                              time_limit=spec["time_limit"], threads=1)
        note = ""
    except InputError as refused:
        if family.bound_route is None:
            raise
        solved = family.solve(instance, family.bound_route, relax=family.bound_relax, time_limit=spec["time_limit"],
                              threads=1)
        route = family.bound_route + (" (its LP relaxation)" if family.bound_relax else "")
        note = f"the LP relaxation was refused ({refused}); bounded by {route}: "
    result = solved.result
    return {"formulation": solved.formulation, "status": result.status, "objective": result.objective,
            "bound": result.bound, "runtime_s": result.runtime_s,
            "solver_version": result.solver_version, "message": note + result.message}


def _algorithm(family, instance, spec: dict, seed: int, budget_s: float | None = None) -> dict:
    params = spec["params"]
    ran = family.run(instance, spec["algorithm"], seed=seed, budget_s=budget_s, **params)
    verdict = ran.verdict
    out: dict[str, Any] = {"status": "feasible" if verdict.feasible else "infeasible", "objective": verdict.objective,
                           "runtime_s": ran.runtime_s, "violation": verdict.violations[0] if verdict.violations else "",
                           "theorem": None}
    theorem_of = family.algorithm(spec["algorithm"]).theorem
    if theorem_of is not None:
        theorem = theorem_of(instance, **params)
        if theorem is not None:
            out["theorem"] = {"name": theorem.name, "bound": theorem.bound, "constants": dict(theorem.constants),
                              "assumptions": theorem.assumptions}
    return out


_KINDS = {"reference": _reference, "relaxation": _relaxation, "algorithm": _algorithm}
