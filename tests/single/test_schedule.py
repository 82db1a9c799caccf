"""The independent verifier and the objective of 1|r_j|Σ w_j C_j (optsched/single/schedule.py)."""

import pytest

from optsched.errors import InputError
from optsched.single.instance import Instance, Job
from optsched.single.schedule import Schedule, objective, verify

INSTANCE = Instance((Job(p=2, w=3.0, r=0), Job(p=1, w=1.0, r=4), Job(p=3, w=2.0, r=1)))


def test_a_feasible_schedule_has_no_violations_and_its_weighted_completion_time():
    schedule = Schedule((0.0, 5.0, 2.0))
    assert verify(INSTANCE, schedule) == []
    assert objective(INSTANCE, schedule) == 3 * 2 + 1 * 6 + 2 * 5


def test_starting_before_the_release_date_is_reported():
    violations = verify(INSTANCE, Schedule((0.0, 3.0, 6.0)))
    assert violations == ["job 1 starts at 3, before its release date 4"]


def test_overlap_is_reported_even_between_non_neighbours():
    instance = Instance((Job(p=10, w=1.0), Job(p=1, w=1.0), Job(p=1, w=1.0)))
    violations = verify(instance, Schedule((0.0, 3.0, 5.0)))
    assert violations and all("overlap" in v for v in violations)


def test_touching_jobs_do_not_overlap():
    assert verify(INSTANCE, Schedule((0.0, 5.0, 2.0))) == []
    assert verify(Instance((Job(p=2, w=1.0), Job(p=2, w=1.0))), Schedule((0.0, 2.0))) == []


def test_from_dict_checks_the_shape_against_the_instance():
    with pytest.raises(InputError, match="has 2 start times, the instance has 3 jobs"):
        Schedule.from_dict({"start": [0, 1]}, INSTANCE)
    with pytest.raises(InputError, match=r"start\[1\]: must be a number"):
        Schedule.from_dict({"start": [0, "x", 2]}, INSTANCE)
    assert Schedule.from_dict(Schedule((0.0, 5.0, 2.5)).to_dict(), INSTANCE) == Schedule((0.0, 5.0, 2.5))
