"""Placements and their verifier (optsched/placement/schedule.py)."""

from optsched.placement.instance import Job, PlacementInstance, Stage
from optsched.placement.schedule import Placement
from optsched.placement.schedule import verify as verify_placement


def test_placement_verifier_catches_each_violation():
    job = Job((Stage(0.01, 2, 1.0, 1.0), Stage(0.01, 1)))
    instance = PlacementInstance(job, 4, 100.0, 1000.0, (2, 2), "at_most")
    assert verify_placement(instance, Placement(((2, 0), (0, 1)))) == []
    assert any("stage 1" in p for p in verify_placement(instance, Placement(((2, 0), (0, 0)))))
    assert any("server 0" in p for p in verify_placement(instance, Placement(((2, 1), (0, 0)))))
    exact = PlacementInstance(job, 4, 100.0, 1000.0, (2, 1), "exact")
    assert verify_placement(exact, Placement(((2, 0), (0, 1)))) == []
    assert any("exactly" in p for p in verify_placement(exact, Placement(((1, 0), (1, 1)))))

