"""Checks for your own machine and your own algorithms (tests, benchmarks, a researcher's code).

:func:`random_milp` draws a mixed-integer program with 2-7 bounded variables, mixed integer and
continuous, 1-5 rows of either sense, a random objective sense and constant. Such models are where
solver bugs show: ``benchmarks/solver_agreement.py`` found CBC 2.10.3's preprocessing errors with it.

:func:`check_online` tests that an algorithm is online, as optsched's own are tested
(tests/test_online_property.py): on the family's generated instances, changing a job that arrives
after ``t``, or adding one, must leave everything the schedule does before ``t`` unchanged
(:mod:`optsched.online_views` says what that means per family). It draws seeded instances, cut-offs
and jobs, so the same call gives the same answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pulp


def random_milp(seed: int) -> pulp.LpProblem:
    """A small random MILP; the same seed gives the same model."""
    rnd = random.Random(seed)
    sense = rnd.choice([pulp.LpMinimize, pulp.LpMaximize])
    problem = pulp.LpProblem(f"random_milp_{seed}", sense)
    x = [problem.add_variable(f"x{i}", 0, rnd.randint(1, 4), cat=rnd.choice(["Integer", "Continuous"]))
         for i in range(rnd.randint(2, 7))]
    problem += pulp.lpSum(rnd.randint(-6, 9) * v for v in x) + rnd.randint(-3, 3)
    for k in range(rnd.randint(1, 5)):
        row = pulp.lpSum(rnd.randint(-2, 6) * v for v in x)
        rhs = rnd.randint(-2, 12)
        problem += (row <= rhs if rnd.random() < 0.7 else row >= rhs), f"r{k}"
    return problem


@dataclass(frozen=True)
class OnlineCheck:
    """What :func:`check_online` found: how many cases it checked (an instance, a cut-off ``t``, a job
    arriving after it) and the first violation, or None when every case held."""

    family: str
    algorithm: str
    cases: int
    violation: str | None

    @property
    def online(self) -> bool:
        """No case let a later job change an earlier decision."""
        return self.violation is None


def check_online(family: Any, algorithm: str | Callable[..., Any], *, params: Mapping[str, Any] | None = None,
                 instances: int = 20, seed: int = 0, budget_s: float | None = None) -> OnlineCheck:
    """Whether ``algorithm`` (a registered name, ``file.py:function``, ``module:function`` or a
    function) decides online on ``instances`` seeded instances of ``family`` (``tiny`` and ``small``
    presets): for every arrival after the first, ``t`` half-way to it from the one before, and every
    job arriving after ``t`` changed in turn (module docstring). ``budget_s`` is each run's budget
    (:func:`optsched.plugins.within`): a researcher's function past it fails the check.

    Examples
    --------
    >>> import optsched
    >>> from optsched.testing import check_online
    >>> check_online(optsched.get("single"), "wspt", instances=5).online
    True
    """
    from .online_views import view_of, violation
    from .pipeline import as_family

    fam = as_family(family)
    view = view_of(fam)
    chosen = fam.algorithm(algorithm)
    if view is None:
        return OnlineCheck(fam.name, chosen.name, 0, None)  # one job at a time: nothing arrives later
    rnd, cases = random.Random(seed), 0
    for _ in range(instances):
        instance = fam.generate(rnd.choice(["tiny", "small"]), seed=rnd.randrange(10_000))
        arrivals = view.arrivals(instance)
        times = sorted(set(arrivals))
        run = _runner(fam, algorithm, dict(params or {}), instance, rnd.randrange(4), budget_s)
        for earlier, later in zip(times, times[1:]):
            t = (earlier + later) / 2
            for j in (k for k, a in enumerate(arrivals) if a > t):
                cases += 1
                found = violation(view, run, instance, t, j)
                if found is not None:
                    return OnlineCheck(fam.name, chosen.name, cases, found)
    return OnlineCheck(fam.name, chosen.name, cases, None)


def _runner(family: Any, algorithm: str | Callable[..., Any], params: dict, original: Any,
            seed: int, budget_s: float | None) -> Callable[[Any], Any]:
    """``instance -> schedule`` for ``algorithm``, given what its paper lets it know in advance
    (:data:`optsched.online_views.KNOWN_IN_ADVANCE`) from the ``original`` instance."""
    from .online_views import KNOWN_IN_ADVANCE

    known = KNOWN_IN_ADVANCE.get((family.name, algorithm)) if isinstance(algorithm, str) else None
    if known is not None:
        return lambda instance: known(instance, original, seed)
    return lambda instance: family.run(instance, algorithm, seed=seed, budget_s=budget_s, **params).schedule


@dataclass(frozen=True)
class OnlineCheckTask:
    """One :func:`check_online` a study runs as a cached unit: for a researcher's algorithm, with its
    parameters (sorted pairs) and the study's per-run budget, keyed also by ``code``, the digest of the
    code the algorithm runs, so that editing the function checks it again."""

    family: str
    algorithm: str
    params: tuple[tuple[str, Any], ...]
    code: str
    instances: int = 10
    budget_s: float | None = None


def online_task(task: OnlineCheckTask) -> dict[str, Any]:
    """:func:`check_online` for a study (:mod:`optsched.study.runner`): the cases checked and the first
    violation (None when every case held)."""
    from .registry import get

    found = check_online(get(task.family), task.algorithm, params=dict(task.params), instances=task.instances,
                         budget_s=task.budget_s)
    return {"cases": found.cases, "violation": found.violation}
