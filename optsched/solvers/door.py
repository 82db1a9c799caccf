"""The door: :func:`solve` checks the options, runs a backend (highs.py and cbc.py for a PuLP
:class:`~optsched.solvers.model.Model`, cpsat.py for a :class:`~optsched.solvers.model.CpSatModel`)
or a :class:`~optsched.solvers.model.Computed` optimum, applies the finishing rules every result shares,
and adjudicates a cross-check; :class:`Result` is the one shape of every answer. The honesty rules
are in the package's docstring (:mod:`optsched.solvers`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import partial
from typing import Any

import pulp

from .. import __version__, native_output
from ..numeric import close
from . import cbc, cpsat, highs, pulp_any
from .backend import Raw
from .model import (
    SOLUTION_TOL,
    Computed,
    CpSatModel,
    Generated,
    Model,
    is_mip,
    keyed_rows,
    max_violation,
    objective_of,
    sense_of,
    variables,
)


class SolveStatus(str, Enum):
    """How a solve ended. A ``str`` subclass, so that ``result.status == "optimal"``, JSON, CSV and
    f-strings see the plain value ("optimal"), as before it was an enum.

    ``OPTIMAL`` only when the solver proved optimality (:attr:`Result.success`); ``FEASIBLE``: a
    solution without that proof (a limit stopped the search, or the optimum was not confirmed);
    ``NOT_SOLVED``: no solution (a limit stopped it first); ``ERROR``: the solver failed.
    """

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    NOT_SOLVED = "not_solved"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


STATUSES = ("optimal", "feasible", "infeasible", "unbounded", "not_solved", "error")  #: SolveStatus's values
#: The MILP backends by name, in cross-check order: a cross-check runs the other one.
SOLVERS = ("highs", "cbc")
#: The backend of a :class:`CpSatModel`.
CP_SAT = "cp-sat"
#: Relative tolerance at which two solvers' objectives count as equal. Each solver accepts
#: constraint violations up to its feasibility tolerance (1e-7 primal, 1e-6 integrality), which
#: moves objectives by about 1e-6 of their size; seen: HiGHS -0.999999 vs CBC -1 on a true -1.
CROSS_CHECK_RTOL = 1e-5


@dataclass(frozen=True)
class CrossCheck:
    """What the other solver said about the same model, or another model (``formulation``, None for
    the same model) about the same problem, and whether the two are compatible.

    ``verdict``: ``agree`` (both proved the same optimum, or both infeasible, or both unbounded),
    ``consistent`` (no contradiction, but no confirmation either: one stopped early or failed), or
    ``disagree`` (what one proves contradicts the other).
    """

    solver: str
    solver_version: str
    status: SolveStatus
    objective: float | None
    bound: float | None
    runtime_s: float
    verdict: str
    detail: str
    formulation: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", SolveStatus(self.status))

    def to_dict(self) -> dict:
        """This ``CrossCheck`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {
            "formulation": self.formulation,
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
    """The one result shape of every solve, MILP or LP, HiGHS, CBC or CP-SAT.

    ``values`` maps variable names to primal values (empty when there is no solution); ``duals`` and
    ``reduced_costs`` are set for LPs solved to optimality, keyed by constraint and variable names
    (name every constraint; an unnamed one is keyed by its position, ``#i``).
    ``gap`` is ``|objective - bound| / |objective|`` (``inf`` when the objective is 0 and the bound is
    not), None when either is missing. A generated LP (column generation) also gives its
    ``trajectory`` (the certified bound before the first round and after each) and may give
    ``found``, a schedule of the family's problem it found on the way (its primal side), which the
    pipeline verifies; both are empty for every other solve.
    """

    status: SolveStatus
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
    #: an LP's optimal basis where the solver gives one (HiGHS): ``{"rows": {name: status},
    #: "columns": {name: status}}``, statuses ``basic``, ``at lower``, ``at upper``, ``free``, ``nonbasic``
    basis: Mapping[str, Mapping[str, str]] | None = field(default=None, repr=False)
    #: an LP's slack per constraint name at the solution (``rhs − activity`` for ``<=``, ``activity −
    #: rhs`` for ``>=``, 0 for ``==``), computed by the door from the primal values
    slacks: Mapping[str, float] | None = field(default=None, repr=False)
    message: str = ""
    cross_check: CrossCheck | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    trajectory: tuple[float, ...] = ()
    found: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", SolveStatus(self.status))  # a backend's string becomes the enum

    @property
    def optimal(self) -> bool:
        """True when the solver proved optimality at a zero gap (status ``optimal``)."""
        return self.status is SolveStatus.OPTIMAL

    @property
    def success(self) -> bool:
        """True only when the solver proved optimality (as ``scipy.optimize.OptimizeResult.success``
        for an optimizer that converged): then :attr:`objective` is the optimum."""
        return self.optimal

    @property
    def has_solution(self) -> bool:
        """True when there is a solution (``optimal`` or ``feasible`` with an objective)."""
        return self.status in ("optimal", "feasible") and self.objective is not None

    @property
    def bound_moved(self) -> bool | None:
        """Whether a generated LP's bound left where it started (its trajectory holds the best bound so
        far, so any change is an improvement); None without a trajectory."""
        return self.trajectory[-1] != self.trajectory[0] if self.trajectory else None

    def value(self, var: pulp.LpVariable | str) -> float:
        """The primal value of a variable (or variable name) in this result's solution."""
        return self.values[var if isinstance(var, str) else var.name]

    def rows(self) -> list[dict[str, Any]]:
        """An LP solved to optimality, per constraint: ``name``, ``dual``, ``slack``, ``binding`` (its
        slack is 0 up to :data:`BINDING`, relative) and ``basis`` (None where the solver gives none);
        empty for anything else. ``pandas.DataFrame(result.rows())`` tabulates it."""
        if self.duals is None or self.slacks is None:
            return []
        basis = (self.basis or {}).get("rows", {})
        return [{"name": name, "dual": self.duals[name], "slack": slack, "binding": slack == 0.0,
                 "basis": basis.get(name)} for name, slack in self.slacks.items()]

    def columns(self) -> list[dict[str, Any]]:
        """An LP solved to optimality, per variable: ``name``, ``value``, ``reduced_cost`` and ``basis``;
        empty for anything else."""
        if self.reduced_costs is None:
            return []
        basis = (self.basis or {}).get("columns", {})
        return [{"name": name, "value": self.values.get(name), "reduced_cost": cost, "basis": basis.get(name)}
                for name, cost in self.reduced_costs.items()]

    def to_dict(self) -> dict:
        """JSON-ready summary; infinite gaps become null. An LP solved to optimality adds :meth:`rows` and
        :meth:`columns` (duals, slacks, values, reduced costs, basis); a MILP gives no values here."""
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
            "trajectory": list(self.trajectory),
            "bound_moved": self.bound_moved,
            **({"rows": self.rows(), "columns": self.columns()} if self.duals is not None else {}),
        }


def solve(
    model: Model | CpSatModel | Computed | Generated | pulp.LpProblem,
    *,
    solver: str | None = None,
    time_limit: float | None = None,
    gap: float = 0.0,
    presolve: bool = False,
    threads: int | None = None,
    node_limit: int | None = None,
    work_limit: float | None = None,
    cross_check: bool = False,
    msg: bool = False,
    start: Mapping[str, float] | None = None,
) -> Result:
    """Solve a built model and return an honest :class:`Result`.

    ``solver`` is ``highs``, ``cbc``, or ``pulp:NAME`` for any other solver PuLP drives where it is
    installed (``pulp:GUROBI_CMD``, ``pulp:SCIP_CMD``; :mod:`optsched.solvers.pulp_any`, whose status
    rules are stricter). ``start`` is a solution to start from, values by variable name (others 0;
    ``result.values`` of an earlier solve will do): a MIP start for HiGHS and the PuLP solvers
    (through PuLP's ``warmStart``), hints for CP-SAT (by the names of the model's ``read``); it
    replaces the model's own start, and changes how fast an optimum is found, never which value is
    proven. CBC runs without one.

    ``gap`` is the relative MIP gap at which the solver may stop (0 for exact work; a run stopped by a
    positive gap is ``feasible``, not ``optimal``). ``node_limit`` stops a MILP's branch and bound
    after that many nodes: unlike ``time_limit``, a budget that gives the same answer on every
    machine (with ``threads=1``). ``presolve`` (off by default, see the module docstring) and
    ``threads`` go to the solver;
    ``cross_check`` also solves with the other solver (same options, and the time the first solve
    left of ``time_limit``) and records the comparison;
    for a :class:`Computed` optimum, it solves the equivalent MILP with ``solver``, and for a
    :class:`Generated` LP the same LP written out in full.
    A :class:`Generated` LP stops at convergence, at ``time_limit``, or after ``node_limit`` pricing
    rounds (its deterministic budget); the other budgets do not apply.

    A :class:`CpSatModel` is solved by CP-SAT (``solver`` None or ``"cp-sat"``), with one worker
    unless ``threads`` says otherwise; ``work_limit`` is its deterministic-time budget, the one
    that gives the same answer on every machine (``node_limit`` is the MILPs', and each refuses
    the other's). Its cross-check is another model of the same problem, which only the pipeline
    knows (:func:`optsched.pipeline.solve`).
    """
    cp = isinstance(model, CpSatModel)
    solver = solver or (CP_SAT if cp else SOLVERS[0])
    if cp and solver != CP_SAT:
        raise ValueError(f"a CP-SAT model is solved by {CP_SAT}, not {solver!r}")
    if not cp and solver not in SOLVERS:
        if not pulp_any.is_named(solver):
            raise ValueError(f"unknown solver {solver!r}; choose from {', '.join(SOLVERS)}, or pulp:NAME for any "
                             f"solver PuLP drives (here: {', '.join(pulp_any.available())})")
        refused = pulp_any.refusal(solver, node_limit)
        if refused:
            raise ValueError(refused)
    misplaced = misplaced_budget({"cp-sat" if cp else "milp"}, node_limit, work_limit)
    if misplaced:
        raise ValueError(misplaced)
    if cp and cross_check:
        raise ValueError("a CP-SAT model is cross-checked against another model of the problem, "
                         "which the pipeline builds (optsched.pipeline.solve)")
    if work_limit is not None and not (work_limit > 0 and math.isfinite(work_limit)):
        raise ValueError(f"work limit must be a positive number, got {work_limit!r}")
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"time limit must be a positive number of seconds, got {time_limit!r}")
    if not (gap >= 0 and math.isfinite(gap)):
        raise ValueError(f"relative gap must be >= 0, got {gap!r}")
    if node_limit is not None and not (isinstance(node_limit, int) and node_limit >= 1):
        raise ValueError(f"node limit must be a positive integer, got {node_limit!r}")
    if cp:
        options = {"time_limit": time_limit, "gap": gap, "threads": threads or 1, "work_limit": work_limit}
    else:
        options = {"time_limit": time_limit, "gap": gap, "presolve": presolve, "threads": threads,
                   "node_limit": node_limit}
    msg = msg or native_output.log_requested()
    if start is not None:
        _check_start(model, start)
    if isinstance(model, Computed):
        return _computed(model, solver, options, cross_check, msg)
    if isinstance(model, Generated):
        return _generated(model, solver, options, cross_check, msg)
    if isinstance(model, CpSatModel):
        with native_output.redirected():
            return _solve_cp_sat(model, options, msg, start)
    problem = model.problem if isinstance(model, Model) else model
    if start is None and isinstance(model, Model):
        start = model.start
    with native_output.redirected():
        result = _solve_with(solver, problem, options, msg, start)
        if not cross_check:
            return result
        left = None if time_limit is None else time_limit - result.runtime_s  # the limit covers both solves
        if left is not None and left <= 0:
            skipped = CrossCheck(_other(solver), "", SolveStatus.NOT_SOLVED, None, None, 0.0,
                                 "consistent", "not run: the time limit was used up by the first solve")
            return replace(result, cross_check=skipped)
        other = _solve_with(_other(solver), problem, options | {"time_limit": left}, msg, start)
    return _adjudicate(problem, result, other)


def _computed(model: Computed, solver: str, options: dict, cross_check: bool, msg: bool) -> Result:
    started = time.perf_counter()
    value = float(model.compute())
    result = Result(SolveStatus.OPTIMAL, model.sense, model.is_mip, value, value, 0.0, time.perf_counter() - started,
                    model.method, __version__, message=model.proof, options={k: v for k, v in options.items() if v})
    return _checked_against(result, model.milp, solver, options, cross_check, msg)


def _generated(model: Generated, solver: str, options: dict, cross_check: bool, msg: bool) -> Result:
    started = time.perf_counter()
    with native_output.redirected():
        outcome = model.run(options["time_limit"], options["node_limit"])
    raw = Raw("optimal" if outcome.converged else ("feasible" if outcome.objective is not None else "not_solved"),
              model.method, highs.version(), {}, outcome.bound, message=outcome.message)
    result = _finished(raw, model.sense, False, outcome.objective, outcome.bound, options,
                       time.perf_counter() - started)
    result = replace(result, trajectory=tuple(outcome.trajectory), found=outcome.schedule)
    return _checked_against(result, model.lp, solver, options, cross_check, msg)


def _checked_against(result: Result, written_out, solver: str, options: dict, cross_check: bool,
                     msg: bool) -> Result:
    """``result`` of a model solved without a solver, cross-checked (when asked) against the same
    optimum as a solver model, ``written_out()``, solved with ``solver``."""
    if not cross_check:
        return result
    problem = written_out().problem
    with native_output.redirected():
        other = _solve_with(solver, problem, options, msg)
    return _adjudicate(problem, result, other)


class StartRefused(ValueError):
    """A ``start`` the model cannot take (:func:`solve`)."""


def _check_start(model: Model | CpSatModel | Computed | Generated | pulp.LpProblem, start: Mapping[str, float]) -> None:
    """Refuse a ``start`` the model cannot take: no solver model to start (computed, generated), a
    name the model lacks (a CP-SAT model: one it does not read), a value that is not a finite number,
    or, for CP-SAT, not an integer."""
    if isinstance(model, (Computed, Generated)):
        raise StartRefused(f"{model.method} is solved without a solver model to start from")
    if not isinstance(start, Mapping):
        raise StartRefused(f"expected values by variable name, got a {type(start).__name__}")
    read = list(model.read) if isinstance(model, CpSatModel) else None  # a CP-SAT model's hints go by these
    names = set(read) if read is not None else \
        {v.name for v in variables(model.problem if isinstance(model, Model) else model)}
    cp = read is not None
    for name, value in start.items():
        if name not in names:
            raise StartRefused(f"hints name {name!r:.60}, which the CP-SAT model does not read (it reads "
                               f"{len(names)} variables, e.g. {', '.join((read or [])[:3])})" if cp else
                               f"the model has no variable {name!r:.60}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise StartRefused(f"{name} = {value!r:.40}: expected a finite number")
        if cp and float(value) != round(float(value)):
            raise StartRefused(f"hint {name} = {value!r}: CP-SAT's variables are integers")


def _other(solver: str) -> str:
    """The solver that cross-checks ``solver``: CBC for HiGHS, HiGHS for every other."""
    return "cbc" if solver == "highs" else "highs"


def _backend(solver: str) -> Callable[..., Raw]:
    """``run(problem, options, msg, start=None) -> Raw`` of ``solver``'s backend (CBC ignores the start)."""
    if solver == "highs":
        return highs.run
    if solver == "cbc":
        return lambda problem, options, msg, start=None: cbc.run(problem, options, msg)
    return partial(pulp_any.run, solver)


def _solve_with(solver: str, problem: pulp.LpProblem, options: dict, msg: bool,
                start: Mapping[str, float] | None = None) -> Result:
    """One backend on ``problem``; HiGHS and the PuLP solvers are handed the MIP ``start`` (CBC, the
    cross-check, runs without)."""
    began = time.perf_counter()
    run = _backend(solver)
    raw = run(problem, options, msg, start)
    if raw.status == "ambiguous":
        raw = replace(raw, status=_settle_infeasible_or_unbounded(run, problem, options, msg))
    return _finish(problem, raw, options, time.perf_counter() - began)


def _solve_cp_sat(model: CpSatModel, options: dict, msg: bool, hints: Mapping[str, float] | None) -> Result:
    began = time.perf_counter()
    raw = cpsat.run(model, options, msg, hints)
    return _finished(raw, model.sense, True, raw.objective, raw.bound, options,
                     time.perf_counter() - began)


def _settle_infeasible_or_unbounded(run, problem: pulp.LpProblem, options: dict, msg: bool) -> str:
    """Tell 'infeasible' from 'unbounded' by solving the feasibility problem (zero objective).

    For rational data a feasible MILP whose solver reports 'infeasible or unbounded' is unbounded;
    a zero objective cannot be unbounded, so the same answer for the feasibility problem means infeasible.
    """
    feasibility = problem.copy()
    feasibility.sense = pulp.LpMinimize
    feasibility.objective = pulp.LpAffineExpression({v: 0.0 for v in variables(problem)})
    status = run(feasibility, options, msg).status
    if status in ("optimal", "feasible"):
        return "unbounded"
    return "infeasible" if status in ("infeasible", "ambiguous") else "not_solved"


def _snap_integers(problem: pulp.LpProblem, values: dict[str, float]) -> dict[str, float]:
    """Round integer variables that are within the solvers' integrality tolerance of an integer."""
    snapped = dict(values)
    for v in variables(problem):
        x = snapped.get(v.name)
        if v.cat == pulp.LpInteger and x is not None:
            if abs(x - round(x)) <= SOLUTION_TOL:
                snapped[v.name] = float(round(x))
    return snapped


def relative_gap(objective: float | None, bound: float | None) -> float | None:
    """``|objective − bound| / |objective|`` (0 when they are close, None without either)."""
    if objective is None or bound is None:
        return None
    if close(objective, bound):
        return 0.0
    return abs(objective - bound) / abs(objective) if objective != 0 else math.inf


def _finish(problem: pulp.LpProblem, raw: Raw, options: dict, runtime: float) -> Result:
    """Apply the shared rules: objective from the values, bound and gap, and 'optimal' only at gap 0."""
    mip, sense = is_mip(problem), sense_of(problem)
    if mip and raw.values:
        raw.values = _snap_integers(problem, raw.values)
    solved = raw.status in ("optimal", "feasible")
    objective = objective_of(problem, raw.values) if raw.values or (solved and not variables(problem)) else None
    bound = raw.bound
    if not mip and raw.status == "optimal":
        bound = objective
    result = _finished(raw, sense, mip, objective, bound, options, runtime)
    if result.duals is not None:
        result = replace(result, slacks=_slacks(problem, result.values), basis=raw.basis)
    return result


#: A constraint binds when its slack is within this much of 0, relative to ``max(1, |rhs|)``.
BINDING = 1e-7


def _slacks(problem: pulp.LpProblem, values: Mapping[str, float]) -> dict[str, float]:
    """Per constraint name, its slack at ``values`` (``Result.slacks``), in the row's own units; a
    slack within :data:`BINDING` of 0 (relative) is 0: the row binds."""
    out = {}
    for key, c in keyed_rows(problem):
        activity = sum(coef * values[v.name] for v, coef in c.items()) + c.constant  # c.constant is −rhs
        slack = 0.0 if c.sense == pulp.LpConstraintEQ else (-activity if c.sense == pulp.LpConstraintLE else activity)
        out[key] = slack if abs(slack) > BINDING * max(1.0, abs(c.constant)) else 0.0
    return out


def _finished(raw: Raw, sense: str, mip: bool, objective: float | None, bound: float | None, options: dict,
              runtime: float) -> Result:
    """The rules every backend's result shares: 'optimal' only with a solution at gap 0."""
    gap = relative_gap(objective, bound)
    status, message = raw.status, raw.message
    if status == "optimal" and objective is None:
        status, message = "error", f"{raw.solver} reported optimal but returned no solution"
    elif status == "optimal" and gap != 0.0:
        status = "feasible"
        message = (f"{raw.solver} stopped at relative gap {gap:.3g} "
                   f"(requested {options['gap']:g}); not proven optimal")
    return Result(
        status=SolveStatus(status), sense=sense, is_mip=mip, objective=objective, bound=bound, gap=gap,
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


def compare(a: Result, b: Result) -> tuple[str, str]:
    """``(verdict, detail)``: whether what ``a`` and ``b`` prove about the same optimum agrees
    (``agree``), does not contradict (``consistent``) or contradicts (``disagree``); see
    :class:`CrossCheck`. Used for two solvers on one model, and for two models of one problem."""
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


#: The options only one engine takes: a MILP's branch-and-bound nodes (its deterministic budget) and
#: presolve; CP-SAT's deterministic time (its budget).
MILP_ONLY = ("node_limit", "presolve")
CP_SAT_ONLY = ("work_limit",)


def misplaced_budget(engines: set[str], node_limit: int | None, work_limit: float | None) -> str | None:
    """Why a deterministic budget given is none of ``engines``' (one line), or None when each given
    budget bounds an engine that solves: the one rule the solver door and the pipeline check."""
    if node_limit is not None and "milp" not in engines:
        return ("a node limit bounds MILP solves (node_limit is a MILP budget), and only a CP-SAT model is solved "
                "here (its deterministic budget is the work limit)")
    if work_limit is not None and "cp-sat" not in engines:
        return ("a work limit is CP-SAT's deterministic budget, and no CP-SAT model is solved here (a MILP's "
                "budget is the node limit)")
    return None


def for_engine(engine: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` without those only the other engine takes (:data:`MILP_ONLY`, :data:`CP_SAT_ONLY`)."""
    foreign = CP_SAT_ONLY if engine == "milp" else MILP_ONLY
    return {key: value for key, value in options.items() if key not in foreign}


def _describe(r: Result) -> str:
    parts = []
    if r.objective is not None:
        parts.append(f"objective {r.objective:.10g}")
    if r.bound is not None:
        parts.append(f"bound {r.bound:.10g}")
    return ", ".join(parts) or "no values"


@dataclass(frozen=True)
class Incumbent:
    """A solution a cross-check may keep when the two solves contradict each other: its objective (the
    verifier's, where there is one), who found it (a solver or a formulation), its values, and what
    it is (``verified incumbent``, ``verified schedule``)."""

    objective: float
    source: str
    values: Mapping[str, float]
    kind: str


def adjudicate(primary: Result, other: Result, trusted: list[Incumbent | None], *, between: str,
               formulation: str | None = None) -> tuple[Result, int | None]:
    """``primary`` with ``other`` as its cross-check (a second solver on the same model, or another
    model of the same problem, ``formulation``), and which incumbent it keeps. Where the two agree
    or are consistent, ``primary`` as it is. Where they contradict each other, neither bound can be
    trusted: the better of the ``trusted`` incumbents (one per result, None where that result's
    solution cannot be trusted; ties to the first) with status ``feasible`` and no bound, or, with
    none, ``not_solved``. ``between`` names the pair in the message (``solvers``, ``models``).
    Returns the result and the index of the incumbent kept (None: none kept, or no contradiction)."""
    verdict, detail = compare(primary, other)
    check = CrossCheck(other.solver, other.solver_version, other.status, other.objective, other.bound,
                       other.runtime_s, verdict, detail, formulation=formulation)
    if verdict != "disagree":
        return replace(primary, cross_check=check), None
    note = f"{between} disagree: {detail}"
    flip = -1.0 if primary.sense == "max" else 1.0
    scored = [(flip * found.objective, k, found) for k, found in enumerate(trusted) if found is not None]
    if not scored:
        return replace(primary, status=SolveStatus.NOT_SOLVED, objective=None, bound=None, gap=None, values={},
                       duals=None, reduced_costs=None, message=note, cross_check=check), None
    _, k, best = min(scored, key=lambda item: item[:2])
    return replace(primary, status=SolveStatus.FEASIBLE, objective=best.objective, bound=None, gap=None,
                   values=dict(best.values), duals=None, reduced_costs=None,
                   message=f"{note}; reporting {best.source}'s {best.kind}, optimum unknown", cross_check=check), k


def _adjudicate(problem: pulp.LpProblem, primary: Result, other: Result) -> Result:
    """Two solvers on one model (:func:`adjudicate`): an incumbent is trusted where it satisfies the model."""
    trusted = [Incumbent(r.objective, r.solver, r.values, "verified incumbent")
               if r.has_solution and r.objective is not None and max_violation(problem, r.values) <= SOLUTION_TOL
               else None for r in (primary, other)]
    return adjudicate(primary, other, trusted, between="solvers")[0]
