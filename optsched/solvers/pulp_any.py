"""Any other solver PuLP drives (Gurobi, CPLEX, SCIP, GLPK, Xpress, COPT, ...), named ``pulp:NAME``
with ``NAME`` one of :func:`pulp.listSolvers` (``pulp:GUROBI_CMD``, ``pulp:SCIP_CMD``).

PuLP's adapters map each solver's statuses in their own way, and read no bound, so this backend
trusts less than the HiGHS and CBC backends do (docs/solvers.md, "Any solver PuLP drives"):

* ``optimal`` only where PuLP says the solution is optimal and nothing may have stopped the solver
  early: no relative gap was asked for, and a time limit, when given, was not used up; otherwise a
  solution is ``feasible``. The bound of an optimal MILP is the solver's claim (its objective); no
  other bound is read.
* ``infeasible`` and ``unbounded`` are both "ambiguous" here, settled by the door as for any backend
  (the feasibility problem: zero objective), since adapters confuse the two.
* a solution that breaks the model by more than :data:`~optsched.solvers.model.SOLUTION_TOL` is an
  ``error``, whatever the status.
* ``node_limit`` has no solver-independent meaning in PuLP and is refused (the door).

A MIP start (``start``) goes through PuLP's ``warmStart`` where the adapter supports it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import pulp

from .backend import TIME_LIMIT_REACHED, Raw
from .model import SOLUTION_TOL, is_mip, keyed_rows, max_violation, objective_of, variables

PREFIX = "pulp:"

#: A time limit counts as used up past this share of it (a solver reports its run's end late).
USED_UP = 0.98


def is_named(solver: str) -> bool:
    """Whether ``solver`` names a PuLP solver (``pulp:NAME``)."""
    return isinstance(solver, str) and solver.startswith(PREFIX)


def available() -> list[str]:
    """Every PuLP solver this machine can run, as ``pulp:NAME``."""
    return [PREFIX + name for name in pulp.listSolvers(onlyAvailable=True)]


def refusal(solver: str, node_limit: int | None = None) -> str | None:
    """Why ``solver`` (``pulp:NAME``) cannot run here, or with ``node_limit``, or None."""
    name = solver[len(PREFIX):]
    here = ", ".join(available())
    if name not in pulp.listSolvers():
        return f"unknown solver {solver!r}: PuLP has no solver {name!r} (available here: {here})"
    if name not in pulp.listSolvers(onlyAvailable=True):
        return f"solver {solver!r} is not available here (PuLP finds: {here})"
    if node_limit is not None:
        return f"node_limit: a node limit applies to highs and cbc; PuLP passes none to {solver}"
    return None


def version(solver: str) -> str:
    """What names the solver's version: PuLP reads none, so the adapter and PuLP's own version."""
    return f"PuLP {pulp.__version__} adapter"


def run(solver: str, problem: pulp.LpProblem, options: dict, msg: bool,
        start: Mapping[str, float] | None = None) -> Raw:
    """Solve ``problem`` with the PuLP solver ``solver`` (``pulp:NAME``), from ``start`` where given."""
    mip, name = is_mip(problem), solver[len(PREFIX):]
    settings: dict = {"msg": msg}
    if options["time_limit"] is not None:
        settings["timeLimit"] = options["time_limit"]
    if options["gap"] and mip:
        settings["gapRel"] = options["gap"]
    if options["threads"]:
        settings["threads"] = options["threads"]
    if start is not None and mip:
        for v in variables(problem):
            v.setInitialValue(start.get(v.name, 0.0), check=False)
        settings["warmStart"] = True
    began = time.perf_counter()
    try:
        problem.solve(pulp.getSolver(name, **settings))
    except Exception as exc:  # an adapter refusing the model is a result, not a crash of the caller
        return Raw("error", solver, version(solver), {}, None, message=f"{name} failed: {exc}")
    took = time.perf_counter() - began
    values = {v.name: float(v.varValue) for v in variables(problem) if v.varValue is not None}
    if len(values) < len(variables(problem)):
        values = {}
    said, solution = problem.status, problem.sol_status
    limited = options["time_limit"] is not None and took >= USED_UP * options["time_limit"]
    message = ""
    if said in (pulp.LpStatusInfeasible, pulp.LpStatusUnbounded):
        return Raw("ambiguous", solver, version(solver), {}, None)
    if values and max_violation(problem, values) > SOLUTION_TOL:
        return Raw("error", solver, version(solver), {}, None,
                   message=f"{name}'s solution breaks the model by {max_violation(problem, values):.3g}")
    if said == pulp.LpStatusOptimal and solution == pulp.LpSolutionOptimal and values and not limited \
            and not (mip and options["gap"]):
        status = "optimal"
    elif values:
        status = "feasible"
        message = TIME_LIMIT_REACHED if limited else ("stopped at the requested relative gap" if options["gap"] else
                                                      f"{name} did not report the solution optimal")
    else:
        status = "not_solved"
        message = TIME_LIMIT_REACHED if limited else f"{name} returned no solution (PuLP status {said})"
    bound = objective_of(problem, values) if status == "optimal" and mip else None
    raw = Raw(status, solver, version(solver), values, bound, message=message)
    if not mip and status == "optimal":
        duals = {key: c.pi for key, c in keyed_rows(problem)}
        costs = {v.name: v.dj for v in variables(problem)}
        if all(x is not None for x in duals.values()) and all(x is not None for x in costs.values()):
            raw.duals = {key: float(x) for key, x in duals.items()}
            raw.reduced_costs = {key: float(x) for key, x in costs.items()}
    return raw
