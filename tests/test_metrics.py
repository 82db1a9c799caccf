"""Per-job metrics (optsched/metrics.py): on every timeline family and every algorithm, each job's
end is the family's own completion, its JCT is end − release and never shorter than its span, no
job starts before its release, and the weighted ends of `single` add up to its objective."""

from __future__ import annotations

import math

import pytest

import optsched
from optsched.asrpt.schedule import completions

TIMELINES = ["single", "oasis", "edge", "hetero", "asrpt"]


def _own_ends(name: str, instance, schedule) -> list[float | None]:
    """Each job's end as the family's own schedule module defines its completion, on the Gantt axis."""
    if name == "single":
        return list(schedule.completion(instance))
    if name == "edge":
        return [run.completion() for run in schedule.jobs]
    if name == "oasis":
        return [plan.completion() for plan in schedule.plans]  # slot t̂ ends at t̂
    if name == "hetero":
        return [run.start - 1 + run.d for run in schedule.jobs]
    return completions(instance, schedule)


@pytest.mark.parametrize("name", TIMELINES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_jobs_end_is_the_familys_own_completion_and_its_jct_covers_its_span(name, seed):
    family = optsched.get(name)
    instance = family.generate("tiny", seed=seed, jobs=4)
    for algorithm in family.algorithms:
        ran = family.run(instance, algorithm, seed=seed)
        table = ran.jobs()
        assert list(table["job"]) == list(range(len(instance.jobs)))
        for row, own in zip(table.itertuples(), _own_ends(name, instance, ran.schedule)):
            if own is None:
                assert math.isnan(row.end) and math.isnan(row.slowdown)
                continue
            assert row.end == pytest.approx(own), (algorithm, row)
            assert row.start >= row.release - 1e-9 and row.jct == pytest.approx(row.end - row.release)
            assert row.jct >= row.span - 1e-9 and row.slowdown >= 1 - 1e-9


def test_singles_weighted_ends_are_its_objective():
    family = optsched.get("single")
    instance = family.generate("small", seed=4, jobs=8)
    ran = family.run(instance, "wspt")
    table = optsched.job_metrics(family, instance, ran.schedule)
    assert sum(job.w * end for job, end in zip(instance.jobs, table["end"])) == pytest.approx(ran.objective)


def test_a_family_without_a_timeline_has_no_job_metrics():
    family = optsched.get("placement")
    instance = family.generate("tiny", seed=0)
    ran = family.run(instance, next(iter(family.algorithms)))
    with pytest.raises(optsched.InputError, match="family placement has no timeline"):
        ran.jobs()
