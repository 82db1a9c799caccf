"""The methods a reproduction compares (optsched/reproduce/methods.py): one guard for every run."""

import dataclasses

import pytest

from optsched.errors import Failure
from optsched.registry import get
from optsched.reproduce import method, run_verified, verified_objective
from optsched.single.schedule import Schedule


def test_a_method_is_the_study_files_shape_labelled_by_its_algorithm_by_default():
    assert method("wspt") == method("wspt", "wspt") and method("rrh", "rrh-0.5", theta=0.5).params == {"theta": 0.5}


def test_a_verified_run_is_the_pipelines_and_an_infeasible_one_stops_the_task(monkeypatch):
    family = get("single")
    instance = family.generate("tiny", seed=1)
    ran = run_verified(family, instance, method("wspt"), seed=0)
    assert ran.feasible and ran.objective == family.run(instance, "wspt").objective
    overlapping = Schedule(tuple(0.0 for _ in instance.jobs))  # every job at time 0 on one machine
    broken = dataclasses.replace(family.algorithms["fifo"], run=lambda *a, **k: overlapping)
    monkeypatch.setitem(family.algorithms, "fifo", broken)
    with pytest.raises(Failure, match="^FIFO then: infeasible schedule: "):
        run_verified(family, instance, method("fifo", "FIFO then"))
    with pytest.raises(Failure, match="^by hand: infeasible schedule: "):
        verified_objective(family, instance, overlapping, "by hand")
    assert verified_objective(family, instance, ran.schedule, "WSPT") == ran.objective
