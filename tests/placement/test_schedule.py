"""Placements and their verifier (optsched/placement/schedule.py)."""

from optsched.placement.instance import Instance, Job, Stage
from optsched.placement.schedule import Schedule
from optsched.placement.schedule import verify as verify_placement


def test_placement_verifier_catches_each_violation():
    job = Job((Stage(0.01, 2, 1.0, 1.0), Stage(0.01, 1)))
    instance = Instance(job, 4, 100.0, 1000.0, (2, 2), "at_most")
    assert verify_placement(instance, Schedule(((2, 0), (0, 1)))) == []
    assert any("stage 1" in p for p in verify_placement(instance, Schedule(((2, 0), (0, 0)))))
    assert any("server 0" in p for p in verify_placement(instance, Schedule(((2, 1), (0, 0)))))
    exact = Instance(job, 4, 100.0, 1000.0, (2, 1), "exact")
    assert verify_placement(exact, Schedule(((2, 0), (0, 1)))) == []
    assert any("exactly" in p for p in verify_placement(exact, Schedule(((1, 0), (1, 1)))))

