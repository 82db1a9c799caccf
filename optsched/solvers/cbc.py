"""The CBC backend: the CBC binary PuLP ships, run through PuLP's command-line adapter, with its
MIP preprocessing off (see :func:`run`), the bound read from CBC's log."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from functools import cache

import pulp
from pulp.apis.coin_api import pulp_cbc_path

from .backend import TIME_LIMIT_REACHED, Raw
from .model import is_mip, keyed_rows, objective_of, variables

_BOUND = re.compile(r"^(?:Lower|Upper) bound:\s+(\S+)", re.MULTILINE)


def run(problem: pulp.LpProblem, options: dict, msg: bool) -> Raw:
    """CBC 2.10.3 as PuLP ships it, with its MIP preprocessing off.

    With preprocessing on, this CBC returns wrong answers on small MILPs: a suboptimal "optimal",
    or "infeasible" for a feasible model (13 of 3,000 random 2-7 variable MILPs; see docs/solvers.md).
    With it off no wrong answer was seen in 20,000 such models, but CBC may crash on an infeasible
    model; it is then run once more with preprocessing on, and the message says so.
    """
    raw = _run_once(problem, options, msg, preprocess=False)
    if raw.status == "error":
        retry = _run_once(problem, options, msg, preprocess=True)
        retry.message = "; ".join(filter(None, [f"CBC crashed with preprocessing off ({raw.message}); "
                                                 "reran with preprocessing on", retry.message]))
        return retry
    return raw


def _run_once(problem: pulp.LpProblem, options: dict, msg: bool, preprocess: bool) -> Raw:
    mip = is_mip(problem)
    cbc = version()
    with tempfile.TemporaryDirectory(prefix="optsched-cbc-") as scratch:
        return _run_in(problem, options, msg, preprocess, mip, cbc, scratch)


def _run_in(problem: pulp.LpProblem, options: dict, msg: bool, preprocess: bool, mip: bool, cbc: str,
            scratch: str) -> Raw:
    """One CBC run with its model, solution and log files in ``scratch`` (removed by the caller, also
    when CBC crashes: PuLP leaves its files behind then)."""
    log_path = os.path.join(scratch, "cbc.log")
    adapter = pulp.COIN_CMD(
        path=pulp_cbc_path, mip=mip, msg=False, timeLimit=options["time_limit"],
        gapRel=options["gap"] if mip else None, threads=options["threads"],
        presolve=options["presolve"], logPath=log_path,
        options=([] if preprocess or not mip else ["preprocess off"])
        + ([f"maxNodes {options['node_limit']}"] if mip and options["node_limit"] is not None else []),
    )
    adapter.tmpDir = scratch
    try:
        problem.solve(adapter)
        with open(log_path) as f:
            log = f.read()
    except Exception as exc:
        return Raw("error", "cbc", cbc, {}, None, message=f"CBC failed: {exc}")
    if msg:
        print(log)
    constant = problem.objective.constant if problem.objective is not None else 0.0
    values = {v.name: float(v.varValue) for v in variables(problem) if v.varValue is not None}
    stopped = "Stopped on" in log or "stopped on" in log
    if problem.status == pulp.LpStatusOptimal and problem.sol_status == pulp.LpSolutionOptimal:
        status = "optimal"
    elif problem.status == pulp.LpStatusOptimal:  # PuLP's name for "stopped with an incumbent"
        status = "feasible"
    elif problem.status == pulp.LpStatusInfeasible:
        status = "ambiguous" if "infeasible or unbounded" in log and mip else "infeasible"
    elif problem.status == pulp.LpStatusUnbounded:
        status = "unbounded"
    elif problem.status == pulp.LpStatusNotSolved:
        status = "not_solved"
    else:
        return Raw("error", "cbc", cbc, {}, None, message="CBC returned no usable status")
    if status not in ("optimal", "feasible"):
        values = {}
    match = _BOUND.search(log)
    bound = float(match.group(1)) + constant if (mip and match) else None
    if mip and status == "optimal" and bound is None:
        # CBC prints no bound line when it proves optimality: its bound is then the objective.
        bound = objective_of(problem, values)
    reason = "node limit reached" if "Stopped on node limit" in log else TIME_LIMIT_REACHED
    raw = Raw(status, "cbc", cbc, values, bound, message=reason if stopped and status != "optimal" else "")
    if not mip and status == "optimal":
        raw.duals = {key: float(c.pi) for key, c in keyed_rows(problem)}
        raw.reduced_costs = {v.name: float(v.dj) for v in variables(problem)}
    return raw


@cache
def version() -> str:
    """The version string of the CBC binary PuLP ships (read from its banner)."""
    try:
        out = subprocess.run([pulp_cbc_path, "-quit"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return "unavailable"
    match = re.search(r"Version:\s*(\S+)", out)
    return match.group(1) if match else "unknown"
