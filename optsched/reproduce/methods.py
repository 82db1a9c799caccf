"""The methods a reproduction compares, run and verified in one place.

A method is a registered algorithm with its parameters and the label its rows carry
(:class:`~optsched.study.spec.Method`, the shape a study file's algorithm entry has).
:func:`run_verified` runs one through the pipeline and stops the task with
:class:`~optsched.errors.Failure` when its schedule fails the family's verifier;
:func:`verified_objective` does the same for a schedule an algorithm's own run record gives.
"""

from __future__ import annotations

from typing import Any

from ..errors import Failure
from ..pipeline import Run
from ..registry import Family
from ..study.spec import Method


def method(algorithm: str, label: str = "", /, **params: Any) -> Method:
    """The method ``algorithm`` with ``params``, labelled ``label`` (default: the algorithm's name)."""
    return Method(algorithm, params, label or algorithm)


def run_verified(family: Family, instance: Any, chosen: Method, seed: int = 0) -> Run:
    """``chosen`` run on ``instance`` by the pipeline (its schedule judged by the verifier);
    :class:`Failure` naming the method and the first violation when the schedule is infeasible.
    The family is passed in (``get("edge")``), never looked up here by a name held in a variable,
    which would tie every task's cache key to every family (study/depends.py)."""
    ran = family.run(instance, chosen.algorithm, seed=seed, **chosen.params)
    if not ran.feasible:
        raise Failure(f"{chosen.label}: infeasible schedule: {ran.verdict.violations[0]}")
    return ran


def verified_objective(family: Family, instance: Any, schedule: Any, what: str) -> float:
    """The verifier's objective of ``schedule`` (from an algorithm's own run record, which keeps more
    than the schedule); :class:`Failure` naming ``what`` and the first violation when it is infeasible.
    It runs the family's verifier and objective alone (study/depends.py reads it as a judge)."""
    verdict = family.judge(instance, schedule)
    if verdict.objective is None:
        raise Failure(f"{what}: infeasible schedule: {verdict.violations[0]}")
    return verdict.objective
