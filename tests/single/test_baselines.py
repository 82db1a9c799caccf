"""FIFO (optsched/single/baselines.py): earliest release first, ties by index, never idle while a
job waits."""

from hypothesis import given, settings

from optsched.single.baselines import fifo
from optsched.single.instance import Instance, Job
from optsched.single.strategies import instances


def test_fifo_runs_jobs_in_release_order_with_ties_by_index():
    instance = Instance((Job(p=2, w=9.0, r=3), Job(p=1, w=1.0, r=0), Job(p=4, w=5.0, r=0)))
    assert fifo(instance).start == (5.0, 0.0, 1.0)


@given(instances())
@settings(max_examples=30)
def test_fifo_starts_are_non_decreasing_in_release_order(instance):
    start = fifo(instance).start
    order = sorted(range(instance.n), key=lambda j: (instance.jobs[j].r, j))
    assert [start[j] for j in order] == sorted(start)
