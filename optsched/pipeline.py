"""One path from an instance to a judged result: solve, run, judge.

:func:`solve` builds one of a family's formulations, solves it, decodes the schedule and has the
family's verifier judge it; :func:`run` runs an online algorithm or baseline and has the verifier
judge its schedule; :func:`judge` is the verifier's verdict on any schedule. The CLI, the study
units, the reproductions and the notebooks all come through here (also as ``Family.solve``,
``Family.run`` and ``Family.judge``); no other module decodes, verifies or computes an objective.

A number is only reported as a schedule's objective once the verifier has accepted the schedule:
:attr:`Verdict.objective` is None for an infeasible one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from .errors import InputError
from .numeric import better_or_equal, close
from .params import OPTIONS, check_values, checked_value, optional
from .plugins import AlgorithmFailure, failure, within

if TYPE_CHECKING:
    import pandas as pd

    from .registry import Family, Formulation
    from .solvers import Model, Result


@dataclass(frozen=True)
class Verdict:
    """The verifier's judgement of one schedule.

    Attributes
    ----------
    violations : tuple of str
        Readable violations, each naming the rule it breaks; empty when the schedule is feasible.
    objective : float or None
        The schedule's objective in the family's sense, for a feasible schedule; None otherwise.
    """

    violations: tuple[str, ...]
    objective: float | None

    @property
    def feasible(self) -> bool:
        """True when the verifier found no violation."""
        return not self.violations

    def to_dict(self) -> dict:
        """This ``Verdict`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"feasible": self.feasible, "objective": self.objective, "violations": list(self.violations)}


@dataclass(frozen=True)
class Solved:
    """A formulation solved: the solver's :class:`~optsched.solvers.Result`, the decoded schedule
    and the verifier's verdict on it.

    Attributes
    ----------
    family, formulation : str
        What was solved.
    relaxed : bool
        True for the LP relaxation.
    answers : str
        What the model's optimum is to the family's problem (:meth:`Family.answer`): ``"optimum"``,
        ``"lower bound"``, ``"upper bound"`` or ``"other objective"``.
    result : Result
        The solver's honest result: status, objective, bound, gap, duals, cross-check.
    build_s : float
        Seconds spent building the model.
    schedule : object or None
        The schedule read off the solution; None for a relaxation, a formulation whose solutions are
        not schedules, or a solve that ended without a solution.
    verdict : Verdict or None
        The verifier's judgement of ``schedule`` (None when there is no schedule).
    found : object or None
        A schedule a bound route found on the way (its primal side, ``Result.found``), whatever
        the model's own solution is; None for other formulations.
    found_verdict : Verdict or None
        The verifier's judgement of ``found``.
    schedule_from : str or None
        The algorithm whose schedule ``schedule`` is, where the solver's budget ended before it gave
        one as good (:func:`solve`: the best verified online schedule; ``result`` is then
        ``feasible`` with the solver's bound); None when the schedule is the solver's.
    """

    family: str
    formulation: str
    relaxed: bool
    answers: str
    result: Result
    build_s: float
    schedule: Any = None
    verdict: Verdict | None = None
    found: Any = None
    found_verdict: Verdict | None = None
    schedule_from: str | None = None

    @property
    def certified_gap(self) -> float | None:
        """``|found − bound| / |found|`` for a bound route whose found schedule is feasible: how far
        that schedule can be from optimal, certified by the bound; None otherwise."""
        if self.found_verdict is None or self.found_verdict.objective is None or self.result.bound is None:
            return None
        best = self.found_verdict.objective
        return abs(best - self.result.bound) / abs(best) if best else None

    @property
    def matches_solver(self) -> bool | None:
        """Whether the verifier's objective equals the solver's (None without a feasible schedule)."""
        if self.verdict is None or self.verdict.objective is None or self.result.objective is None:
            return None
        return close(self.verdict.objective, self.result.objective)

    @property
    def problem(self) -> str | None:
        """Why the solver's schedule cannot be trusted (it fails the verifier, or the verifier's
        objective differs from the solver's), or a bound route's found schedule fails the verifier;
        None when there is nothing wrong."""
        if self.found_verdict is not None and not self.found_verdict.feasible:
            return f"the bound route's schedule fails the verifier: {self.found_verdict.violations[0]}"
        if self.verdict is None:
            return None
        if not self.verdict.feasible:
            return f"the solver's schedule fails the verifier: {self.verdict.violations[0]}"
        if not self.matches_solver:
            return (f"the verifier's objective {self.verdict.objective} differs from the solver's "
                    f"{self.result.objective}")
        return None

    def to_dict(self) -> dict:
        """The solver's fields, with ``verified`` (feasible, objective, violations, matches_solver)
        when a schedule was decoded."""
        out = {"family": self.family, "formulation": self.formulation, "relaxed": self.relaxed,
               "answers": self.answers, **self.result.to_dict(), "build_s": round(self.build_s, 6)}
        if self.verdict is not None:
            out["verified"] = {**self.verdict.to_dict(), "matches_solver": self.matches_solver}
        if self.found_verdict is not None:
            out["found"] = {**self.found_verdict.to_dict(), "certified_gap": self.certified_gap}
        if self.schedule_from is not None:
            out["schedule_from"] = self.schedule_from
        return out


@dataclass(frozen=True)
class Run:
    """An algorithm's run: its schedule and the verifier's verdict on it.

    Attributes
    ----------
    family, algorithm : str
        What ran.
    params : dict
        The keyword parameters it ran with.
    seed : int
        The seed it ran with.
    schedule : object
        The schedule it produced.
    verdict : Verdict
        The verifier's judgement of ``schedule``.
    runtime_s : float
        Seconds the algorithm took (verification excluded).
    wall_clock : tuple of str
        The wall-clock budgets it ran with (parameters such as Dorm's ``time_limit``): when not
        empty, the schedule may change with the machine's speed.
    instance : object
        The instance it ran on.
    in_family : Family
        The family it ran in (the registration, whose ``bars`` and ``releases`` :meth:`jobs` reads).
    """

    family: str
    algorithm: str
    params: Mapping[str, Any]
    seed: int
    schedule: Any
    verdict: Verdict
    runtime_s: float = field(compare=False)
    wall_clock: tuple[str, ...] = ()
    instance: Any = field(default=None, repr=False, compare=False)
    in_family: Any = field(default=None, repr=False, compare=False)

    def jobs(self) -> pd.DataFrame:
        """Per-job metrics of the schedule (release, start, end, JCT, span, slowdown) as a DataFrame:
        :func:`optsched.metrics.job_metrics`."""
        from .metrics import job_metrics

        return job_metrics(self.in_family, self.instance, self.schedule)

    @property
    def feasible(self) -> bool:
        """True when the verifier accepted the schedule."""
        return self.verdict.feasible

    @property
    def objective(self) -> float | None:
        """The schedule's objective, as the verifier computed it (None when infeasible)."""
        return self.verdict.objective

    def to_dict(self) -> dict:
        """This ``Run`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"family": self.family, "algorithm": self.algorithm, "params": dict(self.params), "seed": self.seed,
                **self.verdict.to_dict(), "runtime_s": round(self.runtime_s, 6), "wall_clock": list(self.wall_clock)}


def judge(family: Family, instance: Any, schedule: Any) -> Verdict:
    """The family's verifier on ``schedule``, and its objective when it is feasible.

    Parameters
    ----------
    family : Family
        The family (``optsched.get(name)``).
    instance, schedule
        The family's instance and a schedule for it.

    Returns
    -------
    Verdict

    Examples
    --------
    >>> import optsched
    >>> family = optsched.get("single")
    >>> instance = family.generate("tiny", seed=0)
    >>> verdict = optsched.judge(family, instance, family.algorithm("wspt").run(instance))
    >>> verdict.feasible, verdict.objective is not None
    (True, True)
    """
    family = as_family(family)
    family.check_instance(instance)
    family.check_schedule(schedule)
    violations = tuple(family._verify(instance, schedule))
    return Verdict(violations, None if violations else family._objective(instance, schedule))


def as_family(family: Family) -> Family:
    """``family`` itself; a family's name, or anything else, is ``InputError``. (A name is not looked
    up here: a look-up by a variable name would tie every cache key to every family,
    study/depends.py; and the pipeline takes the family as data, never importing the registry.)"""
    if isinstance(family, str):
        raise InputError(f"family: expected a Family, got the name {family!r:.40}: pass optsched.get({family!r:.40})")
    if not callable(getattr(family, "check_instance", None)):
        raise InputError(f"family: expected a Family (optsched.get(name)), got {family!r:.80}")
    return family


def judging_functions(family: Family) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The verifier and the objective :func:`judge` calls for ``family``, for code that must know
    what a verdict depends on (the study cache's keys, :mod:`optsched.study.depends`); calling
    them is for :func:`judge` alone."""
    return family._verify, family._objective


#: The formulation name that asks for the family's measured choice (:meth:`Family.best_formulation`).
BEST = "best"

#: What ``cross_check`` may ask for: the other solver on the same model, or another model of the
#: same problem (a MILP against the CP-SAT model); True is ``"auto"``: another model where the
#: family has one, else the other solver.
CROSS_CHECKS = ("auto", "solver", "model")


def solve(family: Family, instance: Any, formulation: str, *, relax: bool = False, solver: str | None = None,
          time_limit: float | None = None, gap: float = 0.0, presolve: bool = False, threads: int | None = None,
          node_limit: int | None = None, work_limit: float | None = None,
          cross_check: bool | str = False, start: Mapping[str, float] | None = None) -> Solved:
    """Build ``formulation`` for ``instance``, solve it, decode the schedule and verify it.

    Parameters
    ----------
    family : Family
        The family (``optsched.get(name)``).
    instance
        One of the family's instances.
    formulation : str
        A formulation the family registers (``optsched families`` lists them), or ``"best"``: the
        exact formulation the family's measured choice names for this instance
        (:meth:`~optsched.registry.Family.best_formulation`); ``Solved.formulation`` names it.
    relax : bool
        Solve the LP relaxation instead (no schedule; the objective bounds the optimum).
    solver, time_limit, gap, presolve, threads
        As for :func:`optsched.solvers.solve`; ``solver`` (``highs`` by default, ``cbc``, or
        ``pulp:NAME`` for any solver PuLP drives where it is installed) is for a MILP formulation,
        and a CP-SAT formulation is solved by CP-SAT (with ``best``, ``solver`` applies where the
        choice is a MILP).
    start : mapping, optional
        A solution to start from, values by the names of the formulation's variables (an earlier
        solve's ``result.values`` will do): a MIP start, or a CP-SAT model's hints
        (:func:`optsched.solvers.solve`). It changes how fast the optimum is found, never which.
    node_limit, work_limit
        The budgets that give the same answer on every machine (with one thread): branch-and-bound
        nodes for a MILP, CP-SAT's deterministic time for a CP-SAT model. Each bounds the solves
        of its engine, the cross-check's included; given alone, a budget for an engine the call
        does not use is refused (given both, as a study does for ``best``, each applies where it
        can). ``time_limit`` (seconds, which depend on the machine's speed) covers the whole
        call: each solver gets the time left after building its model and after the solves
        before it (less :data:`RESERVE` of it, kept for the solver's last node, decoding and
        verifying), and a model whose building would run past it is stopped (``optsched.alarm``).
    cross_check : bool or str
        ``"solver"``: solve the same MILP with the other solver. ``"model"``: solve another model of
        the same problem (the family's CP-SAT model for a MILP, its first MILP for the CP-SAT
        model, else another exact MILP), decode and verify its schedule too. True (``"auto"``):
        another model where the family has one, the other solver otherwise. Either way the
        comparison is ``result.cross_check``; when the two contradict each other, the result keeps
        the better verified schedule, with status ``feasible`` and no bound.

    Returns
    -------
    Solved
        With ``schedule`` and ``verdict`` when the formulation gives a schedule and the solve found
        a solution. An exact formulation is never left without a schedule: where its solve ends
        (a time or node limit, a model too slow to build) without one, or with one worse than the
        best verified schedule of the family's online algorithms, that schedule is returned
        (``schedule_from`` names its algorithm), ``feasible`` with the solver's bound. With a
        time limit those schedules are computed first, within :data:`ONLINE_SHARE` of it.

    Examples
    --------
    >>> import optsched
    >>> family = optsched.get("single")
    >>> instance = family.generate("tiny", seed=0)
    >>> solved = optsched.solve(family, instance, "time-indexed")
    >>> solved.result.status, solved.verdict.feasible, solved.matches_solver
    (<SolveStatus.OPTIMAL: 'optimal'>, True, True)
    >>> bound = optsched.solve(family, instance, "time-indexed", relax=True)
    >>> bound.schedule is None and bound.result.objective <= solved.result.objective + 1e-9
    True
    >>> checked = optsched.solve(family, instance, "time-indexed", cross_check="model")
    >>> checked.result.cross_check.formulation, checked.result.cross_check.verdict
    ('cp-sat', 'agree')
    """
    from .solvers import misplaced_budget

    family = as_family(family)
    family.check_instance(instance)
    time_limit, node_limit = optional(time_limit, "time_limit"), optional(node_limit, "node_limit")
    _check_solve_options(relax, solver, gap, presolve, cross_check, node_limit)
    work_limit, threads = optional(work_limit, "work_limit"), optional(threads, "threads")
    gap = checked_value(gap, OPTIONS["gap"], "gap")
    chosen = family.formulation(family.best_formulation(instance, relax) if formulation == BEST else formulation)
    how = _cross_check_mode(family, chosen, cross_check, relax)
    partner = family.formulation(_partner(family, chosen) or "") if how == "model" else None
    engines = {chosen.engine} | ({partner.engine} if partner else set())
    both = node_limit is not None and work_limit is not None  # a study's reference: each applies where it can
    misplaced = None if both else misplaced_budget(engines, node_limit, work_limit)
    if misplaced:
        raise InputError(misplaced)
    if chosen.engine == "cp-sat" and solver not in (None, "cp-sat") and formulation != BEST:
        raise InputError(f"formulation {chosen.name} is a CP-SAT model, solved by CP-SAT; --solver {solver} "
                         "applies to MILP formulations")
    options = {"gap": gap, "presolve": presolve, "threads": threads, "node_limit": node_limit,
               "work_limit": work_limit}
    began = time.perf_counter()
    gives = chosen.gives_schedule and not relax
    online = None
    if gives and time_limit is not None:
        online = _best_online(family, instance, began + ONLINE_SHARE * time_limit)
    deadline = None if time_limit is None else began + (1 - RESERVE) * time_limit
    solved = _solve_one(family, instance, chosen, relax, solver, options, how == "solver", deadline, start)
    if partner is not None:
        other = _solve_one(family, instance, partner, False, None, options, False, deadline)
        solved = _adjudicate(solved, other)
    return _kept_or_online(family, instance, solved, online) if gives else solved


#: The share of a solve's time limit kept for what the solver's own clock does not stop (HiGHS ends the node it is
#: in, about 0.3 s past its limit on 20-job asrpt models), decoding and verifying.
RESERVE = 0.1
#: The share of a solve's time limit the online algorithms' schedules may take, before the solve.
ONLINE_SHARE = 0.2


def _best_online(family: Family, instance: Any, until: float | None) -> Run | None:
    """The best verified schedule of the family's algorithms that run no solver (none with a
    wall-clock parameter), the last registered first (the simple baselines, which need no model of
    their own). With ``until`` (a ``time.perf_counter`` value: a time-limited solve) the family's
    first algorithm, the paper's own (which may train a model or import a library, as A-SRPT's
    random forest does), is left out unless it is the only one, and after the first that runs only
    those that start before ``until``; None: all. None is interrupted: an algorithm may import a
    library, which a timer must not cut in half."""
    names = [name for name, algorithm in family.algorithms.items() if not algorithm.wall_clock]
    if until is not None and len(names) > 1:
        names = names[1:]
    best: tuple[float, Run] | None = None
    for name in reversed(names):
        if best is not None and until is not None and time.perf_counter() >= until:
            break
        ran = run(family, instance, name)
        value = ran.verdict.objective
        if value is not None and (best is None or not better_or_equal(best[0], value, family.sense)):
            best = (value, ran)
    return None if best is None else best[1]


def _kept_or_online(family: Family, instance: Any, solved: Solved, online: Run | None) -> Solved:
    """``solved``, or the best verified online schedule in its place (``feasible``, the solver's
    bound kept) where the solve ended without a schedule as good, without proving anything else
    (infeasible, unbounded) and without a schedule the verifier disputes (``Solved.problem``)."""
    from .solvers import SolveStatus
    from .solvers.door import relative_gap

    result = solved.result
    if result.status in (SolveStatus.INFEASIBLE, SolveStatus.UNBOUNDED) or solved.problem is not None:
        return solved  # a proof to keep, or a schedule the verifier disputes: a problem to show, not to cover
    if result.status == SolveStatus.OPTIMAL and solved.schedule is not None:
        return solved
    own = solved.verdict.objective if solved.verdict is not None else None
    online = online or _best_online(family, instance, None)
    if online is None or online.objective is None or (own is not None and better_or_equal(own, online.objective,
                                                                                           family.sense)):
        return solved
    found = "none" if own is None else f"{own:.10g}"
    message = "; ".join(filter(None, [result.message, f"the solver's best schedule within its budget: {found}; the "
                                      f"schedule is {online.algorithm}'s, the best verified online schedule"]))
    kept = replace(result, status=SolveStatus.FEASIBLE, objective=online.objective, values={}, duals=None,
                   reduced_costs=None, gap=relative_gap(online.objective, result.bound), message=message)
    return replace(solved, result=kept, schedule=online.schedule, verdict=online.verdict,
                   schedule_from=online.algorithm)


def _check_solve_options(relax: Any, solver: Any, gap: Any, presolve: Any, cross_check: Any,
                         node_limit: int | None) -> None:
    """Refuse solve options of the wrong kind (the numeric budgets are checked against
    :data:`optsched.params.OPTIONS`)."""
    from .solvers import CP_SAT, SOLVERS, pulp_any

    for name, value in (("relax", relax), ("presolve", presolve)):
        if not isinstance(value, bool):
            raise InputError(f"{name}: expected True or False, got {value!r:.80}")
    if isinstance(solver, str) and pulp_any.is_named(solver):
        refused = pulp_any.refusal(solver, node_limit)
        if refused:
            raise InputError(refused)
    elif solver is not None and solver not in (*SOLVERS, CP_SAT):
        raise InputError(f"solver: must be one of {', '.join((*SOLVERS, CP_SAT))}, pulp:NAME for any solver PuLP "
                         f"drives, or None, got {solver!r:.60}")
    if not (isinstance(cross_check, bool) or cross_check in CROSS_CHECKS):
        raise InputError(f"cross_check: must be one of {', '.join(CROSS_CHECKS)} (or True, False), "
                         f"got {cross_check!r:.60}")


def _cross_check_mode(family: Family, chosen: Formulation, cross_check: bool | str, relax: bool) -> str | None:
    """None, ``"solver"`` or ``"model"``: what ``cross_check`` asks for here (see :func:`solve`)."""
    if cross_check is False:
        return None
    mode = "auto" if cross_check is True else cross_check
    if mode not in CROSS_CHECKS:
        raise InputError(f"cross-check must be one of {', '.join(CROSS_CHECKS)}, got {cross_check!r}")
    has_partner = chosen.answers == "optimum" and not relax and _partner(family, chosen) is not None
    if mode == "auto":
        mode = "model" if has_partner and (chosen.engine == "cp-sat" or _has_engine(family, "cp-sat")) else "solver"
    if mode == "solver" and chosen.engine != "milp":
        raise InputError(f"formulation {chosen.name} is solved by CP-SAT alone: cross-check it against another "
                         "model (--cross-check model)")
    if mode == "model" and not has_partner:
        why = "an LP relaxation" if relax else f"formulation {chosen.name} of family {family.name}"
        raise InputError(f"{why} has no second model to cross-check against (--cross-check solver compares "
                         "two solvers on the same model)")
    return mode


def _has_engine(family: Family, engine: str) -> bool:
    return any(f.engine == engine and f.answers == "optimum" for f in family.formulations.values())


def _partner(family: Family, chosen: Formulation) -> str | None:
    """The model a ``"model"`` cross-check solves next to ``chosen``: the first exact formulation of
    another engine, else the first other exact formulation; None when the family has no other."""
    others = [f for f in family.formulations.values() if f.answers == "optimum" and f.name != chosen.name]
    other_engine = [f for f in others if f.engine != chosen.engine]
    picked = other_engine or others
    return picked[0].name if picked else None


def _solve_one(family: Family, instance: Any, chosen: Formulation, relax: bool, solver: str | None, options: dict,
               cross_check: bool, deadline: float | None, start: Mapping[str, float] | None = None) -> Solved:
    """Build, solve (with the budget of ``chosen``'s engine), decode and verify one formulation;
    the solver gets the time left before ``deadline`` (the call's time limit covers the building)."""
    from .alarm import TimeUp, deadline_at, stop_after
    from .solvers import for_engine
    from .solvers import solve as solve_model
    from .solvers.door import StartRefused

    budget = for_engine(chosen.engine, options)
    if chosen.engine == "cp-sat":
        solver = None
    answers = family.answer(chosen.name, relax)
    started = time.perf_counter()
    left = None if deadline is None else deadline - started
    try:
        if left is not None and left <= 0:
            raise TimeUp
        resolve = getattr(chosen.build, "resolve", None)  # a registry.Lazy: import its module unhurried
        build = resolve() if resolve is not None else chosen.build
        with deadline_at(deadline), _inner_budget(options):
            model = build(instance, relax=relax) if left is None else stop_after(left, partial(build, instance,
                                                                                               relax=relax))
    except TimeUp:
        build_s = time.perf_counter() - started
        return Solved(family.name, chosen.name, relax, answers,
                      _out_of_time(family, chosen, relax, solver, budget, build_s), build_s)
    build_s = time.perf_counter() - started
    left = None if deadline is None else deadline - time.perf_counter()
    if left is not None and left <= 0:
        return Solved(family.name, chosen.name, relax, answers,
                      _out_of_time(family, chosen, relax, solver, budget, build_s), build_s)
    try:
        result = solve_model(model, solver=solver, cross_check=cross_check, time_limit=left, start=start, **budget)
    except StartRefused as refused:
        raise InputError(f"start: {refused}") from None
    if result.found is not None:
        return Solved(family.name, chosen.name, relax, answers, result, build_s,
                      found=result.found, found_verdict=judge(family, instance, result.found))
    if model.decoder is None or not result.has_solution:
        return Solved(family.name, chosen.name, relax, answers, result, build_s)
    schedule = model.decoder(result)
    verdict = judge(family, instance, schedule)
    return Solved(family.name, chosen.name, relax, answers, result, build_s, schedule, verdict)


def _model_of(family: Family, instance: Any, formulation: str, relax: bool) -> tuple[Any, Any]:
    """The formulation (``best`` resolved) and its PuLP model, for a file a solver outside optsched
    reads; a formulation without one (CP-SAT, computed, generated) is bad input."""
    from .solvers import Model

    family = as_family(family)
    family.check_instance(instance)
    chosen = family.formulation(family.best_formulation(instance, relax) if formulation == BEST else formulation)
    model = chosen.build(instance, relax=relax) if chosen.engine == "milp" else None
    if not isinstance(model, Model):
        raise InputError(f"formulation {chosen.name} has no MILP model to write or read (it is "
                         f"{'a CP-SAT model' if chosen.engine == 'cp-sat' else 'computed without a solver model'}); "
                         "choose a MILP formulation ('optsched families')")
    return chosen, model


@dataclass(frozen=True)
class Exported:
    """What :func:`export` wrote: the formulation (``best`` resolved) and the model's size."""

    formulation: str
    variables: int
    constraints: int


def export(family: Family, instance: Any, formulation: str, path: str, *, relax: bool = False) -> Exported:
    """Write ``formulation``'s model of ``instance`` (its LP relaxation with ``relax``) to ``path``,
    MPS or LP by the suffix (:mod:`optsched.solvers.files`), for any solver."""
    from .solvers.files import write_model

    chosen, model = _model_of(family, instance, formulation, relax)
    write_model(model.problem, path)
    return Exported(chosen.name, model.problem.numVariables(), model.problem.numConstraints())


def read_solution(family: Family, instance: Any, formulation: str, path: str, text: str) -> Solved:
    """A solution file of ``formulation``'s model (written by :func:`export`, solved elsewhere) read
    back by variable name, checked against the model, decoded and verified like a solve of optsched's
    own. Its status is ``feasible`` (nothing here proves it optimal) or ``error`` when the values
    break the model (the message says by how much); ``Result.message`` counts the variables named."""
    from .solvers import SOLUTION_TOL, Result, SolveStatus, max_violation
    from .solvers.files import read_solution as read_values
    from .solvers.model import objective_of, sense_of

    chosen, model = _model_of(family, instance, formulation, False)
    values, named = read_values(model.problem, path, text)
    broken = max_violation(model.problem, values)
    status, note = ("feasible", "") if broken <= SOLUTION_TOL else (
        "error", f"the solution breaks the model's bounds, integrality or constraints by {broken:.3g}")
    counted = f"{named} of {len(values)} variables named in {path}, the others 0"
    objective = None if note else objective_of(model.problem, values)
    result = Result(SolveStatus(status), sense_of(model.problem), True, objective, None, None, 0.0, "solution file", "",
                    values, message="; ".join(filter(None, (note, counted))))
    solved = Solved(family.name, chosen.name, False, family.answer(chosen.name), result, 0.0)
    if note or model.decoder is None:
        return solved
    schedule = model.decoder(result)
    return replace(solved, schedule=schedule, verdict=judge(family, instance, schedule))


def _out_of_time(family: Family, chosen: Formulation, relax: bool, solver: str | None, budget: dict,
                 build_s: float) -> Result:
    """The result of a solve whose time limit ran out while its model was being built."""
    from .solvers import CP_SAT, SOLVERS, Result, SolveStatus, cbc_version, cp_sat_version, highs_version, pulp_any

    name = CP_SAT if chosen.engine == "cp-sat" else solver or SOLVERS[0]
    versions = {"highs": highs_version, "cbc": cbc_version, CP_SAT: cp_sat_version}
    version = versions[name]() if name in versions else pulp_any.version(name)
    return Result(SolveStatus.NOT_SOLVED, family.sense, not relax, None, None, None, 0.0, name,
                  version, message=f"time limit reached while building the model ({build_s:.3g} s): nothing solved",
                  options={**budget, "time_limit": 0.0})


def _adjudicate(solved: Solved, other: Solved) -> Solved:
    """``solved`` with ``other`` (another model of the same problem) as its cross-check. When what
    the two prove contradicts, neither bound can be trusted: keep the better schedule the verifier
    accepts (status ``feasible``, no bound), or none."""

    from .solvers import Incumbent, adjudicate

    both = (solved, other)
    trusted = [Incumbent(s.verdict.objective, s.formulation, {}, "verified schedule")
               if s.verdict is not None and s.verdict.objective is not None and s.problem is None else None
               for s in both]
    result, kept = adjudicate(solved.result, other.result, trusted, between="models", formulation=other.formulation)
    if result.cross_check is not None and result.cross_check.verdict != "disagree":
        return replace(solved, result=result)
    if kept is None:
        return replace(solved, result=result, schedule=None, verdict=None)
    return replace(solved, result=result, schedule=both[kept].schedule, verdict=both[kept].verdict)


def run(family: Family, instance: Any, algorithm: str | Callable[..., Any], *, seed: int = 0,
        budget_s: float | None = None, **params: Any) -> Run:
    """Run ``algorithm`` on ``instance`` and verify its schedule.

    Parameters
    ----------
    family : Family
        The family (``optsched.get(name)``).
    instance
        One of the family's instances.
    algorithm : str or callable
        An algorithm the family registers, a researcher's function named ``module.path:function``
        or ``file.py:function``, or the function itself (:mod:`optsched.plugins`).
    seed : int
        For algorithms that draw random numbers (the others ignore it).
    budget_s : float, optional
        A researcher's function is stopped after this many seconds of wall clock and fails its run
        with :class:`~optsched.plugins.OverBudget` (:func:`optsched.plugins.within`); the registered
        algorithms ignore it.
    **params
        The algorithm's parameters (``optsched families`` lists them with their defaults).

    Returns
    -------
    Run

    Examples
    --------
    >>> import optsched
    >>> family = optsched.get("single")
    >>> instance = family.generate("tiny", seed=0)
    >>> wspt = optsched.run(family, instance, "wspt")
    >>> fifo = optsched.run(family, instance, "fifo")
    >>> wspt.feasible and fifo.feasible, wspt.objective <= fifo.objective
    (True, True)
    """
    family = as_family(family)
    family.check_instance(instance)
    chosen = family.algorithm(algorithm)
    seed = checked_value(seed, OPTIONS["seed"], "seed")
    budget_s = optional(budget_s, "budget_s")
    params = check_values(chosen.params, params, f"algorithm {chosen.name}")
    started = time.perf_counter()
    if chosen.external:  # a researcher's function: what it raises or returns is its own failure
        schedule = _run_external(family, chosen, instance, seed, params, budget_s)
    else:
        schedule = chosen.run(instance, seed=seed, **params)
    runtime_s = time.perf_counter() - started
    wall_clock = tuple(name for name in chosen.wall_clock if params.get(name))
    return Run(family.name, chosen.name, dict(params), seed, schedule, judge(family, instance, schedule), runtime_s,
               wall_clock, instance, family)


def _run_external(family: Family, chosen: Any, instance: Any, seed: int, params: dict, budget_s: float | None) -> Any:
    """Call a researcher's function (:mod:`optsched.plugins`) as a registered algorithm is called,
    within ``budget_s`` seconds; an exception, a result that is not one of the family's schedules, or
    a run past the budget is an ``AlgorithmFailure``."""
    seeded = {"seed": seed} if chosen.takes_seed else {}
    try:
        schedule = within(chosen.name, budget_s, lambda: chosen.run(instance, **seeded, **params))
    except AlgorithmFailure:
        raise
    except Exception as exc:
        raise failure(chosen.name, exc) from None
    try:
        family.check_schedule(schedule)
    except InputError:
        raise AlgorithmFailure(f"algorithm {chosen.name} returned a {type(schedule).__name__}, not a schedule of "
                               f"family {family.name}") from None
    return schedule


def decide(model: Model, **options: Any) -> Any | None:
    """Solve an online algorithm's own model (a decision inside its run, such as Dorm's allocation
    MILP) and decode its solution; None when the solver found none. ``options`` are those of
    :func:`optsched.solvers.solve` (the algorithm's budget).

    What it decodes is a step of the algorithm, not a schedule, so nothing is judged here: the
    algorithm's schedule is, by :func:`run`. Decoding stays in this module all the same, with the
    decoder's refusal of a non-integral value (``numeric.integral``)."""
    if model.decoder is None:
        raise ValueError("decide needs a model with a decoder")
    return inner_solve(model, **options)[1]


_INNER_BUDGET: ContextVar[Mapping[str, Any] | None] = ContextVar("optsched_inner_budget", default=None)


@contextmanager
def _inner_budget(options: Mapping[str, Any]) -> Iterator[None]:
    """Within the block, :func:`inner_solve` shares the solve's node and work limits out."""
    token = _INNER_BUDGET.set({key: options.get(key) for key in ("node_limit", "work_limit")})
    try:
        yield
    finally:
        _INNER_BUDGET.reset(token)


def inner_solve(model: Any, share: float = 1.0, **options: Any) -> tuple[Any, Any | None]:
    """Solve a model that a step needs (an algorithm's decision, or a model a formulation's building
    solves first) and decode it: ``(result, decoded)``, ``decoded`` None without a solution or a
    decoder. Inside a solve's building the step gets at most ``share`` of the solve's budgets where
    ``options`` set none: of the seconds left of a time limit (``alarm.deadline_at``;
    :class:`~optsched.alarm.TimeUp` once none are), and of a node limit or a CP-SAT work limit, so
    that a deterministic budget bounds the whole solve."""
    from .alarm import TimeUp, seconds_left
    from .solvers import CpSatModel, for_engine
    from .solvers import solve as solve_model

    left = seconds_left()
    if left is not None:
        if left <= 0:
            raise TimeUp
        options = {**options, "time_limit": min(options.get("time_limit") or left, share * left)}
    budget = _INNER_BUDGET.get() or {}
    inherited = {key: max(1, math.floor(share * value)) if key == "node_limit" else share * value
                 for key, value in budget.items() if value is not None and options.get(key) is None}
    options = {**options, **for_engine("cp-sat" if isinstance(model, CpSatModel) else "milp", inherited)}
    result = solve_model(model, **options)
    return result, (model.decoder(result) if result.has_solution and model.decoder is not None else None)
