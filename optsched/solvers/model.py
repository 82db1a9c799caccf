"""Built models, as every backend reads them: :class:`Model` (a PuLP problem and its schedule
decoder), :class:`CpSatModel` (a CP-SAT model and its decoder), :class:`Computed` (an optimum a
polynomial algorithm proves), and the readings shared by the backends and the door (variables,
sense, integrality, constraint keys, objective, violations)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pulp

if TYPE_CHECKING:
    from .door import Result

#: Scaled slack within which a solution counts as satisfying a model (see :func:`max_violation`).
SOLUTION_TOL = 1e-6


@dataclass(frozen=True)
class Model:
    """A built solver model: the PuLP problem, and for a MILP, how to read a schedule off a solution.

    ``decoder(result)`` turns a :class:`Result` with values into the family's schedule object; it is
    None for relaxations and for formulations whose solutions are not schedules (duals, bounds).
    Only :mod:`optsched.pipeline` calls it (``tests/test_one_path.py`` holds every other module to that).
    ``start`` is a feasible solution to start from (a MIP start: values by variable name, every other
    variable 0), which HiGHS takes as its first incumbent; it changes how fast an optimum is found,
    never which value is proven.
    """

    problem: pulp.LpProblem
    decoder: Callable[[Result], Any] | None = None
    start: Mapping[str, float] | None = field(default=None, repr=False)

    @property
    def sense(self) -> str:
        """``min`` or ``max``."""
        return sense_of(self.problem)

    @property
    def is_mip(self) -> bool:
        """True when some variable is integer."""
        return is_mip(self.problem)


@dataclass(frozen=True)
class Computed:
    """A formulation whose optimum a polynomial algorithm proves without a solver: ``compute()``
    returns the optimal objective, ``method`` names the algorithm and why it is exact (shown as the
    result's solver) and ``proof`` why it is exact (the result's message). ``milp()`` builds the same
    optimum as a solver model (an LP when ``is_mip`` is False): a cross-check solves it with the chosen
    solver and compares. It has no schedule to decode."""

    sense: str
    compute: Callable[[], float]
    method: str
    proof: str
    milp: Callable[[], Model]
    decoder: None = None
    #: False when the optimum computed is an LP's (a relaxation), not a discrete problem's
    is_mip: bool = True


@dataclass(frozen=True)
class Generation:
    """What :attr:`Generated.run` returns: ``objective`` a value of the LP some feasible solution
    attains (None if none was found), ``bound`` a bound on the LP's optimum that holds whatever
    the solver did (a Lagrangian bound), whether the generation converged (no column or row left
    to add: ``objective`` is the LP's optimum), and what stopped it otherwise. ``trajectory`` is
    the certified bound before the first round and after each round (empty when not recorded);
    ``schedule`` a schedule of the family's problem the generation found (its primal side, for
    the pipeline to verify), or None."""

    objective: float | None
    bound: float
    converged: bool
    message: str
    trajectory: tuple[float, ...] = ()
    schedule: Any = None


@dataclass(frozen=True)
class Generated:
    """An LP too large to write down (columns or rows beyond counting), solved by an algorithm that
    generates it around a solver (column generation): ``run(time_limit, rounds) -> Generation``
    (``rounds`` pricing rounds at most, None for no limit: the deterministic budget). The result
    is ``optimal`` only when the generation converged and its bound meets its objective; stopped
    earlier, it is ``feasible`` with both numbers, the bound still proven. ``method`` names the
    algorithm (shown as the result's solver); ``lp()`` builds the same LP written out in full, for
    the cross-check on instances small enough to enumerate. It has no schedule to decode."""

    sense: str
    run: Callable[[float | None, int | None], Generation]
    method: str
    lp: Callable[[], Model]
    decoder: None = None

    @property
    def is_mip(self) -> bool:
        """False: column generation solves an LP."""
        return False


@dataclass(frozen=True)
class CpSatModel:
    """A built CP-SAT model (OR-Tools ``cp_model.CpModel``), solved by the ``cp-sat`` backend only.

    CP-SAT needs an integral objective: the family's objective is ``model objective × unit / scale
    + offset`` (:meth:`to_family`), and so is its bound (``scale`` undoes integer-scaled weights,
    ``unit`` is the length of a time unit). ``read`` names the variables whose values the
    :class:`Result` carries (``result.value(name)``), for ``decoder(result)`` to read the schedule
    off. ``sense`` is the family's ("min" or "max"), matching the model's own objective. ``params``
    are CP-SAT parameters the model is meant to be solved with (a search strategy that suits it);
    the budget, threads and seed are the door's. A CP-SAT model has no LP relaxation and no duals.
    """

    model: Any
    sense: str
    read: Mapping[str, Any]
    decoder: Callable[[Result], Any] | None = None
    scale: int = 1
    offset: float = 0.0
    unit: float = 1.0
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_mip(self) -> bool:
        """True: a CP-SAT model is integral."""
        return True

    @property
    def has_objective(self) -> bool:
        """Whether the model has an objective (else it is a feasibility model)."""
        return bool(self.model.has_objective())

    def to_family(self, value: float) -> float:
        """A value of the model's (integral) objective in the family's units."""
        return value * self.unit / self.scale + self.offset


def sense_of(problem: pulp.LpProblem) -> str:
    """``min`` or ``max``, the sense of a PuLP problem."""
    return "max" if problem.sense == pulp.LpMaximize else "min"


def is_mip(problem: pulp.LpProblem) -> bool:
    """True when some variable of the PuLP problem is integer."""
    return any(v.cat == pulp.LpInteger for v in variables(problem))


#: PuLP adds this variable, fixed at 0, for good to a constant objective and to empty constraints.
PULP_DUMMY = "__dummy"


def variables(problem: pulp.LpProblem) -> list[pulp.LpVariable]:
    """The model's variables, without PuLP's internal dummy."""
    return [v for v in problem.variables() if v.name != PULP_DUMMY]


def keyed_rows(problem: pulp.LpProblem) -> list[tuple[str, pulp.LpConstraint]]:
    """Constraints keyed by name; an unnamed one by its position, as ``#i``."""
    return [(c.name or f"#{i}", c) for i, c in enumerate(problem.constraints())]


def objective_of(problem: pulp.LpProblem, values: Mapping[str, float]) -> float:
    """The model's objective (its constant included) at ``values``."""
    expr = problem.objective
    if expr is None:
        return 0.0
    return sum(c * values[v.name] for v, c in expr.items() if c) + expr.constant


def max_violation(problem: pulp.LpProblem, values: Mapping[str, float]) -> float:
    """The largest scaled violation of ``problem``'s bounds, integrality and constraints by ``values``.

    Each violation is divided by ``1 + |rhs|``; 0 means every constraint holds. A missing value counts
    as an infinite violation. Used to judge, independently of either solver, whose solution is real.
    """
    worst = 0.0
    for v in variables(problem):
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
        lhs = sum(coef * values[v.name] for v, coef in c.items() if v.name != PULP_DUMMY) + c.constant
        scale = 1 + abs(c.constant)
        if c.sense == pulp.LpConstraintLE:
            worst = max(worst, lhs / scale)
        elif c.sense == pulp.LpConstraintGE:
            worst = max(worst, -lhs / scale)
        else:
            worst = max(worst, abs(lhs) / scale)
    return worst
