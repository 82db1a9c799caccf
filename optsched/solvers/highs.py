"""The HiGHS backend: the model handed to HiGHS through highspy in one call, and HiGHS's own model
status, values, bound and duals read back (PuLP's read-back is not honest: the door's docstring).

HiGHS's thread pool is process-global and refuses a new size until it is reset; :func:`run` resets
it before every solve (about 1 ms), so that no state is kept here and a solve never depends on the
one before it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from functools import cache
from typing import Any

import highspy
import numpy as np
import pulp

from .. import native_output
from .backend import TIME_LIMIT_REACHED, Raw
from .model import is_mip, keyed_rows, variables


class _BuildOnly(pulp.HiGHS):
    """PuLP's HiGHS adapter, with the model passed to HiGHS in one call and without PuLP's
    read-back, whose status mapping is not honest (see the module docstring).

    PuLP configures and runs HiGHS; :func:`run` reads status, values and bound from the
    ``highspy.Highs`` object PuLP leaves on ``problem.solverModel``. PuLP's own model building adds
    columns and integrality one at a time, which grows quadratically with the model.
    """

    def buildSolverModel(self, lp):
        columns = lp.variables()
        for i, v in enumerate(columns):
            v.index = i
        sign = -1.0 if lp.sense == pulp.LpMaximize else 1.0
        objective = lp.objective if lp.objective is not None else {}
        model = highspy.HighsLp()
        model.num_col_ = len(columns)
        model.col_cost_ = np.array([sign * objective.get(v, 0.0) for v in columns], dtype=float)
        inf = highspy.kHighsInf
        model.col_lower_ = np.array([-inf if v.lowBound is None else v.lowBound for v in columns], dtype=float)
        model.col_upper_ = np.array([inf if v.upBound is None else v.upBound for v in columns], dtype=float)
        starts, index, value, lower, upper = [0], [], [], [], []
        for i, c in enumerate(lp.constraints()):
            c.index = i
            for v, a in c.items():
                if a:
                    index.append(v.index)
                    value.append(a)
            starts.append(len(index))
            lb, ub = c.getLb(), c.getUb()
            lower.append(-highspy.kHighsInf if lb is None else lb)
            upper.append(highspy.kHighsInf if ub is None else ub)
        model.num_row_ = len(lower)
        model.row_lower_ = np.array(lower, dtype=float)
        model.row_upper_ = np.array(upper, dtype=float)
        matrix = model.a_matrix_
        matrix.format_ = highspy.MatrixFormat.kRowwise
        matrix.num_col_, matrix.num_row_ = len(columns), len(lower)
        matrix.start_ = np.array(starts, dtype=np.int32)
        matrix.index_ = np.array(index, dtype=np.int32)
        matrix.value_ = np.array(value, dtype=float)
        model.a_matrix_ = matrix
        if self.mip and any(v.cat == pulp.LpInteger for v in columns):
            model.integrality_ = [highspy.HighsVarType.kInteger if v.cat == pulp.LpInteger
                                  else highspy.HighsVarType.kContinuous for v in columns]
        lp.solverModel.passModel(model)
        if self.start is not None and self.mip:
            solution = highspy.HighsSolution()
            solution.col_value = [float(self.start.get(v.name, 0.0)) for v in columns]
            solution.value_valid = True
            lp.solverModel.setSolution(solution)  # HiGHS checks it and keeps it only if it is feasible
        if self.deadline is not None:  # HiGHS counts its limit from run(): take off the time spent here
            lp.solverModel.setOptionValue("time_limit", max(self.deadline - time.perf_counter(), 1e-3))

    #: A MIP start (values by variable name, others 0), set by :func:`run`.
    start: Mapping[str, float] | None = None
    #: When a time-limited solve must end (``time.perf_counter``), set by :func:`run`; None: no limit.
    deadline: float | None = None

    def findSolutionValues(self, lp):
        return pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound


#: HiGHS model statuses of a solve stopped before a proof (by a limit or an interrupt).
_STOPPED = frozenset({"kTimeLimit", "kIterationLimit", "kInterrupt", "kSolutionLimit", "kObjectiveBound",
                      "kObjectiveTarget", "kMemoryLimit"})


def run(problem: pulp.LpProblem, options: dict, msg: bool, start: Mapping[str, float] | None = None) -> Raw:
    """Solve ``problem`` with HiGHS (options: see backend.py), from the MIP ``start`` when one is given."""
    mip = is_mip(problem)
    threads = options["threads"]
    highspy.Highs.resetGlobalScheduler(True)  # the pool takes this solve's size (module docstring)
    params: dict[str, Any] = {"presolve": "on" if options["presolve"] else "off"}
    if mip:
        params["mip_rel_gap"] = options["gap"]
        if options["node_limit"] is not None:
            params["mip_max_nodes"] = options["node_limit"]
            # RINS and RENS search sub-MIP trees that mip_max_nodes does not count; HiGHS 1.16.0
            # stalled inside one for over 25 minutes (docs/solvers.md, "A node budget counts every node").
            params["mip_heuristic_run_rins"] = False
            params["mip_heuristic_run_rens"] = False
    adapter = _BuildOnly(msg=msg, timeLimit=options["time_limit"], threads=threads, **params)
    adapter.start = start
    if options["time_limit"] is not None:
        adapter.deadline = time.perf_counter() + options["time_limit"]
    highs = version()
    try:
        problem.solve(adapter)
    except Exception as exc:  # HiGHS refusing a model is a result, not a crash of the caller
        return Raw("error", "highs", highs, {}, None, message=f"HiGHS failed: {exc}")
    h: highspy.Highs = problem.solverModel
    status_name = h.getModelStatus().name
    info = h.getInfo()
    solution = h.getSolution()
    sign = -1.0 if problem.sense == pulp.LpMaximize else 1.0  # PuLP hands HiGHS min(sign * f)
    constant = problem.objective.constant if problem.objective is not None else 0.0
    has_primal = info.primal_solution_status == highspy.SolutionStatus.kSolutionStatusFeasible
    columns = variables(problem)
    col_value = list(solution.col_value)  # each attribute access copies the whole vector
    values = {v.name: float(col_value[v.index]) for v in columns} if has_primal else {}
    bound = None
    if mip and math.isfinite(info.mip_dual_bound):
        bound = sign * info.mip_dual_bound + constant
    if status_name == "kOptimal":
        status = "optimal"
    elif status_name == "kModelEmpty":
        status, values, bound = "optimal", {v.name: 0.0 for v in columns}, constant
    elif status_name == "kInfeasible":
        status, values = "infeasible", {}
    elif status_name == "kUnbounded":
        status = "unbounded"
    elif status_name == "kUnboundedOrInfeasible":
        status, values = "ambiguous", {}
    elif status_name in _STOPPED:
        status = "feasible" if values else "not_solved"
    else:
        return Raw("error", "highs", highs, {}, None, message=f"HiGHS model status {status_name}")
    raw = Raw(status, "highs", highs, values, bound, message=_stop_reason(status_name))
    if not mip and status == "optimal":
        row_dual, col_dual = list(solution.row_dual), list(solution.col_dual)
        raw.duals = {key: sign * float(row_dual[c.index]) for key, c in keyed_rows(problem)}
        raw.reduced_costs = {v.name: sign * float(col_dual[v.index]) for v in columns}
        basis = h.getBasis()
        if basis.valid:
            rows, cols = list(basis.row_status), list(basis.col_status)
            raw.basis = {"rows": {key: _basis(rows[c.index].name) for key, c in keyed_rows(problem)},
                         "columns": {v.name: _basis(cols[v.index].name) for v in columns}}
    return raw


def _basis(status_name: str) -> str:
    """A HiGHS basis status (``kBasic``, ...) as the Result names it."""
    return {"kBasic": "basic", "kLower": "at lower", "kUpper": "at upper", "kZero": "free"}.get(status_name, "nonbasic")


def _stop_reason(status_name: str) -> str:
    return {"kTimeLimit": TIME_LIMIT_REACHED, "kIterationLimit": "iteration limit reached",
            "kSolutionLimit": "node limit reached", "kInterrupt": "interrupted"}.get(status_name, "")


@cache
def version() -> str:
    """The version of the HiGHS library highspy loads (creating the object prints a banner)."""
    with native_output.redirected():
        return highspy.Highs().version()
