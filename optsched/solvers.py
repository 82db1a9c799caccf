"""One door to every solver: build a PuLP model once, solve it with HiGHS or CBC, get an honest Result.

Honesty rules (DESIGN.md, principle 2):

* ``status`` is one of :data:`STATUSES`. It is ``optimal`` only when the solver proved optimality and
  the gap between objective and best bound is zero (to :data:`optsched.numeric.OBJ_RTOL`). A MILP
  stopped by a time limit with an incumbent is ``feasible``; without one it is ``not_solved``.
* ``bound`` is the solver's own best bound (HiGHS ``mip_dual_bound``; CBC's log), never the
  objective copied. For an LP solved to optimality the bound is the objective (strong duality).
* PuLP's HiGHS adapter reports a time-limited run as "Optimal" and an unbounded MILP as "Infeasible";
  this module reads HiGHS's own model status instead. When a solver can only say "infeasible or
  unbounded", the feasibility problem (zero objective) is solved to tell which.
* Presolve is off by default: HiGHS 1.15.1 with presolve on returns a wrong "optimal" on some
  small MILPs (oasis spec §6.3; here 2 of 1,500 random OASiS models, see docs/solvers.md), and
  turning it off costs little on the toolkit's models. ``presolve=True`` opts in.
* ``cross_check=True`` solves the same model with the other solver and compares what each proves
  about the optimum; a disagreement downgrades the result to the best incumbent that satisfies the
  model, with no bound, so that a wrong optimum can never pass silently.

Objectives and duals are in the model's own sense: for a maximisation, ``duals[c]`` is the change in
the maximum per unit increase of the right-hand side of ``c``. Objective constants are included.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import highspy
import numpy as np
import pulp
from pulp.apis.coin_api import pulp_cbc_path

from . import native_output
from .numeric import close

STATUSES = ("optimal", "feasible", "infeasible", "unbounded", "not_solved", "error")
SOLVERS = ("highs", "cbc")

#: Scaled slack within which a solution counts as satisfying a model (see :func:`max_violation`).
SOLUTION_TOL = 1e-6
#: Relative tolerance at which two solvers' objectives count as equal. Each solver accepts
#: constraint violations up to its feasibility tolerance (1e-7 primal, 1e-6 integrality), which
#: moves objectives by about 1e-6 of their size; seen: HiGHS -0.999999 vs CBC -1 on a true -1.
CROSS_CHECK_RTOL = 1e-5


@dataclass(frozen=True)
class Model:
    """A built solver model: the PuLP problem, and for a MILP, how to read a schedule off a solution.

    ``decode(result)`` turns a :class:`Result` with values into the family's schedule object; it is
    None for relaxations and for formulations whose solutions are not schedules (duals, bounds).
    """

    problem: pulp.LpProblem
    decode: Callable[[Result], Any] | None = None

    @property
    def sense(self) -> str:
        return _sense(self.problem)

    @property
    def is_mip(self) -> bool:
        return _is_mip(self.problem)

    def schedule(self, result: Result) -> Any:
        """The schedule ``decode`` reads off ``result`` (which must have a solution).

        Raises ValueError for a model without ``decode`` (a relaxation or a dual)."""
        if self.decode is None:
            raise ValueError("this model's solutions are not schedules (a relaxation or a dual)")
        return self.decode(result)


@dataclass(frozen=True)
class Computed:
    """A formulation whose optimum a polynomial algorithm proves without a solver: ``compute()``
    returns the optimal objective, ``method`` names the algorithm and why it is exact (shown as the
    result's solver) and ``proof`` why it is exact (the result's message). ``milp()`` builds the same
    optimum as a solver model: a cross-check solves it with the chosen solver and compares. It has no
    schedule to decode."""

    sense: str
    compute: Callable[[], float]
    method: str
    proof: str
    milp: Callable[[], Model]
    decode: None = None


def _computed(model: Computed, solver: str, options: dict, cross_check: bool, msg: bool) -> Result:
    from . import __version__

    started = time.perf_counter()
    value = float(model.compute())
    result = Result("optimal", model.sense, True, value, value, 0.0, time.perf_counter() - started, model.method,
                    __version__, message=model.proof, options={k: v for k, v in options.items() if v})
    if not cross_check:
        return result
    problem = model.milp().problem
    with native_output.redirected():
        other = _solve_with(solver, problem, options, msg)
    return _adjudicate(problem, result, other)


def _sense(problem: pulp.LpProblem) -> str:
    return "max" if problem.sense == pulp.LpMaximize else "min"


def _is_mip(problem: pulp.LpProblem) -> bool:
    return any(v.cat == pulp.LpInteger for v in _variables(problem))


#: PuLP adds this variable, fixed at 0, for good to a constant objective and to empty constraints.
_PULP_DUMMY = "__dummy"


def _variables(problem: pulp.LpProblem) -> list[pulp.LpVariable]:
    """The model's variables, without PuLP's internal dummy."""
    return [v for v in problem.variables() if v.name != _PULP_DUMMY]


@dataclass(frozen=True)
class CrossCheck:
    """What the other solver said about the same model, and whether the two are compatible.

    ``verdict``: ``agree`` (both proved the same optimum, or both infeasible, or both unbounded),
    ``consistent`` (no contradiction, but no confirmation either: one stopped early or failed), or
    ``disagree`` (what one proves contradicts the other).
    """

    solver: str
    solver_version: str
    status: str
    objective: float | None
    bound: float | None
    runtime_s: float
    verdict: str
    detail: str

    def to_dict(self) -> dict:
        return {
            "solver": self.solver,
            "solver_version": self.solver_version,
            "status": self.status,
            "objective": self.objective,
            "bound": self.bound,
            "runtime_s": round(self.runtime_s, 6),
            "verdict": self.verdict,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Result:
    """The one result shape of every solve, MILP or LP, HiGHS or CBC.

    ``values`` maps variable names to primal values (empty when there is no solution); ``duals`` and
    ``reduced_costs`` are set for LPs solved to optimality, keyed by constraint and variable names
    (name every constraint; an unnamed one is keyed by its position, ``#i``).
    ``gap`` is ``|objective - bound| / |objective|`` (``inf`` when the objective is 0 and the bound is
    not), None when either is missing.
    """

    status: str
    sense: str
    is_mip: bool
    objective: float | None
    bound: float | None
    gap: float | None
    runtime_s: float
    solver: str
    solver_version: str
    values: Mapping[str, float] = field(default_factory=dict, repr=False)
    duals: Mapping[str, float] | None = field(default=None, repr=False)
    reduced_costs: Mapping[str, float] | None = field(default=None, repr=False)
    message: str = ""
    cross_check: CrossCheck | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def optimal(self) -> bool:
        return self.status == "optimal"

    @property
    def has_solution(self) -> bool:
        return self.status in ("optimal", "feasible") and self.objective is not None

    def value(self, var: pulp.LpVariable | str) -> float:
        """The primal value of a variable (or variable name) in this result's solution."""
        return self.values[var if isinstance(var, str) else var.name]

    def to_dict(self) -> dict:
        """JSON-ready summary (no primal values or duals); infinite gaps become null."""
        gap = self.gap if self.gap is not None and math.isfinite(self.gap) else None
        return {
            "status": self.status,
            "sense": self.sense,
            "mip": self.is_mip,
            "objective": self.objective,
            "bound": self.bound,
            "gap": gap,
            "runtime_s": round(self.runtime_s, 6),
            "solver": self.solver,
            "solver_version": self.solver_version,
            "message": self.message,
            "options": dict(self.options),
            "cross_check": self.cross_check.to_dict() if self.cross_check else None,
        }


def solve(
    model: Model | Computed | pulp.LpProblem,
    *,
    solver: str = "highs",
    time_limit: float | None = None,
    gap: float = 0.0,
    presolve: bool = False,
    threads: int | None = None,
    node_limit: int | None = None,
    cross_check: bool = False,
    msg: bool = False,
) -> Result:
    """Solve a built model and return an honest :class:`Result`.

    ``gap`` is the relative MIP gap at which the solver may stop (0 for exact work; a run stopped by a
    positive gap is ``feasible``, not ``optimal``). ``node_limit`` stops a MILP's branch and bound
    after that many nodes: unlike ``time_limit``, a budget that gives the same answer on every
    machine (with ``threads=1``). ``presolve`` (off by default, see the module docstring) and
    ``threads`` go to the solver;
    ``cross_check`` also solves with the other solver (same options) and records the comparison;
    for a :class:`Computed` optimum, it solves the equivalent MILP with ``solver``.
    """
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose from {', '.join(SOLVERS)}")
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"time limit must be a positive number of seconds, got {time_limit!r}")
    if not (gap >= 0 and math.isfinite(gap)):
        raise ValueError(f"relative gap must be >= 0, got {gap!r}")
    if node_limit is not None and not (isinstance(node_limit, int) and node_limit >= 1):
        raise ValueError(f"node limit must be a positive integer, got {node_limit!r}")
    options = {"time_limit": time_limit, "gap": gap, "presolve": presolve, "threads": threads,
               "node_limit": node_limit}
    msg = msg or native_output.log_requested()
    if isinstance(model, Computed):
        return _computed(model, solver, options, cross_check, msg)
    problem = model.problem if isinstance(model, Model) else model
    with native_output.redirected():
        result = _solve_with(solver, problem, options, msg)
        if not cross_check:
            return result
        other = _solve_with(SOLVERS[1 - SOLVERS.index(solver)], problem, options, msg)
    return _adjudicate(problem, result, other)


def max_violation(problem: pulp.LpProblem, values: Mapping[str, float]) -> float:
    """The largest scaled violation of ``problem``'s bounds, integrality and constraints by ``values``.

    Each violation is divided by ``1 + |rhs|``; 0 means every constraint holds. A missing value counts
    as an infinite violation. Used to judge, independently of either solver, whose solution is real.
    """
    worst = 0.0
    for v in _variables(problem):
        x = values.get(v.name)
        if x is None or not math.isfinite(x):
            return math.inf
        if v.lowBound is not None:
            worst = max(worst, (v.lowBound - x) / (1 + abs(v.lowBound)))
        if v.upBound is not None:
            worst = max(worst, (x - v.upBound) / (1 + abs(v.upBound)))
        if v.cat == pulp.LpInteger:
            worst = max(worst, abs(x - round(x)))
    for c in problem.constraints():
        lhs = sum(coef * values[v.name] for v, coef in c.items() if v.name != _PULP_DUMMY) + c.constant
        scale = 1 + abs(c.constant)
        if c.sense == pulp.LpConstraintLE:
            worst = max(worst, lhs / scale)
        elif c.sense == pulp.LpConstraintGE:
            worst = max(worst, -lhs / scale)
        else:
            worst = max(worst, abs(lhs) / scale)
    return worst


# ----------------------------------------------------------------------------------------------
# Solver runs


def _solve_with(solver: str, problem: pulp.LpProblem, options: dict, msg: bool) -> Result:
    run = _run_highs if solver == "highs" else _run_cbc
    start = time.perf_counter()
    raw = run(problem, options, msg)
    if raw.status == "ambiguous":
        raw = replace(raw, status=_settle_infeasible_or_unbounded(run, problem, options, msg))
    return _finish(problem, raw, options, time.perf_counter() - start)


@dataclass
class _Raw:
    """What one solver run produced, before the shared finishing rules."""

    status: str  # a STATUSES entry, or "ambiguous" for "infeasible or unbounded"
    solver: str
    version: str
    values: dict[str, float]
    bound: float | None
    duals: dict[str, float] | None = None
    reduced_costs: dict[str, float] | None = None
    message: str = ""


class _HighsBuildOnly(pulp.HiGHS):
    """PuLP's HiGHS adapter, with the model passed to HiGHS in one call and without PuLP's
    read-back, whose status mapping is not honest (see the module docstring).

    PuLP configures and runs HiGHS; :func:`_run_highs` reads status, values and bound from the
    ``highspy.Highs`` object PuLP leaves on ``problem.solverModel``. PuLP's own model building adds
    columns and integrality one at a time, which grows quadratically with the model.
    """

    def buildSolverModel(self, lp):
        variables = lp.variables()
        for i, v in enumerate(variables):
            v.index = i
        sign = -1.0 if lp.sense == pulp.LpMaximize else 1.0
        objective = lp.objective if lp.objective is not None else {}
        model = highspy.HighsLp()
        model.num_col_ = len(variables)
        model.col_cost_ = np.array([sign * objective.get(v, 0.0) for v in variables], dtype=float)
        inf = highspy.kHighsInf
        model.col_lower_ = np.array([-inf if v.lowBound is None else v.lowBound for v in variables], dtype=float)
        model.col_upper_ = np.array([inf if v.upBound is None else v.upBound for v in variables], dtype=float)
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
        matrix.num_col_, matrix.num_row_ = len(variables), len(lower)
        matrix.start_ = np.array(starts, dtype=np.int32)
        matrix.index_ = np.array(index, dtype=np.int32)
        matrix.value_ = np.array(value, dtype=float)
        model.a_matrix_ = matrix
        if self.mip and any(v.cat == pulp.LpInteger for v in variables):
            model.integrality_ = [highspy.HighsVarType.kInteger if v.cat == pulp.LpInteger
                                  else highspy.HighsVarType.kContinuous for v in variables]
        lp.solverModel.passModel(model)

    def findSolutionValues(self, lp):
        return pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound


_HIGHS_STOPPED = {"kTimeLimit", "kIterationLimit", "kInterrupt", "kSolutionLimit", "kObjectiveBound",
                  "kObjectiveTarget", "kMemoryLimit"}
_highs_threads: list[int | None] = [None]


def _run_highs(problem: pulp.LpProblem, options: dict, msg: bool) -> _Raw:
    is_mip = _is_mip(problem)
    threads = options["threads"]
    if threads != _highs_threads[0]:
        # HiGHS's thread pool is process-global and refuses a new size until it is reset.
        highspy.Highs.resetGlobalScheduler(True)
        _highs_threads[0] = threads
    params: dict[str, Any] = {"presolve": "on" if options["presolve"] else "off"}
    if is_mip:
        params["mip_rel_gap"] = options["gap"]
        if options["node_limit"] is not None:
            params["mip_max_nodes"] = options["node_limit"]
            # RINS and RENS search sub-MIP trees that mip_max_nodes does not count; HiGHS 1.16.0
            # stalled inside one for over 25 minutes (docs/solvers.md, "A node budget counts every node").
            params["mip_heuristic_run_rins"] = False
            params["mip_heuristic_run_rens"] = False
    adapter = _HighsBuildOnly(msg=msg, timeLimit=options["time_limit"], threads=threads, **params)
    version = highs_version()
    try:
        problem.solve(adapter)
    except Exception as exc:  # HiGHS refusing a model is a result, not a crash of the caller
        return _Raw("error", "highs", version, {}, None, message=f"HiGHS failed: {exc}")
    h: highspy.Highs = problem.solverModel
    status_name = h.getModelStatus().name
    info = h.getInfo()
    solution = h.getSolution()
    sign = -1.0 if problem.sense == pulp.LpMaximize else 1.0  # PuLP hands HiGHS min(sign * f)
    constant = problem.objective.constant if problem.objective is not None else 0.0
    has_primal = info.primal_solution_status == highspy.SolutionStatus.kSolutionStatusFeasible
    variables = _variables(problem)
    col_value = list(solution.col_value)  # each attribute access copies the whole vector
    values = {v.name: float(col_value[v.index]) for v in variables} if has_primal else {}
    bound = None
    if is_mip and math.isfinite(info.mip_dual_bound):
        bound = sign * info.mip_dual_bound + constant
    if status_name == "kOptimal":
        status = "optimal"
    elif status_name == "kModelEmpty":
        status, values, bound = "optimal", {v.name: 0.0 for v in variables}, constant
    elif status_name == "kInfeasible":
        status, values = "infeasible", {}
    elif status_name == "kUnbounded":
        status = "unbounded"
    elif status_name == "kUnboundedOrInfeasible":
        status, values = "ambiguous", {}
    elif status_name in _HIGHS_STOPPED:
        status = "feasible" if values else "not_solved"
    else:
        return _Raw("error", "highs", version, {}, None, message=f"HiGHS model status {status_name}")
    raw = _Raw(status, "highs", version, values, bound, message=_stop_reason(status_name))
    if not is_mip and status == "optimal":
        row_dual, col_dual = list(solution.row_dual), list(solution.col_dual)
        raw.duals = {key: sign * float(row_dual[c.index]) for key, c in _keyed_rows(problem)}
        raw.reduced_costs = {v.name: sign * float(col_dual[v.index]) for v in variables}
    return raw


def _keyed_rows(problem: pulp.LpProblem) -> list[tuple[str, pulp.LpConstraint]]:
    """Constraints keyed by name; an unnamed one by its position, as ``#i``."""
    return [(c.name or f"#{i}", c) for i, c in enumerate(problem.constraints())]


#: Why a solve stopped on its time limit; the result then depends on the machine's speed.
TIME_LIMIT_REACHED = "time limit reached (a wall-clock budget: the result may change with the machine's speed)"


def _stop_reason(status_name: str) -> str:
    return {"kTimeLimit": TIME_LIMIT_REACHED, "kIterationLimit": "iteration limit reached",
            "kSolutionLimit": "node limit reached", "kInterrupt": "interrupted"}.get(status_name, "")


_CBC_BOUND = re.compile(r"^(?:Lower|Upper) bound:\s+(\S+)", re.MULTILINE)


def _run_cbc(problem: pulp.LpProblem, options: dict, msg: bool) -> _Raw:
    """CBC 2.10.3 as PuLP ships it, with its MIP preprocessing off.

    With preprocessing on, this CBC returns wrong answers on small MILPs: a suboptimal "optimal",
    or "infeasible" for a feasible model (13 of 3,000 random 2-7 variable MILPs; see docs/solvers.md).
    With it off no wrong answer was seen in 20,000 such models, but CBC may crash on an infeasible
    model; it is then run once more with preprocessing on, and the message says so.
    """
    raw = _run_cbc_once(problem, options, msg, preprocess=False)
    if raw.status == "error":
        retry = _run_cbc_once(problem, options, msg, preprocess=True)
        retry.message = "; ".join(filter(None, [f"CBC crashed with preprocessing off ({raw.message}); "
                                                 "reran with preprocessing on", retry.message]))
        return retry
    return raw


def _run_cbc_once(problem: pulp.LpProblem, options: dict, msg: bool, preprocess: bool) -> _Raw:
    is_mip = _is_mip(problem)
    version = cbc_version()
    fd, log_path = tempfile.mkstemp(prefix="optsched-cbc-", suffix=".log")
    os.close(fd)
    adapter = pulp.COIN_CMD(
        path=pulp_cbc_path, mip=is_mip, msg=False, timeLimit=options["time_limit"],
        gapRel=options["gap"] if is_mip else None, threads=options["threads"],
        presolve=options["presolve"], logPath=log_path,
        options=([] if preprocess or not is_mip else ["preprocess off"])
        + ([f"maxNodes {options['node_limit']}"] if is_mip and options["node_limit"] is not None else []),
    )
    try:
        problem.solve(adapter)
        with open(log_path) as f:
            log = f.read()
    except Exception as exc:
        return _Raw("error", "cbc", version, {}, None, message=f"CBC failed: {exc}")
    finally:
        os.unlink(log_path)
    if msg:
        print(log)
    constant = problem.objective.constant if problem.objective is not None else 0.0
    values = {v.name: float(v.varValue) for v in _variables(problem) if v.varValue is not None}
    stopped = "Stopped on" in log or "stopped on" in log
    if problem.status == pulp.LpStatusOptimal and problem.sol_status == pulp.LpSolutionOptimal:
        status = "optimal"
    elif problem.status == pulp.LpStatusOptimal:  # PuLP's name for "stopped with an incumbent"
        status = "feasible"
    elif problem.status == pulp.LpStatusInfeasible:
        status = "ambiguous" if "infeasible or unbounded" in log and is_mip else "infeasible"
    elif problem.status == pulp.LpStatusUnbounded:
        status = "unbounded"
    elif problem.status == pulp.LpStatusNotSolved:
        status = "not_solved"
    else:
        return _Raw("error", "cbc", version, {}, None, message="CBC returned no usable status")
    if status not in ("optimal", "feasible"):
        values = {}
    match = _CBC_BOUND.search(log)
    bound = float(match.group(1)) + constant if (is_mip and match) else None
    if is_mip and status == "optimal" and bound is None:
        # CBC prints no bound line when it proves optimality: its bound is then the objective.
        bound = _objective_of(problem, values)
    reason = "node limit reached" if "Stopped on node limit" in log else TIME_LIMIT_REACHED
    raw = _Raw(status, "cbc", version, values, bound, message=reason if stopped and status != "optimal" else "")
    if not is_mip and status == "optimal":
        raw.duals = {key: float(c.pi) for key, c in _keyed_rows(problem)}
        raw.reduced_costs = {v.name: float(v.dj) for v in _variables(problem)}
    return raw


@cache
def cbc_version() -> str:
    """The version string of the CBC binary PuLP ships (read from its banner)."""
    try:
        out = subprocess.run([pulp_cbc_path, "-quit"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return "unavailable"
    match = re.search(r"Version:\s*(\S+)", out)
    return match.group(1) if match else "unknown"


@cache
def highs_version() -> str:
    """The version of the HiGHS library highspy loads (creating the object prints a banner)."""
    with native_output.redirected():
        return highspy.Highs().version()


def _settle_infeasible_or_unbounded(run, problem: pulp.LpProblem, options: dict, msg: bool) -> str:
    """Tell 'infeasible' from 'unbounded' by solving the feasibility problem (zero objective).

    For rational data a feasible MILP whose solver reports 'infeasible or unbounded' is unbounded;
    a zero objective cannot be unbounded, so the same answer for the feasibility problem means infeasible.
    """
    feasibility = problem.copy()
    feasibility.sense = pulp.LpMinimize
    feasibility.objective = pulp.LpAffineExpression({v: 0.0 for v in _variables(problem)})
    status = run(feasibility, options, msg).status
    if status in ("optimal", "feasible"):
        return "unbounded"
    return "infeasible" if status in ("infeasible", "ambiguous") else "not_solved"


# ----------------------------------------------------------------------------------------------
# Finishing and cross-checking


def _objective_of(problem: pulp.LpProblem, values: Mapping[str, float]) -> float:
    expr = problem.objective
    if expr is None:
        return 0.0
    return sum(c * values[v.name] for v, c in expr.items() if c) + expr.constant


def _snap_integers(problem: pulp.LpProblem, values: dict[str, float]) -> dict[str, float]:
    """Round integer variables that are within the solvers' integrality tolerance of an integer."""
    snapped = dict(values)
    for v in _variables(problem):
        x = snapped.get(v.name)
        if v.cat == pulp.LpInteger and x is not None:
            if abs(x - round(x)) <= SOLUTION_TOL:
                snapped[v.name] = float(round(x))
    return snapped


def _relative_gap(objective: float | None, bound: float | None) -> float | None:
    if objective is None or bound is None:
        return None
    if close(objective, bound):
        return 0.0
    return abs(objective - bound) / abs(objective) if objective != 0 else math.inf


def _finish(problem: pulp.LpProblem, raw: _Raw, options: dict, runtime: float) -> Result:
    """Apply the shared rules: objective from the values, bound and gap, and 'optimal' only at gap 0."""
    is_mip, sense = _is_mip(problem), _sense(problem)
    if is_mip and raw.values:
        raw.values = _snap_integers(problem, raw.values)
    solved = raw.status in ("optimal", "feasible")
    objective = _objective_of(problem, raw.values) if raw.values or (solved and not _variables(problem)) else None
    bound = raw.bound
    if not is_mip and raw.status == "optimal":
        bound = objective
    gap = _relative_gap(objective, bound)
    status, message = raw.status, raw.message
    if status == "optimal" and objective is None:
        status, message = "error", f"{raw.solver} reported optimal but returned no solution"
    elif status == "optimal" and gap != 0.0:
        status = "feasible"
        message = (f"{raw.solver} stopped at relative gap {gap:.3g} "
                   f"(requested {options['gap']:g}); not proven optimal")
    return Result(
        status=status, sense=sense, is_mip=is_mip, objective=objective, bound=bound, gap=gap,
        runtime_s=runtime, solver=raw.solver, solver_version=raw.version, values=raw.values,
        duals=raw.duals if status == "optimal" else None,
        reduced_costs=raw.reduced_costs if status == "optimal" else None,
        message=message, options=options,
    )


def _interval(r: Result) -> tuple[float, float] | None:
    """What ``r`` proves about the optimum, as [low, high] in minimisation orientation, or None.

    Infeasible is the empty interval at +inf, unbounded the point -inf (both in min orientation).
    """
    flip = -1.0 if r.sense == "max" else 1.0
    if r.status == "infeasible":
        return (math.inf, math.inf)
    if r.status == "unbounded":
        return (-math.inf, -math.inf)
    if r.status == "error":
        return None
    low = flip * r.bound if r.bound is not None else -math.inf
    high = flip * r.objective if r.objective is not None else math.inf
    return (low, high)


def _compare(a: Result, b: Result) -> tuple[str, str]:
    ia, ib = _interval(a), _interval(b)
    if ia is None or ib is None:
        return "consistent", "one solver failed; nothing to compare"
    if a.status == b.status and a.status in ("infeasible", "unbounded"):
        return "agree", f"both {a.status}"
    if a.status == b.status == "optimal" and a.objective is not None and b.objective is not None:
        if close(a.objective, b.objective, CROSS_CHECK_RTOL):
            return "agree", f"both optimal at {a.objective:.10g}"
        return "disagree", f"optimal {a.objective:.10g} ({a.solver}) vs {b.objective:.10g} ({b.solver})"
    lo, hi = max(ia[0], ib[0]), min(ia[1], ib[1])
    if lo > hi and not (math.isfinite(lo) and math.isfinite(hi) and close(lo, hi, CROSS_CHECK_RTOL)):
        return "disagree", f"{a.solver} says {a.status} ({_describe(a)}), {b.solver} says {b.status} ({_describe(b)})"
    return "consistent", f"{a.solver} {a.status} ({_describe(a)}), {b.solver} {b.status} ({_describe(b)})"


def _describe(r: Result) -> str:
    parts = []
    if r.objective is not None:
        parts.append(f"objective {r.objective:.10g}")
    if r.bound is not None:
        parts.append(f"bound {r.bound:.10g}")
    return ", ".join(parts) or "no values"


def _adjudicate(problem: pulp.LpProblem, primary: Result, other: Result) -> Result:
    verdict, detail = _compare(primary, other)
    check = CrossCheck(other.solver, other.solver_version, other.status, other.objective, other.bound,
                       other.runtime_s, verdict, detail)
    if verdict != "disagree":
        return replace(primary, cross_check=check)
    # Neither solver can be trusted: keep the best incumbent that satisfies the model, claim no bound.
    flip = -1.0 if primary.sense == "max" else 1.0
    candidates = [(flip * r.objective, r) for r in (primary, other)
                  if r.has_solution and r.objective is not None and max_violation(problem, r.values) <= SOLUTION_TOL]
    note = f"solvers disagree: {detail}"
    if not candidates:
        return replace(primary, status="not_solved", objective=None, bound=None, gap=None, values={},
                       duals=None, reduced_costs=None, message=note, cross_check=check)
    best = min(candidates, key=lambda pair: pair[0])[1]
    return replace(primary, status="feasible", objective=best.objective, bound=None, gap=None,
                   values=best.values, duals=None, reduced_costs=None,
                   message=f"{note}; reporting {best.solver}'s verified incumbent, optimum unknown",
                   cross_check=check)
