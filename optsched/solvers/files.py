"""A solver model out to a file, and a solution file back in, for solvers optsched does not drive.

:func:`write_model` writes MPS (free format, with its objective sense) or CPLEX LP, chosen by the
file's suffix, under the model's own variable and constraint names. Neither format keeps an
objective constant (PuLP drops it), so a model with one gets a column ``OBJECTIVE_CONSTANT`` fixed
at 1 whose cost is the constant: every solver then reports the model's objective.

:func:`read_solution` reads values by variable name from a solver's solution file. Solvers write
them differently (Gurobi and HiGHS ``name value``, SCIP ``name value (obj:c)``, CBC ``index name
value reduced-cost``), so a line is read as the first token that names a variable of the model and
the number after it; every other line (headers, comments, objective lines) is skipped, and HiGHS's
dual values (after ``# Dual``) are not read. A variable the file does not name is 0, as SCIP and
CBC leave zeros out.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pulp

from ..errors import InputError
from .model import variables

#: The fixed column that carries an objective constant into files that cannot hold one.
CONSTANT = "OBJECTIVE_CONSTANT"
#: The model files :func:`write_model` writes, by suffix.
SUFFIXES = (".mps", ".lp")


def write_model(problem: pulp.LpProblem, path: str) -> None:
    """Write ``problem`` to ``path`` (``.mps`` or ``.lp``); see the module docstring."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"{path}: the model file must end in .mps or .lp (the format follows the suffix)")
    objective = problem.objective if problem.objective is not None else pulp.LpAffineExpression()
    if objective.constant:
        one = problem.add_variable(CONSTANT, 1, 1)
        problem.setObjective(pulp.LpAffineExpression({**dict(objective.items()), one: objective.constant}))
    target = Path(path)
    partial = target.with_name(f".{target.stem}.partial{suffix}")  # renamed into place when whole
    try:
        if suffix == ".mps":
            problem.writeMPS(str(partial), with_objsense=True)
        else:
            problem.writeLP(str(partial))
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def read_solution(problem: pulp.LpProblem, path: str, text: str) -> tuple[dict[str, float], int]:
    """Values by variable name from a solution file's ``text`` (module docstring), and how many of the
    model's variables it named; a name given twice with different values, or none named, is bad input."""
    names = {v.name for v in variables(problem)}
    found: dict[str, float] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.lower().startswith("# dual"):  # HiGHS's raw file: the duals that follow are not values
            break
        tokens = line.replace("=", " ").split()
        for k, token in enumerate(tokens[:-1]):
            if token in names:
                try:
                    value = float(tokens[k + 1])
                except ValueError:
                    break
                if not math.isfinite(value):
                    raise InputError(f"{path}:{number}: {token} has the value {tokens[k + 1]}")
                if token in found and found[token] != value:
                    raise InputError(f"{path}:{number}: {token} is given twice, {found[token]:g} and {value:g}")
                found[token] = value
                break
    if not found:
        raise InputError(f"{path}: names none of the model's variables (is it a solution of this formulation?)")
    return {name: found.get(name, 0.0) for name in names}, len(found)
