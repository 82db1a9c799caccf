"""Edge schedules and the verifier (optsched/edge/schedule.py): each rule of problem (2), named
by its constraint, and the objective with end-exclusive completions [E1]."""

import pytest

from optsched.edge.instance import Instance, Job, Server
from optsched.edge.schedule import JobRun, Schedule, objective, verify
from optsched.errors import InputError

#: One edge server with two workers of type "w" and one PS of type "p"; a job of 2 chunks, one
#: slot per chunk at the edge, released at 1 with the edge data there at 2 and the cloud's at 3.
INSTANCE = Instance((Server(("w", "w"), ("p",)),), (Job(1, 2, 1, 1, (1,), 2),))
GOOD = JobRun(edge=((2, 0, 0), (2, 0, 1)), edge_ps=((2, 0, 0),))


def test_a_feasible_schedule_has_no_violation_and_its_jct():
    assert verify(INSTANCE, Schedule((GOOD,))) == []
    assert objective(INSTANCE, Schedule((GOOD,))) == 3 - 1  # C = last busy slot 2 + 1 [E1], r = 1


@pytest.mark.parametrize("run,rule", [
    (JobRun(edge=((1, 0, 0), (1, 0, 1)), edge_ps=((1, 0, 0),)), "(2i)"),  # before the data arrives
    (JobRun(edge=((2, 0, 0),), edge_ps=((2, 0, 0),)), "(2b)"),  # one worker-slot of the two needed
    (JobRun(edge=((2, 0, 0), (2, 0, 1))), "(2e)"),  # busy without a PS
    (JobRun(edge=((2, 0, 0), (2, 0, 1)), edge_ps=((2, 0, 0),), cloud_ps=(2,)), "(2e)"),  # two PSs
    (JobRun(cloud=((3, 3),), cloud_ps=(3,)), "(2c)"),  # three cloud workers for two chunks
    (JobRun(edge=((2, 0, 5),), edge_ps=((2, 0, 0),)), "does not exist"),
])
def test_each_violation_is_named_by_its_constraint(run, rule):
    violations = verify(INSTANCE, Schedule((run,)))
    assert any(rule in v for v in violations), violations


def test_two_jobs_on_one_worker_in_one_slot_break_2d_and_one_ps_breaks_2f():
    two = Instance(INSTANCE.servers, INSTANCE.jobs * 2)
    shared = JobRun(edge=((2, 0, 0), (3, 0, 0)), edge_ps=((2, 0, 0), (3, 0, 0)))
    violations = verify(two, Schedule((shared, shared)))
    assert any("(2d)" in v for v in violations) and any("(2f)" in v for v in violations)


def test_no_cloud_means_no_cloud_worker_or_ps():
    edge_only = Instance((Server(("w", "w"), ("p", "p")),), INSTANCE.jobs, cloud=False)
    violations = verify(edge_only, Schedule((JobRun(cloud=((3, 2),), cloud_ps=(3,)),)))
    assert any("no cloud" in v for v in violations)


def test_a_schedule_for_another_number_of_jobs_is_one_violation():
    assert verify(INSTANCE, Schedule((GOOD, GOOD))) == ["schedule has 2 entries for 1 jobs"]


def test_json_round_trip_and_all_four_keys_required():
    assert Schedule.from_dict(Schedule((GOOD,)).to_dict(), INSTANCE) == Schedule((GOOD,))
    with pytest.raises(InputError, match="edge_ps"):
        Schedule.from_dict({"jobs": [{"edge": [], "cloud": [], "cloud_ps": []}]}, INSTANCE)
