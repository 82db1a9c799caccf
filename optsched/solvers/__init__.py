"""One door to every solver: build a model once (PuLP for HiGHS and CBC, OR-Tools for CP-SAT), solve
it, get an honest Result.

Modules: ``door`` (:func:`solve`, :class:`Result`, finishing and cross-checking), ``model`` (built
models and what every part reads off them), ``backend`` (what a backend returns), one module per
backend (``highs``, ``cbc``, ``cpsat``).

Honesty rules (docs/design.md, principle 2):

* ``status`` is a :class:`SolveStatus` (a ``str``: one of :data:`STATUSES`). It is ``optimal`` only
  when the solver proved optimality and the gap between objective and best bound is zero (to
  :data:`optsched.numeric.OBJ_RTOL`). A MILP stopped by a time limit with an incumbent is ``feasible``;
  without one it is ``not_solved``.
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

from .backend import TIME_LIMIT_REACHED
from .cbc import version as cbc_version
from .cpsat import version as cp_sat_version
from .door import (
    CP_SAT,
    CROSS_CHECK_RTOL,
    SOLVERS,
    STATUSES,
    CrossCheck,
    Incumbent,
    Result,
    SolveStatus,
    adjudicate,
    compare,
    for_engine,
    misplaced_budget,
    solve,
)
from .highs import version as highs_version
from .model import SOLUTION_TOL, Computed, CpSatModel, Generated, Generation, Model, max_violation

__all__ = ("CP_SAT", "CROSS_CHECK_RTOL", "SOLUTION_TOL", "SOLVERS", "STATUSES", "TIME_LIMIT_REACHED", "Computed",
           "CpSatModel", "CrossCheck", "Generated", "Generation", "Incumbent", "Model", "Result", "SolveStatus",
           "adjudicate", "cbc_version", "compare", "cp_sat_version", "for_engine", "highs_version", "max_violation",
           "misplaced_budget", "solve")
