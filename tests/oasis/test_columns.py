"""Each job's non-dominated schedules L_i (optsched/oasis/columns.py; spec §2.2, §2.5 (b)): the
count without listing equals the listing, every column is a schedule the verifier accepts, and the
column limit refuses with the job and the count named."""

import pytest

from optsched.oasis.columns import TooManyColumns, all_columns, count_columns, enumerate_columns
from optsched.oasis.generate import generate
from optsched.oasis.schedule import REJECTED, Schedule, verify


@pytest.mark.parametrize("seed", range(4))
def test_the_count_equals_the_listing_and_columns_are_distinct(seed):
    instance = generate("tiny", seed)
    for i in range(len(instance.jobs)):
        columns = enumerate_columns(instance, i)
        assert count_columns(instance, i) == len(columns)
        assert len({(c.workers, c.ps) for c in columns}) == len(columns)


@pytest.mark.parametrize("seed", range(3))
def test_every_column_alone_is_a_feasible_schedule_with_its_utility(seed):
    instance = generate("tiny", seed)
    for i, columns in enumerate(all_columns(instance)):
        for column in columns[:25]:
            plans = [REJECTED] * len(instance.jobs)
            plans[i] = column.to_job_plan()
            assert verify(instance, Schedule(tuple(plans))) == []
            job = instance.jobs[i]
            assert column.utility == job.utility.value(column.completion - job.arrival)


def test_the_column_limit_names_the_job_and_the_count():
    instance = generate("tiny", 0)
    i = max(range(len(instance.jobs)), key=lambda j: count_columns(instance, j))
    count = count_columns(instance, i)
    assert count > 1
    with pytest.raises(TooManyColumns, match=f"job {i} has {count:,} non-dominated schedules"):
        enumerate_columns(instance, i, limit=count - 1)
