"""The CP-SAT backend (Google OR-Tools): a :class:`~optsched.solvers.model.CpSatModel` solved by
``CpSolver``, and its status, objective, best bound and values read back.

Deterministic by default: one worker (``threads`` sets more) and a fixed random seed, so the same
model gives the same answer on every machine. ``work_limit`` is CP-SAT's *deterministic time*
budget (``max_deterministic_time``, in CP-SAT's own work units, about seconds on a reference
machine), the budget a study sets; ``time_limit`` is the wall clock (``max_time_in_seconds``) and
makes the answer depend on the machine's speed. ``gap`` is ``relative_gap_limit``; CP-SAT calls a
run stopped by it OPTIMAL, which the door's finishing rules turn back into ``feasible``. CP-SAT
presolves unless the model's ``params`` say otherwise (hetero's model C up to 6 jobs, where presolve
is most of the time); ``presolve`` (a HiGHS setting) does not apply.

The objective is integral in the model (CP-SAT needs integer coefficients); the family's objective
is ``model objective × unit / scale + offset`` (:meth:`CpSatModel.to_family`), and so is the bound.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache

from .backend import TIME_LIMIT_REACHED, Raw
from .model import CpSatModel

#: The seed of CP-SAT's search; fixed so that a run is reproducible.
SEED = 0


def run(model: CpSatModel, options: dict, msg: bool, hints: Mapping[str, float] | None = None) -> Raw:
    """Solve ``model`` with CP-SAT (options: see backend.py); ``hints``, values by the names of the
    model's ``read``, replace the model's own hints (on a copy: the model is left as it was)."""
    from ortools.sat.python import cp_model

    if hints is not None:
        model = _hinted(model, hints)
    solver = cp_model.CpSolver()
    params = solver.parameters
    for key, value in model.params.items():
        setattr(params, key, value)
    params.num_workers = options["threads"] or 1
    params.random_seed = SEED
    params.log_search_progress = bool(msg)
    if options["work_limit"] is not None:
        params.max_deterministic_time = float(options["work_limit"])
    if options["time_limit"] is not None:
        params.max_time_in_seconds = float(options["time_limit"])
    params.relative_gap_limit = float(options["gap"])
    cp_version = version()
    invalid = model.model.validate()
    if invalid:
        return Raw("error", "cp-sat", cp_version, {}, None, message=f"CP-SAT refused the model: {invalid}")
    status = solver.solve(model.model)
    name = solver.status_name(status)
    values: dict[str, float] = {}
    objective = bound = None
    if name in ("OPTIMAL", "FEASIBLE"):
        values = {key: float(solver.value(var)) for key, var in model.read.items()}
        objective = model.to_family(solver.objective_value)
    if name in ("OPTIMAL", "FEASIBLE", "UNKNOWN") and model.has_objective:
        bound = model.to_family(solver.best_objective_bound)
    if name == "OPTIMAL":
        raw_status = "optimal"
    elif name == "FEASIBLE":
        raw_status = "feasible"
    elif name == "INFEASIBLE":
        raw_status = "infeasible"
    elif name == "UNKNOWN":
        raw_status = "not_solved"
    else:
        return Raw("error", "cp-sat", cp_version, {}, None, message=f"CP-SAT status {name}")
    return Raw(raw_status, "cp-sat", cp_version, values, bound, message=_stop_reason(raw_status, options),
               objective=objective)


def _stop_reason(status: str, options: dict) -> str:
    if status not in ("feasible", "not_solved"):
        return ""
    if options["time_limit"] is not None and options["work_limit"] is None:
        return TIME_LIMIT_REACHED
    return "deterministic work limit reached" if options["work_limit"] is not None else ""


def _hinted(model: CpSatModel, hints: Mapping[str, float]) -> CpSatModel:
    """A copy of ``model`` whose hints are ``hints``: integers by the names of its ``read`` (the door
    checks them first)."""
    copy = model.model.clone()
    copy.clear_hints()
    for name, value in hints.items():
        copy.add_hint(copy.get_int_var_from_proto_index(model.read[name].index), round(float(value)))
    return replace(model, model=copy)


@cache
def version() -> str:
    """The OR-Tools version CP-SAT comes with."""
    from importlib.metadata import version as installed

    return installed("ortools")
