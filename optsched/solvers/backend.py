"""What a backend (highs.py, cbc.py, cpsat.py) returns: the :class:`Raw` outcome of one solver run, before
the door's shared finishing rules (door.py) turn it into a :class:`~optsched.solvers.Result`.

A backend is a module with ``run(problem, options, msg) -> Raw`` and ``version() -> str`` (HiGHS's
``run`` also takes a MIP start; CP-SAT's ``run`` takes a :class:`~optsched.solvers.model.CpSatModel`); the
options are the door's (``time_limit``, ``gap``, ``presolve``, ``threads``, ``node_limit``, ``work_limit``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Why a solve stopped on its time limit; the result then depends on the machine's speed.
TIME_LIMIT_REACHED = "time limit reached (a wall-clock budget: the result may change with the machine's speed)"


@dataclass
class Raw:
    """What one solver run produced, before the shared finishing rules."""

    status: str  # a STATUSES entry, or "ambiguous" for "infeasible or unbounded"
    solver: str
    version: str
    values: dict[str, float]
    bound: float | None
    duals: dict[str, float] | None = None
    reduced_costs: dict[str, float] | None = None
    #: an LP's optimal basis where the solver gives one: per constraint and per variable name, the
    #: status of its row or column (``basic``, ``at lower``, ``at upper``, ``fixed``, ``free``)
    basis: dict[str, dict[str, str]] | None = None
    message: str = ""
    #: The objective as the solver states it; only for models the door cannot evaluate itself (CP-SAT's).
    objective: float | None = None
