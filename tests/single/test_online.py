"""Online WSPT and FIFO: feasible, never better than the optimum, and truly online."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.single.baselines import fifo
from optsched.single.formulations import brute_force_optimum
from optsched.single.instance import Instance, Job
from optsched.single.online import wspt
from optsched.single.schedule import objective, verify
from optsched.single.strategies import instances

ALGORITHMS = [wspt, fifo]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@given(instance=instances())
@settings(max_examples=60)
def test_schedules_verify_and_never_beat_the_optimum(algorithm, instance):
    schedule = algorithm(instance)
    assert verify(instance, schedule) == []
    assert objective(instance, schedule) >= brute_force_optimum(instance)[0] - 1e-9


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@given(instance=instances(max_jobs=8))
def test_the_machine_never_idles_while_a_job_waits(algorithm, instance):
    schedule = algorithm(instance)
    order = sorted(range(instance.n), key=lambda j: schedule.start[j])
    end = 0.0
    for j in order:
        if schedule.start[j] > end:  # idle on [end, start_j): nobody released by `end` may wait
            waiting = [i for i in range(instance.n) if instance.jobs[i].r <= end and schedule.start[i] > end]
            assert waiting == [], f"idle at {end} while {waiting} wait"
        end = max(end, schedule.start[j] + instance.jobs[j].p)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@given(instance=instances(max_jobs=8), data=st.data())
def test_jobs_arriving_after_t_never_change_decisions_before_t(algorithm, instance, data):
    """Principle 3: rewrite every job released after t (sizes, weights, later releases)."""
    t = data.draw(st.integers(0, 10), label="t")
    changed = tuple(
        Job(p=data.draw(st.integers(1, 6)), w=float(data.draw(st.integers(1, 9))), r=job.r + data.draw(st.integers(0, 3)))
        if job.r > t else job
        for job in instance.jobs
    )
    before, after = algorithm(instance), algorithm(Instance(changed))
    started_before_t = {j: s for j, s in enumerate(before.start) if s < t}
    assert started_before_t == {j: s for j, s in enumerate(after.start) if s < t}


def test_wspt_prefers_weight_per_time_and_fifo_arrival():
    instance = Instance((Job(p=3, w=1.0, r=0), Job(p=1, w=5.0, r=0), Job(p=2, w=2.0, r=0)))
    assert wspt(instance).start == (3.0, 0.0, 1.0)
    assert fifo(instance).start == (0.0, 3.0, 4.0)


def test_an_idle_machine_waits_for_the_next_arrival():
    instance = Instance((Job(p=2, w=1.0, r=5), Job(p=1, w=1.0, r=9)))
    assert wspt(instance).start == (5.0, 9.0)


@given(instance=instances(max_jobs=12))
def test_each_start_is_the_best_ranked_job_waiting_then(instance):
    """The list rule itself, checked from the schedule: when a job starts, no job that had arrived
    and had not started ranks before it (WSPT's rank: largest w/p, then earlier release, then index)."""
    from fractions import Fraction

    start = wspt(instance).start
    rank = [(-Fraction(job.w) / job.p, job.r, j) for j, job in enumerate(instance.jobs)]
    for j in range(instance.n):
        waiting = [k for k in range(instance.n) if instance.jobs[k].r <= start[j] and start[k] > start[j]]
        assert all(rank[j] < rank[k] for k in waiting), (j, waiting)
