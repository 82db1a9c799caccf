"""Single-job schedules that fit the empty cluster and the offline horizon (optsched/hetero/columns.py;
spec §2.3, §2.7): compositions, every option a schedule the verifier accepts, and a horizon that
keeps every optimum."""

from dataclasses import replace
from math import comb

import pytest

from optsched.hetero.columns import compositions, horizon, options
from optsched.hetero.generate import generate
from optsched.hetero.schedule import Schedule, verify
from optsched.registry import get


@pytest.mark.parametrize("total,parts", [(0, 1), (3, 2), (4, 3), (5, 4)])
def test_compositions_are_every_split_once(total, parts):
    found = list(compositions(total, parts))
    assert len(found) == len(set(found)) == comb(total + parts - 1, parts - 1)
    assert all(len(c) == parts and sum(c) == total and min(c) >= 0 for c in found)


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
@pytest.mark.parametrize("seed", range(3))
def test_every_option_alone_at_its_arrival_is_a_feasible_schedule(framework, seed):
    instance = generate("tiny", seed, framework=framework)
    for j, opts in enumerate(options(instance)):
        alone = replace(instance, jobs=(instance.jobs[j],))
        for option in opts:
            assert verify(alone, Schedule((option.at(instance.jobs[j].arrival),))) == [], option


@pytest.mark.parametrize("seed", range(3))
def test_the_horizon_keeps_every_optimum(seed):
    instance = generate("tiny", seed)
    bound = horizon(instance, options(instance))
    solved = get("hetero").solve(instance, "time-indexed")
    assert solved.result.optimal and solved.verdict.objective <= bound.upper + 1e-9
    for j, job_schedule in enumerate(solved.schedule.jobs):
        assert job_schedule.completion <= bound.latest[j]
        assert bound.shortest[j] <= job_schedule.completion - instance.jobs[j].arrival + 1
